/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/list.h - circular doubly linked lists, plain operations.
 *
 * Exclusion: every operation here is for code that owns the list: the
 * caller holds whatever lock serialises updaters, and no RCU reader may
 * walk the list concurrently (use the _rcu operations of
 * <rculist/list_rcu.h> for lists that readers walk).  Iterators here may
 * be used by the updater itself, or by anyone when nothing updates.
 *
 * Operations are static inline functions (arguments evaluated once, type
 * checked); iterators and *_entry accessors are macros.  Iterators expand
 * to a single for statement: break and continue work, and the list head
 * argument is evaluated once.
 */
#ifndef RCULIST_LIST_H
#define RCULIST_LIST_H

#include <stddef.h>

#include "compiler.h"
#include "types.h"
#include "debug.h"

/*
 * offsetof(@type, @member), refused at compile time unless @member is a
 * struct cds_list_head (see RCULIST__MEMBER_OFFSETOF in compiler.h).
 */
#define RCULIST__LIST_MEMBER_MSG "member is not a struct cds_list_head"
RCULIST__DEFINE_MEMBER_CHECK(rculist__member_is_not_a_struct_cds_list_head,
			     struct cds_list_head, RCULIST__LIST_MEMBER_MSG)
#define rculist__list_offsetof(type, member)				\
	RCULIST__MEMBER_OFFSETOF(type, member,				\
				 rculist__member_is_not_a_struct_cds_list_head,	\
				 struct cds_list_head, RCULIST__LIST_MEMBER_MSG)
/*
 * The same check on the element type of the cursor @pos, as an
 * expression of no value: iterators make it before their first use of
 * @member, so that a wrong member is reported by this message first.
 */
#define rculist__list_member_check(pos, member)				\
	((void)rculist__list_offsetof(RCULIST__POINTEE(pos), member))

/*
 * &@pos->@member, where @pos may be the entry computed from a head (where
 * an entry walk ends, what cds_list_prepare_entry() gives for NULL),
 * which is no object of @pos's type.  Under clang, computed without a
 * member access: its -fsanitize=undefined (the object-size check) reports
 * "member access within address ... with insufficient space" when the
 * head is smaller than an entry.  gcc's does not, and gcc's
 * -Warray-bounds takes the integer form for an access 8 bytes before the
 * head, so gcc keeps the member access.  Same address either way; the
 * member's type is checked where it is used (a struct cds_list_head
 * pointer; clang: also the offsetof check).
 */
#ifdef __clang__
#define rculist__list_link(pos, member)					\
	((struct cds_list_head *)(void *)((size_t)(const void *)(pos) +	\
		rculist__list_offsetof(RCULIST__POINTEE(pos), member)))
#else
#define rculist__list_link(pos, member)	(&(pos)->member)
#endif

/*
 * A head or link given to an iterator, or to an operation that only reads
 * it: type checked, and const accepted (walking a list does not write
 * it), as liburcu's iterators accept it.  An iterator's _h and _c share
 * one declaration, hence one pointee type.
 */
static inline struct cds_list_head *
rculist__iter_head(const struct cds_list_head *head)
{
	return (struct cds_list_head *)(size_t)head;
}

/**
 * CDS_LIST_HEAD_INIT - static initialiser of an empty list head
 * @name: the struct cds_list_head variable being initialised
 *
 * "struct cds_list_head name = CDS_LIST_HEAD_INIT(name);" makes @name an
 * empty list (next and prev point to @name itself).  Positional, so it
 * is valid C and C++ alike (liburcu 0.13's designated form is an error
 * under g++ 12).
 *
 * Context: an initialiser: the object is not yet shared.
 */
#define CDS_LIST_HEAD_INIT(name)	{ &(name), &(name) }

/**
 * CDS_LIST_HEAD - declare and initialise an empty list head
 * @name: the name of the struct cds_list_head variable to declare
 *
 * "static CDS_LIST_HEAD(queue);" declares the head @name, empty, at
 * file scope or in a function.
 *
 * Context: a declaration: the list is not yet shared.
 */
#define CDS_LIST_HEAD(name)	struct cds_list_head name = CDS_LIST_HEAD_INIT(name)

/**
 * CDS_INIT_LIST_HEAD - make a list head empty, or an element unlinked
 * @list: the head or element link
 *
 * Points @list's next and prev at @list.  A function, not a macro as in
 * liburcu: @list is evaluated once.  An element so initialised may be
 * deleted without ever being added (cds_list_del() then does nothing).
 *
 * Context: the caller owns @list: no other thread reads or writes it.
 * A head that RCU readers may be walking is emptied with
 * CDS_INIT_LIST_HEAD_RCU().
 */
static inline void CDS_INIT_LIST_HEAD(struct cds_list_head *list)
{
	list->next = list;
	list->prev = list;
}

/* Link @newp between the known neighbours @prev and @next. */
static inline void __cds_list_add(struct cds_list_head *newp,
				  struct cds_list_head *prev,
				  struct cds_list_head *next)
{
	RCULIST__CHECK_ADD(newp, prev, next);
	next->prev = newp;
	newp->next = next;
	newp->prev = prev;
	prev->next = newp;
}

/**
 * cds_list_add - insert an element at the beginning of a list
 * @newp: the element's link, on no list
 * @head: the list head (or an element: @newp goes after it)
 *
 * before: [h] <-> a          after: [h] <-> newp <-> a
 *
 * Context: the caller owns the list: it holds the lock that serialises
 * updaters, and no RCU reader walks the list at the same time (use
 * cds_list_add_rcu() for a list that readers walk).
 */
static inline void cds_list_add(struct cds_list_head *newp,
				struct cds_list_head *head)
{
	__cds_list_add(newp, head, head->next);
}

/**
 * cds_list_add_tail - insert an element at the end of a list
 * @newp: the element's link, on no list
 * @head: the list head (or an element: @newp goes before it)
 *
 * before: [h] <-> a          after: [h] <-> a <-> newp
 *
 * Context: the caller owns the list, as for cds_list_add();
 * cds_list_add_tail_rcu() is the form for a list that readers walk.
 */
static inline void cds_list_add_tail(struct cds_list_head *newp,
				     struct cds_list_head *head)
{
	__cds_list_add(newp, head->prev, head);
}

/* Join @prev and @next, dropping whatever was between them. */
static inline void __cds_list_del(struct cds_list_head *prev,
				  struct cds_list_head *next)
{
	next->prev = prev;
	prev->next = next;
}

/* Unlink @elem from its neighbours; @elem's own pointers are left alone. */
static inline void __cds_list_del_entry(struct cds_list_head *elem)
{
	RCULIST__CHECK_DEL(elem);
	__cds_list_del(elem->prev, elem->next);
}

/**
 * cds_list_del - remove an element from its list
 * @elem: the element's link
 *
 * @elem's own pointers are left as they were (poisoned with
 * RCULIST_POISON_NEXT and RCULIST_POISON_PREV in debug mode), so it must
 * be added or re-initialised before it is deleted again; use
 * cds_list_del_init() to delete it twice.  Deleting an element
 * initialised with CDS_INIT_LIST_HEAD() and never added is allowed and
 * does nothing.
 *
 * before: [h] <-> a <-> b    after: [h] <-> b
 *
 * Context: the caller owns the list: updaters serialised, no RCU reader
 * walking it (readers need cds_list_del_rcu() and a grace period before
 * the element is freed).
 */
static inline void cds_list_del(struct cds_list_head *elem)
{
	__cds_list_del_entry(elem);
	RCULIST__POISON_LIST(elem);
}

/**
 * cds_list_del_init - remove an element from its list and leave it empty
 * @elem: the element's link
 *
 * Afterwards cds_list_empty(@elem) is true and @elem may be deleted
 * again (doing nothing).
 *
 * before: [h] <-> a <-> b    after: [h] <-> b    [a]
 *
 * Context: the caller owns the list; there is no _rcu form (see
 * cds_list_del_rcu()).
 */
static inline void cds_list_del_init(struct cds_list_head *elem)
{
	__cds_list_del_entry(elem);
	CDS_INIT_LIST_HEAD(elem);
}

/**
 * cds_list_empty - whether a list has no element
 * @head: the list head
 *
 * Context: the caller owns the list, or accepts an answer that is stale
 * at once: a reader of an RCU-protected list uses
 * cds_list_first_or_null_rcu() instead.
 * Return: non-zero if @head is empty.
 */
static inline int cds_list_empty(const struct cds_list_head *head)
{
	return head->next == head;
}

/**
 * cds_list_empty_careful - whether a list is empty, checking both links
 * @head: the list head
 *
 * Tests next and prev both, so that a list whose only element another
 * thread is removing with cds_list_del_init() is not reported empty
 * half-way.  next is loaded with acquire semantics, as in the kernel:
 * seeing the empty list left by cds_list_del_init_careful() makes the
 * writes its caller made before it visible.
 *
 * Context: safe without the update lock only against a concurrent
 * cds_list_del_init() or cds_list_del_init_careful() of the single
 * element; it is no RCU primitive.
 * Return: non-zero if @head is empty.
 */
static inline int cds_list_empty_careful(const struct cds_list_head *head)
{
	const struct cds_list_head *next =
		__atomic_load_n(&head->next, __ATOMIC_ACQUIRE);

	return next == head && next == rculist__load_once(head->prev);
}

/**
 * cds_list_del_init_careful - remove an element and leave it empty, for a lockless cds_list_empty_careful()
 * @elem: the element's link
 *
 * cds_list_del_init(), with @elem's next written last, as a release
 * store: a thread that sees cds_list_empty_careful(@elem) true, without
 * the update lock, also sees every write the caller made before this
 * call (the kernel's pattern for a waiter that frees its own entry once
 * it finds it removed).
 *
 * before: [h] <-> a <-> b    after: [h] <-> b    [a]
 *
 * Context: the caller owns the list @elem is on; another thread may test
 * @elem with cds_list_empty_careful() concurrently.
 */
static inline void cds_list_del_init_careful(struct cds_list_head *elem)
{
	__cds_list_del_entry(elem);
	rculist__store_once(elem->prev, elem);
	__atomic_store_n(&elem->next, elem, __ATOMIC_RELEASE);
}

/**
 * cds_list_is_singular - whether a list holds exactly one element
 * @head: the list head
 *
 * Context: the caller owns the list (or nothing updates it).
 * Return: non-zero if @head holds one element.
 */
static inline int cds_list_is_singular(const struct cds_list_head *head)
{
	return head->next != head && head->next == head->prev;
}

/**
 * cds_list_is_first - whether an element is the first of its list
 * @elem: the element's link
 * @head: the list head
 *
 * Context: the caller owns the list (or nothing updates it).
 * Return: non-zero if @elem comes first in @head.
 */
static inline int cds_list_is_first(const struct cds_list_head *elem,
				    const struct cds_list_head *head)
{
	return elem->prev == head;
}

/**
 * cds_list_is_last - whether an element is the last of its list
 * @elem: the element's link
 * @head: the list head
 *
 * Context: the caller owns the list (or nothing updates it).
 * Return: non-zero if @elem comes last in @head.
 */
static inline int cds_list_is_last(const struct cds_list_head *elem,
				   const struct cds_list_head *head)
{
	return elem->next == head;
}

/**
 * cds_list_is_head - whether a link is the list head itself
 * @elem: a link met while walking @head
 * @head: the list head
 *
 * Context: compares two pointers; no access to the list.
 * Return: non-zero if @elem is @head.
 */
static inline int cds_list_is_head(const struct cds_list_head *elem,
				   const struct cds_list_head *head)
{
	return elem == head;
}

/**
 * cds_list_count_nodes - the number of elements of a list
 * @head: the list head
 *
 * Walks the whole list: O(n).
 *
 * Context: the caller owns the list (or nothing updates it).
 * Return: the number of elements, not counting @head.
 */
static inline size_t cds_list_count_nodes(const struct cds_list_head *head)
{
	const struct cds_list_head *pos;
	size_t count = 0;

	for (pos = head->next; pos != head; pos = pos->next)
		count++;
	return count;
}

/**
 * cds_list_replace - put an element in the place of another
 * @old: the element (or head) to replace
 * @newp: its replacement, on no list
 *
 * @old's pointers are left as they were (poisoned in debug mode).  @old
 * may be a list head: @newp then heads the list.  An EMPTY head @old
 * leaves @newp an empty list (next and prev pointing to @newp), as in
 * the kernel; liburcu's macro leaves @old and @newp pointing at each
 * other instead, a two-element circle with no head.
 *
 * @old is only read, so it may be a pointer to const, as in liburcu
 * 0.15; debug mode still poisons it, so it must not be an object
 * defined const.
 *
 * before: [h] <-> old <-> b  after: [h] <-> newp <-> b
 *
 * Context: the caller owns the list; cds_list_replace_rcu() is the form
 * for a list that readers walk.
 */
static inline void cds_list_replace(const struct cds_list_head *old,
				    struct cds_list_head *newp)
{
	RCULIST__CHECK_DEL(old);
	newp->next = old->next;
	newp->next->prev = newp;
	newp->prev = old->prev;
	newp->prev->next = newp;
	RCULIST__POISON_LIST(rculist__iter_head(old));
}

/**
 * cds_list_replace_init - put an element in the place of another, leaving the other empty
 * @old: the element (or head) to replace
 * @newp: its replacement, on no list
 *
 * cds_list_replace(), then CDS_INIT_LIST_HEAD(@old).  An empty head
 * @old leaves both @old and @newp empty lists, as in the kernel (not so
 * liburcu's macro: see cds_list_replace()).
 *
 * before: [h] <-> old <-> b  after: [h] <-> newp <-> b    [old]
 *
 * Context: the caller owns the list.
 */
static inline void cds_list_replace_init(struct cds_list_head *old,
					 struct cds_list_head *newp)
{
	cds_list_replace(old, newp);
	CDS_INIT_LIST_HEAD(old);
}

/**
 * cds_list_swap - exchange the positions of two elements
 * @a: an element's link
 * @b: another element's link, on the same list or another
 *
 * before: [h] <-> a <-> x <-> b    after: [h] <-> b <-> x <-> a
 *
 * Context: the caller owns both lists.
 */
static inline void cds_list_swap(struct cds_list_head *a,
				 struct cds_list_head *b)
{
	struct cds_list_head *pos = b->prev;

	cds_list_del(b);
	cds_list_replace(a, b);
	if (pos == a)
		pos = b;
	cds_list_add(a, pos);
}

/**
 * cds_list_move - move an element to the beginning of a list
 * @elem: the element's link, on a list
 * @head: the destination (the same list or another)
 *
 * before: [g] <-> x <-> elem   [h] <-> a    after: [g] <-> x   [h] <-> elem <-> a
 *
 * Context: the caller owns both lists.  For lists that readers walk,
 * cds_list_del_rcu(), a grace period, then cds_list_add_rcu(): a reader
 * standing on a moved element would otherwise walk on into the other
 * list.
 */
static inline void cds_list_move(struct cds_list_head *elem,
				 struct cds_list_head *head)
{
	__cds_list_del_entry(elem);
	cds_list_add(elem, head);
}

/**
 * cds_list_move_tail - move an element to the end of a list
 * @elem: the element's link, on a list
 * @head: the destination (the same list or another)
 *
 * before: [g] <-> elem <-> x   [h] <-> a    after: [g] <-> x   [h] <-> a <-> elem
 *
 * Context: the caller owns both lists (see cds_list_move()).
 */
static inline void cds_list_move_tail(struct cds_list_head *elem,
				      struct cds_list_head *head)
{
	__cds_list_del_entry(elem);
	cds_list_add_tail(elem, head);
}

/**
 * cds_list_bulk_move_tail - move a run of elements to the end of a list
 * @head: the destination
 * @first: the first element of the run
 * @last: the last element of the run (@first itself for a run of one)
 *
 * The run goes from @first to @last inclusive, in list order, on one
 * list (which may be @head's).
 *
 * before: [g] <-> x <-> first <-> y <-> last    [h] <-> a
 * after:  [g] <-> x                             [h] <-> a <-> first <-> y <-> last
 *
 * Context: the caller owns both lists.
 */
static inline void cds_list_bulk_move_tail(struct cds_list_head *head,
					   struct cds_list_head *first,
					   struct cds_list_head *last)
{
	first->prev->next = last->next;
	last->next->prev = first->prev;

	head->prev->next = first;
	first->prev = head->prev;

	last->next = head;
	head->prev = last;
}

/* Insert the elements of non-empty @list between @prev and @next. */
static inline void __cds_list_splice(const struct cds_list_head *list,
				     struct cds_list_head *prev,
				     struct cds_list_head *next)
{
	struct cds_list_head *first = list->next;
	struct cds_list_head *last = list->prev;

	RCULIST__CHECK_SPLICE(list, prev, next);
	first->prev = prev;
	prev->next = first;
	last->next = next;
	next->prev = last;
}

/**
 * cds_list_splice - insert every element of a list at the beginning of another
 * @add: the list whose elements move
 * @head: the destination
 *
 * @add itself is left stale: re-initialise it before reuse, or use
 * cds_list_splice_init().
 *
 * before: [add] <-> x <-> y   [h] <-> a      after: [h] <-> x <-> y <-> a
 *
 * Context: the caller owns both lists; cds_list_splice_init_rcu() is
 * the form for lists that readers walk.
 */
static inline void cds_list_splice(struct cds_list_head *add,
				   struct cds_list_head *head)
{
	if (!cds_list_empty(add))
		__cds_list_splice(add, head, head->next);
}

/**
 * cds_list_splice_tail - insert every element of a list at the end of another
 * @add: the list whose elements move (left stale)
 * @head: the destination
 *
 * before: [add] <-> x <-> y   [h] <-> a      after: [h] <-> a <-> x <-> y
 *
 * Context: the caller owns both lists.
 */
static inline void cds_list_splice_tail(struct cds_list_head *add,
					struct cds_list_head *head)
{
	if (!cds_list_empty(add))
		__cds_list_splice(add, head->prev, head);
}

/**
 * cds_list_splice_init - move every element of a list to the beginning of another
 * @add: the list whose elements move, left empty
 * @head: the destination
 *
 * before: [add] <-> x <-> y   [h] <-> a      after: [add]   [h] <-> x <-> y <-> a
 *
 * Context: the caller owns both lists; cds_list_splice_init_rcu() is
 * the form for lists that readers walk.
 */
static inline void cds_list_splice_init(struct cds_list_head *add,
					struct cds_list_head *head)
{
	if (!cds_list_empty(add)) {
		__cds_list_splice(add, head, head->next);
		CDS_INIT_LIST_HEAD(add);
	}
}

/**
 * cds_list_splice_tail_init - move every element of a list to the end of another
 * @add: the list whose elements move, left empty
 * @head: the destination
 *
 * before: [add] <-> x <-> y   [h] <-> a      after: [add]   [h] <-> a <-> x <-> y
 *
 * Context: the caller owns both lists; cds_list_splice_tail_init_rcu()
 * is the form for lists that readers walk.
 */
static inline void cds_list_splice_tail_init(struct cds_list_head *add,
					     struct cds_list_head *head)
{
	if (!cds_list_empty(add)) {
		__cds_list_splice(add, head->prev, head);
		CDS_INIT_LIST_HEAD(add);
	}
}

/**
 * cds_list_cut_position - move the first elements of a list, up to one, to another
 * @list: the destination; whatever it held is overwritten
 * @head: the list to cut
 * @entry: the last element to move (or @head: @list is just made empty)
 *
 * Pass an empty @list, or one whose elements need no longer be linked.
 *
 * before: [h] <-> a <-> e <-> b    after: [list] <-> a <-> e   [h] <-> b
 *
 * Context: the caller owns both lists.
 */
static inline void cds_list_cut_position(struct cds_list_head *list,
					 struct cds_list_head *head,
					 struct cds_list_head *entry)
{
	struct cds_list_head *first = head->next;

	if (cds_list_empty(head))
		return;
	if (cds_list_is_singular(head) && entry != head && entry != first)
		return;
	if (entry == head) {
		CDS_INIT_LIST_HEAD(list);
		return;
	}
	list->next = first;
	first->prev = list;
	list->prev = entry;
	head->next = entry->next;
	entry->next->prev = head;
	entry->next = list;
}

/**
 * cds_list_cut_before - move the first elements of a list, up to but not including one, to another
 * @list: the destination, overwritten
 * @head: the list to cut
 * @entry: the first element to keep (the first element: @list is made
 *	empty; @head: everything moves)
 *
 * before: [h] <-> a <-> e <-> b    after: [list] <-> a   [h] <-> e <-> b
 *
 * Context: the caller owns both lists.
 */
static inline void cds_list_cut_before(struct cds_list_head *list,
				       struct cds_list_head *head,
				       struct cds_list_head *entry)
{
	if (head->next == entry) {
		CDS_INIT_LIST_HEAD(list);
		return;
	}
	list->next = head->next;
	list->next->prev = list;
	list->prev = entry->prev;
	list->prev->next = list;
	head->next = entry;
	entry->prev = head;
}

/**
 * cds_list_rotate_left - move the first element of a list to its end
 * @head: the list head
 *
 * before: [h] <-> a <-> b <-> c    after: [h] <-> b <-> c <-> a
 *
 * Context: the caller owns the list.
 */
static inline void cds_list_rotate_left(struct cds_list_head *head)
{
	if (!cds_list_empty(head))
		cds_list_move_tail(head->next, head);
}

/**
 * cds_list_rotate_to_front - rotate a list so that an element comes first
 * @elem: the element to bring to the front
 * @head: its list
 *
 * The circular order is kept.
 *
 * before: [h] <-> a <-> b <-> c    (elem = b)    after: [h] <-> b <-> c <-> a
 *
 * Context: the caller owns the list.
 */
static inline void cds_list_rotate_to_front(struct cds_list_head *elem,
					    struct cds_list_head *head)
{
	/* Moving the head just before @elem makes @elem the first. */
	cds_list_move_tail(head, elem);
}

/**
 * cds_list_entry - the structure that embeds a list link
 * @ptr: the link (struct cds_list_head *, may point to const)
 * @type: the structure's type
 * @member: the name of the link's field in @type
 *
 * container_of(): the address of the @type whose field @member is at
 * @ptr.
 *
 * A @member of another type does not compile.
 *
 * Context: address arithmetic only: reads nothing.
 * Return: a @type pointer.
 */
#define cds_list_entry(ptr, type, member) \
	rculist__container_at(ptr, type, rculist__list_offsetof(type, member))

/**
 * cds_list_entry_is_head - whether the entry @pos is the list head @head
 * @pos: a pointer to the enclosing structure, such as an entry
 *	iterator's cursor
 * @head: the list head
 * @member: the name of @pos's struct cds_list_head field
 *
 * True when @pos is the (invalid) entry computed from the head itself,
 * as an entry iterator leaves its cursor when it runs to the end: only
 * the address &@pos->@member is compared with @head, nothing is read;
 * under clang it is computed without a member access through @pos,
 * which its -fsanitize=undefined would report (the head is no element).
 * Each argument is evaluated once; a @member that is not a struct
 * cds_list_head does not compile.
 *
 * Context: none needed, it reads no link; with readers, as with any
 * cursor, @pos is valid only inside the read-side critical section that
 * produced it.
 * Return: non-zero if @pos is the entry computed from @head.
 */
#define cds_list_entry_is_head(pos, head, member)			\
	(rculist__list_member_check(pos, member),			\
	 cds_list_is_head(rculist__list_link(pos, member), head))

/**
 * cds_list_first_entry - the first element of a non-empty list
 * @ptr: the list head
 * @type: the elements' type
 * @member: the name of the link's field in @type
 *
 * On an empty list it returns the head computed as an element: test
 * cds_list_empty() first, or use cds_list_first_entry_or_null().
 *
 * Context: the caller owns the list (or nothing updates it); readers of
 * an RCU-protected list use cds_list_first_or_null_rcu().
 * Return: a @type pointer.
 */
#define cds_list_first_entry(ptr, type, member) \
	cds_list_entry((ptr)->next, type, member)

/**
 * cds_list_last_entry - the last element of a non-empty list
 * @ptr: the list head
 * @type: the elements' type
 * @member: the name of the link's field in @type
 *
 * Context: the caller owns the list (or nothing updates it).
 * Return: a @type pointer (the head computed as an element if the list
 * is empty).
 */
#define cds_list_last_entry(ptr, type, member) \
	cds_list_entry((ptr)->prev, type, member)

/* @pos (a list head or link) minus @offset, or NULL where @pos is @head. */
static inline void *rculist__entry_or_null(const struct cds_list_head *head,
					   const struct cds_list_head *pos,
					   size_t offset)
{
	return pos == head ? NULL : (void *)((char *)(size_t)pos - offset);
}

/**
 * cds_list_first_entry_or_null - the first element of a list, or NULL
 * @ptr: the list head
 * @type: the elements' type
 * @member: the name of the link's field in @type
 *
 * Context: the caller owns the list (or nothing updates it); readers of
 * an RCU-protected list use cds_list_first_or_null_rcu().
 * Return: a @type pointer, or NULL if the list is empty.
 */
#define cds_list_first_entry_or_null(ptr, type, member)			\
	((type *)rculist__list_first_or_null(ptr, rculist__list_offsetof(type, member)))

static inline void *rculist__list_first_or_null(const struct cds_list_head *head,
						size_t offset)
{
	return rculist__entry_or_null(head, head->next, offset);
}

/* The last element of @head, or NULL if it is empty. */
static inline void *rculist__list_last_or_null(const struct cds_list_head *head,
					       size_t offset)
{
	return rculist__entry_or_null(head, head->prev, offset);
}

/**
 * cds_list_last_entry_or_null - the last element of a list, or NULL
 * @ptr: the list head (evaluated once)
 * @type: the elements' type
 * @member: the name of the link's field in @type
 *
 * Context: the caller owns the list (or nothing updates it).
 * Return: a @type pointer, or NULL if the list is empty.
 */
#define cds_list_last_entry_or_null(ptr, type, member)			\
	((type *)rculist__list_last_or_null(ptr, rculist__list_offsetof(type, member)))

/* The link after (@dir 0) or before (1) @link in @head, skipping the head. */
static inline void *rculist__list_circular(const struct cds_list_head *link,
					   const struct cds_list_head *head,
					   int dir, size_t offset)
{
	const struct cds_list_head *to = dir ? link->prev : link->next;

	if (to == head)
		to = dir ? head->prev : head->next;
	return (char *)(size_t)to - offset;
}

/**
 * cds_list_next_entry_circular - the element after an element, the first after the last
 * @pos: an element (a pointer to the enclosing structure)
 * @head: its list head
 * @member: the name of its link field
 *
 * Wraps around: after the last element comes the first, never the
 * head.  Each argument is evaluated once.
 *
 * Context: the caller owns the list (or nothing updates it).
 * Return: a pointer of @pos's type (@pos itself on a list of one).
 */
#define cds_list_next_entry_circular(pos, head, member)		\
	((RCULIST__TYPEOF(pos))rculist__list_circular(&(pos)->member, head, 0, \
		rculist__list_offsetof(RCULIST__POINTEE(pos), member)))

/**
 * cds_list_prev_entry_circular - the element before an element, the last before the first
 * @pos: an element (a pointer to the enclosing structure)
 * @head: its list head
 * @member: the name of its link field
 *
 * Context: the caller owns the list (or nothing updates it).
 * Return: a pointer of @pos's type (@pos itself on a list of one).
 */
#define cds_list_prev_entry_circular(pos, head, member)		\
	((RCULIST__TYPEOF(pos))rculist__list_circular(&(pos)->member, head, 1, \
		rculist__list_offsetof(RCULIST__POINTEE(pos), member)))

/* @pos if not NULL, else the head computed as an element. */
static inline void *rculist__prepare_entry(const void *pos,
					   const struct cds_list_head *head,
					   size_t offset)
{
	return (void *)(pos ? (size_t)pos : (size_t)head - offset);
}

/**
 * cds_list_prepare_entry - a cursor for cds_list_for_each_entry_continue()
 * @pos: an element, or NULL
 * @head: the list head
 * @member: the name of the link field
 *
 * @pos itself, or, when @pos is NULL, the head computed as an element,
 * so that cds_list_for_each_entry_continue() from it starts at the first
 * element.  Each argument is evaluated once.
 *
 * Context: address arithmetic only: reads nothing.
 * Return: a pointer of @pos's type.
 */
#define cds_list_prepare_entry(pos, head, member)			\
	((RCULIST__TYPEOF(pos))rculist__prepare_entry(pos, head,	\
		rculist__list_offsetof(RCULIST__POINTEE(pos), member)))

/**
 * cds_list_safe_reset_next - reload the next cursor of a safe iterator
 * @pos: the cursor of cds_list_for_each_entry_safe()
 * @n: its next cursor
 * @member: the name of the link field
 *
 * For a body that dropped the lock: the element held in @n may have
 * been removed meanwhile; @pos, still on the list, gives the right one.
 *
 * Context: the caller owns the list again (holds the update lock).
 */
#define cds_list_safe_reset_next(pos, n, member)			\
	((n) = cds_list_next_entry(pos, member))

/**
 * cds_list_next_entry - the element after an element
 * @pos: an element (a pointer to the enclosing structure)
 * @member: the name of its link field
 *
 * Context: the caller owns the list (or nothing updates it).
 * Return: a pointer of @pos's type; the head computed as an element
 * after the last.
 */
#define cds_list_next_entry(pos, member) \
	cds_list_entry(rculist__list_link(pos, member)->next,		\
		       RCULIST__POINTEE(pos), member)
/**
 * cds_list_prev_entry - the element before an element
 * @pos: an element (a pointer to the enclosing structure)
 * @member: the name of its link field
 *
 * Context: the caller owns the list (or nothing updates it).
 * Return: a pointer of @pos's type; the head computed as an element
 * before the first.
 */
#define cds_list_prev_entry(pos, member) \
	cds_list_entry(rculist__list_link(pos, member)->prev,		\
		       RCULIST__POINTEE(pos), member)

/*
 * Iterators.  In each, a hidden _h holds the head (evaluated once) and a
 * hidden cursor _c walks the links.  RCULIST__UNIQ gives both names
 * unique to the expansion, so that loops nest without shadowing; the
 * rculist__*_h helpers start the walk from the evaluated head.
 */

/**
 * cds_list_for_each - iterate over the links of a list
 * @pos: the cursor, a struct cds_list_head pointer
 * @head: the list head (evaluated once; may point to const)
 *
 * One for statement: break and continue work.
 *
 * Context: the list's owner, or anyone while nothing updates the list;
 * the body must not remove @pos (see cds_list_for_each_safe()).  RCU
 * readers use cds_list_for_each_rcu().
 */
#define cds_list_for_each(pos, head)					\
	rculist__for_each_h(pos, head, next, RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/**
 * cds_list_for_each_prev - iterate over the links of a list, last to first
 * @pos: the cursor, a struct cds_list_head pointer
 * @head: the list head (evaluated once)
 *
 * Context: as cds_list_for_each().
 */
#define cds_list_for_each_prev(pos, head)				\
	rculist__for_each_h(pos, head, prev, RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/**
 * cds_list_for_each_continue - go on iterating after the current link
 * @pos: the cursor, at a link of @head; the walk starts at the next one
 * @head: the list head (evaluated once)
 *
 * Context: as cds_list_for_each().
 */
#define cds_list_for_each_continue(pos, head)				\
	rculist__for_each(pos, (pos)->next, head, next,		\
			  RCULIST__UNIQ(h), RCULIST__UNIQ(c))
#define rculist__for_each_h(pos, head, dir, _h, _c)			\
	rculist__for_each(pos, _h->dir, head, dir, _h, _c)
#define rculist__for_each(pos, start, head, dir, _h, _c)		\
	for (struct cds_list_head *const _h = rculist__iter_head(head),	\
	     *_c = (start);						\
	     ((pos) = _c) != _h;					\
	     _c = _c->dir)

/**
 * cds_list_for_each_safe - iterate over the links of a list, the body may delete
 * @pos: the cursor, a struct cds_list_head pointer
 * @p: a struct cds_list_head pointer holding the next link
 * @head: the list head (evaluated once)
 *
 * The body may delete (and free) @pos, not the link held in @p.
 *
 * Context: the caller owns the list.
 */
#define cds_list_for_each_safe(pos, p, head)				\
	rculist__for_each_safe(pos, p, head, next,			\
			       RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/**
 * cds_list_for_each_prev_safe - iterate backwards, the body may delete
 * @pos: the cursor, a struct cds_list_head pointer
 * @p: a struct cds_list_head pointer holding the previous link
 * @head: the list head (evaluated once)
 *
 * Context: the caller owns the list.
 */
#define cds_list_for_each_prev_safe(pos, p, head)			\
	rculist__for_each_safe(pos, p, head, prev,			\
			       RCULIST__UNIQ(h), RCULIST__UNIQ(c))
#define rculist__for_each_safe(pos, p, head, dir, _h, _c)		\
	for (struct cds_list_head *const _h = rculist__iter_head(head),	\
	     *_c = _h->dir;						\
	     ((pos) = _c) != _h && ((p) = _c->dir, 1);			\
	     _c = (p))

/*
 * The entry iterators: @pos is a pointer to the enclosing structure, and
 * @member names its struct cds_list_head field.  When a loop runs to its
 * end, @pos is left at the (invalid) entry computed from the head, as in
 * the kernel, so "&pos->member == head" tells that nothing broke out.
 */
#define rculist__for_each_entry(pos, start, head, member, dir, _h, _c)	\
	for (struct cds_list_head *const _h = rculist__iter_head(head),	\
	     *_c = (rculist__list_member_check(pos, member),		\
		    rculist__iter_head(start));				\
	     (pos) = cds_list_entry(_c, RCULIST__POINTEE(pos), member),	\
	     _c != _h;							\
	     _c = _c->dir)
#define rculist__for_each_entry_h(pos, head, member, dir, _h, _c)	\
	rculist__for_each_entry(pos, _h->dir, head, member, dir, _h, _c)

/**
 * cds_list_for_each_entry - iterate over the elements of a list
 * @pos: the cursor, a pointer to the element type
 * @head: the list head (evaluated once; may point to const)
 * @member: the name of the link field in the element type
 *
 * When the loop runs to its end, @pos is left at the (invalid) element
 * computed from the head, as in the kernel: "&pos->member == head"
 * tells that nothing broke out.  cds_list_entry_is_head(pos, head,
 * member) asks the same without a member access through @pos, which
 * clang's -fsanitize=undefined reports when the head is smaller than an
 * element (a static or local head).
 *
 * Context: the list's owner, or anyone while nothing updates the list;
 * the body must not remove @pos (see cds_list_for_each_entry_safe()).
 * RCU readers use cds_list_for_each_entry_rcu().
 */
#define cds_list_for_each_entry(pos, head, member)			\
	rculist__for_each_entry_h(pos, head, member, next,		\
				  RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/**
 * cds_list_for_each_entry_reverse - iterate over the elements of a list, last to first
 * @pos: the cursor, a pointer to the element type
 * @head: the list head (evaluated once)
 * @member: the name of the link field
 *
 * Context: as cds_list_for_each_entry(); RCU readers use
 * cds_list_for_each_entry_reverse_rcu().
 */
#define cds_list_for_each_entry_reverse(pos, head, member)		\
	rculist__for_each_entry_h(pos, head, member, prev,		\
				  RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/**
 * cds_list_for_each_entry_continue - go on iterating after the current element
 * @pos: the cursor, at an element of @head; the walk starts at the next
 * @head: the list head (evaluated once)
 * @member: the name of the link field
 *
 * Context: as cds_list_for_each_entry().
 */
#define cds_list_for_each_entry_continue(pos, head, member)		\
	rculist__for_each_entry(pos, rculist__list_link(pos, member)->next, \
				head, member,				\
				next, RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/**
 * cds_list_for_each_entry_continue_reverse - go on iterating backwards before the current element
 * @pos: the cursor, at an element of @head; the walk starts at the one before
 * @head: the list head (evaluated once)
 * @member: the name of the link field
 *
 * Context: as cds_list_for_each_entry().
 */
#define cds_list_for_each_entry_continue_reverse(pos, head, member)	\
	rculist__for_each_entry(pos, rculist__list_link(pos, member)->prev, \
				head, member,				\
				prev, RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/**
 * cds_list_for_each_entry_from - iterate from the current element on
 * @pos: the cursor, at the first element to visit (or the head)
 * @head: the list head (evaluated once)
 * @member: the name of the link field
 *
 * Context: as cds_list_for_each_entry().
 */
#define cds_list_for_each_entry_from(pos, head, member)			\
	rculist__for_each_entry(pos, rculist__list_link(pos, member),	\
				head, member,				\
				next, RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/**
 * cds_list_for_each_entry_from_reverse - iterate backwards from the current element
 * @pos: the cursor, at the first element to visit (or the head)
 * @head: the list head (evaluated once)
 * @member: the name of the link field
 *
 * Context: as cds_list_for_each_entry().
 */
#define cds_list_for_each_entry_from_reverse(pos, head, member)		\
	rculist__for_each_entry(pos, rculist__list_link(pos, member),	\
				head, member,				\
				prev, RCULIST__UNIQ(h), RCULIST__UNIQ(c))

/*
 * The safe entry iterators: @n (same type as @pos) holds the next entry,
 * so that the body may delete and free @pos.
 */
#define rculist__for_each_entry_safe(pos, n, start, head, member, dir, _h, _c) \
	for (struct cds_list_head *const _h = rculist__iter_head(head),	\
	     *_c = (rculist__list_member_check(pos, member),		\
		    rculist__iter_head(start));				\
	     (pos) = cds_list_entry(_c, RCULIST__POINTEE(pos), member),	\
	     _c != _h && ((n) = cds_list_entry(_c->dir,			\
				RCULIST__POINTEE(pos), member), 1);	\
	     _c = rculist__iter_head(rculist__list_link(n, member)))
#define rculist__for_each_entry_safe_h(pos, n, head, member, dir, _h, _c) \
	rculist__for_each_entry_safe(pos, n, _h->dir, head, member, dir, _h, _c)

/**
 * cds_list_for_each_entry_safe - iterate over the elements, the body may delete
 * @pos: the cursor, a pointer to the element type
 * @n: a pointer of the same type, holding the next element
 * @head: the list head (evaluated once)
 * @member: the name of the link field
 *
 * The body may delete and free @pos, not the element held in @n.
 *
 * Context: the caller owns the list.
 */
#define cds_list_for_each_entry_safe(pos, n, head, member)		\
	rculist__for_each_entry_safe_h(pos, n, head, member, next,	\
				       RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/**
 * cds_list_for_each_entry_safe_reverse - iterate backwards, the body may delete
 * @pos: the cursor, a pointer to the element type
 * @n: a pointer of the same type, holding the previous element
 * @head: the list head (evaluated once)
 * @member: the name of the link field
 *
 * Context: the caller owns the list.
 */
#define cds_list_for_each_entry_safe_reverse(pos, n, head, member)	\
	rculist__for_each_entry_safe_h(pos, n, head, member, prev,	\
				       RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/**
 * cds_list_for_each_entry_safe_from - iterate from the current element on, the body may delete
 * @pos: the cursor, at the first element to visit
 * @n: a pointer of the same type, holding the next element
 * @head: the list head (evaluated once)
 * @member: the name of the link field
 *
 * Context: the caller owns the list.
 */
#define cds_list_for_each_entry_safe_from(pos, n, head, member)	\
	rculist__for_each_entry_safe(pos, n, rculist__list_link(pos, member), \
				     head,				\
				     member, next,			\
				     RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/**
 * cds_list_for_each_entry_safe_continue - iterate after the current element, the body may delete
 * @pos: the cursor, at an element; the walk starts at the next one
 * @n: a pointer of the same type, holding the next element
 * @head: the list head (evaluated once)
 * @member: the name of the link field
 *
 * Context: the caller owns the list.
 */
#define cds_list_for_each_entry_safe_continue(pos, n, head, member)	\
	rculist__for_each_entry_safe(pos, n,				\
				     rculist__list_link(pos, member)->next, head, \
				     member, next,			\
				     RCULIST__UNIQ(h), RCULIST__UNIQ(c))

#endif /* RCULIST_LIST_H */
