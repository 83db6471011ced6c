/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/unit/conc.h - readers and one updater, for the concurrent suites.
 *
 * The element, conc_elem, carries a magic word.  Live elements say
 * CONC_ALIVE; list heads embedded in a conc_elem say CONC_HEAD; reclaimed
 * elements are poisoned: magic CONC_DEAD, key and payload overwritten
 * with CONC_POISON_BYTE, links redirected to a dead sentinel, and kept
 * in a quarantine for a while before free(), so that a reader reaching
 * reclaimed memory reads the poison (and stops) rather than reused memory.
 *
 * Reader threads (conc_readers_start) register, then loop: read lock,
 * one walk, read unlock, quiescent state (then the reader's between(),
 * if set); correct under every flavour.
 * A walk checks each element it reaches and records what it saw; the
 * test thread asserts on those records once the readers are joined
 * (Criterion's assertions belong to the test's own thread).
 *
 * The updater is the test's own thread.  It retires removed elements
 * through a conc_reclaimer: either batches of rculist_synchronize_rcu()
 * then poison, or rculist_call_rcu() with a callback that poisons.
 */
#ifndef RCULIST_TESTS_CONC_H
#define RCULIST_TESTS_CONC_H

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

#define CONC_ALIVE	  0xa11fe0a11fe0UL
#define CONC_HEAD	  0x4ead4ead4eadUL
#define CONC_DEAD	  0xdeaddeaddeadUL
#define CONC_POISON_BYTE  0x6b
#define CONC_PAYLOAD_BYTE 0xa5

struct conc_elem {
	unsigned long magic;
	long key;
	struct cds_list_head link;
	struct cds_hlist_node hnode;
	struct cds_hlist_bl_node blnode;
	struct rcu_head rcu;
	unsigned char payload[16];
};

/* Where the links of a poisoned element lead: a dead end that says so. */
static struct conc_elem conc_sentinel = {
	.magic = CONC_DEAD,
	.key = -1,
	.link = { &conc_sentinel.link, &conc_sentinel.link },
	.hnode = { .next = NULL, .prev = NULL },
	.blnode = { NULL, NULL },
};

static inline struct conc_elem *conc_elem_new(long key)
{
	struct conc_elem *e = malloc(sizeof(*e));

	cr_assert_not_null(e);
	e->magic = CONC_ALIVE;
	e->key = key;
	memset(e->payload, CONC_PAYLOAD_BYTE, sizeof(e->payload));
	return e;
}

/* Make a list head that a reader recognises if it walks onto it. */
static inline void conc_head_init(struct conc_elem *head)
{
	memset(head, 0, sizeof(*head));
	head->magic = CONC_HEAD;
	head->key = -1;
	CDS_INIT_LIST_HEAD(&head->link);
}

/*
 * Poison @e.  The magic goes first and the links are redirected before
 * the rest is overwritten, so a reader that (wrongly) still stands on @e
 * finds the poison instead of following garbage.
 */
static inline void conc_poison(struct conc_elem *e)
{
	__atomic_store_n(&e->magic, CONC_DEAD, __ATOMIC_RELAXED);
	__atomic_store_n(&e->link.next, &conc_sentinel.link, __ATOMIC_RELAXED);
	__atomic_store_n(&e->link.prev, &conc_sentinel.link, __ATOMIC_RELAXED);
	__atomic_store_n(&e->hnode.next, &conc_sentinel.hnode, __ATOMIC_RELAXED);
	__atomic_store_n(&e->blnode.next, &conc_sentinel.blnode,
			 __ATOMIC_RELAXED);
	memset(&e->key, CONC_POISON_BYTE, sizeof(e->key));
	memset(e->payload, CONC_POISON_BYTE, sizeof(e->payload));
}

/* Poisoned elements wait here; the oldest is freed when the ring is full. */
#define CONC_QUARANTINE 1024
static struct {
	pthread_mutex_t lock;
	struct conc_elem *ring[CONC_QUARANTINE];
	size_t next;
	unsigned long poisoned;
} conc_quarantine = { .lock = PTHREAD_MUTEX_INITIALIZER };

static inline void conc_quarantine_put(struct conc_elem *e)
{
	struct conc_elem *old;

	conc_poison(e);
	pthread_mutex_lock(&conc_quarantine.lock);
	old = conc_quarantine.ring[conc_quarantine.next];
	conc_quarantine.ring[conc_quarantine.next] = e;
	conc_quarantine.next = (conc_quarantine.next + 1) % CONC_QUARANTINE;
	conc_quarantine.poisoned++;
	pthread_mutex_unlock(&conc_quarantine.lock);
	free(old);
}

static inline void conc_quarantine_drain(void)
{
	size_t i;

	pthread_mutex_lock(&conc_quarantine.lock);
	for (i = 0; i < CONC_QUARANTINE; i++) {
		free(conc_quarantine.ring[i]);
		conc_quarantine.ring[i] = NULL;
	}
	pthread_mutex_unlock(&conc_quarantine.lock);
}

/* ------------------------------------------------------------ reclaim */

enum conc_mode { CONC_SYNC, CONC_CALL_RCU };

#define CONC_BATCH 32
struct conc_reclaimer {
	enum conc_mode mode;
	size_t batch_max; /* CONC_SYNC: 0 means CONC_BATCH */
	struct conc_elem *batch[CONC_BATCH];
	size_t n;
	unsigned long retired;	     /* elements handed to the reclaimer */
	unsigned long grace_periods; /* synchronize_rcu calls (CONC_SYNC) */
};

static unsigned long conc_callbacks_run;

static inline void conc_reclaim_cb(struct rcu_head *head)
{
	conc_quarantine_put(
		(struct conc_elem *)(void *)((char *)head -
					     offsetof(struct conc_elem, rcu)));
	__atomic_fetch_add(&conc_callbacks_run, 1, __ATOMIC_RELAXED);
}

static inline void conc_flush(struct conc_reclaimer *rc)
{
	size_t i;

	if (!rc->n)
		return;
	rculist_synchronize_rcu();
	rc->grace_periods++;
	for (i = 0; i < rc->n; i++)
		conc_quarantine_put(rc->batch[i]);
	rc->n = 0;
}

/* Retire @e, already unlinked: poisoned once no reader can reach it. */
static inline void conc_retire(struct conc_reclaimer *rc, struct conc_elem *e)
{
	rc->retired++;
	if (rc->mode == CONC_CALL_RCU) {
		rculist_call_rcu(&e->rcu, conc_reclaim_cb);
		return;
	}
	rc->batch[rc->n++] = e;
	if (rc->n == (rc->batch_max ? rc->batch_max : CONC_BATCH))
		conc_flush(rc);
}

/*
 * Reclaim what is left; under CONC_CALL_RCU, rculist_rcu_barrier() must
 * have run every callback queued.
 */
static inline void conc_reclaim_finish(struct conc_reclaimer *rc)
{
	conc_flush(rc);
	rculist_rcu_barrier();
	if (rc->mode == CONC_CALL_RCU)
		cr_assert_eq(__atomic_load_n(&conc_callbacks_run,
					     __ATOMIC_RELAXED),
			     rc->retired,
			     "%lu callbacks queued, %lu run by the barrier",
			     rc->retired, conc_callbacks_run);
	else
		cr_assert_gt(rc->grace_periods, 0);
	cr_assert_eq(conc_quarantine.poisoned, rc->retired,
		     "%lu retired, %lu poisoned", rc->retired,
		     conc_quarantine.poisoned);
	conc_quarantine_drain();
}

/* ------------------------------------------------------------ readers */

static int conc_stopping;
static unsigned long conc_updates; /* bumped by the updater per update */

struct conc_reader {
	pthread_t tid;
	void (*walk)(struct conc_reader *r);
	void *arg;		   /* what to walk */
	long param;		   /* a walk-specific parameter */
	unsigned long walks;	   /* walks done */
	unsigned long elems;	   /* elements checked */
	unsigned long overlaps;	   /* walks during which an update ran */
	unsigned long seq;	   /* conc_updates when the walk began */
	long pause_at;		   /* the element to pause on, or -1 */
	unsigned long pause_every; /* walks per pause; 0: CONC_PAUSE_EVERY */
	/* If set, called after each quiescent state (an event loop's work). */
	void (*between)(struct conc_reader *r);
	unsigned long violations;
	char why[200]; /* the first violation */
};

/* Record a violation seen by reader @r (its first one is kept). */
static inline void conc_violation(struct conc_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void conc_violation(struct conc_reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->violations++)
		return;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
}

/* Check that @e is a live element with a key in [0, nkeys). */
static inline int conc_check_elem(struct conc_reader *r,
				  const struct conc_elem *e, long nkeys)
{
	unsigned long magic = __atomic_load_n(&e->magic, __ATOMIC_RELAXED);
	long key = __atomic_load_n(&e->key, __ATOMIC_RELAXED);

	if (magic != CONC_ALIVE) {
		conc_violation(r, "walk %lu reached %s %p (magic %#lx)", r->walks,
			       magic == CONC_DEAD ? "a poisoned element" :
			       magic == CONC_HEAD ? "a foreign list head" :
						    "a corrupt element",
			       (const void *)e, magic);
		return 0;
	}
	if (key < 0 || key >= nkeys) {
		conc_violation(r, "walk %lu: key %ld out of [0, %ld)", r->walks,
			       key, nkeys);
		return 0;
	}
	if (e->payload[0] != CONC_PAYLOAD_BYTE ||
	    e->payload[sizeof(e->payload) - 1] != CONC_PAYLOAD_BYTE) {
		conc_violation(r, "walk %lu: payload of key %ld overwritten",
			       r->walks, key);
		return 0;
	}
	return 1;
}

static inline void conc_updated(void)
{
	__atomic_fetch_add(&conc_updates, 1, __ATOMIC_RELAXED);
}

static inline double conc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define CONC_PAUSE_EVERY 256

/* Inside a read-side section, before a walk: choose whether it pauses. */
static inline void conc_walk_begin(struct conc_reader *r)
{
	unsigned long every = r->pause_every ? r->pause_every : CONC_PAUSE_EVERY;

	r->seq = __atomic_load_n(&conc_updates, __ATOMIC_RELAXED);
	r->pause_at = r->walks % every ? -1 : (long)(r->walks / every % 8);
}

/*
 * A walk calls this at its @n-th element (from 0).  On the walk's pause
 * element, the reader stands there until the updater has made an update
 * (1 ms at most: the updater may be waiting for this very reader's grace
 * period), so that updates land in the middle of walks even when the
 * machine is busy, rather than only by chance.
 */
static inline void conc_pause_point(struct conc_reader *r, long n)
{
	double until;

	if (n != r->pause_at)
		return;
	until = conc_now() + 0.001;
	while (__atomic_load_n(&conc_updates, __ATOMIC_RELAXED) == r->seq &&
	       conc_now() < until)
		sched_yield();
}

/* Inside the section, after the walk: count it, and whether it overlapped. */
static inline void conc_walk_end(struct conc_reader *r)
{
	if (__atomic_load_n(&conc_updates, __ATOMIC_RELAXED) != r->seq)
		__atomic_fetch_add(&r->overlaps, 1, __ATOMIC_RELAXED);
	r->walks++;
}

static inline void *conc_reader_main(void *arg)
{
	struct conc_reader *r = arg;

	rculist_register_thread();
	while (!__atomic_load_n(&conc_stopping, __ATOMIC_ACQUIRE)) {
		rculist_read_lock();
		conc_walk_begin(r);
		r->walk(r);
		conc_walk_end(r);
		rculist_read_unlock();
		rculist_quiescent_state();
		if (r->between)
			r->between(r);
	}
	rculist_unregister_thread();
	return NULL;
}

static inline void conc_readers_start(struct conc_reader *r, size_t n)
{
	size_t i;

	__atomic_store_n(&conc_stopping, 0, __ATOMIC_RELEASE);
	for (i = 0; i < n; i++)
		cr_assert_eq(pthread_create(&r[i].tid, NULL, conc_reader_main,
					    &r[i]),
			     0);
}

/*
 * The least time a concurrent test keeps updating (its readers overlap
 * updates meanwhile): RCULIST_TEST_CONC_SECS, from 0.05 to 10 seconds,
 * 0.4 unless set.  make check runs 0.2 (UNIT_CONC_SECS in the Makefile),
 * make check-full the whole 0.4 (check-unit-full).
 */
#define CONC_SECS 0.4

static inline double conc_secs(void)
{
	return test_env_number("RCULIST_TEST_CONC_SECS", CONC_SECS, 0.05, 10);
}

/*
 * Keep calling @step for at least @secs seconds and until every reader
 * has overlapped updates @min_overlaps times: a loaded machine may give
 * a reader few turns, so this waits for their progress, up to
 * CONC_PROGRESS_SECS in all (the suites' timeouts are 30 s).
 */
#define CONC_PROGRESS_SECS 20.0

static inline unsigned long conc_update_for(double secs,
					    unsigned long min_overlaps,
					    struct conc_reader *r, size_t n,
					    void (*step)(void *arg), void *arg)
{
	double start = conc_now(), t;
	unsigned long steps = 0;
	size_t i;

	for (;;) {
		step(arg);
		steps++;
		if (steps % 16)
			continue;
		t = conc_now() - start;
		if (t > CONC_PROGRESS_SECS)
			break;
		if (t < secs)
			continue;
		for (i = 0; i < n; i++)
			if (__atomic_load_n(&r[i].overlaps, __ATOMIC_RELAXED) <
			    min_overlaps)
				break;
		if (i == n)
			break;
	}
	return steps;
}

/* Stop and join the readers, then assert what they saw. */
static inline void conc_readers_stop(struct conc_reader *r, size_t n)
{
	size_t i;

	__atomic_store_n(&conc_stopping, 1, __ATOMIC_RELEASE);
	for (i = 0; i < n; i++)
		cr_assert_eq(pthread_join(r[i].tid, NULL), 0);
	for (i = 0; i < n; i++) {
		cr_log_info("reader %zu: %lu walks, %lu elements, %lu overlapped "
			    "updates",
			    i, r[i].walks, r[i].elems, r[i].overlaps);
		cr_assert_eq(r[i].violations, 0,
			     "reader %zu: %lu violations in %lu walks; first: %s",
			     i, r[i].violations, r[i].walks, r[i].why);
		cr_assert_gt(r[i].walks, 0, "reader %zu never walked", i);
		cr_assert_gt(r[i].elems, 0, "reader %zu saw no element", i);
		cr_assert_gt(r[i].overlaps, 0,
			     "reader %zu: no progress: none of its %lu walks overlapped an update in %.0f s",
			     i, r[i].walks, CONC_PROGRESS_SECS);
	}
}

/* A small, fast generator for the updater's choices. */
static inline uint32_t conc_rand(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (uint32_t)(*state >> 16);
}

#endif /* RCULIST_TESTS_CONC_H */
