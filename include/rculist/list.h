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

/* Initialiser for a list head declared as @name: an empty list. */
#define CDS_LIST_HEAD_INIT(name)	{ &(name), &(name) }

/* Declare and initialise an empty list head @name (global or on stack). */
#define CDS_LIST_HEAD(name)	struct cds_list_head name = CDS_LIST_HEAD_INIT(name)

/**
 * CDS_INIT_LIST_HEAD - make @list an empty list (or an unlinked element).
 *
 * A function, not a macro: @list is evaluated once.  Not for a head that
 * RCU readers may be walking: see CDS_INIT_LIST_HEAD_RCU().
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
 * cds_list_add - insert @newp at the beginning of the list @head.
 *
 * before: [h] <-> a          after: [h] <-> newp <-> a
 */
static inline void cds_list_add(struct cds_list_head *newp,
				struct cds_list_head *head)
{
	__cds_list_add(newp, head, head->next);
}

/**
 * cds_list_add_tail - insert @newp at the end of the list @head.
 *
 * before: [h] <-> a          after: [h] <-> a <-> newp
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
 * cds_list_del - remove @elem from whatever list it is on.
 *
 * @elem's pointers are left as they were (poisoned in debug mode), so it
 * must be added or re-initialised before it is deleted again.  Calling
 * this on an element initialised with CDS_INIT_LIST_HEAD() and never
 * added is allowed and does nothing.
 *
 * before: [h] <-> a <-> b    after: [h] <-> b
 */
static inline void cds_list_del(struct cds_list_head *elem)
{
	__cds_list_del_entry(elem);
	RCULIST__POISON_LIST(elem);
}

/**
 * cds_list_del_init - remove @elem from its list and make it empty, so
 * that cds_list_empty(@elem) is true and it may be deleted again.
 */
static inline void cds_list_del_init(struct cds_list_head *elem)
{
	__cds_list_del_entry(elem);
	CDS_INIT_LIST_HEAD(elem);
}

/* cds_list_empty - whether the list @head has no element. */
static inline int cds_list_empty(const struct cds_list_head *head)
{
	return head->next == head;
}

/**
 * cds_list_empty_careful - whether @head is empty, checking both links.
 *
 * Only safe without a lock if the only concurrent change is a
 * cds_list_del_init() of the single element; it is no RCU primitive.
 */
static inline int cds_list_empty_careful(const struct cds_list_head *head)
{
	const struct cds_list_head *next = head->next;

	return next == head && next == head->prev;
}

/* cds_list_is_singular - whether @head holds exactly one element. */
static inline int cds_list_is_singular(const struct cds_list_head *head)
{
	return head->next != head && head->next == head->prev;
}

/* cds_list_is_first - whether @elem is the first element of @head. */
static inline int cds_list_is_first(const struct cds_list_head *elem,
				    const struct cds_list_head *head)
{
	return elem->prev == head;
}

/* cds_list_is_last - whether @elem is the last element of @head. */
static inline int cds_list_is_last(const struct cds_list_head *elem,
				   const struct cds_list_head *head)
{
	return elem->next == head;
}

/* cds_list_is_head - whether @elem is the head @head itself. */
static inline int cds_list_is_head(const struct cds_list_head *elem,
				   const struct cds_list_head *head)
{
	return elem == head;
}

/* cds_list_count_nodes - the number of elements on @head; O(n). */
static inline size_t cds_list_count_nodes(const struct cds_list_head *head)
{
	const struct cds_list_head *pos;
	size_t count = 0;

	for (pos = head->next; pos != head; pos = pos->next)
		count++;
	return count;
}

/**
 * cds_list_replace - put @newp where @old is; @old's pointers are left
 * as they were (poisoned in debug mode).  @old may be a list head.
 *
 * @old is only read, so it may be a pointer to const, as in liburcu
 * 0.15; debug mode still poisons it, so it must not be an object
 * defined const.
 *
 * before: [h] <-> old <-> b  after: [h] <-> newp <-> b
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

/* cds_list_replace_init - cds_list_replace(), then make @old empty. */
static inline void cds_list_replace_init(struct cds_list_head *old,
					 struct cds_list_head *newp)
{
	cds_list_replace(old, newp);
	CDS_INIT_LIST_HEAD(old);
}

/**
 * cds_list_swap - exchange the positions of @a and @b, on the same list
 * or on two different lists.
 *
 * before: [h] <-> a <-> x <-> b    after: [h] <-> b <-> x <-> a
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
 * cds_list_move - take @elem off its list and insert it at the beginning
 * of @head (which may be the same list).
 */
static inline void cds_list_move(struct cds_list_head *elem,
				 struct cds_list_head *head)
{
	__cds_list_del_entry(elem);
	cds_list_add(elem, head);
}

/* cds_list_move_tail - take @elem off its list, append it to @head. */
static inline void cds_list_move_tail(struct cds_list_head *elem,
				      struct cds_list_head *head)
{
	__cds_list_del_entry(elem);
	cds_list_add_tail(elem, head);
}

/**
 * cds_list_bulk_move_tail - move the run of elements from @first to
 * @last (inclusive, in list order, on one list) to the end of @head.
 *
 * before: [g] <-> x <-> first <-> y <-> last    [h] <-> a
 * after:  [g] <-> x                             [h] <-> a <-> first <-> y <-> last
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
 * cds_list_splice - insert the elements of @add at the beginning of
 * @head.  @add itself is left stale: re-initialise it before reuse, or
 * use cds_list_splice_init().
 *
 * before: [add] <-> x <-> y   [h] <-> a      after: [h] <-> x <-> y <-> a
 */
static inline void cds_list_splice(struct cds_list_head *add,
				   struct cds_list_head *head)
{
	if (!cds_list_empty(add))
		__cds_list_splice(add, head, head->next);
}

/* cds_list_splice_tail - insert the elements of @add at the end of @head. */
static inline void cds_list_splice_tail(struct cds_list_head *add,
					struct cds_list_head *head)
{
	if (!cds_list_empty(add))
		__cds_list_splice(add, head->prev, head);
}

/* cds_list_splice_init - cds_list_splice(), leaving @add empty. */
static inline void cds_list_splice_init(struct cds_list_head *add,
					struct cds_list_head *head)
{
	if (!cds_list_empty(add)) {
		__cds_list_splice(add, head, head->next);
		CDS_INIT_LIST_HEAD(add);
	}
}

/* cds_list_splice_tail_init - cds_list_splice_tail(), leaving @add empty. */
static inline void cds_list_splice_tail_init(struct cds_list_head *add,
					     struct cds_list_head *head)
{
	if (!cds_list_empty(add)) {
		__cds_list_splice(add, head->prev, head);
		CDS_INIT_LIST_HEAD(add);
	}
}

/**
 * cds_list_cut_position - move the first elements of @head, up to and
 * including @entry, to @list.  Whatever @list held is overwritten, so
 * pass an empty list or one whose elements you no longer need linked.
 * If @entry is @head itself, @list is just made empty.
 *
 * before: [h] <-> a <-> e <-> b    after: [list] <-> a <-> e   [h] <-> b
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
 * cds_list_cut_before - move the first elements of @head, up to but not
 * including @entry, to @list (overwritten).  If @entry is the first
 * element, @list is just made empty; if @entry is @head, everything
 * moves.
 *
 * before: [h] <-> a <-> e <-> b    after: [list] <-> a   [h] <-> e <-> b
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
 * cds_list_rotate_left - move the first element of @head to its end.
 *
 * before: [h] <-> a <-> b <-> c    after: [h] <-> b <-> c <-> a
 */
static inline void cds_list_rotate_left(struct cds_list_head *head)
{
	if (!cds_list_empty(head))
		cds_list_move_tail(head->next, head);
}

/**
 * cds_list_rotate_to_front - rotate @head so that @elem is its first
 * element, keeping the circular order.
 *
 * before: [h] <-> a <-> b <-> c    (elem = b)    after: [h] <-> b <-> c <-> a
 */
static inline void cds_list_rotate_to_front(struct cds_list_head *elem,
					    struct cds_list_head *head)
{
	/* Moving the head just before @elem makes @elem the first. */
	cds_list_move_tail(head, elem);
}

/*
 * The structure of type @type whose cds_list_head field @member is @ptr.
 * A @member of another type does not compile.
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
 * the address &@pos->@member is compared with @head, nothing is read.
 * Each argument is evaluated once; a @member that is not a struct
 * cds_list_head does not compile.  Concurrency: none needed, it reads
 * no link; with readers, as with any cursor, @pos is valid only inside
 * the read-side critical section that produced it.
 */
#define cds_list_entry_is_head(pos, head, member)			\
	(rculist__list_member_check(pos, member),			\
	 cds_list_is_head(&(pos)->member, head))

/* The first element of the non-empty list @ptr, as a @type. */
#define cds_list_first_entry(ptr, type, member) \
	cds_list_entry((ptr)->next, type, member)

/* The last element of the non-empty list @ptr, as a @type. */
#define cds_list_last_entry(ptr, type, member) \
	cds_list_entry((ptr)->prev, type, member)

/* @pos (a list head or link) minus @offset, or NULL where @pos is @head. */
static inline void *rculist__entry_or_null(const struct cds_list_head *head,
					   const struct cds_list_head *pos,
					   size_t offset)
{
	return pos == head ? NULL : (void *)((char *)(size_t)pos - offset);
}

/* The first element of @ptr as a @type, or NULL if the list is empty. */
#define cds_list_first_entry_or_null(ptr, type, member)			\
	((type *)rculist__list_first_or_null(ptr, rculist__list_offsetof(type, member)))

static inline void *rculist__list_first_or_null(const struct cds_list_head *head,
						size_t offset)
{
	return rculist__entry_or_null(head, head->next, offset);
}

/* The element after (before) @pos on its list; @pos is a typed element. */
#define cds_list_next_entry(pos, member) \
	cds_list_entry((pos)->member.next, RCULIST__POINTEE(pos), member)
#define cds_list_prev_entry(pos, member) \
	cds_list_entry((pos)->member.prev, RCULIST__POINTEE(pos), member)

/*
 * Iterators.  In each, a hidden _h holds the head (evaluated once) and a
 * hidden cursor _c walks the links.  RCULIST__UNIQ gives both names
 * unique to the expansion, so that loops nest without shadowing; the
 * rculist__*_h helpers start the walk from the evaluated head.
 */

/* Iterate @pos (struct cds_list_head *) over the links of @head. */
#define cds_list_for_each(pos, head)					\
	rculist__for_each_h(pos, head, next, RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/* The same, from the last link backwards. */
#define cds_list_for_each_prev(pos, head)				\
	rculist__for_each_h(pos, head, prev, RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/* Continue iterating @pos from the link after the current @pos. */
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

/*
 * Iterate @pos over the links of @head, with @p holding the next link,
 * so that the body may delete (and free) @pos.
 */
#define cds_list_for_each_safe(pos, p, head)				\
	rculist__for_each_safe(pos, p, head, next,			\
			       RCULIST__UNIQ(h), RCULIST__UNIQ(c))
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

/* Iterate @pos over the elements of @head, first to last. */
#define cds_list_for_each_entry(pos, head, member)			\
	rculist__for_each_entry_h(pos, head, member, next,		\
				  RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/* Iterate @pos over the elements of @head, last to first. */
#define cds_list_for_each_entry_reverse(pos, head, member)		\
	rculist__for_each_entry_h(pos, head, member, prev,		\
				  RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/* Iterate from the element after (before) the current @pos. */
#define cds_list_for_each_entry_continue(pos, head, member)		\
	rculist__for_each_entry(pos, (pos)->member.next, head, member,	\
				next, RCULIST__UNIQ(h), RCULIST__UNIQ(c))
#define cds_list_for_each_entry_continue_reverse(pos, head, member)	\
	rculist__for_each_entry(pos, (pos)->member.prev, head, member,	\
				prev, RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/* Iterate from the current @pos itself, forwards (backwards). */
#define cds_list_for_each_entry_from(pos, head, member)			\
	rculist__for_each_entry(pos, &(pos)->member, head, member,	\
				next, RCULIST__UNIQ(h), RCULIST__UNIQ(c))
#define cds_list_for_each_entry_from_reverse(pos, head, member)		\
	rculist__for_each_entry(pos, &(pos)->member, head, member,	\
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
	     _c = rculist__iter_head(&(n)->member))
#define rculist__for_each_entry_safe_h(pos, n, head, member, dir, _h, _c) \
	rculist__for_each_entry_safe(pos, n, _h->dir, head, member, dir, _h, _c)

#define cds_list_for_each_entry_safe(pos, n, head, member)		\
	rculist__for_each_entry_safe_h(pos, n, head, member, next,	\
				       RCULIST__UNIQ(h), RCULIST__UNIQ(c))
#define cds_list_for_each_entry_safe_reverse(pos, n, head, member)	\
	rculist__for_each_entry_safe_h(pos, n, head, member, prev,	\
				       RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/* Safe iteration starting from the current @pos itself. */
#define cds_list_for_each_entry_safe_from(pos, n, head, member)	\
	rculist__for_each_entry_safe(pos, n, &(pos)->member, head,	\
				     member, next,			\
				     RCULIST__UNIQ(h), RCULIST__UNIQ(c))
/* Safe iteration starting after the current @pos. */
#define cds_list_for_each_entry_safe_continue(pos, n, head, member)	\
	rculist__for_each_entry_safe(pos, n, (pos)->member.next, head,	\
				     member, next,			\
				     RCULIST__UNIQ(h), RCULIST__UNIQ(c))

#endif /* RCULIST_LIST_H */
