/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/inline.h - the read side of one flavour, inlined when compiling.
 *
 * By default the flavour is chosen when linking, and rculist_read_lock(),
 * rculist_read_unlock(), rculist_quiescent_state() and
 * rculist_read_ongoing() are calls into the flavour library.  A program
 * that knows its flavour when it is compiled may instead define one of
 *
 *	-DRCULIST_INLINE_MEMB   -DRCULIST_INLINE_QSBR   -DRCULIST_INLINE_BP
 *	-DRCULIST_INLINE_MB
 *
 * in every translation unit (the same one everywhere); these four calls
 * then become liburcu's inline fast path of that flavour, as cheap as
 * liburcu's own read side under _LGPL_SOURCE.  The price:
 *  - the program must link liburcu's flavour itself as well as ours,
 *    the same flavour: `pkg-config --libs rculist-memb` already names
 *    -lurcu-memb (Requires), and linking -lrculist-qsbr with
 *    -DRCULIST_INLINE_MEMB is a silent error;
 *  - liburcu's inline code is compiled into the program, which must be
 *    LGPL-2.1 compatible (liburcu's terms for _LGPL_SOURCE);
 *  - the program is bound to liburcu's internal reader state layout and
 *    must be recompiled when liburcu's soname changes.
 * Everything else (registration, grace periods, call_rcu) stays in the
 * library, which shares its reader state with the inlined code.
 *
 * Included by <rculist/runtime.h>; do not include it directly.
 */
#ifndef RCULIST_INLINE_H
#define RCULIST_INLINE_H

#if defined(RCULIST_INLINE_MEMB) + defined(RCULIST_INLINE_QSBR) +          \
		defined(RCULIST_INLINE_BP) + defined(RCULIST_INLINE_MB) != \
	1
#error "rculist: define only one of RCULIST_INLINE_MEMB, RCULIST_INLINE_QSBR, RCULIST_INLINE_BP, RCULIST_INLINE_MB"
#endif

/*
 * liburcu's reader registry holds a struct cds_list_head: ours, since
 * <rculist/urcu_compat.h> has already made <urcu/list.h> a no-op.
 */
#include "types.h"

#if defined(RCULIST_INLINE_MEMB)
#include <urcu/static/urcu-memb.h>
#define RCULIST__INLINE(fn)    _urcu_memb_##fn
#define RCULIST__INLINE_FLAVOR rculist_flavor_is_memb
#define RCULIST__INLINE_QSBR   0
#elif defined(RCULIST_INLINE_QSBR)
#include <urcu/static/urcu-qsbr.h>
#define RCULIST__INLINE(fn)    _urcu_qsbr_##fn
#define RCULIST__INLINE_FLAVOR rculist_flavor_is_qsbr
#define RCULIST__INLINE_QSBR   1
#elif defined(RCULIST_INLINE_MB)
#include <urcu/static/urcu-mb.h>
#define RCULIST__INLINE(fn)    _urcu_mb_##fn
#define RCULIST__INLINE_FLAVOR rculist_flavor_is_mb
#define RCULIST__INLINE_QSBR   0
#else
#include <urcu/static/urcu-bp.h>
#define RCULIST__INLINE(fn)    _urcu_bp_##fn
#define RCULIST__INLINE_FLAVOR rculist_flavor_is_bp
#define RCULIST__INLINE_QSBR   0
#define RCULIST__INLINE_BP     1
#endif

/*
 * The read side inlined here must be the flavour the program links with:
 * only that flavour's library defines rculist_flavor_is_<flavor>, so with
 * another one the link fails with "undefined reference to
 * rculist_flavor_is_<flavor>".  (extern "C" for C++ programs.)
 */
RCULIST__BEGIN_DECLS
/**
 * rculist_flavor_is_memb - defined by -lrculist-memb only: the link-time guard of RCULIST_INLINE_MEMB
 *
 * Not for use by programs: <rculist/inline.h> refers to it when
 * RCULIST_INLINE_MEMB is defined, so that linking with another flavour's
 * library fails ("undefined reference to rculist_flavor_is_memb").
 *
 * Context: a constant; never read at run time.
 */
extern const int rculist_flavor_is_memb;
/**
 * rculist_flavor_is_qsbr - defined by -lrculist-qsbr only: the link-time guard of RCULIST_INLINE_QSBR
 *
 * As rculist_flavor_is_memb, for the qsbr flavour.
 *
 * Context: a constant; never read at run time.
 */
extern const int rculist_flavor_is_qsbr;
/**
 * rculist_flavor_is_bp - defined by -lrculist-bp only: the link-time guard of RCULIST_INLINE_BP
 *
 * As rculist_flavor_is_memb, for the bp flavour.
 *
 * Context: a constant; never read at run time.
 */
extern const int rculist_flavor_is_bp;
/**
 * rculist_flavor_is_mb - defined by -lrculist-mb only: the link-time guard of RCULIST_INLINE_MB
 *
 * As rculist_flavor_is_memb, for the mb flavour.
 *
 * Context: a constant; never read at run time.
 */
extern const int rculist_flavor_is_mb;
RCULIST__END_DECLS
__attribute__((used)) static const int *const rculist__inline_flavor_check =
	&RCULIST__INLINE_FLAVOR;

/*
 * Declared as the library's: liburcu's functions they call carry no
 * attributes, so clang's thread-safety analysis is told, not shown.
 */
static inline void
rculist__inline_read_lock(void) RCULIST_ACQUIRES_RCU RCULIST_NO_RCU_ANALYSIS
{
#ifdef RCULIST__INLINE_BP
	/*
	 * A thread not registered yet: the library's call registers it, as
	 * without RCULIST_INLINE_BP, and watches its exit
	 * (rculist_unregister_thread(3)).  liburcu's own test, which
	 * follows, then costs nothing more.
	 */
	if (caa_unlikely(!URCU_TLS(urcu_bp_reader))) {
		rculist_read_lock();
		return;
	}
#endif
	RCULIST__INLINE(read_lock)();
}

static inline void
rculist__inline_read_unlock(void) RCULIST_RELEASES_RCU RCULIST_NO_RCU_ANALYSIS
{
	RCULIST__INLINE(read_unlock)();
}

static inline int rculist__inline_read_ongoing(void)
{
#ifdef RCULIST__INLINE_BP
	if (caa_unlikely(!URCU_TLS(urcu_bp_reader)))
		return rculist_read_ongoing(); /* as rculist_read_lock() */
#endif
	return RCULIST__INLINE(read_ongoing)();
}

static inline void rculist__inline_quiescent_state(void) RCULIST_EXCLUDES_RCU
{
#if RCULIST__INLINE_QSBR
	RCULIST__INLINE(quiescent_state)();
#endif
}

/*
 * The library's declarations above stay as they are; the names now
 * denote the inline versions (object-like macros, so that taking the
 * address of rculist_read_lock still works).
 */
#define rculist_read_lock	rculist__inline_read_lock
#define rculist_read_unlock	rculist__inline_read_unlock
#define rculist_read_ongoing	rculist__inline_read_ongoing
#define rculist_quiescent_state rculist__inline_quiescent_state

#endif /* RCULIST_INLINE_H */
