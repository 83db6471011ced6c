/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/rhashtable.h - a resizable RCU hash table: the Linux kernel's
 * <linux/rhashtable.h> (v6.12) in user space, every name with the cds_
 * prefix, with the kernel's arguments, return values and meaning.
 *
 *	struct obj { int key; struct cds_rhash_head node; };
 *	static const struct cds_rhashtable_params params = {
 *		.key_len = sizeof(int),
 *		.key_offset = offsetof(struct obj, key),
 *		.head_offset = offsetof(struct obj, node),
 *		.automatic_shrinking = true,
 *	};
 *
 *	cds_rhashtable_init(&ht, &params);
 *	err = cds_rhashtable_lookup_insert_fast(&ht, &o->node, params);
 *	o = cds_rhashtable_lookup_fast(&ht, &key, params);
 *	err = cds_rhashtable_remove_fast(&ht, &o->node, params);
 *	(free o after a grace period: rculist_free_rcu())
 *
 * The design, step by step (one comment block per protocol step is in
 * core/rhashtable.c):
 *
 * - Buckets.  A table is an array of 2^n bucket words.  A bucket word
 *   is the first object of its chain, or NULL when the chain is empty;
 *   bit 0 is the bucket's lock (objects are pointer aligned), so a table
 *   of a million buckets has a million locks at no memory cost.  Updaters
 *   of a bucket spin on its bit; readers never look at it (they mask it)
 *   and never wait.
 * - Nulls markers.  A chain does not end in NULL but in the address of
 *   its bucket with bit 0 set.  A reader that reaches the end of a chain
 *   checks that the marker is its own bucket's: an object moved to
 *   another table by a rehash while the reader stood on it leads into
 *   another chain, whose marker differs, and the reader walks its bucket
 *   again.
 * - Resizing.  An insert that takes the table above 75% load (a remove
 *   below 30%, with automatic_shrinking) asks rculist's rehash thread
 *   ("rculist-rhash") to resize.  It allocates a table of twice (half)
 *   the size, links it from the old one (future_tbl), then moves the
 *   objects bucket by bucket, each under its old and new bucket locks,
 *   publishes the new table and frees the old one after a grace period.
 *   Meanwhile lookups walk the old table and then every future_tbl;
 *   inserts go to the newest table; removals search each table in turn.
 *   No insert waits for a rehash; an insert that finds the table above
 *   100% load (the thread lags) allocates the next table itself.
 *
 * Where user space differs from the kernel (see rculist-migration(7)):
 * no gfp flags (allocation is malloc's: -ENOMEM when it fails, the table
 * left whole); no workqueue (one rculist thread serves every table; it
 * is not an RCU reader, so it never holds qsbr grace periods up, it does
 * not keep a process from exiting, and fork() waits for the rehash step
 * in progress); no nested tables (a table that cannot be allocated
 * whole is not used); the kernel's ERR_PTR values are tested with
 * CDS_IS_ERR() and CDS_PTR_ERR().  The hash of keys hashed by default
 * is rculist's own (not jhash).  Every update and lookup runs in a
 * registered reader thread (memb, qsbr, mb; any thread under bp): the
 * fast paths take a read-side critical section.
 *
 * Params: the struct cds_rhashtable_params given to cds_rhashtable_init()
 * is passed again, by value, to each fast path: a const object lets the
 * compiler specialise the inline code (key length, offsets, functions).
 * It must be the same as the one the table was initialised with.
 */
#ifndef RCULIST_RHASHTABLE_H
#define RCULIST_RHASHTABLE_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "compiler.h"
#include "types.h"
#include "runtime.h"
#include "hlist_bl.h"

RCULIST__BEGIN_DECLS

/* The fast paths are inlined whole, so that the params specialise them. */
#define RCULIST__RHT_INLINE __attribute__((always_inline))

/**
 * struct cds_rhash_head - the link embedded in each object of a cds_rhashtable
 * @next: the next object of the chain, or the chain's nulls marker
 *
 * One pointer, as the kernel's struct rhash_head.  Read it only through
 * the table's operations and iterators.
 *
 * Context: written by the holder of its bucket's lock; readers follow it
 * inside read-side critical sections.
 */
struct cds_rhash_head {
	struct cds_rhash_head *next;
};

/**
 * struct cds_rhlist_head - the link embedded in each object of a cds_rhltable
 * @rhead: the link in the bucket chain (used by the first object of a key)
 * @next: the next object with the same key, or NULL
 *
 * Objects of one key form a list hanging from the one in the chain.
 *
 * Context: written by the holder of its bucket's lock; readers follow it
 * with cds_rhl_for_each_entry_rcu().
 */
struct cds_rhlist_head {
	struct cds_rhash_head rhead;
	struct cds_rhlist_head *next;
};

/* A bucket word: the first object with bit 0 the lock (never dereferenced). */
struct cds_rhash_lock_head;

/**
 * struct cds_bucket_table - one table of buckets of a cds_rhashtable
 * @size: the number of buckets, a power of two
 * @nest: always 0 (the kernel's nested tables are not used)
 * @hash_rnd: the seed of this table's hash
 * @walkers: the stopped walkers on this table (under the table's lock)
 * @dying: set, under the table's lock, once the table is being freed
 * @future_tbl: the table a rehash moves the objects to, or NULL
 * @buckets: the bucket words
 *
 * Context: allocated and freed by the table's code; readers load @size,
 * @hash_rnd, @future_tbl and @buckets inside read-side critical
 * sections, a table unlinked by a rehash being freed after a grace
 * period.
 */
struct cds_bucket_table {
	unsigned int size;
	unsigned int nest;
	uint32_t hash_rnd;
	int dying;
	struct cds_list_head walkers;
	struct cds_bucket_table *future_tbl;
	struct cds_rhash_lock_head *buckets[];
};

/**
 * struct cds_rhashtable_compare_arg - what a key comparison function gets
 * @ht: the table
 * @key: the key looked up
 *
 * Context: built on the stack by a lookup, for @obj_cmpfn.
 */
struct cds_rhashtable_compare_arg {
	struct cds_rhashtable *ht;
	const void *key;
};

/**
 * cds_rht_hashfn_t - a key hash function
 *
 * Called as hashfn(key, len, seed): hash @len bytes at key with seed;
 * return 32 well-mixed bits (the low bits choose the bucket).
 *
 * Context: any thread; must not block.
 */
typedef uint32_t (*cds_rht_hashfn_t)(const void *data, uint32_t len,
				     uint32_t seed);
/**
 * cds_rht_obj_hashfn_t - an object hash function
 *
 * Called as obj_hashfn(obj, len, seed), obj being the object (not its
 * cds_rhash_head): it must give the hash that @hashfn gives for the
 * object's key.
 *
 * Context: any thread; must not block.
 */
typedef uint32_t (*cds_rht_obj_hashfn_t)(const void *data, uint32_t len,
					 uint32_t seed);
/**
 * cds_rht_obj_cmpfn_t - a key comparison function
 *
 * Called as obj_cmpfn(arg, obj): 0 if @obj's key is arg->key, non-zero
 * otherwise.
 *
 * Context: any thread, inside read-side critical sections; must not
 * block.
 */
typedef int (*cds_rht_obj_cmpfn_t)(struct cds_rhashtable_compare_arg *arg,
				   const void *obj);

/**
 * struct cds_rhashtable_params - what a table hashes and how big it may grow
 * @nelem_hint: the number of objects expected (sizes the first table; 0
 *	for the default of 64 buckets)
 * @key_len: the key's length in bytes (0 with @obj_hashfn)
 * @key_offset: the key's offset in the object
 * @head_offset: the struct cds_rhash_head's offset in the object
 * @max_size: the most buckets (rounded down to a power of two; 0: no
 *	limit); also limits the objects to twice as many (-E2BIG)
 * @min_size: the fewest buckets (rounded up to a power of two; at least 4)
 * @automatic_shrinking: shrink the table below 30% load
 * @hashfn: the key hash, NULL for rculist's own
 * @obj_hashfn: the object hash, for keys that are not @key_len bytes
 * @obj_cmpfn: the key comparison, NULL for @key_len bytes compared
 *
 * The kernel's fields, names and types.  Give either @key_len, or
 * @obj_hashfn and @obj_cmpfn (then @hashfn hashes lookup keys).
 *
 * Context: a plain value; keep it const and pass it to every fast path.
 */
struct cds_rhashtable_params {
	uint16_t nelem_hint;
	uint16_t key_len;
	uint16_t key_offset;
	uint16_t head_offset;
	unsigned int max_size;
	uint16_t min_size;
	bool automatic_shrinking;
	cds_rht_hashfn_t hashfn;
	cds_rht_obj_hashfn_t obj_hashfn;
	cds_rht_obj_cmpfn_t obj_cmpfn;
};

/**
 * struct cds_rhashtable - a resizable RCU hash table
 * @tbl: the current table
 * @key_len: the key length the table hashes
 * @max_elems: the most objects (-E2BIG beyond)
 * @p: the params the table was initialised with
 * @rhlist: whether it is the table of a cds_rhltable
 * @work_state: internal: the rehash thread's bookkeeping
 * @work_next: internal: the rehash thread's queue
 * @mutex: held by the rehash thread while it rehashes, and by
 *	cds_rhashtable_free_and_destroy()
 * @lock: protects the walker lists
 * @nelems: the number of objects (of keys, for a cds_rhltable)
 *
 * The kernel's members: its lib/test_rhashtable.c reads @tbl, @nelems,
 * @max_elems and takes @mutex.
 *
 * Context: initialised by cds_rhashtable_init(); used through the
 * functions below.  nelems has a cache line of its own: the padding
 * is wanted.
 */
struct cds_rhashtable { /* NOLINT(clang-analyzer-optin.performance.Padding) */
	struct cds_bucket_table *tbl;
	unsigned int key_len;
	unsigned int max_elems;
	struct cds_rhashtable_params p;
	bool rhlist;
	int work_state;
	struct cds_rhashtable *work_next;
	pthread_mutex_t mutex;
	pthread_mutex_t lock;
	/* Written by every update: away from what lookups read. */
	unsigned int nelems __attribute__((aligned(64)));
};

/**
 * struct cds_rhltable - a resizable RCU hash table with duplicate keys
 * @ht: the table of the first object of each key
 *
 * Context: initialised by cds_rhltable_init().
 */
struct cds_rhltable {
	struct cds_rhashtable ht;
};

/**
 * struct cds_rhashtable_walker - a walker's place on a table's list
 * @list: in the table's walkers while the walker is stopped
 * @tbl: the table walked; NULL once a rehash freed it (-EAGAIN)
 *
 * Context: part of struct cds_rhashtable_iter.
 */
struct cds_rhashtable_walker {
	struct cds_list_head list;
	struct cds_bucket_table *tbl;
};

/**
 * struct cds_rhashtable_iter - a walk over every object of a table
 * @ht: the table
 * @p: the object returned last, or NULL
 * @list: its duplicate-list link (cds_rhltable)
 * @walker: the walker
 * @slot: the bucket walked
 * @skip: how many objects of the bucket were returned already
 * @end_of_table: the walk is over
 *
 * Context: owned by one thread; see cds_rhashtable_walk_enter().
 */
struct cds_rhashtable_iter {
	struct cds_rhashtable *ht;
	struct cds_rhash_head *p;
	struct cds_rhlist_head *list;
	struct cds_rhashtable_walker walker;
	unsigned int slot;
	unsigned int skip;
	bool end_of_table;
};

/* ------------------------------------------------------- ERR_PTR values */

/**
 * CDS_ERR_PTR - a negative errno value carried in a pointer
 * @error: -ENOMEM, -EEXIST, ...
 *
 * The kernel's ERR_PTR(): the functions that return an object or an
 * error return (void *)-errno.  Test with CDS_IS_ERR().
 *
 * Context: any; a computation.
 * Return: @error as a pointer.
 */
static inline void *CDS_ERR_PTR(long error)
{
	return (void *)error;
}

/**
 * CDS_PTR_ERR - the errno value carried by a pointer
 * @ptr: a pointer for which CDS_IS_ERR() is true
 *
 * Context: any; a computation.
 * Return: the negative errno value.
 */
static inline long CDS_PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

/**
 * CDS_IS_ERR - whether a pointer carries an errno value
 * @ptr: what a function returned
 *
 * True for the last 4095 addresses, which no object has: the kernel's
 * IS_ERR().
 *
 * Context: any; a computation.
 * Return: non-zero if @ptr is an error.
 */
static inline bool CDS_IS_ERR(const void *ptr)
{
	return (uintptr_t)ptr >= (uintptr_t)-4095;
}

/**
 * CDS_IS_ERR_OR_NULL - whether a pointer is NULL or carries an errno value
 * @ptr: what a function returned
 *
 * Context: any; a computation.
 * Return: non-zero if @ptr is NULL or CDS_IS_ERR(@ptr).
 */
static inline bool CDS_IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || CDS_IS_ERR(ptr);
}

/* ------------------------------------------------- buckets and markers */

/* The nulls marker that ends the chain of bucket @bkt. */
static inline struct cds_rhash_head *
rculist__rht_marker(struct cds_rhash_lock_head *const *bkt)
{
	return (struct cds_rhash_head *)((uintptr_t)bkt | 1);
}

/**
 * cds_rht_is_a_nulls - whether a chain link is the end of its chain
 * @ptr: a cds_rhash_head's next, or what cds_rht_ptr_exclusive() gave
 *
 * Context: any; a computation.
 * Return: non-zero for a nulls marker (bit 0 set).
 */
static inline int cds_rht_is_a_nulls(const struct cds_rhash_head *ptr)
{
	return (int)((uintptr_t)ptr & 1);
}

/* A bucket word as the chain's first link: the marker when empty. */
static inline struct cds_rhash_head *
rculist__rht_first(struct cds_rhash_lock_head *const *bkt,
		   struct cds_rhash_lock_head *w)
{
	struct cds_rhash_head *p =
		(struct cds_rhash_head *)((uintptr_t)w & ~(uintptr_t)1);

	return p ? p : rculist__rht_marker(bkt);
}

/**
 * cds_rht_ptr_exclusive - the first link of a bucket, for its owner
 * @bkt: the bucket (&tbl->buckets[i])
 *
 * The lock bit masked; the bucket's nulls marker when it is empty.
 *
 * Context: the holder of the bucket's lock or of the table's @mutex
 * with no update running (the kernel's "exclusive" access).
 * Return: the first cds_rhash_head, or the marker.
 */
static inline struct cds_rhash_head *
cds_rht_ptr_exclusive(struct cds_rhash_lock_head *const *bkt)
{
	return rculist__rht_first(bkt, rculist__load_once(*bkt));
}

/* The first link of @bkt, for a reader (dependency-ordered load). */
static inline struct cds_rhash_head *
rculist__rht_ptr_rcu(struct cds_rhash_lock_head *const *bkt)
{
	return rculist__rht_first(bkt, rculist__deref(*bkt));
}

/* Take the lock bit of @bkt (acquire); spins, yields after a while. */
static inline void rculist__rht_lock(struct cds_rhash_lock_head **bkt)
{
	rculist__bit0_lock(bkt);
}

/* Release the lock of @bkt, its chain unchanged. */
static inline void rculist__rht_unlock(struct cds_rhash_lock_head **bkt)
{
	struct cds_rhash_lock_head *w = rculist__load_once(*bkt);

	__atomic_store_n(bkt,
			 (struct cds_rhash_lock_head *)((uintptr_t)w &
							~(uintptr_t)1),
			 __ATOMIC_RELEASE);
}

/*
 * Make @obj (a link or a marker) the first of locked @bkt and release the
 * lock, in one release store: the object is complete before readers can
 * reach it.  A marker empties the bucket (NULL).
 */
static inline void rculist__rht_assign_unlock(struct cds_rhash_lock_head **bkt,
					      struct cds_rhash_head *obj)
{
	if (cds_rht_is_a_nulls(obj))
		obj = NULL;
	__atomic_store_n(bkt, (struct cds_rhash_lock_head *)obj,
			 __ATOMIC_RELEASE);
}

/* The same, keeping the lock held. */
static inline void rculist__rht_assign_locked(struct cds_rhash_lock_head **bkt,
					      struct cds_rhash_head *obj)
{
	if (cds_rht_is_a_nulls(obj))
		obj = NULL;
	__atomic_store_n(bkt, (struct cds_rhash_lock_head *)((uintptr_t)obj | 1),
			 __ATOMIC_RELEASE);
}

/**
 * cds_rht_dereference - load a table pointer, for the table's owner
 * @p: the pointer (ht->tbl, tbl->future_tbl, a head's next)
 * @ht: the table
 *
 * A plain load, for code that holds @ht's @mutex or otherwise excludes
 * the rehash (the kernel's rht_dereference(); @ht is not evaluated).
 *
 * Context: the holder of ht->mutex, or the only user of the table.
 * Return: the pointer.
 */
#define cds_rht_dereference(p, ht) rculist__load_once(p)

/**
 * cds_rht_obj - the object a cds_rhash_head is embedded in
 * @ht: the table
 * @he: the link
 *
 * Context: any; address arithmetic (head_offset of @ht's params).
 * Return: the object.
 */
static inline void *cds_rht_obj(const struct cds_rhashtable *ht,
				const struct cds_rhash_head *he)
{
	return (char *)(uintptr_t)he - ht->p.head_offset;
}

/* ------------------------------------------------------------- hashing */

/*
 * rculist's default key hash: 8 bytes at a time, a multiply-xorshift
 * mix, a final avalanche so that the low bits choose buckets well.
 */
static inline uint32_t rculist__rht_hash(const void *key, uint32_t len,
					 uint32_t seed)
{
	const unsigned char *k = (const unsigned char *)key;
	uint64_t h = ((uint64_t)seed << 32 | seed) ^
		     (len * 0x9E3779B97F4A7C15ULL);
	uint64_t w;

	for (; len >= 8; len -= 8, k += 8) {
		memcpy(&w, k, 8);
		h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
		h ^= h >> 31;
	}
	if (len) {
		w = 0;
		memcpy(&w, k, len);
		h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
		h ^= h >> 31;
	}
	h ^= h >> 29;
	h *= 0x94D049BB133111EBULL;
	h ^= h >> 32;
	return (uint32_t)h;
}

static inline RCULIST__RHT_INLINE unsigned int
rculist__rht_key_hash(const struct cds_rhashtable *ht,
		      const struct cds_bucket_table *tbl, const void *key,
		      const struct cds_rhashtable_params params)
{
	unsigned int len = params.key_len ? params.key_len : ht->p.key_len;
	uint32_t h;

	if (params.hashfn)
		h = params.hashfn(key, len, tbl->hash_rnd);
	else if (params.key_len || !ht->p.hashfn)
		h = rculist__rht_hash(key, len, tbl->hash_rnd);
	else
		h = ht->p.hashfn(key, len, tbl->hash_rnd);
	return h & (tbl->size - 1);
}

static inline RCULIST__RHT_INLINE unsigned int
rculist__rht_head_hash(const struct cds_rhashtable *ht,
		       const struct cds_bucket_table *tbl,
		       const struct cds_rhash_head *he,
		       const struct cds_rhashtable_params params)
{
	const char *obj = (const char *)cds_rht_obj(ht, he);

	if (params.obj_hashfn)
		return params.obj_hashfn(obj,
					 params.key_len ? params.key_len :
							  ht->p.key_len,
					 tbl->hash_rnd) &
		       (tbl->size - 1);
	return rculist__rht_key_hash(ht, tbl, obj + params.key_offset, params);
}

/*
 * Non-zero if the @len bytes of an object's key at @obj differ from
 * @key.  Each byte of @obj is loaded once (8 at a time, then 4, then
 * one by one), as by the kernel's byte loop.  A reader may compare the
 * key of a removed object while its owner changes it (the kernel's
 * test_rhashtable does so right after the removal); libc's memcmp()
 * loads a differing byte again to order the two and, the byte changed
 * to the one looked for meanwhile, returns 0: a lookup then returned an
 * object that never had the key (glibc 2.36 on x86-64: 4 false matches
 * in 50M calls against a thread flipping the byte).
 */
static inline RCULIST__RHT_INLINE int
rculist__rht_key_differs(const char *obj, const void *key, size_t len)
{
	const char *k = (const char *)key;
	uint64_t a, b;
	uint32_t a4, b4;

	for (; len >= 8; len -= 8, obj += 8, k += 8) {
		memcpy(&a, obj, 8);
		memcpy(&b, k, 8);
		if (a != b)
			return 1;
	}
	if (len >= 4) {
		memcpy(&a4, obj, 4);
		memcpy(&b4, k, 4);
		if (a4 != b4)
			return 1;
		len -= 4;
		obj += 4;
		k += 4;
	}
	for (; len; len--)
		if (rculist__load_once(*obj++) != *k++)
			return 1;
	return 0;
}

/* 0 if @he's object has @arg's key. */
static inline RCULIST__RHT_INLINE int
rculist__rht_cmp(struct cds_rhashtable_compare_arg *arg,
		 const struct cds_rhash_head *he,
		 const struct cds_rhashtable_params params)
{
	const struct cds_rhashtable *ht = arg->ht;
	const char *obj = (const char *)cds_rht_obj(ht, he);

	if (params.obj_cmpfn)
		return params.obj_cmpfn(arg, obj);
	if (params.key_len)
		return rculist__rht_key_differs(obj + params.key_offset, arg->key,
						params.key_len);
	return rculist__rht_key_differs(obj + ht->p.key_offset, arg->key,
					ht->p.key_len);
}

/* ------------------------------------------------------- load factors */

static inline bool rculist__rht_grow_above_75(const struct cds_rhashtable *ht,
					      const struct cds_bucket_table *tbl)
{
	return rculist__load_once(ht->nelems) > tbl->size / 4 * 3 &&
	       (!ht->p.max_size || tbl->size < ht->p.max_size);
}

static inline bool rculist__rht_shrink_below_30(const struct cds_rhashtable *ht,
						const struct cds_bucket_table *tbl)
{
	return rculist__load_once(ht->nelems) < tbl->size * 3 / 10 &&
	       tbl->size > ht->p.min_size;
}

static inline bool rculist__rht_grow_above_100(const struct cds_rhashtable *ht,
					       const struct cds_bucket_table *tbl)
{
	return rculist__load_once(ht->nelems) > tbl->size &&
	       (!ht->p.max_size || tbl->size < ht->p.max_size);
}

static inline bool rculist__rht_grow_above_max(const struct cds_rhashtable *ht)
{
	return rculist__load_once(ht->nelems) >= ht->max_elems;
}

/*
 * Internal, debug mode (core/debug.c): report @what about @elem, a
 * misuse of @op (or of the call whose site a wrapper recorded), then
 * call the error handler.
 */
void rculist__debug_report(const char *op, const void *elem, const char *what);
/*
 * Internal, debug mode (core/debug.c): report a removal, at @file:@line,
 * of the object @obj that is in none of the table's bucket tables, its
 * link's next being @next (which tells a never-inserted object from a
 * stale one).
 */
void rculist__rht_debug_absent(const char *op, const char *file, int line,
			       const void *obj, const void *next);
#ifndef RCULIST_DEBUG_API_H /* declared once: clang's analysis counts each */
void rculist__debug_reader_at(const char *op, const char *file,
			      int line) RCULIST_REQUIRES_RCU;
void rculist__debug_enter(const char *op, const char *file, int line);
void rculist__debug_leave(void);
#endif

/* Internal, exported for the inline code: ask the rehash thread to resize @ht. */
void rculist__rht_schedule(struct cds_rhashtable *ht);

/*
 * Internal, for the tests: set the allocator of bucket tables (calloc()
 * by default, NULL restores it); a test makes it fail to see -ENOMEM.
 */
void rculist__rht_set_calloc(void *(*fn)(size_t nmemb, size_t size));

/*
 * Internal, for the tests: start the rehash thread with @fn (0 or an
 * error number, as pthread_create(); NULL restores rculist's); a test
 * makes it fail to see the next resize asked for start the thread.
 */
void rculist__rht_set_thread_start(int (*fn)(void *(*start)(void *),
					     const char *name));

/*
 * Internal, for the tests: call @fn(slot, size) after each bucket a
 * rehash moves out of a table of @size buckets (NULL: none), in the
 * thread that moves it, under the table's mutex; a test sleeps there to
 * see a walk overlap a slow rehash.
 */
void rculist__rht_set_rehash_hook(void (*fn)(unsigned int slot,
					     unsigned int size));

/* ------------------------------------------- buckets and their chains */

/*
 * The kernel's bucket accessors and chain iterators, for code that walks
 * the buckets of one table itself (the kernel's own users: statistics,
 * dumps, a table's owner freeing what it holds).  Lookups, inserts and
 * removals need none of them.
 */

/*
 * offsetof(@type, @member), refused at compile time unless @member is a
 * struct cds_rhash_head (or, for the rhltable iterators, a struct
 * cds_rhlist_head): see RCULIST__MEMBER_OFFSETOF in compiler.h.
 */
#define RCULIST__RHT_MEMBER_MSG "member is not a struct cds_rhash_head"
RCULIST__DEFINE_MEMBER_CHECK(rculist__member_is_not_a_struct_cds_rhash_head,
			     struct cds_rhash_head, RCULIST__RHT_MEMBER_MSG)
#define rculist__rht_offsetof(type, member)				\
	RCULIST__MEMBER_OFFSETOF(type, member,				\
				 rculist__member_is_not_a_struct_cds_rhash_head, \
				 struct cds_rhash_head, RCULIST__RHT_MEMBER_MSG)
#define RCULIST__RHL_MEMBER_MSG "member is not a struct cds_rhlist_head"
RCULIST__DEFINE_MEMBER_CHECK(rculist__member_is_not_a_struct_cds_rhlist_head,
			     struct cds_rhlist_head, RCULIST__RHL_MEMBER_MSG)
#define rculist__rhl_offsetof(type, member)				\
	RCULIST__MEMBER_OFFSETOF(type, member,				\
				 rculist__member_is_not_a_struct_cds_rhlist_head, \
				 struct cds_rhlist_head, RCULIST__RHL_MEMBER_MSG)

/* @tpos set to the object of link @pos (a checked @member); then 1. */
#define rculist__rht_entry(tpos, pos, member)				\
	((tpos) = rculist__container_at(pos, RCULIST__POINTEE(tpos),	\
		rculist__rht_offsetof(RCULIST__POINTEE(tpos), member)), 1)
#define rculist__rhl_entry(tpos, pos, member)				\
	((tpos) = rculist__container_at(pos, RCULIST__POINTEE(tpos),	\
		rculist__rhl_offsetof(RCULIST__POINTEE(tpos), member)), 1)

/**
 * cds_rht_dereference_rcu - load a table pointer, for a reader
 * @p: the pointer (ht->tbl, tbl->future_tbl)
 * @ht: the table (not evaluated)
 *
 * A dependency-ordered load: the kernel's rht_dereference_rcu().
 *
 * Context: a reader, inside a read-side critical section, or the holder
 * of ht->mutex.  The table loaded stays allocated until the section
 * ends (a rehash frees the old table after a grace period).
 * Return: the pointer.
 */
#define cds_rht_dereference_rcu(p, ht) rculist__deref(p)

/**
 * cds_rht_dereference_bucket - load a chain link, for the bucket's lock holder
 * @p: the link (a cds_rhash_head's next)
 * @tbl: the table (not evaluated)
 * @hash: the bucket's index (not evaluated)
 *
 * A plain load: the kernel's rht_dereference_bucket().
 *
 * Context: the holder of the lock of bucket @hash of @tbl
 * (cds_rht_lock()).
 * Return: the link.
 */
#define cds_rht_dereference_bucket(p, tbl, hash) rculist__load_once(p)

/**
 * cds_rht_dereference_bucket_rcu - load a chain link, for a reader
 * @p: the link (a cds_rhash_head's next)
 * @tbl: the table (not evaluated)
 * @hash: the bucket's index (not evaluated)
 *
 * A dependency-ordered load: the kernel's rht_dereference_bucket_rcu().
 *
 * Context: a reader, inside a read-side critical section, or the
 * bucket's lock holder.
 * Return: the link.
 */
#define cds_rht_dereference_bucket_rcu(p, tbl, hash) rculist__deref(p)

/**
 * cds_rht_entry - set a cursor to the object of a chain link
 * @tpos: the object cursor (a typed pointer), assigned
 * @pos: the link (a struct cds_rhash_head * or struct cds_rhlist_head *)
 * @member: the name of @pos's member in the object
 *
 * The kernel's rht_entry(), a condition for a for loop.
 *
 * Context: any; address arithmetic.
 * Return: 1.
 */
#define cds_rht_entry(tpos, pos, member)				\
	((tpos) = rculist__container_of(pos, RCULIST__POINTEE(tpos), member), 1)

/**
 * cds_rht_bucket - the bucket of a table with a given index, to read
 * @tbl: the table
 * @hash: the bucket's index (below tbl->size), as the lookups compute it
 *
 * Context: a reader inside a read-side critical section, or the holder
 * of ht->mutex: either keeps @tbl allocated.
 * Return: the bucket, for cds_rht_ptr_rcu(), cds_rht_ptr() and the
 * iterators.
 */
static inline struct cds_rhash_lock_head *const *
cds_rht_bucket(const struct cds_bucket_table *tbl, unsigned int hash)
{
	return &tbl->buckets[hash];
}

/**
 * cds_rht_bucket_var - the bucket of a table with a given index, to lock and change
 * @tbl: the table
 * @hash: the bucket's index (below tbl->size)
 *
 * Context: as cds_rht_bucket().
 * Return: the bucket, for cds_rht_lock() (never NULL: rculist has no
 * nested tables).
 */
static inline struct cds_rhash_lock_head **
cds_rht_bucket_var(struct cds_bucket_table *tbl, unsigned int hash)
{
	return &tbl->buckets[hash];
}

/**
 * cds_rht_bucket_insert - the bucket of a table with a given index, to insert into
 * @ht: the table (not used: no nested table to grow)
 * @tbl: one of its bucket tables
 * @hash: the bucket's index (below tbl->size)
 *
 * Context: as cds_rht_bucket().
 * Return: the bucket (never NULL).
 */
static inline struct cds_rhash_lock_head **
cds_rht_bucket_insert(struct cds_rhashtable *ht, struct cds_bucket_table *tbl,
		      unsigned int hash)
{
	(void)ht;
	return cds_rht_bucket_var(tbl, hash);
}

/**
 * cds_rht_lock - lock a bucket
 * @tbl: the table of the bucket
 * @bkt: the bucket (cds_rht_bucket_var())
 *
 * Sets bit 0 of the bucket word (acquire); spins while another updater
 * holds it, yielding the CPU now and then.  Readers never wait for it.
 * The kernel's rht_lock(): user space has no interrupts to disable, so
 * the flags it returns are 0, to be given to cds_rht_unlock().
 *
 * Context: an updater inside a read-side critical section or holding
 * ht->mutex (so that @tbl stays allocated); it must not already hold
 * this bucket's lock.  Hold it briefly: inserts and removals of the
 * bucket, and the rehash thread, spin meanwhile.
 * Return: the flags for cds_rht_unlock() (0).
 */
static inline unsigned long cds_rht_lock(struct cds_bucket_table *tbl,
					 struct cds_rhash_lock_head **bkt)
{
	(void)tbl;
	rculist__rht_lock(bkt);
	return 0;
}

/**
 * cds_rht_unlock - unlock a bucket
 * @tbl: the table of the bucket
 * @bkt: the bucket
 * @flags: what cds_rht_lock() returned
 *
 * Clears bit 0 of the bucket word (release): the chain's changes made
 * under the lock are visible to the next holder.
 *
 * Context: the holder of the bucket's lock.
 */
static inline void cds_rht_unlock(struct cds_bucket_table *tbl,
				  struct cds_rhash_lock_head **bkt,
				  unsigned long flags)
{
	(void)tbl;
	(void)flags;
	rculist__rht_unlock(bkt);
}

/**
 * cds_rht_assign_locked - make an object the first of a locked bucket
 * @bkt: the bucket, locked
 * @obj: the object's link, or a nulls marker to empty the bucket
 *
 * One release store, keeping the lock: readers see the object whole.
 *
 * Context: the holder of the bucket's lock.
 */
static inline void cds_rht_assign_locked(struct cds_rhash_lock_head **bkt,
					 struct cds_rhash_head *obj)
{
	rculist__rht_assign_locked(bkt, obj);
}

/**
 * cds_rht_assign_unlock - make an object the first of a locked bucket, and unlock it
 * @tbl: the table of the bucket
 * @bkt: the bucket, locked
 * @obj: the object's link, or a nulls marker to empty the bucket
 * @flags: what cds_rht_lock() returned
 *
 * One release store that publishes the object and releases the lock.
 *
 * Context: the holder of the bucket's lock, which it gives up.
 */
static inline void cds_rht_assign_unlock(struct cds_bucket_table *tbl,
					 struct cds_rhash_lock_head **bkt,
					 struct cds_rhash_head *obj,
					 unsigned long flags)
{
	(void)tbl;
	(void)flags;
	rculist__rht_assign_unlock(bkt, obj);
}

/* The first link of locked @bkt; debug mode checks the lock is held. */
static inline struct cds_rhash_head *
rculist__rht_ptr_locked(struct cds_rhash_lock_head *const *bkt)
{
	struct cds_rhash_lock_head *w = rculist__load_once(*bkt);

#ifdef RCULIST_DEBUG
	if (RCULIST__UNLIKELY(!((uintptr_t)w & 1)))
		rculist__debug_report("cds_rht_ptr", bkt,
				      "the bucket is not locked (call cds_rht_lock() first)");
#endif
	return rculist__rht_first(bkt, w);
}

/**
 * cds_rht_ptr - the first link of a bucket, for its lock holder
 * @bkt: the bucket, locked
 * @tbl: the table (not used)
 * @hash: the bucket's index (not used)
 *
 * The lock bit masked; the bucket's nulls marker when it is empty.
 * Debug mode reports a bucket that is not locked (the kernel's lockdep
 * check).
 *
 * Context: the holder of the bucket's lock (cds_rht_lock()).
 * Return: the first cds_rhash_head, or the marker.
 */
static inline struct cds_rhash_head *
cds_rht_ptr(struct cds_rhash_lock_head *const *bkt,
	    const struct cds_bucket_table *tbl, unsigned int hash)
{
	(void)tbl;
	(void)hash;
	return rculist__rht_ptr_locked(bkt);
}

/**
 * cds_rht_ptr_rcu - the first link of a bucket, for a reader
 * @bkt: the bucket (cds_rht_bucket())
 *
 * A dependency-ordered load, the lock bit masked: never waits for the
 * lock.  The bucket's nulls marker when it is empty.
 *
 * Context: a reader, inside a read-side critical section.
 * Return: the first cds_rhash_head, or the marker.
 */
static inline struct cds_rhash_head *
cds_rht_ptr_rcu(struct cds_rhash_lock_head *const *bkt) RCULIST_REQUIRES_RCU
{
	return rculist__rht_ptr_rcu(bkt);
}

/**
 * cds_rht_for_each_from - walk a bucket's chain from a link, for its lock holder
 * @pos: a struct cds_rhash_head *, the cursor
 * @head: the link to start from (cds_rht_ptr(), or a link of the chain)
 * @tbl: the table (evaluated only by @head)
 * @hash: the bucket's index (evaluated only by @head)
 *
 * Ends at the chain's nulls marker, which @pos then holds.
 *
 * Context: the holder of the bucket's lock (cds_rht_lock()); readers use
 * cds_rht_for_each_rcu_from().
 */
#define cds_rht_for_each_from(pos, head, tbl, hash)			\
	for ((pos) = (head); !cds_rht_is_a_nulls(pos);			\
	     (pos) = cds_rht_dereference_bucket((pos)->next, tbl, hash))

/**
 * cds_rht_for_each - walk a bucket's chain, for its lock holder
 * @pos: a struct cds_rhash_head *, the cursor
 * @tbl: the table
 * @hash: the bucket's index
 *
 * Each argument is evaluated once.
 *
 * Context: the holder of the bucket's lock (cds_rht_lock()), which a
 * removal, insert or rehash of the bucket would otherwise race with;
 * debug mode reports a bucket that is not locked.
 */
#define cds_rht_for_each(pos, tbl, hash)				\
	cds_rht_for_each_from(pos,					\
		rculist__rht_ptr_locked(cds_rht_bucket(tbl, hash)), tbl, hash)

/**
 * cds_rht_for_each_entry_from - walk a bucket's objects from a link, for its lock holder
 * @tpos: the object cursor (a typed pointer)
 * @pos: a struct cds_rhash_head *, the link cursor
 * @head: the link to start from
 * @tbl: the table (evaluated only by @head)
 * @hash: the bucket's index (evaluated only by @head)
 * @member: the name of the struct cds_rhash_head in the object
 *
 * Context: as cds_rht_for_each_from().
 */
#define cds_rht_for_each_entry_from(tpos, pos, head, tbl, hash, member)	\
	for ((pos) = (head);						\
	     !cds_rht_is_a_nulls(pos) && rculist__rht_entry(tpos, pos, member); \
	     (pos) = cds_rht_dereference_bucket((pos)->next, tbl, hash))

/**
 * cds_rht_for_each_entry - walk a bucket's objects, for its lock holder
 * @tpos: the object cursor (a typed pointer)
 * @pos: a struct cds_rhash_head *, the link cursor
 * @tbl: the table
 * @hash: the bucket's index
 * @member: the name of the struct cds_rhash_head in the object
 *
 * Context: as cds_rht_for_each().
 */
#define cds_rht_for_each_entry(tpos, pos, tbl, hash, member)		\
	cds_rht_for_each_entry_from(tpos, pos,				\
		rculist__rht_ptr_locked(cds_rht_bucket(tbl, hash)),	\
		tbl, hash, member)

/**
 * cds_rht_for_each_entry_safe - walk a bucket's objects, the body may unlink the cursor
 * @tpos: the object cursor (a typed pointer)
 * @pos: a struct cds_rhash_head *, the link cursor
 * @next: a struct cds_rhash_head *, holding the next link
 * @tbl: the table
 * @hash: the bucket's index
 * @member: the name of the struct cds_rhash_head in the object
 *
 * The next link is read before the body runs: the body may unlink
 * @tpos (cds_rht_assign_locked() at the head, a store to the previous
 * object's next otherwise) and reuse its memory once readers are done
 * with it, but not unlink the object @next holds.
 *
 * Context: as cds_rht_for_each().
 */
#define cds_rht_for_each_entry_safe(tpos, pos, next, tbl, hash, member)	\
	for ((pos) = rculist__rht_ptr_locked(cds_rht_bucket(tbl, hash)),	\
	     (next) = !cds_rht_is_a_nulls(pos) ?				\
		cds_rht_dereference_bucket((pos)->next, tbl, hash) : NULL; \
	     !cds_rht_is_a_nulls(pos) && rculist__rht_entry(tpos, pos, member); \
	     (pos) = (next),						\
	     (next) = !cds_rht_is_a_nulls(pos) ?				\
		cds_rht_dereference_bucket((pos)->next, tbl, hash) : NULL)

/**
 * cds_rht_for_each_rcu_from - walk a bucket's chain from a link, for a reader
 * @pos: a struct cds_rhash_head *, the cursor
 * @head: the link to start from (cds_rht_ptr_rcu(), or a link of the chain)
 * @tbl: the table (evaluated only by @head)
 * @hash: the bucket's index (evaluated only by @head)
 *
 * Each link is loaded once, dependency-ordered.  The walk may see
 * objects inserted or removed while it runs, never freed ones; a rehash
 * may lead it into another bucket's chain (the kernel's nulls check:
 * compare the marker @pos ends on with the bucket's, as
 * cds_rhashtable_lookup() does).
 *
 * Context: a reader, inside a read-side critical section; updaters may
 * run concurrently.  Debug mode reports a walk outside a section.
 */
#define cds_rht_for_each_rcu_from(pos, head, tbl, hash)			\
	RCULIST__ITER_SITE(cds_rht_for_each_rcu_from)			\
	for ((pos) = (RCULIST__CHECK_READER(), (head));			\
	     !cds_rht_is_a_nulls(pos);					\
	     (pos) = cds_rht_dereference_bucket_rcu((pos)->next, tbl, hash))

/**
 * cds_rht_for_each_rcu - walk a bucket's chain, for a reader
 * @pos: a struct cds_rhash_head *, the cursor
 * @tbl: the table
 * @hash: the bucket's index
 *
 * Each argument is evaluated once.
 *
 * Context: as cds_rht_for_each_rcu_from().
 */
#define cds_rht_for_each_rcu(pos, tbl, hash)				\
	RCULIST__ITER_SITE(cds_rht_for_each_rcu)			\
	for ((pos) = (RCULIST__CHECK_READER(),				\
		      rculist__rht_ptr_rcu(cds_rht_bucket(tbl, hash)));	\
	     !cds_rht_is_a_nulls(pos);					\
	     (pos) = cds_rht_dereference_bucket_rcu((pos)->next, tbl, hash))

/**
 * cds_rht_for_each_entry_rcu_from - walk a bucket's objects from a link, for a reader
 * @tpos: the object cursor (a typed pointer)
 * @pos: a struct cds_rhash_head *, the link cursor
 * @head: the link to start from
 * @tbl: the table (evaluated only by @head)
 * @hash: the bucket's index (evaluated only by @head)
 * @member: the name of the struct cds_rhash_head in the object
 *
 * Context: as cds_rht_for_each_rcu_from().
 */
#define cds_rht_for_each_entry_rcu_from(tpos, pos, head, tbl, hash, member) \
	RCULIST__ITER_SITE(cds_rht_for_each_entry_rcu_from)		\
	for ((pos) = (RCULIST__CHECK_READER(), (head));			\
	     !cds_rht_is_a_nulls(pos) && rculist__rht_entry(tpos, pos, member); \
	     (pos) = cds_rht_dereference_bucket_rcu((pos)->next, tbl, hash))

/**
 * cds_rht_for_each_entry_rcu - walk a bucket's objects, for a reader
 * @tpos: the object cursor (a typed pointer)
 * @pos: a struct cds_rhash_head *, the link cursor
 * @tbl: the table
 * @hash: the bucket's index
 * @member: the name of the struct cds_rhash_head in the object
 *
 * Context: as cds_rht_for_each_rcu_from().
 */
#define cds_rht_for_each_entry_rcu(tpos, pos, tbl, hash, member)	\
	RCULIST__ITER_SITE(cds_rht_for_each_entry_rcu)			\
	for ((pos) = (RCULIST__CHECK_READER(),				\
		      rculist__rht_ptr_rcu(cds_rht_bucket(tbl, hash)));	\
	     !cds_rht_is_a_nulls(pos) && rculist__rht_entry(tpos, pos, member); \
	     (pos) = cds_rht_dereference_bucket_rcu((pos)->next, tbl, hash))

/* ------------------------------------------------------------- library */

/**
 * cds_rhashtable_init - initialise a resizable table
 * @ht: the table
 * @params: its params (copied)
 *
 * Allocates the first table: @nelem_hint * 4 / 3 buckets rounded up to a
 * power of two, or 64, and at least @min_size.
 *
 * Context: any thread; the caller owns @ht.  May allocate.
 * Return: 0; -EINVAL without @key_len nor @obj_hashfn, or with
 * @obj_hashfn but no @obj_cmpfn; -ENOMEM (nothing allocated).
 */
int cds_rhashtable_init(struct cds_rhashtable *ht,
			const struct cds_rhashtable_params *params);

/**
 * cds_rhltable_init - initialise a resizable table with duplicate keys
 * @hlt: the table
 * @params: its params (copied); @head_offset is that of a struct
 *	cds_rhlist_head
 *
 * Context: as cds_rhashtable_init().
 * Return: as cds_rhashtable_init().
 */
int cds_rhltable_init(struct cds_rhltable *hlt,
		      const struct cds_rhashtable_params *params);

/**
 * cds_rhashtable_free_and_destroy - free a table, calling a function on each object
 * @ht: the table
 * @free_fn: called as free_fn(obj, arg) on every object still in the
 *	table (every object of every key for a cds_rhltable), or NULL
 * @arg: passed to @free_fn
 *
 * Waits for the rehash in progress, if any, then frees every bucket
 * table at once (no grace period: no reader may use the table any more).
 *
 * Context: the table's owner, once no other thread uses it; outside any
 * read-side critical section (an online qsbr thread goes offline while
 * it waits for the rehash thread).  May block.
 */
void cds_rhashtable_free_and_destroy(struct cds_rhashtable *ht,
				     void (*free_fn)(void *ptr, void *arg),
				     void *arg);

/**
 * cds_rhashtable_destroy - free a table's own memory
 * @ht: the table
 *
 * cds_rhashtable_free_and_destroy() with no function: the objects still
 * in the table are the caller's.
 *
 * Context: as cds_rhashtable_free_and_destroy().
 */
void cds_rhashtable_destroy(struct cds_rhashtable *ht);

/**
 * cds_rhltable_free_and_destroy - free a cds_rhltable, calling a function on each object
 * @hlt: the table
 * @free_fn: called on every object of every key, or NULL
 * @arg: passed to @free_fn
 *
 * Context: as cds_rhashtable_free_and_destroy().
 */
void cds_rhltable_free_and_destroy(struct cds_rhltable *hlt,
				   void (*free_fn)(void *ptr, void *arg),
				   void *arg);

/**
 * cds_rhltable_destroy - free a cds_rhltable's own memory
 * @hlt: the table
 *
 * Context: as cds_rhashtable_destroy().
 */
void cds_rhltable_destroy(struct cds_rhltable *hlt);

/**
 * cds_rhashtable_insert_slow - insert an object into a table being resized
 * @ht: the table
 * @key: the object's key to refuse a duplicate, or NULL not to look
 * @obj: the object's link
 *
 * What the fast paths call when the table has a future table, a chain
 * is too long, or the table is above 100% load: inserts into the newest
 * table, allocating one if the rehash thread lags.
 *
 * Context: a registered reader thread (any under bp), outside or inside
 * a read-side critical section; spins on bucket locks; may allocate.
 * Return: NULL if inserted; the object with @key if there is one;
 * CDS_ERR_PTR(-E2BIG), (-ENOMEM) or (-EBUSY) otherwise.
 */
void *cds_rhashtable_insert_slow(struct cds_rhashtable *ht, const void *key,
				 struct cds_rhash_head *obj);

/**
 * cds_rhashtable_walk_enter - begin a walk over every object of a table
 * @ht: the table
 * @iter: the walk's state, the caller's
 *
 * The walk sees every object that is in the table from its start to
 * its end, at least once; a resize during the walk makes
 * cds_rhashtable_walk_next() return CDS_ERR_PTR(-EAGAIN) once and then
 * go on in the new table, where objects already seen may come again.
 * End with cds_rhashtable_walk_exit().
 *
 * First it finishes the resize that is pending or in progress, in the
 * calling thread: it waits for the rehash thread's step, then runs the
 * same steps under the table's mutex until the load asks for no other
 * (it leaves a failed allocation to the thread).  A table that no
 * update has asked to resize is left as it is (one sized by nelem_hint
 * ahead of its inserts keeps its size).  So a walk entered
 * while no updater runs, after inserts that grew the table, sees one
 * table: every object exactly once and no -EAGAIN.  In the kernel the
 * deferred resize has normally ended by then; here the rehash thread
 * may lag behind fast inserts (one thread serves every table, and a
 * loaded machine delays it), and the walk would meet it.  Updaters
 * running during the walk still resize under it, with -EAGAIN.
 *
 * Context: any thread, outside or inside a read-side critical section,
 * holding neither the table's mutex nor a bucket lock.  May block for
 * the time of a rehash (the kernel's never sleeps), never for a
 * grace period nor for a fork() (a fork pending, it leaves the resize to
 * the thread); inside a section (under qsbr: online) it holds grace
 * periods up meanwhile.  Takes the table's walker lock briefly.
 */
void cds_rhashtable_walk_enter(struct cds_rhashtable *ht,
			       struct cds_rhashtable_iter *iter);

/**
 * cds_rhltable_walk_enter - begin a walk over every object of a cds_rhltable
 * @hlt: the table
 * @iter: the walk's state, the caller's
 *
 * cds_rhashtable_walk_enter() on the table under @hlt: the walk returns
 * each object of each key's list, duplicates one by one.
 *
 * Context: as cds_rhashtable_walk_enter().
 */
static inline void cds_rhltable_walk_enter(struct cds_rhltable *hlt,
					   struct cds_rhashtable_iter *iter)
{
	cds_rhashtable_walk_enter(&hlt->ht, iter);
}

/**
 * cds_rhashtable_walk_exit - end a walk
 * @iter: the walk, stopped
 *
 * Context: the walker's thread, after cds_rhashtable_walk_stop().
 */
void cds_rhashtable_walk_exit(struct cds_rhashtable_iter *iter);

/**
 * cds_rhashtable_walk_start_check - go on with a walk, in a read-side critical section
 * @iter: the walk
 *
 * Enters a read-side critical section (left by cds_rhashtable_walk_stop())
 * and finds the place where the walk stopped.
 *
 * Context: the walker's thread, a registered reader.
 * Return: 0, or -EAGAIN if the table was resized since the walk stopped
 * (the walk restarts at the new table's first bucket).
 */
int cds_rhashtable_walk_start_check(struct cds_rhashtable_iter *iter)
	RCULIST_ACQUIRES_RCU;

/**
 * cds_rhashtable_walk_start - go on with a walk, in a read-side critical section
 * @iter: the walk
 *
 * cds_rhashtable_walk_start_check() without its result: the next
 * cds_rhashtable_walk_next() goes on from the right place either way.
 *
 * Context: as cds_rhashtable_walk_start_check().
 */
static inline void
cds_rhashtable_walk_start(struct cds_rhashtable_iter *iter) RCULIST_ACQUIRES_RCU
{
	(void)cds_rhashtable_walk_start_check(iter);
}

/**
 * cds_rhashtable_walk_next - the next object of a walk
 * @iter: the walk, started
 *
 * Context: the walker's thread, between cds_rhashtable_walk_start() and
 * cds_rhashtable_walk_stop(); the object stays valid until then.
 * Return: the next object; NULL at the end; CDS_ERR_PTR(-EAGAIN) when a
 * resize moved the walk to a new table (call it again to go on).
 */
void *
cds_rhashtable_walk_next(struct cds_rhashtable_iter *iter) RCULIST_REQUIRES_RCU;

/**
 * cds_rhashtable_walk_peek - the object cds_rhashtable_walk_next() returned last, or the next
 * @iter: the walk, started
 *
 * Does not advance the walk.
 *
 * Context: as cds_rhashtable_walk_next().
 * Return: as cds_rhashtable_walk_next().
 */
void *
cds_rhashtable_walk_peek(struct cds_rhashtable_iter *iter) RCULIST_REQUIRES_RCU;

/**
 * cds_rhashtable_walk_stop - pause a walk, leaving the read-side critical section
 * @iter: the walk, started
 *
 * Objects the walk returned may be freed once it stopped.  The walk may
 * go on with cds_rhashtable_walk_start().
 *
 * Context: the walker's thread.
 */
void cds_rhashtable_walk_stop(struct cds_rhashtable_iter *iter) RCULIST_RELEASES_RCU;

/* ------------------------------------------------------------ lookups */

/* The chain link of the object with @key, or NULL; caller in a section. */
static inline RCULIST__RHT_INLINE struct cds_rhash_head *
rculist__rht_lookup(struct cds_rhashtable *ht, const void *key,
		    const struct cds_rhashtable_params params) RCULIST_REQUIRES_RCU
{
	struct cds_rhashtable_compare_arg arg = { ht, key };
	struct cds_bucket_table *tbl = rculist__deref(ht->tbl);
	struct cds_rhash_lock_head **bkt;
	struct cds_rhash_head *he;

	RCULIST__RCU_READER();
	do {
		bkt = &tbl->buckets[rculist__rht_key_hash(ht, tbl, key, params)];
		do {
			for (he = rculist__rht_ptr_rcu(bkt);
			     !cds_rht_is_a_nulls(he);
			     he = rculist__deref(he->next))
				if (!rculist__rht_cmp(&arg, he, params))
					return he;
			/* Another chain's marker: an object moved; walk again. */
		} while (he != rculist__rht_marker(bkt));
		/* A rehash moves objects before it links no future table. */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		tbl = rculist__deref(tbl->future_tbl);
	} while (tbl);
	return NULL;
}

/**
 * cds_rhashtable_lookup - find the object with a key, inside a read-side critical section
 * @ht: the table
 * @key: the key
 * @params: the table's params
 *
 * Never waits: walks the current table, and during a rehash the future
 * tables; finds every object that is in the table and not being
 * removed, however the table is resized meanwhile.
 *
 * Context: a reader, inside a read-side critical section; updaters may
 * run concurrently.  The object stays valid until the section ends.
 * Return: the object, or NULL.
 */
static inline RCULIST__RHT_INLINE void *
cds_rhashtable_lookup(struct cds_rhashtable *ht, const void *key,
		      const struct cds_rhashtable_params params) RCULIST_REQUIRES_RCU
{
	struct cds_rhash_head *he;

	he = rculist__rht_lookup(ht, key, params);
	return he ? cds_rht_obj(ht, he) : NULL;
}

/**
 * cds_rhashtable_lookup_fast - find the object with a key, in a section of its own
 * @ht: the table
 * @key: the key
 * @params: the table's params
 *
 * cds_rhashtable_lookup() inside rculist_read_lock() and
 * rculist_read_unlock().
 *
 * Context: a registered reader thread (any under bp); the object may
 * be freed as soon as it returns unless the caller excludes removals
 * (holds its own section, or a reference).
 * Return: the object, or NULL.
 */
static inline RCULIST__RHT_INLINE void *
cds_rhashtable_lookup_fast(struct cds_rhashtable *ht, const void *key,
			   const struct cds_rhashtable_params params)
{
	void *obj;

	rculist_read_lock();
	obj = cds_rhashtable_lookup(ht, key, params);
	rculist_read_unlock();
	return obj;
}

/**
 * cds_rhltable_lookup - find the objects with a key, inside a read-side critical section
 * @hlt: the table
 * @key: the key
 * @params: the table's params
 *
 * Context: a reader, inside a read-side critical section.
 * Return: the list of the key's objects (walk it with
 * cds_rhl_for_each_entry_rcu()), or NULL.
 */
static inline RCULIST__RHT_INLINE struct cds_rhlist_head *
cds_rhltable_lookup(struct cds_rhltable *hlt, const void *key,
		    const struct cds_rhashtable_params params) RCULIST_REQUIRES_RCU
{
	struct cds_rhash_head *he;

	he = rculist__rht_lookup(&hlt->ht, key, params);
	return he ? rculist__container_of(he, struct cds_rhlist_head, rhead) :
		    NULL;
}

/**
 * cds_rhl_for_each_rcu - walk the links of a key's objects
 * @pos: a struct cds_rhlist_head *, the cursor
 * @list: what cds_rhltable_lookup() returned
 *
 * Context: a reader, inside the read-side critical section of the
 * lookup.  Debug mode reports a walk outside a section.
 */
#define cds_rhl_for_each_rcu(pos, list)					\
	RCULIST__ITER_SITE(cds_rhl_for_each_rcu)			\
	for ((pos) = (RCULIST__CHECK_READER(), (list)); (pos);		\
	     (pos) = rculist__deref((pos)->next))

/**
 * cds_rhl_for_each_entry_rcu - walk the objects with a key
 * @tpos: the object cursor (a typed pointer)
 * @pos: a struct cds_rhlist_head *, the link cursor
 * @list: what cds_rhltable_lookup() returned
 * @member: the name of the struct cds_rhlist_head in the object
 *
 * Context: as cds_rhl_for_each_rcu().
 */
#define cds_rhl_for_each_entry_rcu(tpos, pos, list, member)		\
	RCULIST__ITER_SITE(cds_rhl_for_each_entry_rcu)			\
	for ((pos) = (RCULIST__CHECK_READER(), (list));			\
	     (pos) && rculist__rhl_entry(tpos, pos, member);		\
	     (pos) = rculist__deref((pos)->next))

/* ------------------------------------------------------------ inserts */

/*
 * The insert fast path.  Locks the object's bucket in the current table;
 * goes to cds_rhashtable_insert_slow() if a rehash is under way, the
 * chain is long or the table full.  @key NULL: no duplicate check.
 * Return: NULL, the object with @key, or an error pointer.
 */
static inline RCULIST__RHT_INLINE void *
rculist__rht_insert_fast(struct cds_rhashtable *ht, const void *key,
			 struct cds_rhash_head *obj,
			 const struct cds_rhashtable_params params, bool rhlist)
{
	struct cds_rhashtable_compare_arg arg = { ht, key };
	struct cds_rhash_head *head, **pprev = NULL;
	struct cds_rhash_lock_head **bkt;
	struct cds_bucket_table *tbl;
	int elasticity = 16;
	void *data;

	rculist_read_lock();
	tbl = rculist__deref(ht->tbl);
	bkt = &tbl->buckets[rculist__rht_head_hash(ht, tbl, obj, params)];
	rculist__rht_lock(bkt);
	if (RCULIST__UNLIKELY(rculist__load_once(tbl->future_tbl) != NULL))
		goto slow_path;
	for (head = cds_rht_ptr_exclusive(bkt); !cds_rht_is_a_nulls(head);
	     head = head->next) {
		struct cds_rhlist_head *list, *plist;

		elasticity--;
#ifdef RCULIST_DEBUG
		if (RCULIST__UNLIKELY(head == obj)) { /* a cycle if it went on */
			rculist__rht_unlock(bkt);
			rculist_read_unlock();
			rculist__debug_report(
				"cds_rhashtable_insert_fast",
				cds_rht_obj(ht, obj),
				"the object is in the table already (inserted twice?)");
			return CDS_ERR_PTR(-EEXIST);
		}
#endif
		if (!key || rculist__rht_cmp(&arg, head, params)) {
			pprev = &head->next;
			continue;
		}
		data = cds_rht_obj(ht, head);
		if (!rhlist) {
			rculist__rht_unlock(bkt);
			goto out;
		}
		/* A duplicate key: @obj takes @head's place, @head hangs from it. */
		list = rculist__container_of(obj, struct cds_rhlist_head, rhead);
		plist = rculist__container_of(head, struct cds_rhlist_head,
					      rhead);
		list->next = plist;
		obj->next = head->next;
		if (pprev) {
			rculist__publish(*pprev, obj);
			rculist__rht_unlock(bkt);
		} else {
			rculist__rht_assign_unlock(bkt, obj);
		}
		data = NULL;
		goto out;
	}
	if (elasticity <= 0)
		goto slow_path;
	data = CDS_ERR_PTR(-E2BIG);
	if (RCULIST__UNLIKELY(rculist__rht_grow_above_max(ht))) {
		rculist__rht_unlock(bkt);
		goto out;
	}
	if (RCULIST__UNLIKELY(rculist__rht_grow_above_100(ht, tbl)))
		goto slow_path;
	/* At the head: the store that publishes the object also unlocks. */
	obj->next = cds_rht_ptr_exclusive(bkt);
	if (rhlist)
		rculist__container_of(obj, struct cds_rhlist_head, rhead)->next =
			NULL;
	__atomic_add_fetch(&ht->nelems, 1, __ATOMIC_RELAXED);
	rculist__rht_assign_unlock(bkt, obj);
	if (rculist__rht_grow_above_75(ht, tbl))
		rculist__rht_schedule(ht);
	data = NULL;
out:
	rculist_read_unlock();
	return data;
slow_path:
	rculist__rht_unlock(bkt);
	rculist_read_unlock();
	return cds_rhashtable_insert_slow(ht, key, obj);
}

/**
 * cds_rhashtable_insert_fast - insert an object, duplicates not looked for
 * @ht: the table
 * @obj: the object's link
 * @params: the table's params
 *
 * Readers may find the object as soon as it returns 0.  The table grows
 * in the background once above 75% load.  Inserting an object whose key
 * is in the table already makes both findable, either one by lookups.
 *
 * Context: a registered reader thread (any under bp), outside or inside
 * a read-side critical section; concurrent with every other operation;
 * spins on the bucket lock, never waits for a resize.
 * Return: 0; -E2BIG (max_size reached, or 2^31 objects); -ENOMEM or
 * -EBUSY (the table is full and a new one could not be allocated).
 */
static inline int
cds_rhashtable_insert_fast(struct cds_rhashtable *ht, struct cds_rhash_head *obj,
			   const struct cds_rhashtable_params params)
{
	void *ret = rculist__rht_insert_fast(ht, NULL, obj, params, false);

	if (CDS_IS_ERR(ret))
		return (int)CDS_PTR_ERR(ret);
	return ret == NULL ? 0 : -EEXIST;
}

/**
 * cds_rhashtable_lookup_insert_fast - insert an object unless its key is in the table
 * @ht: the table
 * @obj: the object's link
 * @params: the table's params (without @obj_hashfn)
 *
 * Context: as cds_rhashtable_insert_fast().
 * Return: 0; -EEXIST if an object with the key is in the table;
 * -EINVAL if the table hashes objects with @obj_hashfn; otherwise as
 * cds_rhashtable_insert_fast().
 */
static inline int
cds_rhashtable_lookup_insert_fast(struct cds_rhashtable *ht,
				  struct cds_rhash_head *obj,
				  const struct cds_rhashtable_params params)
{
	const char *key = (const char *)cds_rht_obj(ht, obj);
	void *ret;

	if (params.obj_hashfn || ht->p.obj_hashfn)
		return -EINVAL;
	ret = rculist__rht_insert_fast(ht, key + params.key_offset, obj, params,
				       false);
	if (CDS_IS_ERR(ret))
		return (int)CDS_PTR_ERR(ret);
	return ret == NULL ? 0 : -EEXIST;
}

/**
 * cds_rhashtable_lookup_get_insert_fast - insert an object, or get the one with its key
 * @ht: the table
 * @obj: the object's link
 * @params: the table's params (without @obj_hashfn)
 *
 * Context: as cds_rhashtable_insert_fast(); the object returned stays
 * valid while the caller excludes its removal (a read-side critical
 * section around the call).
 * Return: NULL if inserted; the object with @obj's key if there is one;
 * an error pointer (CDS_IS_ERR()): -EINVAL, -E2BIG, -ENOMEM, -EBUSY.
 */
static inline void *
cds_rhashtable_lookup_get_insert_fast(struct cds_rhashtable *ht,
				      struct cds_rhash_head *obj,
				      const struct cds_rhashtable_params params)
{
	const char *key = (const char *)cds_rht_obj(ht, obj);

	if (params.obj_hashfn || ht->p.obj_hashfn)
		return CDS_ERR_PTR(-EINVAL);
	return rculist__rht_insert_fast(ht, key + params.key_offset, obj,
					params, false);
}

/**
 * cds_rhashtable_lookup_insert_key - insert an object unless its key is in the table
 * @ht: the table
 * @key: the object's key (for tables hashing objects with @obj_hashfn)
 * @obj: the object's link
 * @params: the table's params
 *
 * Context: as cds_rhashtable_insert_fast().
 * Return: 0; -EEXIST; -EINVAL without @obj_hashfn or @key; otherwise
 * as cds_rhashtable_insert_fast().
 */
static inline int
cds_rhashtable_lookup_insert_key(struct cds_rhashtable *ht, const void *key,
				 struct cds_rhash_head *obj,
				 const struct cds_rhashtable_params params)
{
	void *ret;

	if (!ht->p.obj_hashfn || !key)
		return -EINVAL;
	ret = rculist__rht_insert_fast(ht, key, obj, params, false);
	if (CDS_IS_ERR(ret))
		return (int)CDS_PTR_ERR(ret);
	return ret == NULL ? 0 : -EEXIST;
}

/**
 * cds_rhashtable_lookup_get_insert_key - insert an object, or get the one with its key
 * @ht: the table
 * @key: the object's key
 * @obj: the object's link
 * @params: the table's params
 *
 * Context: as cds_rhashtable_lookup_get_insert_fast().
 * Return: NULL if inserted; the object with @key; an error pointer.
 */
static inline void *
cds_rhashtable_lookup_get_insert_key(struct cds_rhashtable *ht, const void *key,
				     struct cds_rhash_head *obj,
				     const struct cds_rhashtable_params params)
{
	if (!ht->p.obj_hashfn || !key)
		return CDS_ERR_PTR(-EINVAL);
	return rculist__rht_insert_fast(ht, key, obj, params, false);
}

/**
 * cds_rhltable_insert_key - add an object to a cds_rhltable under a given key
 * @hlt: the table
 * @key: the object's key
 * @list: the object's link
 * @params: the table's params
 *
 * Objects with the same key are kept, newest first.
 *
 * Context: as cds_rhashtable_insert_fast().
 * Return: 0, or as cds_rhashtable_insert_fast() (never -EEXIST).
 */
static inline int
cds_rhltable_insert_key(struct cds_rhltable *hlt, const void *key,
			struct cds_rhlist_head *list,
			const struct cds_rhashtable_params params)
{
	return (int)CDS_PTR_ERR(rculist__rht_insert_fast(&hlt->ht, key,
							 &list->rhead, params,
							 true));
}

/**
 * cds_rhltable_insert - add an object to a cds_rhltable
 * @hlt: the table
 * @list: the object's link
 * @params: the table's params
 *
 * Context: as cds_rhashtable_insert_fast().
 * Return: as cds_rhltable_insert_key().
 */
static inline int cds_rhltable_insert(struct cds_rhltable *hlt,
				      struct cds_rhlist_head *list,
				      const struct cds_rhashtable_params params)
{
	const char *key = (const char *)cds_rht_obj(&hlt->ht, &list->rhead);

	return cds_rhltable_insert_key(hlt, key + params.key_offset, list,
				       params);
}

/* ------------------------------------------------------ removal, replace */

/* Remove @obj from @tbl: 0, or -ENOENT if it is not in @tbl. */
static inline RCULIST__RHT_INLINE int
rculist__rht_remove_one(struct cds_rhashtable *ht, struct cds_bucket_table *tbl,
			struct cds_rhash_head *obj,
			const struct cds_rhashtable_params params, bool rhlist)
{
	struct cds_rhash_lock_head **bkt =
		&tbl->buckets[rculist__rht_head_hash(ht, tbl, obj, params)];
	struct cds_rhash_head *he, **pprev = NULL;
	int err = -ENOENT;

	rculist__rht_lock(bkt);
	for (he = cds_rht_ptr_exclusive(bkt); !cds_rht_is_a_nulls(he);
	     pprev = &he->next, he = he->next) {
		struct cds_rhlist_head *list =
			rculist__container_of(he, struct cds_rhlist_head, rhead);
		struct cds_rhash_head *next;

		if (he != obj) {
			struct cds_rhlist_head **lpprev;

			if (!rhlist)
				continue;
			do {
				lpprev = &list->next;
				list = list->next;
			} while (list && obj != &list->rhead);
			if (!list)
				continue;
			rculist__publish(*lpprev, list->next);
			err = 0;
			break;
		}
		next = obj->next;
		err = 1;
		if (rhlist && list->next) {
			/* The next object of the key takes @obj's place in the chain. */
			list = list->next;
			list->rhead.next = next;
			next = &list->rhead;
			err = 0;
		}
		if (pprev) {
			rculist__publish(*pprev, next);
			rculist__rht_unlock(bkt);
		} else {
			rculist__rht_assign_unlock(bkt, next);
		}
		goto unlocked;
	}
	rculist__rht_unlock(bkt);
unlocked:
	if (err > 0) {
		__atomic_sub_fetch(&ht->nelems, 1, __ATOMIC_RELAXED);
		if (RCULIST__UNLIKELY(ht->p.automatic_shrinking &&
				      rculist__rht_shrink_below_30(ht, tbl)))
			rculist__rht_schedule(ht);
		err = 0;
	}
	return err;
}

static inline RCULIST__RHT_INLINE int
rculist__rht_remove_fast(struct cds_rhashtable *ht, struct cds_rhash_head *obj,
			 const struct cds_rhashtable_params params, bool rhlist)
{
	struct cds_bucket_table *tbl;
	int err;

	rculist_read_lock();
	tbl = rculist__deref(ht->tbl);
	/*
	 * Not in this table under its bucket lock: a rehash moved it (under
	 * that lock) to a future table, which is linked by then.
	 */
	while ((err = rculist__rht_remove_one(ht, tbl, obj, params, rhlist)) ==
		       -ENOENT &&
	       (tbl = rculist__deref(tbl->future_tbl)))
		;
	rculist_read_unlock();
	return err;
}

/**
 * cds_rhashtable_remove_fast - remove an object from a table
 * @ht: the table
 * @obj: the object's link
 * @params: the table's params
 *
 * Readers may still find the object until a grace period has elapsed:
 * free it after one (rculist_free_rcu()).  The table shrinks in the
 * background below 30% load with automatic_shrinking.
 *
 * Removing an object that is not in the table returns -ENOENT, as in
 * the kernel (whose own test removes absent objects).  Debug mode
 * (-DRCULIST_DEBUG) reports it as a misuse, at the call site, before
 * returning -ENOENT if the error handler returns.  The report tells a
 * never-inserted object from a stale one by its link's next, which no
 * removal clears (readers may still stand on the object): NULL (an
 * object zeroed or initialised and never inserted: a chain link is
 * never NULL, chains end in a nulls marker) or RCULIST_POISON_NEXT
 * (poisoned by its owner) says "never inserted"; any other value was
 * left by an insert: "removed already (removed twice?) or is in another
 * table".  Garbage in an uninitialised object reads as the latter.
 *
 * Context: a registered reader thread (any under bp); concurrent with
 * every other operation but another removal of @obj; spins on bucket
 * locks.
 * Return: 0, or -ENOENT if @obj is not in the table.
 */
static inline int
cds_rhashtable_remove_fast(struct cds_rhashtable *ht, struct cds_rhash_head *obj,
			   const struct cds_rhashtable_params params)
{
	return rculist__rht_remove_fast(ht, obj, params, false);
}

/**
 * cds_rhltable_remove - remove an object from a cds_rhltable
 * @hlt: the table
 * @list: the object's link
 * @params: the table's params
 *
 * Debug mode reports removing an object that is not in the table, as
 * for cds_rhashtable_remove_fast().
 *
 * Context: as cds_rhashtable_remove_fast().
 * Return: 0, or -ENOENT if the object is not in the table.
 */
static inline int cds_rhltable_remove(struct cds_rhltable *hlt,
				      struct cds_rhlist_head *list,
				      const struct cds_rhashtable_params params)
{
	return rculist__rht_remove_fast(&hlt->ht, &list->rhead, params, true);
}

#ifdef RCULIST_DEBUG
/*
 * Debug mode: removing an object that is not in the table is reported at
 * the call site (rculist__rht_debug_absent()); if the error handler
 * returns, the removal returns -ENOENT, as without debug mode.
 */
static inline RCULIST__RHT_INLINE int
rculist__rht_remove_at(struct cds_rhashtable *ht, struct cds_rhash_head *obj,
		       const struct cds_rhashtable_params params, bool rhlist,
		       const char *op, const char *file, int line)
{
	int err = rculist__rht_remove_fast(ht, obj, params, rhlist);

	if (RCULIST__UNLIKELY(err == -ENOENT))
		rculist__rht_debug_absent(op, file, line, cds_rht_obj(ht, obj),
					  rculist__load_once(obj->next));
	return err;
}
#define cds_rhashtable_remove_fast(ht, obj, params)			\
	rculist__rht_remove_at(ht, obj, params, false,			\
			       "cds_rhashtable_remove_fast", __FILE__, __LINE__)
#define cds_rhltable_remove(hlt, list, params)				\
	rculist__rht_remove_at(&(hlt)->ht, &(list)->rhead, params, true, \
			       "cds_rhltable_remove", __FILE__, __LINE__)
#endif

/* Replace @obj_old by @obj_new in @tbl: 0, -ENOENT, or -EINVAL. */
static inline RCULIST__RHT_INLINE int
rculist__rht_replace_one(struct cds_rhashtable *ht, struct cds_bucket_table *tbl,
			 struct cds_rhash_head *obj_old,
			 struct cds_rhash_head *obj_new,
			 const struct cds_rhashtable_params params)
{
	unsigned int hash = rculist__rht_head_hash(ht, tbl, obj_old, params);
	struct cds_rhash_lock_head **bkt = &tbl->buckets[hash];
	struct cds_rhash_head *he, **pprev = NULL;

	/* Objects with different keys cannot be replaced by each other. */
	if (hash != rculist__rht_head_hash(ht, tbl, obj_new, params))
		return -EINVAL;
	rculist__rht_lock(bkt);
	for (he = cds_rht_ptr_exclusive(bkt); !cds_rht_is_a_nulls(he);
	     pprev = &he->next, he = he->next) {
		if (he != obj_old)
			continue;
		obj_new->next = obj_old->next;
		if (pprev) {
			rculist__publish(*pprev, obj_new);
			rculist__rht_unlock(bkt);
		} else {
			rculist__rht_assign_unlock(bkt, obj_new);
		}
		return 0;
	}
	rculist__rht_unlock(bkt);
	return -ENOENT;
}

/**
 * cds_rhashtable_replace_fast - put an object in another's place
 * @ht: the table
 * @obj_old: the link of the object in the table
 * @obj_new: the link of its replacement, with the same key
 * @params: the table's params
 *
 * One release store: a reader finds either object, never neither.
 * Free @obj_old after a grace period.
 *
 * Debug mode reports replacing an object that is not in the table, as
 * cds_rhashtable_remove_fast() reports removing one.
 *
 * Context: as cds_rhashtable_remove_fast().
 * Return: 0; -ENOENT if @obj_old is not in the table; -EINVAL if the
 * objects' keys hash differently.
 */
static inline int
cds_rhashtable_replace_fast(struct cds_rhashtable *ht,
			    struct cds_rhash_head *obj_old,
			    struct cds_rhash_head *obj_new,
			    const struct cds_rhashtable_params params)
{
	struct cds_bucket_table *tbl;
	int err;

	rculist_read_lock();
	tbl = rculist__deref(ht->tbl);
	while ((err = rculist__rht_replace_one(ht, tbl, obj_old, obj_new,
					       params)) == -ENOENT &&
	       (tbl = rculist__deref(tbl->future_tbl)))
		;
	rculist_read_unlock();
	return err;
}

#ifdef RCULIST_DEBUG
/* Debug mode: replacing an object that is not in the table, as removing it. */
static inline RCULIST__RHT_INLINE int
rculist__rht_replace_at(struct cds_rhashtable *ht, struct cds_rhash_head *obj_old,
			struct cds_rhash_head *obj_new,
			const struct cds_rhashtable_params params, const char *file,
			int line)
{
	int err = cds_rhashtable_replace_fast(ht, obj_old, obj_new, params);

	if (RCULIST__UNLIKELY(err == -ENOENT))
		rculist__rht_debug_absent("cds_rhashtable_replace_fast", file, line,
					  cds_rht_obj(ht, obj_old),
					  rculist__load_once(obj_old->next));
	return err;
}
#define cds_rhashtable_replace_fast(ht, obj_old, obj_new, params)	\
	rculist__rht_replace_at(ht, obj_old, obj_new, params, __FILE__, __LINE__)
#endif

#ifdef RCULIST_DEBUG
/*
 * Debug mode: the lookups check, at their call site, that the caller is
 * inside a read-side critical section; the inserts record their call
 * site, which an "inserted twice" report names.  Each argument is
 * evaluated once.
 */
#define cds_rhashtable_lookup(ht, key, params)				\
	(rculist__debug_reader_at("cds_rhashtable_lookup", __FILE__, __LINE__), \
	 cds_rhashtable_lookup(ht, key, params))
#define cds_rhltable_lookup(hlt, key, params)				\
	(rculist__debug_reader_at("cds_rhltable_lookup", __FILE__, __LINE__), \
	 cds_rhltable_lookup(hlt, key, params))

/* The value of a recorded call, the record dropped. */
static inline int rculist__rht_left_int(int v)
{
	rculist__debug_leave();
	return v;
}
static inline void *rculist__rht_left_ptr(void *v)
{
	rculist__debug_leave();
	return v;
}
#define RCULIST__RHT_SITE(name, left, call)				\
	left((rculist__debug_enter(#name, __FILE__, __LINE__), (call)))
#define cds_rhashtable_insert_fast(ht, obj, params)			\
	RCULIST__RHT_SITE(cds_rhashtable_insert_fast, rculist__rht_left_int, \
			  cds_rhashtable_insert_fast(ht, obj, params))
#define cds_rhashtable_lookup_insert_fast(ht, obj, params)		\
	RCULIST__RHT_SITE(cds_rhashtable_lookup_insert_fast,		\
			  rculist__rht_left_int,				\
			  cds_rhashtable_lookup_insert_fast(ht, obj, params))
#define cds_rhashtable_lookup_get_insert_fast(ht, obj, params)		\
	RCULIST__RHT_SITE(cds_rhashtable_lookup_get_insert_fast,	\
			  rculist__rht_left_ptr,				\
			  cds_rhashtable_lookup_get_insert_fast(ht, obj, params))
#define cds_rhashtable_lookup_insert_key(ht, key, obj, params)		\
	RCULIST__RHT_SITE(cds_rhashtable_lookup_insert_key,		\
			  rculist__rht_left_int,				\
			  cds_rhashtable_lookup_insert_key(ht, key, obj, params))
#define cds_rhashtable_lookup_get_insert_key(ht, key, obj, params)	\
	RCULIST__RHT_SITE(cds_rhashtable_lookup_get_insert_key,		\
			  rculist__rht_left_ptr,				\
			  cds_rhashtable_lookup_get_insert_key(ht, key, obj, params))
#define cds_rhltable_insert_key(hlt, key, list, params)			\
	RCULIST__RHT_SITE(cds_rhltable_insert_key, rculist__rht_left_int, \
			  cds_rhltable_insert_key(hlt, key, list, params))
#define cds_rhltable_insert(hlt, list, params)				\
	RCULIST__RHT_SITE(cds_rhltable_insert, rculist__rht_left_int,	\
			  cds_rhltable_insert(hlt, list, params))
#endif

RCULIST__END_DECLS

#endif /* RCULIST_RHASHTABLE_H */
