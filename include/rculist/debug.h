/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/debug.h - the hooks of debug mode (-DRCULIST_DEBUG).
 *
 * Every update operation calls RCULIST__CHECK_* before it writes and
 * RCULIST__POISON_* after it unlinks; every RCU iterator and accessor
 * calls RCULIST__CHECK_READER() and starts with RCULIST__ITER_SITE().  Without RCULIST_DEBUG they expand to
 * nothing that generates code, so the operations compile exactly as if
 * the hooks were not there (tests/debug/debug.mk, check-debug-zero-cost,
 * proves it on the disassembly).
 *
 * With RCULIST_DEBUG the checks call into the library (core/debug.c),
 * which every flavour library contains whether or not the program uses
 * debug mode; the call site they report is recorded by the wrappers of
 * <rculist/debug_api.h>.
 */
#ifndef RCULIST_DEBUG_H
#define RCULIST_DEBUG_H

#include "compiler.h"
#include "types.h"

/**
 * RCULIST_POISON_NEXT - what debug mode writes into a deleted element's next
 *
 * An address in the first page, never mapped, so that following it
 * faults at once; the checks of debug mode (-DRCULIST_DEBUG) and a
 * debugger recognise it ("next is 0x100, the poison of a deleted
 * element").  Written by cds_list_del() and cds_hlist_del(), and only in
 * debug mode.
 *
 * Context: a compile-time constant.
 */
#define RCULIST_POISON_NEXT	((void *)0x100)
/**
 * RCULIST_POISON_PREV - what debug mode writes into a deleted element's prev
 *
 * As RCULIST_POISON_NEXT, for prev links: written by cds_list_del(),
 * cds_hlist_del(), and (prev only, which readers never follow)
 * cds_hlist_del_rcu() and cds_hlist_replace_rcu().
 *
 * Context: a compile-time constant.
 */
#define RCULIST_POISON_PREV	((void *)0x200)

RCULIST__BEGIN_DECLS
/* core/debug.c: the checks behind the hooks; internal, may change. */
void rculist__debug_check_add(const struct cds_list_head *newp,
			      const struct cds_list_head *prev,
			      const struct cds_list_head *next);
void rculist__debug_check_del(const struct cds_list_head *elem);
void rculist__debug_check_splice(const struct cds_list_head *list,
				 const struct cds_list_head *prev,
				 const struct cds_list_head *next);
void rculist__debug_check_hadd(const struct cds_hlist_node *newp,
			       const struct cds_hlist_node *prev,
			       const struct cds_hlist_node *next);
void rculist__debug_check_hdel(const struct cds_hlist_node *elem);
void rculist__debug_check_reader(void);
struct cds_hlist_bl_node;
struct cds_hlist_bl_head;
void rculist__debug_check_bladd(const struct cds_hlist_bl_node *newp,
				struct cds_hlist_bl_node *const *pprev,
				const struct cds_hlist_bl_node *next);
void rculist__debug_check_bldel(const struct cds_hlist_bl_node *elem);
void rculist__debug_check_bllocked(const struct cds_hlist_bl_head *head);
RCULIST__END_DECLS

#ifndef RCULIST_DEBUG

#define RCULIST__CHECK_ADD(newp, prev, next)	((void)0)
#define RCULIST__CHECK_DEL(elem)		((void)0)
#define RCULIST__CHECK_SPLICE(list, prev, next)	((void)0)
#define RCULIST__POISON_LIST(elem)		((void)0)
#define RCULIST__POISON_LIST_RCU(elem)		((void)0)
#define RCULIST__CHECK_HADD(newp, prev, next)	((void)0)
#define RCULIST__CHECK_HDEL(elem)		((void)0)
#define RCULIST__POISON_HLIST(elem)		((void)0)
#define RCULIST__POISON_HLIST_RCU(elem)		((void)0)
#define RCULIST__CHECK_READER()			((void)0)
#define RCULIST__ITER_SITE(name)
#define RCULIST__CHECK_BLADD(newp, pprev, next)	((void)0)
#define RCULIST__CHECK_BLDEL(elem)		((void)0)
#define RCULIST__CHECK_BLLOCKED(head)		((void)0)
#define RCULIST__POISON_BL(elem)		((void)0)
#define RCULIST__POISON_BL_RCU(elem)		((void)0)

#else /* RCULIST_DEBUG */

/*
 * Before writing: the links about to change agree with each other, the
 * element added is not already beside the insertion point, the element
 * removed is really linked (prev->next and next->prev lead back to it).
 * An element initialised with CDS_INIT_LIST_HEAD() and never added is
 * linked to itself and passes: deleting it is legal (once; see below).
 */
#define RCULIST__CHECK_ADD(newp, prev, next)	rculist__debug_check_add(newp, prev, next)
#define RCULIST__CHECK_DEL(elem)		rculist__debug_check_del(elem)
#define RCULIST__CHECK_SPLICE(list, prev, next)	rculist__debug_check_splice(list, prev, next)
#define RCULIST__CHECK_HADD(newp, prev, next)	rculist__debug_check_hadd(newp, prev, next)
#define RCULIST__CHECK_HDEL(elem)		rculist__debug_check_hdel(elem)
/* Readers: inside a read-side critical section (qsbr: online), registered. */
#define RCULIST__CHECK_READER()			rculist__debug_check_reader()
/* Records the iterator's name and call site (<rculist/debug_api.h>). */
#define RCULIST__ITER_SITE(name)		RCULIST__DEBUG_ITER(name)

/*
 * After a plain deletion, nothing may follow the element's links: both
 * are poisoned, so that a second delete is reported and a stale walk
 * faults.  The element must be added or re-initialised before reuse.
 * Except for an element that is linked to itself (initialised with
 * CDS_INIT_LIST_HEAD() and never added, or an empty head): deleting it
 * is legal and does nothing, debug mode or not, as often as one likes.
 */
static inline void rculist__debug_poison_list(struct cds_list_head *elem)
{
	if (elem->next == elem)
		return;
	elem->next = (struct cds_list_head *)RCULIST_POISON_NEXT;
	elem->prev = (struct cds_list_head *)RCULIST_POISON_PREV;
}

static inline void rculist__debug_poison_hlist(struct cds_hlist_node *elem)
{
	elem->next = (struct cds_hlist_node *)RCULIST_POISON_NEXT;
	elem->prev = (struct cds_hlist_node *)RCULIST_POISON_PREV;
}

#define RCULIST__POISON_LIST(elem)	rculist__debug_poison_list(elem)
#define RCULIST__POISON_HLIST(elem)	rculist__debug_poison_hlist(elem)

/*
 * cds_list_del_rcu() and cds_list_replace_rcu(): a reader standing on the
 * removed element may go on in either direction (forward, or backward
 * with cds_list_for_each_entry_reverse_rcu()), so both its links must
 * stay valid until a grace period has passed, and struct cds_list_head
 * has no third field for a marker.  Nothing is poisoned: a second delete
 * is still caught, because the neighbours no longer lead back to it.
 */
#define RCULIST__POISON_LIST_RCU(elem)	((void)0)

/*
 * cds_hlist_del_rcu() and cds_hlist_replace_rcu(): readers follow only
 * next, which stays intact; prev is the updaters' alone, so it is
 * poisoned, and a second delete is reported.
 */
#define RCULIST__POISON_HLIST_RCU(elem)					\
	((void)((elem)->prev = (struct cds_hlist_node *)RCULIST_POISON_PREV))

/*
 * Bit-locked lists (<rculist/hlist_bl.h>): adds and deletes checked as
 * for hlists, and add_head and unlock check that the list is locked.
 * cds_hlist_bl_del() poisons both links; cds_hlist_bl_del_rcu() pprev
 * alone, since readers follow next.
 */
#define RCULIST__CHECK_BLADD(newp, pprev, next)	rculist__debug_check_bladd(newp, pprev, next)
#define RCULIST__CHECK_BLDEL(elem)		rculist__debug_check_bldel(elem)
#define RCULIST__CHECK_BLLOCKED(head)		rculist__debug_check_bllocked(head)
#define RCULIST__POISON_BL(elem)					\
	((void)((elem)->next = (struct cds_hlist_bl_node *)RCULIST_POISON_NEXT, \
		(elem)->pprev = (struct cds_hlist_bl_node **)RCULIST_POISON_PREV))
#define RCULIST__POISON_BL_RCU(elem)					\
	((void)((elem)->pprev = (struct cds_hlist_bl_node **)RCULIST_POISON_PREV))

#endif /* RCULIST_DEBUG */

#endif /* RCULIST_DEBUG_H */
