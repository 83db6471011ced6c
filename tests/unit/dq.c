// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/dq.c - the defer queue (<rculist/dq.h>): what it refuses,
 * that nothing is freed while a reader that was reading at the enqueue
 * still reads, that the polled grace periods the enqueues start are
 * enough for progress (the tests never wait for a grace period
 * themselves unless they say so), order and max, a full queue, destroy;
 * then several enqueuers against reader threads that are also the
 * reclaimers (a qsbr event loop: read, announce a quiescent state,
 * reclaim), with freed memory poisoned and every pointer freed once.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <time.h>

#include "conc.h"
#include "hold.h"

TestSuite(dq, .timeout = 60);

/* ------------------------------------------- a free_fn that only records */

#define REC_MAX 64

struct rec {
	pthread_mutex_t lock;
	unsigned long n;
	void *freed[REC_MAX];
	pthread_t by[REC_MAX];
};

static void rec_free(void *arg, void *ptr)
{
	struct rec *r = arg;

	pthread_mutex_lock(&r->lock);
	if (r->n < REC_MAX) {
		r->freed[r->n] = ptr;
		r->by[r->n] = pthread_self();
	}
	r->n++;
	pthread_mutex_unlock(&r->lock);
}

static unsigned long rec_count(struct rec *r)
{
	unsigned long n;

	pthread_mutex_lock(&r->lock);
	n = r->n;
	pthread_mutex_unlock(&r->lock);
	return n;
}

/* The token for the i-th pointer (never dereferenced). */
static void *tok(unsigned long i)
{
	return (void *)(uintptr_t)(0x1000 + i);
}

/* @r freed exactly tokens @from..@to-1, in order, all by thread @by. */
static void rec_check(struct rec *r, unsigned long from, unsigned long to,
		      pthread_t by)
{
	unsigned long i;

	cr_assert_eq(rec_count(r), to, "%lu pointers freed, expected %lu",
		     rec_count(r), to);
	for (i = from; i < to; i++) {
		cr_assert_eq(r->freed[i], tok(i), "free %lu was %p, expected %p",
			     i, r->freed[i], tok(i));
		cr_assert(pthread_equal(r->by[i], by),
			  "free %lu ran in another thread", i);
	}
}

/* Reclaim until @r counts @n frees (20 s at most): how many reclaimed. */
static unsigned long reclaim_until(struct rculist_dq *dq, struct rec *r,
				   unsigned long n)
{
	unsigned long got = 0;
	long ms;

	for (ms = 0; ms < 20000 && rec_count(r) < n; ms++) {
		got += rculist_dq_reclaim(dq, ULONG_MAX);
		if (rec_count(r) < n)
			usleep(1000);
	}
	return got;
}

/* A queue of @capacity freeing into @r, tokens 0..@n-1 enqueued. */
static struct rculist_dq *dq_filled(unsigned long capacity, unsigned long n,
				    struct rec *r)
{
	struct rculist_dq *dq = rculist_dq_create(capacity, rec_free, r);
	unsigned long i;

	cr_assert_not_null(dq);
	for (i = 0; i < n; i++)
		cr_assert_eq(rculist_dq_enqueue(dq, tok(i)), 0,
			     "enqueue %lu of %lu", i, n);
	return dq;
}

Test(dq, create_refuses_bad_arguments)
{
	struct rec r = { .lock = PTHREAD_MUTEX_INITIALIZER };

	errno = 0;
	cr_assert_null(rculist_dq_create(0, rec_free, &r));
	cr_assert_eq(errno, EINVAL);
	errno = 0;
	cr_assert_null(rculist_dq_create(16, NULL, &r));
	cr_assert_eq(errno, EINVAL);
	errno = 0;
	cr_assert_null(rculist_dq_create(ULONG_MAX, rec_free, &r));
	cr_assert_eq(errno, EINVAL);
	rculist_dq_destroy(NULL);
	cr_assert_eq(rec_count(&r), 0);
}

/*
 * before: a reader is inside a section; 10 pointers enqueued.
 * after:  reclaim frees none while it reads (200 ms); once it left, the
 *         enqueues' own polled grace period makes all 10 ready, freed
 *         in enqueue order, each once, in the reclaiming thread.
 */
Test(dq, nothing_is_freed_while_a_pre_existing_reader_reads)
{
	struct rec r = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct rculist_dq *dq = rculist_dq_create(16, rec_free, &r);
	pthread_t tid = hold_start();
	unsigned long i;
	long ms;

	cr_assert_not_null(dq);
	for (i = 0; i < 10; i++)
		cr_assert_eq(rculist_dq_enqueue(dq, tok(i)), 0);
	for (ms = 0; ms < 200; ms++) {
		cr_assert_eq(rculist_dq_reclaim(dq, ULONG_MAX), 0,
			     "a pointer was freed while a reader read");
		usleep(1000);
	}
	cr_assert_eq(rec_count(&r), 0);
	hold_leave();
	cr_assert_eq(reclaim_until(dq, &r, 10), 10,
		     "not every pointer was freed within 20 s of the reader leaving");
	rec_check(&r, 0, 10, pthread_self());
	cr_assert_eq(rculist_dq_reclaim(dq, ULONG_MAX), 0);
	hold_finish(tid);
	rculist_dq_destroy(dq);
	cr_assert_eq(rec_count(&r), 10, "destroy freed a pointer twice");
}

/*
 * before: 10 pointers enqueued, then a grace period.
 * after:  reclaim(3) frees the 3 oldest, reclaim(0) none, reclaim(all)
 *         the other 7, and then there is nothing left.
 */
Test(dq, reclaim_frees_at_most_max_oldest_first)
{
	struct rec r = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct rculist_dq *dq = dq_filled(16, 10, &r);

	rculist_synchronize_rcu();
	cr_assert_eq(rculist_dq_reclaim(dq, 3), 3);
	rec_check(&r, 0, 3, pthread_self());
	cr_assert_eq(rculist_dq_reclaim(dq, 0), 0);
	cr_assert_eq(rculist_dq_reclaim(dq, ULONG_MAX), 7);
	rec_check(&r, 0, 10, pthread_self());
	cr_assert_eq(rculist_dq_reclaim(dq, ULONG_MAX), 0);
	rculist_dq_destroy(dq);
	cr_assert_eq(rec_count(&r), 10);
}

/*
 * Grace periods are asked for lazily (core/dq.c), but never forgotten.
 * before: 3 pointers in a queue of 1024, nothing else in the process
 *         asks for a grace period.
 * after:  reclaim alone (its call that finds nothing ready asks for the
 *         oldest's) frees the 3 within 20 s, in order.
 */
Test(dq, a_few_pointers_are_freed_by_reclaim_alone)
{
	struct rec r = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct rculist_dq *dq = dq_filled(1024, 3, &r);

	cr_assert_eq(reclaim_until(dq, &r, 3), 3,
		     "3 pointers not freed within 20 s: no grace period asked for");
	rec_check(&r, 0, 3, pthread_self());
	rculist_dq_destroy(dq);
	cr_assert_eq(rec_count(&r), 3);
}

/*
 * before: a cookie taken, a queue of 64 (an ask every 8 enqueues), one
 *         pointer enqueued, and the cookie satisfied (the first enqueue
 *         asks); then a new cookie taken and 8 more enqueued, with no
 *         reclaim.
 * after:  the cookie is satisfied within 20 s: the enqueue an eighth of
 *         the ring after the first asked for a grace period by itself.
 */
Test(dq, enqueues_ask_for_a_grace_period_every_eighth_of_the_ring)
{
	struct rec r = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct rculist_gp_cookie c = rculist_get_state_synchronize_rcu();
	struct rculist_dq *dq = dq_filled(64, 1, &r);
	unsigned long i;
	long ms;

	for (ms = 0; ms < 20000 && !rculist_poll_state_synchronize_rcu(c); ms++)
		usleep(1000);
	cr_assert(rculist_poll_state_synchronize_rcu(c),
		  "the first enqueue asked for no grace period");
	c = rculist_get_state_synchronize_rcu();
	for (i = 1; i <= 8; i++)
		cr_assert_eq(rculist_dq_enqueue(dq, tok(i)), 0);
	for (ms = 0; ms < 20000 && !rculist_poll_state_synchronize_rcu(c); ms++)
		usleep(1000);
	cr_assert(rculist_poll_state_synchronize_rcu(c),
		  "8 enqueues in a queue of 64 asked for no grace period");
	cr_assert_eq(rec_count(&r), 0, "enqueue freed without being full");
	rculist_dq_destroy(dq);
	cr_assert_eq(rec_count(&r), 9);
}

/*
 * before: a queue of 1024 (an ask every 128 enqueues); the first
 *         pointer enqueued (it asks) and reclaimed; then 3 more, whose
 *         enqueues ask for nothing, and whose grace period nobody asked
 *         for yet.
 * after:  a reclaim loop (one reclaim a millisecond) frees them within
 *         20 s: a reclaim that finds nothing ready asks again once the
 *         coarse clock has moved, not only the first time.
 */
Test(dq, reclaims_ask_again_for_pointers_no_enqueue_asked_for)
{
	struct rec r = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct rculist_dq *dq = dq_filled(1024, 1, &r);
	unsigned long i;

	cr_assert_eq(reclaim_until(dq, &r, 1), 1,
		     "the first pointer not freed within 20 s");
	for (i = 1; i <= 3; i++)
		cr_assert_eq(rculist_dq_enqueue(dq, tok(i)), 0);
	cr_assert_eq(reclaim_until(dq, &r, 4), 3,
		     "3 pointers not freed within 20 s: reclaims asked no more");
	rec_check(&r, 0, 4, pthread_self());
	rculist_dq_destroy(dq);
	cr_assert_eq(rec_count(&r), 4);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * before: a queue of 256, whose enqueues ask lazily every 32 (a napping
 *         grace-period thread is not woken); 300 times: a cookie taken,
 *         32 pointers enqueued, the last one asking, then at once, or 20
 *         or 60 us later, the next 32: lazy asks that close together keep
 *         rculist-gp napping between grace periods.
 * after:  each cookie is satisfied within 10 s with no reclaim asking
 *         (this thread only polls), and a reclaim then frees the 32: an
 *         ask made during a nap is seen at its end, and one made as the
 *         thread gives up napping and parks wakes it.
 */
Test(dq, back_to_back_lazy_asks_are_each_served)
{
	struct rec r = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct rculist_dq *dq = rculist_dq_create(256, rec_free, &r);
	struct rculist_gp_cookie c;
	unsigned long i, k, n = 0;
	double until;

	cr_assert_not_null(dq);
	/* Position 0 asks: the batches end on the next multiples of 32. */
	cr_assert_eq(rculist_dq_enqueue(dq, tok(n++)), 0);
	for (i = 0; i < 300; i++) {
		c = rculist_get_state_synchronize_rcu();
		for (k = 0; k < 32; k++)
			cr_assert_eq(rculist_dq_enqueue(dq, tok(n++)), 0);
		until = now_s() + 10;
		while (!rculist_poll_state_synchronize_rcu(c) && now_s() < until)
			;
		cr_assert(rculist_poll_state_synchronize_rcu(c),
			  "batch %lu of 300: its lazy ask not served in 10 s", i);
		until = now_s() + 10;
		while (rec_count(&r) < n && now_s() < until)
			rculist_dq_reclaim(dq, ULONG_MAX);
		cr_assert_eq(rec_count(&r), n, "batch %lu: %lu of %lu freed", i,
			     rec_count(&r), n);
		if (i % 3 == 1)
			for (until = now_s() + 20e-6; now_s() < until;)
				;
		else if (i % 3 == 2)
			usleep(60);
	}
	for (i = 0; i < REC_MAX; i++)
		cr_assert_eq(r.freed[i], tok(i), "free %lu out of order", i);
	rculist_dq_destroy(dq);
	cr_assert_eq(rec_count(&r), n);
}

/*
 * Capacity 5 is rounded up to 8.  before: a reader inside a section, 8
 * pointers queued.  after: the 9th enqueue says -ENOSPC and frees
 * nothing (nothing is ready); once the reader left, an enqueue that
 * finds the queue full frees the 8 in its own thread and queues the 9th.
 */
Test(dq, a_full_queue_reclaims_what_is_ready_then_says_enospc)
{
	struct rec r = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct rculist_dq *dq = rculist_dq_create(5, rec_free, &r);
	pthread_t tid = hold_start();
	unsigned long i;
	long ms;
	int err = -ENOSPC;

	cr_assert_not_null(dq);
	for (i = 0; i < 8; i++)
		cr_assert_eq(rculist_dq_enqueue(dq, tok(i)), 0,
			     "enqueue %lu of a capacity rounded up to 8", i);
	cr_assert_eq(rculist_dq_enqueue(dq, tok(8)), -ENOSPC);
	cr_assert_eq(rec_count(&r), 0);
	hold_leave();
	for (ms = 0; ms < 20000 && err == -ENOSPC; ms++) {
		err = rculist_dq_enqueue(dq, tok(8));
		if (err == -ENOSPC)
			usleep(1000);
	}
	cr_assert_eq(err, 0, "the queue stayed full 20 s after the reader left");
	rec_check(&r, 0, 8, pthread_self());
	rculist_synchronize_rcu();
	cr_assert_eq(rculist_dq_reclaim(dq, ULONG_MAX), 1);
	rec_check(&r, 0, 9, pthread_self());
	hold_finish(tid);
	rculist_dq_destroy(dq);
	cr_assert_eq(rec_count(&r), 9);
}

/* ------------------------------------------------------------- destroy */

struct destroyer {
	pthread_t tid;
	struct rculist_dq *dq;
	int done;
};

static void *destroyer_main(void *arg)
{
	struct destroyer *d = arg;

	rculist_dq_destroy(d->dq);
	__atomic_store_n(&d->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * before: a reader inside a section, 4 pointers queued.
 * after:  destroy, in a thread of its own, frees nothing and does not
 *         return while the reader reads; once it left, destroy frees the
 *         4, in order, in its own thread, and returns.
 */
Test(dq, destroy_waits_for_the_grace_period_then_frees_the_rest)
{
	struct rec r = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct destroyer d = { .done = 0 };
	pthread_t tid = hold_start();
	unsigned long i;
	long ms;

	d.dq = rculist_dq_create(8, rec_free, &r);
	cr_assert_not_null(d.dq);
	for (i = 0; i < 4; i++)
		cr_assert_eq(rculist_dq_enqueue(d.dq, tok(i)), 0);
	cr_assert_eq(pthread_create(&d.tid, NULL, destroyer_main, &d), 0);
	usleep(200000);
	cr_assert_not(__atomic_load_n(&d.done, __ATOMIC_ACQUIRE),
		      "destroy returned while a pre-existing reader read");
	cr_assert_eq(rec_count(&r), 0);
	hold_leave();
	for (ms = 0; ms < 20000 && !__atomic_load_n(&d.done, __ATOMIC_ACQUIRE);
	     ms++)
		usleep(1000);
	cr_assert(__atomic_load_n(&d.done, __ATOMIC_ACQUIRE),
		  "destroy did not return within 20 s of the reader leaving");
	rec_check(&r, 0, 4, d.tid);
	cr_assert_eq(pthread_join(d.tid, NULL), 0);
	hold_finish(tid);
}

/* ------------------------------------------ contention on head and tail */

#define RACE_ENQ     3
#define RACE_REC     2
#define RACE_PER_ENQ 20000
#define RACE_TOTAL   (RACE_ENQ * RACE_PER_ENQ)

static struct {
	struct rculist_dq *dq;
	unsigned char count[RACE_TOTAL]; /* frees of each token */
	unsigned long freed;
	int stalled; /* no token freed for 20 s */
} race;

static void race_free(void *arg, void *ptr)
{
	unsigned long id = (unsigned long)(uintptr_t)ptr - 0x1000;

	(void)arg;
	if (id < RACE_TOTAL)
		__atomic_fetch_add(&race.count[id], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&race.freed, 1, __ATOMIC_RELAXED);
}

/* A thread's watch on progress: the count of frees it saw move last. */
struct race_watch {
	unsigned long seen;
	double since;
};

/* Non-zero once no token was freed for 20 s (the machine may be loaded). */
static int race_stalled(struct race_watch *w)
{
	unsigned long now_freed = __atomic_load_n(&race.freed, __ATOMIC_RELAXED);
	double now = conc_now();

	if (__atomic_load_n(&race.stalled, __ATOMIC_RELAXED))
		return 1;
	if (now_freed != w->seen || !w->since) {
		w->seen = now_freed;
		w->since = now;
	} else if (now - w->since > 20) {
		__atomic_store_n(&race.stalled, 1, __ATOMIC_RELAXED);
		return 1;
	}
	return 0;
}

/* Enqueue 20000 tokens from @arg on, retrying a full queue while frees go on. */
static void *race_enqueuer(void *arg)
{
	unsigned long base = (unsigned long)(uintptr_t)arg, i;
	struct race_watch w = { 0, 0 };

	for (i = 0; i < RACE_PER_ENQ; i++)
		while (rculist_dq_enqueue(race.dq, tok(base + i)) == -ENOSPC)
			if (race_stalled(&w))
				return NULL;
			else
				sched_yield();
	return NULL;
}

/* Reclaim one at a time, flat out, until every token is freed (or a stall). */
static void *race_reclaimer(void *arg)
{
	struct race_watch w = { 0, 0 };

	(void)arg;
	while (__atomic_load_n(&race.freed, __ATOMIC_RELAXED) < RACE_TOTAL &&
	       !race_stalled(&w))
		if (!rculist_dq_reclaim(race.dq, 1))
			sched_yield();
	return NULL;
}

/*
 * 3 threads enqueue 20000 distinct tokens each while 2 threads reclaim
 * one at a time, flat out, on one queue of 4096 (full now and then):
 * every token is freed exactly once, with no grace period waited for
 * but the enqueues' own polled ones.  The threads give up only after
 * 20 s without a single free; a stall is then told apart from a lost
 * token, and a fresh polled grace period is tried, to tell a stuck
 * grace-period thread from a stuck queue.
 */
Test(dq, racing_enqueuers_and_reclaimers_free_each_token_once)
{
	pthread_t e[RACE_ENQ], r[RACE_REC];
	unsigned long i, missing = 0, twice = 0;
	struct rculist_gp_cookie c;
	long ms;

	race.dq = rculist_dq_create(4096, race_free, NULL);
	cr_assert_not_null(race.dq);
	for (i = 0; i < RACE_REC; i++)
		cr_assert_eq(pthread_create(&r[i], NULL, race_reclaimer, NULL),
			     0);
	for (i = 0; i < RACE_ENQ; i++)
		cr_assert_eq(pthread_create(&e[i], NULL, race_enqueuer,
					    (void *)(uintptr_t)(i * RACE_PER_ENQ)),
			     0);
	for (i = 0; i < RACE_ENQ; i++)
		cr_assert_eq(pthread_join(e[i], NULL), 0);
	for (i = 0; i < RACE_REC; i++)
		cr_assert_eq(pthread_join(r[i], NULL), 0);
	for (i = 0; i < RACE_TOTAL; i++) {
		missing += !race.count[i];
		twice += race.count[i] > 1;
	}
	if (race.stalled) {
		c = rculist_start_poll_synchronize_rcu();
		for (ms = 0;
		     ms < 1000 && !rculist_poll_state_synchronize_rcu(c); ms++)
			usleep(1000);
		cr_assert_fail(
			"no progress: no token freed for 20 s, %lu of %d freed; "
			"%lu never freed, %lu twice; a polled grace period started then %s",
			race.freed, RACE_TOTAL, missing, twice,
			rculist_poll_state_synchronize_rcu(c) ?
				"ended within 1 s (the queue is stuck)" :
				"did not end within 1 s (polled grace periods are stuck)");
	}
	cr_assert_eq(twice, 0, "%lu tokens freed more than once", twice);
	cr_assert_eq(missing, 0, "%lu tokens never freed", missing);
	cr_assert_eq(race.freed, RACE_TOTAL);
	rculist_dq_destroy(race.dq);
	cr_assert_eq(race.freed, RACE_TOTAL, "destroy freed a token again");
}

/* ------------------------------- enqueuers against qsbr-style event loops */

#define NKEYS	  64
#define ENQUEUERS 3
#define LOOPS	  2

/*
 * Keys 0..NKEYS-1, always all present, in increasing order: enqueuers
 * only replace, so every walk sees exactly NKEYS increasing keys.
 */
static struct {
	struct conc_elem head;
	struct conc_elem *present[NKEYS];
	pthread_mutex_t lock;
	struct rculist_dq *dq;
	int stop;
	unsigned long freed, twice, by_loops;
} dq_s = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* free_fn: poison (conc.h's quarantine); a pointer seen twice is counted. */
static void dq_poison(void *arg, void *ptr)
{
	struct conc_elem *e = ptr;

	(void)arg;
	if (__atomic_load_n(&e->magic, __ATOMIC_RELAXED) != CONC_ALIVE) {
		__atomic_fetch_add(&dq_s.twice, 1, __ATOMIC_RELAXED);
		return;
	}
	conc_quarantine_put(e);
	__atomic_fetch_add(&dq_s.freed, 1, __ATOMIC_RELAXED);
}

static void walk_all(struct conc_reader *r) RCULIST_REQUIRES_RCU
{
	struct conc_elem *head = r->arg, *e;
	long last = -1, n = 0;

	cds_list_for_each_entry_rcu(e, &head->link, link) {
		if (!conc_check_elem(r, e, NKEYS))
			return;
		if (e->key <= last) {
			conc_violation(r, "walk %lu: key %ld after %ld",
				       r->walks, e->key, last);
			return;
		}
		last = e->key;
		conc_pause_point(r, n++);
	}
	r->elems += (unsigned long)n;
	if (n != NKEYS)
		conc_violation(r, "walk %lu saw %ld elements, not %d", r->walks,
			       n, NKEYS);
}

/* A qsbr event loop's work between quiescent states: reclaim a few. */
static void reclaim_some(struct conc_reader *r)
{
	(void)r;
	__atomic_fetch_add(&dq_s.by_loops, rculist_dq_reclaim(dq_s.dq, 16),
			   __ATOMIC_RELAXED);
}

struct enqueuer {
	pthread_t tid;
	uint64_t rnd;
	unsigned long enqueued, full;
};

/* Replace a random key's element; enqueue the old one, retrying when full. */
static void *enqueuer_main(void *arg)
{
	struct enqueuer *q = arg;
	struct conc_elem *old, *n;
	long k;

	while (!__atomic_load_n(&dq_s.stop, __ATOMIC_ACQUIRE)) {
		k = conc_rand(&q->rnd) % NKEYS;
		n = conc_elem_new(k);
		pthread_mutex_lock(&dq_s.lock);
		old = dq_s.present[k];
		cds_list_replace_rcu(&old->link, &n->link);
		dq_s.present[k] = n;
		pthread_mutex_unlock(&dq_s.lock);
		conc_updated();
		while (rculist_dq_enqueue(dq_s.dq, old) == -ENOSPC) {
			q->full++;
			sched_yield();
		}
		q->enqueued++;
	}
	return NULL;
}

/*
 * ENQUEUERS threads replace elements and enqueue the old ones on one
 * queue of 64; LOOPS reader threads walk, announce quiescent states and
 * reclaim (so under qsbr the grace periods end only through them).
 * Readers see no poisoned element and every walk whole; every pointer
 * enqueued is freed exactly once (after destroy), some by the loops.
 */
Test(dq, enqueuers_and_event_loops_free_each_pointer_once_after_its_readers)
{
	struct conc_reader r[LOOPS];
	struct enqueuer q[ENQUEUERS];
	unsigned long enqueued = 0, full = 0;
	double start = conc_now(), t;
	size_t i;
	long k;

	memset(r, 0, sizeof(r));
	memset(q, 0, sizeof(q));
	conc_head_init(&dq_s.head);
	for (k = 0; k < NKEYS; k++) {
		dq_s.present[k] = conc_elem_new(k);
		cds_list_add_tail(&dq_s.present[k]->link, &dq_s.head.link);
	}
	dq_s.dq = rculist_dq_create(64, dq_poison, NULL);
	cr_assert_not_null(dq_s.dq);

	for (i = 0; i < LOOPS; i++) {
		r[i].walk = walk_all;
		r[i].arg = &dq_s.head;
		r[i].between = reclaim_some;
	}
	conc_readers_start(r, LOOPS);
	for (i = 0; i < ENQUEUERS; i++) {
		q[i].rnd = 0x9e3779b97f4a7c15ULL * (i + 1);
		cr_assert_eq(pthread_create(&q[i].tid, NULL, enqueuer_main, &q[i]),
			     0);
	}
	/*
	 * At least 0.5 s, and until each loop overlapped 20 updates and the
	 * loops freed something (20 s at most): the enqueuers, which reclaim
	 * everything ready whenever they find the queue full, win most races
	 * for what a grace period makes ready (under bp, whose grace periods
	 * are slow, often all of them for a while).
	 */
	do {
		usleep(10000);
		t = conc_now() - start;
		for (i = 0; i < LOOPS; i++)
			if (__atomic_load_n(&r[i].overlaps, __ATOMIC_RELAXED) < 20)
				break;
	} while (t < CONC_PROGRESS_SECS &&
		 (t < 0.5 || i < LOOPS ||
		  !__atomic_load_n(&dq_s.by_loops, __ATOMIC_RELAXED)));
	__atomic_store_n(&dq_s.stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < ENQUEUERS; i++) {
		cr_assert_eq(pthread_join(q[i].tid, NULL), 0);
		enqueued += q[i].enqueued;
		full += q[i].full;
	}
	conc_readers_stop(r, LOOPS);
	rculist_dq_destroy(dq_s.dq);

	cr_log_info("%lu enqueued, %lu freed by the loops, %lu times full",
		    enqueued, dq_s.by_loops, full);
	cr_assert_gt(enqueued, 100, "only %lu enqueues", enqueued);
	cr_assert_eq(dq_s.twice, 0, "%lu pointers freed twice", dq_s.twice);
	cr_assert_eq(dq_s.freed, enqueued, "%lu enqueued, %lu freed", enqueued,
		     dq_s.freed);
	cr_assert_eq(conc_quarantine.poisoned, enqueued);
	cr_assert_gt(dq_s.by_loops, 0,
		     "no progress: the event loops freed nothing in %.1f s", t);
	/* The final list is present[] in order, both ways. */
	for (k = 0; k < NKEYS; k++) {
		struct cds_list_head *l = &dq_s.present[k]->link;

		cr_assert_eq(l->prev,
			     k ? &dq_s.present[k - 1]->link : &dq_s.head.link,
			     "key %ld: prev is wrong", k);
		cr_assert_eq(l->next,
			     k < NKEYS - 1 ? &dq_s.present[k + 1]->link :
					     &dq_s.head.link,
			     "key %ld: next is wrong", k);
	}
	cr_assert_eq(dq_s.head.link.next, &dq_s.present[0]->link);
	cr_assert_eq(dq_s.head.link.prev, &dq_s.present[NKEYS - 1]->link);
	for (k = 0; k < NKEYS; k++) {
		cds_list_del(&dq_s.present[k]->link);
		free(dq_s.present[k]);
	}
	CHECK_EMPTY(&dq_s.head.link);
	conc_quarantine_drain();
}
