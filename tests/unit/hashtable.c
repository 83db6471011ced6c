// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/hashtable.c - <rculist/hashtable.h>: the kernel's hash
 * functions against values worked out apart from the code, every table
 * operation and iterator single-threaded, and readers looking keys up
 * (cds_hash_for_each_possible_rcu) and walking the whole table
 * (cds_hash_for_each_rcu) while an updater adds, deletes and frees
 * through grace periods, freed elements poisoned.
 */
#include <limits.h>
#include <stdint.h>

#include "conc.h"

TestSuite(hashtable, .timeout = 10);

/* ------------------------------------------------------------- hashes */

struct hash_vector {
	uint64_t val;
	unsigned int bits;
	uint32_t hash;
};

/*
 * Worked out with python3's unbounded integers from the kernel's
 * definitions (include/linux/hash.h), not from this code:
 *   hash_32(v, b) = (v * 0x61C88647 mod 2^32) >> (32 - b)
 *   hash_64(v, b) = (v * 0x61C8864680B583EB mod 2^64) >> (64 - b), as u32
 * with a 64-bit long, and with a 32-bit long
 *   hash_64(v, b) = hash_32(lo32(v) ^ (hi32(v) * 0x61C88647 mod 2^32), b).
 * Anchors anyone can check: -1 times the multiplier is 2^32/phi =
 * 0x9E3779B9 (and 0x9E3779B97F4A7C15 in 64 bits), so the hash of all
 * ones with every bit kept is 0x9e3779b9 in both widths.
 */
static const struct hash_vector hash_32_vectors[] = {
	{ 0, 32, 0 },
	{ 1, 1, 0 },
	{ 1, 4, 0x6 },
	{ 1, 16, 0x61c8 },
	{ 1, 31, 0x30e44323 },
	{ 1, 32, 0x61c88647 },
	{ 2, 1, 1 },
	{ 2, 31, 0x61c88647 },
	{ 2, 32, 0xc3910c8e },
	{ 0x12345678, 10, 0x1de },
	{ 0x12345678, 32, 0x7786cb48 },
	{ 0xdeadbeef, 16, 0x6dd9 },
	{ 0xdeadbeef, 31, 0x36ec8724 },
	{ 0xffffffff, 1, 1 },
	{ 0xffffffff, 10, 0x278 },
	{ 0xffffffff, 32, 0x9e3779b9 },
};

#if ULONG_MAX > 0xffffffffUL
static const struct hash_vector hash_64_vectors[] = {
	{ 1, 4, 0x6 },
	{ 1, 32, 0x61c88646 },
	{ 2, 32, 0xc3910c8d },
	{ 0xdeadbeef, 1, 1 },
	{ 0xdeadbeef, 10, 0x3fc },
	{ 0xdeadbeef, 32, 0xff201268 },
	{ 1ULL << 32, 16, 0x80b5 },
	{ 1ULL << 32, 32, 0x80b583eb },
	{ 0x0123456789abcdefULL, 4, 0xf },
	{ 0x0123456789abcdefULL, 31, 0x79b62c24 },
	{ 0xffffffffffffffffULL, 1, 1 },
	{ 0xffffffffffffffffULL, 32, 0x9e3779b9 },
};
#else
static const struct hash_vector hash_64_vectors[] = {
	{ 1, 32, 0x61c88647 },
	{ 0xdeadbeef, 10, 0x1b7 },
	{ 1ULL << 32, 16, 0xe35e },
	{ 1ULL << 32, 32, 0xe35e67b1 },
	{ 0x0123456789abcdefULL, 31, 0x36612979 },
	{ 0xffffffffffffffffULL, 32, 0x8195e16a },
};
#endif

#define NVEC(v) (sizeof(v) / sizeof((v)[0]))

Test(hashtable, hash_32_gives_the_kernels_values)
{
	size_t i;

	for (i = 0; i < NVEC(hash_32_vectors); i++) {
		const struct hash_vector *v = &hash_32_vectors[i];
		uint32_t got = cds_hash_32((uint32_t)v->val, v->bits);

		cr_assert_eq(got, v->hash,
			     "cds_hash_32(%#llx, %u) = %#x, want %#x",
			     (unsigned long long)v->val, v->bits, got, v->hash);
	}
}

Test(hashtable, hash_64_gives_the_kernels_values)
{
	size_t i;

	for (i = 0; i < NVEC(hash_64_vectors); i++) {
		const struct hash_vector *v = &hash_64_vectors[i];
		uint32_t got = cds_hash_64(v->val, v->bits);

		cr_assert_eq(got, v->hash,
			     "cds_hash_64(%#llx, %u) = %#x, want %#x",
			     (unsigned long long)v->val, v->bits, got, v->hash);
	}
}

/* The next value of a 64-bit xorshift generator (never 0 from non-0). */
static uint64_t xorshift64(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

/*
 * The properties the kernel's own hash test checks, on inputs of our
 * own: a k-bit hash never exceeds k bits, and over many inputs every one
 * of the k bits is set by some hash (no bit stuck at 0).  Width 0 gives 0.
 */
Test(hashtable, hashes_fill_exactly_the_bits_asked_for)
{
	uint32_t or32[33] = { 0 }, or64[33] = { 0 };
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	unsigned int k;
	int i;

	for (i = 0; i < 4096; i++) {
		x = xorshift64(x);
		for (k = 1; k <= 32; k++) {
			uint32_t mask = (uint32_t)((2ULL << (k - 1)) - 1);
			uint32_t h32 = cds_hash_32((uint32_t)x, k);
			uint32_t h64 = cds_hash_64(x, k);

			cr_assert_leq(h32, mask, "cds_hash_32(%#x, %u) = %#x",
				      (uint32_t)x, k, h32);
			cr_assert_leq(h64, mask, "cds_hash_64(%#llx, %u) = %#x",
				      (unsigned long long)x, k, h64);
			or32[k] |= h32;
			or64[k] |= h64;
		}
		cr_assert_eq(cds_hash_32((uint32_t)x, 0), 0);
		cr_assert_eq(cds_hash_64(x, 0), 0);
	}
	for (k = 1; k <= 32; k++) {
		uint32_t mask = (uint32_t)((2ULL << (k - 1)) - 1);

		cr_assert_eq(or32[k], mask, "OR of cds_hash_32(, %u) = %#x", k,
			     or32[k]);
		cr_assert_eq(or64[k], mask, "OR of cds_hash_64(, %u) = %#x", k,
			     or64[k]);
	}
}

Test(hashtable, hash_long_and_hash_ptr_follow_the_width_of_long)
{
	unsigned long v = (unsigned long)0x0123456789abcdefULL;
	static int object;
	unsigned int k;

	for (k = 0; k <= 32; k++) {
		uint32_t want = sizeof(long) == 8 ? cds_hash_64(v, k) :
						    cds_hash_32((uint32_t)v, k);

		cr_assert_eq(cds_hash_long(v, k), want, "bits %u", k);
		cr_assert_eq(cds_hash_ptr(&object, k),
			     cds_hash_long((unsigned long)(uintptr_t)&object, k));
	}
}

Test(hashtable, hash_min_chooses_by_the_size_of_the_key)
{
	/* 0xdeadbeef: hash_32 and hash_64 differ in 10 bits (0x1b7, 0x3fc) */
	unsigned int u = 0xdeadbeef;
	unsigned long ul = 0xdeadbeef;
	uint64_t u64 = 0xdeadbeef;
	unsigned short us = 0xbeef;
	signed char sc = -3;
	int i = -3, n = 0;

	cr_assert_neq(cds_hash_32(0xdeadbeef, 10), cds_hash_long(0xdeadbeef, 10));
	cr_assert_eq(cds_hash_min(u, 10), cds_hash_32(0xdeadbeef, 10));
	cr_assert_eq(cds_hash_min(ul, 10),
		     sizeof(long) <= 4 ? cds_hash_32(0xdeadbeef, 10) :
					 cds_hash_long(0xdeadbeef, 10));
	cr_assert_eq(cds_hash_min(u64, 10),
		     cds_hash_long((unsigned long)u64, 10));
	cr_assert_eq(cds_hash_min(us, 10), cds_hash_32(0xbeef, 10));
	/* signed keys convert as the kernel's do: -3 is 0xfffffffd */
	cr_assert_eq(cds_hash_min(sc, 10), cds_hash_32(0xfffffffdU, 10));
	cr_assert_eq(cds_hash_min(i, 10), cds_hash_32(0xfffffffdU, 10));
	/* the key is evaluated once */
	cr_assert_eq(cds_hash_min(n++, 7), cds_hash_32(0, 7));
	cr_assert_eq(n, 1);
}

/* ------------------------------------------------------------- tables */

static CDS_DEFINE_HASHTABLE(file_table, 5);
_Static_assert(CDS_HASH_BITS(file_table) == 5, "CDS_HASH_BITS is a constant");
_Static_assert(CDS_HASH_SIZE(file_table) == 32, "CDS_HASH_SIZE is a constant");

/* Every bucket of the @n buckets from @t is NULL. */
static void check_all_empty(const struct cds_hlist_head *t, size_t n,
			    const char *where)
{
	size_t i;

	for (i = 0; i < n; i++)
		cr_assert_null(t[i].next, "%s: bucket %zu not empty", where, i);
}

#define CHECK_TABLE_EMPTY(t)                                                 \
	do {                                                                 \
		check_all_empty(t, CDS_HASH_SIZE(t), #t);                    \
		cr_assert(cds_hash_empty(t), #t ": cds_hash_empty() false"); \
	} while (0)

Test(hashtable, define_makes_an_empty_table_of_2_to_the_bits)
{
	CDS_DEFINE_HASHTABLE(one, 0);
	CDS_DEFINE_HASHTABLE(eight, 3);
	static CDS_DEFINE_READ_MOSTLY_HASHTABLE(big, 12);

	cr_assert_eq(CDS_HASH_SIZE(one), 1);
	cr_assert_eq(CDS_HASH_BITS(one), 0);
	cr_assert_eq(CDS_HASH_SIZE(eight), 8);
	cr_assert_eq(CDS_HASH_BITS(eight), 3);
	cr_assert_eq(CDS_HASH_SIZE(big), 4096);
	cr_assert_eq(CDS_HASH_BITS(big), 12);
	cr_assert_eq(sizeof(eight), 8 * sizeof(struct cds_hlist_head));
	CHECK_TABLE_EMPTY(one);
	CHECK_TABLE_EMPTY(eight);
	CHECK_TABLE_EMPTY(big);
	CHECK_TABLE_EMPTY(file_table);
}

Test(hashtable, declare_then_init_empties_every_bucket)
{
	struct {
		int before;
		CDS_DECLARE_HASHTABLE(tab, 4);
		int after;
	} s;
	struct cds_hlist_head pair[2][4];
	int i = 0;

	memset(&s, 0xa5, sizeof(s));
	cr_assert_eq(CDS_HASH_SIZE(s.tab), 16);
	cr_assert_eq(CDS_HASH_BITS(s.tab), 4);
	cr_assert_not(cds_hash_empty(s.tab));
	cds_hash_init(s.tab);
	CHECK_TABLE_EMPTY(s.tab);
	cr_assert_eq(s.before, (int)0xa5a5a5a5, "init wrote before the table");
	cr_assert_eq(s.after, (int)0xa5a5a5a5, "init wrote after the table");

	/* the table argument is evaluated once */
	memset(pair, 0xa5, sizeof(pair));
	cds_hash_init(pair[i++]);
	cr_assert_eq(i, 1);
	CHECK_TABLE_EMPTY(pair[0]);
	cr_assert_not(cds_hash_empty(pair[1]), "init went past its table");
	cr_assert(cds_hash_empty(pair[--i]));
	cr_assert_eq(i, 0);
}

/* The bucket of @t that cds_hash_min() gives @key, checked by hand. */
#define BUCKET(t, key) (&(t)[cds_hash_min(key, CDS_HASH_BITS(t))])

Test(hashtable, add_puts_an_object_in_the_kernels_bucket)
{
	CDS_DEFINE_HASHTABLE(t, 3);
	struct item a = { .key = 1 }, b = { .key = 2 }, c = { .key = 3 },
		    d = { .key = 4 };
	unsigned int ukey = 0xdeadbeef;
	unsigned long lkey = 0xdeadbeef;
	size_t i;

	/*
	 * int keys: hash_32(1, 3) = 0x61c88647 >> 29 = 3, hash_32(2, 3) =
	 * 0xc3910c8e >> 29 = 6.  0xdeadbeef: hash_32 -> 3 (0x6dd90e49 >> 29),
	 * hash_64 -> 7 (its 32-bit hash 0xff201268 >> 29) with a 64-bit long.
	 * before: all empty   after: [3] -> c <-> a, [6] -> b, [7] -> d
	 */
	cds_hash_add(t, &a.hnode, a.key);
	cds_hash_add(t, &b.hnode, b.key);
	cds_hash_add(t, &c.hnode, ukey);
	cds_hash_add(t, &d.hnode, lkey);
	CHECK_HLIST(&t[6], 2);
#if ULONG_MAX > 0xffffffffUL
	CHECK_HLIST(&t[3], 3, 1);
	CHECK_HLIST(&t[7], 4);
#else
	CHECK_HLIST(&t[3], 4, 3, 1); /* hash_long is hash_32 */
#endif
	for (i = 0; i < 8; i++)
		if (i != 3 && i != 6 && (i != 7 || sizeof(long) == 4))
			cr_assert_null(t[i].next, "bucket %zu", i);
	cr_assert_not(cds_hash_empty(t));
}

Test(hashtable, add_keeps_every_object_of_a_key_newest_first)
{
	CDS_DEFINE_HASHTABLE(t, 4);
	struct item it[3] = { { .key = 1 }, { .key = 2 }, { .key = 3 } };
	int i;

	/* one key, three objects: [b] -> 3 <-> 2 <-> 1 */
	for (i = 0; i < 3; i++)
		cds_hash_add(t, &it[i].hnode, 42);
	CHECK_HLIST(BUCKET(t, 42), 3, 2, 1);
	cr_assert(rculist_hlist_check(BUCKET(t, 42)));
}

Test(hashtable, add_rcu_publishes_in_the_same_bucket)
{
	CDS_DEFINE_HASHTABLE(t, 4);
	struct item a = { .key = 1 }, b = { .key = 2 };

	cds_hash_add_rcu(t, &a.hnode, 9L);
	cds_hash_add_rcu(t, &b.hnode, 9L);
	CHECK_HLIST(BUCKET(t, 9L), 2, 1);
	cr_assert_eq(BUCKET(t, 9L), &t[cds_hash_long(9, 4)]);
}

Test(hashtable, hashed_follows_add_and_del)
{
	CDS_DEFINE_HASHTABLE(t, 2);
	struct item a = { .key = 1 };

	CDS_INIT_HLIST_NODE(&a.hnode);
	cr_assert_not(cds_hash_hashed(&a.hnode));
	cds_hash_add(t, &a.hnode, 5);
	cr_assert(cds_hash_hashed(&a.hnode));
	/* before: [b] -> a   after: [b], a unhashed */
	cds_hash_del(&a.hnode);
	cr_assert_not(cds_hash_hashed(&a.hnode));
	CHECK_TABLE_EMPTY(t);
	/* deleting an unhashed node does nothing */
	cds_hash_del(&a.hnode);
	cds_hash_del_rcu(&a.hnode);
	CHECK_TABLE_EMPTY(t);
	cr_assert_null(a.hnode.prev);
	/* and it may be added again, to another bucket */
	cds_hash_add_rcu(t, &a.hnode, 6);
	cr_assert(cds_hash_hashed(&a.hnode));
	CHECK_HLIST(BUCKET(t, 6), 1);
	cds_hash_del_rcu(&a.hnode);
	cr_assert_not(cds_hash_hashed(&a.hnode));
	CHECK_TABLE_EMPTY(t);
}

Test(hashtable, del_unlinks_from_anywhere_in_a_bucket)
{
	CDS_DEFINE_HASHTABLE(t, 3);
	struct item it[3] = { { .key = 1 }, { .key = 2 }, { .key = 3 } };
	int i;

	for (i = 0; i < 3; i++)
		cds_hash_add(t, &it[i].hnode, 7);
	/* before: [b] -> 3 <-> 2 <-> 1   after: [b] -> 3 <-> 1 */
	cds_hash_del(&it[1].hnode);
	CHECK_HLIST(BUCKET(t, 7), 3, 1);
	cr_assert_null(it[1].hnode.next);
	cr_assert_null(it[1].hnode.prev);
	/* before: [b] -> 3 <-> 1   after: [b] -> 3 */
	cds_hash_del(&it[0].hnode);
	CHECK_HLIST(BUCKET(t, 7), 3);
	/* before: [b] -> 3   after: [b] */
	cds_hash_del(&it[2].hnode);
	CHECK_TABLE_EMPTY(t);
}

Test(hashtable, del_rcu_leaves_next_for_readers)
{
	CDS_DEFINE_HASHTABLE(t, 3);
	struct item it[3] = { { .key = 1 }, { .key = 2 }, { .key = 3 } };
	int i;

	for (i = 0; i < 3; i++)
		cds_hash_add_rcu(t, &it[i].hnode, 7);
	/* before: [b] -> 3 <-> 2 <-> 1   after: [b] -> 3 <-> 1, 2 still -> 1 */
	cds_hash_del_rcu(&it[1].hnode);
	CHECK_HLIST(BUCKET(t, 7), 3, 1);
	cr_assert_eq(it[1].hnode.next, &it[0].hnode);
	cr_assert_not(cds_hash_hashed(&it[1].hnode));
	cds_hash_del_rcu(&it[2].hnode);
	cds_hash_del_rcu(&it[0].hnode);
	CHECK_TABLE_EMPTY(t);
}

Test(hashtable, empty_looks_at_every_bucket)
{
	CDS_DEFINE_HASHTABLE(t, 3);
	struct item a = { .key = 1 };
	size_t b;

	for (b = 0; b < 8; b++) {
		t[b].next = &a.hnode; /* by hand: any one bucket */
		a.hnode.prev = (struct cds_hlist_node *)(void *)&t[b];
		a.hnode.next = NULL;
		cr_assert_not(cds_hash_empty(t), "bucket %zu", b);
		t[b].next = NULL;
		cr_assert(cds_hash_empty(t), "bucket %zu", b);
	}
}

/* ---------------------------------------------------------- iterators */

#define NOBJ 20

/* it[i] has key i, added in order to @t by its key (an int). */
static void add_keys(struct cds_hlist_head *t, size_t bits, struct item *it)
{
	int i;

	for (i = 0; i < NOBJ; i++) {
		it[i].key = i;
		cds_hlist_add_head(&it[i].hnode,
				   &t[cds_hash_32((uint32_t)i, (unsigned int)bits)]);
	}
}

/*
 * The walk a whole-table iterator must make: bucket by bucket, each
 * bucket from its head, read off the links by hand.
 */
static size_t expected_walk(const struct cds_hlist_head *t, size_t n, int *keys,
			    int *buckets)
{
	const struct cds_hlist_node *pos;
	size_t b, len = 0;

	for (b = 0; b < n; b++)
		for (pos = t[b].next; pos; pos = pos->next) {
			keys[len] = HITEM_KEY(pos);
			buckets[len++] = (int)b;
		}
	return len;
}

struct walk {
	size_t n;
	int keys[NOBJ], buckets[NOBJ];
};

static void walk_add(struct walk *w, const struct item *x, int bkt)
{
	cr_assert_lt(w->n, NOBJ, "walk longer than the table");
	w->keys[w->n] = x->key;
	w->buckets[w->n++] = bkt;
}

static void check_walk(const struct walk *w, const struct cds_hlist_head *t,
		       size_t nb, const char *what)
{
	int keys[NOBJ], buckets[NOBJ];
	size_t i, len = expected_walk(t, nb, keys, buckets);

	cr_assert_eq(w->n, len, "%s: %zu objects, expected %zu", what, w->n, len);
	for (i = 0; i < len; i++) {
		cr_assert_eq(w->keys[i], keys[i], "%s: [%zu] key %d, expected %d",
			     what, i, w->keys[i], keys[i]);
		cr_assert_eq(w->buckets[i], buckets[i],
			     "%s: [%zu] bucket %d, expected %d", what, i,
			     w->buckets[i], buckets[i]);
	}
}

Test(hashtable, for_each_walks_every_bucket_in_order)
{
	CDS_DEFINE_HASHTABLE(t, 3);
	CDS_DEFINE_HASHTABLE(none, 3);
	struct item it[NOBJ], *x;
	struct walk w = { 0 };
	unsigned int ubkt;
	int bkt, runs = 0;

	add_keys(t, 3, it);
	cds_hash_for_each(t, bkt, x, hnode) {
		cr_assert_eq((uint32_t)bkt, cds_hash_min(x->key, 3));
		walk_add(&w, x, bkt);
	}
	check_walk(&w, t, 8, "cds_hash_for_each");
	cr_assert_null(x, "the cursor is not NULL after the walk");
	cr_assert_eq(bkt, 8);

	/*
	 * break: the walk stops at once, the cursor on the object and, as
	 * in the kernel, the bucket counter one past its bucket (the bucket
	 * loop's increment runs before its test sees the cursor).
	 */
	cds_hash_for_each(t, ubkt, x, hnode)
		if (x->key == 13)
			break;
	cr_assert_eq(x, &it[13]);
	cr_assert_eq(ubkt, cds_hash_32(13, 3) + 1);

	cds_hash_for_each(none, bkt, x, hnode)
		runs++;
	cr_assert_eq(runs, 0);
	cr_assert_null(x);
}

Test(hashtable, for_each_rcu_walks_like_for_each)
{
	CDS_DEFINE_HASHTABLE(t, 3);
	struct item it[NOBJ], *x;
	struct walk w = { 0 };
	int bkt;

	add_keys(t, 3, it);
	rculist_register_thread();
	rculist_read_lock();
	cds_hash_for_each_rcu(t, bkt, x, hnode)
		walk_add(&w, x, bkt);
	cr_assert_null(x);
	cds_hash_for_each_rcu(t, bkt, x, hnode)
		if (x->key == 7)
			break;
	rculist_read_unlock();
	rculist_unregister_thread();
	check_walk(&w, t, 8, "cds_hash_for_each_rcu");
	cr_assert_eq(x, &it[7]);
	cr_assert_eq((uint32_t)bkt, cds_hash_32(7, 3) + 1);
}

Test(hashtable, for_each_safe_lets_the_body_delete)
{
	CDS_DEFINE_HASHTABLE(t, 3);
	struct item it[NOBJ], *x;
	struct cds_hlist_node *tmp;
	struct walk w = { 0 }, all;
	int bkt, i;

	add_keys(t, 3, it);
	all.n = expected_walk(t, 8, all.keys, all.buckets);
	/* before: 20 objects   after: every bucket empty, every node unhashed */
	cds_hash_for_each_safe(t, bkt, tmp, x, hnode) {
		walk_add(&w, x, bkt);
		cds_hash_del(&x->hnode);
	}
	cr_assert_null(x);
	cr_assert_eq(w.n, all.n);
	cr_assert_arr_eq(w.keys, all.keys, sizeof(all.keys[0]) * all.n);
	cr_assert_arr_eq(w.buckets, all.buckets, sizeof(all.buckets[0]) * all.n);
	CHECK_TABLE_EMPTY(t);
	for (i = 0; i < NOBJ; i++)
		cr_assert_not(cds_hash_hashed(&it[i].hnode));
}

/* The keys of one bucket, head first, by hand. */
static size_t bucket_keys(const struct cds_hlist_head *head, int *keys)
{
	const struct cds_hlist_node *pos;
	size_t n = 0;

	for (pos = head->next; pos; pos = pos->next)
		keys[n++] = HITEM_KEY(pos);
	return n;
}

Test(hashtable, for_each_possible_walks_the_keys_bucket_only)
{
	CDS_DEFINE_HASHTABLE(t, 2);
	struct item it[NOBJ], *x;
	int want[NOBJ], seen[NOBJ], key;
	size_t n, len;

	/* 20 keys in 4 buckets: each bucket holds colliding keys */
	add_keys(t, 2, it);
	for (key = 0; key < NOBJ; key++) {
		n = 0;
		cds_hash_for_each_possible(t, x, hnode, key) {
			cr_assert_lt(n, NOBJ);
			seen[n++] = x->key;
		}
		cr_assert_null(x);
		len = bucket_keys(&t[cds_hash_32((uint32_t)key, 2)], want);
		cr_assert_gt(len, 1, "key %d: no collision to walk past", key);
		cr_assert_eq(n, len, "key %d: %zu objects, expected %zu", key,
			     n, len);
		cr_assert_arr_eq(seen, want, n * sizeof(seen[0]), "key %d", key);
	}
}

Test(hashtable, for_each_possible_rcu_walks_the_keys_bucket_only)
{
	CDS_DEFINE_HASHTABLE(t, 2);
	struct item it[NOBJ], *x;
	int want[NOBJ], seen[NOBJ], notrace[NOBJ], key, conds = 0;
	size_t n, m, c, len;

	add_keys(t, 2, it);
	rculist_register_thread();
	rculist_read_lock();
	for (key = 0; key < NOBJ; key++) {
		n = m = c = 0;
		cds_hash_for_each_possible_rcu(t, x, hnode, key)
			seen[n++] = x->key;
		cr_assert_null(x);
		/* the kernel's optional condition: debug mode only reads it */
		cds_hash_for_each_possible_rcu(t, x, hnode, key, ++conds > 0)
			c++;
		cds_hash_for_each_possible_rcu_notrace(t, x, hnode, key)
			notrace[m++] = x->key;
		cr_assert_null(x);
		len = bucket_keys(&t[cds_hash_32((uint32_t)key, 2)], want);
		cr_assert_eq(n, len, "key %d", key);
		cr_assert_eq(m, len, "key %d", key);
		cr_assert_eq(c, len, "key %d", key);
		cr_assert_arr_eq(seen, want, n * sizeof(seen[0]), "key %d", key);
		cr_assert_arr_eq(notrace, want, m * sizeof(seen[0]), "key %d",
				 key);
	}
	rculist_read_unlock();
	rculist_unregister_thread();
#ifdef RCULIST_DEBUG
	cr_assert_leq(conds, NOBJ,
		      "the condition was evaluated more than once a walk");
#else
	cr_assert_eq(conds, 0, "the condition was evaluated");
#endif
}

/* An updater looks a key up under its own lock, outside any section. */
Test(hashtable, for_each_possible_rcu_under_the_update_lock_with_a_condition)
{
	CDS_DEFINE_HASHTABLE(t, 2);
	struct item it[NOBJ], *x;
	int want[NOBJ], seen[NOBJ], key, locked = 1;
	size_t n, len;

	add_keys(t, 2, it);
	rculist_register_thread();
	for (key = 0; key < NOBJ; key++) {
		n = 0;
		cds_hash_for_each_possible_rcu(t, x, hnode, key, locked)
			seen[n++] = x->key;
		cr_assert_null(x);
		len = bucket_keys(&t[cds_hash_32((uint32_t)key, 2)], want);
		cr_assert_eq(n, len, "key %d", key);
		cr_assert_arr_eq(seen, want, n * sizeof(seen[0]), "key %d", key);
	}
	rculist_unregister_thread();
}

Test(hashtable, for_each_possible_safe_lets_the_body_delete)
{
	CDS_DEFINE_HASHTABLE(t, 2);
	struct item it[NOBJ], *x;
	struct cds_hlist_node *tmp;
	int want[NOBJ], key = 5;
	size_t n = 0, len, b = cds_hash_32(5, 2), i;

	add_keys(t, 2, it);
	len = bucket_keys(&t[b], want);
	/* before: [b] -> k1 <-> k2 ...   after: [b] empty, the others intact */
	cds_hash_for_each_possible_safe(t, x, tmp, hnode, key) {
		cr_assert_eq(x->key, want[n++]);
		cds_hash_del(&x->hnode);
	}
	cr_assert_eq(n, len);
	cr_assert_null(t[b].next);
	for (i = 0; i < NOBJ; i++)
		cr_assert_eq(cds_hash_hashed(&it[i].hnode),
			     cds_hash_32((uint32_t)i, 2) != b, "key %zu", i);
}

Test(hashtable, every_argument_is_evaluated_once)
{
	struct cds_hlist_head tabs[2][8];
	struct item a = { .key = 1 }, *x;
	struct cds_hlist_node *tmp;
	int i = 0, k = 3, bkt, runs = 0;

	cds_hash_init(tabs[0]);
	cds_hash_init(tabs[1]);
	cds_hash_add(tabs[i++], &a.hnode, k++);
	cr_assert_eq(i, 1);
	cr_assert_eq(k, 4);
	CHECK_HLIST(&tabs[0][cds_hash_32(3, 3)], 1);
	cr_assert(cds_hash_empty(tabs[1]));

	i = 0;
	k = 3;
	cds_hash_for_each_possible(tabs[i++], x, hnode, k++)
		runs++;
	cds_hash_for_each_possible_safe(tabs[i++ - 1], x, tmp, hnode, k++ - 1)
		runs++;
	cr_assert_eq(i, 2);
	cr_assert_eq(k, 5);
	i = 0;
	cds_hash_for_each(tabs[i++], bkt, x, hnode)
		runs++;
	cds_hash_for_each_safe(tabs[i++ - 1], bkt, tmp, x, hnode)
		runs++;
	cr_assert_eq(i, 2);
	rculist_register_thread();
	rculist_read_lock();
	i = 0;
	k = 3;
	cds_hash_for_each_rcu(tabs[i++], bkt, x, hnode)
		runs++;
	cds_hash_for_each_possible_rcu(tabs[i++ - 1], x, hnode, k++)
		runs++;
	cds_hash_for_each_possible_rcu_notrace(tabs[i++ - 2], x, hnode, k++ - 1)
		runs++;
	rculist_read_unlock();
	rculist_unregister_thread();
	cr_assert_eq(i, 3);
	cr_assert_eq(k, 5);
	cr_assert_eq(runs, 7, "each walk finds a once: %d", runs);
	i = 0;
	cr_assert_not(cds_hash_empty(tabs[i++]));
	cr_assert_eq(i, 1);
	cds_hash_del(&a.hnode);
}

/* --------------------------------------------------------- concurrent */

/*
 * Keys 0..CT_KEYS-1 (long) in 2^CT_BITS buckets, each present at most
 * once.  The pinned keys (multiples of 8) are added before the readers
 * start and never deleted: every lookup of one must find it, however the
 * updates around it in its bucket interleave with the walk.  The other
 * keys come and go: cds_hash_add_rcu() at the head of their bucket,
 * cds_hash_del_rcu() wherever they are, then a grace period, poison and
 * free.
 */
#define CT_BITS	     3
#define CT_KEYS	     64
#define CT_PINNED(k) ((k) % 8 == 0)

static CDS_DEFINE_HASHTABLE(ct, CT_BITS);

struct ctable {
	struct conc_elem *present[CT_KEYS];
	pthread_mutex_t lock;
	struct conc_reclaimer rc;
	uint64_t rnd;
	unsigned long adds, dels;
};

/* Check @e met in the walk of bucket @b; 0 to stop the walk. */
static int ct_check(struct conc_reader *r, const struct conc_elem *e,
		    uint32_t b, uint64_t *seen)
{
	if (!conc_check_elem(r, e, CT_KEYS))
		return 0;
	if (cds_hash_min(e->key, CT_BITS) != b) {
		conc_violation(r, "walk %lu: key %ld in bucket %u", r->walks,
			       e->key, b);
		return 0;
	}
	if (*seen & (1ULL << e->key)) {
		conc_violation(r, "walk %lu: key %ld seen twice", r->walks,
			       e->key);
		return 0;
	}
	*seen |= 1ULL << e->key;
	return 1;
}

/*
 * On the walk's pause element (conc_walk_begin() chose it), stand on @e
 * until the updater has made CT_HOLD updates (2 ms at most: it may be
 * waiting for this very reader), then check @e again: an element reached
 * inside a read-side section must not be poisoned before the section
 * ends, whatever was deleted and retired meanwhile.  0 if it was.
 */
#define CT_HOLD 8
static int ct_hold(struct conc_reader *r, const struct conc_elem *e, long n)
{
	unsigned long seq = __atomic_load_n(&conc_updates, __ATOMIC_RELAXED);
	double until = conc_now() + 0.002;

	if (n != r->pause_at)
		return 1;
	while (__atomic_load_n(&conc_updates, __ATOMIC_RELAXED) - seq < CT_HOLD &&
	       conc_now() < until)
		sched_yield();
	return conc_check_elem(r, e, CT_KEYS);
}

/* A lookup of one key: its whole bucket, with the _rcu lookup iterator. */
static void ct_lookup(struct conc_reader *r) RCULIST_REQUIRES_RCU
{
	long want = (long)((r->walks * 7 + (unsigned long)r->param) % CT_KEYS),
	     n = 0;
	uint32_t b = cds_hash_min(want, CT_BITS);
	uint64_t seen = 0;
	struct conc_elem *e;

	cds_hash_for_each_possible_rcu(ct, e, hnode, want) {
		if (!ct_check(r, e, b, &seen) || !ct_hold(r, e, n++))
			return;
	}
	if (CT_PINNED(want) && !(seen & (1ULL << want)))
		conc_violation(r, "walk %lu: pinned key %ld not found",
			       r->walks, want);
	r->elems += (unsigned long)n;
}

/* A walk of the whole table: every pinned key, each key once, in its bucket. */
static void ct_walk_all(struct conc_reader *r) RCULIST_REQUIRES_RCU
{
	uint64_t seen = 0, pinned = 0;
	struct conc_elem *e;
	long n = 0, k;
	int bkt;

	cds_hash_for_each_rcu(ct, bkt, e, hnode) {
		if (!ct_check(r, e, (uint32_t)bkt, &seen) || !ct_hold(r, e, n++))
			return;
	}
	for (k = 0; k < CT_KEYS; k += 8)
		pinned |= 1ULL << k;
	if ((seen & pinned) != pinned)
		conc_violation(r, "walk %lu: pinned keys %#llx missing",
			       r->walks, (unsigned long long)(pinned & ~seen));
	r->elems += (unsigned long)n;
}

static void ct_step(void *arg)
{
	struct ctable *t = arg;
	long k = (long)(conc_rand(&t->rnd) % CT_KEYS);
	struct conc_elem *old, *n;

	if (CT_PINNED(k))
		k++;
	pthread_mutex_lock(&t->lock);
	old = t->present[k];
	if (!old) {
		n = conc_elem_new(k);
		cds_hash_add_rcu(ct, &n->hnode, n->key);
		t->present[k] = n;
		t->adds++;
	} else {
		cds_hash_del_rcu(&old->hnode);
		cr_assert_not(cds_hash_hashed(&old->hnode));
		t->present[k] = NULL;
		t->dels++;
	}
	pthread_mutex_unlock(&t->lock);
	conc_updated();
	if (old)
		conc_retire(&t->rc, old);
}

/* After the run: each bucket holds exactly the present keys that hash to it. */
static void ct_check_final(struct ctable *t)
{
	struct conc_elem *e;
	struct cds_hlist_node *tmp;
	uint64_t seen = 0, want = 0;
	long k;
	int bkt, n = 0;

	for (k = 0; k < CT_KEYS; k++)
		if (t->present[k])
			want |= 1ULL << k;
	for (bkt = 0; bkt < (1 << CT_BITS); bkt++)
		cr_assert(rculist_hlist_check(&ct[bkt]), "bucket %d", bkt);
	cds_hash_for_each(ct, bkt, e, hnode) {
		cr_assert_eq(e->magic, CONC_ALIVE);
		cr_assert_eq(cds_hash_min(e->key, CT_BITS), (uint32_t)bkt);
		cr_assert_eq(t->present[e->key], e, "key %ld", e->key);
		cr_assert_not(seen & (1ULL << e->key), "key %ld twice", e->key);
		seen |= 1ULL << e->key;
	}
	cr_assert_eq(seen, want, "table %#llx, present %#llx",
		     (unsigned long long)seen, (unsigned long long)want);
	cds_hash_for_each_safe(ct, bkt, tmp, e, hnode) {
		cds_hash_del(&e->hnode);
		free(e);
		n++;
	}
	cr_assert_eq(n, __builtin_popcountll(want));
	CHECK_TABLE_EMPTY(ct);
}

static void ct_run(enum conc_mode mode)
{
	static struct ctable t;
	struct conc_reader r[2] = {
		{ .walk = ct_lookup, .arg = &t, .param = 0, .pause_every = 8 },
		{ .walk = ct_walk_all, .arg = &t, .param = 3, .pause_every = 8 },
	};
	long k;

	pthread_mutex_init(&t.lock, NULL);
	t.rc.mode = mode;
	t.rc.batch_max = 4; /* CONC_SYNC: retired elements poisoned soon */
	t.rnd = 0x2545f4914f6cdd1dULL;
	for (k = 0; k < CT_KEYS; k += 8) {
		t.present[k] = conc_elem_new(k);
		cds_hash_add(ct, &t.present[k]->hnode, k);
	}
	conc_readers_start(r, 2);
	conc_update_for(conc_secs(), 20, r, 2, ct_step, &t);
	conc_readers_stop(r, 2);
	conc_reclaim_finish(&t.rc);
	cr_log_info("updater: %lu adds, %lu deletes, %lu grace periods", t.adds,
		    t.dels, t.rc.grace_periods);
	cr_assert_gt(t.adds, 0);
	cr_assert_gt(t.dels, 0);
	ct_check_final(&t);
}

Test(hashtable, readers_look_up_while_updater_frees_after_synchronize_rcu,
     .timeout = 30)
{
	ct_run(CONC_SYNC);
}

Test(hashtable, readers_look_up_while_updater_frees_through_call_rcu,
     .timeout = 30)
{
	ct_run(CONC_CALL_RCU);
}
