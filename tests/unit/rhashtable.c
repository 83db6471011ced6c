// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/rhashtable.c - every operation of <rculist/rhashtable.h>
 * and its result, one thread (the rehash thread aside): inserts,
 * lookups, removals and replacements and their errors, growth and
 * shrinking, the limits (-E2BIG), allocation failures (-ENOMEM, the
 * table left whole), walkers, the table with duplicate keys, keys
 * hashed by the caller's functions, destruction, and fork() during a
 * rehash.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "rhl_obj.h"

#include <rculist/rhashtable.h>

TestSuite(rhashtable, .timeout = 60);

struct tobj {
	int key;
	int value;
	struct cds_rhash_head node;
	struct rcu_head rcu;
};

static const struct cds_rhashtable_params params = {
	.key_len = sizeof(int),
	.key_offset = offsetof(struct tobj, key),
	.head_offset = offsetof(struct tobj, node),
	.automatic_shrinking = true,
};

static struct tobj *tobj_new(int key, int value)
{
	struct tobj *o = calloc(1, sizeof(*o));

	cr_assert_not_null(o);
	o->key = key;
	o->value = value;
	return o;
}

static struct tobj *find(struct cds_rhashtable *ht, int key)
{
	return cds_rhashtable_lookup_fast(ht, &key, params);
}

static void reg(void)
{
	rculist_register_thread();
}

/*
 * A removal (or replacement) of an object that is not in the table:
 * -ENOENT, and in debug mode (make check-debug) one report, the handler
 * returning (tests/unit/rhashtable_debug.c checks the report's words).
 */
#ifdef RCULIST_DEBUG
static int absent_reports;

static void count_absent(const struct rculist_error *err)
{
	cr_assert_not_null(strstr(err->message, "the object is not in the table"),
			   "%s", err->message);
	absent_reports++;
}

#define ABSENT(call)                                                          \
	do {                                                                  \
		rculist_error_handler *h_ =                                   \
			rculist_set_error_handler(count_absent);              \
		int n_ = absent_reports;                                      \
		cr_assert_eq(call, -ENOENT);                                  \
		cr_assert_eq(absent_reports, n_ + 1, "no report: %s", #call); \
		rculist_set_error_handler(h_);                                \
	} while (0)
#else
#define ABSENT(call) cr_assert_eq(call, -ENOENT)
#endif

/* Until the rehash thread has sized the table for its objects: its size. */
static unsigned int wait_settled(struct cds_rhashtable *ht, unsigned int lo,
				 unsigned int hi)
{
	struct timespec ms = { 0, 1000000 };
	unsigned int size = 0;
	int i, busy = 0;

	for (i = 0; i < 20000; i++) {
		struct cds_bucket_table *tbl;

		rculist_read_lock();
		tbl = rculist__deref(ht->tbl);
		size = tbl->size;
		busy = rculist__deref(tbl->future_tbl) != NULL;
		rculist_read_unlock();
		if (!busy && size >= lo && size <= hi)
			return size;
		rculist_thread_offline();
		nanosleep(&ms, NULL);
		rculist_thread_online();
	}
	cr_assert_fail("no progress: the table did not reach %u..%u buckets "
		       "(%u buckets%s, %u objects)",
		       lo, hi, size, busy ? ", resizing" : "",
		       rculist__load_once(ht->nelems));
	return 0;
}

/* before: {}   after: {1, 2, 3} then {1, 3} */
Test(rhashtable, insert_lookup_remove, .init = reg)
{
	struct cds_rhashtable ht;
	struct tobj *o[4];
	int i, k = 2;

	cr_assert_eq(cds_rhashtable_init(&ht, &params), 0);
	cr_assert_eq(ht.tbl->size, 64, "default size %u", ht.tbl->size);
	for (i = 1; i <= 3; i++) {
		o[i] = tobj_new(i, 10 * i);
		cr_assert_eq(cds_rhashtable_lookup_insert_fast(&ht, &o[i]->node,
							       params),
			     0);
	}
	cr_assert_eq(ht.nelems, 3);
	for (i = 1; i <= 3; i++)
		cr_assert_eq(find(&ht, i), o[i]);
	cr_assert_null(find(&ht, 4));
	rculist_read_lock();
	cr_assert_eq(cds_rhashtable_lookup(&ht, &k, params), o[2]);
	rculist_read_unlock();

	/* A second object with key 2: refused, or the first returned. */
	o[0] = tobj_new(2, 99);
	cr_assert_eq(cds_rhashtable_lookup_insert_fast(&ht, &o[0]->node, params),
		     -EEXIST);
	cr_assert_eq(cds_rhashtable_lookup_get_insert_fast(&ht, &o[0]->node,
							   params),
		     o[2]);
	cr_assert_eq(ht.nelems, 3);
	cr_assert_eq(find(&ht, 2)->value, 20);

	cr_assert_eq(cds_rhashtable_remove_fast(&ht, &o[2]->node, params), 0);
	ABSENT(cds_rhashtable_remove_fast(&ht, &o[2]->node, params));
	ABSENT(cds_rhashtable_remove_fast(&ht, &o[0]->node, params));
	cr_assert_null(find(&ht, 2));
	cr_assert_eq(find(&ht, 1), o[1]);
	cr_assert_eq(find(&ht, 3), o[3]);
	cr_assert_eq(ht.nelems, 2);

	/* Now key 2 is free: lookup_get_insert inserts and says NULL. */
	cr_assert_null(cds_rhashtable_lookup_get_insert_fast(&ht, &o[0]->node,
							     params));
	cr_assert_eq(find(&ht, 2), o[0]);
	cr_assert_eq(ht.nelems, 3);

	/* insert_fast does not look: a duplicate goes in, both are removable. */
	cr_assert_eq(cds_rhashtable_insert_fast(&ht, &o[2]->node, params), 0);
	cr_assert_eq(ht.nelems, 4);
	cr_assert_eq(find(&ht, 2)->key, 2);
	cr_assert_eq(cds_rhashtable_remove_fast(&ht, &o[0]->node, params), 0);
	cr_assert_eq(find(&ht, 2), o[2]);
	cr_assert_eq(cds_rhashtable_remove_fast(&ht, &o[2]->node, params), 0);
	cr_assert_null(find(&ht, 2));
	cds_rhashtable_destroy(&ht);
	for (i = 0; i < 4; i++)
		free(o[i]);
}

Test(rhashtable, init_errors, .init = reg)
{
	struct cds_rhashtable ht;
	struct cds_rhashtable_params p = params;

	p.key_len = 0;
	cr_assert_eq(cds_rhashtable_init(&ht, &p), -EINVAL,
		     "no key_len, no obj_hashfn");
	p.obj_hashfn = (cds_rht_obj_hashfn_t)rculist__rht_hash;
	cr_assert_eq(cds_rhashtable_init(&ht, &p), -EINVAL,
		     "obj_hashfn without obj_cmpfn");

	/* Sizes: the hint * 4 / 3 rounded up; min_size and max_size bound it. */
	p = params;
	p.nelem_hint = 1000;
	cr_assert_eq(cds_rhashtable_init(&ht, &p), 0);
	cr_assert_eq(ht.tbl->size, 2048);
	cr_assert_eq(ht.max_elems, 1U << 31);
	cds_rhashtable_destroy(&ht);
	p.nelem_hint = 0;
	p.min_size = 100;
	p.max_size = 1000;
	cr_assert_eq(cds_rhashtable_init(&ht, &p), 0);
	cr_assert_eq(ht.tbl->size, 128);
	cr_assert_eq(ht.p.max_size, 512);
	cr_assert_eq(ht.max_elems, 1024);
	cds_rhashtable_destroy(&ht);
}

/* before: [a: key 5] -> after: [b: key 5]; a key of another bucket refused */
Test(rhashtable, replace, .init = reg)
{
	struct cds_rhashtable ht;
	struct tobj *a = tobj_new(5, 1), *b = tobj_new(5, 2), *c = tobj_new(6, 3);
	int i, other = -1;

	cr_assert_eq(cds_rhashtable_init(&ht, &params), 0);
	ABSENT(cds_rhashtable_replace_fast(&ht, &a->node, &b->node, params));
	cr_assert_eq(cds_rhashtable_insert_fast(&ht, &a->node, params), 0);
	cr_assert_eq(cds_rhashtable_replace_fast(&ht, &a->node, &b->node, params),
		     0);
	cr_assert_eq(find(&ht, 5), b);
	cr_assert_eq(ht.nelems, 1);
	ABSENT(cds_rhashtable_remove_fast(&ht, &a->node, params));
	/* A key whose bucket differs from key 5's: -EINVAL. */
	for (i = 6; i < 1000 && other < 0; i++) {
		struct cds_bucket_table *tbl = ht.tbl;

		c->key = i;
		if (rculist__rht_head_hash(&ht, tbl, &c->node, params) !=
		    rculist__rht_head_hash(&ht, tbl, &b->node, params))
			other = i;
	}
	cr_assert_geq(other, 0);
	cr_assert_eq(cds_rhashtable_replace_fast(&ht, &b->node, &c->node, params),
		     -EINVAL);
	cr_assert_eq(find(&ht, 5), b);
	cr_assert_eq(cds_rhashtable_remove_fast(&ht, &b->node, params), 0);
	cr_assert_eq(ht.nelems, 0);
	cds_rhashtable_destroy(&ht);
	free(a);
	free(b);
	free(c);
}

static void free_obj(void *ptr, void *arg)
{
	(*(unsigned long *)arg)++;
	free(ptr);
}

/* 64 buckets -> 4096 keys: the table grows; all but 8 removed: it shrinks. */
Test(rhashtable, grows_and_shrinks, .init = reg)
{
	struct cds_rhashtable ht;
	enum { N = 20000 };
	static struct tobj *o[N];
	unsigned long freed = 0;
	unsigned int size;
	int i;

	cr_assert_eq(cds_rhashtable_init(&ht, &params), 0);
	for (i = 0; i < N; i++) {
		o[i] = tobj_new(i, i);
		cr_assert_eq(cds_rhashtable_insert_fast(&ht, &o[i]->node, params),
			     0);
	}
	cr_assert_eq(ht.nelems, N);
	size = wait_settled(&ht, N * 4 / 3, 1U << 20);
	cr_assert_eq(size, 32768, "size %u for %d keys", size, N);
	for (i = 0; i < N; i++)
		cr_assert_eq(find(&ht, i), o[i], "key %d", i);
	for (i = 8; i < N; i++)
		cr_assert_eq(cds_rhashtable_remove_fast(&ht, &o[i]->node, params),
			     0);
	cr_assert_eq(ht.nelems, 8);
	size = wait_settled(&ht, 4, 16);
	for (i = 0; i < N; i++)
		cr_assert_eq(find(&ht, i), i < 8 ? o[i] : NULL, "key %d", i);
	for (i = 8; i < N; i++)
		free(o[i]);
	cds_rhashtable_free_and_destroy(&ht, free_obj, &freed);
	cr_assert_eq(freed, 8);
}

/* Without automatic_shrinking the table stays big. */
Test(rhashtable, no_shrink_without_automatic_shrinking, .init = reg)
{
	struct cds_rhashtable_params p = params;
	struct cds_rhashtable ht;
	struct tobj *o[200];
	struct timespec ms = { 0, 20000000 };
	int i;

	p.automatic_shrinking = false;
	cr_assert_eq(cds_rhashtable_init(&ht, &p), 0);
	for (i = 0; i < 200; i++) {
		o[i] = tobj_new(i, i);
		cr_assert_eq(cds_rhashtable_insert_fast(&ht, &o[i]->node, p), 0);
	}
	wait_settled(&ht, 512, 512);
	for (i = 0; i < 200; i++)
		cr_assert_eq(cds_rhashtable_remove_fast(&ht, &o[i]->node, p), 0);
	nanosleep(&ms, NULL);
	cr_assert_eq(wait_settled(&ht, 1, 1U << 20), 512);
	cds_rhashtable_destroy(&ht);
	for (i = 0; i < 200; i++)
		free(o[i]);
}

/* max_size 16: 32 objects at most (-E2BIG), the table never above 16. */
Test(rhashtable, max_size_gives_e2big, .init = reg)
{
	struct cds_rhashtable_params p = params;
	struct cds_rhashtable ht;
	struct tobj *o[33];
	int i;

	p.max_size = 16;
	cr_assert_eq(cds_rhashtable_init(&ht, &p), 0);
	cr_assert_eq(ht.tbl->size, 16);
	cr_assert_eq(ht.max_elems, 32);
	for (i = 0; i < 33; i++) {
		o[i] = tobj_new(i, i);
		cr_assert_eq(cds_rhashtable_lookup_insert_fast(&ht, &o[i]->node,
							       p),
			     i < 32 ? 0 : -E2BIG, "insert %d", i);
	}
	cr_assert_eq(ht.nelems, 32);
	cr_assert(CDS_IS_ERR(
		cds_rhashtable_lookup_get_insert_fast(&ht, &o[32]->node, p)));
	cr_assert_eq(CDS_PTR_ERR(cds_rhashtable_lookup_get_insert_fast(&ht,
								       &o[32]->node,
								       p)),
		     -E2BIG);
	cr_assert_eq(wait_settled(&ht, 1, 1U << 20), 16);
	for (i = 0; i < 33; i++)
		cr_assert_eq(find(&ht, i), i < 32 ? o[i] : NULL);
	cds_rhashtable_destroy(&ht);
	for (i = 0; i < 33; i++)
		free(o[i]);
}

static int fail_allocs;
static void *failing_calloc(size_t n, size_t size)
{
	if (__atomic_load_n(&fail_allocs, __ATOMIC_RELAXED))
		return NULL;
	return calloc(n, size);
}

/*
 * Allocation fails: init says -ENOMEM; inserts beyond 100% load
 * (no bigger table to be had) say -ENOMEM and the table stays whole;
 * once memory is back the table grows.
 */
Test(rhashtable, enomem_leaves_the_table_whole, .init = reg)
{
	struct cds_rhashtable ht;
	enum { N = 200 };
	struct tobj *o[N];
	int i, n_in = 0, enomem = 0;

	rculist__rht_set_calloc(failing_calloc);
	__atomic_store_n(&fail_allocs, 1, __ATOMIC_RELAXED);
	cr_assert_eq(cds_rhashtable_init(&ht, &params), -ENOMEM);
	__atomic_store_n(&fail_allocs, 0, __ATOMIC_RELAXED);
	cr_assert_eq(cds_rhashtable_init(&ht, &params), 0);
	__atomic_store_n(&fail_allocs, 1, __ATOMIC_RELAXED);
	for (i = 0; i < N; i++) {
		int err;

		o[i] = tobj_new(i, i);
		err = cds_rhashtable_lookup_insert_fast(&ht, &o[i]->node, params);
		cr_assert(err == 0 || err == -ENOMEM, "insert %d: %d", i, err);
		if (err == 0) {
			cr_assert_eq(enomem, 0,
				     "insert %d succeeded after an -ENOMEM", i);
			n_in++;
		} else {
			enomem++;
		}
	}
	/* 64 buckets: inserts go on to 65 objects (above 100% load), then need a table. */
	cr_assert_eq(n_in, 65, "%d inserted before -ENOMEM", n_in);
	cr_assert_eq(ht.nelems, 65);
	cr_assert_eq(ht.tbl->size, 64);
	for (i = 0; i < N; i++)
		cr_assert_eq(find(&ht, i), i < n_in ? o[i] : NULL, "key %d", i);
	__atomic_store_n(&fail_allocs, 0, __ATOMIC_RELAXED);
	for (i = n_in; i < N; i++)
		cr_assert_eq(cds_rhashtable_lookup_insert_fast(&ht, &o[i]->node,
							       params),
			     0);
	wait_settled(&ht, 512, 512);
	for (i = 0; i < N; i++)
		cr_assert_eq(find(&ht, i), o[i], "key %d", i);
	cds_rhashtable_destroy(&ht);
	for (i = 0; i < N; i++)
		free(o[i]);
}

static int failed_starts;

static int failing_start(void *(*fn)(void *), const char *name)
{
	(void)fn;
	(void)name;
	failed_starts++;
	return EAGAIN; /* pthread_create()'s: no resources for a thread */
}

/*
 * The rehash thread could not be started: the resize asked for is not
 * lost, the next insert that asks starts the thread and the table grows.
 */
Test(rhashtable, thread_started_by_the_ask_after_a_failed_start, .init = reg)
{
	struct cds_rhashtable ht;
	enum { N = 60 };
	struct tobj *o[N];
	int i;

	cr_assert_eq(cds_rhashtable_init(&ht, &params), 0);
	for (i = 0; i < N; i++) {
		o[i] = tobj_new(i, i);
		if (i == 48) /* 49 in 64 buckets: above 75%, a resize asked */
			rculist__rht_set_thread_start(failing_start);
		cr_assert_eq(cds_rhashtable_insert_fast(&ht, &o[i]->node, params),
			     0);
		if (i == 48) {
			rculist__rht_set_thread_start(NULL);
			cr_assert_eq(failed_starts, 1);
			cr_assert_eq(ht.tbl->size, 64);
		}
	}
	cr_assert_eq(wait_settled(&ht, 128, 128), 128);
	for (i = 0; i < N; i++)
		cr_assert_eq(find(&ht, i), o[i], "key %d", i);
	cds_rhashtable_destroy(&ht);
	for (i = 0; i < N; i++)
		free(o[i]);
}

/* A table of 1024 buckets and its @n objects, keys 0..n-1. */
static void walker_table(struct cds_rhashtable *ht,
			 const struct cds_rhashtable_params *p, struct tobj **o,
			 int n)
{
	int i;

	cr_assert_eq(cds_rhashtable_init(ht, p), 0);
	cr_assert_eq(ht->tbl->size, 1024);
	for (i = 0; i < n; i++) {
		o[i] = tobj_new(i, i);
		cr_assert_eq(cds_rhashtable_insert_fast(ht, &o[i]->node, *p), 0);
	}
}

/* Until no resize is linked and the load asks for none: the size. */
static unsigned int wait_load_holds(struct cds_rhashtable *ht)
{
	unsigned int nelems = rculist__load_once(ht->nelems);
	/* The sizes that load holds in: n >= 30% of them, n <= 75%. */
	unsigned int lo = 1, hi = ht->p.min_size;

	while (lo / 4 * 3 < nelems)
		lo <<= 1;
	while ((hi * 2) * 3 / 10 <= nelems)
		hi <<= 1;
	return wait_settled(ht, lo, hi);
}

/*
 * A walk stopped on @ht's table while all its objects but 10 are removed
 * (o[10..n-1]): the shrink frees that table, the next start says -EAGAIN
 * and the walk returns the 10 left, from the new table, once each.
 *
 * Where the table settles depends on the counts the rehash thread read
 * (the kernel's rule: a table under 30% load shrinks to 150% of the
 * count its step reads, and 32 buckets hold 10 objects above 30%): 16
 * buckets if it read 10, 32 if it followed the removals down table by
 * table (64 buckets shrink to 32 for 12 to 18 objects).  @follow picks
 * the one: the rehash thread held off by the table's mutex during the
 * removals (16), or each removal waited on until the load rule holds
 * again (512, 256, 128, 64, then 32).  A rehash thread left to its own
 * pace gives either: a loaded machine that preempted the removals gave
 * 32 in about 1 run in 60.
 */
static void walk_stopped_across_shrink(struct cds_rhashtable *ht,
				       const struct cds_rhashtable_params *p,
				       struct tobj **o, int n, bool follow)
{
	struct cds_rhashtable_iter iter;
	unsigned char seen[10];
	int i, k = 0, again = 0;
	struct tobj *x;

	cds_rhashtable_walk_enter(ht, &iter);
	cds_rhashtable_walk_start(&iter);
	cr_assert_not_null(cds_rhashtable_walk_next(&iter));
	cds_rhashtable_walk_stop(&iter);
	if (!follow)
		pthread_mutex_lock(&ht->mutex);
	for (i = 10; i < n; i++) {
		cr_assert_eq(cds_rhashtable_remove_fast(ht, &o[i]->node, *p), 0);
		if (follow)
			wait_load_holds(ht);
	}
	if (!follow)
		pthread_mutex_unlock(&ht->mutex);
	cr_assert_eq(wait_settled(ht, 16, 32), follow ? 32 : 16);
	cr_assert_eq(cds_rhashtable_walk_start_check(&iter), -EAGAIN);
	memset(seen, 0, sizeof(seen));
	while ((x = cds_rhashtable_walk_next(&iter))) {
		if (CDS_IS_ERR(x)) {
			cr_assert_eq(CDS_PTR_ERR(x), -EAGAIN);
			again++;
			continue;
		}
		cr_assert_lt(x->key, 10, "key %d was removed", x->key);
		cr_assert_eq(seen[x->key]++, 0, "key %d twice", x->key);
		k++;
	}
	cds_rhashtable_walk_stop(&iter);
	cds_rhashtable_walk_exit(&iter);
	cr_assert_eq(k, 10, "%d objects, %d -EAGAIN, size %u", k, again,
		     ht->tbl->size);
	cr_assert_eq(again, 0);
	cds_rhashtable_destroy(ht);
	for (i = 0; i < n; i++)
		free(o[i]);
}

/* Every object once; then, after a resize while stopped, -EAGAIN. */
Test(rhashtable, walker, .init = reg)
{
	struct cds_rhashtable_params p = params;
	struct cds_rhashtable ht;
	struct cds_rhashtable_iter iter;
	enum { N = 300 };
	struct tobj *o[N], *x;
	unsigned char seen[N];
	int n = 0;

	p.nelem_hint = 400; /* 1024 buckets: no growth for N objects */
	walker_table(&ht, &p, o, N);
	memset(seen, 0, sizeof(seen));
	cds_rhashtable_walk_enter(&ht, &iter);
	/* Under 30% load, but no update asked for a shrink: none. */
	cr_assert_eq(ht.tbl->size, 1024);
	cds_rhashtable_walk_start(&iter);
	while ((x = cds_rhashtable_walk_next(&iter))) {
		cr_assert(!CDS_IS_ERR(x));
		cr_assert_eq(seen[x->key]++, 0, "key %d twice", x->key);
		cr_assert_eq(cds_rhashtable_walk_peek(&iter), x);
		n++;
		if (n % 50 == 0) { /* a pause: the walk goes on where it was */
			cds_rhashtable_walk_stop(&iter);
			cr_assert_eq(cds_rhashtable_walk_start_check(&iter), 0);
		}
	}
	cds_rhashtable_walk_stop(&iter);
	cds_rhashtable_walk_exit(&iter);
	cr_assert_eq(n, N);

	/* Stopped on a table that a shrink frees: -EAGAIN, then all again. */
	walk_stopped_across_shrink(&ht, &p, o, N, false);
}

/* The same, the rehash thread following the removals down: 32 buckets. */
Test(rhashtable, walker_stopped_while_shrinks_follow_removals, .init = reg)
{
	struct cds_rhashtable_params p = params;
	struct cds_rhashtable ht;
	enum { N = 300 };
	struct tobj *o[N];

	p.nelem_hint = 400;
	walker_table(&ht, &p, o, N);
	walk_stopped_across_shrink(&ht, &p, o, N, true);
}

static const struct cds_rhashtable_params lparams = {
	.key_len = sizeof(int),
	.key_offset = offsetof(struct lobj, key),
	.head_offset = offsetof(struct lobj, list),
	.automatic_shrinking = true,
};

/* The ids of key @key's objects, in list order, as digits: "321". */
static void rhl_ids(struct cds_rhltable *hlt, int key, char *out)
{
	struct cds_rhlist_head *list, *pos;
	struct lobj *l;
	char *start = out;

	rculist_read_lock();
	list = cds_rhltable_lookup(hlt, &key, lparams);
	cds_rhl_for_each_entry_rcu(l, pos, list, list) {
		cr_assert_eq(l->key, key);
		*out++ = (char)('0' + l->id);
	}
	*out = 0;
	/* The links alone: the same objects, in the same order. */
	cds_rhl_for_each_rcu(pos, list) {
		l = rculist__container_of(pos, struct lobj, list);
		cr_assert_eq(*start++, '0' + l->id);
	}
	cr_assert_eq(start, out);
	rculist_read_unlock();
}

/* key 7: 1, then 2 -> 1, then 3 -> 2 -> 1; key 8: 4; removals anywhere */
Test(rhashtable, rhltable_duplicate_keys, .init = reg)
{
	struct cds_rhltable hlt;
	struct lobj o[5];
	struct cds_rhashtable_iter iter;
	char ids[8];
	int i, n = 0;
	void *x;

	cr_assert_eq(cds_rhltable_init(&hlt, &lparams), 0);
	for (i = 1; i <= 4; i++) {
		o[i].key = i == 4 ? 8 : 7;
		o[i].id = i;
		cr_assert_eq(cds_rhltable_insert(&hlt, &o[i].list, lparams), 0);
	}
	rhl_ids(&hlt, 7, ids);
	cr_assert_str_eq(ids, "321");
	rhl_ids(&hlt, 8, ids);
	cr_assert_str_eq(ids, "4");
	rhl_ids(&hlt, 9, ids);
	cr_assert_str_eq(ids, "");
	cr_assert_eq(hlt.ht.nelems, 2, "nelems counts keys: %u", hlt.ht.nelems);

	/* The walker returns every object of every key. */
	cds_rhashtable_walk_enter(&hlt.ht, &iter);
	cds_rhashtable_walk_start(&iter);
	while ((x = cds_rhashtable_walk_next(&iter))) {
		cr_assert(!CDS_IS_ERR(x));
		n++;
	}
	cds_rhashtable_walk_stop(&iter);
	cds_rhashtable_walk_exit(&iter);
	cr_assert_eq(n, 4);

	cr_assert_eq(cds_rhltable_remove(&hlt, &o[2].list, lparams), 0); /* middle */
	rhl_ids(&hlt, 7, ids);
	cr_assert_str_eq(ids, "31");
	ABSENT(cds_rhltable_remove(&hlt, &o[2].list, lparams));
	cr_assert_eq(cds_rhltable_remove(&hlt, &o[3].list, lparams), 0); /* first */
	rhl_ids(&hlt, 7, ids);
	cr_assert_str_eq(ids, "1");
	cr_assert_eq(hlt.ht.nelems, 2);
	cr_assert_eq(cds_rhltable_remove(&hlt, &o[1].list, lparams), 0); /* last */
	rhl_ids(&hlt, 7, ids);
	cr_assert_str_eq(ids, "");
	cr_assert_eq(hlt.ht.nelems, 1);
	rhl_ids(&hlt, 8, ids);
	cr_assert_str_eq(ids, "4");
	cds_rhltable_destroy(&hlt);
}

/* Keys that are strings the objects point to: the caller's functions. */
struct sobj {
	const char *name;
	struct cds_rhash_head node;
};

static uint32_t str_hash(const void *data, uint32_t len, uint32_t seed)
{
	(void)len;
	return rculist__rht_hash(data, (uint32_t)strlen((const char *)data),
				 seed);
}

static uint32_t sobj_hash(const void *data, uint32_t len, uint32_t seed)
{
	return str_hash(((const struct sobj *)data)->name, len, seed);
}

static int sobj_cmp(struct cds_rhashtable_compare_arg *arg, const void *obj)
{
	return strcmp(((const struct sobj *)obj)->name, (const char *)arg->key);
}

static const struct cds_rhashtable_params sparams = {
	.head_offset = offsetof(struct sobj, node),
	.hashfn = str_hash,
	.obj_hashfn = sobj_hash,
	.obj_cmpfn = sobj_cmp,
};

Test(rhashtable, caller_hash_functions, .init = reg)
{
	struct cds_rhashtable ht;
	struct sobj a = { "alpha", { NULL } }, b = { "beta", { NULL } },
		    a2 = { "alpha", { NULL } };

	cr_assert_eq(cds_rhashtable_init(&ht, &sparams), 0);
	cr_assert_eq(cds_rhashtable_lookup_insert_key(&ht, "alpha", &a.node,
						      sparams),
		     0);
	cr_assert_eq(cds_rhashtable_lookup_insert_key(&ht, "beta", &b.node,
						      sparams),
		     0);
	cr_assert_eq(cds_rhashtable_lookup_insert_key(&ht, "alpha", &a2.node,
						      sparams),
		     -EEXIST);
	cr_assert_eq(cds_rhashtable_lookup_get_insert_key(&ht, "alpha",
							  &a2.node, sparams),
		     &a);
	cr_assert_eq(cds_rhashtable_lookup_insert_key(&ht, NULL, &a2.node,
						      sparams),
		     -EINVAL);
	/* lookup_insert_fast cannot take the key from such an object. */
	cr_assert_eq(cds_rhashtable_lookup_insert_fast(&ht, &a2.node, sparams),
		     -EINVAL);
	cr_assert_eq(cds_rhashtable_lookup_fast(&ht, "alpha", sparams), &a);
	cr_assert_eq(cds_rhashtable_lookup_fast(&ht, "beta", sparams), &b);
	cr_assert_null(cds_rhashtable_lookup_fast(&ht, "gamma", sparams));
	cr_assert_eq(cds_rhashtable_replace_fast(&ht, &a.node, &a2.node, sparams),
		     0);
	cr_assert_eq(cds_rhashtable_lookup_fast(&ht, "alpha", sparams), &a2);
	cr_assert_eq(cds_rhashtable_remove_fast(&ht, &a2.node, sparams), 0);
	cr_assert_null(cds_rhashtable_lookup_fast(&ht, "alpha", sparams));
	cds_rhashtable_destroy(&ht);
}

Test(rhashtable, err_ptr)
{
	void *e = CDS_ERR_PTR(-ENOMEM);
	int x;

	cr_assert(CDS_IS_ERR(e));
	cr_assert_eq(CDS_PTR_ERR(e), -ENOMEM);
	cr_assert(CDS_IS_ERR(CDS_ERR_PTR(-4095)));
	cr_assert(!CDS_IS_ERR(&x));
	cr_assert(!CDS_IS_ERR(NULL));
	cr_assert(CDS_IS_ERR_OR_NULL(NULL));
	cr_assert(CDS_IS_ERR_OR_NULL(e));
	cr_assert(!CDS_IS_ERR_OR_NULL(&x));
}

/*
 * fork() while the rehash thread grows a table: the child can use the
 * table (find every key, insert more and see it grow again) and destroy
 * it; so can the parent.
 */
Test(rhashtable, fork_during_rehash, .init = reg)
{
	struct cds_rhashtable ht;
	enum { N = 5000, FORKS = 20 };
	static struct tobj *o[2 * N];
	int i, f, fd[2];

	cr_assert_eq(cds_rhashtable_init(&ht, &params), 0);
	for (i = 0; i < 2 * N; i++)
		o[i] = tobj_new(i, i);
	for (f = 0; f < FORKS; f++) {
		pid_t pid;
		int st;
		char verdict = 0;

		for (i = f * (N / FORKS); i < (f + 1) * (N / FORKS); i++)
			cr_assert_eq(cds_rhashtable_insert_fast(&ht, &o[i]->node,
								params),
				     0);
		cr_assert_eq(pipe(fd), 0);
		rculist_thread_offline();
		pid = fork();
		rculist_thread_online();
		cr_assert_geq(pid, 0);
		if (pid == 0) {
			char ok = 1;

			for (i = 0; i < (f + 1) * (N / FORKS); i++)
				if (find(&ht, i) != o[i])
					ok = 0;
			for (i = N; i < 2 * N; i++)
				if (cds_rhashtable_insert_fast(&ht, &o[i]->node,
							       params))
					ok = 0;
			wait_settled(&ht, (f + 1) * (N / FORKS) + N, 1U << 20);
			for (i = N; i < 2 * N; i++)
				if (find(&ht, i) != o[i])
					ok = 0;
			cds_rhashtable_destroy(&ht);
			if (write(fd[1], &ok, 1) != 1)
				_exit(2);
			_exit(0);
		}
		close(fd[1]);
		cr_assert_eq(read(fd[0], &verdict, 1), 1,
			     "fork %d: the child said nothing", f);
		close(fd[0]);
		cr_assert_eq(waitpid(pid, &st, 0), pid);
		cr_assert_eq(verdict, 1, "fork %d: the child's table was wrong",
			     f);
	}
	for (i = 0; i < N; i++)
		cr_assert_eq(find(&ht, i), o[i]);
	cds_rhashtable_destroy(&ht);
	for (i = 0; i < 2 * N; i++)
		free(o[i]);
}

/* ------------------------------------------------- bucket iterators */

/* A table that neither grows nor shrinks below 48 objects: 64 buckets. */
static const struct cds_rhashtable_params iparams = {
	.key_len = sizeof(int),
	.key_offset = offsetof(struct tobj, key),
	.head_offset = offsetof(struct tobj, node),
};

enum { NITER = 47 };

/*
 * @ht initialised with iparams and given NITER objects, keys 0..46, as
 * @o; the caller left inside a read-side critical section, with @ht's
 * table (64 buckets, no rehash under way).
 */
static struct cds_bucket_table *
fill_iter_table(struct cds_rhashtable *ht, struct tobj **o) RCULIST_ACQUIRES_RCU
{
	struct cds_bucket_table *tbl;
	int k;

	cr_assert_eq(cds_rhashtable_init(ht, &iparams), 0);
	for (k = 0; k < NITER; k++) {
		o[k] = tobj_new(k, k);
		cr_assert_eq(cds_rhashtable_insert_fast(ht, &o[k]->node, iparams),
			     0);
	}
	rculist_read_lock();
	tbl = cds_rht_dereference_rcu(ht->tbl, ht);
	cr_assert_eq(tbl->size, 64);
	cr_assert_null(cds_rht_dereference_rcu(tbl->future_tbl, ht));
	return tbl;
}

/* A walk's next link must be @chain[*n]; counts it. */
static void expect_link(struct cds_rhash_head *const *chain, int len, int *n,
			struct cds_rhash_head *pos)
{
	cr_assert_lt(*n, len, "the walk goes past the chain's %d links", len);
	cr_assert_eq(pos, chain[*n], "link %d of the chain", *n);
	(*n)++;
}

static int bucket_locked(struct cds_rhash_lock_head *const *bkt)
{
	return (int)((uintptr_t)rculist__load_once(*bkt) & 1);
}

/*
 * Every bucket of a table of 47 objects walked by each iterator: under
 * the bucket's lock the plain ones, inside a read-side critical section
 * the _rcu ones.  Each walk gives the bucket's chain, link by link (the
 * _from ones from the first link and from the second), ends on the
 * bucket's own nulls marker, and meets only objects that hash to the
 * bucket; over all buckets each whole walk sees every object once.
 */
Test(rhashtable, bucket_iterators_see_every_object_once, .init = reg)
{
	enum { WALKS = 6 };
	static int seen[WALKS][NITER];
	struct cds_rhashtable ht;
	struct cds_bucket_table *tbl;
	struct cds_rhash_head *pos, *next;
	struct tobj *o[NITER], *t;
	unsigned int i;
	int k, w, total = 0, longest = 0;

	tbl = fill_iter_table(&ht, o);
	for (i = 0; i < tbl->size; i++) {
		struct cds_rhash_lock_head **bkt = cds_rht_bucket_var(tbl, i);
		struct cds_rhash_head *chain[NITER], *marker;
		unsigned long flags;
		int len = 0, n;

		cr_assert_eq(cds_rht_bucket(tbl, i), bkt);
		cr_assert_eq(cds_rht_bucket_insert(&ht, tbl, i), bkt);
		flags = cds_rht_lock(tbl, bkt);
		cr_assert(bucket_locked(bkt));
		cds_rht_for_each(pos, tbl, i) {
			cr_assert_lt(len, NITER);
			chain[len++] = pos;
			t = rculist__container_of(pos, struct tobj, node);
			cr_assert_eq(rculist__rht_head_hash(&ht, tbl, pos,
							    iparams),
				     i, "key %d in bucket %u", t->key, i);
			seen[0][t->key]++;
		}
		marker = pos;
		cr_assert(cds_rht_is_a_nulls(marker));
		cr_assert_eq(marker, rculist__rht_marker(bkt)); /* its own */
		n = 0;
		cds_rht_for_each_entry(t, pos, tbl, i, node) {
			expect_link(chain, len, &n, &t->node);
			seen[1][t->key]++;
		}
		cr_assert_eq(n, len);
		cr_assert_eq(pos, marker);
		n = 0;
		cds_rht_for_each_from(pos, cds_rht_ptr(bkt, tbl, i), tbl, i)
			expect_link(chain, len, &n, pos);
		cr_assert_eq(n, len);
		n = 0;
		cds_rht_for_each_entry_from(t, pos, cds_rht_ptr(bkt, tbl, i),
					    tbl, i, node)
			expect_link(chain, len, &n, &t->node);
		cr_assert_eq(n, len);
		if (len) { /* from the second link */
			n = 1;
			cds_rht_for_each_from(pos,
					      cds_rht_dereference_bucket(
						      chain[0]->next, tbl, i),
					      tbl, i)
				expect_link(chain, len, &n, pos);
			cr_assert_eq(n, len);
			n = 1;
			cds_rht_for_each_entry_from(t, pos, chain[0]->next, tbl,
						    i, node)
				expect_link(chain, len, &n, &t->node);
			cr_assert_eq(n, len);
		}
		n = 0;
		cds_rht_for_each_entry_safe(t, pos, next, tbl, i, node) {
			expect_link(chain, len, &n, &t->node);
			cr_assert_eq(next, n < len ? chain[n] : marker);
			seen[2][t->key]++;
		}
		cr_assert_eq(n, len);
		cds_rht_unlock(tbl, bkt, flags);
		cr_assert(!bucket_locked(bkt));

		/* The same chain for a reader, the lock free. */
		cr_assert_eq(cds_rht_ptr_rcu(cds_rht_bucket(tbl, i)),
			     len ? chain[0] : marker);
		n = 0;
		cds_rht_for_each_rcu(pos, tbl, i) {
			expect_link(chain, len, &n, pos);
			seen[3][rculist__container_of(pos, struct tobj, node)->key]++;
		}
		cr_assert_eq(n, len);
		cr_assert_eq(pos, marker);
		n = 0;
		cds_rht_for_each_entry_rcu(t, pos, tbl, i, node) {
			expect_link(chain, len, &n, &t->node);
			seen[4][t->key]++;
		}
		cr_assert_eq(n, len);
		n = 0;
		cds_rht_for_each_rcu_from(pos,
					  cds_rht_ptr_rcu(cds_rht_bucket(tbl, i)),
					  tbl, i)
			expect_link(chain, len, &n, pos);
		cr_assert_eq(n, len);
		n = 0;
		cds_rht_for_each_entry_rcu_from(t, pos,
						cds_rht_ptr_rcu(
							cds_rht_bucket(tbl, i)),
						tbl, i, node) {
			expect_link(chain, len, &n, &t->node);
			seen[5][t->key]++;
		}
		cr_assert_eq(n, len);
		if (len) {
			n = 1;
			cds_rht_for_each_rcu_from(pos,
						  cds_rht_dereference_bucket_rcu(
							  chain[0]->next, tbl, i),
						  tbl, i)
				expect_link(chain, len, &n, pos);
			cr_assert_eq(n, len);
			n = 1;
			cds_rht_for_each_entry_rcu_from(t, pos, chain[0]->next,
							tbl, i, node)
				expect_link(chain, len, &n, &t->node);
			cr_assert_eq(n, len);
		}
		total += len;
		if (len > longest)
			longest = len;
	}
	rculist_read_unlock();
	cr_assert_eq(total, NITER);
	cr_assert_eq(ht.nelems, NITER);
	cr_assert_geq(longest, 2,
		      "no chain of two: the _from walks tested little");
	for (w = 0; w < WALKS; w++)
		for (k = 0; k < NITER; k++)
			cr_assert_eq(seen[w][k], 1, "walk %d saw key %d %d times",
				     w, k, seen[w][k]);
	cds_rhashtable_destroy(&ht);
	for (k = 0; k < NITER; k++)
		free(o[k]);
}

/*
 * before: 47 objects, keys 0..46   after: the even keys
 * cds_rht_for_each_entry_safe() under each bucket's lock, its body
 * unlinking the odd keys and poisoning their next at once (no reader
 * runs, so nothing else could follow it): a walk that read the cursor's
 * next after the body would follow the poison.
 */
Test(rhashtable, for_each_entry_safe_unlinks_while_walking, .init = reg)
{
	struct cds_rhashtable ht;
	struct cds_bucket_table *tbl;
	struct cds_rhash_head *pos, *next;
	struct tobj *o[NITER], *t;
	unsigned int i, removed = 0;
	int k, left = 0;

	tbl = fill_iter_table(&ht, o);
	for (i = 0; i < tbl->size; i++) {
		struct cds_rhash_lock_head **bkt = cds_rht_bucket_var(tbl, i);
		struct cds_rhash_head **pprev = NULL; /* NULL: the bucket */
		unsigned long flags = cds_rht_lock(tbl, bkt);

		cds_rht_for_each_entry_safe(t, pos, next, tbl, i, node) {
			if (!(t->key & 1)) {
				pprev = &pos->next;
				continue;
			}
			if (pprev)
				rculist__publish(*pprev, next);
			else
				cds_rht_assign_locked(bkt, next);
			t->node.next =
				(struct cds_rhash_head *)RCULIST_POISON_NEXT;
			removed++;
		}
		cr_assert(bucket_locked(bkt));
		cds_rht_unlock(tbl, bkt, flags);
	}
	/* Unlinked by hand: the table's count is the caller's to keep. */
	__atomic_sub_fetch(&ht.nelems, removed, __ATOMIC_RELAXED);
	for (i = 0; i < tbl->size; i++)
		cds_rht_for_each_entry_rcu(t, pos, tbl, i, node) {
			cr_assert_eq(t->key & 1, 0, "key %d left", t->key);
			left++;
		}
	rculist_read_unlock();
	cr_assert_eq(removed, NITER / 2);
	cr_assert_eq(left, NITER - NITER / 2);
	cr_assert_eq(ht.nelems, (unsigned int)left);
	for (k = 0; k < NITER; k++)
		cr_assert_eq(find(&ht, k), k & 1 ? NULL : o[k], "key %d", k);
	/* The last of a bucket unlinked: the bucket empty, found by inserts. */
	cr_assert_eq(cds_rhashtable_insert_fast(&ht, &tobj_new(1, 1)->node,
						iparams),
		     0);
	cr_assert_eq(find(&ht, 1)->key, 1);
	cds_rhashtable_free_and_destroy(&ht, free_obj, &(unsigned long){ 0 });
	rculist_synchronize_rcu();
	for (k = 1; k < NITER; k += 2)
		free(o[k]);
}

/*
 * before: [b] -> x -> y...   after: [b] -> y...   then [b] -> x -> y... again
 * A bucket's first object unlinked by hand with cds_rht_assign_unlock()
 * (one store: unlinked and unlocked), put back with
 * cds_rht_assign_locked() (still locked until cds_rht_unlock()).
 */
Test(rhashtable, bucket_lock_and_assign, .init = reg)
{
	struct cds_rhashtable ht;
	struct cds_bucket_table *tbl;
	struct cds_rhash_lock_head **bkt;
	struct cds_rhash_head *first, *rest;
	struct tobj *o[NITER], *t = NULL;
	unsigned long flags;
	unsigned int i = 0;
	int k;

	tbl = fill_iter_table(&ht, o);
	while (cds_rht_is_a_nulls(cds_rht_ptr_rcu(cds_rht_bucket(tbl, i))))
		i++;
	bkt = cds_rht_bucket_var(tbl, i);
	flags = cds_rht_lock(tbl, bkt);
	first = cds_rht_ptr(bkt, tbl, i);
	cr_assert(cds_rht_entry(t, first, node));
	cr_assert_eq(&t->node, first);
	rest = cds_rht_dereference_bucket(first->next, tbl, i);
	cds_rht_assign_unlock(tbl, bkt, rest, flags);
	cr_assert(!bucket_locked(bkt));
	cr_assert_eq(cds_rht_ptr_rcu(bkt), rest);
	__atomic_sub_fetch(&ht.nelems, 1, __ATOMIC_RELAXED);
	rculist_read_unlock();
	for (k = 0; k < NITER; k++)
		cr_assert_eq(find(&ht, k), o[k] == t ? NULL : o[k], "key %d", k);

	rculist_read_lock();
	flags = cds_rht_lock(tbl, bkt);
	t->node.next = cds_rht_ptr(bkt, tbl, i);
	cds_rht_assign_locked(bkt, &t->node);
	cr_assert(bucket_locked(bkt));
	cds_rht_unlock(tbl, bkt, flags);
	cr_assert(!bucket_locked(bkt));
	cr_assert_eq(cds_rht_ptr_rcu(bkt), &t->node);
	__atomic_add_fetch(&ht.nelems, 1, __ATOMIC_RELAXED);
	rculist_read_unlock();
	for (k = 0; k < NITER; k++)
		cr_assert_eq(find(&ht, k), o[k], "key %d", k);
	cds_rhashtable_free_and_destroy(&ht, free_obj, &(unsigned long){ 0 });
}
