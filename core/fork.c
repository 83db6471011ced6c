// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/fork.c - fork() without exec() in a program using rculist.
 *
 * Installed once, when the library is loaded, so that users need not
 * (each module's hooks registered in its slot of the table below, from
 * a constructor of its own: this file knows no module above it):
 *  - every flavour: liburcu's call_rcu fork hooks.  Before the fork the
 *    call_rcu helper threads are paused (and leave the reader registry);
 *    in the child, where they do not exist, a new helper thread takes
 *    over the queued callbacks, so rculist_call_rcu(), rculist_free_rcu()
 *    and rculist_rcu_barrier() keep working there.
 *  - bp: urcu_bp_before_fork() and its pair, which hold bp's grace-period
 *    and registry locks across the fork and prune the child's registry of
 *    the threads that did not follow it (without them, the child's grace
 *    periods hang with every signal blocked).
 *  - rculist_free_rcu()'s lock (core/reclaim.c), taken once the call_rcu
 *    threads are paused, so that no batch callback holds it.
 *  - the stall detector (core/stall.c): its lock, and its watchdog thread,
 *    which the child starts afresh.
 *  - polled grace periods (core/poll.c): the fork waits until rculist's
 *    grace-period thread is between grace periods (a child must not
 *    inherit liburcu's grace-period lock from a thread it does not
 *    have); the child starts a thread of its own if a cookie waits.
 *
 * memb and qsbr keep the threads that did not follow the child in their
 * registries: a fork() while another thread is inside a read-side
 * critical section (qsbr: online and not quiescent) leaves the child's
 * grace periods waiting for ever.  Fork from a thread when no other
 * thread is reading, or exec() in the child; the stall detector names
 * the thread a child waits for.
 *
 * Lock order, one for the whole library: core/poll.c's gp_lock (its
 * grace-period thread holds it across rculist_synchronize_rcu(), the one
 * rculist lock held across a call into liburcu, so it comes before
 * liburcu's), then liburcu's (call_rcu_mutex,
 * taken by call_rcu_before_fork() while it pauses the call_rcu threads;
 * then bp's grace-period and registry locks), then the call_rcu gate
 * (below), then core/reclaim.c's registry_lock, then core/stall.c's
 * lock.  The handlers take them in that order before the fork and
 * release them in reverse after it.
 * Nothing else in rculist holds one of its own locks across a call into
 * liburcu (call_rcu, synchronize_rcu, barrier, register): reclaim.c
 * hands batches to call_rcu with no lock held, stall.c waits outside
 * its lock, so no thread can hold an rculist lock while waiting for
 * call_rcu_mutex (tests/unit/fork.c races fork() against the first
 * rculist_free_rcu() calls, whose call_rcu takes call_rcu_mutex).
 *
 * Installing liburcu's call_rcu hooks with pthread_atfork() while
 * callbacks call free() (liburcu's README warns): glibc 2.36 runs the
 * atfork prepare handlers before it takes malloc's arena locks, and
 * call_rcu_before_fork() waits until every call_rcu thread is paused
 * between callbacks, so no callback is inside free() across the fork;
 * tests/unit/fork.c forks 1000 times per flavour while callbacks free.
 *
 * The call_rcu gate.  liburcu's call_rcu() links a callback into its
 * queue with two stores (swap the queue's tail, then link the old tail
 * to the new one).  A fork() between the two, in another thread, leaves
 * the child a queue whose last link never comes: the child's call_rcu
 * thread waits for it for ever, and so does every rcu_barrier() there
 * (1.7% of forks, while two threads called call_rcu(), before the gate).
 * So every rculist call into call_rcu() (the hand-offs of the batches of
 * rculist_free_rcu() and rculist_call_rcu(), from the slot they take to
 * the call_rcu() that queues it, and core/poll.c's callback; all through
 * rculist__call_rcu_gated()) goes through the gate, and the prepare
 * handler closes it, once liburcu's call_rcu threads are paused, and
 * waits until no thread is inside.
 *
 * Entering is one atomic increment of a counter of the thread's own
 * (GATE_SHARDS of them, a cache line each) and one load of gate_closed;
 * the fork stores gate_closed, then reads every counter.  Both sides are
 * sequentially consistent, so either the thread sees the gate closed
 * (and steps back out to wait) or the fork sees the thread inside (and
 * waits for it).  Nothing inside may wait for the forking thread, which
 * holds liburcu's call_rcu_mutex (and bp's locks) as it waits: before
 * each entry, outside the gate, rculist__flavor_call_rcu_ready() does
 * what call_rcu() would otherwise do under those locks (create the
 * default call_rcu thread; bp: register the thread).
 *
 * rculist's gate covers rculist's calls only: a thread that calls
 * liburcu's call_rcu() directly during a fork() can still leave the
 * child that half-linked queue.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include <rculist.h>

#include "internal.h"

/* The modules' hooks, each in its slot (set once, by its constructor). */
static const struct rculist__fork_hooks *table[RCULIST__FORK_SLOTS];

void rculist__fork_register(enum rculist__fork_slot slot,
			    const struct rculist__fork_hooks *hooks)
{
	__atomic_store_n(&table[slot], hooks, __ATOMIC_RELEASE);
}

/* Each registered hook of slots [@from, @to), in order or in reverse. */
#define HOOK_PREPARE 0
#define HOOK_PARENT  1
#define HOOK_CHILD   2
static void run(int which, unsigned int from, unsigned int to, int reverse)
{
	const struct rculist__fork_hooks *h;
	unsigned int i, k;

	for (k = from; k < to; k++) {
		i = reverse ? to - 1 - (k - from) : k;
		h = __atomic_load_n(&table[i], __ATOMIC_ACQUIRE);
		if (!h)
			continue;
		if (which == HOOK_PREPARE)
			h->prepare();
		else if (which == HOOK_PARENT)
			h->parent();
		else
			h->child();
	}
}

#define GATE_SHARDS 64

static struct gate_shard {
	unsigned long inside;
} __attribute__((aligned(64))) gate[GATE_SHARDS];
static int gate_closed;
static unsigned int gate_shards_given;

/* The calling thread's shard (1 + index, 0 before its first entry). */
static __thread unsigned int gate_shard;
/* Its nesting (rculist_call_rcu() inside a hand-off), and whether it forks. */
static __thread unsigned int gate_depth;
static __thread int gate_forking;

void rculist__call_rcu_enter(void)
{
	struct gate_shard *g;

	if (gate_depth++)
		return;
	rculist__flavor_call_rcu_ready();
	if (__builtin_expect(!gate_shard, 0))
		gate_shard = 1 + __atomic_fetch_add(&gate_shards_given, 1,
						    __ATOMIC_RELAXED) %
					 GATE_SHARDS;
	g = &gate[gate_shard - 1];
	for (;;) {
		__atomic_add_fetch(&g->inside, 1, __ATOMIC_SEQ_CST);
		/* The forking thread's own calls (a signal handler) pass. */
		if (!__atomic_load_n(&gate_closed, __ATOMIC_SEQ_CST) ||
		    gate_forking)
			return;
		__atomic_sub_fetch(&g->inside, 1, __ATOMIC_RELEASE);
		while (__atomic_load_n(&gate_closed, __ATOMIC_ACQUIRE))
			sched_yield();
	}
}

void rculist__call_rcu_leave(void)
{
	if (--gate_depth)
		return;
	__atomic_sub_fetch(&gate[gate_shard - 1].inside, 1, __ATOMIC_RELEASE);
}

/* Wait until no thread but the caller is inside the gate. */
static void gate_close(void)
{
	unsigned int i, own = gate_depth ? gate_shard - 1 : GATE_SHARDS;

	gate_forking = 1;
	__atomic_store_n(&gate_closed, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < GATE_SHARDS; i++)
		while (__atomic_load_n(&gate[i].inside, __ATOMIC_SEQ_CST) !=
		       (i == own))
			sched_yield();
}

static void gate_open(void)
{
	__atomic_store_n(&gate_closed, 0, __ATOMIC_RELEASE);
	gate_forking = 0;
}

/* The child: threads that stepped back out in the parent are not here. */
static void gate_open_child(void)
{
	unsigned int i;

	for (i = 0; i < GATE_SHARDS; i++)
		gate[i].inside = 0;
	if (gate_depth)
		gate[gate_shard - 1].inside = 1;
	gate_open();
}

void rculist__call_rcu_gated(struct rcu_head *head,
			     void (*func)(struct rcu_head *head))
{
	rculist__call_rcu_enter();
	rculist__flavor_call_rcu(head, func);
	rculist__call_rcu_leave();
}

/*
 * liburcu's fork hooks run once per fork() however many copies of this
 * flavour's rculist the process holds (core/pin.c): each copy asks the
 * shared library's rculist__fork_liburcu() when another copy is that
 * library, its own otherwise.  The first ask of a fork pauses liburcu's
 * call_rcu threads (and takes bp's locks) before any copy takes a lock of
 * its own; the first after-fork call resumes them.  Whose this fork uses
 * is chosen before it.
 */
static void (*liburcu_owner)(int phase);

static void liburcu_prepare(void)
{
	char soname[64];
	void *other;

	snprintf(soname, sizeof(soname), "librculist-%s.so.%d",
		 rculist_flavor_name(), RCULIST_VERSION_MAJOR);
	other = rculist__other_copy(soname, "rculist__fork_liburcu");
	liburcu_owner = rculist__fork_liburcu;
	if (other)
		memcpy(&liburcu_owner, &other, sizeof(other));
	liburcu_owner(RCULIST__FORK_PREPARE);
}

#define AFTER_GATE RCULIST__FORK_RECLAIM

static void before_fork(void)
{
	run(HOOK_PREPARE, 0, AFTER_GATE, 0);
	liburcu_prepare();
	gate_close();
	run(HOOK_PREPARE, AFTER_GATE, RCULIST__FORK_SLOTS, 0);
}

static void after_fork_parent(void)
{
	run(HOOK_PARENT, AFTER_GATE, RCULIST__FORK_SLOTS, 1);
	gate_open();
	liburcu_owner(RCULIST__FORK_PARENT);
	run(HOOK_PARENT, 0, AFTER_GATE, 1);
}

static void after_fork_child(void)
{
	run(HOOK_CHILD, AFTER_GATE, RCULIST__FORK_SLOTS, 1);
	gate_open_child();
	liburcu_owner(RCULIST__FORK_CHILD);
	run(HOOK_CHILD, 0, AFTER_GATE, 1);
}

__attribute__((constructor)) void rculist__fork_init(void)
{
	/* Failure (ENOMEM) leaves fork() as liburcu alone handles it. */
	(void)pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}
