// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/exit/exit.c - a program leaves main() with its main thread
 * registered (under qsbr: online) while reclamation it queued is still
 * pending, and the process must end, promptly and with status 0.
 *
 * Public API only, as a program would use it: the main thread registers,
 * builds a list, removes every other element, frees half of those with
 * rculist_free_rcu() and hands the other half to rculist_call_rcu() (so
 * that liburcu's call_rcu thread runs, a batch queued to it), checks the
 * list both ways, prints one line, then keeps working online for
 * LINGER_MS (its last output, say) without announcing a quiescent state:
 * long enough for liburcu's call_rcu thread to take the batch and start
 * a grace period that waits for this thread.  Then it leaves main():
 *   return        main() returns, no other thread;
 *   exit-reading  exit(0) while a registered reader still walks the list
 *                 in and out of read-side critical sections (announcing
 *                 quiescent states between walks under qsbr), checking
 *                 the key of each element it meets (rculist_call_rcu()'s
 *                 callback poisons its element before freeing it);
 *   exit-parked   exit(0) while a registered thread is blocked outside
 *                 any section (offline under qsbr) in read() of a pipe
 *                 nobody writes.
 * Against liburcu 0.15, whose destructor stops its call_rcu thread and
 * waits for it, a qsbr process whose exiting thread stayed online waited
 * for ever (that thread's grace period waits for the exiting thread):
 * tests/exit/run.sh runs each program under a timeout.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>

enum { NITEMS = 64, LINGER_MS = 20, POISON = -1 };
/* How long main waits for the other thread's first step. */
static const double PROGRESS_SECS = 30;

struct item {
	int key;
	struct cds_list_head node;
	struct rcu_head rcu;
};

static CDS_LIST_HEAD(items);
static unsigned long walks; /* the reader's completed walks */
static int parked;	    /* the parked thread is about to block */
static int pipe_fd[2];

static void fail(const char *what)
{
	fprintf(stderr, "exit test (%s): %s\n", rculist_flavor_name(), what);
	exit(2);
}

/* rculist_call_rcu()'s callback: poison, then free. */
static void poison_free(struct rcu_head *head)
{
	struct item *it =
		(struct item *)((char *)head - offsetof(struct item, rcu));

	__atomic_store_n(&it->key, POISON, __ATOMIC_RELAXED);
	free(it);
}

static void *reader(void *arg)
{
	struct item *it;

	(void)arg;
	rculist_register_thread();
	for (;;) {
		rculist_read_lock();
		cds_list_for_each_entry_rcu(it, &items, node) {
			int key = __atomic_load_n(&it->key, __ATOMIC_RELAXED);

			if (key < 0 || key >= NITEMS)
				fail("the reader met a freed element");
		}
		rculist_read_unlock();
		rculist_quiescent_state();
		__atomic_add_fetch(&walks, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void *parker(void *arg)
{
	char c;

	(void)arg;
	rculist_register_thread();
	rculist_thread_offline();
	__atomic_store_n(&parked, 1, __ATOMIC_RELEASE);
	if (read(pipe_fd[0], &c, 1) >= 0)
		fail("the parked thread read from a pipe nobody writes");
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait, offline, until *flag is non-zero: the thread's first step. */
static void wait_for(const unsigned long *count, const int *flag,
		     const char *thread)
{
	double end = now() + PROGRESS_SECS;
	char msg[128];

	rculist_thread_offline();
	while (!(count ? __atomic_load_n(count, __ATOMIC_ACQUIRE) :
			 (unsigned long)__atomic_load_n(flag, __ATOMIC_ACQUIRE))) {
		if (now() > end) {
			snprintf(msg, sizeof(msg),
				 "no progress: the %s thread "
				 "made no first step in %.0f s",
				 thread, PROGRESS_SECS);
			fail(msg);
		}
		usleep(1000);
	}
	rculist_thread_online();
}

/*
 * before: [h] -> 0 -> 1 -> ... -> 63
 * after:  [h] -> 1 -> 3 -> ... -> 63, both ways
 */
static void check_odd_keys(void)
{
	struct cds_list_head *pos;
	int key = 1, n = 0;

	cds_list_for_each(pos, &items) {
		if (cds_list_entry(pos, struct item, node)->key != key)
			fail("forward walk: wrong element");
		key += 2;
		n++;
	}
	key -= 2;
	for (pos = items.prev; pos != &items; pos = pos->prev) {
		if (pos->next->prev != pos ||
		    cds_list_entry(pos, struct item, node)->key != key)
			fail("backward walk: wrong element or link");
		key -= 2;
	}
	if (n != NITEMS / 2 || key != -1)
		fail("the list does not hold the odd keys");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	struct item *it, *tmp;
	pthread_t thread;
	int i, freed = 0, called = 0;

	if (strcmp(mode, "return") && strcmp(mode, "exit-reading") &&
	    strcmp(mode, "exit-parked")) {
		fprintf(stderr, "usage: %s return|exit-reading|exit-parked\n",
			argv[0]);
		return 2;
	}
	rculist_register_thread();
	for (i = 0; i < NITEMS; i++) {
		it = malloc(sizeof(*it));
		if (!it)
			fail("out of memory");
		it->key = i;
		cds_list_add_tail_rcu(&it->node, &items);
	}
	if (!strcmp(mode, "exit-reading")) {
		if (pthread_create(&thread, NULL, reader, NULL))
			fail("pthread_create");
		wait_for(&walks, NULL, "reader");
	} else if (!strcmp(mode, "exit-parked")) {
		if (pipe(pipe_fd) || pthread_create(&thread, NULL, parker, NULL))
			fail("pipe or pthread_create");
		wait_for(NULL, &parked, "parked");
	}
	i = 0;
	cds_list_for_each_entry_safe(it, tmp, &items, node) {
		if (it->key % 2)
			continue;
		cds_list_del_rcu(&it->node);
		if (i++ % 2) {
			rculist_free_rcu(it, rcu);
			freed++;
		} else {
			rculist_call_rcu(&it->rcu, poison_free);
			called++;
		}
	}
	check_odd_keys();
	printf("%s %s: %d left, both ways; %d free_rcu and %d call_rcu queued\n",
	       rculist_flavor_name(), mode, NITEMS / 2, freed, called);
	fflush(stdout);
	/* Online, no quiescent state: the call_rcu thread's grace period waits. */
	usleep(LINGER_MS * 1000);
	if (!strcmp(mode, "return"))
		return 0;
	exit(0);
}
