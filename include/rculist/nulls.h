/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/nulls.h - linear lists that end with a "nulls" marker, for hash
 * tables whose elements live in type-stable memory.
 *
 * A nulls list is an hlist (one-pointer head; each node's prev points to
 * the previous node or to the head, NULL prev = on no list) whose last
 * next is not NULL but an odd value, ((value << 1) | 1), that no node
 * address can take.  A hash table gives each bucket its own value,
 * typically the bucket's index: CDS_INIT_HLIST_NULLS_HEAD(&tab[i], i).
 *
 * What for.  With ordinary RCU lists an element removed from a list may
 * be freed or reused only after a grace period.  A table that recycles
 * its elements at once - the memory is never returned to the allocator,
 * only moved between buckets or through a free pool ("type-stable
 * memory", the kernel's SLAB_TYPESAFE_BY_RCU) - saves the wait, but a
 * reader standing on an element may see it move: the element's next now
 * leads into another bucket, and the reader walks on in the wrong chain
 * and may miss the key it looks for.  The end marker tells it so: a
 * reader that finishes its walk at the marker of another bucket than the
 * one it started in restarts the lookup.  Matching elements can be
 * recycled under it as well, so after a match the reader checks the key
 * again (or takes a reference and then checks it).  The pattern:
 *
 *	rculist_read_lock();
 *   again:
 *	cds_hlist_nulls_for_each_entry_rcu(e, pos, &tab[b], node) {
 *		if (load(e->key) == key && validate(e, key))
 *			goto found;
 *	}
 *	if (cds_get_nulls_value(pos) != b)
 *		goto again;
 *	e = NULL;
 *   found:
 *	rculist_read_unlock();
 *
 * For this to hold, an updater that recycles an element changes its key
 * only while the element is on no list, and writes the key before
 * cds_hlist_nulls_add_head_rcu() (or _add_tail_rcu()) publishes it again;
 * the element's memory stays an element of the same type for as long as
 * any reader may hold a pointer to it.  An element that leaves the table
 * for good, or memory returned to the allocator, still needs a grace
 * period as usual.
 *
 * Exclusion, as in <rculist/hlist_rcu.h>: the caller serialises every
 * update of one list with its own lock (a lock per bucket; moving an
 * element takes the old bucket's lock to delete, the new one's to add).
 * The plain operations (cds_hlist_nulls_add_head, _del, the plain
 * iterator) also exclude readers; the _rcu ones let readers walk the
 * list concurrently inside a read-side critical section.
 */
#ifndef RCULIST_NULLS_H
#define RCULIST_NULLS_H

#include <stdint.h>

#include "compiler.h"
#include "debug.h"

struct cds_hlist_nulls_node;

/* The head of a nulls list: its next is the first node or the marker. */
struct cds_hlist_nulls_head {
	struct cds_hlist_nulls_node *next;
};

/* The link embedded in each element; prev as in struct cds_hlist_node. */
struct cds_hlist_nulls_node {
	struct cds_hlist_nulls_node *next, *prev;
};

/*
 * offsetof(@type, @member), refused at compile time unless @member is a
 * struct cds_hlist_nulls_node (see RCULIST__MEMBER_OFFSETOF in compiler.h).
 */
#define RCULIST__NULLS_MEMBER_MSG "member is not a struct cds_hlist_nulls_node"
RCULIST__DEFINE_MEMBER_CHECK(rculist__member_is_not_a_struct_cds_hlist_nulls_node,
			     struct cds_hlist_nulls_node, RCULIST__NULLS_MEMBER_MSG)
#define rculist__nulls_offsetof(type, member)				\
	RCULIST__MEMBER_OFFSETOF(type, member,				\
				 rculist__member_is_not_a_struct_cds_hlist_nulls_node,	\
				 struct cds_hlist_nulls_node, RCULIST__NULLS_MEMBER_MSG)

/* The end marker of value @value, as a node pointer (odd: never a node). */
static inline struct cds_hlist_nulls_node *rculist__nulls_marker(unsigned long value)
{
	return (struct cds_hlist_nulls_node *)(((uintptr_t)value << 1) | 1);
}

/* cds_is_a_nulls - whether @ptr, a next link, is an end marker. */
static inline int cds_is_a_nulls(const struct cds_hlist_nulls_node *ptr)
{
	return (int)((uintptr_t)ptr & 1);
}

/* cds_get_nulls_value - the value of the end marker @ptr. */
static inline unsigned long cds_get_nulls_value(const struct cds_hlist_nulls_node *ptr)
{
	return (unsigned long)((uintptr_t)ptr >> 1);
}

/*
 * CDS_INIT_HLIST_NULLS_HEAD - make @head an empty list whose end marker
 * has value @nulls (at most ULONG_MAX >> 1).  Not for a list that readers
 * may be walking.
 */
static inline void CDS_INIT_HLIST_NULLS_HEAD(struct cds_hlist_nulls_head *head,
					     unsigned long nulls)
{
	head->next = rculist__nulls_marker(nulls);
}

/*
 * The structure of type @type whose cds_hlist_nulls_node field @member is
 * at @ptr.  @ptr must be a node, never a marker (test cds_is_a_nulls()).
 * A @member of another type does not compile.
 */
#define cds_hlist_nulls_entry(ptr, type, member)			\
	rculist__container_at(ptr, type, rculist__nulls_offsetof(type, member))

/* The head seen as the node whose next field it shares. */
static inline struct cds_hlist_nulls_node *
rculist__nulls_head_node(struct cds_hlist_nulls_head *head)
{
	return (struct cds_hlist_nulls_node *)(void *)head;
}

/*
 * The next link of @node, which may be the head seen as a node: accessed
 * as the plain pointer it is in both structures, so that the compiler
 * cannot assume a store through a node leaves the head unchanged (see
 * rculist__hlist_next() in <rculist/hlist.h>).
 */
static inline struct cds_hlist_nulls_node **
rculist__nulls_next(struct cds_hlist_nulls_node *node)
{
	return (struct cds_hlist_nulls_node **)(void *)node;
}

/* cds_hlist_nulls_unhashed - whether @node is on no list (prev NULL). */
static inline int cds_hlist_nulls_unhashed(const struct cds_hlist_nulls_node *node)
{
	return node->prev == NULL;
}

/*
 * cds_hlist_nulls_empty - whether @head has no element.  The answer may be
 * stale at once when updaters run concurrently.
 */
static inline int cds_hlist_nulls_empty(const struct cds_hlist_nulls_head *head)
{
	return cds_is_a_nulls(rculist__load_once(head->next));
}

/**
 * cds_hlist_nulls_add_head - insert @n at the beginning of @head.  The
 * caller owns the list: no concurrent updater, no reader.
 *
 * before: [h] -> a -> |7|    after: [h] -> n <-> a -> |7|
 */
static inline void cds_hlist_nulls_add_head(struct cds_hlist_nulls_node *n,
					    struct cds_hlist_nulls_head *head)
{
	struct cds_hlist_nulls_node *first = head->next;

	n->next = first;
	n->prev = rculist__nulls_head_node(head);
	if (!cds_is_a_nulls(first))
		first->prev = n;
	head->next = n;
}

/*
 * Unlink @n from its neighbours; its own next is left intact.  The store
 * that links the predecessor to @n's successor is a release: the
 * successor may have been added just before (see <rculist/hlist_rcu.h>).
 */
static inline void __cds_hlist_nulls_del(struct cds_hlist_nulls_node *n)
{
	struct cds_hlist_nulls_node *next = n->next;

	if (!cds_is_a_nulls(next))
		next->prev = n->prev;
	rculist__publish(*rculist__nulls_next(n->prev), next);
}

/**
 * cds_hlist_nulls_del - remove @n from its list.  The caller owns the
 * list.  @n's pointers are left stale: cds_hlist_nulls_unhashed() does
 * not apply to it until it is added again (or use
 * cds_hlist_nulls_del_init_rcu(), which is correct here too).
 *
 * before: [h] -> a <-> b -> |7|   after: [h] -> b -> |7|
 */
static inline void cds_hlist_nulls_del(struct cds_hlist_nulls_node *n)
{
	__cds_hlist_nulls_del(n);
}

/**
 * cds_hlist_nulls_add_head_rcu - insert @n at the beginning of @head, with
 * readers walking the list.  The caller holds the list's update lock.
 *
 * @n's next is written before the release store of head->next publishes
 * it, so a reader that reaches @n through @head sees the rest of the
 * list.  @n may be an element recycled without a grace period: readers
 * still standing on it from its previous list may load its next at any
 * time and go on into this list, to its first node and its end marker:
 * so that store is a release too (the first node may have been published
 * just before).  Write @n's key before this call.
 *
 * before: [h] -> a -> |7|    after: [h] -> n <-> a -> |7|
 */
static inline void cds_hlist_nulls_add_head_rcu(struct cds_hlist_nulls_node *n,
						struct cds_hlist_nulls_head *head)
{
	struct cds_hlist_nulls_node *first = head->next;

	rculist__publish(n->next, first);
	n->prev = rculist__nulls_head_node(head);
	if (!cds_is_a_nulls(first))
		first->prev = n;
	rculist__publish(head->next, n);
}

/**
 * cds_hlist_nulls_add_tail_rcu - append @n to @head, with readers walking
 * the list; O(length).  The caller holds the list's update lock.  As for
 * cds_hlist_nulls_add_head_rcu(): @n takes the list's end marker as its
 * next before the release store of the last link publishes it.
 *
 * before: [h] -> a -> |7|    after: [h] -> a <-> n -> |7|
 */
static inline void cds_hlist_nulls_add_tail_rcu(struct cds_hlist_nulls_node *n,
						struct cds_hlist_nulls_head *head)
{
	struct cds_hlist_nulls_node *last = rculist__nulls_head_node(head);
	struct cds_hlist_nulls_node *next;

	while (!cds_is_a_nulls(next = *rculist__nulls_next(last)))
		last = next;
	rculist__store_once(n->next, next);
	n->prev = last;
	rculist__publish(*rculist__nulls_next(last), n);
}

/**
 * cds_hlist_nulls_del_rcu - remove @n from its list, with readers walking
 * it.  The caller holds the list's update lock.  @n's next is left
 * intact: a reader standing on @n goes on to the rest of the list (and
 * its marker).  The store that unlinks @n needs no ordering, it leads to
 * nodes readers could already reach.  Free @n, or give it to another
 * type, only after a grace period; it may be reused as an element of the
 * same kind at once (see the top of this file).  @n's prev is left
 * stale: cds_hlist_nulls_del_init_rcu() leaves it unhashed.
 *
 * before: [h] -> a <-> b -> |7|   after: [h] -> b -> |7|   (a still -> b)
 */
static inline void cds_hlist_nulls_del_rcu(struct cds_hlist_nulls_node *n)
{
	__cds_hlist_nulls_del(n);
}

/**
 * cds_hlist_nulls_del_init_rcu - remove @n if it is on a list and mark it
 * unhashed (prev NULL), leaving next intact for readers standing on it.
 * Does nothing to an unhashed node.  Contract as cds_hlist_nulls_del_rcu().
 */
static inline void cds_hlist_nulls_del_init_rcu(struct cds_hlist_nulls_node *n)
{
	if (!cds_hlist_nulls_unhashed(n)) {
		__cds_hlist_nulls_del(n);
		n->prev = NULL;
	}
}

/*
 * cds_hlist_nulls_for_each_entry - iterate @entry over @head's elements,
 * with @pos (struct cds_hlist_nulls_node *) as the cursor.  The caller
 * owns the list.  At the end @pos holds the end marker; @entry is only
 * ever computed from a node, never from a marker.
 */
#define cds_hlist_nulls_for_each_entry(entry, pos, head, member)	\
	for ((pos) = (head)->next;					\
	     !cds_is_a_nulls(pos) &&					\
	     ((entry) = cds_hlist_nulls_entry(pos, RCULIST__POINTEE(entry), member), 1); \
	     (pos) = (pos)->next)

/*
 * cds_hlist_nulls_for_each_entry_rcu - the same for readers, inside a
 * read-side critical section, with updaters running.  When the loop ends
 * without a break, @pos holds the end marker it reached: if elements are
 * recycled without a grace period, a reader compares
 * cds_get_nulls_value(pos) with the bucket it started in and restarts
 * the lookup when they differ (see the top of this file).
 */
#define cds_hlist_nulls_for_each_entry_rcu(entry, pos, head, member)	\
	RCULIST__ITER_SITE(cds_hlist_nulls_for_each_entry_rcu)	\
	for ((pos) = (RCULIST__CHECK_READER(), rculist__deref((head)->next)); \
	     !cds_is_a_nulls(pos) &&					\
	     ((entry) = cds_hlist_nulls_entry(pos, RCULIST__POINTEE(entry), member), 1); \
	     (pos) = rculist__deref((pos)->next))

#endif /* RCULIST_NULLS_H */
