/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/dq.h - the defer queue: reclaim in the caller's own loop.
 *
 * An updater that unlinks an element enqueues it instead of freeing it;
 * the queue starts the element's polled grace period itself (one for
 * many elements), and the program frees what has become
 * ready, in its own thread, by calling rculist_dq_reclaim() when it
 * likes (between requests of an event loop, say).  No callback runs in
 * another thread (rculist's grace-period thread only ends grace
 * periods), no rcu_head is needed in the element, and the memory
 * waiting is bounded by the queue's capacity: a full queue says so
 * (-ENOSPC) instead of growing.  The model is DPDK's rte_rcu_qsbr_dq.
 *
 *	struct rculist_dq *dq = rculist_dq_create(4096, free_elem, NULL);
 *	...
 *	cds_list_del_rcu(&e->link);		(under the update-side lock)
 *	while (rculist_dq_enqueue(dq, e) == -ENOSPC)
 *		rculist_quiescent_state();	(or wait, or free otherwise)
 *	...
 *	rculist_dq_reclaim(dq, 64);		(in the loop, now and then)
 *	...
 *	rculist_dq_destroy(dq);
 */
#ifndef RCULIST_DQ_H
#define RCULIST_DQ_H

#include "compiler.h"

RCULIST__BEGIN_DECLS

/*
 * struct rculist_dq, opaque: pointers waiting for a grace period, each
 * with the cookie of its enqueue, in a ring of fixed capacity.
 */
struct rculist_dq;

/**
 * rculist_dq_create - create a defer queue
 * @capacity: how many pointers may wait at once (rounded up to a power
 *	of two, at least 2)
 * @free_fn: called as free_fn(@arg, ptr) for each pointer once its grace
 *	period has elapsed
 * @arg: passed to @free_fn
 *
 * Choosing @capacity: the pointers enqueued while one grace period runs
 * must fit, with room to spare, or enqueues meet -ENOSPC while nothing
 * is wrong: at least the enqueue rate times the longest grace period to
 * ride out (a loaded machine: milliseconds), and eight times the pointers
 * enqueued between two rculist_dq_reclaim() calls (grace periods are
 * asked for every eighth of the capacity).  Say 10 million enqueues a
 * second and grace periods of up to 5 ms: 65536 (1.5 MiB of ring, and
 * the waiting objects themselves).
 *
 * Return: the queue (an opaque struct rculist_dq, shared by any number
 * of threads), or NULL with errno set: EINVAL if @capacity is 0 or too
 * large, or @free_fn is NULL; ENOMEM.  The ring is allocated here, once
 * (24 bytes a pointer): enqueues allocate nothing.
 *
 * Context: any thread; not async-signal-safe (allocates).  Does not
 * block for a grace period.
 */
struct rculist_dq *rculist_dq_create(unsigned long capacity,
				     void (*free_fn)(void *arg, void *ptr),
				     void *arg);

/**
 * rculist_dq_enqueue - hand a pointer to the queue, to be freed after a grace period
 * @dq: the queue
 * @ptr: the object, already unlinked: no reader that begins after the
 *	call can reach it
 *
 * Takes a cookie with rculist_get_state_synchronize_rcu() and stores the
 * pointer and the cookie.  The grace period that makes @ptr ready is
 * asked for (as rculist_start_poll_synchronize_rcu() does) by an enqueue
 * at most an eighth of the capacity later, or by a rculist_dq_reclaim()
 * that finds nothing ready, whichever comes first: no other call is
 * needed, and one grace period serves many enqueues instead of the
 * grace-period thread running them back to back.  When the queue is
 * full, it first reclaims what is ready (running @free_fn in the calling
 * thread, up to the whole capacity) and tries once more.
 *
 * Return: 0 when @ptr is queued; -ENOSPC when the queue is still full
 * (nothing ready yet: a reader holds the grace period up, or under qsbr
 * a thread has not announced a quiescent state).  @ptr is then not
 * queued and still the caller's: try again later, or wait with
 * rculist_synchronize_rcu() and free it.
 *
 * Context: multi-thread safe: any number of threads may enqueue and
 * reclaim on one queue at once; inside a read-side critical section too.
 * Never blocks and never waits for a grace period; lock-free except
 * that a thread stopped between its two steps of an enqueue or reclaim
 * keeps its slot busy (the others see the queue full, or nothing
 * ready, there).  @free_fn may run in the calling thread (when full).
 */
int rculist_dq_enqueue(struct rculist_dq *dq, void *ptr);

/**
 * rculist_dq_reclaim - free what is ready, in the calling thread
 * @dq: the queue
 * @max: free at most this many (ULONG_MAX: all that are ready)
 *
 * Runs @free_fn, in the calling thread, for the oldest pointers whose
 * grace period has elapsed (rculist_poll_state_synchronize_rcu() of
 * their cookie), in enqueue order, stopping at the first one not ready.
 * Each pointer is freed exactly once, by one reclaiming thread, and
 * never before a grace period that began after its enqueue.
 *
 * When none was ready, it asks for the oldest pointer's grace period,
 * once a tick of CLOCK_MONOTONIC_COARSE at most (1 to 4 ms) per queue:
 * a reclaim loop frees every pointer, however few were enqueued, within
 * a few milliseconds and a grace period, while in a loop that enqueues
 * fast the enqueues ask, and its reclaims do not restart the grace
 * period each time they have caught up.
 *
 * Return: how many pointers were freed (0 if none was ready).
 *
 * Context: multi-thread safe (several threads may reclaim, and enqueue,
 * at once); never blocks and never waits for a grace period: progress
 * comes from the polled grace periods that the enqueues and reclaims
 * asked for (under qsbr, the readers must go on announcing quiescent
 * states; a qsbr event loop may reclaim between its quiescent states).
 * Callable inside a read-side critical section too: what it frees was unlinked
 * before a grace period that has ended, so no section in progress, the
 * caller's included, can hold it.
 */
unsigned long rculist_dq_reclaim(struct rculist_dq *dq, unsigned long max);

/**
 * rculist_dq_destroy - free what remains, and the queue
 * @dq: the queue, or NULL (nothing happens)
 *
 * Waits for a grace period if a queued pointer's has not elapsed (one
 * rculist_synchronize_rcu() at most), runs @free_fn in the calling
 * thread for every pointer still queued, oldest first, and frees the
 * queue.
 *
 * Context: any thread, outside any read-side critical section (a call
 * inside the caller's own section is reported as
 * rculist_synchronize_rcu() reports it, and aborts if the error handler
 * returns); no other thread may use @dq
 * during or after the call.  May block for a grace period.
 */
void rculist_dq_destroy(struct rculist_dq *dq);

RCULIST__END_DECLS

#endif /* RCULIST_DQ_H */
