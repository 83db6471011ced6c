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

/**
 * struct cds_hlist_nulls_head - the head of a nulls list
 *
 * next is the first node, or the list's end marker (an odd value: see
 * cds_is_a_nulls()).  Initialise it with CDS_INIT_HLIST_NULLS_HEAD().
 *
 * Context: written by the list's updaters under their lock, loaded by
 * readers with cds_hlist_nulls_for_each_entry_rcu().
 */
struct cds_hlist_nulls_head {
	struct cds_hlist_nulls_node *next;
};

/**
 * struct cds_hlist_nulls_node - the link embedded in each element of a nulls list
 *
 * next is the following node or the end marker; prev the previous node
 * or the head (seen as a node), NULL when the node is on no list.
 *
 * Context: written by updaters under the list's lock; readers follow
 * only next.
 */
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

/**
 * cds_is_a_nulls - whether a next link is an end marker
 * @ptr: a next link (of a head or a node)
 *
 * Context: tests the pointer's value only.
 * Return: non-zero if @ptr is an end marker, not a node.
 */
static inline int cds_is_a_nulls(const struct cds_hlist_nulls_node *ptr)
{
	return (int)((uintptr_t)ptr & 1);
}

/**
 * cds_get_nulls_value - the value of an end marker
 * @ptr: an end marker (cds_is_a_nulls() is true)
 *
 * A reader compares it with the bucket it started in, after a walk, to
 * know whether it strayed into another list.
 *
 * Context: computes from the pointer's value only.
 * Return: the value given to CDS_INIT_HLIST_NULLS_HEAD().
 */
static inline unsigned long cds_get_nulls_value(const struct cds_hlist_nulls_node *ptr)
{
	return (unsigned long)((uintptr_t)ptr >> 1);
}

/**
 * CDS_HLIST_NULLS_HEAD_INIT - static initialiser of an empty nulls list
 * @nulls: the end marker's value (an integer constant, at most
 *	ULONG_MAX >> 1)
 *
 * "struct cds_hlist_nulls_head h = CDS_HLIST_NULLS_HEAD_INIT(3);"
 *
 * Context: an initialiser: the object is not yet shared.
 */
#define CDS_HLIST_NULLS_HEAD_INIT(nulls)				\
	{ (struct cds_hlist_nulls_node *)(((uintptr_t)(nulls) << 1) | 1) }

/**
 * CDS_INIT_HLIST_NULLS_HEAD - make a nulls list empty, with its end marker
 * @head: the head
 * @nulls: the marker's value, at most ULONG_MAX >> 1 (typically the
 *	bucket's index)
 *
 * Context: the caller owns @head: no reader walks it.
 */
static inline void CDS_INIT_HLIST_NULLS_HEAD(struct cds_hlist_nulls_head *head,
					     unsigned long nulls)
{
	head->next = rculist__nulls_marker(nulls);
}

/**
 * cds_hlist_nulls_entry - the structure that embeds a nulls node
 * @ptr: the node, never an end marker (test cds_is_a_nulls())
 * @type: the structure's type
 * @member: the name of the node's field in @type
 *
 * A @member of another type does not compile.
 *
 * Context: address arithmetic only: reads nothing.
 * Return: a @type pointer.
 */
#define cds_hlist_nulls_entry(ptr, type, member)			\
	rculist__container_at(ptr, type, rculist__nulls_offsetof(type, member))

/* @ptr minus @offset, or NULL for an end marker. */
static inline void *rculist__nulls_entry_or_null(const struct cds_hlist_nulls_node *ptr,
						 size_t offset)
{
	return cds_is_a_nulls(ptr) ? NULL : (void *)((char *)(size_t)ptr - offset);
}

/**
 * cds_hlist_nulls_entry_safe - the structure that embeds a nulls node, or NULL for an end marker
 * @ptr: a node, or an end marker (evaluated once)
 * @type: the structure's type
 * @member: the name of the node's field in @type
 *
 * Context: address arithmetic only: reads nothing.
 * Return: a @type pointer, or NULL if @ptr is an end marker.
 */
#define cds_hlist_nulls_entry_safe(ptr, type, member)			\
	((type *)rculist__nulls_entry_or_null(ptr,			\
		rculist__nulls_offsetof(type, member)))

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

/**
 * cds_hlist_nulls_unhashed - whether a nulls node is on no list
 * @node: the node
 *
 * True after cds_hlist_nulls_del_init_rcu(); not after
 * cds_hlist_nulls_del() or cds_hlist_nulls_del_rcu(), which leave prev
 * stale.
 *
 * Context: the node's updater (readers follow only next).
 * Return: non-zero if @node's prev is NULL.
 */
static inline int cds_hlist_nulls_unhashed(const struct cds_hlist_nulls_node *node)
{
	return node->prev == NULL;
}

/**
 * cds_hlist_nulls_unhashed_lockless - whether a nulls node is on no list, without the update lock
 * @node: the node
 *
 * cds_hlist_nulls_unhashed() with one untorn load of prev: a caller that
 * holds no lock may race with updaters, and the answer may be stale at
 * once.
 *
 * Context: any thread; a hint until the caller holds the update lock.
 * Return: non-zero if @node's prev is NULL.
 */
static inline int cds_hlist_nulls_unhashed_lockless(const struct cds_hlist_nulls_node *node)
{
	return rculist__load_once(node->prev) == NULL;
}

/**
 * cds_hlist_nulls_add_fake - make a nulls node a list of its own, with no head
 * @n: the node, on no list
 *
 * @n's prev points to @n itself and its next is the end marker of value
 * 0: cds_hlist_nulls_unhashed() is false, and a delete rewrites only
 * @n's own next.
 *
 * Context: the caller owns @n: no list links to it.
 */
static inline void cds_hlist_nulls_add_fake(struct cds_hlist_nulls_node *n)
{
	n->prev = n;
	n->next = rculist__nulls_marker(0);
}

/**
 * cds_hlist_nulls_empty - whether a nulls list has no node
 * @head: the head
 *
 * Context: any thread; with updaters running the answer may be stale at
 * once.
 * Return: non-zero if @head's next is an end marker.
 */
static inline int cds_hlist_nulls_empty(const struct cds_hlist_nulls_head *head)
{
	return cds_is_a_nulls(rculist__load_once(head->next));
}

/**
 * cds_hlist_nulls_add_head - insert a node at the beginning of a nulls list
 * @n: the node, on no list
 * @head: the head
 *
 * before: [h] -> a -> |7|    after: [h] -> n <-> a -> |7|
 *
 * Context: the caller owns the list: no concurrent updater, no reader
 * (see cds_hlist_nulls_add_head_rcu()).
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
 * cds_hlist_nulls_del - remove a node from its nulls list
 * @n: the node, on a list
 *
 * @n's pointers are left stale: cds_hlist_nulls_unhashed() does not
 * apply to it until it is added again (cds_hlist_nulls_del_init_rcu() is
 * correct here too and leaves it unhashed).
 *
 * before: [h] -> a <-> b -> |7|   after: [h] -> b -> |7|
 *
 * Context: the caller owns the list.
 */
static inline void cds_hlist_nulls_del(struct cds_hlist_nulls_node *n)
{
	__cds_hlist_nulls_del(n);
}

/**
 * cds_hlist_nulls_add_head_rcu - insert a node at the beginning of a nulls list that readers walk
 * @n: the node, on no list, its key written
 * @head: the head
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
 *
 * Context: updater holding the list's update lock; readers may walk the
 * list concurrently inside read-side critical sections.
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
 * cds_hlist_nulls_add_tail_rcu - append a node to a nulls list that readers walk
 * @n: the node, on no list, its key written
 * @head: the head
 *
 * O(length).  As for cds_hlist_nulls_add_head_rcu(): @n takes the list's
 * end marker as its next before the release store of the last link
 * publishes it.
 *
 * before: [h] -> a -> |7|    after: [h] -> a <-> n -> |7|
 *
 * Context: updater holding the list's update lock; readers concurrent.
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
 * cds_hlist_nulls_del_rcu - remove a node from a nulls list that readers walk
 * @n: the node, on the list
 *
 * @n's next is left intact: a reader standing on @n goes on to the rest
 * of the list (and its marker).  The store that unlinks @n needs no
 * ordering, it leads to nodes readers could already reach.  @n's prev is
 * left stale: cds_hlist_nulls_del_init_rcu() leaves it unhashed.
 *
 * before: [h] -> a <-> b -> |7|   after: [h] -> b -> |7|   (a still -> b)
 *
 * Context: updater holding the list's update lock; readers concurrent.
 * Free @n, or give its memory to another type, only after a grace
 * period; it may be reused at once as an element of the same kind
 * (type-stable memory: see <rculist/nulls.h>).
 */
static inline void cds_hlist_nulls_del_rcu(struct cds_hlist_nulls_node *n)
{
	__cds_hlist_nulls_del(n);
}

/**
 * cds_hlist_nulls_del_init_rcu - remove a node, if on a list, and mark it unhashed, with readers
 * @n: the node
 *
 * prev becomes NULL, next is left intact for readers standing on @n.
 * Does nothing to an unhashed node.
 *
 * Context: as cds_hlist_nulls_del_rcu().
 */
static inline void cds_hlist_nulls_del_init_rcu(struct cds_hlist_nulls_node *n)
{
	if (!cds_hlist_nulls_unhashed(n)) {
		__cds_hlist_nulls_del(n);
		n->prev = NULL;
	}
}

/**
 * cds_hlist_nulls_replace_rcu - put a nulls node in the place of another, with readers
 * @old: the node to replace, on a list
 * @newn: its replacement, on no list, its key written
 *
 * @newn takes @old's next (release: @newn may be an element recycled
 * without a grace period, which readers still standing on it follow) and
 * prev, then the link that led to @old is pointed at @newn with a
 * release store: a reader sees @old or @newn, never neither.  @old's next
 * is left intact for readers standing on it; its prev is left stale.
 *
 * before: [h] -> old <-> b -> |7|   after: [h] -> newn <-> b -> |7|
 *
 * Context: updater holding the list's update lock; readers concurrent.
 * @old may be freed only after a grace period (or recycled at once as
 * an element of the same kind: see <rculist/nulls.h>).
 */
static inline void cds_hlist_nulls_replace_rcu(struct cds_hlist_nulls_node *old,
					       struct cds_hlist_nulls_node *newn)
{
	struct cds_hlist_nulls_node *next = old->next;

	rculist__publish(newn->next, next);
	newn->prev = old->prev;
	rculist__publish(*rculist__nulls_next(newn->prev), newn);
	if (!cds_is_a_nulls(next))
		next->prev = newn;
}

/**
 * cds_hlist_nulls_replace_init_rcu - put a nulls node in the place of another and mark the other unhashed
 * @old: the node to replace, on a list (hashed)
 * @newn: its replacement, on no list, its key written
 *
 * cds_hlist_nulls_replace_rcu(), then @old's prev becomes NULL
 * (cds_hlist_nulls_unhashed() is true); its next is left for readers.
 *
 * Context: as cds_hlist_nulls_replace_rcu().
 */
static inline void cds_hlist_nulls_replace_init_rcu(struct cds_hlist_nulls_node *old,
						    struct cds_hlist_nulls_node *newn)
{
	cds_hlist_nulls_replace_rcu(old, newn);
	rculist__store_once(old->prev, NULL);
}

/**
 * cds_hlist_nulls_first_rcu - the first link of a nulls list, as an lvalue for rcu_dereference()
 * @head: the head (evaluated once)
 *
 * Context: reader, inside a read-side critical section, through
 * rcu_dereference(); updaters under their lock.
 */
#define cds_hlist_nulls_first_rcu(head)	((head)->next)

/**
 * cds_hlist_nulls_next_rcu - the next link of a nulls node, as an lvalue for rcu_dereference()
 * @node: the node (evaluated once)
 *
 * Context: as cds_hlist_nulls_first_rcu().
 */
#define cds_hlist_nulls_next_rcu(node)	((node)->next)

/**
 * cds_hlist_nulls_pprev_rcu - the link that leads to a nulls node, as an lvalue
 * @node: a node on a list (evaluated once)
 *
 * The previous node's next, or the head's: what the kernel's
 * *node->pprev names (rculist's node keeps a prev node pointer), for
 * "rcu_assign_pointer(cds_hlist_nulls_pprev_rcu(old), newn)".
 *
 * Context: the updater, under the list's update lock.
 */
#define cds_hlist_nulls_pprev_rcu(node)	(*rculist__nulls_next((node)->prev))

/**
 * cds_hlist_nulls_for_each_entry - iterate over the elements of a nulls list
 * @entry: the cursor, a pointer to the element type
 * @pos: a struct cds_hlist_nulls_node pointer; the end marker at the end
 * @head: the head
 * @member: the name of the node field
 *
 * @entry is only ever computed from a node, never from a marker.
 *
 * Context: the caller owns the list (no concurrent updater).
 */
#define cds_hlist_nulls_for_each_entry(entry, pos, head, member)	\
	for ((pos) = (head)->next;					\
	     !cds_is_a_nulls(pos) &&					\
	     ((entry) = cds_hlist_nulls_entry(pos, RCULIST__POINTEE(entry), member), 1); \
	     (pos) = (pos)->next)

/**
 * cds_hlist_nulls_for_each_entry_rcu - iterate over the elements of a nulls list, for a reader
 * @entry: the cursor, a pointer to the element type
 * @pos: a struct cds_hlist_nulls_node pointer; the end marker at the end
 * @head: the head
 * @member: the name of the node field
 *
 * When the loop ends without a break, @pos holds the end marker it
 * reached: if elements are recycled without a grace period, a reader
 * compares cds_get_nulls_value(@pos) with the bucket it started in and
 * restarts the lookup when they differ.  After a match it checks the
 * key again, since the element may have been recycled under it:
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
 * Context: reader, inside a read-side critical section; updaters may
 * run concurrently, and may recycle elements without a grace period.
 */
#define cds_hlist_nulls_for_each_entry_rcu(entry, pos, head, member)	\
	RCULIST__ITER_SITE(cds_hlist_nulls_for_each_entry_rcu)	\
	for ((pos) = (RCULIST__CHECK_READER(), rculist__deref((head)->next)); \
	     !cds_is_a_nulls(pos) &&					\
	     ((entry) = cds_hlist_nulls_entry(pos, RCULIST__POINTEE(entry), member), 1); \
	     (pos) = rculist__deref((pos)->next))

/**
 * cds_hlist_nulls_for_each_entry_safe - iterate over the elements of a nulls list, for a reader whose body may delete
 * @entry: the cursor, a pointer to the element type
 * @pos: a struct cds_hlist_nulls_node pointer: the next node (or the end
 *	marker) while the body runs
 * @head: the head
 * @member: the name of the node field
 *
 * The kernel's hlist_nulls_for_each_entry_safe(): @pos is advanced past
 * @entry before the body runs, so the body may delete @entry (and, with
 * the update lock, recycle it).  Links are loaded dependency-ordered.
 *
 * Context: reader, inside a read-side critical section, or the updater.
 */
#define cds_hlist_nulls_for_each_entry_safe(entry, pos, head, member)	\
	for ((pos) = rculist__deref((head)->next);			\
	     !cds_is_a_nulls(pos) &&					\
	     ((entry) = cds_hlist_nulls_entry(pos, RCULIST__POINTEE(entry), member), \
	      (pos) = rculist__deref((pos)->next), 1);)

/**
 * cds_hlist_nulls_for_each_entry_from - iterate over a nulls list from a node on
 * @entry: the cursor, a pointer to the element type
 * @pos: the node to start from (or an end marker); the end marker at the end
 * @member: the name of the node field
 *
 * Context: the caller owns the list (no concurrent updater).
 */
#define cds_hlist_nulls_for_each_entry_from(entry, pos, member)		\
	for (; !cds_is_a_nulls(pos) &&					\
	     ((entry) = cds_hlist_nulls_entry(pos, RCULIST__POINTEE(entry), member), 1); \
	     (pos) = (pos)->next)

#endif /* RCULIST_NULLS_H */
