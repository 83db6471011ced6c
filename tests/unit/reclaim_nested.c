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

struct ne_obj {
	unsigned long magic; /* NE_LIVE until its callback frees it */
	struct rcu_head rcu;
};

static struct {
	unsigned long made_outer, ran_outer, made_inner, ran_inner;
	unsigned long bad; /* callbacks that found their object not live */
	int stop;
} ne;

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
	rculist_call_rcu(&inner->rcu, ne_inner);
	ne_retire(head);
	__atomic_fetch_add(&ne.ran_outer, 1, __ATOMIC_RELEASE);
}

static void *ne_updater(void *arg)
{
	unsigned long n = 0;

	(void)arg;
	rculist_register_thread();
	while (!__atomic_load_n(&ne.stop, __ATOMIC_RELAXED)) {
		struct ne_obj *o = ne_new();

		rculist_call_rcu(&o->rcu, ne_outer);
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

Test(reclaim_nested, barrier_waits_for_callbacks_that_queue_callbacks)
{
	unsigned long barriers = 0, before, after;
	double end = ne_now() + NE_SECONDS;
	pthread_t upd;

	rculist_register_thread();
	cr_assert_eq(pthread_create(&upd, NULL, ne_updater, NULL), 0);
	while (barriers < NE_BARRIERS || ne_now() < end) {
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
	rculist_unregister_thread();
}
