// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/reclaim_polled.c - rculist_free_rcu()'s polled slots
 * (core/reclaim.c): a thread's batches of free_rcu blocks wait there with
 * a cookie, and the thread frees them itself once the grace period has
 * ended; an idle or exited thread's polled slots are swept through
 * call_rcu.
 *
 * The concurrent test: one updater (the test's thread) replaces random
 * elements of a list flat out and retires the old ones with
 * rculist_free_rcu() only, or C++'s retire only (rculist__retire_rcu(),
 * its deleter freeing; a batch with an rculist_call_rcu() callback in it
 * does not go to a polled slot), so that its batches go through the
 * polled slots; two reader threads walk the list and check every
 * element they reach.
 * A freed element is poisoned by glibc's free(), which writes its own links
 * over the first two words (the magic and the key): a reader that reads
 * an element freed too early sees the magic gone; one whose element was
 * freed and reused by malloc() sees the key or the payload change between
 * its two reads of the element, across a sched_yield().
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

TestSuite(reclaim_polled, .timeout = 60);

#define PL_LEN	    16
#define PL_READERS  2
#define PL_LIVE	    0x9011ed9011edUL
#define PL_BOUND_MS 10000
/* Blocks the updater must have freed from polled slots: 64 batches. */
#define PL_POLLED_MIN (64 * 256UL)

/* 64 bytes: glibc's tcache and fastbins, where free() writes words 0-1. */
struct pl_elem {
	unsigned long magic; /* PL_LIVE while linked or held */
	long key;
	struct cds_list_head link;
	struct rcu_head rcu;
	unsigned char payload[16]; /* (unsigned char)key */
};

static CDS_LIST_HEAD(pl_list);

static struct {
	int stop;
	unsigned long walks[PL_READERS];
	unsigned long bad[PL_READERS];
	char why[PL_READERS][160];
} pl;

static struct pl_elem *pl_new(long key)
{
	struct pl_elem *e = malloc(sizeof(*e));

	cr_assert_not_null(e);
	e->magic = PL_LIVE;
	e->key = key;
	memset(e->payload, (unsigned char)key, sizeof(e->payload));
	return e;
}

/* What is wrong with @e, read inside a section: NULL if nothing. */
static const char *pl_wrong(const struct pl_elem *e, long key)
{
	size_t i;

	if (__atomic_load_n(&e->magic, __ATOMIC_RELAXED) != PL_LIVE)
		return "magic gone: the element was freed under the reader";
	if (__atomic_load_n(&e->key, __ATOMIC_RELAXED) != key)
		return "key changed: the element was freed and reused";
	for (i = 0; i < sizeof(e->payload); i++)
		if (__atomic_load_n(&e->payload[i], __ATOMIC_RELAXED) !=
		    (unsigned char)key)
			return "payload changed: freed and reused";
	return NULL;
}

static void *pl_reader(void *arg)
{
	long id = (long)arg, key;
	struct pl_elem *e;
	const char *why;
	unsigned long n = 0;

	rculist_register_thread();
	while (!__atomic_load_n(&pl.stop, __ATOMIC_ACQUIRE)) {
		rculist_read_lock();
		cds_list_for_each_entry_rcu(e, &pl_list, link) {
			key = __atomic_load_n(&e->key, __ATOMIC_RELAXED);
			why = pl_wrong(e, key);
			/* One element a walk held across a yield. */
			if (!why && (long)(n % PL_LEN) == key % PL_LEN) {
				sched_yield();
				why = pl_wrong(e, key);
			}
			if (why && !pl.bad[id]++)
				snprintf(pl.why[id], sizeof(pl.why[id]),
					 "walk %lu, key %ld: %s", n, key, why);
		}
		rculist_read_unlock();
		rculist_quiescent_state();
		__atomic_store_n(&pl.walks[id], ++n, __ATOMIC_RELEASE);
	}
	rculist_unregister_thread();
	return NULL;
}

static unsigned long pl_walks(void)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i < PL_READERS; i++)
		n += __atomic_load_n(&pl.walks[i], __ATOMIC_ACQUIRE);
	return n;
}

/* Every reader has walked the list once at least. */
static int pl_all_walked(void)
{
	int i;

	for (i = 0; i < PL_READERS; i++)
		if (!__atomic_load_n(&pl.walks[i], __ATOMIC_ACQUIRE))
			return 0;
	return 1;
}

static double pl_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static struct rculist__reclaim_stats pl_stats(void)
{
	struct rculist__reclaim_stats st;

	rculist__reclaim_get_stats(&st, 0);
	return st;
}

/* The list whole, both ways: PL_LEN live elements, keys unique. */
static void pl_check_shape(void)
{
	struct cds_list_head *p;
	struct pl_elem *e;
	long seen[PL_LEN];
	int n = 0, back = 0, i;

	for (p = pl_list.next; p != &pl_list; p = p->next) {
		cr_assert_lt(n, PL_LEN, "more than %d elements forwards", PL_LEN);
		cr_assert_eq(p->next->prev, p, "element %d: next->prev", n);
		e = cds_list_entry(p, struct pl_elem, link);
		cr_assert_null(pl_wrong(e, e->key), "element %d", n);
		for (i = 0; i < n; i++)
			cr_assert_neq(seen[i], e->key, "key %ld twice", e->key);
		seen[n++] = e->key;
	}
	for (p = pl_list.prev; p != &pl_list; p = p->prev) {
		cr_assert_lt(back, PL_LEN, "more than %d elements backwards",
			     PL_LEN);
		cr_assert_eq(cds_list_entry(p, struct pl_elem, link)->key,
			     seen[PL_LEN - 1 - back], "backwards %d", back);
		back++;
	}
	cr_assert_eq(n, PL_LEN);
	cr_assert_eq(back, PL_LEN);
}

/*
 * before: [h] -> e0 .. e15, readers walking
 * after:  [h] -> 16 elements, every replaced one freed by free_rcu, the
 *         readers never having seen one freed; most of the frees made by
 *         the updater itself from its polled slots.
 */
/* A thread past its last retire (pl_idle_thread()): exiting, or idle. */
static __thread int pl_done_retiring;
static unsigned long pl_deleted_late; /* deleters run by such a thread */

/* A retire's deleter (C++'s, through rculist__retire_rcu()): free. */
static void pl_delete(struct rcu_head *head)
{
	if (pl_done_retiring)
		__atomic_add_fetch(&pl_deleted_late, 1, __ATOMIC_RELAXED);
	free(rculist__container_of(head, struct pl_elem, rcu));
}

/* @retire: through rculist__retire_rcu(), else rculist_free_rcu(). */
static void pl_concurrent(int retire)
{
	struct rculist__reclaim_stats before = pl_stats(), after;
	double secs = test_env_number("RCULIST_TEST_CONC_SECS", 0.2, 0.05, 3600);
	struct pl_elem *elems[PL_LEN], *old, *e;
	pthread_t tid[PL_READERS];
	unsigned long replaced = 0, w0, seed = 1, polled = 0;
	double t0, progress, now;
	long key = PL_LEN, i;

	for (i = 0; i < PL_LEN; i++) {
		elems[i] = pl_new(i);
		cds_list_add_tail_rcu(&elems[i]->link, &pl_list);
	}
	for (i = 0; i < PL_READERS; i++)
		cr_assert_eq(pthread_create(&tid[i], NULL, pl_reader, (void *)i),
			     0);
	/*
	 * At least half a second, and until PL_POLLED_MIN blocks were freed
	 * from polled slots (on a loaded machine the grace-period thread
	 * may wait long for a CPU): the path under test was taken.
	 */
	if (secs < 0.5)
		secs = 0.5;
	t0 = progress = now = pl_now();
	w0 = pl_walks();
	/*
	 * ... and until every reader has walked (on a loaded machine a
	 * reader may wait long for a CPU; bounded below as a whole).
	 */
	while (now - t0 < secs || polled < PL_POLLED_MIN || !pl_all_walked()) {
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		i = (long)((seed >> 33) % PL_LEN);
		old = elems[i];
		e = pl_new(key++);
		cds_list_replace_rcu(&old->link, &e->link);
		elems[i] = e;
		if (retire)
			rculist__retire_rcu(&old->rcu, pl_delete);
		else
			rculist_free_rcu(old, rcu);
		if (++replaced % 256)
			continue;
		now = pl_now();
		polled = pl_stats().polled - before.polled;
		if (pl_walks() != w0) {
			w0 = pl_walks();
			progress = now;
		}
		cr_assert_lt(now - progress, PL_BOUND_MS / 1000.0,
			     "no progress: the readers made no walk in %d ms",
			     PL_BOUND_MS);
		cr_assert_lt(now - t0, secs + PL_BOUND_MS / 1000.0,
			     "no progress: %lu blocks freed from polled slots "
			     "in %g s, %lu wanted",
			     polled, secs + PL_BOUND_MS / 1000.0, PL_POLLED_MIN);
	}
	__atomic_store_n(&pl.stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < PL_READERS; i++)
		cr_assert_eq(pthread_join(tid[i], NULL), 0);
	after = pl_stats();
	cr_log_info("%lu replaced, %lu walks, %lu freed from polled slots",
		    replaced, pl_walks(), after.polled - before.polled);
	for (i = 0; i < PL_READERS; i++) {
		cr_assert_gt(pl.walks[i], 0, "reader %ld never walked", i);
		cr_assert_eq(pl.bad[i], 0, "reader %ld: %lu bad reads, first: %s",
			     i, pl.bad[i], pl.why[i]);
	}
	pl_check_shape();
	rculist_rcu_barrier();
	after = pl_stats();
	if (after.waiting) {
		/*
		 * Seen once in CI (bp, 85536 blocks): say where they were and
		 * whether a second barrier frees them, for the diagnosis.
		 */
		struct rculist__reclaim_stats first = after;

		rculist_rcu_barrier();
		after = pl_stats();
		cr_assert_fail("%lu blocks wait after the barrier (%lu handed "
			       "off, %lu in open batches); after a second "
			       "barrier %lu wait",
			       first.waiting, first.handed,
			       first.waiting - first.handed, after.waiting);
	}
	for (i = 0; i < PL_LEN; i++)
		free(elems[i]);
}

Test(reclaim_polled, owner_frees_polled_batches_while_readers_check)
{
	pl_concurrent(0);
}

/*
 * The same with C++'s retire: its deleters wait in the polled slots too,
 * and the updater runs them itself once their grace period has ended.
 */
Test(reclaim_polled, owner_runs_polled_retires_while_readers_check)
{
	pl_concurrent(1);
}

/*
 * A thread fills polled slots, then idles (or exits): no barrier is
 * called, yet every block is freed within a bound (the probe it sent
 * itself, then the sweep of its polled slots through call_rcu).  One
 * block (its polled slot the only thing the thread has waiting: only
 * the thread's own probe finds it), and several batches; of free_rcu
 * blocks, then of retires (an exiting thread runs none of their deleters
 * itself: its sweep does).
 */
static const long idle_blocks[] = { 1, 1000 };

static struct {
	int leave;
	int retire; /* through rculist__retire_rcu() */
	long blocks;
} idle;

static void *pl_idle_thread(void *arg)
{
	long exit_at_once = (long)arg, i;
	struct pl_elem *e;

	for (i = 0; i < idle.blocks; i++) {
		e = pl_new(i);
		if (idle.retire)
			rculist__retire_rcu(&e->rcu, pl_delete);
		else
			rculist_free_rcu(e, rcu);
	}
	pl_done_retiring = 1;
	/* The grace period of its polled slots ends before it exits. */
	if (exit_at_once)
		rculist_cond_synchronize_rcu(rculist_start_poll_synchronize_rcu());
	while (!exit_at_once && !__atomic_load_n(&idle.leave, __ATOMIC_ACQUIRE))
		usleep(1000);
	return NULL;
}

static int pl_wait_freed(unsigned long want)
{
	double t0 = pl_now();

	while (pl_now() - t0 < PL_BOUND_MS / 1000.0) {
		if (pl_stats().freed >= want)
			return 1;
		usleep(1000);
	}
	return 0;
}

/* One thread frees @blocks, then idles or exits: all freed in time. */
static void pl_idle_round(long blocks, long exiting)
{
	unsigned long base = pl_stats().freed;
	pthread_t tid;

	idle.blocks = blocks;
	idle.leave = 0;
	cr_assert_eq(pthread_create(&tid, NULL, pl_idle_thread, (void *)exiting),
		     0);
	if (exiting)
		cr_assert_eq(pthread_join(tid, NULL), 0);
	cr_assert(pl_wait_freed(base + (unsigned long)blocks),
		  "no progress: %lu of %ld blocks of an %s thread freed after "
		  "%d ms, no barrier called",
		  pl_stats().freed - base, blocks, exiting ? "exited" : "idle",
		  PL_BOUND_MS);
	if (!exiting) {
		__atomic_store_n(&idle.leave, 1, __ATOMIC_RELEASE);
		cr_assert_eq(pthread_join(tid, NULL), 0);
	}
}

Test(reclaim_polled, idle_or_exited_threads_polled_slots_freed_without_a_barrier)
{
	size_t b;

	/* Settle what other starts left: nothing of ours waits now. */
	rculist_rcu_barrier();
	for (idle.retire = 0; idle.retire < 2; idle.retire++) {
		for (b = 0; b < sizeof(idle_blocks) / sizeof(idle_blocks[0]);
		     b++) {
			pl_idle_round(idle_blocks[b], 0);
			pl_idle_round(idle_blocks[b], 1);
		}
	}
	cr_assert_eq(pl_deleted_late, 0,
		     "%lu deleters run by their thread after its last retire "
		     "(at its exit)",
		     pl_deleted_late);
}

/*
 * A barrier against the sweep of an idle thread's polled slots: a
 * thread fills polled slots, then idles; its probe goes round a grace
 * period and sweeps them (takes them, then sends them through
 * call_rcu) at some moment, and the test's barrier starts at another,
 * moved round by round across the sweep's.  A sweep that took polled
 * slots before the barrier's take and queued them after the flavour's
 * barrier had queued its own callback left them to be freed after the
 * barrier returned (seen in CI: 85536 blocks waiting after one barrier).
 * Every block the thread queued before the barrier must be freed when it
 * returns.  Planted in a scratch copy without the barrier's wait for
 * sweeps: a 4 ms sleep in the barrier before its take of the polled
 * slots (a preemption) and an 8 ms one between a sweep's take and its
 * send fail it (5 of 6 runs, memb and bp, at rounds 1 to 21); with the
 * wait and the same sleeps, 0 of 8.
 */
#define SW_ROUNDS    40
#define SW_BLOCKS    3000
#define SW_SPREAD_US 30000

static struct {
	int round; /* asked for by the test */
	int done;  /* the last round whose blocks the thread queued */
} sw;

static void *sw_thread(void *arg)
{
	int r = 0, i;

	(void)arg;
	for (;;) {
		while ((r = __atomic_load_n(&sw.round, __ATOMIC_ACQUIRE)) ==
		       __atomic_load_n(&sw.done, __ATOMIC_RELAXED))
			usleep(200);
		if (r < 0)
			return NULL;
		for (i = 0; i < SW_BLOCKS; i++)
			rculist_free_rcu(pl_new(i), rcu);
		__atomic_store_n(&sw.done, r, __ATOMIC_RELEASE);
	}
}

Test(reclaim_polled, barrier_frees_polled_slots_a_sweep_takes_beside_it)
{
	struct rculist__reclaim_stats st;
	pthread_t tid;
	double t0;
	int r;

	rculist_rcu_barrier();
	cr_assert_eq(pthread_create(&tid, NULL, sw_thread, NULL), 0);
	for (r = 1; r <= SW_ROUNDS; r++) {
		__atomic_store_n(&sw.round, r, __ATOMIC_RELEASE);
		t0 = pl_now();
		while (__atomic_load_n(&sw.done, __ATOMIC_ACQUIRE) != r) {
			cr_assert_lt(pl_now() - t0, PL_BOUND_MS / 1000.0,
				     "no progress: the thread did not queue "
				     "round %d's blocks in %d ms",
				     r, PL_BOUND_MS);
			usleep(200);
		}
		/* Its sweep comes a grace period or two later: cross it. */
		usleep((useconds_t)(r * 7919 % SW_SPREAD_US));
		rculist_rcu_barrier();
		rculist__reclaim_get_stats(&st, 0);
		cr_assert_eq(st.waiting, 0,
			     "round %d: %lu blocks queued before the barrier "
			     "wait after it (%lu handed off)",
			     r, st.waiting, st.handed);
	}
	__atomic_store_n(&sw.round, -1, __ATOMIC_RELEASE);
	cr_assert_eq(pthread_join(tid, NULL), 0);
}
