/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/hlist_rcu.h - linear lists shared with concurrent RCU readers.
 *
 * The contract, for every operation in this file:
 *  - Updaters: the caller serialises all updates of one list (one hash
 *    bucket, typically) with its own lock; updaters need not be
 *    registered as RCU readers.
 *  - Readers: any number of threads may walk the list concurrently with
 *    the _rcu iterators inside a read-side critical section.  Readers only
 *    follow next links; prev is the updaters' business.
 *  - Memory: a node removed or replaced here may still be in use by
 *    readers; free or reuse it only after a grace period.
 *
 * Ordering: a node becomes reachable through one release store of the
 * next link that leads to it, made after the node is complete; readers
 * load next links dependency-ordered.  Removing a node links its
 * predecessor to its successor with a release store too: that successor
 * may have been added just before, and a plain store could overtake its
 * publication on a weakly ordered CPU.  Stores of prev links need none.
 */
#ifndef RCULIST_HLIST_RCU_H
#define RCULIST_HLIST_RCU_H

#include "compiler.h"
#include "types.h"
#include "debug.h"
#include "hlist.h"

/**
 * cds_hlist_add_head_rcu - insert a node at the beginning of an hlist that readers walk
 * @newp: the node, on no list, fully initialised
 * @head: the head
 *
 * @newp is complete before the release store of head->next publishes it.
 *
 * before: [h] -> a           after: [h] -> newp <-> a
 *
 * Context: updaters of the list (one hash bucket, typically) serialised
 * by the caller, which need not be a registered reader; readers may walk
 * the list concurrently inside read-side critical sections.
 */
static inline void cds_hlist_add_head_rcu(struct cds_hlist_node *newp,
					  struct cds_hlist_head *head)
{
	struct cds_hlist_node *first = head->next;

	RCULIST__CHECK_HADD(newp, rculist__hlist_head_node(head), first);
	newp->next = first;
	rculist__store_once(newp->prev, rculist__hlist_head_node(head));
	if (first)
		rculist__store_once(first->prev, newp);
	rculist__publish(head->next, newp);
}

/**
 * cds_hlist_add_before_rcu - insert a node just before another, with readers
 * @n: the node to insert, on no list, fully initialised
 * @next: a node on the list
 *
 * before: [h] -> a <-> next  after: [h] -> a <-> n <-> next
 *
 * Context: as cds_hlist_add_head_rcu().
 */
static inline void cds_hlist_add_before_rcu(struct cds_hlist_node *n,
					    struct cds_hlist_node *next)
{
	struct cds_hlist_node *prev = next->prev;

	RCULIST__CHECK_HADD(n, prev, next);
	rculist__store_once(n->prev, prev);
	n->next = next;
	rculist__store_once(next->prev, n);
	rculist__publish(*rculist__hlist_next(prev), n);
}

/**
 * cds_hlist_add_behind_rcu - insert a node just after another, with readers
 * @n: the node to insert, on no list, fully initialised
 * @prev: a node on the list
 *
 * before: [h] -> prev <-> b  after: [h] -> prev <-> n <-> b
 *
 * Context: as cds_hlist_add_head_rcu().
 */
static inline void cds_hlist_add_behind_rcu(struct cds_hlist_node *n,
					    struct cds_hlist_node *prev)
{
	struct cds_hlist_node *next = *rculist__hlist_next(prev);

	RCULIST__CHECK_HADD(n, prev, next);
	n->next = next;
	rculist__store_once(n->prev, prev);
	rculist__publish(*rculist__hlist_next(prev), n);
	if (next)
		rculist__store_once(next->prev, n);
}

/**
 * cds_hlist_add_tail_rcu - append a node to an hlist that readers walk
 * @n: the node, on no list, fully initialised
 * @head: the head
 *
 * O(length): it walks to the last node.
 *
 * before: [h] -> a           after: [h] -> a <-> n
 *
 * Context: as cds_hlist_add_head_rcu().
 */
static inline void cds_hlist_add_tail_rcu(struct cds_hlist_node *n,
					  struct cds_hlist_head *head)
{
	struct cds_hlist_node *last = rculist__hlist_head_node(head);

	while (*rculist__hlist_next(last))
		last = *rculist__hlist_next(last);
	cds_hlist_add_behind_rcu(n, last);
}

/**
 * cds_hlist_del_rcu - remove a node from an hlist that readers walk
 * @elem: the node, on the list
 *
 * @elem->next is left intact, so a reader standing on @elem goes on to
 * the rest of the list; prev is stale (poisoned in debug mode).
 *
 * before: [h] -> a <-> b     after: [h] -> b      (a still -> b)
 *
 * Context: updaters serialised by the caller; readers concurrent.  Free
 * or reuse @elem only after a grace period.
 */
static inline void cds_hlist_del_rcu(struct cds_hlist_node *elem)
{
	struct cds_hlist_node *next = elem->next;

	RCULIST__CHECK_HDEL(elem);
	if (next)
		rculist__store_once(next->prev, elem->prev);
	rculist__publish(*rculist__hlist_next(elem->prev), next);
	RCULIST__POISON_HLIST_RCU(elem);
}

/**
 * cds_hlist_del_init_rcu - remove a node, if on a list, and mark it unhashed, with readers
 * @elem: the node
 *
 * prev becomes NULL (cds_hlist_unhashed() is true) while next is left
 * intact for readers standing on @elem.  Does nothing to an unhashed node.
 *
 * before: [h] -> a <-> b     after: [h] -> b      (a unhashed, still -> b)
 *
 * Context: updaters serialised by the caller; readers concurrent.  Free
 * @elem only after a grace period.
 */
static inline void cds_hlist_del_init_rcu(struct cds_hlist_node *elem)
{
	if (!cds_hlist_unhashed(elem)) {
		struct cds_hlist_node *next = elem->next;

		RCULIST__CHECK_HDEL(elem);
		if (next)
			rculist__store_once(next->prev, elem->prev);
		rculist__publish(*rculist__hlist_next(elem->prev), next);
		rculist__store_once(elem->prev, NULL);
	}
}

/**
 * cds_hlist_replace_rcu - put a node in the place of another, with readers
 * @old: the node to replace
 * @newn: its replacement, on no list, fully initialised
 *
 * Readers see @old or @newn, never neither.  @old->next is left intact.
 *
 * before: [h] -> old <-> b   after: [h] -> newn <-> b
 *
 * Context: updaters serialised by the caller; readers concurrent.  Free
 * @old only after a grace period.
 */
static inline void cds_hlist_replace_rcu(struct cds_hlist_node *old,
					 struct cds_hlist_node *newn)
{
	struct cds_hlist_node *next = old->next;

	RCULIST__CHECK_HDEL(old);
	newn->next = next;
	rculist__store_once(newn->prev, old->prev);
	rculist__publish(*rculist__hlist_next(newn->prev), newn);
	if (next)
		rculist__store_once(next->prev, newn);
	RCULIST__POISON_HLIST_RCU(old);
}

/**
 * cds_hlists_swap_heads_rcu - exchange the nodes of two hlists that readers walk
 * @left: a head
 * @right: another head
 *
 * Each head is pointed at the other's first node with a release store,
 * then the first nodes' prev links are fixed.  A reader walking either
 * list sees all of one list or all of the other.  Either list may be
 * empty.
 *
 * before: [l] -> a   [r] -> b <-> c    after: [l] -> b <-> c   [r] -> a
 *
 * Context: the caller holds the update locks of both lists; readers
 * concurrent.
 */
static inline void cds_hlists_swap_heads_rcu(struct cds_hlist_head *left,
					     struct cds_hlist_head *right)
{
	struct cds_hlist_node *node1 = left->next, *node2 = right->next;

	rculist__publish(left->next, node2);
	rculist__publish(right->next, node1);
	if (node2)
		rculist__store_once(node2->prev, rculist__hlist_head_node(left));
	if (node1)
		rculist__store_once(node1->prev, rculist__hlist_head_node(right));
}

/**
 * cds_hlist_first_rcu - the first link of an hlist, as an lvalue for rcu_dereference()
 * @head: the head (evaluated once)
 *
 * head->next (the kernel's first): "rcu_dereference(cds_hlist_first_rcu(h))".
 *
 * Context: reader, inside a read-side critical section, through
 * rcu_dereference(); updaters under their lock, through
 * rcu_assign_pointer().
 */
#define cds_hlist_first_rcu(head)	((head)->next)

/**
 * cds_hlist_next_rcu - the next link of an hlist node, as an lvalue for rcu_dereference()
 * @node: the node (evaluated once)
 *
 * Context: as cds_hlist_first_rcu().
 */
#define cds_hlist_next_rcu(node)	((node)->next)

/**
 * cds_hlist_pprev_rcu - the link that leads to an hlist node, as an lvalue
 * @node: a node on a list (evaluated once)
 *
 * The previous node's next, or the head's: what the kernel's
 * *node->pprev names (rculist's node keeps a prev node pointer instead),
 * for "rcu_assign_pointer(cds_hlist_pprev_rcu(old), newn)".
 *
 * Context: the updater, under the list's update lock.
 */
#define cds_hlist_pprev_rcu(node)	(*rculist__hlist_next((node)->prev))

/* The entry of the node loaded from the link @link, typed like @entry. */
#define rculist__hlist_entry_rcu_as(entry, link, member)		\
	rculist__hlist_entry_as(entry, rculist__deref(link), member)

/**
 * cds_hlist_for_each_rcu - iterate over the nodes of an hlist, for a reader
 * @pos: the cursor, a struct cds_hlist_node pointer, NULL at the end
 * @head: the head
 * @...: @head, then optionally @cond, as for cds_list_for_each_entry_rcu()
 *
 * Context: reader, inside a read-side critical section (under qsbr:
 * online); updaters may run concurrently.
 */
#define cds_hlist_for_each_rcu(pos, ...)				\
	RCULIST__ITER_SITE(cds_hlist_for_each_rcu)			\
	rculist__hlist_for_each_rcu(pos, RCULIST__ARG1(__VA_ARGS__),	\
				    RCULIST__ITER_CHECK(__VA_ARGS__))
#define rculist__hlist_for_each_rcu(pos, head, check)			\
	for ((pos) = (check, rculist__deref((head)->next));		\
	     (pos) != NULL;						\
	     (pos) = rculist__deref((pos)->next))

/**
 * cds_hlist_for_each_entry_rcu - iterate over the elements of an hlist, for a reader
 * @...: (entry, head, member), the kernel's three arguments, or (entry,
 *	pos, head, member), liburcu's four, optionally followed by cond, as
 *	for cds_list_for_each_entry_rcu(): entry, the cursor, a pointer to
 *	the element type; pos, a struct cds_hlist_node pointer; head, the
 *	head; member, the name of the node field in the element type
 *
 * The kernel's form (hlist_for_each_entry_rcu(pos, head, member)) is
 * cds_hlist_for_each_entry_rcu_2(): entry is NULL at the end.  In
 * liburcu's, pos is NULL at the end and entry is computed only from a
 * non-NULL pos.  The count of arguments tells the two apart, so the
 * kernel's form with a condition (four arguments) reads as liburcu's:
 * write it cds_hlist_for_each_entry_rcu_2(entry, head, member, cond).
 *
 * Context: reader, inside a read-side critical section; updaters may
 * run concurrently.
 */
#define cds_hlist_for_each_entry_rcu(...)				\
	rculist__hlist_pick(__VA_ARGS__,				\
			    rculist__hlist_for_each_entry_rcu_pos,	\
			    rculist__hlist_for_each_entry_rcu_pos,	\
			    rculist__hlist_for_each_entry_rcu_3,	\
			    rculist__hlist_too_few_arguments, )(__VA_ARGS__)
#define rculist__hlist_for_each_entry_rcu_3(entry, head, ...)		\
	RCULIST__ITER_SITE(cds_hlist_for_each_entry_rcu)		\
	rculist__hlist_for_each_entry_rcu_2(entry, head, __VA_ARGS__,	\
		RCULIST__ITER_CHECK(__VA_ARGS__))
#define rculist__hlist_for_each_entry_rcu_pos(entry, pos, head, ...)	\
	RCULIST__ITER_SITE(cds_hlist_for_each_entry_rcu)		\
	rculist__hlist_for_each_entry_rcu(entry, pos, head,		\
		RCULIST__ARG1(__VA_ARGS__), RCULIST__ITER_CHECK(__VA_ARGS__))
#define rculist__hlist_for_each_entry_rcu(entry, pos, head, member, check) \
	for ((pos) = (check, rculist__deref((head)->next));		\
	     (pos) != NULL &&						\
	     ((entry) = cds_hlist_entry(pos, RCULIST__POINTEE(entry), member), 1); \
	     (pos) = rculist__deref((pos)->next))

/**
 * cds_hlist_for_each_entry_rcu_2 - iterate over the elements of an hlist, for a reader
 * @entry: the cursor, a pointer to the element type, NULL at the end
 * @head: the head
 * @member: the name of the node field in the element type
 * @...: @member, then optionally @cond, as for cds_list_for_each_entry_rcu()
 *
 * The kernel's hlist_for_each_entry_rcu(pos, head, member, cond), @cond
 * optional there too.
 *
 * Context: reader, inside a read-side critical section (under qsbr:
 * online); updaters may run concurrently.
 */
#define cds_hlist_for_each_entry_rcu_2(entry, head, ...)		\
	RCULIST__ITER_SITE(cds_hlist_for_each_entry_rcu_2)		\
	rculist__hlist_for_each_entry_rcu_2(entry, head,		\
		RCULIST__ARG1(__VA_ARGS__), RCULIST__ITER_CHECK(__VA_ARGS__))
#define rculist__hlist_for_each_entry_rcu_2(entry, head, member, check)	\
	for ((entry) = (check,						\
		rculist__hlist_entry_rcu_as(entry, (head)->next, member)); \
	     (entry) != NULL;						\
	     (entry) = rculist__hlist_entry_rcu_as(entry, (entry)->member.next, member))

/**
 * cds_hlist_for_each_entry_continue_rcu - go on iterating after the current element, for a reader
 * @entry: the cursor, at an element found in the same section; NULL at the end
 * @member: the name of the node field
 * @...: @member, then optionally @cond, as for cds_list_for_each_entry_rcu()
 *
 * Context: reader, inside the read-side critical section in which
 * @entry was found; updaters may run.
 */
#define cds_hlist_for_each_entry_continue_rcu(entry, ...)		\
	RCULIST__ITER_SITE(cds_hlist_for_each_entry_continue_rcu)	\
	rculist__hlist_for_each_entry_continue_rcu(entry,		\
		RCULIST__ARG1(__VA_ARGS__), RCULIST__ITER_CHECK(__VA_ARGS__))
#define rculist__hlist_for_each_entry_continue_rcu(entry, member, check) \
	for ((entry) = (check,						\
		rculist__hlist_entry_rcu_as(entry, (entry)->member.next, member)); \
	     (entry) != NULL;						\
	     (entry) = rculist__hlist_entry_rcu_as(entry, (entry)->member.next, member))

/**
 * cds_hlist_for_each_entry_from_rcu - iterate from the current element on, for a reader
 * @entry: the cursor, at the first element to visit (or NULL); NULL at the end
 * @member: the name of the node field
 * @...: @member, then optionally @cond, as for cds_list_for_each_entry_rcu()
 *
 * Context: reader, inside the read-side critical section in which
 * @entry was found; updaters may run.
 */
#define cds_hlist_for_each_entry_from_rcu(entry, ...)			\
	RCULIST__ITER_SITE(cds_hlist_for_each_entry_from_rcu)		\
	rculist__hlist_for_each_entry_from_rcu(entry,			\
		RCULIST__ARG1(__VA_ARGS__), RCULIST__ITER_CHECK(__VA_ARGS__))
#define rculist__hlist_for_each_entry_from_rcu(entry, member, check)	\
	for (check; (entry) != NULL;					\
	     (entry) = rculist__hlist_entry_rcu_as(entry, (entry)->member.next, member))

#endif /* RCULIST_HLIST_RCU_H */
