// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/bp_exit/signal_first.c - bp: a thread's first read-side critical
 * section, run in a signal handler, allocates nothing and still arms the
 * watch of the thread's exit (core/thread.c).
 *
 * A thread that never registers and has made no rculist call waits; the
 * main thread sends it SIGUSR1, whose handler opens and closes a
 * section: liburcu-bp registers the thread there, and rculist arms the
 * watch.  This program's malloc(), calloc(), realloc() and free() (which
 * glibc's and the libraries' own calls reach too) count the calls made
 * while the handler runs: a handler that interrupted malloc() in its
 * thread would deadlock or corrupt the heap on any of them.  Then the
 * thread opens a section and returns inside it: the error handler,
 * which returns, must have been called once, naming the thread, while
 * its section was still seen; and the next grace period must end (the
 * thread cleaned up).  Outside Criterion: its own allocator would count.
 */
#define _GNU_SOURCE /* pthread_setname_np() */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rculist.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

static __thread int in_handler;
static unsigned long in_handler_calls;

static void count(void)
{
	if (in_handler)
		__atomic_add_fetch(&in_handler_calls, 1, __ATOMIC_RELAXED);
}

void *malloc(size_t size)
{
	count();
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	count();
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	count();
	return __libc_realloc(p, size);
}

void free(void *p)
{
	count();
	__libc_free(p);
}

static int handled, synced, reports, reading_at_report;
static char last[600];

static void on_sigusr1(int sig) RCULIST_NO_RCU_ANALYSIS
{
	(void)sig;
	in_handler = 1;
	rculist_read_lock(); /* the thread's first section */
	rculist_read_unlock();
	in_handler = 0;
	__atomic_store_n(&handled, 1, __ATOMIC_RELEASE);
}

static void returning_handler(const struct rculist_error *err)
{
	reports++;
	reading_at_report = rculist_read_ongoing();
	snprintf(last, sizeof(last), "%s", err->message);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Waits for the signal, then leaves a section open as it returns. */
static void *lazy(void *arg) RCULIST_NO_RCU_ANALYSIS
{
	int i;

	(void)arg;
	pthread_setname_np(pthread_self(), "lazy");
	for (i = 0; i < 10000 && !__atomic_load_n(&handled, __ATOMIC_ACQUIRE); i++)
		sleep_ms(1);
	rculist_read_lock();
	return NULL;
}

static void *synchronizer(void *arg)
{
	(void)arg;
	rculist_synchronize_rcu();
	__atomic_store_n(&synced, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int fail(const char *what)
{
	fprintf(stderr, "signal_first: %s (last report: \"%s\")\n", what, last);
	return 1;
}

int main(void)
{
	struct sigaction sa;
	pthread_t t;
	int i;

	if (strcmp(rculist_flavor_name(), "bp") != 0)
		return fail("not linked with -lrculist-bp");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigusr1;
	sigemptyset(&sa.sa_mask);
	rculist_set_error_handler(returning_handler);
	if (sigaction(SIGUSR1, &sa, NULL) ||
	    pthread_create(&t, NULL, lazy, NULL) || pthread_kill(t, SIGUSR1) ||
	    pthread_join(t, NULL))
		return fail("setting up failed");
	if (!__atomic_load_n(&handled, __ATOMIC_ACQUIRE))
		return fail("no progress: the signal was not handled in 10 s");
	if (in_handler_calls)
		return fail("the first section in a signal handler allocated");
	if (reports != 1)
		return fail(
			"not reported once: the first section, in a signal handler, did not arm the watch");
	if (!strstr(last, "thread \"lazy\" (tid ") ||
	    !strstr(last, "exits inside a read-side critical section (bp)"))
		return fail("the report does not name the thread and bp");
	if (!reading_at_report)
		return fail("reported after the thread was cleaned up");
	if (pthread_create(&t, NULL, synchronizer, NULL))
		return fail("setting up failed");
	for (i = 0; i < 500 && !__atomic_load_n(&synced, __ATOMIC_ACQUIRE); i++)
		sleep_ms(10);
	if (!__atomic_load_n(&synced, __ATOMIC_ACQUIRE))
		return fail(
			"no progress: no grace period ended in 5 s, the exited thread is still counted as a reader");
	pthread_join(t, NULL);
	printf("signal_first: the first section in a signal handler made no allocator call and armed the watch; the exit was reported, then cleaned up\n");
	return 0;
}
