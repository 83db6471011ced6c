/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/hlist.h - linear lists with one-pointer heads, plain operations.
 *
 * Exclusion: as for <rculist/list.h>, the caller serialises every update
 * and no RCU reader walks the list concurrently; <rculist/hlist_rcu.h>
 * has the operations that readers may run against.
 *
 * A node's prev points to the previous node, or to the head itself (the
 * head's only field sits where a node's next does), so that deleting a
 * node needs no head.  A node with a NULL prev is on no list; one whose
 * prev is itself is a list of its own (cds_hlist_add_fake()).  Every
 * store of a prev, here and in <rculist/hlist_rcu.h>, is untorn, so that
 * cds_hlist_unhashed_lockless() may load it without the update lock.
 *
 * No iterator here computes container_of() on a NULL link: the element
 * pointer is derived only from a non-NULL node (the 2-argument forms
 * yield NULL at the end), so no compiler may assume the cursor non-NULL.
 */
#ifndef RCULIST_HLIST_H
#define RCULIST_HLIST_H

#include <stddef.h>

#include "compiler.h"
#include "types.h"
#include "debug.h"

/*
 * offsetof(@type, @member), refused at compile time unless @member is a
 * struct cds_hlist_node (see RCULIST__MEMBER_OFFSETOF in compiler.h).
 */
#define RCULIST__HLIST_MEMBER_MSG "member is not a struct cds_hlist_node"
RCULIST__DEFINE_MEMBER_CHECK(rculist__member_is_not_a_struct_cds_hlist_node,
			     struct cds_hlist_node, RCULIST__HLIST_MEMBER_MSG)
#define rculist__hlist_offsetof(type, member)				\
	RCULIST__MEMBER_OFFSETOF(type, member,				\
				 rculist__member_is_not_a_struct_cds_hlist_node,	\
				 struct cds_hlist_node, RCULIST__HLIST_MEMBER_MSG)

/**
 * CDS_HLIST_HEAD_INIT - initialiser of an empty hlist head
 *
 * Two spellings.  liburcu's, "struct cds_hlist_head name =
 * CDS_HLIST_HEAD_INIT(name);" (the argument is unused), is the constant
 * { NULL }, valid everywhere.  The kernel's, without argument ("struct
 * cds_hlist_head name = CDS_HLIST_HEAD_INIT;", as HLIST_HEAD_INIT), is
 * a copy of a constant empty head: valid for any variable in C++ and for
 * automatic ones in C; a static one in C needs the constant, so gcc
 * accepts it and clang refuses it there: write CDS_HLIST_HEAD(name) or
 * the form with an argument.
 *
 * Context: an initialiser: the object is not yet shared.
 */
#define CDS_HLIST_HEAD_INIT	rculist__hlist_head_init
/* Called with an argument: the constant; without: the object below. */
#define rculist__hlist_head_init(name)	{ NULL }
__attribute__((unused)) static const struct cds_hlist_head rculist__hlist_head_init = { NULL };
/**
 * CDS_HLIST_HEAD - declare and initialise an empty hlist head
 * @name: the name of the struct cds_hlist_head variable to declare
 *
 * Context: a declaration: the list is not yet shared.
 */
#define CDS_HLIST_HEAD(name)	struct cds_hlist_head name = CDS_HLIST_HEAD_INIT(name)

/* The head cast to the node whose next field it shares. */
static inline struct cds_hlist_node *rculist__hlist_head_node(struct cds_hlist_head *head)
{
	return (struct cds_hlist_node *)(void *)head;
}

/*
 * The next link of @node, which may be a head cast to a node (a prev
 * pointer leads to one or the other).  A head and a node are distinct
 * structure types: under strict aliasing a compiler may assume that a
 * store to node->next does not change head->next, and gcc and clang at
 * -O2 do reorder such accesses (tests/hlist_opt/opt.c).  So every link
 * that may belong to the head is accessed through this pointer, as the
 * plain `struct cds_hlist_node *` object it is in both structures (next
 * is the first field of both).
 */
static inline struct cds_hlist_node **rculist__hlist_next(struct cds_hlist_node *node)
{
	return (struct cds_hlist_node **)(void *)node;
}

/**
 * CDS_INIT_HLIST_HEAD - make an hlist head empty
 * @head: the head
 *
 * Context: the caller owns @head: no reader walks it (a bucket that
 * readers may be walking is emptied by deleting its nodes with
 * cds_hlist_del_rcu()).
 */
static inline void CDS_INIT_HLIST_HEAD(struct cds_hlist_head *head)
{
	head->next = NULL;
}

/**
 * CDS_INIT_HLIST_NODE - mark a node as on no list (unhashed)
 * @node: the node
 *
 * Sets next and prev to NULL: cds_hlist_unhashed(@node) is then true and
 * cds_hlist_del_init() does nothing to it.
 *
 * Context: the caller owns @node: it is on no list readers walk.
 */
static inline void CDS_INIT_HLIST_NODE(struct cds_hlist_node *node)
{
	node->next = NULL;
	rculist__store_once(node->prev, NULL);
}

/**
 * cds_hlist_unhashed - whether a node is on no list
 * @node: the node
 *
 * True for a node initialised with CDS_INIT_HLIST_NODE() or removed with
 * cds_hlist_del_init() or cds_hlist_del_init_rcu(); not after a plain
 * cds_hlist_del(), which leaves prev stale.
 *
 * Context: the node's updater (readers follow only next links).
 * Return: non-zero if @node's prev is NULL.
 */
static inline int cds_hlist_unhashed(const struct cds_hlist_node *node)
{
	return node->prev == NULL;
}

/**
 * cds_hlist_unhashed_lockless - whether @node is on no list, for a caller
 * that does not hold the list's update lock
 * @node: the node to test
 *
 * cds_hlist_unhashed() with a single untorn load of @node's prev, which
 * every hlist operation stores untorn: a caller that holds no lock (a
 * reader, or an updater testing before it takes the lock) may race with
 * the updaters of @node's list.  The answer may be stale as soon as it
 * is returned; act on it under the update lock, or only as a hint.
 *
 * Context: any thread, no lock needed; the answer is a hint until the
 * caller holds the list's update lock.
 */
static inline int cds_hlist_unhashed_lockless(const struct cds_hlist_node *node)
{
	return rculist__load_once(node->prev) == NULL;
}

/**
 * cds_hlist_fake - whether @node was made a list of its own by
 * cds_hlist_add_fake()
 * @node: the node to test
 *
 * True when @node's prev points to @node itself.
 *
 * Context: the caller holds the update lock of any list @node may be on
 * (or owns @node).
 */
static inline int cds_hlist_fake(const struct cds_hlist_node *node)
{
	return node->prev == node;
}

/**
 * cds_hlist_is_singular_node - whether @node is the only node of @head
 * @node: a node on some list (or unhashed)
 * @head: the list head to test against
 *
 * True when @node is first (its prev is the head) and last (its next is
 * NULL) of @head.  Reads @node only, never @head, so it costs no access
 * to the head's cache line.
 *
 * Context: the caller holds @head's update lock.
 */
static inline int cds_hlist_is_singular_node(const struct cds_hlist_node *node,
					     const struct cds_hlist_head *head)
{
	return node->next == NULL && (const void *)node->prev == (const void *)head;
}

/**
 * cds_hlist_empty - whether an hlist has no node
 * @head: the head
 *
 * Loads the head's link once (untorn).
 *
 * Context: any thread; with updaters running the answer may be stale at
 * once.
 * Return: non-zero if @head is empty.
 */
static inline int cds_hlist_empty(const struct cds_hlist_head *head)
{
	return rculist__load_once(head->next) == NULL;
}

/**
 * cds_hlist_add_head - insert a node at the beginning of an hlist
 * @newp: the node, on no list
 * @head: the head
 *
 * before: [h] -> a           after: [h] -> newp <-> a
 *
 * Context: the caller owns the list: updaters serialised, no RCU reader
 * walking it (see cds_hlist_add_head_rcu()).
 */
static inline void cds_hlist_add_head(struct cds_hlist_node *newp,
				      struct cds_hlist_head *head)
{
	struct cds_hlist_node *first = head->next;

	RCULIST__CHECK_HADD(newp, rculist__hlist_head_node(head), first);
	newp->next = first;
	rculist__store_once(newp->prev, rculist__hlist_head_node(head));
	if (first)
		rculist__store_once(first->prev, newp);
	head->next = newp;
}

/* Unlink @elem from its neighbours, leaving its own pointers alone. */
static inline void __cds_hlist_del(struct cds_hlist_node *elem)
{
	struct cds_hlist_node *next = elem->next;

	RCULIST__CHECK_HDEL(elem);
	if (next)
		rculist__store_once(next->prev, elem->prev);
	*rculist__hlist_next(elem->prev) = next;
}

/**
 * cds_hlist_del - remove a node from its hlist
 * @elem: the node, on a list
 *
 * @elem's pointers are left stale (poisoned in debug mode); use
 * cds_hlist_del_init() to be able to test it with cds_hlist_unhashed()
 * or delete it again.
 *
 * before: [h] -> a <-> b     after: [h] -> b
 *
 * Context: the caller owns the list (see cds_hlist_del_rcu()).
 */
static inline void cds_hlist_del(struct cds_hlist_node *elem)
{
	__cds_hlist_del(elem);
	RCULIST__POISON_HLIST(elem);
}

/**
 * cds_hlist_del_init - remove a node from its hlist, if on one, and mark it unhashed
 * @elem: the node
 *
 * Does nothing to an unhashed node.
 *
 * before: [h] -> a <-> b     after: [h] -> b    (a unhashed)
 *
 * Context: the caller owns the list (see cds_hlist_del_init_rcu()).
 */
static inline void cds_hlist_del_init(struct cds_hlist_node *elem)
{
	if (!cds_hlist_unhashed(elem)) {
		__cds_hlist_del(elem);
		CDS_INIT_HLIST_NODE(elem);
	}
}

/**
 * cds_hlist_add_before - insert a node just before another
 * @n: the node to insert, on no list
 * @next: a node on a list
 *
 * before: [h] -> a <-> next  after: [h] -> a <-> n <-> next
 *
 * Context: the caller owns the list (see cds_hlist_add_before_rcu()).
 */
static inline void cds_hlist_add_before(struct cds_hlist_node *n,
					struct cds_hlist_node *next)
{
	RCULIST__CHECK_HADD(n, next->prev, next);
	rculist__store_once(n->prev, next->prev);
	n->next = next;
	rculist__store_once(next->prev, n);
	*rculist__hlist_next(n->prev) = n;
}

/**
 * cds_hlist_add_behind - insert a node just after another
 * @n: the node to insert, on no list
 * @prev: a node on a list
 *
 * before: [h] -> prev <-> b  after: [h] -> prev <-> n <-> b
 *
 * Context: the caller owns the list (see cds_hlist_add_behind_rcu()).
 */
static inline void cds_hlist_add_behind(struct cds_hlist_node *n,
					struct cds_hlist_node *prev)
{
	RCULIST__CHECK_HADD(n, prev, prev->next);
	n->next = prev->next;
	rculist__store_once(n->prev, prev);
	prev->next = n;
	if (n->next)
		rculist__store_once(n->next->prev, n);
}

/**
 * cds_hlist_add_fake - make @node a list of its own, with no head
 * @node: an unhashed node (initialised with CDS_INIT_HLIST_NODE(), so
 *	that its next is NULL)
 *
 * @node's prev is pointed at @node itself, as if @node's own next were
 * the link that leads to it.  cds_hlist_unhashed() is then false and
 * cds_hlist_fake() true, and cds_hlist_del(), cds_hlist_del_init() or
 * their _rcu forms may be called on it: they rewrite only @node's own
 * next, to what it already holds.  For objects whose code deletes a
 * node unconditionally whether or not it was ever hashed.
 *
 * before: n (prev NULL)      after: n (prev n, next NULL)
 *
 * Context: the caller owns @node: no list links to it, no reader can
 * reach it.
 */
static inline void cds_hlist_add_fake(struct cds_hlist_node *node)
{
	rculist__store_once(node->prev, node);
}

/**
 * cds_hlist_move_list - move every node of an hlist to another head
 * @old: the head whose nodes move, left empty
 * @newh: the destination head; nodes it held are dropped, not unlinked
 *
 * before: [old] -> a <-> b   [newh]    after: [old]   [newh] -> a <-> b
 *
 * Context: the caller owns both lists; no RCU reader walks them.
 */
static inline void cds_hlist_move_list(struct cds_hlist_head *old,
				       struct cds_hlist_head *newh)
{
	newh->next = old->next;
	if (newh->next)
		rculist__store_once(newh->next->prev, rculist__hlist_head_node(newh));
	old->next = NULL;
}

/**
 * cds_hlist_splice_init - move every node of an hlist to the front of another
 * @from: the head whose nodes move, left empty; not empty
 * @last: the last node of @from
 * @to: the destination head; its nodes follow @last
 *
 * before: [from] -> a <-> last   [to] -> b    after: [from]   [to] -> a <-> last <-> b
 *
 * Context: the caller owns both lists; no RCU reader walks them.
 */
static inline void cds_hlist_splice_init(struct cds_hlist_head *from,
					 struct cds_hlist_node *last,
					 struct cds_hlist_head *to)
{
	struct cds_hlist_node *first = from->next;

	if (to->next)
		rculist__store_once(to->next->prev, last);
	last->next = to->next;
	to->next = first;
	rculist__store_once(first->prev, rculist__hlist_head_node(to));
	from->next = NULL;
}

/**
 * cds_hlist_count_nodes - the number of nodes of an hlist
 * @head: the head
 *
 * Walks the whole list: O(n).
 *
 * Context: the caller owns the list (or nothing updates it).
 * Return: the number of nodes.
 */
static inline size_t cds_hlist_count_nodes(const struct cds_hlist_head *head)
{
	const struct cds_hlist_node *pos;
	size_t count = 0;

	for (pos = head->next; pos; pos = pos->next)
		count++;
	return count;
}

/**
 * cds_hlist_entry - the structure that embeds an hlist node
 * @ptr: the node (struct cds_hlist_node *), not NULL
 * @type: the structure's type
 * @member: the name of the node's field in @type
 *
 * A @member of another type does not compile.
 *
 * Context: address arithmetic only: reads nothing.
 * Return: a @type pointer.
 */
#define cds_hlist_entry(ptr, type, member) \
	rculist__container_at(ptr, type, rculist__hlist_offsetof(type, member))

/*
 * gcc 10 and later: a function so marked reads nothing through its
 * first argument, a pointer, so gcc does not say "may be used
 * uninitialized" of the node of an element not yet initialised, as it
 * does at -O0 of any address given as a pointer to const.
 */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 10
#define RCULIST__READS_NO_NODE __attribute__((access(none, 1)))
#else
#define RCULIST__READS_NO_NODE
#endif

/* @node minus @offset, or NULL for a NULL @node, without NULL arithmetic. */
RCULIST__READS_NO_NODE
static inline void *rculist__hlist_entry_or_null(const struct cds_hlist_node *node,
						 size_t offset)
{
	return node ? (void *)((char *)(size_t)node - offset) : NULL;
}

/**
 * cds_hlist_entry_safe - the structure that embeds an hlist node, or NULL
 * @ptr: the node, or NULL
 * @type: the structure's type
 * @member: the name of the node's field in @type
 *
 * No arithmetic on a NULL pointer: NULL gives NULL.
 *
 * Context: address arithmetic only: reads nothing.
 * Return: a @type pointer, or NULL if @ptr is NULL.
 */
#define cds_hlist_entry_safe(ptr, type, member)				\
	((type *)rculist__hlist_entry_or_null(ptr,			\
		rculist__hlist_offsetof(type, member)))

/* The entry of @node typed like @entry, or NULL. */
#define rculist__hlist_entry_as(entry, node, member)			\
	((RCULIST__TYPEOF(entry))rculist__hlist_entry_or_null(node,	\
		rculist__hlist_offsetof(RCULIST__POINTEE(entry), member)))

/**
 * cds_hlist_for_each - iterate over the nodes of an hlist
 * @pos: the cursor, a struct cds_hlist_node pointer, NULL at the end
 * @head: the head
 *
 * Context: the list's owner, or anyone while nothing updates it; RCU
 * readers use cds_hlist_for_each_rcu().
 */
#define cds_hlist_for_each(pos, head) \
	for ((pos) = (head)->next; (pos) != NULL; (pos) = (pos)->next)

/**
 * cds_hlist_for_each_safe - iterate over the nodes of an hlist, the body may delete
 * @pos: the cursor, a struct cds_hlist_node pointer, NULL at the end
 * @p: a struct cds_hlist_node pointer holding the next node
 * @head: the head
 *
 * Context: the caller owns the list.
 */
#define cds_hlist_for_each_safe(pos, p, head)				\
	for ((pos) = (head)->next;					\
	     (pos) != NULL && ((p) = (pos)->next, 1);			\
	     (pos) = (p))

/*
 * The entry iterators below take the kernel's arguments or liburcu's,
 * told apart by their count: rculist__hlist_pick() names its sixth
 * argument, the form the call's count selects.
 */
#define rculist__hlist_pick(_1, _2, _3, _4, _5, form, ...) form

/**
 * cds_hlist_for_each_entry - iterate over the elements of an hlist
 * @...: (entry, head, member), the kernel's three arguments, or
 *	(entry, pos, head, member), liburcu's four (the kernel's before 3.9):
 *	entry, the cursor, a pointer to the element type; pos, a struct
 *	cds_hlist_node pointer; head, the head; member, the name of the node
 *	field in the element type
 *
 * The kernel's form is cds_hlist_for_each_entry_2(): entry is NULL at
 * the end.  In liburcu's, pos is NULL at the end and entry is computed
 * only from a non-NULL pos: test pos, not entry, after the loop.
 *
 * Context: the list's owner, or anyone while nothing updates it; RCU
 * readers use cds_hlist_for_each_entry_rcu().
 */
#define cds_hlist_for_each_entry(...)					\
	rculist__hlist_pick(__VA_ARGS__, rculist__hlist_too_many_arguments, \
			    rculist__hlist_for_each_entry_pos,		\
			    cds_hlist_for_each_entry_2,			\
			    rculist__hlist_too_few_arguments, )(__VA_ARGS__)
#define rculist__hlist_for_each_entry_pos(entry, pos, head, member)	\
	for ((pos) = (head)->next;					\
	     (pos) != NULL &&						\
	     ((entry) = cds_hlist_entry(pos, RCULIST__POINTEE(entry), member), 1); \
	     (pos) = (pos)->next)

/**
 * cds_hlist_for_each_entry_safe - iterate over the elements, the body may delete
 * @...: (entry, n, head, member), the kernel's four arguments, or
 *	(entry, pos, p, head, member), liburcu's five: entry, the cursor, a
 *	pointer to the element type; n and p, struct cds_hlist_node
 *	pointers holding the next node; pos, a struct cds_hlist_node
 *	pointer, the node cursor; head, the head; member, the name of the
 *	node field
 *
 * The body may delete and free entry.  In the kernel's form entry is
 * NULL at the end; in liburcu's, pos is (entry is computed only from a
 * non-NULL pos).  cds_hlist_for_each_entry_safe_2() holds the next
 * element, not its node.
 *
 * Context: the caller owns the list.
 */
#define cds_hlist_for_each_entry_safe(...)				\
	rculist__hlist_pick(__VA_ARGS__, rculist__hlist_for_each_entry_safe_pos, \
			    rculist__hlist_for_each_entry_safe_node,	\
			    rculist__hlist_too_few_arguments,		\
			    rculist__hlist_too_few_arguments, )(__VA_ARGS__)
/* The kernel's form (also cds_hash_for_each_safe()'s): @n, a node, holds the next. */
#define rculist__hlist_for_each_entry_safe_node(entry, n, head, member)	\
	for ((entry) = rculist__hlist_entry_as(entry, (head)->next, member); \
	     (entry) != NULL && ((n) = (entry)->member.next, 1);	\
	     (entry) = rculist__hlist_entry_as(entry, n, member))
#define rculist__hlist_for_each_entry_safe_pos(entry, pos, p, head, member) \
	for ((pos) = (head)->next;					\
	     (pos) != NULL && ((p) = (pos)->next,			\
	     (entry) = cds_hlist_entry(pos, RCULIST__POINTEE(entry), member), 1); \
	     (pos) = (p))

/**
 * cds_hlist_for_each_entry_2 - iterate over the elements of an hlist
 * @entry: the cursor, a pointer to the element type, NULL at the end
 * @head: the head
 * @member: the name of the node field in the element type
 *
 * The kernel's hlist_for_each_entry(pos, head, member).
 *
 * Context: the list's owner, or anyone while nothing updates it; RCU
 * readers use cds_hlist_for_each_entry_rcu_2().
 */
#define cds_hlist_for_each_entry_2(entry, head, member)			\
	for ((entry) = rculist__hlist_entry_as(entry, (head)->next, member); \
	     (entry) != NULL;						\
	     (entry) = rculist__hlist_entry_as(entry, (entry)->member.next, member))

/**
 * cds_hlist_for_each_entry_safe_2 - iterate over the elements of an hlist, the body may delete
 * @entry: the cursor, a pointer to the element type, NULL at the end
 * @e: a pointer of the same type, holding the next element (the kernel's
 *	hlist_for_each_entry_safe() holds a node pointer instead)
 * @head: the head
 * @member: the name of the node field
 *
 * Context: the caller owns the list.
 */
#define cds_hlist_for_each_entry_safe_2(entry, e, head, member)		\
	for ((entry) = rculist__hlist_entry_as(entry, (head)->next, member); \
	     (entry) != NULL && ((e) = rculist__hlist_entry_as(entry,	\
				(entry)->member.next, member), 1);	\
	     (entry) = (e))

/**
 * cds_hlist_for_each_entry_continue - go on iterating after the current element
 * @entry: the cursor, at an element; NULL at the end
 * @member: the name of the node field
 *
 * Context: the list's owner, or anyone while nothing updates it.
 */
#define cds_hlist_for_each_entry_continue(entry, member)		\
	for ((entry) = rculist__hlist_entry_as(entry, (entry)->member.next, member); \
	     (entry) != NULL;						\
	     (entry) = rculist__hlist_entry_as(entry, (entry)->member.next, member))

/**
 * cds_hlist_for_each_entry_from - iterate from the current element on
 * @entry: the cursor, at the first element to visit (or NULL); NULL at the end
 * @member: the name of the node field
 *
 * Context: the list's owner, or anyone while nothing updates it.
 */
#define cds_hlist_for_each_entry_from(entry, member)			\
	for (; (entry) != NULL;						\
	     (entry) = rculist__hlist_entry_as(entry, (entry)->member.next, member))

#endif /* RCULIST_HLIST_H */
