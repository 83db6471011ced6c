/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/read_side.h - the read side on the default link: calls that a
 * flavour does not need are skipped in the caller, not made.
 *
 * The flavour is still chosen when linking: one object file works with
 * each of the four libraries.  Each library exports what its read side
 * is (struct rculist__read_side, a constant), and the wrappers below read
 * it before calling:
 *  - rculist_read_lock() and rculist_read_unlock() call the library only
 *    when its lock/unlock do something (memb, bp, mb); under qsbr they
 *    are one load and a branch not taken, no call;
 *  - rculist_quiescent_state() is qsbr's own fast path, inline: it calls
 *    the library only when the grace-period counter moved since the
 *    thread last announced itself (rculist__qs_ctr, the thread's counter
 *    as the library last set it), as liburcu's inline code does; under
 *    the other flavours it stops at the lock_calls test (both counters
 *    are a constant 0 there too): no call.
 * The functions stay exported (ABI; their addresses, and the debug
 * mode's checking wrappers, use them); the names below are object-like
 * macros, as in <rculist/inline.h>, so that &rculist_read_lock works.
 *
 * Included by <rculist/runtime.h> unless -DRCULIST_INLINE_<FLAVOUR>; do
 * not include it directly.  Debug mode (<rculist/debug_api.h>) replaces
 * these names by its checking wrappers, which call the library.
 */
#ifndef RCULIST_READ_SIDE_H
#define RCULIST_READ_SIDE_H

RCULIST__BEGIN_DECLS
/*
 * Internal ABI, exported by every flavour library (core/bind.h); may
 * change with RCULIST_VERSION_MAJOR.  Programs copy it at start-up (a
 * copy relocation): it never changes while the program runs.
 */
struct rculist__read_side {
	int lock_calls;		    /* read_lock/unlock do something */
	const unsigned long *qs_gp; /* qsbr: the grace-period counter;
				     * else a constant 0 */
};
extern const struct rculist__read_side rculist__read_side;
/*
 * qsbr: the calling thread's reader counter as the library last stored
 * it (0 offline or unregistered); 0 in every thread under the other
 * flavours.  Initial-exec, as the library's own access to liburcu's
 * reader state: no __tls_get_addr() call in code compiled -fPIC.
 */
extern __thread unsigned long rculist__qs_ctr
	__attribute__((tls_model("initial-exec")));
RCULIST__END_DECLS

/*
 * Declared to clang's thread-safety analysis as the library's calls: the
 * test on lock_calls would otherwise hide the section from it.
 */
static inline void rculist__read_lock_wrap(void)
	RCULIST_ACQUIRES_RCU RCULIST_NO_RCU_ANALYSIS
{
	if (rculist__read_side.lock_calls)
		rculist_read_lock();
}

static inline void rculist__read_unlock_wrap(void)
	RCULIST_RELEASES_RCU RCULIST_NO_RCU_ANALYSIS
{
	if (rculist__read_side.lock_calls)
		rculist_read_unlock();
}

/*
 * liburcu's qsbr fast path: nothing to announce while the thread's
 * counter equals the grace-period counter (relaxed load: the library's
 * call does the ordering when it stores).  Only qsbr's lock and unlock
 * do nothing, and only qsbr has quiescent states: the other flavours
 * stop at the test of lock_calls, which a loop loads once.
 */
static inline void rculist__quiescent_state_wrap(void) RCULIST_EXCLUDES_RCU
{
	if (!rculist__read_side.lock_calls &&
	    __atomic_load_n(rculist__read_side.qs_gp, __ATOMIC_RELAXED) !=
		    rculist__qs_ctr)
		rculist_quiescent_state();
}

#define rculist_read_lock	rculist__read_lock_wrap
#define rculist_read_unlock	rculist__read_unlock_wrap
#define rculist_quiescent_state rculist__quiescent_state_wrap

#endif /* RCULIST_READ_SIDE_H */
