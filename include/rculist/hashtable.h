/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/hashtable.h - fixed-size hash tables of hlists, and the
 * multiplicative hashes that choose their buckets: the Linux kernel's
 * <linux/hashtable.h> and <linux/hash.h> under cds_ names, with the same
 * arguments, the same meaning and the same hash values.
 *
 * A table is an array of 2^bits struct cds_hlist_head, its size known at
 * compile time: CDS_DEFINE_HASHTABLE(name, bits) defines an empty one;
 * CDS_DECLARE_HASHTABLE(name, bits) declares one (a structure member,
 * typically) that cds_hash_init() empties.  An object whose key is @key
 * goes into bucket cds_hash_min(@key, CDS_HASH_BITS(name)), the bucket
 * the kernel would choose.  The macros that take the table read its size
 * with sizeof: they need the array itself, and a pointer does not compile.
 *
 *	struct obj { int key; struct cds_hlist_node node; };
 *	static CDS_DEFINE_HASHTABLE(objs, 10);
 *
 *	cds_hash_add_rcu(objs, &o->node, o->key);	(updater, locked)
 *	rculist_read_lock();
 *	cds_hash_for_each_possible_rcu(objs, o, node, key)
 *		if (o->key == key)
 *			break;
 *	rculist_read_unlock();
 *
 * Each operation is the hlist operation on one bucket, with its contract
 * and its debug-mode checks (<rculist/hlist.h>, <rculist/hlist_rcu.h>):
 * the caller serialises the updates of a bucket (one lock for the table,
 * or one per bucket); the _rcu iterators may run concurrently with
 * cds_hash_add_rcu() and cds_hash_del_rcu(), inside read-side critical
 * sections; an object deleted with cds_hash_del_rcu() may be freed only
 * after a grace period.  Nothing here allocates, resizes or locks.
 */
#ifndef RCULIST_HASHTABLE_H
#define RCULIST_HASHTABLE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler.h"
#include "types.h"
#include "hlist.h"
#include "hlist_rcu.h"

/* ------------------------------------------------------------ hash.h */

/**
 * CDS_GOLDEN_RATIO_32 - the multiplier of cds_hash_32()
 *
 * 0x61C88647, the kernel's GOLDEN_RATIO_32: 2^32 * (1 - phi), phi the
 * golden ratio's fractional part, an odd number whose product with a
 * key spreads the key's bits into the high bits (Knuth's multiplicative
 * hashing).
 *
 * Context: a compile-time constant.
 */
#define CDS_GOLDEN_RATIO_32	0x61C88647U
/**
 * CDS_GOLDEN_RATIO_64 - the multiplier of cds_hash_64() on 64-bit machines
 *
 * 0x61C8864680B583EB, the kernel's GOLDEN_RATIO_64: 2^64 * (1 - phi).
 *
 * Context: a compile-time constant.
 */
#define CDS_GOLDEN_RATIO_64	0x61C8864680B583EBULL

/**
 * cds_hash_32 - the kernel's hash_32(): a 32-bit key to a bucket index
 * @val: the key
 * @bits: the width of the index, 0 to 32
 *
 * The high @bits bits of @val * CDS_GOLDEN_RATIO_32 (mod 2^32): the
 * kernel's value for every @val and for @bits 1 to 32.  @bits 0 gives 0
 * (the kernel's shift by 32 is undefined there).
 *
 * Context: a pure computation: any thread.
 * Return: a value below 2^@bits.
 */
static inline uint32_t cds_hash_32(uint32_t val, unsigned int bits)
{
	uint32_t product = (uint32_t)(val * CDS_GOLDEN_RATIO_32);

	/* 64-bit shift: exact for every bits from 0 to 32 */
	return (uint32_t)((uint64_t)product >> (32 - bits));
}

/**
 * cds_hash_64 - the kernel's hash_64(): a 64-bit key to a bucket index
 * @val: the key
 * @bits: the width of the index, 0 to 32
 *
 * The kernel's value, which depends on the width of long as in the
 * kernel: with a 64-bit long, the high @bits bits of
 * @val * CDS_GOLDEN_RATIO_64 (mod 2^64); with a 32-bit long,
 * cds_hash_32() of the low half of @val xor the high half times
 * CDS_GOLDEN_RATIO_32.  A program that stores hashes across machines
 * of both widths must choose one itself.  @bits 0 gives 0.
 *
 * Context: a pure computation: any thread.
 * Return: a value below 2^@bits.
 */
static inline uint32_t cds_hash_64(uint64_t val, unsigned int bits)
{
#if ULONG_MAX > 0xffffffffUL
	return bits ? (uint32_t)(val * CDS_GOLDEN_RATIO_64 >> (64 - bits)) : 0;
#else
	uint32_t high = (uint32_t)((uint32_t)(val >> 32) * CDS_GOLDEN_RATIO_32);

	return cds_hash_32((uint32_t)val ^ high, bits);
#endif
}

/**
 * cds_hash_long - the kernel's hash_long(): an unsigned long key to a bucket index
 * @val: the key
 * @bits: the width of the index, 0 to 32
 *
 * cds_hash_64() where long has 64 bits, cds_hash_32() where it has 32.
 *
 * Context: a pure computation: any thread.
 * Return: a value below 2^@bits.
 */
static inline uint32_t cds_hash_long(unsigned long val, unsigned int bits)
{
#if ULONG_MAX > 0xffffffffUL
	return cds_hash_64(val, bits);
#else
	return cds_hash_32(val, bits);
#endif
}

/**
 * cds_hash_ptr - the kernel's hash_ptr(): an address to a bucket index
 * @ptr: the address (only its value is used)
 * @bits: the width of the index, 0 to 32
 *
 * cds_hash_long() of the address.  For tables keyed by object address:
 * cds_hash_add() and its iterators take integer keys only (as the
 * kernel's do), so such a table passes (unsigned long)ptr as the key.
 *
 * Context: a pure computation: any thread.
 * Return: a value below 2^@bits.
 */
static inline uint32_t cds_hash_ptr(const void *ptr, unsigned int bits)
{
	return cds_hash_long((unsigned long)(uintptr_t)ptr, bits);
}

/**
 * cds_hash_min - the bucket index the hash tables give a key
 * @val: the key, an integer (evaluated once)
 * @bits: the width of the index, 0 to 32
 *
 * The kernel's hash_min(): cds_hash_32() for a key of at most 4 bytes,
 * cds_hash_long() for a wider one, so that a key of a given type lands
 * in the bucket the kernel's hash tables would put it in.  Only the
 * type's size chooses: a long key holding a small value is hashed with
 * cds_hash_long().
 *
 * Context: a pure computation: any thread.
 * Return: a value below 2^@bits.
 */
#define cds_hash_min(val, bits)						\
	(sizeof(val) <= 4 ? cds_hash_32(val, bits) : cds_hash_long(val, bits))

/* ------------------------------------------------------- hashtable.h */

/**
 * CDS_DEFINE_HASHTABLE - define an empty hash table
 * @name: the name of the table, an array of struct cds_hlist_head
 * @bits: log2 of the number of buckets, an integer constant
 *
 * "static CDS_DEFINE_HASHTABLE(objs, 10);" defines 1024 empty buckets.
 * At block scope the table is emptied each time the declaration runs.
 *
 * Context: a definition: the table is not yet shared.
 */
#define CDS_DEFINE_HASHTABLE(name, bits)				\
	struct cds_hlist_head name[1 << (bits)] = { { { NULL } } }

/**
 * CDS_DEFINE_READ_MOSTLY_HASHTABLE - define an empty hash table that is mostly read
 * @name: the name of the table
 * @bits: log2 of the number of buckets, an integer constant
 *
 * CDS_DEFINE_HASHTABLE(): the kernel's variant places the table in a
 * section of read-mostly data, which user space does not have.
 *
 * Context: a definition: the table is not yet shared.
 */
#define CDS_DEFINE_READ_MOSTLY_HASHTABLE(name, bits)			\
	CDS_DEFINE_HASHTABLE(name, bits)

/**
 * CDS_DECLARE_HASHTABLE - declare a hash table, not initialised
 * @name: the name of the table
 * @bits: log2 of the number of buckets, an integer constant
 *
 * For a structure member or a table defined elsewhere; cds_hash_init()
 * empties it before use (a static or zeroed one is empty already).
 *
 * Context: a declaration.
 */
#define CDS_DECLARE_HASHTABLE(name, bits)				\
	struct cds_hlist_head name[1 << (bits)]

/*
 * The number of elements of the array @name, refused at compile time
 * for a pointer (the kernel's ARRAY_SIZE()): C++ deduces the bound of an
 * array reference, C compares the type of @name with that of a pointer
 * to its first element.  @name is not evaluated.
 */
#ifdef __cplusplus
extern "C++" {
template <class T, size_t N> char (&rculist__hash_array_size(T (&)[N]))[N];
}
#define rculist__hash_size(name)	sizeof(rculist__hash_array_size(name))
#else
#define rculist__hash_size(name)					\
	(sizeof(name) / sizeof((name)[0]) + 0 * sizeof(struct {		\
		unsigned int rculist__hash_table_is_a_pointer_not_an_array : \
			__builtin_types_compatible_p(__typeof__(name),	\
				__typeof__(&(name)[0])) ? -1 : 1;	\
	}))
#endif

/**
 * CDS_HASH_SIZE - the number of buckets of a hash table
 * @name: the table, an array (a pointer does not compile); not evaluated
 *
 * Context: a compile-time constant.
 * Return: the number of buckets, a size_t.
 */
#define CDS_HASH_SIZE(name)	rculist__hash_size(name)

/**
 * CDS_HASH_BITS - log2 of the number of buckets of a hash table
 * @name: the table, an array (a pointer does not compile); not evaluated
 *
 * The kernel's ilog2(HASH_SIZE(name)): the bits argument of the table's
 * CDS_DEFINE_HASHTABLE() or CDS_DECLARE_HASHTABLE().
 *
 * Context: a constant, folded at compile time.
 * Return: an unsigned int.
 */
#define CDS_HASH_BITS(name)						\
	((unsigned int)(sizeof(unsigned long long) * CHAR_BIT - 1 -	\
			__builtin_clzll(CDS_HASH_SIZE(name))))

/* Empty @size buckets from @table. */
static inline void rculist__hash_init(struct cds_hlist_head *table, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		CDS_INIT_HLIST_HEAD(&table[i]);
}

/**
 * cds_hash_init - empty every bucket of a hash table
 * @table: the table, an array (evaluated once)
 *
 * For a table declared with CDS_DECLARE_HASHTABLE(); objects still in
 * the table are dropped, not unlinked.
 *
 * Context: the caller owns the table: no reader walks it, no updater
 * runs.
 */
#define cds_hash_init(table)	rculist__hash_init(table, CDS_HASH_SIZE(table))

/* Whether the @size buckets from @table are all empty. */
static inline int rculist__hash_empty(const struct cds_hlist_head *table,
				      size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		if (!cds_hlist_empty(&table[i]))
			return 0;
	return 1;
}

/**
 * cds_hash_empty - whether a hash table holds no object
 * @table: the table, an array (evaluated once)
 *
 * Looks at every bucket, each with one untorn load.
 *
 * Context: any thread; with updaters running the answer may be stale at
 * once (no bucket is looked at twice, and no snapshot of the whole table
 * is taken).
 * Return: non-zero if every bucket is empty.
 */
#define cds_hash_empty(table)	rculist__hash_empty(table, CDS_HASH_SIZE(table))

/**
 * cds_hash_add - add an object to a hash table
 * @table: the table, an array (evaluated once)
 * @node: the object's struct cds_hlist_node, on no list
 * @key: the object's key, an integer (evaluated once)
 *
 * cds_hlist_add_head() into bucket cds_hash_min(@key, CDS_HASH_BITS(@table)).
 * Objects with equal keys may be added: the table keeps them all,
 * newest first.
 *
 * Context: the caller owns the bucket: updaters serialised, no RCU
 * reader walking it (see cds_hash_add_rcu()).
 */
#define cds_hash_add(table, node, key)					\
	cds_hlist_add_head(node, &(table)[cds_hash_min(key, CDS_HASH_BITS(table))])

/**
 * cds_hash_add_rcu - add an object to a hash table that readers walk
 * @table: the table, an array (evaluated once)
 * @node: the object's struct cds_hlist_node, on no list, the object
 *	fully initialised
 * @key: the object's key, an integer (evaluated once)
 *
 * cds_hlist_add_head_rcu() into the key's bucket: the object is complete
 * before the release store that publishes it.
 *
 * Context: updaters of the bucket serialised by the caller (a lock for
 * the table or one per bucket), which need not be a registered reader;
 * readers may walk the table concurrently inside read-side critical
 * sections.
 */
#define cds_hash_add_rcu(table, node, key)				\
	cds_hlist_add_head_rcu(node, &(table)[cds_hash_min(key, CDS_HASH_BITS(table))])

/**
 * cds_hash_hashed - whether an object is in a hash table
 * @node: the object's struct cds_hlist_node
 *
 * True after cds_hash_add() or cds_hash_add_rcu(); false for a node
 * initialised with CDS_INIT_HLIST_NODE() or removed with cds_hash_del()
 * or cds_hash_del_rcu().
 *
 * Context: the updater of the node's bucket (or its owner); a thread
 * without the lock uses cds_hlist_unhashed_lockless() for a hint.
 * Return: non-zero if @node is on a list.
 */
static inline int cds_hash_hashed(const struct cds_hlist_node *node)
{
	return !cds_hlist_unhashed(node);
}

/**
 * cds_hash_del - remove an object from a hash table
 * @node: the object's struct cds_hlist_node
 *
 * cds_hlist_del_init(): @node is then unhashed (cds_hash_hashed() is
 * false) and may be deleted again harmlessly, or added again.
 *
 * Context: the caller owns the bucket: updaters serialised, no RCU
 * reader walking it (see cds_hash_del_rcu()).
 */
static inline void cds_hash_del(struct cds_hlist_node *node)
{
	cds_hlist_del_init(node);
}

/**
 * cds_hash_del_rcu - remove an object from a hash table that readers walk
 * @node: the object's struct cds_hlist_node
 *
 * cds_hlist_del_init_rcu(): @node is unhashed at once, while its next
 * link is left for the readers standing on it.  Free the object, or add
 * it to a table again, only after a grace period
 * (rculist_synchronize_rcu(), rculist_call_rcu(), rculist_free_rcu()).
 *
 * Context: updaters of the bucket serialised by the caller; readers may
 * walk it concurrently.
 */
static inline void cds_hash_del_rcu(struct cds_hlist_node *node)
{
	cds_hlist_del_init_rcu(node);
}

/*
 * The bucket loop of the whole-table iterators, written once: @_t holds
 * the table (evaluated once), @bkt runs over the buckets, and the loop
 * ends at the last bucket or as soon as @obj is left non-NULL, by a
 * break out of the bucket's own loop (whose walks end with @obj NULL):
 * after the increment of @bkt, as the kernel's does.
 * The outer one-pass loop only holds @_t.  The bound is a non-negative
 * int constant, so that neither an int nor an unsigned @bkt draws
 * -Wsign-compare (the kernel's users write both).
 */
#define rculist__hash_buckets(name, bkt, obj, _t)			\
	for (struct cds_hlist_head *_t = (name); _t != NULL; _t = NULL)	\
		for ((bkt) = 0, (obj) = NULL;				\
		     (obj) == NULL && (bkt) < (int)CDS_HASH_SIZE(name); (bkt)++)

/**
 * cds_hash_for_each - iterate over every object of a hash table
 * @name: the table, an array (evaluated once)
 * @bkt: an integer variable, the bucket of @obj
 * @obj: the cursor, a pointer to the object type; NULL after a walk to
 *	the end
 * @member: the name of the struct cds_hlist_node in the object type
 *
 * Bucket by bucket, each newest first.  A break leaves the whole walk
 * with @obj at the object and, as in the kernel, @bkt one past its
 * bucket (inside the body @bkt is the object's bucket).
 *
 * Context: the table's owner, or anyone while nothing updates it; RCU
 * readers use cds_hash_for_each_rcu().
 */
#define cds_hash_for_each(name, bkt, obj, member)			\
	rculist__hash_for_each(name, bkt, obj, member, RCULIST__UNIQ(t))
#define rculist__hash_for_each(name, bkt, obj, member, _t)		\
	rculist__hash_buckets(name, bkt, obj, _t)			\
		cds_hlist_for_each_entry_2(obj, &_t[bkt], member)

/**
 * cds_hash_for_each_rcu - iterate over every object of a hash table, for a reader
 * @name: the table, an array (evaluated once)
 * @bkt: an integer variable, the bucket of @obj
 * @obj: the cursor, a pointer to the object type; NULL after a walk to
 *	the end
 * @member: the name of the struct cds_hlist_node in the object type
 *
 * Each bucket walked as cds_hlist_for_each_entry_rcu_2() walks it: an
 * object added or deleted meanwhile may be seen or not, a freed one
 * never.  A break leaves @obj at the object and @bkt one past its
 * bucket, as cds_hash_for_each() does.  Not a snapshot: a walk of a table that updaters change may
 * see an object that was deleted after an object it does not see was
 * added.
 *
 * Context: reader, inside a read-side critical section (under qsbr:
 * online); updaters may run concurrently.  Debug mode reports a walk
 * outside a section.
 */
#define cds_hash_for_each_rcu(name, bkt, obj, member)			\
	rculist__hash_for_each_rcu(name, bkt, obj, member, RCULIST__UNIQ(t))
#define rculist__hash_for_each_rcu(name, bkt, obj, member, _t)		\
	rculist__hash_buckets(name, bkt, obj, _t)			\
		cds_hlist_for_each_entry_rcu_2(obj, &_t[bkt], member)

/**
 * cds_hash_for_each_safe - iterate over every object of a hash table, the body may delete
 * @name: the table, an array (evaluated once)
 * @bkt: an integer variable, the bucket of @obj
 * @tmp: a struct cds_hlist_node pointer, holding the next node
 * @obj: the cursor, a pointer to the object type; NULL after a walk to
 *	the end
 * @member: the name of the struct cds_hlist_node in the object type
 *
 * The body may delete @obj (cds_hash_del()) and free it.  A break
 * leaves @obj and @bkt as cds_hash_for_each() does.
 *
 * Context: the caller owns the table.
 */
#define cds_hash_for_each_safe(name, bkt, tmp, obj, member)		\
	rculist__hash_for_each_safe(name, bkt, tmp, obj, member, RCULIST__UNIQ(t))
#define rculist__hash_for_each_safe(name, bkt, tmp, obj, member, _t)	\
	rculist__hash_buckets(name, bkt, obj, _t)			\
		rculist__hlist_for_each_entry_safe_node(obj, tmp, &_t[bkt], member)

/**
 * cds_hash_for_each_possible - iterate over the objects in the bucket of a key
 * @name: the table, an array (evaluated once)
 * @obj: the cursor, a pointer to the object type; NULL at the end
 * @member: the name of the struct cds_hlist_node in the object type
 * @key: the key, an integer (evaluated once)
 *
 * Every object of the key's bucket, those with other keys too: compare
 * the key in the body.
 *
 * Context: the table's owner, or anyone while nothing updates it; RCU
 * readers use cds_hash_for_each_possible_rcu().
 */
#define cds_hash_for_each_possible(name, obj, member, key)		\
	cds_hlist_for_each_entry_2(obj,					\
		&(name)[cds_hash_min(key, CDS_HASH_BITS(name))], member)

/**
 * cds_hash_for_each_possible_rcu - iterate over the objects in the bucket of a key, for a reader
 * @name: the table, an array (evaluated once)
 * @obj: the cursor, a pointer to the object type; NULL at the end
 * @member: the name of the struct cds_hlist_node in the object type
 * @...: the key, an integer (evaluated once), optionally followed by
 *	a condition that says the caller holds the update lock (the
 *	kernel's lockdep_is_held() idiom)
 *
 * cds_hash_for_each_possible_rcu(name, obj, member, key) and
 * cds_hash_for_each_possible_rcu(name, obj, member, key, cond) both
 * compile, as in the kernel; the condition is handed to
 * cds_hlist_for_each_entry_rcu_2(), which walks the bucket: an object
 * added or deleted meanwhile may be seen or not, a freed one never.
 *
 * Context: reader, inside a read-side critical section (under qsbr:
 * online), or an updater holding the update lock that passes the
 * condition; updaters may run concurrently.  Debug mode reports a walk
 * outside a section unless the condition is given and true; clang's
 * -Wthread-safety requires the read side unless a condition is given.
 */
/*
 * Two forms, picked by the number of arguments after @member (the key,
 * or the key and the condition): the third of (__VA_ARGS__, with, without).
 */
#define cds_hash_for_each_possible_rcu(name, obj, member, ...)		\
	RCULIST__ARG4(~, __VA_ARGS__, rculist__hash_possible_rcu_if,	\
		      rculist__hash_possible_rcu, ~)(name, obj, member, __VA_ARGS__)
#define rculist__hash_possible_rcu(name, obj, member, key)		\
	cds_hlist_for_each_entry_rcu_2(obj,				\
		&(name)[cds_hash_min(key, CDS_HASH_BITS(name))], member)
#define rculist__hash_possible_rcu_if(name, obj, member, key, cond)	\
	cds_hlist_for_each_entry_rcu_2(obj,				\
		&(name)[cds_hash_min(key, CDS_HASH_BITS(name))], member, cond)

/**
 * cds_hash_for_each_possible_rcu_notrace - iterate over the objects in the bucket of a key, for a reader, unchecked
 * @name: the table, an array (evaluated once)
 * @obj: the cursor, a pointer to the object type; NULL at the end
 * @member: the name of the struct cds_hlist_node in the object type
 * @key: the key, an integer (evaluated once)
 *
 * cds_hash_for_each_possible_rcu() without debug mode's check that the
 * walk is inside a read-side critical section (the kernel's variant
 * skips its RCU debugging the same way): for code that debug mode's
 * bookkeeping must not see, such as a tracer.
 *
 * Context: reader, inside a read-side critical section (under qsbr:
 * online), which nothing checks; updaters may run concurrently.
 */
#define cds_hash_for_each_possible_rcu_notrace(name, obj, member, key)	\
	rculist__hash_walk_rcu_notrace(obj,				\
		&(name)[cds_hash_min(key, CDS_HASH_BITS(name))], member)
#define rculist__hash_walk_rcu_notrace(obj, head, member)		\
	for ((obj) = rculist__hlist_entry_rcu_as(obj, (head)->next, member); \
	     (obj) != NULL;						\
	     (obj) = rculist__hlist_entry_rcu_as(obj, (obj)->member.next, member))

/**
 * cds_hash_for_each_possible_safe - iterate over the objects in the bucket of a key, the body may delete
 * @name: the table, an array (evaluated once)
 * @obj: the cursor, a pointer to the object type; NULL at the end
 * @tmp: a struct cds_hlist_node pointer, holding the next node
 * @member: the name of the struct cds_hlist_node in the object type
 * @key: the key, an integer (evaluated once)
 *
 * Context: the caller owns the table (at least the key's bucket).
 */
#define cds_hash_for_each_possible_safe(name, obj, tmp, member, key)	\
	rculist__hlist_for_each_entry_safe_node(obj, tmp,		\
		&(name)[cds_hash_min(key, CDS_HASH_BITS(name))], member)

#endif /* RCULIST_HASHTABLE_H */
