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
 * A slot's callback, after its grace period, only marks it DONE; the
 * owner frees the DONE batches itself at its next hand-off, in the thread
 * that allocated them (glibc's per-thread caches make that several times
 * faster than freeing in call_rcu's worker, and it scales with updaters).
 * The callback that leaves a state with nothing in flight, while blocks
 * still wait there, sends a probe round one more grace period (through
 * the state's sweep slot); if the owner has not handed off meanwhile,
 * it is idle (or gone), and the probe's callback sweeps the state: it
 * frees the DONE batches and sends the open batch through the sweep
 * slot, to be freed by the callback.  The owner hands its open batch off when it holds BATCH
 * blocks, or at once when nothing of its own is in flight.  Together:
 * no block waits for ever, whether its thread goes on, idles or exits.
 *
 * Never blocks: like call_rcu(), rculist_free_rcu() is callable inside
 * read-side critical sections and never waits for a grace period.  A
 * thread has at most SLOTS + 1 batches in flight; while all its slots
 * are busy its open batch grows (it is tried again every RETRY blocks),
 * so what waits is bounded by the rate of frees times the time a grace
 * period and its callback take, as for call_rcu() (make bench-reclaim
 * reports the peak).
 *
 * rculist_rcu_barrier() takes every open batch, waits for hand-offs in
 * progress (each is a window: owner_seq odd, or sweeping set), runs the
 * flavour's barrier (every slot queued before is then DONE or freed),
 * frees the DONE slots, and waits for frees in progress.
 *
 * Locks: registry_lock (the list of states, their owned flags, the
 * barrier's taking of open batches), then a state's sweep_lock (one
 * sweeper at a time, and adopt()).  Neither is ever held across a call
 * into liburcu (call_rcu, synchronize_rcu, barrier) or into malloc.
 * The fork() handlers take registry_lock after the flavour's own locks
 * (call_rcu_mutex and bp's) and the call_rcu gate, see core/fork.c; a
 * hand-off or sweep enters the gate holding neither lock.
 *
 * Not async-signal-safe: the first call in a thread allocates its state,
 * and hand-offs call call_rcu() and free().
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <rculist.h>

#include "internal.h"

#define BATCH RCULIST__RECLAIM_BATCH
#define SLOTS RCULIST__RECLAIM_SLOTS
#define RETRY (BATCH / 8)

/* A queued block's rcu_head, reused while the block waits. */
struct pending {
	struct pending *next;
	size_t offset;
};

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
};

struct state;

struct slot {
	struct rcu_head rcu;
	struct state *state;
	struct pending *blocks;
	unsigned long n;
	int st; /* enum slot_state */
};

struct state {
	/* The owner's, read by stealers. */
	struct pending *open;	 /* pushed by CAS, taken by exchange */
	unsigned long count;	 /* blocks in open, as the owner knows */
	unsigned long owner_seq; /* odd while the owner hands off */
	/* Written by others. */
	unsigned long inflight; /* slots on call_rcu, not yet called back */
	int sweeping;		/* a sweeper between taking and sending */
	int owned;		/* registry_lock */
	pthread_mutex_t sweep_lock;
	struct state *next;	     /* registry: never unlinked */
	struct slot slot[SLOTS + 1]; /* the last one is the sweeper's */
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct state *states;	/* registry_lock; nodes never change next */
static struct pending *orphans; /* blocks of a thread with no state */
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static pid_t fork_pid;

/* The library is built with -ftls-model=initial-exec: one mov. */
static __thread struct state *self;

/* Statistics for the tests and benchmarks (rculist__reclaim_stats). */
static unsigned long handed;	  /* handed off, not yet freed */
static unsigned long handed_peak; /* most of handed at once */
static unsigned long freed;	  /* blocks freed, ever */

static int real(const struct pending *list)
{
	return list && list != STOLEN;
}

static unsigned long count_blocks(const struct pending *p)
{
	unsigned long n = 0;

	for (; p; p = p->next)
		n++;
	return n;
}

static void free_blocks(struct pending *p)
{
	struct pending *next;
	unsigned long n = 0;
	size_t offset;

	if (RCULIST__UNLIKELY(rculist__tsan_present()))
		for (next = p; next; next = next->next)
			rculist__tsan_before_free(next);
	for (; p; p = next, n++) {
		next = p->next;
		offset = p->offset;
		free((char *)p - offset);
	}
	__atomic_add_fetch(&freed, n, __ATOMIC_RELEASE);
}

static void handed_add(unsigned long n)
{
	unsigned long now = __atomic_add_fetch(&handed, n, __ATOMIC_RELAXED);
	unsigned long peak = __atomic_load_n(&handed_peak, __ATOMIC_RELAXED);

	while (now > peak &&
	       !__atomic_compare_exchange_n(&handed_peak, &peak, now, 1,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static void handed_sub(unsigned long n)
{
	__atomic_sub_fetch(&handed, n, __ATOMIC_RELAXED);
}

/* An owner's window: odd while open.  Only the owner writes it. */
static void window_open(unsigned long *seq)
{
	__atomic_add_fetch(seq, 1, __ATOMIC_SEQ_CST);
}

static void window_close(unsigned long *seq)
{
	__atomic_add_fetch(seq, 1, __ATOMIC_RELEASE);
}

/* Wait until @s has no hand-off, sweep or free in progress. */
static void wait_quiet(struct state *s)
{
	unsigned long seq = __atomic_load_n(&s->owner_seq, __ATOMIC_ACQUIRE);

	if (seq & 1)
		while (__atomic_load_n(&s->owner_seq, __ATOMIC_ACQUIRE) == seq)
			sched_yield();
	while (__atomic_load_n(&s->sweeping, __ATOMIC_ACQUIRE))
		sched_yield();
}

/* Free @s's DONE slots; inside a window of the caller's. */
static void claim_done(struct state *s)
{
	struct slot *sl;
	int done;

	for (sl = s->slot; sl < s->slot + SLOTS; sl++) {
		done = SLOT_DONE;
		if (__atomic_load_n(&sl->st, __ATOMIC_RELAXED) != SLOT_DONE ||
		    !__atomic_compare_exchange_n(&sl->st, &done, SLOT_CLAIMED,
						 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_RELAXED))
			continue;
		free_blocks(sl->blocks);
		handed_sub(sl->n);
		__atomic_store_n(&sl->st, SLOT_FREE, __ATOMIC_RELEASE);
	}
}

/* Append @list to *@to: returns the new head. */
static struct pending *splice(struct pending *to, struct pending *list)
{
	struct pending *tail;

	if (!real(list))
		return to;
	for (tail = list; tail->next; tail = tail->next)
		;
	tail->next = to;
	return list;
}

static void last_done(struct state *s, int probe, unsigned long seen);

/* A slot's grace period is over. */
static void slot_done(struct rcu_head *head)
{
	struct slot *sl = rculist__container_of(head, struct slot, rcu);
	struct state *s = sl->state;
	int queued = SLOT_QUEUED, probe = 0;
	unsigned long seen = 0;

	rculist__tsan_takeover(head);
	if (!__atomic_compare_exchange_n(&sl->st, &queued, SLOT_DONE, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		/* The sweep slot: a batch nobody else frees, or a probe. */
		if (sl->blocks) {
			free_blocks(sl->blocks);
			handed_sub(sl->n);
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
		if (__atomic_load_n(&orphans, __ATOMIC_RELAXED))
			list = splice(list,
				      __atomic_exchange_n(&orphans, NULL,
							  __ATOMIC_ACQUIRE));
		if (list) {
			sl->n = count_blocks(list);
			handed_add(sl->n);
			send = 1;
		}
	} else if (real(__atomic_load_n(&s->open, __ATOMIC_SEQ_CST)) ||
		   has_done(s) || __atomic_load_n(&orphans, __ATOMIC_RELAXED)) {
		sl->n = __atomic_load_n(&s->owner_seq, __ATOMIC_SEQ_CST);
		send = 1;
	}
	if (send) {
		sl->blocks = list;
		__atomic_store_n(&sl->st, SLOT_ORPHAN, __ATOMIC_RELAXED);
		__atomic_add_fetch(&s->inflight, 1, __ATOMIC_SEQ_CST);
	} else {
		__atomic_store_n(&s->sweeping, 0, __ATOMIC_RELEASE);
	}
unlock:
	pthread_mutex_unlock(&s->sweep_lock);
	if (send) {
		rculist__tsan_handover(&sl->rcu);
		rculist_call_rcu(&sl->rcu, slot_done);
		__atomic_store_n(&s->sweeping, 0, __ATOMIC_RELEASE);
	}
	rculist__call_rcu_leave();
}

/*
 * The owner: free its DONE batches and send the open one through a free
 * slot; with none free, leave it open (it goes with the next hand-off,
 * or the sweep after the last slot in flight completes).
 */
static void hand_off(struct state *s)
{
	struct slot *sl, *use = NULL;
	struct pending *list;
	unsigned long n;
	int free_st;

	rculist__call_rcu_enter();
	window_open(&s->owner_seq);
	claim_done(s);
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
	__atomic_store_n(&s->count, 0, __ATOMIC_RELAXED);
	if (!real(list)) {
		if (use)
			__atomic_store_n(&use->st, SLOT_FREE, __ATOMIC_RELEASE);
		goto out;
	}
	handed_add(n);
	use->blocks = list;
	use->n = n;
	__atomic_store_n(&use->st, SLOT_QUEUED, __ATOMIC_RELAXED);
	__atomic_add_fetch(&s->inflight, 1, __ATOMIC_SEQ_CST);
	rculist__tsan_handover(&use->rcu);
	rculist_call_rcu(&use->rcu, slot_done);
out:
	window_close(&s->owner_seq);
	rculist__call_rcu_leave();
}

/* Thread exit: send what the thread holds, give its state back. */
static void thread_exit(void *arg)
{
	struct state *s = arg;

	/* Until its open batch is sent, or will be by a sweep. */
	for (;;) {
		hand_off(s);
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
}

static void exit_key_create(void)
{
	/* Failure: exits leave their batches to sweeps and barriers. */
	(void)pthread_key_create(&exit_key, thread_exit);
}

static struct state *state_new(void)
{
	struct state *s = calloc(1, sizeof(*s));
	int i;

	if (!s)
		return NULL;
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
		states = fresh;
		s = fresh;
	} else {
		/* Blocks left by a thread that did not follow a fork(). */
		pthread_mutex_lock(&s->sweep_lock);
		list = __atomic_exchange_n(&s->open, NULL, __ATOMIC_SEQ_CST);
		if (!real(list))
			list = NULL;
		__atomic_store_n(&s->count, count_blocks(list), __ATOMIC_RELAXED);
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
static void orphan(struct pending *p)
{
	struct pending *old = __atomic_load_n(&orphans, __ATOMIC_RELAXED);

	do
		p->next = old;
	while (!__atomic_compare_exchange_n(&orphans, &old, p, 1,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

void rculist__free_rcu(struct rcu_head *head, size_t offset)
{
	struct pending *p = (struct pending *)(void *)head, *old;
	struct state *s = self;
	unsigned long n;

	p->offset = offset;
	if (__builtin_expect(!s, 0)) {
		s = adopt();
		if (!s) {
			orphan(p);
			return;
		}
	}
	old = __atomic_load_n(&s->open, __ATOMIC_RELAXED);
	do
		p->next = old == STOLEN ? NULL : old;
	while (!__atomic_compare_exchange_n(&s->open, &old, p, 1,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	n = old == STOLEN ? 1 : s->count + 1;
	__atomic_store_n(&s->count, n, __ATOMIC_RELAXED);
	/* Full (while every slot is busy, try again every RETRY blocks). */
	if ((n >= BATCH && !(n % RETRY)) ||
	    !__atomic_load_n(&s->inflight, __ATOMIC_SEQ_CST))
		hand_off(s);
}

void rculist_rcu_barrier(void)
{
	struct state *me = self, *all, *s;
	struct pending *taken = NULL;

	if (rculist__check_not_reading("rculist_rcu_barrier"))
		return;
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

	/* Hand-offs that took a batch before we did have queued it. */
	for (s = all; s; s = s->next)
		wait_quiet(s);
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
}

void rculist__reclaim_get_stats(struct rculist__reclaim_stats *st, int reset_peak)
{
	struct state *s;
	unsigned long open = 0;

	pthread_mutex_lock(&registry_lock);
	for (s = states; s; s = s->next)
		open += __atomic_load_n(&s->count, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&registry_lock);
	st->batch = BATCH;
	st->slots = SLOTS;
	st->handed = __atomic_load_n(&handed, __ATOMIC_RELAXED);
	st->waiting = st->handed + open;
	st->freed = __atomic_load_n(&freed, __ATOMIC_ACQUIRE);
	st->handed_peak =
		reset_peak ? __atomic_exchange_n(&handed_peak, st->handed,
						 __ATOMIC_RELAXED) :
			     __atomic_load_n(&handed_peak, __ATOMIC_RELAXED);
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
void rculist__reclaim_before_fork(void)
{
	pthread_mutex_lock(&registry_lock);
	fork_pid = getpid();
}

static void reclaim_fork_child(void)
{
	struct state *s;
	struct slot *sl;

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
	}
}

void rculist__reclaim_after_fork(void)
{
	if (getpid() != fork_pid)
		reclaim_fork_child();
	pthread_mutex_unlock(&registry_lock);
}
