/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/reclaim_simple.h - the simpler design of rculist_free_rcu() that
 * issue 30 asked to be measured beside core/reclaim.c, built for real so
 * that bench/reclaim.c runs it as its row impl=simple:
 *
 *   - each thread pushes a retired block onto its own open batch (one
 *     compare-and-swap, so that a barrier or an exit may take the batch);
 *   - a batch of SIMPLE_BATCH blocks gets a carrier (one malloc() per
 *     batch) and goes to liburcu's own call_rcu() with one callback,
 *     which frees its blocks in call_rcu's worker thread;
 *   - an idle thread's open batch goes with the callback of the thread's
 *     last carrier in flight (a push with none in flight sends at once),
 *     at its exit (a thread-specific destructor) or at simple_barrier(),
 *     which takes every thread's (it does not wait for such a send in
 *     progress: core/reclaim.c's barrier does, through its windows);
 *   - stats: an atomic counter of blocks handed off and not yet freed,
 *     written once per batch; the limit: a thread that hands off while
 *     the counter is at the limit waits for grace periods until it is
 *     below (it must not be inside a read-side critical section);
 *   - the stall detector's question, "since when has the oldest batch
 *     waited for its grace period", from a ring of hand-off times
 *     indexed by the batch's sequence number (liburcu's worker runs the
 *     callbacks in the order they were queued; with more batches in
 *     flight than the ring holds, the answer is a lower bound).
 *
 * What it leaves out, against core/reclaim.c: the owner frees nothing
 * (call_rcu's one worker frees for every updater), no bound on carriers
 * in flight, a barrier that misses a send in progress, no malloc_trim()
 * once a backlog drained, no fork handling, no rculist_call_rcu()
 * sharing the batches, and no model of its own.
 * Include once, after <rculist.h>, with simple_call_rcu and
 * simple_barrier_rcu set to the flavour's call_rcu() and rcu_barrier().
 */
#ifndef RCULIST_BENCH_RECLAIM_SIMPLE_H
#define RCULIST_BENCH_RECLAIM_SIMPLE_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define SIMPLE_BATCH 256
#define SIMPLE_RING  4096 /* hand-off times kept: batches in flight */

static void (*simple_call_rcu)(struct rcu_head *head,
			       void (*func)(struct rcu_head *head));
static void (*simple_barrier_rcu)(void);

/* A retired block's rcu_head, reused: next block, offset of the head. */
struct simple_block {
	struct simple_block *next;
	size_t offset;
};

struct simple_thread {
	struct simple_block *open; /* CAS by the owner, exchange by others */
	unsigned long n;	/* the owner's count; a take resets it late */
	unsigned long inflight; /* carriers sent, not yet called back */
	struct simple_thread *next;
} __attribute__((aligned(64)));

struct simple_carrier {
	struct rcu_head rcu;
	struct simple_thread *owner;
	struct simple_block *blocks;
	unsigned long n;
};

static struct {
	long pending;		  /* handed off, not yet freed */
	unsigned long sent, done; /* batches */
} simple_hot __attribute__((aligned(64)));
static unsigned long simple_limit, simple_peak, simple_throttled;
static uint64_t simple_since[SIMPLE_RING];
static struct simple_thread *simple_threads;
static pthread_mutex_t simple_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t simple_key;
static pthread_once_t simple_once = PTHREAD_ONCE_INIT;
static __thread struct simple_thread *simple_self;

static uint64_t simple_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void simple_free_blocks(struct simple_block *b)
{
	struct simple_block *next;

	for (; b; b = next) {
		next = b->next;
		free((char *)b - b->offset);
	}
}

static void simple_flush(struct simple_thread *t);

/*
 * A carrier's grace period is over: free its blocks.  The last carrier
 * of a thread sends what the thread left open (an idle thread's batch):
 * the owner pushes, then loads inflight; this decrements, then loads
 * open (all sequentially consistent), so one of them sees the other.
 */
static void simple_done(struct rcu_head *head)
{
	struct simple_carrier *c = (struct simple_carrier *)(void *)head;
	struct simple_thread *t = c->owner;

	simple_free_blocks(c->blocks);
	__atomic_sub_fetch(&simple_hot.pending, (long)c->n, __ATOMIC_RELAXED);
	__atomic_add_fetch(&simple_hot.done, 1, __ATOMIC_RELEASE);
	free(c);
	if (!__atomic_sub_fetch(&t->inflight, 1, __ATOMIC_SEQ_CST) &&
	    __atomic_load_n(&t->open, __ATOMIC_SEQ_CST))
		simple_flush(t);
}

/* Push @list (a chain of blocks) back onto @t's open batch. */
static void simple_put_back(struct simple_thread *t, struct simple_block *list)
{
	struct simple_block *tail = list, *old;

	while (tail->next)
		tail = tail->next;
	old = __atomic_load_n(&t->open, __ATOMIC_RELAXED);
	do
		tail->next = old;
	while (!__atomic_compare_exchange_n(&t->open, &old, list, 1,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
}

/*
 * Hand @t's @blocks (@n of them) to call_rcu(); the limit may make it
 * wait.  With no memory for a carrier they go back to the open batch.
 */
static void simple_send(struct simple_thread *t, struct simple_block *blocks,
			unsigned long n, int may_wait)
{
	struct simple_carrier *c;
	unsigned long seq, lim, peak, done;
	long v;

	if (!blocks)
		return;
	c = malloc(sizeof(*c));
	if (!c) {
		simple_put_back(t, blocks);
		return;
	}
	c->owner = t;
	c->blocks = blocks;
	c->n = n;
	__atomic_add_fetch(&t->inflight, 1, __ATOMIC_SEQ_CST);
	v = __atomic_add_fetch(&simple_hot.pending, (long)n, __ATOMIC_RELAXED);
	peak = __atomic_load_n(&simple_peak, __ATOMIC_RELAXED);
	while (v > (long)peak &&
	       !__atomic_compare_exchange_n(&simple_peak, &peak,
					    (unsigned long)v, 1,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	seq = __atomic_fetch_add(&simple_hot.sent, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&simple_since[seq % SIMPLE_RING], simple_now(),
			 __ATOMIC_RELAXED);
	simple_call_rcu(&c->rcu, simple_done);
	lim = __atomic_load_n(&simple_limit, __ATOMIC_RELAXED);
	if (!may_wait || !lim)
		return;
	if (__atomic_load_n(&simple_hot.pending, __ATOMIC_RELAXED) >= (long)lim)
		__atomic_add_fetch(&simple_throttled, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&simple_hot.pending, __ATOMIC_RELAXED) >=
	       (long)lim) {
		done = __atomic_load_n(&simple_hot.done, __ATOMIC_RELAXED);
		rculist_synchronize_rcu();
		/* The callbacks run in call_rcu's thread: give it time. */
		if (__atomic_load_n(&simple_hot.done, __ATOMIC_RELAXED) == done)
			usleep(1000);
	}
}

static void simple_flush(struct simple_thread *t)
{
	struct simple_block *list, *b;
	unsigned long n = 0;

	list = __atomic_exchange_n(&t->open, NULL, __ATOMIC_ACQUIRE);
	for (b = list; b; b = b->next)
		n++;
	simple_send(t, list, n, 0);
}

static void simple_exit(void *arg)
{
	struct simple_thread *t = arg;

	simple_flush(t);
	/* Left on the list, never freed: a barrier may be reading it. */
}

static void simple_key_create(void)
{
	if (pthread_key_create(&simple_key, simple_exit))
		abort();
}

static struct simple_thread *simple_adopt(void)
{
	struct simple_thread *t;

	pthread_once(&simple_once, simple_key_create);
	if (posix_memalign((void **)&t, 64, sizeof(*t)))
		abort();
	t->open = NULL;
	t->n = 0;
	t->inflight = 0;
	pthread_mutex_lock(&simple_lock);
	t->next = simple_threads;
	simple_threads = t;
	pthread_mutex_unlock(&simple_lock);
	(void)pthread_setspecific(simple_key, t);
	simple_self = t;
	return t;
}

/* rculist_free_rcu() as the simple design has it. */
static void simple_free_rcu(struct rcu_head *head, size_t offset)
{
	struct simple_block *b = (struct simple_block *)(void *)head;
	struct simple_thread *t = simple_self;
	struct simple_block *old;
	unsigned long n;

	if (!t)
		t = simple_adopt();
	b->offset = offset;
	old = __atomic_load_n(&t->open, __ATOMIC_RELAXED);
	do
		b->next = old;
	while (!__atomic_compare_exchange_n(&t->open, &old, b, 1,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	n = old ? t->n + 1 : 1;
	/* Full, or nothing in flight whose callback would send it. */
	if (n < SIMPLE_BATCH && __atomic_load_n(&t->inflight, __ATOMIC_SEQ_CST)) {
		t->n = n;
		return;
	}
	t->n = 0;
	old = __atomic_exchange_n(&t->open, NULL, __ATOMIC_ACQUIRE);
	/* A barrier may have taken some: count what is left. */
	for (n = 0, b = old; b; b = b->next)
		n++;
	simple_send(t, old, n, 1);
}

/* Every thread's open batch sent, then liburcu's barrier. */
static void simple_barrier(void)
{
	struct simple_thread *t;

	pthread_mutex_lock(&simple_lock);
	for (t = simple_threads; t; t = t->next)
		simple_flush(t);
	pthread_mutex_unlock(&simple_lock);
	simple_barrier_rcu();
}

/* Blocks handed off and not yet freed, the peak (reset by @reset). */
static unsigned long simple_pending(unsigned long *peak, int reset)
{
	long v = __atomic_load_n(&simple_hot.pending, __ATOMIC_RELAXED);
	unsigned long p = v > 0 ? (unsigned long)v : 0;

	unsigned long top =
		reset ? __atomic_exchange_n(&simple_peak, p, __ATOMIC_RELAXED) :
			__atomic_load_n(&simple_peak, __ATOMIC_RELAXED);

	if (peak)
		*peak = top;
	return p;
}

/* Milliseconds the oldest batch in flight has waited, 0 if none. */
static unsigned long simple_oldest_ms(void)
{
	unsigned long done = __atomic_load_n(&simple_hot.done, __ATOMIC_ACQUIRE);
	unsigned long sent = __atomic_load_n(&simple_hot.sent, __ATOMIC_ACQUIRE);
	uint64_t t, now = simple_now();

	if (sent == done)
		return 0;
	/* More in flight than the ring holds: the oldest time it still has. */
	if (sent - done >= SIMPLE_RING)
		done = sent - SIMPLE_RING + 1;
	t = __atomic_load_n(&simple_since[done % SIMPLE_RING], __ATOMIC_RELAXED);
	return t && now > t ? (unsigned long)((now - t) / 1000000u) : 0;
}

#endif
