// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/poll.c - polled grace periods: what satisfies a cookie, that a
 * reader already inside a section holds it back, that
 * rculist_start_poll_synchronize_rcu() needs nobody to wait, and that
 * cookies compare right across the counter's wrap.
 */
#include <limits.h>
#include <pthread.h>
#include <unistd.h>

#include "check.h"

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

/* ------------------------------------------------ a reader inside a section */

/* A reader thread steps through stages the test sets. */
static int stage;

static void stage_set(int v)
{
	__atomic_store_n(&stage, v, __ATOMIC_RELEASE);
}

static void stage_wait(int v)
{
	while (__atomic_load_n(&stage, __ATOMIC_ACQUIRE) < v)
		usleep(500);
}

/*
 * Stage 1: inside a read-side section (qsbr: online, no quiescent
 * state).  Stage 2 (set by the test): it leaves, goes offline (qsbr) and
 * says so with stage 3.  Stage 4: it exits.
 */
static void *reader_main(void *arg)
{
	(void)arg;
	rculist_register_thread();
	rculist_read_lock();
	stage_set(1);
	stage_wait(2);
	rculist_read_unlock();
	rculist_thread_offline();
	stage_set(3);
	stage_wait(4);
	rculist_thread_online();
	rculist_unregister_thread();
	return NULL;
}

static pthread_t reader_start(void)
{
	pthread_t tid;

	stage_set(0);
	cr_assert_eq(pthread_create(&tid, NULL, reader_main, NULL), 0);
	stage_wait(1);
	return tid;
}

static void reader_leave(void)
{
	stage_set(2);
	stage_wait(3);
}

static void reader_finish(pthread_t tid)
{
	stage_set(4);
	cr_assert_eq(pthread_join(tid, NULL), 0);
}

/*
 * before: a reader is inside a section; start_poll returns at once.
 * after:  its cookie stays unsatisfied while the reader reads, and is
 *         satisfied once it left, with nobody calling
 *         rculist_synchronize_rcu() (this thread only polls).
 */
Test(poll, start_poll_waits_for_a_pre_existing_reader_and_needs_no_waiter)
{
	pthread_t tid = reader_start();
	struct rculist_gp_cookie c = rculist_start_poll_synchronize_rcu();

	cr_assert_not(satisfied_within(c, 200),
		      "a polled grace period ended while a reader read");
	reader_leave();
	cr_assert(satisfied_within(c, 20000),
		  "start_poll's grace period did not end within 20 s of the reader leaving");
	reader_finish(tid);
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
	tid = reader_start();
	fresh = rculist_get_state_synchronize_rcu();

	cond_waiter_start(&w, old);
	cr_assert(cond_waiter_done_within(&w, 20000),
		  "cond_synchronize blocked on a satisfied cookie");
	cond_waiter_start(&w, fresh);
	cr_assert_not(cond_waiter_done_within(&w, 200),
		      "cond_synchronize returned while a pre-existing reader read");
	cr_assert_not(rculist_poll_state_synchronize_rcu(fresh));
	reader_leave();
	cr_assert(cond_waiter_done_within(&w, 20000),
		  "cond_synchronize did not return within 20 s of the reader leaving");
	cr_assert(rculist_poll_state_synchronize_rcu(fresh));
	reader_finish(tid);
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
