// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/reclaim.c - rculist_free_rcu() and rculist_rcu_barrier().
 *
 * A block handed to rculist_free_rcu() reuses its own rcu_head as
 * {link, offset} and is pushed, with one compare-and-swap and no lock,
 * onto its thread's open batch.  Each thread that frees owns a struct
 * state (allocated once, never freed, reused by a later thread after it
 * exits): the open batch and SLOTS batch slots, each with an rcu_head of
 * its own that carries a full batch through rculist_call_rcu().  So one
 * callback serves RCULIST__RECLAIM_BATCH blocks, and no callback has to
 * find a block's offset: the slot records the blocks.
 *
 * A batch of free_rcu blocks and retire callbacks only (no callback of
 * rculist_call_rcu() among them) goes first to one of the thread's LOCAL
 * polled slots, with a cookie of
 * rculist_start_poll_synchronize_rcu(), whose thread (core/poll.c) ends
 * the grace period tens of microseconds later where call_rcu's worker
 * takes 10 ms; the owner frees the polled slots whose cookie is satisfied
 * at its hand-offs, FREE_BUDGET at most each time, in its own thread:
 * blocks still in its caches, back to its own malloc cache; it runs the
 * retire callbacks there too, inside its window, where one that queues
 * more hands off again, nested.  With every polled slot waiting, or
 * rculist_call_rcu() callbacks in the batch, the batch goes through a
 * slot and call_rcu as follows.
 *
 * A slot's callback, after its grace period, marks it DONE; the owner
 * frees the DONE batches itself at its next hand-off, in the thread that
 * allocated them.  But a batch that grew past SPILL blocks while all the
 * thread's slots were in flight (a thread retiring flat out) is freed by
 * the callback, in call_rcu's worker: such an owner then frees only the
 * batches sent while a slot was free, and a second CPU, where there is
 * one, frees the rest (docs/performance.md, "Reclamation").
 * The callback that leaves a state with nothing in flight, while blocks
 * still wait there, sends a probe round one more grace period (through
 * the state's sweep slot); if the owner has not handed off meanwhile,
 * it is idle (or gone), and the probe's callback sweeps the state: it
 * frees the DONE batches and sends the open batch through the sweep
 * slot, to be freed by the callback; it takes the polled slots too,
 * whatever their cookie (a sweep waits a grace period of its own).  An
 * owner that leaves a polled slot with nothing in flight sends that probe
 * itself.  The owner hands its open batch off when it holds BATCH
 * blocks, or at once when nothing of its own is in flight.  Together:
 * no block waits for ever, whether its thread goes on, idles or exits,
 * as long as a state has more slots than threads that claim its DONE
 * slots at once (its owner, the sweeper, each rculist_rcu_barrier()):
 * tests/model/reclaim.pml checks the hand-offs, the probe and sweep, the
 * barrier and fork, and with a single slot finds an idle owner's open
 * batch left behind while a barrier holds the slot (it does not model
 * the polled slots: tests/unit/reclaim_polled.c tests them).
 *
 * Never blocks: like call_rcu(), rculist_free_rcu() is callable inside
 * read-side critical sections and never waits for a grace period.  A
 * thread has at most LOCAL + SLOTS + 1 batches waiting; while all its
 * slots are busy its open batch grows (it is tried again every RETRY
 * blocks), so what waits is bounded by the rate of frees times the time
 * a grace period and its callback take, as for call_rcu() (make
 * bench-reclaim reports the peak).
 *
 * rculist_rcu_barrier() takes every open batch, waits for hand-offs in
 * progress (each is a window: owner_seq odd, or sweeping set; windows
 * nest, only the outermost moves owner_seq: a callback run inside one
 * may queue blocks and hand off), then
 * takes every polled slot (a hand-off in progress may have filled one
 * with a batch it took before the barrier), each state's under its
 * sweep_lock, and waits for sweeps in progress: a sweep that took some
 * first (the owner idle, or the barrier's caller between two windows)
 * has then queued them on call_rcu before the flavour's barrier queues
 * its callback.  It runs the flavour's barrier (every slot queued before
 * is then DONE or freed), frees the DONE slots, and waits for frees in
 * progress.
 *
 * Locks: registry_lock (the list of states, their owned flags, the
 * barrier's taking of open batches), then a state's sweep_lock (one
 * sweeper at a time, and adopt()).  Neither is ever held across a call
 * into liburcu (call_rcu, synchronize_rcu, barrier) or into malloc.
 * The fork() handlers take registry_lock after the flavour's own locks
 * (call_rcu_mutex and bp's) and the call_rcu gate, see core/fork.c; a
 * hand-off or sweep enters the gate holding neither lock.
 *
 * rculist_call_rcu() queues its rcu_head the same way, as a callback
 * (bit 0 of the link marks it, func in the second word): a slot's
 * callback runs the callbacks of its batch, in liburcu's call_rcu thread,
 * before it marks the slot DONE; so call_rcu and free_rcu blocks share
 * the batches, the counts and the limit.  rculist__retire_rcu() (C++'s
 * retire, which C++26 lets run the deleters it scheduled) queues a
 * callback with bit 1 set too (HERE): one its owner may run itself, so
 * its batch may wait in a polled slot.
 *
 * Counting (rculist_reclaim_get_stats()): each state counts the blocks
 * ever queued there (queued, written by its owner only); completed counts
 * the blocks freed and callbacks run, once per batch.  Their difference
 * is exact once no thread is queueing.  For the limit and the peak, each
 * owner adds its queued blocks to pub_pending every RETRY blocks (and at
 * each hand-off): one shared atomic per RETRY blocks, never one per block.
 *
 * The limit (rculist_reclaim_set_limit()): an owner that publishes while
 * pub_pending >= limit, outside any read-side critical section and not
 * in a callback, waits for grace periods (rculist_synchronize_rcu(),
 * which the stall detector watches) until pub_pending is below it.
 *
 * Not async-signal-safe: the first call in a thread allocates its state,
 * and hand-offs call call_rcu() and free().
 */
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>

#include "internal.h"

#define BATCH RCULIST__RECLAIM_BATCH
#define SLOTS RCULIST__RECLAIM_SLOTS
#define RETRY (BATCH / 8)
/*
 * A batch handed off with SPILL blocks or more grew while every slot of
 * its thread was in flight: the thread retires faster than grace periods
 * end, and it spends its time freeing.  Such a batch is freed by its
 * slot's callback, in call_rcu's worker (on another CPU, where there is
 * one), instead of by its owner.
 */
#define SPILL (2UL * BATCH)
static unsigned long spill = SPILL; /* rculist__reclaim_set_spill() */
/*
 * Polled batches: a thread's batch of free_rcu blocks waits in one of
 * its LOCAL polled slots with a cookie (rculist_start_poll_synchronize_rcu(),
 * whose thread runs the grace period within microseconds); the owner
 * frees the slots whose cookie is satisfied, FREE_BUDGET at most per
 * hand-off, in its own thread: blocks it freed a few thousand frees ago,
 * still in its caches, back to its own malloc cache.
 */
#define LOCAL	    32
#define FREE_BUDGET 4
#define CHAINS	    4 /* polled slots freed at once (free_chains()) */
/*
 * Polled slots waiting when the owner asks for their grace period: one
 * asked for at every hand-off kept the grace-period thread running back
 * to back (its membarrier() IPIs the updaters' CPUs); an owner that
 * stops before it asks has its slots swept through call_rcu.
 */
#define REQUEST_AT (LOCAL / 4)
static unsigned long local_slots = LOCAL; /* rculist__reclaim_set_local() */

/* A queued block's rcu_head, reused while the block waits. */
struct pending {
	uintptr_t link; /* the next block, | CALL (| HERE) for a callback */
	union {
		size_t offset;			     /* rculist_free_rcu() */
		void (*func)(struct rcu_head *head); /* rculist_call_rcu() */
	} u;
};

#define CALL ((uintptr_t)1)
/* With CALL: the queueing thread may run it (rculist__retire_rcu()). */
#define HERE ((uintptr_t)2)
#define KIND (CALL | HERE)

_Static_assert(sizeof(struct pending) <= sizeof(struct rcu_head) &&
		       _Alignof(struct rcu_head) >= 4,
	       "a pending block reuses its rcu_head, link bits 0-1 free");

/*
 * A batch's callbacks (struct state's calls): those that run in a helper
 * thread only (rculist_call_rcu()) in the low 32 bits, those that its
 * owner may run (HERE) counted by HERE_ONE; a batch with none of the
 * first may wait in a polled slot.
 */
#define HERE_ONE	   ((uint64_t)1 << 32)
#define HELPER_ONLY(calls) ((uint32_t)(calls))

static inline uint64_t call_weight(uintptr_t kind)
{
	return !(kind & CALL) ? 0 : (kind & HERE) ? HERE_ONE : 1;
}

static struct pending *next_of(const struct pending *p)
{
	return (struct pending *)(p->link & ~KIND);
}

/* Link @p to @next, keeping @p's kind. */
static void set_next(struct pending *p, const struct pending *next)
{
	p->link = (uintptr_t)next | (p->link & KIND);
}

/* Taken by another thread: the owner's count restarts. */
static struct pending stolen_mark;
#define STOLEN (&stolen_mark)

enum slot_state {
	SLOT_FREE,
	SLOT_FILLING, /* being handed off */
	SLOT_QUEUED,  /* on call_rcu: the callback makes it DONE */
	SLOT_ORPHAN,  /* on call_rcu: the callback frees it (sweep slot) */
	SLOT_DONE,    /* grace period over, blocks to free */
	SLOT_CLAIMED, /* blocks being freed */
	SLOT_POLLED,  /* a polled slot: freed once its cookie is satisfied */
};

struct state;

struct slot {
	struct rcu_head rcu;
	struct state *state;
	struct pending *blocks;
	unsigned long n; /* blocks queued here; a probe: owner_seq seen */
	int st;		 /* enum slot_state */
	int has_calls; /* callbacks among blocks: the slot's callback runs them */
	uint64_t since; /* CLOCK_MONOTONIC ns when queued (stats, stall.c) */
};

/* A polled batch: FREE, FILLING (its owner), POLLED, CLAIMED. */
struct polled {
	struct pending *blocks;
	unsigned long cookie; /* the owner's: a ticket of core/gp.c */
	uint64_t since;	      /* CLOCK_MONOTONIC ns when handed off (stats) */
	int st;		      /* enum slot_state */
	int has_calls;	      /* HERE callbacks among blocks */
};

struct state {
	/* The owner's, read by stealers. */
	struct pending *open;	 /* pushed by CAS, taken by exchange */
	unsigned long count;	 /* blocks in open, as the owner knows */
	unsigned long owner_seq; /* odd while the owner hands off */
	uint64_t calls;		 /* callbacks in open, weighed: call_weight() */
	unsigned long queued;	 /* blocks ever queued here (the owner) */
	unsigned long published; /* of queued, added to pub_pending */
	unsigned long npolled;	 /* polled slots the owner may find POLLED */
	unsigned long fills;	 /* polled slots the owner ever filled */
	/* Written by others. */
	unsigned long inflight; /* slots on call_rcu, not yet called back */
	int sweeping;		/* a sweeper between taking and sending */
	int owned;		/* registry_lock */
	pthread_mutex_t sweep_lock;
	struct state *next;	     /* registry: never unlinked */
	struct slot slot[SLOTS + 1]; /* the last one is the sweeper's */
	struct polled local[LOCAL];
	/* Aligned: no cache line shared with another owner's state. */
} __attribute__((aligned(64)));

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct state *states;	/* registry_lock; nodes never change next */
static struct pending *orphans; /* blocks of a thread with no state */
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static pid_t fork_pid;

/* The library is built with -ftls-model=initial-exec: one mov. */
static __thread struct state *self;

/*
 * rculist_reclaim_get_stats(), the limit; see the top of the file.  The
 * two counters every batch writes on a cache line of their own, away
 * from those read at each publish and rarely written.
 */
static struct {
	long pub_pending;	 /* published queued, less completed */
	unsigned long completed; /* blocks freed and callbacks run */
} hot __attribute__((aligned(64)));
static struct {
	unsigned long limit;	 /* 0: none */
	unsigned long peak;	 /* most pending seen */
	unsigned long trim_mark; /* backlog since the last malloc_trim() */
	char pad[64 - 3 * sizeof(unsigned long)];
} cold __attribute__((aligned(64)));
static unsigned long orphan_queued; /* blocks queued with no state */
static unsigned long throttled;	    /* waits for the limit */
static unsigned long polled_freed;  /* blocks freed from polled slots */
static unsigned long gps;	    /* grace periods seen to end */
/* maybe_trim(): a backlog this large (blocks) is trimmed once drained. */
#define TRIM_MIN      65536UL
#define TRIM_EVERY_NS 1000000000u
static uint64_t last_trim; /* CLOCK_MONOTONIC ns */

/* The calling thread runs callbacks or frees blocks: never throttled. */
static __thread int reclaiming;
/*
 * The calling thread is in thread_exit(): it runs no retire callback (a
 * C++ deleter would run after the thread's thread_local objects were
 * destroyed); its sweep runs them in call_rcu's worker.
 */
static __thread int exiting;

static void raise_to(unsigned long *p, unsigned long v)
{
	unsigned long cur = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (v > cur &&
	       !__atomic_compare_exchange_n(p, &cur, v, 1, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

static unsigned long pending_pub(void)
{
	long v = __atomic_load_n(&hot.pub_pending, __ATOMIC_RELAXED);

	return v > 0 ? (unsigned long)v : 0;
}

/* Add @d blocks to pub_pending (the peak and the trim mark follow). */
static void publish_n(unsigned long d)
{
	long v = __atomic_add_fetch(&hot.pub_pending, (long)d, __ATOMIC_RELAXED);

	if (v > 0) {
		raise_to(&cold.peak, (unsigned long)v);
		raise_to(&cold.trim_mark, (unsigned long)v);
	}
}

/* The owner: its blocks not yet in pub_pending. */
static void publish(struct state *s)
{
	unsigned long d = s->queued - s->published;

	if (d) {
		s->published = s->queued;
		publish_n(d);
	}
}

/* @n blocks freed or run. */
static void completed_add(unsigned long n)
{
	if (!n)
		return;
	__atomic_add_fetch(&hot.completed, n, __ATOMIC_RELEASE);
	__atomic_sub_fetch(&hot.pub_pending, (long)n, __ATOMIC_RELAXED);
}

/*
 * Give memory back to the system once a backlog has drained: when what
 * waits has fallen below an eighth of a backlog of TRIM_MIN blocks or
 * more, one thread calls malloc_trim(0) (glibc keeps freed memory in its
 * arenas otherwise: RSS stays at the peak), once a second at most (it
 * walks every arena: 16 million instructions after a 200000-block
 * backlog, measured with callgrind).  Called with no lock held,
 * outside the fork gate.
 */
static void maybe_trim(void)
{
	unsigned long mark = __atomic_load_n(&cold.trim_mark, __ATOMIC_RELAXED);
	uint64_t now, last;

	if (mark < TRIM_MIN || pending_pub() > mark / 8)
		return;
	/* At most one a second: a backlog that drains often costs little. */
	now = rculist__now_ns();
	last = __atomic_load_n(&last_trim, __ATOMIC_RELAXED);
	if ((last && now - last < TRIM_EVERY_NS) ||
	    !__atomic_compare_exchange_n(&cold.trim_mark, &mark, 0, 0,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;
	__atomic_store_n(&last_trim, now, __ATOMIC_RELAXED);
	malloc_trim(0);
}

static int real(const struct pending *list)
{
	return list && list != STOLEN;
}

/* Blocks in @p; *@calls (if given) gets its callbacks, weighed. */
static unsigned long count_blocks(const struct pending *p, uint64_t *calls)
{
	unsigned long n = 0;
	uint64_t c = 0;

	for (; p; p = next_of(p)) {
		n++;
		c += call_weight(p->link & KIND);
	}
	if (calls)
		*calls = c;
	return n;
}

/*
 * Free the blocks and run the callbacks of @p, its grace period over:
 * returns how many.
 */
static unsigned long free_blocks(struct pending *p)
{
	struct pending *next;
	unsigned long n = 0;

	if (RCULIST__UNLIKELY(rculist__tsan_present()))
		for (next = p; next; next = next_of(next))
			rculist__tsan_before_free(next);
	reclaiming++;
	for (; p; p = next, n++) {
		next = next_of(p);
		if (p->link & CALL)
			p->u.func((struct rcu_head *)(void *)p);
		else
			free((char *)p - p->u.offset);
	}
	reclaiming--;
	completed_add(n);
	return n;
}

/*
 * Free the blocks and run the (retire) callbacks of @k lists, a block of
 * each in turn: each block's link is a load that may miss the cache;
 * prefetched as soon as its address is known, it overlaps with the
 * frees of the other chains' blocks.  A callback may queue blocks and
 * hand off, nested: the lists are this call's alone.  Returns how many.
 */
static unsigned long free_chains(struct pending **list, int k)
{
	struct pending *p;
	unsigned long n = 0;
	int i, live = k;

	if (RCULIST__UNLIKELY(rculist__tsan_present()))
		for (i = 0; i < k; i++)
			for (p = list[i]; p; p = next_of(p))
				rculist__tsan_before_free(p);
	reclaiming++;
	while (live) {
		for (live = 0, i = 0; i < k; i++) {
			p = list[i];
			if (!p)
				continue;
			list[i] = next_of(p);
			/* Used after the other chains' frees: by then here. */
			__builtin_prefetch(list[i]);
			if (p->link & CALL)
				p->u.func((struct rcu_head *)(void *)p);
			else
				free((char *)p - p->u.offset);
			n++;
			live++;
		}
	}
	reclaiming--;
	completed_add(n);
	return n;
}

/* Run the callbacks of @p; returns the free_rcu blocks left, *@ran set. */
static struct pending *run_calls(struct pending *p, unsigned long *ran)
{
	struct pending *keep = NULL, *next;
	unsigned long n = 0;

	reclaiming++;
	for (; p; p = next) {
		next = next_of(p);
		if (p->link & CALL) {
			p->u.func((struct rcu_head *)(void *)p);
			n++;
		} else {
			p->link = (uintptr_t)keep;
			keep = p;
		}
	}
	reclaiming--;
	completed_add(n);
	*ran = n;
	return keep;
}

/*
 * An owner's window: odd while open.  Only the owner writes it, and a
 * thread opens windows on its own state only (self).  Windows nest: a
 * callback run inside one (by a barrier, or the owner) may queue blocks
 * and so hand off; only the outermost open and close move owner_seq,
 * else the nested pair would show the window closed to wait_quiet()
 * while the outer one still runs callbacks it took.
 */
static __thread unsigned int window_depth;

static void window_open(unsigned long *seq)
{
	if (!window_depth++)
		__atomic_add_fetch(seq, 1, __ATOMIC_SEQ_CST);
}

static void window_close(unsigned long *seq)
{
	if (!--window_depth)
		__atomic_add_fetch(seq, 1, __ATOMIC_RELEASE);
}

/*
 * A barrier, after its take of @s's polled slots under sweep_lock: wait
 * until a sweeper that took some of them first (it sets sweeping under
 * that lock, before it takes) has queued them on call_rcu, before the
 * flavour's barrier queues its own callback; else they would be freed
 * after the barrier returns.
 */
static void wait_sweep(struct state *s)
{
	while (__atomic_load_n(&s->sweeping, __ATOMIC_ACQUIRE))
		sched_yield();
}

/* Wait until @s has no hand-off, sweep or free in progress. */
static void wait_quiet(struct state *s)
{
	unsigned long seq = __atomic_load_n(&s->owner_seq, __ATOMIC_ACQUIRE);

	if (seq & 1)
		while (__atomic_load_n(&s->owner_seq, __ATOMIC_ACQUIRE) == seq)
			sched_yield();
	wait_sweep(s);
}

/* Move *@st from @from to CLAIMED: non-zero if this caller did. */
static int claim(int *st, int from)
{
	return __atomic_load_n(st, __ATOMIC_RELAXED) == from &&
	       __atomic_compare_exchange_n(st, &from, SLOT_CLAIMED, 0,
					   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/* Free @s's DONE slots; inside a window of the caller's. */
static void claim_done(struct state *s)
{
	struct slot *sl;

	for (sl = s->slot; sl < s->slot + SLOTS; sl++) {
		if (!claim(&sl->st, SLOT_DONE))
			continue;
		free_blocks(sl->blocks);
		__atomic_store_n(&sl->st, SLOT_FREE, __ATOMIC_RELEASE);
	}
}

/* Append @list to *@to: returns the new head. */
static struct pending *splice(struct pending *to, struct pending *list)
{
	struct pending *tail;

	if (!real(list))
		return to;
	for (tail = list; next_of(tail); tail = next_of(tail))
		;
	set_next(tail, to);
	return list;
}

/*
 * The owner, inside its window: free up to @budget of its polled slots
 * whose grace period has ended.  Only the owner reads a cookie.
 */
static void claim_polled(struct state *s, unsigned long budget)
{
	unsigned long done, left = 0, fills = s->fills;
	struct polled *lp, *got[CHAINS];
	struct pending *list[CHAINS];
	int k = 0, i;

	/* Only the owner makes a slot POLLED: none since it last saw none. */
	if (!s->npolled)
		return;
	done = rculist__gp_done();
	for (lp = s->local; lp < s->local + LOCAL; lp++) {
		/* The owner wrote the cookie: no other thread writes it. */
		if (__atomic_load_n(&lp->st, __ATOMIC_RELAXED) != SLOT_POLLED)
			continue;
		/* has_calls too: the owner wrote it, none else does. */
		if (!budget || !rculist__seq_after(done, lp->cookie) ||
		    (exiting && lp->has_calls) || !claim(&lp->st, SLOT_POLLED)) {
			left++;
			continue;
		}
		budget--;
		/* Retire callbacks run in the window (nested hand-offs). */
		got[k] = lp;
		list[k++] = lp->blocks;
		if (k < CHAINS && budget && lp + 1 < s->local + LOCAL)
			continue;
		__atomic_add_fetch(&polled_freed, free_chains(list, k),
				   __ATOMIC_RELAXED);
		for (i = 0; i < k; i++)
			__atomic_store_n(&got[i]->st, SLOT_FREE,
					 __ATOMIC_RELEASE);
		k = 0;
	}
	if (k) {
		__atomic_add_fetch(&polled_freed, free_chains(list, k),
				   __ATOMIC_RELAXED);
		for (i = 0; i < k; i++)
			__atomic_store_n(&got[i]->st, SLOT_FREE,
					 __ATOMIC_RELEASE);
	}
	/* Slots a nested hand-off filled meanwhile (some twice: no harm). */
	s->npolled = left + (s->fills - fills);
}

/*
 * A sweeper or a barrier: take every polled slot of @s, its grace period
 * over or not, and append its blocks to @list (the caller waits for a
 * grace period before it frees them).
 */
static struct pending *take_polled(struct state *s, struct pending *list)
{
	struct polled *lp;

	for (lp = s->local; lp < s->local + LOCAL; lp++) {
		if (!claim(&lp->st, SLOT_POLLED))
			continue;
		list = splice(list, lp->blocks);
		__atomic_store_n(&lp->st, SLOT_FREE, __ATOMIC_RELEASE);
	}
	return list;
}

/* A polled slot holds blocks (sequentially consistent: see hand_off()). */
static int has_polled(struct state *s)
{
	struct polled *lp;

	for (lp = s->local; lp < s->local + LOCAL; lp++)
		if (__atomic_load_n(&lp->st, __ATOMIC_SEQ_CST) == SLOT_POLLED)
			return 1;
	return 0;
}

static void last_done(struct state *s, int probe, unsigned long seen);
/* For the stall detector: the oldest batch whose grace period waits. */
static int oldest_wait(struct timespec *since);

/* A slot's grace period is over. */
static void slot_done(struct rcu_head *head)
{
	struct slot *sl = rculist__container_of(head, struct slot, rcu);
	struct state *s = sl->state;
	int queued = SLOT_QUEUED, probe = 0;
	unsigned long seen = 0, ran;
	unsigned long spill_at = __atomic_load_n(&spill, __ATOMIC_RELAXED);

	rculist__tsan_takeover(head);
	__atomic_add_fetch(&gps, 1, __ATOMIC_RELAXED);
	/*
	 * Until DONE the slot's blocks are this callback's.  A spilled
	 * batch (see SPILL) is freed here; of any other, the callbacks run
	 * here and the owner frees the rest.
	 */
	if (spill_at && sl->n >= spill_at &&
	    __atomic_load_n(&sl->st, __ATOMIC_ACQUIRE) == SLOT_QUEUED) {
		free_blocks(sl->blocks);
		__atomic_store_n(&sl->blocks, NULL, __ATOMIC_RELAXED);
		sl->n = 0;
		sl->has_calls = 0;
	}
	if (sl->has_calls &&
	    __atomic_load_n(&sl->st, __ATOMIC_ACQUIRE) == SLOT_QUEUED) {
		__atomic_store_n(&sl->blocks, run_calls(sl->blocks, &ran),
				 __ATOMIC_RELAXED);
		sl->n -= ran;
		sl->has_calls = 0;
	}
	if (!__atomic_compare_exchange_n(&sl->st, &queued, SLOT_DONE, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		/* The sweep slot: a batch nobody else frees, or a probe. */
		if (sl->blocks) {
			free_blocks(sl->blocks);
		} else {
			probe = 1;
			seen = sl->n;
		}
		__atomic_store_n(&sl->st, SLOT_FREE, __ATOMIC_RELEASE);
	}
	/*
	 * Decrement, then look at the open batch: an owner pushes, then
	 * looks at inflight; one of the two sees the other (all SEQ_CST).
	 */
	if (!__atomic_sub_fetch(&s->inflight, 1, __ATOMIC_SEQ_CST))
		last_done(s, probe, seen);
}

static int has_done(struct state *s)
{
	struct slot *sl;

	for (sl = s->slot; sl < s->slot + SLOTS; sl++)
		if (__atomic_load_n(&sl->st, __ATOMIC_RELAXED) == SLOT_DONE)
			return 1;
	return 0;
}

/*
 * Nothing of @s is in flight, but blocks may wait: in its open batch, or
 * in DONE slots that its owner frees at its next hand-off.  An owner
 * that goes on freeing does that within a grace period; so first a
 * probe (the sweep slot, empty) goes round one grace period, and if the
 * owner has made no hand-off meanwhile (@probe, owner_seq still @seen),
 * the sweep frees its DONE slots here and sends its open batch through
 * the sweep slot, to be freed by the callback.
 */
static void last_done(struct state *s, int probe, unsigned long seen)
{
	struct slot *sl = &s->slot[SLOTS];
	struct pending *list = NULL;
	int send = 0;

	rculist__call_rcu_enter();
	pthread_mutex_lock(&s->sweep_lock);
	if (__atomic_load_n(&s->inflight, __ATOMIC_SEQ_CST) ||
	    __atomic_load_n(&sl->st, __ATOMIC_ACQUIRE) != SLOT_FREE)
		goto unlock;
	__atomic_store_n(&s->sweeping, 1, __ATOMIC_SEQ_CST);
	if (probe && __atomic_load_n(&s->owner_seq, __ATOMIC_SEQ_CST) == seen) {
		claim_done(s);
		list = __atomic_exchange_n(&s->open, STOLEN, __ATOMIC_SEQ_CST);
		if (!real(list))
			list = NULL;
		list = take_polled(s, list);
		if (__atomic_load_n(&orphans, __ATOMIC_RELAXED))
			list = splice(list,
				      __atomic_exchange_n(&orphans, NULL,
							  __ATOMIC_ACQUIRE));
		/*
		 * Not counted: the owner may be inside a hand-off that frees
		 * a large batch (its window open since the probe was sent),
		 * and its open batch then holds a grace period's worth of
		 * blocks, cold; walking them here held up every callback
		 * queued behind this one.
		 */
		if (list) {
			sl->n = 0;
			send = 1;
		}
	} else if (real(__atomic_load_n(&s->open, __ATOMIC_SEQ_CST)) ||
		   has_done(s) || has_polled(s) ||
		   __atomic_load_n(&orphans, __ATOMIC_RELAXED)) {
		sl->n = __atomic_load_n(&s->owner_seq, __ATOMIC_SEQ_CST);
		send = 1;
	}
	if (send) {
		__atomic_store_n(&sl->blocks, list, __ATOMIC_RELAXED);
		/* The sweep slot's callback frees and runs them all. */
		sl->has_calls = 0;
		__atomic_store_n(&sl->since, rculist__now_ns(), __ATOMIC_RELAXED);
		__atomic_store_n(&sl->st, SLOT_ORPHAN, __ATOMIC_RELEASE);
		__atomic_add_fetch(&s->inflight, 1, __ATOMIC_SEQ_CST);
	} else {
		__atomic_store_n(&s->sweeping, 0, __ATOMIC_RELEASE);
	}
unlock:
	pthread_mutex_unlock(&s->sweep_lock);
	if (send) {
		rculist__tsan_handover(&sl->rcu);
		rculist__call_rcu_gated(&sl->rcu, slot_done);
		__atomic_store_n(&s->sweeping, 0, __ATOMIC_RELEASE);
	}
	rculist__call_rcu_leave();
	if (send)
		rculist__stall_watch_batches(oldest_wait);
}

/*
 * The owner: put the open batch, if it holds no callback, in a free
 * polled slot, with a cookie; the grace period is asked for once
 * REQUEST_AT slots wait (or all do), so that one serves several batches.
 * Returns non-zero if the batch went (or was empty).
 */
static int hand_off_polled(struct state *s)
{
	struct polled *lp, *use = NULL;
	struct pending *list;
	unsigned long n = __atomic_load_n(&local_slots, __ATOMIC_RELAXED);
	unsigned int waiting = 1;
	int st;

	if (HELPER_ONLY(s->calls))
		return 0;
	for (lp = s->local; lp < s->local + n && lp < s->local + LOCAL; lp++) {
		st = __atomic_load_n(&lp->st, __ATOMIC_RELAXED);
		waiting += st == SLOT_POLLED;
		if (st == SLOT_FREE && !use &&
		    __atomic_compare_exchange_n(&lp->st, &st, SLOT_FILLING, 0,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			use = lp;
	}
	if (!use) {
		/* Every polled slot waits: their grace period, at once. */
		if (n)
			rculist_start_poll_synchronize_rcu();
		return 0;
	}
	lp = use;
	list = __atomic_exchange_n(&s->open, NULL, __ATOMIC_SEQ_CST);
	__atomic_store_n(&s->count, 0, __ATOMIC_RELAXED);
	lp->has_calls = s->calls != 0;
	s->calls = 0;
	if (!real(list)) {
		__atomic_store_n(&lp->st, SLOT_FREE, __ATOMIC_RELEASE);
		return 1;
	}
	lp->blocks = list;
	lp->since = rculist__now_ns();
	/* Every block of the batch was queued before the cookie is taken. */
	lp->cookie = waiting >= REQUEST_AT ?
			     rculist_start_poll_synchronize_rcu().seq :
			     rculist_get_state_synchronize_rcu().seq;
	__atomic_store_n(&lp->st, SLOT_POLLED, __ATOMIC_SEQ_CST);
	s->npolled++;
	s->fills++;
	return 1;
}

/*
 * The owner: free its DONE batches and up to @budget polled ones whose
 * grace period has ended; then, if @local, put the open batch in a
 * polled slot, or else send it through a free slot; with none free,
 * leave it open (it goes with the next hand-off, or the sweep after the
 * last slot in flight completes).  Polled slots left with nothing in
 * flight get a probe: the store of POLLED, then the load of inflight; a
 * callback that leaves nothing in flight decrements, then looks for
 * polled slots (last_done()); one of the two sees the other.
 */
static void hand_off(struct state *s, unsigned long budget, int local)
{
	struct slot *sl, *use = NULL;
	struct pending *list;
	unsigned long n;
	uint64_t calls;
	int free_st, sent = 0;

	publish(s);
	rculist__call_rcu_enter();
	window_open(&s->owner_seq);
	claim_done(s);
	claim_polled(s, budget);
	if (local && hand_off_polled(s))
		goto out;
	for (sl = s->slot; sl < s->slot + SLOTS && !use; sl++) {
		free_st = SLOT_FREE;
		if (__atomic_load_n(&sl->st, __ATOMIC_RELAXED) == SLOT_FREE &&
		    __atomic_compare_exchange_n(&sl->st, &free_st, SLOT_FILLING,
						0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			use = sl;
	}
	if (!use)
		goto out;
	list = __atomic_exchange_n(&s->open, NULL, __ATOMIC_SEQ_CST);
	n = s->count;
	calls = s->calls;
	__atomic_store_n(&s->count, 0, __ATOMIC_RELAXED);
	s->calls = 0;
	if (!real(list)) {
		if (use)
			__atomic_store_n(&use->st, SLOT_FREE, __ATOMIC_RELEASE);
		goto out;
	}
	__atomic_store_n(&use->blocks, list, __ATOMIC_RELAXED);
	use->n = n;
	use->has_calls = calls != 0;
	__atomic_store_n(&use->since, rculist__now_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&use->st, SLOT_QUEUED, __ATOMIC_RELEASE);
	__atomic_add_fetch(&s->inflight, 1, __ATOMIC_SEQ_CST);
	rculist__tsan_handover(&use->rcu);
	rculist__call_rcu_gated(&use->rcu, slot_done);
	sent = 1;
out:
	window_close(&s->owner_seq);
	rculist__call_rcu_leave();
	if (sent)
		rculist__stall_watch_batches(oldest_wait);
	if (s->npolled && !__atomic_load_n(&s->inflight, __ATOMIC_SEQ_CST) &&
	    has_polled(s))
		last_done(s, 0, 0);
	maybe_trim();
}

/* Thread exit: send what the thread holds, give its state back. */
static void thread_exit(void *arg)
{
	struct state *s = arg;

	exiting = 1;
	/* Until its open batch is sent, or will be by a sweep. */
	for (;;) {
		hand_off(s, ~0UL, 0);
		if (!real(__atomic_load_n(&s->open, __ATOMIC_SEQ_CST)) ||
		    __atomic_load_n(&s->inflight, __ATOMIC_SEQ_CST))
			break;
		sched_yield();
	}
	pthread_mutex_lock(&registry_lock);
	s->owned = 0;
	pthread_mutex_unlock(&registry_lock);
	if (self == s)
		self = NULL;
	exiting = 0;
}

static void exit_key_create(void)
{
	/* Failure: exits leave their batches to sweeps and barriers. */
	(void)pthread_key_create(&exit_key, thread_exit);
}

static struct state *state_new(void)
{
	void *p;
	struct state *s;
	int i;

	/* Its own cache lines: calloc() would align it to 16 bytes only. */
	if (posix_memalign(&p, 64, sizeof(*s)))
		return NULL;
	s = memset(p, 0, sizeof(*s));
	pthread_mutex_init(&s->sweep_lock, NULL);
	for (i = 0; i <= SLOTS; i++)
		s->slot[i].state = s;
	return s;
}

/* The calling thread's first free: take a state that no thread owns. */
static struct state *adopt(void)
{
	struct state *s, *fresh = NULL;
	struct pending *list;

	pthread_once(&exit_key_once, exit_key_create);
	pthread_mutex_lock(&registry_lock);
	for (s = states; s && s->owned; s = s->next)
		;
	if (!s) {
		pthread_mutex_unlock(&registry_lock);
		fresh = state_new();
		if (!fresh)
			return NULL;
		pthread_mutex_lock(&registry_lock);
		fresh->next = states;
		__atomic_store_n(&states, fresh, __ATOMIC_RELEASE);
		s = fresh;
	} else {
		/* Blocks left by a thread that did not follow a fork(). */
		pthread_mutex_lock(&s->sweep_lock);
		list = __atomic_exchange_n(&s->open, NULL, __ATOMIC_SEQ_CST);
		if (!real(list))
			list = NULL;
		__atomic_store_n(&s->count, count_blocks(list, &s->calls),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&s->open, list, __ATOMIC_SEQ_CST);
		pthread_mutex_unlock(&s->sweep_lock);
	}
	s->owned = 1;
	pthread_mutex_unlock(&registry_lock);
	self = s;
	(void)pthread_setspecific(exit_key, s);
	return s;
}

/* No state (out of memory): the next sweep or barrier takes it. */
static void orphan(struct pending *p, uintptr_t kind)
{
	struct pending *old = __atomic_load_n(&orphans, __ATOMIC_RELAXED);

	__atomic_add_fetch(&orphan_queued, 1, __ATOMIC_RELAXED);
	publish_n(1);
	do
		p->link = (uintptr_t)old | kind;
	while (!__atomic_compare_exchange_n(&orphans, &old, p, 1,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

/*
 * Back-pressure: wait for grace periods while what waits is at the
 * limit.  Only where waiting is safe: outside the caller's read-side
 * critical section (under qsbr: offline or unregistered), outside
 * callbacks, outside the fork gate, holding no rculist lock.
 */
static void throttle(struct state *s)
{
	unsigned long lim = __atomic_load_n(&cold.limit, __ATOMIC_RELAXED);
	unsigned long before;

	if (!lim || pending_pub() < lim || reclaiming ||
	    !rculist__flavor_may_block())
		return;
	__atomic_add_fetch(&throttled, 1, __ATOMIC_RELAXED);
	for (;;) {
		hand_off(s, ~0UL, 1); /* frees what it can, sends the open batch */
		if (pending_pub() < lim)
			break;
		before = __atomic_load_n(&hot.completed, __ATOMIC_RELAXED);
		rculist_synchronize_rcu();
		hand_off(s, ~0UL, 1);
		if (pending_pub() < lim)
			break;
		/* Callbacks run in call_rcu's thread: give it time. */
		if (__atomic_load_n(&hot.completed, __ATOMIC_RELAXED) == before)
			usleep(1000);
	}
}

/*
 * After a push that left @n blocks open: publish and throttle every RETRY
 * blocks, hand off a full batch (while every slot is busy, try again
 * every RETRY blocks) or, at once, when nothing of @s is in flight.  Out
 * of line, so that enqueue()'s push saves no registers.
 */
static __attribute__((noinline)) void after_push(struct state *s, unsigned long n)
{
	if (s->queued - s->published >= RETRY) {
		publish(s);
		throttle(s);
	}
	if ((n >= BATCH && !(n % RETRY)) ||
	    !__atomic_load_n(&s->inflight, __ATOMIC_SEQ_CST))
		hand_off(s, FREE_BUDGET, 1);
}

/* The calling thread's first block, or one with no state (no memory). */
static __attribute__((noinline)) void enqueue_first(struct pending *p,
						    uintptr_t kind);

/* Queue @p (a free_rcu block, or a callback if @kind is CALL). */
static inline void enqueue(struct pending *p, uintptr_t kind)
{
	struct pending *old;
	struct state *s = self;
	unsigned long n;

	if (__builtin_expect(!s, 0)) {
		enqueue_first(p, kind);
		return;
	}
	old = __atomic_load_n(&s->open, __ATOMIC_RELAXED);
	do
		p->link = (old == STOLEN ? 0 : (uintptr_t)old) | kind;
	while (!__atomic_compare_exchange_n(&s->open, &old, p, 1,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	n = old == STOLEN ? 1 : s->count + 1;
	__atomic_store_n(&s->count, n, __ATOMIC_RELAXED);
	s->calls = (old == STOLEN ? 0 : s->calls) + call_weight(kind);
	__atomic_store_n(&s->queued, s->queued + 1, __ATOMIC_RELAXED);
	/* The push, then the load of inflight: see slot_done(). */
	if (s->queued - s->published >= RETRY || (n >= BATCH && !(n % RETRY)) ||
	    !__atomic_load_n(&s->inflight, __ATOMIC_SEQ_CST))
		after_push(s, n);
}

static void enqueue_first(struct pending *p, uintptr_t kind)
{
	if (!adopt())
		orphan(p, kind);
	else
		enqueue(p, kind);
}

void rculist__free_rcu(struct rcu_head *head, size_t offset)
{
	struct pending *p = (struct pending *)(void *)head;

	p->u.offset = offset;
	enqueue(p, 0);
}

/* Queue @head's callback @func, of @kind (CALL, or CALL | HERE). */
static inline void enqueue_call(struct rcu_head *head,
				void (*func)(struct rcu_head *head),
				uintptr_t kind)
{
	struct pending *p = (struct pending *)(void *)head;

	p->u.func = func;
	enqueue(p, kind);
}

void rculist_call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	enqueue_call(head, func, CALL);
}

void rculist__retire_rcu(struct rcu_head *head,
			 void (*func)(struct rcu_head *head))
{
	enqueue_call(head, func, CALL | HERE);
}

void rculist_rcu_barrier(void)
{
	struct state *me = self, *all, *s;
	struct pending *taken = NULL;

	/* Before liburcu's barrier, which returns at once inside a section. */
	rculist__check_not_reading("rculist_rcu_barrier");
	/* The barrier's own window covers the blocks it takes. */
	while (!me && !(me = adopt()))
		usleep(1000);
	window_open(&me->owner_seq);
	pthread_mutex_lock(&registry_lock);
	for (s = states; s; s = s->next)
		taken = splice(taken, __atomic_exchange_n(&s->open, STOLEN,
							  __ATOMIC_SEQ_CST));
	taken = splice(taken,
		       __atomic_exchange_n(&orphans, NULL, __ATOMIC_ACQUIRE));
	all = states;
	pthread_mutex_unlock(&registry_lock);
	if (taken) {
		rculist_synchronize_rcu();
		free_blocks(taken);
	}
	window_close(&me->owner_seq);
	publish(me);

	/* Hand-offs that took a batch before we did have queued it ... */
	for (s = all; s; s = s->next)
		wait_quiet(s);
	/* ... or put it in a polled slot, where it waits with the others. */
	window_open(&me->owner_seq);
	for (taken = NULL, s = all; s; s = s->next) {
		/* After a sweeper's take, or before it: see wait_sweep(). */
		pthread_mutex_lock(&s->sweep_lock);
		taken = take_polled(s, taken);
		pthread_mutex_unlock(&s->sweep_lock);
	}
	if (taken) {
		rculist_synchronize_rcu();
		free_blocks(taken);
	}
	window_close(&me->owner_seq);
	/* Sweeps that took polled slots first: queued before our barrier. */
	for (s = all; s; s = s->next)
		wait_sweep(s);
	/* Every slot queued before is now DONE, or freed by its callback. */
	rculist__flavor_barrier();
	window_open(&me->owner_seq);
	for (s = all; s; s = s->next)
		claim_done(s);
	window_close(&me->owner_seq);
	/* DONE slots that their owner or a sweeper claimed first. */
	for (s = all; s; s = s->next)
		wait_quiet(s);
	rculist__tsan_barrier_ended();
	maybe_trim();
}

/* Blocks ever queued, summed over the states (their owners' counts). */
static unsigned long queued_total(void)
{
	struct state *s;
	unsigned long q = __atomic_load_n(&orphan_queued, __ATOMIC_RELAXED);

	for (s = __atomic_load_n(&states, __ATOMIC_ACQUIRE); s; s = s->next)
		q += __atomic_load_n(&s->queued, __ATOMIC_RELAXED);
	return q;
}

static unsigned long pending_exact(unsigned long *done)
{
	unsigned long q = queued_total();

	*done = __atomic_load_n(&hot.completed, __ATOMIC_ACQUIRE);
	return q > *done ? q - *done : 0;
}

/*
 * The oldest batch handed to call_rcu and not yet freed: @in_flight
 * non-zero for those whose grace period has not ended (the stall
 * detector's), zero for every batch with blocks still to free.  A racy
 * snapshot.  Returns 0 if there is none.  Takes no lock.
 */
static uint64_t oldest_since(int in_flight)
{
	struct state *s;
	struct slot *sl;
	struct polled *lp;
	uint64_t t, best = 0;
	int st;

	for (s = __atomic_load_n(&states, __ATOMIC_ACQUIRE); s; s = s->next) {
		for (sl = s->slot; sl <= s->slot + SLOTS; sl++) {
			st = __atomic_load_n(&sl->st, __ATOMIC_ACQUIRE);
			if (in_flight && st != SLOT_QUEUED && st != SLOT_ORPHAN)
				continue;
			if (!in_flight &&
			    (st == SLOT_FREE || st == SLOT_FILLING ||
			     !__atomic_load_n(&sl->blocks, __ATOMIC_RELAXED)))
				continue;
			t = __atomic_load_n(&sl->since, __ATOMIC_RELAXED);
			if (t && (!best || t < best))
				best = t;
		}
		for (lp = s->local; lp < s->local + LOCAL && !in_flight; lp++) {
			if (__atomic_load_n(&lp->st, __ATOMIC_ACQUIRE) !=
			    SLOT_POLLED)
				continue;
			t = __atomic_load_n(&lp->since, __ATOMIC_RELAXED);
			if (t && (!best || t < best))
				best = t;
		}
	}
	return best;
}

static int oldest_wait(struct timespec *since)
{
	uint64_t t = oldest_since(1);

	if (!t)
		return 0;
	since->tv_sec = (time_t)(t / 1000000000u);
	since->tv_nsec = (long)(t % 1000000000u);
	return 1;
}

void rculist_reclaim_get_stats(struct rculist_reclaim_stats *st)
{
	unsigned long done;
	uint64_t oldest, now;

	memset(st, 0, sizeof(*st));
	st->pending = pending_exact(&done);
	raise_to(&cold.peak, st->pending);
	st->peak = __atomic_load_n(&cold.peak, __ATOMIC_RELAXED);
	st->freed = done;
	st->throttled = __atomic_load_n(&throttled, __ATOMIC_RELAXED);
	st->grace_periods =
		__atomic_load_n(&gps, __ATOMIC_RELAXED) + rculist__gp_count();
	st->limit = __atomic_load_n(&cold.limit, __ATOMIC_RELAXED);
	oldest = st->pending ? oldest_since(0) : 0;
	now = rculist__now_ns();
	st->oldest_ms = oldest && now > oldest ? (now - oldest) / 1000000u : 0;
}

unsigned long rculist__reclaim_set_spill(unsigned long blocks)
{
	return __atomic_exchange_n(&spill, blocks, __ATOMIC_RELAXED);
}

unsigned long rculist__reclaim_set_local(unsigned long slots)
{
	return __atomic_exchange_n(&local_slots, slots < LOCAL ? slots : LOCAL,
				   __ATOMIC_RELAXED);
}

void rculist_reclaim_set_limit(unsigned long blocks)
{
	__atomic_store_n(&cold.limit, blocks, __ATOMIC_RELAXED);
}

void rculist__reclaim_get_stats(struct rculist__reclaim_stats *st, int reset_peak)
{
	unsigned long done;

	st->batch = BATCH;
	st->slots = SLOTS;
	st->handed = pending_pub();
	st->waiting = pending_exact(&done);
	st->freed = done;
	st->polled = __atomic_load_n(&polled_freed, __ATOMIC_RELAXED);
	raise_to(&cold.peak, st->waiting);
	st->handed_peak = reset_peak ?
				  __atomic_exchange_n(&cold.peak, st->waiting,
						      __ATOMIC_RELAXED) :
				  __atomic_load_n(&cold.peak, __ATOMIC_RELAXED);
}

/*
 * fork(): registry_lock is held across it (after the flavour's locks:
 * call_rcu's threads are paused then, so no callback or sweep of theirs
 * is half done; and after core/fork.c's call_rcu gate has emptied, so no
 * hand-off or sweep of another thread is either: each runs inside the
 * gate from the slot it takes to the call_rcu() that queues it).  In the
 * child the states of the threads that did not follow are given up:
 * windows closed, slots no hand-off will finish freed, inflight
 * recounted from the slots whose callbacks liburcu moved to the child's
 * call_rcu thread.  Blocks that another thread's rculist_rcu_barrier()
 * had taken are lost in the child, as is that thread's memory.
 */
static void reclaim_before_fork(void)
{
	pthread_mutex_lock(&registry_lock);
	fork_pid = getpid();
}

static void reclaim_fork_child(void)
{
	struct state *s;
	struct slot *sl;
	struct polled *lp;

	for (s = states; s; s = s->next) {
		if (s != self)
			s->owned = 0;
		s->owner_seq += s->owner_seq & 1;
		s->sweeping = 0;
		pthread_mutex_init(&s->sweep_lock, NULL);
		s->inflight = 0;
		for (sl = s->slot; sl <= s->slot + SLOTS; sl++) {
			if (sl->st == SLOT_FILLING || sl->st == SLOT_CLAIMED)
				sl->st = SLOT_FREE;
			else if (sl->st == SLOT_QUEUED || sl->st == SLOT_ORPHAN)
				s->inflight++;
		}
		for (lp = s->local; lp < s->local + LOCAL; lp++)
			if (lp->st != SLOT_POLLED)
				lp->st = SLOT_FREE;
	}
}

static void reclaim_after_fork(void)
{
	if (getpid() != fork_pid)
		reclaim_fork_child();
	pthread_mutex_unlock(&registry_lock);
}

__attribute__((constructor)) static void reclaim_fork_register(void)
{
	static const struct rculist__fork_hooks hooks = { reclaim_before_fork,
							  reclaim_after_fork,
							  reclaim_after_fork };

	rculist__fork_register(RCULIST__FORK_RECLAIM, &hooks);
}
