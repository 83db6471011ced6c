// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/poll.c - polled grace periods: what satisfies a cookie, that a
 * reader already inside a section holds it back, that
 * rculist_start_poll_synchronize_rcu() needs nobody to wait (nor
 * liburcu's call_rcu thread: rculist's grace-period thread does it),
 * that cookies compare right across the counter's wrap, and that a child
 * of fork() gets working polled grace periods, a cookie taken before the
 * fork included; and that a poll while the grace-period thread starts
 * is not lost.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "hold.h"

TestSuite(poll, .timeout = 60);

/* Non-zero if @c is satisfied within @ms milliseconds (polling only). */
static int satisfied_within(struct rculist_gp_cookie c, long ms)
{
	long waited;

	for (waited = 0; waited < ms; waited++) {
		if (rculist_poll_state_synchronize_rcu(c))
			return 1;
		usleep(1000);
	}
	return rculist_poll_state_synchronize_rcu(c);
}

/* Nothing but a grace period satisfies a cookie, and it stays satisfied. */
Test(poll, get_state_is_satisfied_by_a_grace_period_only)
{
	struct rculist_gp_cookie c = rculist_get_state_synchronize_rcu();
	struct rculist_gp_cookie c2;

	cr_assert_not(satisfied_within(c, 50),
		      "a cookie was satisfied with no grace period at all");
	rculist_synchronize_rcu();
	cr_assert(rculist_poll_state_synchronize_rcu(c),
		  "not satisfied after rculist_synchronize_rcu()");

	c2 = rculist_get_state_synchronize_rcu();
	cr_assert_not(rculist_poll_state_synchronize_rcu(c2),
		      "a cookie taken after the last grace period is satisfied");
	rculist_cond_synchronize_rcu(c2);
	cr_assert(rculist_poll_state_synchronize_rcu(c2),
		  "not satisfied after rculist_cond_synchronize_rcu()");
	cr_assert(rculist_poll_state_synchronize_rcu(c),
		  "an old cookie is no longer satisfied");
}

/*
 * before: a reader is inside a section; start_poll returns at once.
 * after:  its cookie stays unsatisfied while the reader reads, and is
 *         satisfied once it left, with nobody calling
 *         rculist_synchronize_rcu() (this thread only polls).
 */
Test(poll, start_poll_waits_for_a_pre_existing_reader_and_needs_no_waiter)
{
	pthread_t tid = hold_start();
	struct rculist_gp_cookie c = rculist_start_poll_synchronize_rcu();

	cr_assert_not(satisfied_within(c, 200),
		      "a polled grace period ended while a reader read");
	hold_leave();
	cr_assert(satisfied_within(c, 20000),
		  "start_poll's grace period did not end within 20 s of the reader leaving");
	hold_finish(tid);
}

/* Run rculist_cond_synchronize_rcu() in a thread of its own, to watch it. */
struct cond_waiter {
	pthread_t tid;
	struct rculist_gp_cookie cookie;
	int done;
};

static void *cond_waiter_main(void *arg)
{
	struct cond_waiter *w = arg;

	rculist_cond_synchronize_rcu(w->cookie);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void cond_waiter_start(struct cond_waiter *w, struct rculist_gp_cookie c)
{
	w->cookie = c;
	w->done = 0;
	cr_assert_eq(pthread_create(&w->tid, NULL, cond_waiter_main, w), 0);
}

static int cond_waiter_done_within(struct cond_waiter *w, long ms)
{
	long waited;

	for (waited = 0; waited <= ms; waited++) {
		if (__atomic_load_n(&w->done, __ATOMIC_ACQUIRE)) {
			cr_assert_eq(pthread_join(w->tid, NULL), 0);
			return 1;
		}
		usleep(1000);
	}
	return 0;
}

/*
 * A cookie satisfied before a reader entered: cond_synchronize returns
 * while the reader still reads.  One taken after it entered: it waits
 * for the reader, and returns once the reader left.
 */
Test(poll, cond_synchronize_waits_only_for_an_unsatisfied_cookie)
{
	struct rculist_gp_cookie old = rculist_get_state_synchronize_rcu();
	struct rculist_gp_cookie fresh;
	struct cond_waiter w;
	pthread_t tid;

	rculist_synchronize_rcu();
	tid = hold_start();
	fresh = rculist_get_state_synchronize_rcu();

	cond_waiter_start(&w, old);
	cr_assert(cond_waiter_done_within(&w, 20000),
		  "cond_synchronize blocked on a satisfied cookie");
	cond_waiter_start(&w, fresh);
	cr_assert_not(cond_waiter_done_within(&w, 200),
		      "cond_synchronize returned while a pre-existing reader read");
	cr_assert_not(rculist_poll_state_synchronize_rcu(fresh));
	hold_leave();
	cr_assert(cond_waiter_done_within(&w, 20000),
		  "cond_synchronize did not return within 20 s of the reader leaving");
	cr_assert(rculist_poll_state_synchronize_rcu(fresh));
	hold_finish(tid);
}

/* ---------------------------------------------------------- wrap, many */

/*
 * The counters start 100 grace periods short of wrapping: 300 grace
 * periods, alternately waited for and polled, take the cookies across.
 * Each cookie is unsatisfied before its grace period and satisfied
 * after, and the first one is still satisfied at the end.
 */
Test(poll, cookies_compare_across_the_wrap)
{
	struct rculist_gp_cookie first = rculist_get_state_synchronize_rcu();
	struct rculist_gp_cookie prev = first, c;
	int i, wrapped = 0;

	for (i = 0; i < 300; i++) {
		c = rculist_get_state_synchronize_rcu();
		if (c.seq < prev.seq)
			wrapped = 1;
		prev = c;
		cr_assert_not(rculist_poll_state_synchronize_rcu(c),
			      "cookie %lu satisfied before its grace period",
			      c.seq);
		if (i % 2) {
			rculist_synchronize_rcu();
		} else {
			c = rculist_start_poll_synchronize_rcu();
			cr_assert(satisfied_within(c, 20000),
				  "start_poll cookie %lu not satisfied in 20 s",
				  c.seq);
		}
		cr_assert(rculist_poll_state_synchronize_rcu(prev),
			  "cookie %lu not satisfied after its grace period",
			  prev.seq);
	}
	cr_assert(wrapped,
		  "300 grace periods did not wrap the counter (%lu to %lu)",
		  first.seq, prev.seq);
	cr_assert(rculist_poll_state_synchronize_rcu(first),
		  "cookie %lu, from before the wrap, no longer satisfied",
		  first.seq);
}

/* Threads calling start_poll at once: every cookie is satisfied. */
#define POLLERS	 4
#define PER_POLL 2000

static void *poller_main(void *arg)
{
	struct rculist_gp_cookie *c = arg;
	int i;

	for (i = 0; i < PER_POLL; i++)
		c[i] = rculist_start_poll_synchronize_rcu();
	return NULL;
}

Test(poll, concurrent_start_polls_are_all_satisfied)
{
	static struct rculist_gp_cookie c[POLLERS][PER_POLL];
	pthread_t tid[POLLERS];
	int t, i;

	for (t = 0; t < POLLERS; t++)
		cr_assert_eq(pthread_create(&tid[t], NULL, poller_main, c[t]), 0);
	for (t = 0; t < POLLERS; t++)
		cr_assert_eq(pthread_join(tid[t], NULL), 0);
	for (t = 0; t < POLLERS; t++)
		for (i = 0; i < PER_POLL; i++)
			cr_assert(satisfied_within(c[t][i], 20000),
				  "poller %d's cookie %d (%lu) not satisfied in 20 s",
				  t, i, c[t][i].seq);
}

/* ------------------------------------------ no call_rcu thread involved */

static int blocker_ran, blocker_release;

/*
 * A callback that holds liburcu's call_rcu thread until released; the
 * thread, a qsbr reader, is offline meanwhile (it blocks).
 */
static void blocker(struct rcu_head *head)
{
	long ms;

	(void)head;
	rculist_thread_offline();
	__atomic_store_n(&blocker_ran, 1, __ATOMIC_RELEASE);
	for (ms = 0;
	     ms < 60000 && !__atomic_load_n(&blocker_release, __ATOMIC_ACQUIRE);
	     ms++)
		usleep(1000);
	rculist_thread_online();
}

/*
 * before: liburcu's call_rcu thread is stuck in a callback.
 * after:  start_poll's cookies are satisfied all the same, 20 times:
 *         its grace periods come from rculist's own thread, not from a
 *         callback queued behind the stuck one (nor from this thread,
 *         which only polls).
 */
Test(poll, start_poll_needs_no_call_rcu_thread)
{
	static struct rcu_head head;
	struct rculist_gp_cookie c;
	int i;

	rculist_call_rcu(&head, blocker);
	while (!__atomic_load_n(&blocker_ran, __ATOMIC_ACQUIRE))
		usleep(1000);
	for (i = 0; i < 20; i++) {
		c = rculist_start_poll_synchronize_rcu();
		cr_assert(satisfied_within(c, 20000),
			  "cookie %d not satisfied in 20 s while the call_rcu thread was busy",
			  i);
	}
	__atomic_store_n(&blocker_release, 1, __ATOMIC_RELEASE);
	rculist_rcu_barrier();
}

/* ----------------------------------------------------------------- fork */

static struct rculist_gp_cookie latest;
static int latest_set, polling_stop;

/* start_poll flat out: the grace-period thread is always busy. */
static void *poller_flat_out(void *arg)
{
	struct rculist_gp_cookie c;

	(void)arg;
	while (!__atomic_load_n(&polling_stop, __ATOMIC_ACQUIRE)) {
		c = rculist_start_poll_synchronize_rcu();
		__atomic_store_n(&latest.seq, c.seq, __ATOMIC_RELEASE);
		__atomic_store_n(&latest_set, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/*
 * In the child: the cookie the parent's poller took last before the fork
 * is satisfied by polling alone (a cookie waiting at the fork gets a
 * grace-period thread of the child's own), and so is a fresh one; then
 * rculist_synchronize_rcu() returns (the parent's grace-period thread
 * was not inside liburcu's grace period at the fork).
 */
static void child_polls(void)
{
	struct rculist_gp_cookie c = latest;

	if (!satisfied_within(c, 10000))
		_exit(3);
	c = rculist_start_poll_synchronize_rcu();
	if (!satisfied_within(c, 10000))
		_exit(4);
	rculist_synchronize_rcu();
	_exit(0);
}

/*
 * 20 forks while another thread calls start_poll flat out: each child
 * must exit 0 within 20 s (3: the parent's last cookie never satisfied;
 * 4: a fresh one never; -1: it hung).
 */
Test(poll, fork_while_polling_gives_the_child_working_polled_grace_periods)
{
	pthread_t tid;
	int i, st;

	cr_assert_eq(pthread_create(&tid, NULL, poller_flat_out, NULL), 0);
	while (!__atomic_load_n(&latest_set, __ATOMIC_ACQUIRE))
		usleep(1000);
	for (i = 0; i < 20; i++) {
		pid_t pid = fork();

		if (pid == 0)
			child_polls();
		cr_assert_geq(pid, 0);
		st = wait_bounded(pid, 20000);
		cr_assert_eq(st, 0, "fork %d: child status %d", i, st);
	}
	__atomic_store_n(&polling_stop, 1, __ATOMIC_RELEASE);
	cr_assert_eq(pthread_join(tid, NULL), 0);
}

/* ------------------------------------- the grace-period thread's start */

/*
 * The library names each thread it starts with pthread_setname_np(),
 * after creating it and before marking it running (core/spawn.c, then
 * gp_start() in core/poll.c).  This definition, which the library's
 * call binds to, passes every call on; armed, it holds the creator of
 * "rculist-gp" there until the new thread has ended the first grace
 * period and sleeps, and then polls once more: the window in which a
 * poll found the thread "starting", left the wake-up to its creator,
 * and the creator never gave it (the thread slept for good, with a
 * cookie waiting).
 */
static struct {
	int armed, held;
	int asleep; /* the new thread was seen asleep */
	struct rculist_gp_cookie first, late;
} su;

/* Non-zero if the thread named rculist-gp is asleep ('S' in its stat). */
static int gp_thread_asleep(void)
{
	char path[300], buf[256], *s;
	struct dirent *d;
	int asleep = 0;
	DIR *dir = opendir("/proc/self/task");
	FILE *f;

	if (!dir)
		return 0;
	while (!asleep && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/stat",
			 d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && strstr(buf, "(rculist-gp) ")) {
			s = strstr(buf, "(rculist-gp) ") +
			    strlen("(rculist-gp) ");
			asleep = *s == 'S';
		}
		fclose(f);
	}
	closedir(dir);
	return asleep;
}

int pthread_setname_np(pthread_t t, const char *name)
{
	int (*real)(pthread_t, const char *) =
		(int (*)(pthread_t, const char *))dlsym(RTLD_NEXT,
							"pthread_setname_np");
	int err = real ? real(t, name) : ENOSYS;
	long ms;

	if (strcmp(name, "rculist-gp") ||
	    !__atomic_exchange_n(&su.armed, 0, __ATOMIC_SEQ_CST))
		return err;
	su.held = 1;
	/* Generous bounds: the machine may be loaded. */
	for (ms = 0;
	     ms < 20000 && !rculist_poll_state_synchronize_rcu(su.first); ms++)
		usleep(1000);
	for (ms = 0; ms < 20000 && !(su.asleep = gp_thread_asleep()); ms++)
		usleep(1000);
	usleep(10000); /* asleep: parked, and not about to look again */
	su.late = rculist_start_poll_synchronize_rcu();
	return err;
}

/*
 * before: no grace-period thread yet; the first start_poll creates it,
 *         and is held after creating it (above) while the thread ends
 *         that poll's grace period and goes to sleep; then one more
 *         start_poll, its creator not yet back.
 * after:  both cookies are satisfied by polling alone (20 s bound): the
 *         second poll's grace period was not lost.
 */
Test(poll, a_poll_while_the_thread_starts_is_not_lost)
{
	struct rculist_gp_cookie c;

	su.first = rculist_get_state_synchronize_rcu();
	__atomic_store_n(&su.armed, 1, __ATOMIC_SEQ_CST);
	c = rculist_start_poll_synchronize_rcu();
	cr_assert(su.held,
		  "this start_poll did not start the grace-period thread (already running?)");
	cr_assert_eq(c.seq, su.first.seq);
	cr_assert(rculist_poll_state_synchronize_rcu(c),
		  "the first grace period did not end within 20 s");
	cr_assert(su.asleep,
		  "the grace-period thread was not seen asleep within 20 s");
	cr_assert(satisfied_within(su.late, 20000),
		  "no progress: a cookie taken while the grace-period thread started is not satisfied in 20 s (lost wake-up: the thread sleeps with a grace period wanted)");
}
