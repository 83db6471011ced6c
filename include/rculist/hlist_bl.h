/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/hlist_bl.h - linear lists whose head holds a spinning bit lock:
 * the kernel's <linux/list_bl.h> and <linux/rculist_bl.h>.
 *
 * A bit-locked list is a linear list with a one-pointer head whose bit 0
 * is a lock: the nodes are at least pointer aligned, so that bit of a
 * node address is always 0 and the head can carry it for free.  A hash
 * table of a million buckets so has a lock per bucket at no memory cost.
 *
 * Layout, as the kernel's: struct cds_hlist_bl_head is { first } and
 * struct cds_hlist_bl_node is { next, pprev }, where pprev is the address
 * of the link that points to the node (the head's first, or the previous
 * node's next), NULL when the node is on no list.  These are not the
 * rculist hlist's structures (whose nodes keep a prev node pointer).
 *
 * The lock.  cds_hlist_bl_lock() spins until it sets bit 0 of first with
 * an acquire compare-and-swap; cds_hlist_bl_unlock() clears it with a
 * release store.  Every update of the list (add, delete) is made with the
 * lock held, and keeps the bit as it finds it.  Nothing but the head's
 * word is used: no other memory, no fairness (a waiter may wait for ever
 * under contention; a thread spinning long yields its CPU).  The lock is
 * not recursive, and the holder must not block for long: readers are
 * not affected, but other updaters of the bucket spin.
 *
 * Readers: cds_hlist_bl_first(), cds_hlist_bl_first_rcu() and the
 * iterators mask the bit, so readers never see it, and the _rcu iterator
 * walks the list concurrently with updaters that hold the lock, inside a
 * read-side critical section.  A node removed with cds_hlist_bl_del_rcu()
 * may be freed only after a grace period.
 *
 * Ordering, as <rculist/hlist_rcu.h>: a node becomes reachable through
 * one release store of the link that leads to it, made once the node is
 * complete; the store that unlinks a node is a release too (its successor
 * may have been published just before); readers load links
 * dependency-ordered.  The plain operations here use the same stores,
 * since a plain add under the lock may race with a reader all the same
 * when the caller mixes them; only the _rcu names promise it.
 */
#ifndef RCULIST_HLIST_BL_H
#define RCULIST_HLIST_BL_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler.h"
#include "debug.h"

/**
 * struct cds_hlist_bl_head - the head of a bit-locked list: one pointer, whose bit 0 is the lock
 *
 * first is the first node, or NULL, with bit 0 set while the list is
 * locked.  Read it through cds_hlist_bl_first() or
 * cds_hlist_bl_first_rcu(), never directly.
 *
 * Context: written by the lock holder (and, for bit 0 alone, by
 * cds_hlist_bl_lock()); readers load it with cds_hlist_bl_first_rcu().
 */
struct cds_hlist_bl_head {
	struct cds_hlist_bl_node *first;
};

/**
 * struct cds_hlist_bl_node - the link embedded in each element of a bit-locked list
 *
 * next is the following node or NULL; pprev the address of the link
 * that points to this node (the head's first or the previous node's
 * next), NULL when the node is on no list.  The kernel's layout.
 *
 * Context: written by the list's lock holder; readers follow only next.
 */
struct cds_hlist_bl_node {
	struct cds_hlist_bl_node *next, **pprev;
};

/* Bit 0 of a head's first: the lock. */
#define RCULIST__BL_LOCK	((uintptr_t)1)

/* One round of a spinning wait: tell the CPU (and a sibling hyperthread). */
static inline void rculist__cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/*
 * Take bit 0 of the pointer at @word as a lock (acquire): spin while it
 * is set, yield the CPU after 128 rounds (the holder may be preempted).
 * A macro for the pointer's own type: hlist_bl heads and rhashtable
 * buckets share it.
 */
#define rculist__bit0_lock(word)					\
	do {								\
		unsigned int spins_ = 0;				\
		for (;;) {						\
			__typeof__(*(word)) old_ =			\
				rculist__load_once(*(word));		\
			if (!((uintptr_t)old_ & RCULIST__BL_LOCK) &&	\
			    __atomic_compare_exchange_n((word), &old_,	\
				(__typeof__(old_))((uintptr_t)old_ |	\
						   RCULIST__BL_LOCK),	\
				1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))	\
				break;					\
			if (++spins_ >= 128) {				\
				spins_ = 0;				\
				sched_yield();				\
			} else {					\
				rculist__cpu_relax();			\
			}						\
		}							\
	} while (0)

/*
 * offsetof(@type, @member), refused at compile time unless @member is a
 * struct cds_hlist_bl_node (see RCULIST__MEMBER_OFFSETOF in compiler.h).
 */
#define RCULIST__BL_MEMBER_MSG "member is not a struct cds_hlist_bl_node"
RCULIST__DEFINE_MEMBER_CHECK(rculist__member_is_not_a_struct_cds_hlist_bl_node,
			     struct cds_hlist_bl_node, RCULIST__BL_MEMBER_MSG)
#define rculist__bl_offsetof(type, member)				\
	RCULIST__MEMBER_OFFSETOF(type, member,				\
				 rculist__member_is_not_a_struct_cds_hlist_bl_node, \
				 struct cds_hlist_bl_node, RCULIST__BL_MEMBER_MSG)

/* @link with bit 0 cleared: the node it leads to, or NULL. */
static inline struct cds_hlist_bl_node *rculist__bl_node(struct cds_hlist_bl_node *link)
{
	return (struct cds_hlist_bl_node *)((uintptr_t)link & ~RCULIST__BL_LOCK);
}

/* @n carrying the lock bit that @old carries. */
static inline struct cds_hlist_bl_node *rculist__bl_with_bit_of(struct cds_hlist_bl_node *n,
								struct cds_hlist_bl_node *old)
{
	return (struct cds_hlist_bl_node *)((uintptr_t)n |
					    ((uintptr_t)old & RCULIST__BL_LOCK));
}

/**
 * CDS_INIT_HLIST_BL_HEAD - make a bit-locked list empty and unlocked
 * @head: the head
 *
 * A function, where the kernel's INIT_HLIST_BL_HEAD() is a macro: @head
 * is evaluated once.  A zero-filled head is empty and unlocked too.
 *
 * Context: the caller owns @head: no other thread uses it.
 */
static inline void CDS_INIT_HLIST_BL_HEAD(struct cds_hlist_bl_head *head)
{
	head->first = NULL;
}

/**
 * CDS_INIT_HLIST_BL_NODE - mark a node as on no list
 * @node: the node
 *
 * Sets next and pprev to NULL: cds_hlist_bl_unhashed() is then true and
 * cds_hlist_bl_del_init() does nothing to it.
 *
 * Context: the caller owns @node: it is on no list readers walk.
 */
static inline void CDS_INIT_HLIST_BL_NODE(struct cds_hlist_bl_node *node)
{
	node->next = NULL;
	node->pprev = NULL;
}

/**
 * cds_hlist_bl_entry - the structure that embeds a bit-locked list node
 * @ptr: the node (struct cds_hlist_bl_node *), not NULL
 * @type: the structure's type
 * @member: the name of the node's field in @type
 *
 * A @member of another type does not compile.
 *
 * Context: address arithmetic only: reads nothing.
 * Return: a @type pointer.
 */
#define cds_hlist_bl_entry(ptr, type, member)				\
	rculist__container_at(ptr, type, rculist__bl_offsetof(type, member))

/**
 * cds_hlist_bl_unhashed - whether a node is on no list
 * @node: the node
 *
 * True for a node initialised with CDS_INIT_HLIST_BL_NODE() or removed
 * with cds_hlist_bl_del_init(); not after cds_hlist_bl_del() or
 * cds_hlist_bl_del_rcu().
 *
 * Context: the holder of the lock of any list @node may be on.
 * Return: non-zero if @node's pprev is NULL.
 */
static inline int cds_hlist_bl_unhashed(const struct cds_hlist_bl_node *node)
{
	return node->pprev == NULL;
}

/**
 * cds_hlist_bl_first - the first node of a bit-locked list, without the lock bit
 * @head: the head
 *
 * One untorn load of first, bit 0 cleared.
 *
 * Context: the lock holder, or the list's owner; RCU readers use
 * cds_hlist_bl_first_rcu().
 * Return: the first node, or NULL if the list is empty.
 */
static inline struct cds_hlist_bl_node *cds_hlist_bl_first(const struct cds_hlist_bl_head *head)
{
	return rculist__bl_node(rculist__load_once(head->first));
}

/**
 * cds_hlist_bl_first_rcu - the first node of a bit-locked list, for a reader
 * @head: the head
 *
 * One dependency-ordered load of first, bit 0 cleared: a reader sees the
 * node complete, and never the lock.
 *
 * Context: reader, inside a read-side critical section; updaters may hold
 * the lock and change the list concurrently.  (The kernel's form also
 * accepts the lock holder; so does this one.)
 * Return: the first node, or NULL if the list is empty.
 */
static inline struct cds_hlist_bl_node *cds_hlist_bl_first_rcu(const struct cds_hlist_bl_head *head)
{
	return rculist__bl_node(rculist__deref(head->first));
}

/**
 * cds_hlist_bl_empty - whether a bit-locked list has no node
 * @head: the head
 *
 * The lock bit is ignored: a locked empty list is empty.
 *
 * Context: any thread; without the lock the answer may be stale at once.
 * Return: non-zero if @head is empty.
 */
static inline int cds_hlist_bl_empty(const struct cds_hlist_bl_head *head)
{
	return cds_hlist_bl_first(head) == NULL;
}

/**
 * cds_hlist_bl_lock - take the bit lock of a list
 * @head: the head
 *
 * Spins until bit 0 of first is clear, then sets it with an acquire
 * compare-and-swap: the holder sees every update made under the lock
 * before.  After many failed rounds the thread yields its CPU
 * (sched_yield()), since the holder may have been preempted.  Not
 * recursive: taken twice by one thread, it spins for ever.
 *
 * Context: any thread, registered or not, inside a read-side critical
 * section or not; it may spin for as long as another thread holds the
 * lock.  Readers do not take it.
 */
static inline void cds_hlist_bl_lock(struct cds_hlist_bl_head *head)
{
	rculist__bit0_lock(&head->first);
}

/**
 * cds_hlist_bl_unlock - release the bit lock of a list
 * @head: the head, locked by the caller
 *
 * Clears bit 0 of first with a release store: the next holder, and
 * cds_hlist_bl_is_locked(), see every update made under the lock.  Only
 * the holder writes first, so no read-modify-write is needed.
 *
 * Context: the thread that holds the lock.
 */
static inline void cds_hlist_bl_unlock(struct cds_hlist_bl_head *head)
{
	RCULIST__CHECK_BLLOCKED(head);
	__atomic_store_n(&head->first,
			 rculist__bl_node(rculist__load_once(head->first)),
			 __ATOMIC_RELEASE);
}

/**
 * cds_hlist_bl_is_locked - whether the bit lock of a list is held
 * @head: the head
 *
 * Context: any thread; by another thread than the holder, the answer may
 * be stale at once (an assertion helper, as in the kernel).
 * Return: non-zero if bit 0 of first is set.
 */
static inline int cds_hlist_bl_is_locked(const struct cds_hlist_bl_head *head)
{
	return (int)((uintptr_t)rculist__load_once(head->first) & RCULIST__BL_LOCK);
}

/* Point the head at @n, keeping the lock bit; a release store. */
static inline void rculist__bl_set_first(struct cds_hlist_bl_head *head,
					 struct cds_hlist_bl_node *n)
{
	rculist__publish(head->first,
			 rculist__bl_with_bit_of(n, rculist__load_once(head->first)));
}

/**
 * cds_hlist_bl_add_head - insert a node at the beginning of a bit-locked list
 * @n: the node, on no list
 * @head: the head, locked by the caller
 *
 * The lock bit is kept.  Debug mode reports a head that is not locked
 * (the kernel's CONFIG_DEBUG_LIST does the same).
 *
 * before: [h] -> a           after: [h] -> n <-> a
 *
 * Context: the caller holds @head's lock (cds_hlist_bl_lock()); readers
 * must not walk the list concurrently unless they tolerate what a plain
 * add promises (use cds_hlist_bl_add_head_rcu() for a list they walk).
 */
static inline void cds_hlist_bl_add_head(struct cds_hlist_bl_node *n,
					 struct cds_hlist_bl_head *head)
{
	struct cds_hlist_bl_node *first = cds_hlist_bl_first(head);

	RCULIST__CHECK_BLLOCKED(head);
	RCULIST__CHECK_BLADD(n, &head->first, first);
	n->next = first;
	if (first)
		first->pprev = &n->next;
	n->pprev = &head->first;
	rculist__bl_set_first(head, n);
}

/**
 * cds_hlist_bl_add_before - insert a node just before another
 * @n: the node to insert, on no list
 * @next: a node on a list
 *
 * If @next is first, the head's lock bit is kept.
 *
 * before: [h] -> a <-> next  after: [h] -> a <-> n <-> next
 *
 * Context: the caller holds the lock of @next's list; no reader walks it.
 */
static inline void cds_hlist_bl_add_before(struct cds_hlist_bl_node *n,
					   struct cds_hlist_bl_node *next)
{
	struct cds_hlist_bl_node **pprev = next->pprev;

	RCULIST__CHECK_BLADD(n, pprev, next);
	n->pprev = pprev;
	n->next = next;
	next->pprev = &n->next;
	/* *pprev may be the head's first: keep its lock bit. */
	rculist__publish(*pprev, rculist__bl_with_bit_of(n, rculist__load_once(*pprev)));
}

/**
 * cds_hlist_bl_add_behind - insert a node just after another
 * @n: the node to insert, on no list
 * @prev: a node on a list
 *
 * before: [h] -> prev <-> b  after: [h] -> prev <-> n <-> b
 *
 * Context: the caller holds the lock of @prev's list; no reader walks it.
 */
static inline void cds_hlist_bl_add_behind(struct cds_hlist_bl_node *n,
					   struct cds_hlist_bl_node *prev)
{
	struct cds_hlist_bl_node *next = prev->next;

	RCULIST__CHECK_BLADD(n, &prev->next, next);
	n->next = next;
	n->pprev = &prev->next;
	rculist__publish(prev->next, n);
	if (next)
		next->pprev = &n->next;
}

/*
 * Unlink @n: its predecessor's link (the head's first, lock bit kept)
 * now leads to @n's successor, with a release store (the successor may
 * have been published just before).  @n's own links are left alone.
 */
static inline void __cds_hlist_bl_del(struct cds_hlist_bl_node *n)
{
	struct cds_hlist_bl_node *next = n->next;
	struct cds_hlist_bl_node **pprev = n->pprev;

	RCULIST__CHECK_BLDEL(n);
	rculist__publish(*pprev, rculist__bl_with_bit_of(next, rculist__load_once(*pprev)));
	if (next)
		next->pprev = pprev;
}

/**
 * cds_hlist_bl_del - remove a node from its bit-locked list
 * @n: the node, on a list
 *
 * The head's lock bit is kept.  @n's links are left stale (the kernel
 * poisons them; debug mode poisons them with RCULIST_POISON_NEXT and
 * RCULIST_POISON_PREV and reports a second delete).
 *
 * before: [h] -> a <-> b     after: [h] -> b
 *
 * Context: the caller holds the list's lock; no reader walks it (see
 * cds_hlist_bl_del_rcu()).
 */
static inline void cds_hlist_bl_del(struct cds_hlist_bl_node *n)
{
	__cds_hlist_bl_del(n);
	RCULIST__POISON_BL(n);
}

/**
 * cds_hlist_bl_del_init - remove a node from its list, if on one, and mark it unhashed
 * @n: the node
 *
 * Does nothing to an unhashed node.
 *
 * before: [h] -> a <-> b     after: [h] -> b    (a unhashed)
 *
 * Context: the caller holds the list's lock; no reader walks it.
 */
static inline void cds_hlist_bl_del_init(struct cds_hlist_bl_node *n)
{
	if (!cds_hlist_bl_unhashed(n)) {
		__cds_hlist_bl_del(n);
		CDS_INIT_HLIST_BL_NODE(n);
	}
}

/**
 * cds_hlist_bl_add_head_rcu - insert a node at the beginning of a bit-locked list that readers walk
 * @n: the node, on no list, fully initialised
 * @head: the head, locked by the caller
 *
 * @n is complete before the release store of the head's first (lock bit
 * kept) publishes it, so a reader that finds it sees its contents.
 *
 * before: [h] -> a           after: [h] -> n <-> a
 *
 * Context: the caller holds @head's lock (cds_hlist_bl_lock()) and need
 * not be a registered reader; readers may walk the list concurrently
 * with cds_hlist_bl_for_each_entry_rcu() inside read-side critical
 * sections.
 */
static inline void cds_hlist_bl_add_head_rcu(struct cds_hlist_bl_node *n,
					     struct cds_hlist_bl_head *head)
{
	cds_hlist_bl_add_head(n, head);
}

/**
 * cds_hlist_bl_del_rcu - remove a node from a bit-locked list that readers walk
 * @n: the node, on the list
 *
 * @n's next is left intact: a reader standing on @n goes on to the rest
 * of the list.  Its pprev is left stale (poisoned in debug mode).  The
 * head's lock bit is kept.
 *
 * before: [h] -> a <-> b     after: [h] -> b      (a still -> b)
 *
 * Context: the caller holds the list's lock; readers concurrent.  Free
 * or reuse @n only after a grace period (rculist_synchronize_rcu(),
 * rculist_call_rcu(), rculist_free_rcu()).
 */
static inline void cds_hlist_bl_del_rcu(struct cds_hlist_bl_node *n)
{
	__cds_hlist_bl_del(n);
	RCULIST__POISON_BL_RCU(n);
}

/**
 * cds_hlist_bl_for_each_entry - iterate over the elements of a bit-locked list
 * @tpos: the cursor, a pointer to the element type
 * @pos: a struct cds_hlist_bl_node pointer, NULL at the end
 * @head: the head
 * @member: the name of the node field in the element type
 *
 * The kernel's argument list (element cursor, node cursor, head,
 * member).  @tpos is only computed from a non-NULL @pos; test @pos after
 * the loop.
 *
 * Context: the lock holder, or anyone while nothing updates the list;
 * RCU readers use cds_hlist_bl_for_each_entry_rcu().
 */
#define cds_hlist_bl_for_each_entry(tpos, pos, head, member)		\
	for ((pos) = cds_hlist_bl_first(head);				\
	     (pos) != NULL &&						\
	     ((tpos) = cds_hlist_bl_entry(pos, RCULIST__POINTEE(tpos), member), 1); \
	     (pos) = (pos)->next)

/**
 * cds_hlist_bl_for_each_entry_safe - iterate over the elements of a bit-locked list, the body may delete
 * @tpos: the cursor, a pointer to the element type
 * @pos: a struct cds_hlist_bl_node pointer, NULL at the end
 * @n: a struct cds_hlist_bl_node pointer holding the next node
 * @head: the head
 * @member: the name of the node field
 *
 * The body may delete (and free) @tpos, not the node held in @n.
 *
 * Context: the lock holder.
 */
#define cds_hlist_bl_for_each_entry_safe(tpos, pos, n, head, member)	\
	for ((pos) = cds_hlist_bl_first(head);				\
	     (pos) != NULL && ((n) = (pos)->next,			\
	     (tpos) = cds_hlist_bl_entry(pos, RCULIST__POINTEE(tpos), member), 1); \
	     (pos) = (n))

/**
 * cds_hlist_bl_for_each_entry_rcu - iterate over the elements of a bit-locked list, for a reader
 * @tpos: the cursor, a pointer to the element type
 * @pos: a struct cds_hlist_bl_node pointer, NULL at the end
 * @head: the head
 * @member: the name of the node field
 * @...: @member, then optionally @cond, as for cds_list_for_each_entry_rcu()
 *
 * The kernel's argument list.  Each link is loaded once,
 * dependency-ordered, the lock bit masked: the walk never sees the lock,
 * nor waits for it.  It may see elements added or removed while it runs,
 * never freed ones.
 *
 * Context: reader, inside a read-side critical section (under qsbr:
 * online); updaters holding the lock may change the list concurrently.
 * Debug mode reports a use outside a section.
 */
#define cds_hlist_bl_for_each_entry_rcu(tpos, pos, head, ...)		\
	RCULIST__ITER_SITE(cds_hlist_bl_for_each_entry_rcu)		\
	rculist__bl_for_each_entry_rcu(tpos, pos, head,			\
		RCULIST__ARG1(__VA_ARGS__), RCULIST__ITER_CHECK(__VA_ARGS__))
#define rculist__bl_for_each_entry_rcu(tpos, pos, head, member, check)	\
	for ((pos) = (check, cds_hlist_bl_first_rcu(head));		\
	     (pos) != NULL &&						\
	     ((tpos) = cds_hlist_bl_entry(pos, RCULIST__POINTEE(tpos), member), 1); \
	     (pos) = rculist__deref((pos)->next))

#endif /* RCULIST_HLIST_BL_H */
