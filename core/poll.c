// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/poll.c - polled grace periods, under every flavour and every
 * liburcu (0.13 has no start_poll_synchronize_rcu()).
 *
 * Two counters, compared modulo wrap (seq_after()):
 *  - ticket: taken by every grace period rculist waits for, as it
 *    begins (rculist_synchronize_rcu(), or the callback queued by
 *    rculist_start_poll_synchronize_rcu());
 *  - done: one past the largest ticket whose grace period has ended.
 * A cookie is the ticket value when it was taken.  A grace period whose
 * ticket is at least the cookie began after the cookie was taken (its
 * fetch-and-add comes later in the counter's order), so the cookie is
 * satisfied once done has passed it: done - cookie > 0.  Grace periods
 * may end out of ticket order (concurrent rculist_synchronize_rcu()
 * calls); done only ever grows to the largest ticket seen ended, which is
 * right because one ended grace period that began after the cookie is
 * enough.
 *
 * rculist_start_poll_synchronize_rcu() never blocks and allocates
 * nothing: one rcu_head is in flight at most.  A caller raises the
 * wanted value of done; the first to find no callback queued queues it,
 * taking a ticket for its grace period.  When the callback runs it
 * advances done past that ticket, and queues itself again if a cookie
 * taken after the ticket wants more.  All atomics are sequentially consistent: a caller
 * that raises wanted and then finds the flag set is seen by the callback,
 * which clears the flag before it reads wanted.
 *
 * Both counters start 100 grace periods short of wrapping (as the Linux
 * kernel's gp_seq starts at -300), so a comparison that forgets the wrap
 * fails at once, in tests/unit/poll.c.
 */
#include <rculist.h>

#include "internal.h"

#define SEQ_INIT ((unsigned long)-100)

static unsigned long ticket = SEQ_INIT;
static unsigned long done = SEQ_INIT;

/* rculist_start_poll_synchronize_rcu()'s callback and its state. */
static unsigned long wanted = SEQ_INIT;
static int queued;
static unsigned long carried; /* written by the owner of queued only */
static struct rcu_head poll_head;

#define load(p)	     __atomic_load_n(p, __ATOMIC_SEQ_CST)
#define fetch_inc(p) __atomic_fetch_add(p, 1, __ATOMIC_SEQ_CST)

/* Whether @a comes after @b, modulo wrap. */
static int seq_after(unsigned long a, unsigned long b)
{
	return (long)(a - b) > 0;
}

/* *@p = @v unless *@p is already after @v. */
static void seq_raise(unsigned long *p, unsigned long v)
{
	unsigned long cur = load(p);

	while (seq_after(v, cur) &&
	       !__atomic_compare_exchange_n(p, &cur, v, 0, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST))
		;
}

unsigned long rculist__gp_begin(void)
{
	return fetch_inc(&ticket);
}

void rculist__gp_end(unsigned long gp_ticket)
{
	seq_raise(&done, gp_ticket + 1);
}

struct rculist_gp_cookie rculist_get_state_synchronize_rcu(void)
{
	struct rculist_gp_cookie c = { load(&ticket) };

	return c;
}

int rculist_poll_state_synchronize_rcu(struct rculist_gp_cookie cookie)
{
	return seq_after(load(&done), cookie.seq);
}

static void poll_callback(struct rcu_head *head);

/*
 * Queue the callback; the flag is ours.  Its grace period takes a ticket
 * now, as rculist_synchronize_rcu() does: every cookie taken before is
 * satisfied when it ends, none taken after.
 */
static void poll_queue(void)
{
	carried = rculist__gp_begin() + 1;
	rculist__flavor_call_rcu(&poll_head, poll_callback);
}

static void poll_callback(struct rcu_head *head)
{
	unsigned long reached = carried;

	(void)head;
	rculist__gp_end(reached - 1);
	__atomic_store_n(&queued, 0, __ATOMIC_SEQ_CST);
	if (seq_after(load(&wanted), reached) &&
	    !__atomic_exchange_n(&queued, 1, __ATOMIC_SEQ_CST))
		poll_queue();
}

struct rculist_gp_cookie rculist_start_poll_synchronize_rcu(void)
{
	struct rculist_gp_cookie c = rculist_get_state_synchronize_rcu();

	seq_raise(&wanted, c.seq + 1);
	if (!__atomic_exchange_n(&queued, 1, __ATOMIC_SEQ_CST))
		poll_queue();
	return c;
}

void rculist_cond_synchronize_rcu(struct rculist_gp_cookie cookie)
{
	/* A misplaced call is reported even when the cookie is satisfied. */
	if (rculist__not_reading("rculist_cond_synchronize_rcu"))
		return;
	if (!rculist_poll_state_synchronize_rcu(cookie))
		rculist_synchronize_rcu();
}
