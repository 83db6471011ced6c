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
 * load each link with a dependency-ordered load.  Stores to links that
 * lead to objects readers could already reach need no ordering, only to
 * be untorn.  Both next and prev are published this way, so readers may
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
 * CDS_INIT_LIST_HEAD_RCU - make @list empty while readers may be loading
 * its links: both stores are untorn.
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
 * cds_list_add_rcu - insert @newp at the beginning of @head, with readers
 * walking the list.  Updaters serialised by the caller; readers may run
 * concurrently; the caller need not be a registered reader.
 *
 * before: [h] <-> a          after: [h] <-> newp <-> a
 */
static inline void cds_list_add_rcu(struct cds_list_head *newp,
				    struct cds_list_head *head)
{
	__cds_list_add_rcu(newp, head, head->next);
}

/**
 * cds_list_add_tail_rcu - insert @newp at the end of @head, with readers
 * walking the list.  Same contract as cds_list_add_rcu().
 *
 * before: [h] <-> a          after: [h] <-> a <-> newp
 */
static inline void cds_list_add_tail_rcu(struct cds_list_head *newp,
					 struct cds_list_head *head)
{
	__cds_list_add_rcu(newp, head->prev, head);
}

/**
 * cds_list_del_rcu - remove @elem from its list, with readers walking it.
 *
 * @elem's own next and prev are left intact: a reader standing on @elem
 * goes on to the rest of the list, in either direction.  The neighbours'
 * links are redirected with untorn stores; no ordering is needed, since
 * they now point at elements readers could already reach.  Free @elem
 * only after a grace period.
 *
 * before: [h] <-> a <-> b    after: [h] <-> b     (a still -> b, a <- h)
 */
static inline void cds_list_del_rcu(struct cds_list_head *elem)
{
	/* Loaded once: the stores below may alias them for the compiler. */
	struct cds_list_head *prev = elem->prev, *next = elem->next;

	RCULIST__CHECK_DEL(elem);
	rculist__store_once(next->prev, prev);
	rculist__store_once(prev->next, next);
	RCULIST__POISON_LIST_RCU(elem);
}

/**
 * cds_list_replace_rcu - put @newp where @old is, with readers walking the
 * list.  A reader sees either @old or @newp, never neither: @newp is
 * complete before the release stores that link it in.  @old's next and
 * prev are left intact; free @old only after a grace period.
 *
 * before: [h] <-> old <-> b  after: [h] <-> newp <-> b
 */
static inline void cds_list_replace_rcu(struct cds_list_head *old,
					struct cds_list_head *newp)
{
	RCULIST__CHECK_DEL(old);
	newp->next = old->next;
	newp->prev = old->prev;
	rculist__publish(newp->prev->next, newp);
	rculist__publish(newp->next->prev, newp);
	RCULIST__POISON_LIST_RCU(old);
}

/* Splice non-empty @list between @prev and @next once readers have left it. */
static inline void __cds_list_splice_init_rcu(struct cds_list_head *list,
					      struct cds_list_head *prev,
					      struct cds_list_head *next)
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
 * cds_list_splice_init_rcu - move every element of @list to the beginning
 * of @head, leaving @list empty, while readers may walk either list.
 *
 * Blocks: it waits for a grace period (rculist_synchronize_rcu() of the
 * flavour the program is linked with) between emptying @list and linking
 * its elements into @head.  So it must not be called inside a read-side
 * critical section, nor under a lock that readers take.  The caller
 * serialises the updates of both lists.
 *
 * before: [list] <-> x <-> y   [h] <-> a    after: [list]   [h] <-> x <-> y <-> a
 */
static inline void cds_list_splice_init_rcu(struct cds_list_head *list,
					    struct cds_list_head *head)
{
	if (!cds_list_empty(list) && !rculist__not_reading("cds_list_splice_init_rcu"))
		__cds_list_splice_init_rcu(list, head, head->next);
}

/* cds_list_splice_tail_init_rcu - the same, at the end of @head. */
static inline void cds_list_splice_tail_init_rcu(struct cds_list_head *list,
						 struct cds_list_head *head)
{
	if (!cds_list_empty(list) && !rculist__not_reading("cds_list_splice_tail_init_rcu"))
		__cds_list_splice_init_rcu(list, head->prev, head);
}

/*
 * cds_list_entry_rcu - the element whose link field @ptr (an lvalue, such
 * as head->next) points to, loading @ptr once for a reader.
 */
#define cds_list_entry_rcu(ptr, type, member) \
	rculist__container_at(rculist__deref(ptr), type,		\
			      rculist__list_offsetof(type, member))

static inline void *rculist__list_next_or_null_rcu(const struct cds_list_head *head,
						   struct cds_list_head *const *link,
						   size_t offset)
{
	RCULIST__CHECK_READER();
	return rculist__entry_or_null(head, rculist__deref(*link), offset);
}

/**
 * cds_list_first_or_null_rcu - the first element of @ptr as a @type, or
 * NULL if the list is empty, with one load (readers, in a read-side
 * critical section).
 */
#define cds_list_first_or_null_rcu(ptr, type, member)			\
	((type *)rculist__list_first_or_null_rcu(ptr,		\
					  rculist__list_offsetof(type, member)))
static inline void *rculist__list_first_or_null_rcu(const struct cds_list_head *head,
						    size_t offset)
{
	return rculist__list_next_or_null_rcu(head, &head->next, offset);
}

/**
 * cds_list_next_or_null_rcu - the element after the link @ptr on the list
 * @head, as a @type, or NULL if @ptr is the last (readers).
 */
#define cds_list_next_or_null_rcu(head, ptr, type, member)		\
	((type *)rculist__list_next_or_null_rcu(head, &(ptr)->next,	\
						 rculist__list_offsetof(type, member)))

/*
 * The RCU iterators: callers are readers inside a read-side critical
 * section; updaters may add, delete and replace elements concurrently.
 * Each link is loaded once, dependency-ordered.
 */
#define rculist__for_each_entry_rcu(pos, start, head, member, dir, _h, _c) \
	for (struct cds_list_head *const _h = rculist__iter_head(head),	\
	     *_c = (RCULIST__CHECK_READER(),				\
		    rculist__list_member_check(pos, member), (start));	\
	     (pos) = cds_list_entry(_c, RCULIST__POINTEE(pos), member),	\
	     _c != _h;							\
	     _c = rculist__deref(_c->dir))
#define rculist__for_each_entry_rcu_h(pos, head, member, dir, _h, _c)	\
	rculist__for_each_entry_rcu(pos, rculist__deref(_h->dir), head,	\
				    member, dir, _h, _c)

/* cds_list_for_each_rcu - iterate @pos (struct cds_list_head *) over @head. */
#define cds_list_for_each_rcu(pos, head)				\
	RCULIST__ITER_SITE(cds_list_for_each_rcu)	\
	rculist__for_each_rcu(pos, head, RCULIST__UNIQ(h), RCULIST__UNIQ(c))
#define rculist__for_each_rcu(pos, head, _h, _c)			\
	for (struct cds_list_head *const _h = rculist__iter_head(head),	\
	     *_c = (RCULIST__CHECK_READER(), rculist__deref(_h->next));	\
	     ((pos) = _c) != _h;					\
	     _c = rculist__deref(_c->next))

/* cds_list_for_each_entry_rcu - iterate @pos over @head's elements. */
#define cds_list_for_each_entry_rcu(pos, head, member)			\
	RCULIST__ITER_SITE(cds_list_for_each_entry_rcu)	\
	rculist__for_each_entry_rcu_h(pos, head, member, next,		\
				      RCULIST__UNIQ(h), RCULIST__UNIQ(c))

/**
 * cds_list_for_each_entry_reverse_rcu - iterate @pos over @head's elements
 * from last to first, concurrently with cds_list_add_rcu(),
 * cds_list_add_tail_rcu(), cds_list_del_rcu() and cds_list_replace_rcu().
 *
 * Not safe against the plain (non-_rcu) operations, against
 * cds_list_splice_init_rcu()/cds_list_splice_tail_init_rcu() into a list
 * being walked backwards (the spliced run's prev links are published
 * last, so a backward reader may skip the run, never see a torn one), nor
 * against moving an element to another list without a grace period in
 * between (true of forward readers too).  A backward walk that meets an
 * element deleted while it stood on it goes on from that element's old
 * prev, which may itself have been deleted: like a forward walk, it may
 * see elements removed during the walk, never freed ones.
 */
#define cds_list_for_each_entry_reverse_rcu(pos, head, member)		\
	RCULIST__ITER_SITE(cds_list_for_each_entry_reverse_rcu)	\
	rculist__for_each_entry_rcu_h(pos, head, member, prev,		\
				      RCULIST__UNIQ(h), RCULIST__UNIQ(c))

/* Continue after the current @pos (readers). */
#define cds_list_for_each_entry_continue_rcu(pos, head, member)		\
	RCULIST__ITER_SITE(cds_list_for_each_entry_continue_rcu)	\
	rculist__for_each_entry_rcu(pos, rculist__deref((pos)->member.next), \
				    head, member, next,			\
				    RCULIST__UNIQ(h), RCULIST__UNIQ(c))

/* Iterate from the current @pos itself (readers). */
#define cds_list_for_each_entry_from_rcu(pos, head, member)		\
	RCULIST__ITER_SITE(cds_list_for_each_entry_from_rcu)	\
	rculist__for_each_entry_rcu(pos, &(pos)->member, head,		\
				    member, next,			\
				    RCULIST__UNIQ(h), RCULIST__UNIQ(c))

#endif /* RCULIST_LIST_RCU_H */
