// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/tsan/bugs.c - RCU misuses that ThreadSanitizer must still report
 * once rculist tells it what grace periods order, each beside the same
 * program with the misuse fixed, which it must not report.
 *
 *   bugs <bug> planted|fixed
 *
 *   early-free         free right after cds_list_del_rcu(), no grace
 *                      period (fixed: rculist_synchronize_rcu() first)
 *   init-after-publish a field written after cds_list_add_rcu() made the
 *                      element reachable (fixed: written before)
 *   plain-add          cds_list_add() while readers walk (fixed: _rcu)
 *   plain-del          cds_list_del() while readers walk (fixed: _rcu)
 *   use-after-unlock   a reader uses an element after rculist_read_unlock()
 *                      (and, for qsbr, a quiescent state) while the updater
 *                      frees it after a grace period (fixed: the use inside
 *                      the section)
 *
 * One reader thread walks the list (forwards, with
 * cds_list_for_each_entry_rcu(), reading every field) while the main
 * thread updates it.  Every wait is for the other thread's progress,
 * bounded by WAIT_S seconds.  Exit status 0 when the program ran; the
 * verdict is ThreadSanitizer's (tests/tsan/tsan.mk counts its reports,
 * and requires one naming this file for a planted bug, none for a fixed
 * one).
 *
 * use-after-unlock is built so that the over-approximate release and
 * acquire of core/tsan.c cannot hide it: the reader's last release
 * (its quiescent state) comes before the use, and it makes no other
 * until the updater has freed the element; the updater acquires once,
 * after its grace period, before the reader's use.  The two threads
 * signal each other through relaxed atomics, which order nothing for
 * ThreadSanitizer.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>

#define WAIT_S 60

struct item {
	int key;
	int val;
	struct cds_list_head node;
};

static CDS_LIST_HEAD(list);
static unsigned long walks; /* the reader's progress */
static int stop;
/* use-after-unlock's handshake */
static struct item *taken;
static int gp_done, used;

#define LOAD(x)	    __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

static void die(const char *what)
{
	fprintf(stderr, "bugs: %s\n", what);
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait until *@p is at least @v, bounded. */
static void wait_for(const unsigned long *p, unsigned long v, const char *what)
{
	double end = now() + WAIT_S;

	while (__atomic_load_n(p, __ATOMIC_RELAXED) < v) {
		if (now() > end)
			die(what);
		usleep(100);
	}
}

static void wait_walks(unsigned long more)
{
	wait_for(&walks, LOAD(walks) + more, "the reader made no progress");
}

static struct item *item_new(int key)
{
	struct item *it = malloc(sizeof(*it));

	if (!it)
		die("out of memory");
	it->key = key;
	it->val = key * 10;
	return it;
}

static void *reader(void *arg)
{
	struct item *it;
	long sum = 0;

	(void)arg;
	rculist_register_thread();
	while (!LOAD(stop)) {
		rculist_read_lock();
		cds_list_for_each_entry_rcu(it, &list, node)
			sum += it->key + it->val;
		rculist_read_unlock();
		rculist_quiescent_state();
		__atomic_add_fetch(&walks, 1, __ATOMIC_RELAXED);
	}
	rculist_unregister_thread();
	return (void *)sum;
}

/*
 * use-after-unlock's reader: one element taken inside a section, used
 * after it (planted) or inside it (fixed).
 */
static void *late_reader(void *arg)
{
	int fixed = arg != NULL, v = 0;
	struct item *it;

	rculist_register_thread();
	rculist_read_lock();
	it = cds_list_first_or_null_rcu(&list, struct item, node);
	if (!it)
		die("empty list");
	if (fixed)
		v = it->val;
	rculist_read_unlock();
	rculist_quiescent_state();
	STORE(taken, it);
	/* qsbr: the updater's grace period waits for quiescent states. */
	while (!LOAD(gp_done))
		rculist_quiescent_state();
	if (!fixed)
		v = it->val; /* the bug: after the section */
	STORE(used, 1);
	/* No release (unlock, quiescent state, exit) until the free. */
	while (LOAD(stop) < 1)
		usleep(100);
	rculist_unregister_thread();
	return (void *)(long)v;
}

static void use_after_unlock(int fixed)
{
	unsigned long one = 1;
	struct item *it = item_new(1);
	pthread_t t;
	double end;

	cds_list_add_rcu(&it->node, &list);
	if (pthread_create(&t, NULL, late_reader, fixed ? &one : NULL))
		die("pthread_create");
	end = now() + WAIT_S;
	while (!LOAD(taken)) {
		if (now() > end)
			die("the reader took nothing");
		usleep(100);
	}
	cds_list_del_rcu(&it->node);
	rculist_synchronize_rcu();
	STORE(gp_done, 1);
	end = now() + WAIT_S;
	while (!LOAD(used)) {
		if (now() > end)
			die("the reader did not use it");
		usleep(100);
	}
	free(it);
	STORE(stop, 1);
	pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
	struct item *it, *n, *gone = NULL;
	int fixed, i;
	pthread_t t;

	if (argc != 3 || (strcmp(argv[2], "planted") && strcmp(argv[2], "fixed")))
		die("usage: bugs early-free|init-after-publish|plain-add|plain-del|use-after-unlock planted|fixed");
	fixed = !strcmp(argv[2], "fixed");

	if (!strcmp(argv[1], "use-after-unlock")) {
		use_after_unlock(fixed);
		printf("bugs: %s %s ran\n", argv[1], argv[2]);
		return 0;
	}

	for (i = 0; i < 4; i++)
		cds_list_add_tail_rcu(&item_new(i)->node, &list);
	if (pthread_create(&t, NULL, reader, NULL))
		die("pthread_create");
	wait_walks(100);

	if (!strcmp(argv[1], "early-free")) {
		it = cds_list_first_entry(&list, struct item, node);
		cds_list_del_rcu(&it->node);
		if (fixed)
			rculist_synchronize_rcu();
		free(it);
	} else if (!strcmp(argv[1], "init-after-publish")) {
		it = malloc(sizeof(*it));
		if (!it)
			die("out of memory");
		it->key = 7;
		if (fixed)
			it->val = 70;
		cds_list_add_rcu(&it->node, &list);
		if (!fixed)
			it->val = 70; /* the bug: after publication */
	} else if (!strcmp(argv[1], "plain-add")) {
		it = item_new(8);
		if (fixed)
			cds_list_add_rcu(&it->node, &list);
		else
			cds_list_add(&it->node, &list);
	} else if (!strcmp(argv[1], "plain-del")) {
		it = cds_list_first_entry(&list, struct item, node);
		if (fixed)
			cds_list_del_rcu(&it->node);
		else
			cds_list_del(&it->node);
		gone = it; /* freed once the reader has gone */
	} else {
		die("unknown bug");
	}
	wait_walks(100);
	STORE(stop, 1);
	pthread_join(t, NULL);
	free(gone);
	cds_list_for_each_entry_safe(it, n, &list, node)
		free(it);
	printf("bugs: %s %s ran\n", argv[1], argv[2]);
	return 0;
}
