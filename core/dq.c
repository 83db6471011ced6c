// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/dq.c - the defer queue (<rculist/dq.h>).
 *
 * A bounded ring of cells {seq, cookie, ptr}, shared by any number of
 * enqueuers and reclaimers, with no lock: each side claims a position
 * with one compare-and-swap on its own counter (tail for enqueues, head
 * for reclaims), then fills or empties the cell and hands it on through
 * the cell's seq, a store-release.  A cell at ring index i holds, in turn:
 *   seq == pos          free for the enqueue at position pos;
 *   seq == pos + 1      filled by that enqueue, for the reclaim at pos;
 *   seq == pos + size   emptied, free for the enqueue one lap later.
 * So a full ring shows up as a cell whose seq is still a lap behind the
 * enqueuer's position, and an empty one as a cell not yet filled.
 *
 * A reclaimer reads the cell's cookie and pointer before it claims the
 * position, and claims it only if the cookie is satisfied: if its
 * compare-and-swap succeeds, nobody else took that position, so no
 * enqueue of the next lap can have overwritten what it read.  Cookies
 * are taken before the position, so two racing enqueuers may store
 * them slightly out of order; a reclaim stops at the first cell not
 * ready, which holds back at most those racing behind it.
 *
 * free_fn runs after the claim and after the cell is handed back, in
 * the reclaiming thread: no lock is held across it.
 *
 * Grace periods are asked for lazily, as core/reclaim.c's polled slots
 * are: an enqueue takes its cookie (the grace-period ticket) and asks
 * for its grace period only at every eighth of the ring (its position a
 * multiple of request_at: no shared counter to read), through
 * rculist__poll_request(), which leaves a napping grace-period thread
 * to its nap (in a ring of 256 or more: DQ_LAZY_AT); a reclaim that
 * finds nothing ready asks for a grace period that covers the oldest
 * cell, waking the thread, once a tick of the coarse clock at most
 * (dq_should_ask()).
 * One asked for at every enqueue kept the grace-period thread running
 * back to back, a grace period for every few hundred enqueues, each
 * costing the enqueuer a wake-up of that thread (and, under memb with
 * readers, a membarrier() interrupt); a reclaim that asked each time it
 * had caught up did much the same (in bench/reclaim.c's loop, a futex
 * call every 500 enqueues, where the enqueues ask every 1024).  Each
 * pointer's grace period is still asked for by the queue's own calls:
 * an eighth of the ring later, or by a reclaim that frees nothing, a
 * few milliseconds later at most.  The wake-ups themselves are mostly
 * gone too: while requests come close together the grace-period thread
 * naps instead of parking (core/poll.c), and a request needs none.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <time.h>

#include <rculist.h>

#include "internal.h"

struct dq_cell {
	unsigned long seq;
	unsigned long cookie;
	void *ptr;
};

struct rculist_dq {
	unsigned long tail __attribute__((aligned(64))); /* next enqueue */
	unsigned long head __attribute__((aligned(64))); /* next reclaim */
	unsigned long asked_ms; /* when a reclaim last asked */
	/* Read-only after creation. */
	unsigned long mask __attribute__((aligned(64)));
	unsigned long request_at; /* an enqueue asks for its grace period */
	void (*free_fn)(void *arg, void *ptr);
	void *arg;
	struct dq_cell cell[] __attribute__((aligned(64)));
};

/*
 * Rings whose enqueues ask lazily (a napping grace-period thread is left
 * to its nap): an eighth of 256 cells or more.  A smaller one asks about
 * as often as it enqueues, each ask for a pointer its loop may be
 * waiting for; it wakes the thread.
 */
#define DQ_LAZY_AT 32

/* Cells ahead whose pointer a reclaim prefetches before free_fn's. */
#define DQ_AHEAD 4

#define DQ_MAX_CELLS ((ULONG_MAX / 4) / sizeof(struct dq_cell))

struct rculist_dq *rculist_dq_create(unsigned long capacity,
				     void (*free_fn)(void *arg, void *ptr),
				     void *arg)
{
	struct rculist_dq *dq;
	unsigned long size = 2, i;
	void *mem;

	if (!capacity || capacity > DQ_MAX_CELLS || !free_fn) {
		errno = EINVAL;
		return NULL;
	}
	while (size < capacity)
		size <<= 1;
	if (posix_memalign(&mem, 64, sizeof(*dq) + size * sizeof(dq->cell[0]))) {
		errno = ENOMEM;
		return NULL;
	}
	dq = mem;
	dq->tail = 0;
	dq->head = 0;
	dq->asked_ms = 0;
	dq->mask = size - 1;
	dq->request_at = size / 8 ? size / 8 : 1;
	dq->free_fn = free_fn;
	dq->arg = arg;
	for (i = 0; i < size; i++) {
		dq->cell[i].seq = i;
		dq->cell[i].cookie = 0;
		dq->cell[i].ptr = NULL;
	}
	return dq;
}

/*
 * Store @ptr and @cookie in a free cell: non-zero if there was one, and
 * then *@at its position.
 */
static inline __attribute__((always_inline)) int
dq_push(struct rculist_dq *dq, void *ptr, unsigned long cookie, unsigned long *at)
{
	unsigned long pos = __atomic_load_n(&dq->tail, __ATOMIC_RELAXED), seq;
	struct dq_cell *c;
	long diff;

	for (;;) {
		c = &dq->cell[pos & dq->mask];
		seq = __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE);
		diff = (long)(seq - pos);
		if (diff < 0)
			return 0; /* a lap behind: full */
		if (diff == 0 &&
		    __atomic_compare_exchange_n(&dq->tail, &pos, pos + 1, 1,
						__ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			break;
		if (diff > 0)
			pos = __atomic_load_n(&dq->tail, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&c->cookie, cookie, __ATOMIC_RELAXED);
	__atomic_store_n(&c->ptr, ptr, __ATOMIC_RELAXED);
	__atomic_store_n(&c->seq, pos + 1, __ATOMIC_RELEASE);
	*at = pos;
	return 1;
}

/*
 * Claim the run of up to @max oldest cells whose grace period has
 * elapsed, with one compare-and-swap of head: returns how many, the
 * first at *@from.  Each cell of the run is read (filled: seq == pos + 1,
 * and its cookie satisfied by done, loaded once) before the claim; if the
 * claim succeeds nobody else took those positions, and no enqueue can
 * refill a cell before its reclaimer hands it back, so what was read
 * stands.  The caller empties the cells and hands them back.  A filled
 * cell not ready yet stops the run (*@waits set), for the caller to ask
 * for its grace period.
 */
static unsigned long dq_claim_ready(struct rculist_dq *dq, unsigned long max,
				    unsigned long *from, int *waits)
{
	unsigned long pos = __atomic_load_n(&dq->head, __ATOMIC_RELAXED);
	unsigned long done, seq, k, cookie;
	struct dq_cell *c;
	long diff = 0; /* max 0: nothing claimed, nothing to look again at */

	/* Sequentially consistent: the grace period's end is seen. */
	done = rculist__gp_done();
	for (;;) {
		for (k = 0; k < max; k++) {
			c = &dq->cell[(pos + k) & dq->mask];
			seq = __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE);
			diff = (long)(seq - (pos + k + 1));
			/* Empty, its enqueue not finished, or taken already. */
			if (diff)
				break;
			cookie = __atomic_load_n(&c->cookie, __ATOMIC_RELAXED);
			if (!rculist__seq_after(done, cookie)) {
				*waits = 1;
				break;
			}
		}
		if (!k) {
			/* Another reclaimer moved head past pos: look again. */
			if (diff > 0) {
				pos = __atomic_load_n(&dq->head,
						      __ATOMIC_RELAXED);
				continue;
			}
			return 0;
		}
		if (__atomic_compare_exchange_n(&dq->head, &pos, pos + k, 1,
						__ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			break;
	}
	*from = pos;
	return k;
}

/*
 * A reclaim that found nothing ready asks for a grace period at most
 * once a tick of CLOCK_MONOTONIC_COARSE (1-4 ms) per queue: in a loop that
 * enqueues fast, the enqueues ask (an eighth of the ring apart), and a
 * reclaim that asked too would restart the grace period every time it
 * caught up with them; in a slow or idle one, it is the reclaims that
 * ask, a few milliseconds apart at most.  The coarse clock costs a few
 * nanoseconds (CLOCK_MONOTONIC: 58 ns in a KVM guest).
 */
static int dq_should_ask(struct rculist_dq *dq)
{
	struct timespec t;
	unsigned long now;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
	now = (unsigned long)t.tv_sec * 1000 + (unsigned long)t.tv_nsec / 1000000;
	if (now == __atomic_load_n(&dq->asked_ms, __ATOMIC_RELAXED))
		return 0;
	__atomic_store_n(&dq->asked_ms, now, __ATOMIC_RELAXED);
	return 1;
}

unsigned long rculist_dq_reclaim(struct rculist_dq *dq, unsigned long max)
{
	unsigned long n = 0, from, k, i;
	struct dq_cell *c;
	int waits = 0;
	void *ptr;

	while (n < max && (k = dq_claim_ready(dq, max - n, &from, &waits))) {
		for (i = 0; i < k; i++) {
			c = &dq->cell[(from + i) & dq->mask];
			ptr = __atomic_load_n(&c->ptr, __ATOMIC_RELAXED);
			/* Ours until handed back: free_fn's block, early. */
			if (i + DQ_AHEAD < k)
				__builtin_prefetch(
					dq->cell[(from + i + DQ_AHEAD) & dq->mask]
						.ptr,
					1);
			/* Handed back before free_fn runs: no lock across it. */
			__atomic_store_n(&c->seq, from + i + dq->mask + 1,
					 __ATOMIC_RELEASE);
			dq->free_fn(dq->arg, ptr);
		}
		n += k;
	}
	/*
	 * Nothing ready: ask for the grace period of a cookie taken now,
	 * which covers the oldest's (and any cell refilled meanwhile), and
	 * wake the grace-period thread even if it naps: the enqueues' lazy
	 * asks may have left it to its nap, which a loaded machine can
	 * stretch to milliseconds.
	 */
	if (!n && waits && dq_should_ask(dq))
		rculist_start_poll_synchronize_rcu();
	return n;
}

int rculist_dq_enqueue(struct rculist_dq *dq, void *ptr)
{
	struct rculist_gp_cookie c = { rculist__gp_ticket() };
	unsigned long pos;

	if (!dq_push(dq, ptr, c.seq, &pos)) {
		rculist_dq_reclaim(dq, dq->mask + 1);
		if (!dq_push(dq, ptr, c.seq, &pos))
			return -ENOSPC;
	}
	/* Every eighth of the ring: the grace period of the cells before. */
	if (!(pos & (dq->request_at - 1))) {
		if (dq->request_at >= DQ_LAZY_AT)
			rculist__poll_request(c.seq);
		else
			rculist_start_poll_synchronize_rcu();
	}
	return 0;
}

void rculist_dq_destroy(struct rculist_dq *dq)
{
	struct rculist_gp_cookie cookie;
	struct dq_cell *c;
	unsigned long pos;

	if (!dq)
		return;
	if (rculist__not_reading("rculist_dq_destroy"))
		return;
	for (pos = dq->head; pos != dq->tail; pos++) {
		c = &dq->cell[pos & dq->mask];
		cookie.seq = c->cookie;
		/* One grace period at most: it satisfies every later cookie. */
		rculist_cond_synchronize_rcu(cookie);
		dq->free_fn(dq->arg, c->ptr);
	}
	free(dq);
}
