// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/gp.c - rculist_synchronize_rcu(), the sequence of grace periods
 * that polled cookies read, and the check that no call waits inside the
 * caller's own read-side critical section.
 *
 * The sequence: two counters, compared modulo wrap (rculist__seq_after()):
 *  - ticket: taken by every grace period rculist waits for, as it begins
 *    (rculist_synchronize_rcu(), and core/poll.c's fallback callback);
 *  - done: one past the largest ticket whose grace period has ended.
 * A cookie is the ticket value when it was taken.  A grace period whose
 * ticket is at least the cookie began after the cookie was taken (its
 * fetch-and-add comes later in the counter's order), so the cookie is
 * satisfied once done has passed it: done - cookie > 0.  Grace periods
 * may end out of ticket order (concurrent rculist_synchronize_rcu()
 * calls); done only ever grows to the largest ticket seen ended, which is
 * right because one ended grace period that began after the cookie is
 * enough.  Both counters start 100 grace periods short of wrapping (as
 * the Linux kernel's gp_seq starts at -300), so a comparison that forgets
 * the wrap fails at once, in tests/unit/poll.c.
 *
 * Below it: the watchers a grace period is reported to (core/stall.c,
 * core/tsan.c, core/report.c) and the flavour adapter.
 */
#include <rculist.h>

#include "internal.h"

static unsigned long ticket = RCULIST__SEQ_INIT;
static unsigned long done = RCULIST__SEQ_INIT;
/* Grace periods rculist_synchronize_rcu() waited for (the stats). */
static unsigned long waited;

/*
 * A program that waits for grace periods gets fork() handled (core/fork.c,
 * which pulls in core/pin.c) and thread exits watched (core/thread.c),
 * also when it links the archive.
 */
__attribute__((used)) static void (*const fork_anchor)(void) = rculist__fork_init;
__attribute__((used)) static void (*const thread_anchor)(void) = rculist__thread_init;

unsigned long rculist__gp_begin(void)
{
	return __atomic_fetch_add(&ticket, 1, __ATOMIC_SEQ_CST);
}

void rculist__gp_end(unsigned long gp_ticket)
{
	rculist__seq_raise(&done, gp_ticket + 1);
}

unsigned long rculist__gp_done(void)
{
	return __atomic_load_n(&done, __ATOMIC_SEQ_CST);
}

unsigned long rculist__gp_count(void)
{
	return __atomic_load_n(&waited, __ATOMIC_RELAXED);
}

unsigned long rculist__gp_ticket(void)
{
	return __atomic_load_n(&ticket, __ATOMIC_SEQ_CST);
}

struct rculist_gp_cookie rculist_get_state_synchronize_rcu(void)
{
	struct rculist_gp_cookie c = { rculist__gp_ticket() };

	return c;
}

int rculist_poll_state_synchronize_rcu(struct rculist_gp_cookie cookie)
{
	return rculist__seq_after(rculist__gp_done(), cookie.seq);
}

/*
 * A call that waits for a grace period (rculist_synchronize_rcu(), the
 * splices that use it, rculist_cond_synchronize_rcu()) or for callbacks
 * that wait for one (rculist_rcu_barrier()), made inside the caller's own
 * read-side critical section: reported (one line, then the error
 * handler, abort() by default), and abort() if the handler returns: it
 * can neither wait nor return without a grace period.  memb and bp know
 * the section from their own nesting count, one load of the caller's
 * reader state, so the check is always on and the read side pays
 * nothing.  qsbr's sections are empty brackets: only those opened through
 * debug mode's rculist_read_lock() are counted (core/debug.c).
 */
void rculist__check_not_reading(const char *op)
{
	if (!rculist__reading())
		return;
	rculist__report_reading(
		op,
		rculist__flavor_has_sections() ?
			"it waits for a grace period, which cannot end while the caller itself reads: deadlock" :
			"under qsbr it would end the section while the caller reads");
}

int rculist__not_reading(const char *op)
{
	rculist__check_not_reading(op);
	return 0;
}

/*
 * The stall detector (core/stall.c) watches the wait, if it is on: it
 * reports a grace period that takes longer than RCULIST_STALL_TIMEOUT_MS.
 * The ticket tells polled grace periods that one began and ended.
 */
void rculist_synchronize_rcu(void)
{
	struct rculist__stall_wait wait;
	int watched;
	unsigned long gp_ticket;

	rculist__check_not_reading("rculist_synchronize_rcu");
	watched = rculist__stall_begin(&wait);
	gp_ticket = rculist__gp_begin();

	rculist__flavor_synchronize_rcu();
	rculist__tsan_gp_ended();
	rculist__gp_end(gp_ticket);
	__atomic_add_fetch(&waited, 1, __ATOMIC_RELAXED);
	if (watched)
		rculist__stall_end(&wait);
}
