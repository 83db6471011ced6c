// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/reclaim_nested.c - callbacks that queue callbacks, against
 * rculist_rcu_barrier() running beside them.
 *
 * A callback may call rculist_call_rcu() (a C++ deleter may retire the
 * objects its object owned): it then runs in whichever thread frees its
 * batch (the owner inside its hand-off, call_rcu's worker, a sweeper,
 * a barrier) and queues from there.  The updater thread queues outer
 * callbacks flat out; each outer callback checks its object, queues an
 * inner one, and poisons and frees its object; each inner callback
 * checks and frees its own.  The test's thread runs barriers meanwhile:
 * every outer callback queued before a barrier began must have run when
 * it returns (rculist_rcu_barrier()'s promise), and at the end every
 * inner one, once two more barriers ran (the first waits for the outer
 * callbacks queued before it, the second for the inner ones they
 * queued).
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

TestSuite(reclaim_nested, .timeout = 60);

#define NE_LIVE	    0x11e57ed11e57edUL
#define NE_DEAD	    0xdeadUL
#define NE_SECONDS  1.0
#define NE_BARRIERS 50 /* at least, and NE_SECONDS at least */
#define NE_BOUND_S  10.0

struct ne_obj {
	unsigned long magic; /* NE_LIVE until its callback frees it */
	struct rcu_head rcu;
};

static struct {
	unsigned long made_outer, ran_outer, made_inner, ran_inner;
	unsigned long bad; /* callbacks that found their object not live */
	unsigned long ran_by_updater; /* outer callbacks run by their queuer */
	int stop;
	/* rculist_call_rcu(), or the C++ retire's rculist__retire_rcu() */
	void (*queue)(struct rcu_head *head, void (*func)(struct rcu_head *));
} ne;
static __thread int ne_is_updater;

static struct ne_obj *ne_new(void)
{
	struct ne_obj *o = malloc(sizeof(*o));

	cr_assert_not_null(o);
	o->magic = NE_LIVE;
	return o;
}

/* Check the object a callback is given, poison it and free it. */
static void ne_retire(struct rcu_head *head)
{
	struct ne_obj *o = rculist__container_of(head, struct ne_obj, rcu);

	if (__atomic_load_n(&o->magic, __ATOMIC_RELAXED) != NE_LIVE)
		__atomic_fetch_add(&ne.bad, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&o->magic, NE_DEAD, __ATOMIC_RELAXED);
	free(o);
}

static void ne_inner(struct rcu_head *head)
{
	ne_retire(head);
	__atomic_fetch_add(&ne.ran_inner, 1, __ATOMIC_RELEASE);
}

static void ne_outer(struct rcu_head *head)
{
	struct ne_obj *inner = ne_new();

	__atomic_fetch_add(&ne.made_inner, 1, __ATOMIC_RELAXED);
	ne.queue(&inner->rcu, ne_inner);
	ne_retire(head);
	if (ne_is_updater)
		__atomic_fetch_add(&ne.ran_by_updater, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&ne.ran_outer, 1, __ATOMIC_RELEASE);
}

static void *ne_updater(void *arg)
{
	unsigned long n = 0;

	(void)arg;
	ne_is_updater = 1;
	rculist_register_thread();
	while (!__atomic_load_n(&ne.stop, __ATOMIC_RELAXED)) {
		struct ne_obj *o = ne_new();

		ne.queue(&o->rcu, ne_outer);
		/* Counted once queued: a barrier that reads it waits for it. */
		__atomic_store_n(&ne.made_outer, ++n, __ATOMIC_RELEASE);
		rculist_quiescent_state();
		if (!(n % 256))
			usleep(50); /* leave the barriers some of the CPU */
	}
	rculist_unregister_thread();
	return NULL;
}

static double ne_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * @by_updater: outer callbacks the updater must have run itself (the
 * retire's, from its polled slots, nested hand-offs inside its window),
 * within NE_BOUND_S.
 */
static void ne_run(unsigned long by_updater)
{
	unsigned long barriers = 0, before, after;
	double t0 = ne_now(), end = t0 + NE_SECONDS;
	pthread_t upd;

	rculist_register_thread();
	cr_assert_eq(pthread_create(&upd, NULL, ne_updater, NULL), 0);
	while (barriers < NE_BARRIERS || ne_now() < end ||
	       __atomic_load_n(&ne.ran_by_updater, __ATOMIC_RELAXED) <
		       by_updater) {
		cr_assert_lt(ne_now() - t0, NE_SECONDS + NE_BOUND_S,
			     "no progress: the updater ran %lu of the %lu "
			     "outer callbacks wanted in %g s",
			     ne.ran_by_updater, by_updater,
			     NE_SECONDS + NE_BOUND_S);
		before = __atomic_load_n(&ne.made_outer, __ATOMIC_ACQUIRE);
		rculist_rcu_barrier();
		after = __atomic_load_n(&ne.ran_outer, __ATOMIC_ACQUIRE);
		barriers++;
		cr_assert_geq(after, before,
			      "barrier %lu returned with %lu of the %lu outer "
			      "callbacks queued before it run",
			      barriers, after, before);
	}
	__atomic_store_n(&ne.stop, 1, __ATOMIC_RELAXED);
	cr_assert_eq(pthread_join(upd, NULL), 0);
	rculist_rcu_barrier();
	rculist_rcu_barrier();
	cr_assert_eq(ne.ran_outer, ne.made_outer,
		     "%lu of %lu outer callbacks ran after two barriers",
		     ne.ran_outer, ne.made_outer);
	cr_assert_eq(ne.ran_inner, ne.made_inner,
		     "%lu of %lu inner callbacks ran after two barriers",
		     ne.ran_inner, ne.made_inner);
	cr_assert_eq(ne.bad, 0, "%lu callbacks found their object freed", ne.bad);
	cr_assert_gt(ne.made_outer, 1000, "the updater queued only %lu",
		     ne.made_outer);
	cr_log_info("%lu outer callbacks, %lu run by the updater itself",
		    ne.made_outer, ne.ran_by_updater);
	rculist_unregister_thread();
}

/* rculist_call_rcu(): callbacks run in helper threads and barriers. */
Test(reclaim_nested, barrier_waits_for_callbacks_that_queue_callbacks)
{
	ne.queue = rculist_call_rcu;
	ne_run(0);
}

/*
 * C++'s retire (rculist__retire_rcu()): most outer callbacks run in the
 * updater, from its polled slots, inside its hand-off window, and each
 * queues an inner one there (a nested hand-off).
 */
Test(reclaim_nested, barrier_waits_for_retires_that_retire)
{
	ne.queue = rculist__retire_rcu;
	ne_run(1000);
}

/*
 * A barrier that runs callbacks inside its window, the callbacks queueing
 * more (which hands off inside that window), against a second barrier:
 * the callbacks the first one took were queued before the second began,
 * so the second must not return before they ran; it waits for the first
 * one's window.  Thread U queues NW_OUTER slow outer callbacks (each
 * queues an inner one, retires NW_OWNED objects with rculist_free_rcu(),
 * then sleeps NW_SLEEP_US) and idles; thread B
 * calls rculist_rcu_barrier(), which takes them and runs them; once B is
 * seen running them, the test's thread calls rculist_rcu_barrier() too
 * and requires every outer callback run when it returns.  Windows that
 * did not nest (a nested hand-off's open and close each moving owner_seq,
 * so the second barrier saw B's window end at B's first hand-off after
 * it began waiting) failed it (planted: 3 of 3 runs, every flavour).
 */
#define NW_OUTER    64
#define NW_SLEEP_US 1000
#define NW_OWNED    300
#define NW_ROUNDS   5
#define NW_BOUND_MS 10000

static struct {
	unsigned long made, ran, ran_in_b, made_inner, ran_inner;
	int go, queued, b_done;
} nw;
static __thread int nw_is_b;

static void nw_inner(struct rcu_head *head)
{
	ne_retire(head);
	__atomic_fetch_add(&nw.ran_inner, 1, __ATOMIC_RELEASE);
}

static void nw_outer(struct rcu_head *head)
{
	struct ne_obj *inner = ne_new();

	int i;

	__atomic_fetch_add(&nw.made_inner, 1, __ATOMIC_RELAXED);
	rculist_call_rcu(&inner->rcu, nw_inner);
	/* The objects it owned: B's open batch fills, and is handed off. */
	for (i = 0; i < NW_OWNED; i++)
		rculist_free_rcu(ne_new(), rcu);
	if (nw_is_b)
		__atomic_fetch_add(&nw.ran_in_b, 1, __ATOMIC_RELEASE);
	usleep(NW_SLEEP_US);
	ne_retire(head);
	__atomic_fetch_add(&nw.ran, 1, __ATOMIC_RELEASE);
}

/* U: queues NW_OUTER outer callbacks a round, then idles. */
static void *nw_queuer(void *arg)
{
	int r, i;

	(void)arg;
	for (r = 1; r <= NW_ROUNDS; r++) {
		while (__atomic_load_n(&nw.go, __ATOMIC_ACQUIRE) < r)
			usleep(200);
		for (i = 0; i < NW_OUTER; i++) {
			struct ne_obj *o = ne_new();

			rculist_call_rcu(&o->rcu, nw_outer);
			__atomic_fetch_add(&nw.made, 1, __ATOMIC_RELEASE);
		}
		__atomic_store_n(&nw.queued, r, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* B: a barrier once U has queued its round. */
static void *nw_barrier(void *arg)
{
	int r = (int)(long)arg;

	nw_is_b = 1;
	while (__atomic_load_n(&nw.queued, __ATOMIC_ACQUIRE) < r)
		usleep(100);
	rculist_rcu_barrier();
	__atomic_store_n(&nw.b_done, r, __ATOMIC_RELEASE);
	return NULL;
}

Test(reclaim_nested, barrier_waits_for_callbacks_another_barrier_runs)
{
	unsigned long before, after, seen = 0;
	pthread_t u, b;
	int r, caught = 0;
	double t0;

	cr_assert_eq(pthread_create(&u, NULL, nw_queuer, NULL), 0);
	for (r = 1; r <= NW_ROUNDS; r++) {
		seen = __atomic_load_n(&nw.ran_in_b, __ATOMIC_ACQUIRE);
		cr_assert_eq(pthread_create(&b, NULL, nw_barrier, (void *)(long)r),
			     0);
		__atomic_store_n(&nw.go, r, __ATOMIC_RELEASE);
		/* B runs the round's callbacks, or someone else did. */
		t0 = ne_now();
		while (__atomic_load_n(&nw.ran_in_b, __ATOMIC_ACQUIRE) == seen &&
		       __atomic_load_n(&nw.b_done, __ATOMIC_ACQUIRE) != r) {
			cr_assert_lt(ne_now() - t0, NW_BOUND_MS / 1000.0,
				     "no progress: round %d's barrier thread "
				     "neither ran a callback nor returned in "
				     "%d ms",
				     r, NW_BOUND_MS);
			usleep(100);
		}
		if (__atomic_load_n(&nw.b_done, __ATOMIC_ACQUIRE) != r) {
			before = __atomic_load_n(&nw.made, __ATOMIC_ACQUIRE);
			rculist_rcu_barrier();
			after = __atomic_load_n(&nw.ran, __ATOMIC_ACQUIRE);
			cr_assert_geq(after, before,
				      "round %d: a barrier returned with %lu of "
				      "the %lu outer callbacks queued before "
				      "it run (another barrier was running "
				      "them)",
				      r, after, before);
			caught++;
		}
		cr_assert_eq(pthread_join(b, NULL), 0);
	}
	cr_assert_eq(pthread_join(u, NULL), 0);
	rculist_rcu_barrier();
	rculist_rcu_barrier();
	cr_assert_eq(nw.ran, nw.made, "%lu of %lu outer callbacks ran", nw.ran,
		     nw.made);
	cr_assert_eq(nw.ran_inner, nw.made_inner,
		     "%lu of %lu inner callbacks ran after two barriers",
		     nw.ran_inner, nw.made_inner);
	cr_assert_eq(ne.bad, 0, "%lu callbacks found their object freed", ne.bad);
	cr_assert_gt(caught, 0,
		     "in none of %d rounds did the barrier thread run the "
		     "callbacks while the test's barrier waited",
		     NW_ROUNDS);
}
