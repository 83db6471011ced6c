/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/list_rcu.h - circular lists shared with concurrent RCU readers.
 *
 * The contract, for every operation in this file:
 *  - Updaters: the caller serialises all updates of one list with its own
 *    lock (or by having a single updater).  Updating threads need not be
 *    registered as RCU readers.
 *  - Readers: any number of threads may walk the list at the same time
 *    with the _rcu iterators, inside a read-side critical section
 *    (rculist_read_lock()/rculist_read_unlock(); under QSBR, while
 *    online).
 *  - Memory: an element removed by cds_list_del_rcu() or replaced by
 *    cds_list_replace_rcu() may still be in use by readers; free or reuse
 *    it only after a grace period (rculist_synchronize_rcu(),
 *    rculist_call_rcu() or rculist_free_rcu()).
 *
 * Ordering: an element becomes visible to readers through one store, made
 * with release semantics after the element is fully initialised; readers
 * load each link with a dependency-ordered load.  A store that gives
 * readers a new way to an element is a release too, even when the
 * element is already on the list (cds_list_del_rcu() linking its
 * neighbours): the element may have been added just before by the same
 * updater, and a plain store may overtake that publication on a weakly
 * ordered CPU (tests/model/list.pml finds the reader that would see it
 * uninitialised).  Only stores that point a head at itself
 * (CDS_INIT_LIST_HEAD_RCU()) are merely untorn.  Both next and prev are
 * published this way, so readers may
 * walk forwards (cds_list_for_each_entry_rcu) or backwards
 * (cds_list_for_each_entry_reverse_rcu): see that iterator for what a
 * backward walk is not safe against.
 *
 * Deliberately absent:
 *  - cds_list_empty_rcu(): "the list is empty" is stale as soon as it is
 *    returned; use cds_list_first_or_null_rcu(), which reads the first
 *    element and tests it with the same load.
 *  - cds_list_first_entry_rcu(): on a list that may become empty between
 *    the test and the read, it would return the head as an element; use
 *    cds_list_first_or_null_rcu().
 *  - a plain cds_list_del_init_rcu(): re-initialising the element would
 *    send a reader standing on it back to itself, never to the list head.
 */
#ifndef RCULIST_LIST_RCU_H
#define RCULIST_LIST_RCU_H

#include "compiler.h"
#include "types.h"
#include "debug.h"
#include "list.h"
#include "runtime.h"

/**
 * CDS_INIT_LIST_HEAD_RCU - make a list head empty while readers may load its links
 * @list: the head
 *
 * As CDS_INIT_LIST_HEAD(), with untorn stores: a reader loading @list's
 * next concurrently sees the old value or @list, never a torn pointer.
 *
 * Context: updater, holding the list's update lock; readers may run.
 * The elements that were on the list may still be in use by readers:
 * free them only after a grace period.
 */
static inline void CDS_INIT_LIST_HEAD_RCU(struct cds_list_head *list)
{
	rculist__store_once(list->next, list);
	rculist__store_once(list->prev, list);
}

/*
 * Link @newp between @prev and @next for concurrent readers.  @newp is
 * complete before either store that makes it reachable: prev->next
 * (forward readers) and next->prev (backward readers), both releases.
 */
static inline void __cds_list_add_rcu(struct cds_list_head *newp,
				      struct cds_list_head *prev,
				      struct cds_list_head *next)
{
	RCULIST__CHECK_ADD(newp, prev, next);
	newp->next = next;
	newp->prev = prev;
	rculist__publish(prev->next, newp);
	rculist__publish(next->prev, newp);
}

/**
 * cds_list_add_rcu - insert an element at the beginning of a list that readers walk
 * @newp: the element's link, on no list, fully initialised
 * @head: the list head (or an element: @newp goes after it)
 *
 * @newp is complete before the release stores that make it reachable
 * (prev->next for forward readers, next->prev for backward ones), so a
 * reader that finds it sees its contents.
 *
 * before: [h] <-> a          after: [h] <-> newp <-> a
 *
 * Context: updaters serialised by the caller (its own lock, or a single
 * updater), which need not be a registered reader; any number of readers
 * may walk the list concurrently inside read-side critical sections.
 */
static inline void cds_list_add_rcu(struct cds_list_head *newp,
				    struct cds_list_head *head)
{
	__cds_list_add_rcu(newp, head, head->next);
}

/**
 * cds_list_add_tail_rcu - insert an element at the end of a list that readers walk
 * @newp: the element's link, on no list, fully initialised
 * @head: the list head (or an element: @newp goes before it)
 *
 * before: [h] <-> a          after: [h] <-> a <-> newp
 *
 * Context: as cds_list_add_rcu(): updaters serialised by the caller,
 * readers concurrent.
 */
static inline void cds_list_add_tail_rcu(struct cds_list_head *newp,
					 struct cds_list_head *head)
{
	__cds_list_add_rcu(newp, head->prev, head);
}

/**
 * cds_list_del_rcu - remove an element from a list that readers walk
 * @elem: the element's link
 *
 * @elem's own next and prev are left intact: a reader standing on @elem
 * goes on to the rest of the list, in either direction.  The neighbours'
 * links are redirected with release stores: each gives readers a new way
 * to a neighbour, which may have been published just before (see the top
 * of this file).  Free @elem only after a grace period.
 *
 * before: [h] <-> a <-> b    after: [h] <-> b     (a still -> b, a <- h)
 *
 * Context: updaters serialised by the caller; readers concurrent.
 * Readers may still hold @elem: free or reuse it only after a grace
 * period (rculist_synchronize_rcu(), rculist_call_rcu(),
 * rculist_free_rcu()).
 */
static inline void cds_list_del_rcu(struct cds_list_head *elem)
{
	/* Loaded once: the stores below may alias them for the compiler. */
	struct cds_list_head *prev = elem->prev, *next = elem->next;

	RCULIST__CHECK_DEL(elem);
	rculist__publish(next->prev, prev);
	rculist__publish(prev->next, next);
	RCULIST__POISON_LIST_RCU(elem);
}

/**
 * cds_list_replace_rcu - put an element in the place of another in a list that readers walk
 * @old: the element to replace
 * @newp: its replacement, on no list, fully initialised
 *
 * A reader sees either @old or @newp, never neither: @newp is complete
 * before the release stores that link it in.  @old's next and prev are
 * left intact for readers standing on it.
 *
 * @old must be an element, not an empty head: as the kernel's
 * list_replace_rcu() and liburcu's cds_list_replace_rcu() do, an empty
 * head @old (or an element linked to itself) is not special-cased, and
 * is left pointing at @newp and @newp at it: a two-element circle with
 * no head, where a walk from either never ends.  To move a whole list to
 * a new head, use cds_list_replace_init() (no readers) or
 * cds_list_splice_init_rcu().
 *
 * @old is only read (it may be a pointer to const) unless it is empty.
 *
 * before: [h] <-> old <-> b  after: [h] <-> newp <-> b
 *
 * Context: updaters serialised by the caller; readers concurrent.  Free
 * @old only after a grace period.
 */
static inline void cds_list_replace_rcu(const struct cds_list_head *old,
					struct cds_list_head *newp)
{
	struct cds_list_head *before, *after;

	RCULIST__CHECK_DEL(old);
	before = old->prev;
	after = old->next;
	newp->next = after;
	newp->prev = before;
	rculist__publish(before->next, newp);
	rculist__publish(after->prev, newp);
	RCULIST__POISON_LIST_RCU(old);
}

/**
 * cds_list_bidir_del_rcu - remove an element from a list that readers walk in both directions
 * @elem: the element's link
 *
 * The kernel's list_del_rcu() poisons prev, so a list read backwards
 * with list_bidir_prev_rcu() must delete with list_bidir_del_rcu(),
 * which keeps it.  cds_list_del_rcu() keeps both links already (readers
 * may walk either way here): this is the same operation, under the
 * kernel's name.
 *
 * before: [h] <-> a <-> b    after: [h] <-> b     (a still -> b, a <- h)
 *
 * Context: as cds_list_del_rcu(): updaters serialised by the caller,
 * readers concurrent; free @elem only after a grace period.
 */
static inline void cds_list_bidir_del_rcu(struct cds_list_head *elem)
{
	cds_list_del_rcu(elem);
}

/**
 * cds_list_next_rcu - the next link of a list link, as an lvalue for rcu_dereference()
 * @list: a list head or link (evaluated once)
 *
 * The field itself, for code written with liburcu's rcu_dereference()
 * and rcu_assign_pointer(): "rcu_dereference(cds_list_next_rcu(pos))".
 * rculist's own accessors (cds_list_entry_rcu(),
 * cds_list_next_or_null_rcu()) load it for readers.
 *
 * Context: an lvalue: reading it is a reader's load (inside a read-side
 * critical section, through rcu_dereference()); assigning it is the
 * updater's, under its lock, through rcu_assign_pointer().
 */
#define cds_list_next_rcu(list)		((list)->next)

/**
 * cds_list_tail_rcu - the last link of a list, as an lvalue for rcu_dereference()
 * @head: the list head (evaluated once)
 *
 * head->prev: "rcu_dereference(cds_list_tail_rcu(head))" is the last
 * element's link, or @head when the list is empty.  Every _rcu
 * operation here publishes prev links with release stores, so this is a
 * reader's load like any other.
 *
 * Context: reader, inside a read-side critical section, through
 * rcu_dereference(); updaters under their lock.
 */
#define cds_list_tail_rcu(head)		((head)->prev)

/**
 * cds_list_bidir_prev_rcu - the previous link of a list link, as an lvalue for rcu_dereference()
 * @list: a list head or link (evaluated once)
 *
 * list->prev, for a reader walking backwards by hand:
 * "rcu_dereference(cds_list_bidir_prev_rcu(pos))".  In the kernel such a
 * list must be updated with list_bidir_del_rcu(); here every _rcu
 * operation keeps prev valid for readers (see
 * cds_list_for_each_entry_reverse_rcu() for the limits of a backward
 * walk).
 *
 * Context: reader, inside a read-side critical section, through
 * rcu_dereference().
 */
#define cds_list_bidir_prev_rcu(list)	((list)->prev)

/**
 * cds_list_splice_rcu - insert every element of a private list at the beginning of a list that readers walk
 * @list: a list no reader can reach (the caller's own), left stale
 * @head: the destination, which readers may be walking
 *
 * The kernel's list_splice_rcu(): no grace period, since no reader can
 * be inside @list.  The run is linked completely before the release store
 * of head->next publishes it to forward readers, then the old first
 * element's prev is pointed at its end with a second release store, for
 * backward readers.  @list itself is left as cds_list_splice() leaves it:
 * re-initialise it before reuse.  A @list that readers may be walking
 * needs cds_list_splice_init_rcu().
 *
 * before: [list] <-> x <-> y   [h] <-> a    after: [h] <-> x <-> y <-> a
 *
 * Context: updaters of @head serialised by the caller; readers of @head
 * concurrent.  Never blocks.
 */
static inline void cds_list_splice_rcu(struct cds_list_head *list,
				       struct cds_list_head *head)
{
	struct cds_list_head *first = list->next, *last = list->prev;
	struct cds_list_head *old_first = head->next;

	if (first == list)
		return;
	RCULIST__CHECK_SPLICE(list, head, old_first);
	last->next = old_first;
	first->prev = head;
	rculist__publish(head->next, first);
	rculist__publish(old_first->prev, last);
}

/* Splice non-empty @list between @prev and @next once readers have left it. */
static inline void __cds_list_splice_init_rcu(struct cds_list_head *list,
					      struct cds_list_head *prev,
					      struct cds_list_head *next)
	RCULIST_EXCLUDES_RCU
{
	struct cds_list_head *first = list->next;
	struct cds_list_head *last = list->prev;

	RCULIST__CHECK_SPLICE(list, prev, next);
	/*
	 * New readers of @list now see it empty.  Readers already inside it
	 * would, once its last element points into the destination, walk on
	 * and never meet @list again: wait until they have all left.
	 */
	CDS_INIT_LIST_HEAD_RCU(list);
	rculist_synchronize_rcu();

	last->next = next;
	first->prev = prev;
	rculist__publish(prev->next, first);
	rculist__publish(next->prev, last);
}

/**
 * cds_list_splice_init_rcu - move every element of a list to the beginning of another, with readers
 * @list: the list whose elements move, left empty
 * @head: the destination
 *
 * Empties @list for new readers, waits for a grace period (the
 * rculist_synchronize_rcu() of the flavour the program is linked with)
 * so that no reader is left inside it, then links its elements into
 * @head with release stores.  Unlike the kernel's list_splice_init_rcu()
 * there is no third argument: the grace period is always the library's.
 *
 * before: [list] <-> x <-> y   [h] <-> a    after: [list]   [h] <-> x <-> y <-> a
 *
 * Context: blocks for a grace period: never inside a read-side critical
 * section, nor under a lock that readers take.  Called inside the
 * caller's own section with @list not empty, it is reported (one line on
 * stderr naming it, then the error handler, abort() by default) before
 * it touches either list, and aborts if the handler returns: under
 * memb, bp and mb always, under qsbr with -DRCULIST_DEBUG (without it,
 * qsbr's grace period silently ends the caller's section).  The caller
 * serialises the updates of both lists; readers may walk either.
 */
static inline void cds_list_splice_init_rcu(struct cds_list_head *list,
					    struct cds_list_head *head)
	RCULIST_EXCLUDES_RCU
{
	if (!cds_list_empty(list) && !rculist__not_reading("cds_list_splice_init_rcu"))
		__cds_list_splice_init_rcu(list, head, head->next);
}

/**
 * cds_list_splice_tail_init_rcu - move every element of a list to the end of another, with readers
 * @list: the list whose elements move, left empty
 * @head: the destination
 *
 * before: [list] <-> x <-> y   [h] <-> a    after: [list]   [h] <-> a <-> x <-> y
 *
 * Context: as cds_list_splice_init_rcu(): blocks for a grace period;
 * inside the caller's own read-side critical section it is reported and
 * aborts, moving nothing (memb, bp and mb always, qsbr with
 * -DRCULIST_DEBUG).
 */
static inline void cds_list_splice_tail_init_rcu(struct cds_list_head *list,
						 struct cds_list_head *head)
	RCULIST_EXCLUDES_RCU
{
	if (!cds_list_empty(list) && !rculist__not_reading("cds_list_splice_tail_init_rcu"))
		__cds_list_splice_init_rcu(list, head->prev, head);
}

/**
 * cds_list_entry_rcu - the element a link points to, loaded once for a reader
 * @ptr: a link field, as an lvalue (head->next, pos->member.next)
 * @type: the elements' type
 * @member: the name of the link field in @type
 *
 * Loads @ptr once, dependency-ordered, and returns the enclosing
 * structure of the link loaded (the head computed as an element if it
 * is the head: compare with the head, or use cds_list_next_or_null_rcu()).
 *
 * Context: reader, inside a read-side critical section.
 * Return: a @type pointer.
 */
#define cds_list_entry_rcu(ptr, type, member)				\
	(RCULIST__RCU_READER(),						\
	 rculist__container_at(rculist__deref(ptr), type,		\
			       rculist__list_offsetof(type, member)))

static inline void *rculist__list_next_or_null_rcu(const struct cds_list_head *head,
						   struct cds_list_head *const *link,
						   size_t offset)
	RCULIST_REQUIRES_RCU
{
	RCULIST__CHECK_READER();
	return rculist__entry_or_null(head, rculist__deref(*link), offset);
}

/**
 * cds_list_first_or_null_rcu - the first element of a list, or NULL, for a reader
 * @ptr: the list head
 * @type: the elements' type
 * @member: the name of the link field in @type
 *
 * Reads the first link once and tests it with the same load, so the
 * answer is consistent even as updaters empty the list: the RCU
 * replacement for cds_list_empty() and cds_list_first_entry().
 *
 * Context: reader, inside a read-side critical section; updaters may run.
 * Return: a @type pointer, or NULL if the list was empty.
 */
#define cds_list_first_or_null_rcu(ptr, type, member)			\
	((type *)rculist__list_first_or_null_rcu(ptr,		\
					  rculist__list_offsetof(type, member)))
static inline void *rculist__list_first_or_null_rcu(const struct cds_list_head *head,
						    size_t offset)
	RCULIST_REQUIRES_RCU
{
	return rculist__list_next_or_null_rcu(head, &head->next, offset);
}

/**
 * cds_list_next_or_null_rcu - the element after a link, or NULL at the end, for a reader
 * @head: the list head
 * @ptr: a link of the list (the head, or an element's link field)
 * @type: the elements' type
 * @member: the name of the link field in @type
 *
 * Context: reader, inside a read-side critical section; updaters may run.
 * Return: a @type pointer, or NULL if @ptr was the last link.
 */
#define cds_list_next_or_null_rcu(head, ptr, type, member)		\
	((type *)rculist__list_next_or_null_rcu(head, &(ptr)->next,	\
						 rculist__list_offsetof(type, member)))

/*
 * The RCU iterators: callers are readers inside a read-side critical
 * section; updaters may add, delete and replace elements concurrently.
 * Each link is loaded once, dependency-ordered.
 */
#define rculist__for_each_entry_rcu(pos, start, head, member, dir, check, _h, _c) \
	for (struct cds_list_head *const _h = rculist__iter_head(head),	\
	     *_c = (check,						\
		    rculist__list_member_check(pos, member),		\
		    rculist__iter_head(start));				\
	     (pos) = cds_list_entry(_c, RCULIST__POINTEE(pos), member),	\
	     _c != _h;							\
	     _c = rculist__deref(_c->dir))
#define rculist__for_each_entry_rcu_h(pos, head, member, dir, check, _h, _c) \
	rculist__for_each_entry_rcu(pos, rculist__deref(_h->dir), head,	\
				    member, dir, check, _h, _c)

/**
 * cds_list_for_each_rcu - iterate over the links of a list, for a reader
 * @pos: the cursor, a struct cds_list_head pointer
 * @head: the list head (evaluated once)
 * @...: @head, then optionally @cond, a condition true when the caller
 *	holds the list's update lock, as for cds_list_for_each_entry_rcu()
 *
 * Each link is loaded once, dependency-ordered.
 *
 * Context: reader, inside a read-side critical section (under qsbr:
 * online); updaters may add, delete and replace elements concurrently.
 * The updater itself, under its lock, uses cds_list_for_each().
 */
#define cds_list_for_each_rcu(pos, ...)					\
	RCULIST__ITER_SITE(cds_list_for_each_rcu)			\
	rculist__for_each_rcu(pos, RCULIST__ARG1(__VA_ARGS__),		\
			      RCULIST__ITER_CHECK(__VA_ARGS__),		\
			      RCULIST__UNIQ(h), RCULIST__UNIQ(c))
#define rculist__for_each_rcu(pos, head, check, _h, _c)			\
	for (struct cds_list_head *const _h = rculist__iter_head(head),	\
	     *_c = (check, rculist__deref(_h->next));			\
	     ((pos) = _c) != _h;					\
	     _c = rculist__deref(_c->next))

/**
 * cds_list_for_each_entry_rcu - iterate over the elements of a list, for a reader
 * @pos: the cursor, a pointer to the element type
 * @head: the list head (evaluated once)
 * @member: the name of the link field in the element type
 * @...: @member, then optionally @cond: a condition, true when the
 *	caller is an updater holding the lock that serialises the list's
 *	updates (the kernel's lockdep_is_held(&lock) argument)
 *
 * Each link is loaded once, dependency-ordered.  The walk may see
 * elements added or removed while it runs, never freed ones.
 *
 * Given @cond, the walk may also be made outside a read-side critical
 * section, by an updater holding the lock (a lookup shared by readers
 * and updaters): clang's thread-safety analysis accepts it, and debug
 * mode (-DRCULIST_DEBUG) evaluates @cond and reports the walk only if
 * it is false outside a section.  Without debug mode @cond is compiled
 * but never evaluated.  Every _rcu iterator takes the same optional
 * last argument; liburcu's forms, without it, are unchanged.
 *
 * Context: reader, inside a read-side critical section (under qsbr:
 * online); updaters may run concurrently.  Or, given @cond, the updater
 * holding the list's lock.  Debug mode and clang -Wthread-safety report
 * a use outside a section without @cond (docs/thread-safety.md).
 */
#define cds_list_for_each_entry_rcu(pos, head, ...)			\
	RCULIST__ITER_SITE(cds_list_for_each_entry_rcu)			\
	rculist__for_each_entry_rcu_h(pos, head, RCULIST__ARG1(__VA_ARGS__), \
				      next, RCULIST__ITER_CHECK(__VA_ARGS__), \
				      RCULIST__UNIQ(h), RCULIST__UNIQ(c))

/**
 * cds_list_for_each_entry_reverse_rcu - iterate over the elements of a list, last to first, for a reader
 * @pos: the cursor, a pointer to the element type
 * @head: the list head (evaluated once)
 * @member: the name of the link field
 * @...: @member, then optionally @cond, as for cds_list_for_each_entry_rcu()
 *
 * Safe concurrently with cds_list_add_rcu(), cds_list_add_tail_rcu(),
 * cds_list_del_rcu() and cds_list_replace_rcu().  Not safe against the
 * plain (non-_rcu) operations, against
 * cds_list_splice_init_rcu()/cds_list_splice_tail_init_rcu() into a list
 * being walked backwards (the spliced run's prev links are published
 * last, so a backward reader may skip the run, never see a torn one), nor
 * against moving an element to another list without a grace period in
 * between (true of forward readers too).  A backward walk that meets an
 * element deleted while it stood on it goes on from that element's old
 * prev, which may itself have been deleted: like a forward walk, it may
 * see elements removed during the walk, never freed ones.
 *
 * Context: reader, inside a read-side critical section; updaters may
 * run, with the limits above.
 */
#define cds_list_for_each_entry_reverse_rcu(pos, head, ...)		\
	RCULIST__ITER_SITE(cds_list_for_each_entry_reverse_rcu)		\
	rculist__for_each_entry_rcu_h(pos, head, RCULIST__ARG1(__VA_ARGS__), \
				      prev, RCULIST__ITER_CHECK(__VA_ARGS__), \
				      RCULIST__UNIQ(h), RCULIST__UNIQ(c))

/**
 * cds_list_for_each_entry_continue_rcu - go on iterating after the current element, for a reader
 * @pos: the cursor, at an element reached in the same read-side section
 * @head: the list head (evaluated once)
 * @member: the name of the link field
 * @...: @member, then optionally @cond, as for cds_list_for_each_entry_rcu()
 *
 * Context: reader, inside the read-side critical section in which @pos
 * was found; updaters may run.
 */
#define cds_list_for_each_entry_continue_rcu(pos, head, ...)		\
	RCULIST__ITER_SITE(cds_list_for_each_entry_continue_rcu)	\
	rculist__for_each_entry_continue_rcu(pos, head,			\
		RCULIST__ARG1(__VA_ARGS__), RCULIST__ITER_CHECK(__VA_ARGS__))
#define rculist__for_each_entry_continue_rcu(pos, head, member, check)	\
	rculist__for_each_entry_rcu(pos,					\
		rculist__deref(rculist__list_link(pos, member)->next),	\
				    head, member, next, check,		\
				    RCULIST__UNIQ(h), RCULIST__UNIQ(c))

/**
 * cds_list_for_each_entry_from_rcu - iterate from the current element on, for a reader
 * @pos: the cursor, at the first element to visit, reached in the same section
 * @head: the list head (evaluated once)
 * @member: the name of the link field
 * @...: @member, then optionally @cond, as for cds_list_for_each_entry_rcu()
 *
 * Context: reader, inside the read-side critical section in which @pos
 * was found; updaters may run.
 */
#define cds_list_for_each_entry_from_rcu(pos, head, ...)		\
	RCULIST__ITER_SITE(cds_list_for_each_entry_from_rcu)		\
	rculist__for_each_entry_from_rcu(pos, head,			\
		RCULIST__ARG1(__VA_ARGS__), RCULIST__ITER_CHECK(__VA_ARGS__))
#define rculist__for_each_entry_from_rcu(pos, head, member, check)	\
	rculist__for_each_entry_rcu(pos, rculist__list_link(pos, member), \
				    head, member,			\
				    next, check,			\
				    RCULIST__UNIQ(h), RCULIST__UNIQ(c))

#endif /* RCULIST_LIST_RCU_H */
