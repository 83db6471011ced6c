/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/abi/iterators.h - every iterator of <rculist.h>, once, in code
 * that is both C99 and C++11.  Included by strict.c (-std=c99 -pedantic)
 * and by lists.cc (C++11/17/20): the same loops must compile cleanly and
 * give the same walks in both languages.
 *
 * Each walk is summed up as a signature: the keys it visits, in order,
 * as decimal digits (1 -> 2 -> 3 is 123).  adopt.mk checks that every
 * iterator defined in include/rculist/ appears in this file.
 */
#ifndef RCULIST_TESTS_CXX_ITERATORS_H
#define RCULIST_TESTS_CXX_ITERATORS_H

#include <stdio.h>

#include <rculist.h>

struct node {
	int key;
	struct cds_list_head link;
	struct cds_hlist_node hnode;
	struct cds_hlist_nulls_node nnode;
	struct cds_hlist_bl_node blnode;
};

#define NNODES 5

static int iter_failures;

static void iter_expect(long got, long want, const char *what)
{
	if (got != want) {
		fprintf(stderr, "FAIL %s: got %ld, want %ld\n", what, got, want);
		iter_failures++;
	}
}

#define SIG(sig, key) ((sig) = (sig) * 10 + (key))

/*
 * One walk, the case of most iterators: the loop header after @want and
 * @key (an iterator and its arguments) runs with @key as its body; the
 * keys visited, as digits, must read @want.  A failure names the loop
 * as written.  Walks that change the list in their body are spelt out.
 */
#define WALK(want, key, ...)                             \
	do {                                             \
		long sig_ = 0;                           \
		__VA_ARGS__                              \
		SIG(sig_, key);                          \
		iter_expect(sig_, want, #__VA_ARGS__);   \
	} while (0)

static int lkey(struct cds_list_head *pos)
{
	return cds_list_entry(pos, struct node, link)->key;
}

static int hkey(struct cds_hlist_node *pos)
{
	return cds_hlist_entry(pos, struct node, hnode)->key;
}

/* Build [h] <-> 1 <-> 2 <-> 3 <-> 4 <-> 5 and [hh] -> 1 <-> ... <-> 5. */
static void iter_build(struct node *n, struct cds_list_head *h,
		       struct cds_hlist_head *hh)
{
	int i;

	CDS_INIT_LIST_HEAD(h);
	CDS_INIT_HLIST_HEAD(hh);
	for (i = 0; i < NNODES; i++) {
		n[i].key = i + 1;
		cds_list_add_tail(&n[i].link, h);
	}
	for (i = NNODES; i-- > 0;)
		cds_hlist_add_head(&n[i].hnode, hh);
}

static void iter_circular(struct node *n, struct cds_list_head *h)
	RCULIST_REQUIRES_RCU
{
	struct cds_list_head other;
	struct cds_list_head *pos, *p;
	struct node *e, *tmp, *f;
	long sig;
	int pairs;

	CDS_INIT_LIST_HEAD(&other);

	WALK(12345, lkey(pos), cds_list_for_each(pos, h));
	WALK(54321, lkey(pos), cds_list_for_each_prev(pos, h));
	pos = &n[1].link;
	WALK(345, lkey(pos), cds_list_for_each_continue(pos, h));

	/* before: [h] 1..5 [other]   after: [h]   [other] 1..5 */
	sig = 0;
	cds_list_for_each_safe(pos, p, h) {
		SIG(sig, lkey(pos));
		cds_list_move_tail(pos, &other);
	}
	iter_expect(sig, 12345, "cds_list_for_each_safe");
	iter_expect(cds_list_empty(h), 1, "for_each_safe emptied h");

	/* before: [other] 1..5   after: [h] 1..5 (moved to front, last first) */
	sig = 0;
	cds_list_for_each_prev_safe(pos, p, &other) {
		SIG(sig, lkey(pos));
		cds_list_move(pos, h);
	}
	iter_expect(sig, 54321, "cds_list_for_each_prev_safe");

	WALK(12345, e->key, cds_list_for_each_entry(e, h, link));
	iter_expect(&e->link == h, 1, "entry loop ends on the head");

	WALK(54321, e->key, cds_list_for_each_entry_reverse(e, h, link));
	e = &n[1];
	WALK(345, e->key, cds_list_for_each_entry_continue(e, h, link));
	e = &n[3];
	WALK(321, e->key, cds_list_for_each_entry_continue_reverse(e, h, link));
	e = &n[2];
	WALK(345, e->key, cds_list_for_each_entry_from(e, h, link));
	e = &n[2];
	WALK(321, e->key, cds_list_for_each_entry_from_reverse(e, h, link));

	/* before: [h] 1..5   after: [h] 1 2 4 5 (3 to other, then back) */
	sig = 0;
	cds_list_for_each_entry_safe(e, tmp, h, link) {
		SIG(sig, e->key);
		if (e->key == 3)
			cds_list_move(&e->link, &other);
	}
	iter_expect(sig, 12345, "cds_list_for_each_entry_safe");
	WALK(5421, e->key, cds_list_for_each_entry_safe_reverse(e, tmp, h, link));
	cds_list_move(&n[2].link, &n[1].link);

	e = &n[2];
	WALK(345, e->key, cds_list_for_each_entry_safe_from(e, tmp, h, link));
	e = &n[1];
	WALK(345, e->key, cds_list_for_each_entry_safe_continue(e, tmp, h, link));

	/* Nested loops of one iterator: no shadowing, head evaluated once. */
	pairs = 0;
	cds_list_for_each_entry(e, h, link) {
		cds_list_for_each_entry(f, h, link) {
			if (f->key > e->key)
				break;
			pairs++;
		}
		if (e->key == 4)
			continue;
	}
	iter_expect(pairs, 15, "nested entry loops with break");

	WALK(12345, lkey(pos), cds_list_for_each_rcu(pos, h));
	WALK(12345, e->key, cds_list_for_each_entry_rcu(e, h, link));
	WALK(54321, e->key, cds_list_for_each_entry_reverse_rcu(e, h, link));
	e = &n[1];
	WALK(345, e->key, cds_list_for_each_entry_continue_rcu(e, h, link));
	e = &n[2];
	WALK(345, e->key, cds_list_for_each_entry_from_rcu(e, h, link));
}

static void iter_linear(struct node *n, struct cds_hlist_head *hh)
	RCULIST_REQUIRES_RCU
{
	struct cds_hlist_node *pos, *p;
	struct node *e, *tmp;
	long sig;

	WALK(12345, hkey(pos), cds_hlist_for_each(pos, hh));

	/* before: [hh] 1..5   after: [hh] 1 2 4 5 (3 deleted, re-added) */
	sig = 0;
	cds_hlist_for_each_safe(pos, p, hh) {
		SIG(sig, hkey(pos));
		if (pos == &n[2].hnode)
			cds_hlist_del(pos);
	}
	iter_expect(sig, 12345, "cds_hlist_for_each_safe");
	cds_hlist_add_behind(&n[2].hnode, &n[1].hnode);

	WALK(12345, e->key, cds_hlist_for_each_entry(e, pos, hh, hnode));
	iter_expect(pos == NULL, 1, "cds_hlist_for_each_entry ends NULL");

	WALK(12345, e->key, cds_hlist_for_each_entry_safe(e, pos, p, hh, hnode));
	/* The kernel's argument lists: 3 and 4, the cursor NULL at the end. */
	WALK(12345, e->key, cds_hlist_for_each_entry(e, hh, hnode));
	iter_expect(e == NULL, 1, "cds_hlist_for_each_entry (3 arguments) ends NULL");
	WALK(12345, e->key, cds_hlist_for_each_entry_safe(e, p, hh, hnode));
	iter_expect(e == NULL, 1, "cds_hlist_for_each_entry_safe (4 arguments) ends NULL");
	WALK(12345, e->key, cds_hlist_for_each_entry_2(e, hh, hnode));
	iter_expect(e == NULL, 1, "cds_hlist_for_each_entry_2 ends NULL");

	WALK(12345, e->key, cds_hlist_for_each_entry_safe_2(e, tmp, hh, hnode));
	e = &n[1];
	WALK(345, e->key, cds_hlist_for_each_entry_continue(e, hnode));
	e = &n[2];
	WALK(345, e->key, cds_hlist_for_each_entry_from(e, hnode));
	WALK(12345, hkey(pos), cds_hlist_for_each_rcu(pos, hh));
	WALK(12345, e->key, cds_hlist_for_each_entry_rcu(e, pos, hh, hnode));
	WALK(12345, e->key, cds_hlist_for_each_entry_rcu_2(e, hh, hnode));
	e = &n[1];
	WALK(345, e->key, cds_hlist_for_each_entry_continue_rcu(e, hnode));
	e = &n[2];
	WALK(345, e->key, cds_hlist_for_each_entry_from_rcu(e, hnode));
}

/* [nh] -> 1 <-> 2 <-> 3 <-> 4 <-> 5 -> nulls(7) */
static void iter_nulls(struct node *n) RCULIST_REQUIRES_RCU
{
	struct cds_hlist_nulls_head nh;
	struct cds_hlist_nulls_node *pos;
	struct node *e;
	int i;

	CDS_INIT_HLIST_NULLS_HEAD(&nh, 7);
	for (i = NNODES; i-- > 0;)
		cds_hlist_nulls_add_head(&n[i].nnode, &nh);

	WALK(12345, e->key, cds_hlist_nulls_for_each_entry(e, pos, &nh, nnode));
	iter_expect((long)cds_get_nulls_value(pos), 7, "nulls walk ends on 7");

	WALK(12345, e->key, cds_hlist_nulls_for_each_entry_rcu(e, pos, &nh, nnode));
	iter_expect((long)cds_get_nulls_value(pos), 7, "nulls rcu walk ends on 7");
}

/* The nulls iterators of the kernel's later releases. */
static void iter_nulls_more(struct node *n)
{
	struct cds_hlist_nulls_head nh;
	struct cds_hlist_nulls_node *pos;
	struct node *e;
	long sig;
	int i;

	CDS_INIT_HLIST_NULLS_HEAD(&nh, 7);
	for (i = NNODES; i-- > 0;)
		cds_hlist_nulls_add_head(&n[i].nnode, &nh);

	sig = 0;
	cds_hlist_nulls_for_each_entry_safe(e, pos, &nh, nnode) {
		SIG(sig, e->key);
		if (e->key == 2)
			cds_hlist_nulls_del_rcu(&e->nnode);
	}
	iter_expect(sig, 12345, "cds_hlist_nulls_for_each_entry_safe");
	iter_expect((long)cds_get_nulls_value(pos), 7, "nulls safe walk ends on 7");

	pos = &n[2].nnode;
	WALK(345, e->key, cds_hlist_nulls_for_each_entry_from(e, pos, nnode));
}

/* [bh] -> 1 <-> 2 <-> 3 <-> 4 <-> 5, bit-locked; and the newer accessors. */
static void iter_bl(struct node *n, struct cds_list_head *h) RCULIST_REQUIRES_RCU
{
	struct cds_hlist_bl_head bh;
	struct cds_hlist_bl_node *pos, *tmp;
	struct node *e, *f;
	long sig;
	int i;

	CDS_INIT_HLIST_BL_HEAD(&bh);
	cds_hlist_bl_lock(&bh);
	for (i = NNODES; i-- > 0;)
		cds_hlist_bl_add_head(&n[i].blnode, &bh);

	WALK(12345, e->key, cds_hlist_bl_for_each_entry(e, pos, &bh, blnode));
	WALK(12345, e->key, cds_hlist_bl_for_each_entry_rcu(e, pos, &bh, blnode));

	sig = 0;
	cds_hlist_bl_for_each_entry_safe(e, pos, tmp, &bh, blnode) {
		SIG(sig, e->key);
		if (e->key % 2)
			cds_hlist_bl_del(pos);
	}
	iter_expect(sig, 12345, "cds_hlist_bl_for_each_entry_safe");
	iter_expect(cds_hlist_bl_is_locked(&bh), 1, "bl lock bit kept");
	cds_hlist_bl_unlock(&bh);
	WALK(24, e->key, cds_hlist_bl_for_each_entry(e, pos, &bh, blnode));

	/* h is [h] <-> 1 <-> 2 <-> 3 <-> 4 <-> 5 */
	e = cds_list_last_entry_or_null(h, struct node, link);
	iter_expect(e ? e->key : -1, 5, "cds_list_last_entry_or_null");
	e = cds_list_next_entry_circular(e, h, link);
	iter_expect(e->key, 1, "cds_list_next_entry_circular");
	e = cds_list_prev_entry_circular(e, h, link);
	iter_expect(e->key, 5, "cds_list_prev_entry_circular");
	f = NULL;
	f = cds_list_prepare_entry(f, h, link);
	iter_expect(cds_list_entry_is_head(f, h, link), 1, "cds_list_prepare_entry");
}

/* cds_list_sort(): descending keys sorted back to ascending. */
static int iter_cmp(void *priv, const struct cds_list_head *a,
		    const struct cds_list_head *b)
{
	(void)priv;
	return cds_list_entry(a, struct node, link)->key -
	       cds_list_entry(b, struct node, link)->key;
}

static void iter_sort(struct node *n)
{
	struct cds_list_head h;
	struct node *e;
	int i;

	CDS_INIT_LIST_HEAD(&h);
	for (i = 0; i < NNODES; i++)
		cds_list_add(&n[i].link, &h);
	cds_list_sort(NULL, &h, iter_cmp);
	WALK(12345, e->key, cds_list_for_each_entry(e, &h, link));
}

/*
 * The _rcu iterators given their optional last argument, a condition
 * that says the caller holds the update lock (here: no other thread
 * updates), outside any read-side section: the same walks.
 */
static int iter_update_lock_held = 1;

static void iter_with_cond(struct node *n, struct cds_list_head *h,
			   struct cds_hlist_head *hh)
{
	struct cds_list_head *pos;
	struct cds_hlist_node *hpos;
	struct cds_hlist_nulls_head nh;
	struct cds_hlist_nulls_node *npos;
	struct cds_hlist_bl_head bh;
	struct cds_hlist_bl_node *bpos;
	struct node *e;
	const int held = iter_update_lock_held;
	int i;

	WALK(12345, lkey(pos), cds_list_for_each_rcu(pos, h, held));
	WALK(12345, e->key, cds_list_for_each_entry_rcu(e, h, link, held));
	WALK(54321, e->key, cds_list_for_each_entry_reverse_rcu(e, h, link, held));
	e = &n[1];
	WALK(345, e->key, cds_list_for_each_entry_continue_rcu(e, h, link, held));
	e = &n[2];
	WALK(345, e->key, cds_list_for_each_entry_from_rcu(e, h, link, held));
	WALK(12345, hkey(hpos), cds_hlist_for_each_rcu(hpos, hh, held));
	WALK(12345, e->key, cds_hlist_for_each_entry_rcu(e, hpos, hh, hnode, held));
	WALK(12345, e->key, cds_hlist_for_each_entry_rcu_2(e, hh, hnode, held));
	e = &n[1];
	WALK(345, e->key, cds_hlist_for_each_entry_continue_rcu(e, hnode, held));
	e = &n[2];
	WALK(345, e->key, cds_hlist_for_each_entry_from_rcu(e, hnode, held));

	CDS_INIT_HLIST_NULLS_HEAD(&nh, 7);
	for (i = NNODES; i-- > 0;)
		cds_hlist_nulls_add_head(&n[i].nnode, &nh);
	WALK(12345, e->key, cds_hlist_nulls_for_each_entry_rcu(e, npos, &nh, nnode, held));

	/* A bit-locked list walked by its lock holder: the condition is the lock. */
	CDS_INIT_HLIST_BL_HEAD(&bh);
	cds_hlist_bl_lock(&bh);
	for (i = NNODES; i-- > 0;)
		cds_hlist_bl_add_head(&n[i].blnode, &bh);
	WALK(12345, e->key,
	     cds_hlist_bl_for_each_entry_rcu(e, bpos, &bh, blnode,
					     cds_hlist_bl_is_locked(&bh)));
	cds_hlist_bl_unlock(&bh);
}

/*
 * A table of 4 buckets, keys 1..5 added in order: cds_hash_32(k, 2) puts
 * 3 in bucket 0, 1 in 1, 4 in 2, and 2 then 5 in 3 (newest first: 5, 2).
 */
static void iter_hash(struct node *n) RCULIST_REQUIRES_RCU
{
	CDS_DEFINE_HASHTABLE(ht, 2);
	struct cds_hlist_node *tmp;
	struct node *e;
	long sig;
	int i, bkt;

	for (i = 0; i < NNODES; i++)
		cds_hash_add(ht, &n[i].hnode, n[i].key);

	WALK(31452, e->key, cds_hash_for_each(ht, bkt, e, hnode));
	iter_expect(e == NULL && bkt == 4, 1, "cds_hash_for_each ends NULL, bkt 4");

	WALK(31452, e->key, cds_hash_for_each_rcu(ht, bkt, e, hnode));
	WALK(52, e->key, cds_hash_for_each_possible(ht, e, hnode, 2));

	WALK(52, e->key, cds_hash_for_each_possible_rcu(ht, e, hnode, 5));
	WALK(52, e->key, cds_hash_for_each_possible_rcu(ht, e, hnode, 5, 1 /* cond */));
	WALK(52, e->key, cds_hash_for_each_possible_rcu_notrace(ht, e, hnode, 2));

	/* before: [3] -> 5 <-> 2   after: [3] empty */
	sig = 0;
	cds_hash_for_each_possible_safe(ht, e, tmp, hnode, 5) {
		SIG(sig, e->key);
		cds_hash_del(&e->hnode);
	}
	iter_expect(sig, 52, "cds_hash_for_each_possible_safe");

	sig = 0;
	cds_hash_for_each_safe(ht, bkt, tmp, e, hnode) {
		SIG(sig, e->key);
		cds_hash_del_rcu(&e->hnode);
	}
	iter_expect(sig, 314, "cds_hash_for_each_safe");
	iter_expect(cds_hash_empty(ht), 1, "cds_hash_for_each_safe emptied the table");
}

/* The rhltable's iterators walk one key's list, built by hand here. */
struct rhl_node {
	int key;
	struct cds_rhlist_head list;
};

static void iter_rhl(void) RCULIST_REQUIRES_RCU
{
	struct rhl_node r[NNODES];
	struct cds_rhlist_head *pos;
	struct rhl_node *e;
	long sig;
	int i;

	for (i = 0; i < NNODES; i++) {
		r[i].key = i + 1;
		r[i].list.next = i + 1 < NNODES ? &r[i + 1].list : NULL;
	}
	sig = 0;
	cds_rhl_for_each_rcu(pos, &r[0].list)
		SIG(sig, rculist__container_of(pos, struct rhl_node, list)->key);
	iter_expect(sig, 12345, "cds_rhl_for_each_rcu");
	sig = 0;
	cds_rhl_for_each_entry_rcu(e, pos, &r[0].list, list)
		SIG(sig, e->key);
	iter_expect(sig, 12345, "cds_rhl_for_each_entry_rcu");
}

/* The bucket iterators of <rculist/rhashtable.h>, over a real table. */
struct rht_node {
	int key;
	struct cds_rhash_head node;
};

#define RHT_KEY(pos) (1L << rculist__container_of(pos, struct rht_node, node)->key)

static void iter_rht(void)
{
	static const char *const what[9] = {
		"cds_rht_for_each", "cds_rht_for_each_from",
		"cds_rht_for_each_entry", "cds_rht_for_each_entry_from",
		"cds_rht_for_each_entry_safe", "cds_rht_for_each_rcu",
		"cds_rht_for_each_rcu_from", "cds_rht_for_each_entry_rcu",
		"cds_rht_for_each_entry_rcu_from",
	};
	struct cds_rhashtable_params p;
	struct cds_rhashtable ht;
	struct cds_bucket_table *tbl;
	struct rht_node r[NNODES], *e;
	struct cds_rhash_head *pos, *next;
	long bits[9] = { 0 };
	unsigned int i;
	int k;

	memset(&p, 0, sizeof(p));
	p.key_len = sizeof(int);
	p.key_offset = offsetof(struct rht_node, key);
	p.head_offset = offsetof(struct rht_node, node);
	if (cds_rhashtable_init(&ht, &p) != 0) {
		iter_expect(1, 0, "cds_rhashtable_init");
		return;
	}
	for (k = 0; k < NNODES; k++) {
		r[k].key = k + 1;
		iter_expect(cds_rhashtable_insert_fast(&ht, &r[k].node, p), 0,
			    "cds_rhashtable_insert_fast");
	}
	rculist_read_lock();
	tbl = cds_rht_dereference_rcu(ht.tbl, &ht);
	for (i = 0; i < tbl->size; i++) {
		struct cds_rhash_lock_head **bkt = cds_rht_bucket_var(tbl, i);
		unsigned long flags = cds_rht_lock(tbl, bkt);

		cds_rht_for_each(pos, tbl, i)
			bits[0] |= RHT_KEY(pos);
		cds_rht_for_each_from(pos, cds_rht_ptr(bkt, tbl, i), tbl, i)
			bits[1] |= RHT_KEY(pos);
		cds_rht_for_each_entry(e, pos, tbl, i, node)
			bits[2] |= 1L << e->key;
		cds_rht_for_each_entry_from(e, pos, cds_rht_ptr(bkt, tbl, i), tbl, i, node)
			bits[3] |= 1L << e->key;
		cds_rht_for_each_entry_safe(e, pos, next, tbl, i, node)
			bits[4] |= 1L << e->key;
		cds_rht_unlock(tbl, bkt, flags);
		cds_rht_for_each_rcu(pos, tbl, i)
			bits[5] |= RHT_KEY(pos);
		cds_rht_for_each_rcu_from(pos, cds_rht_ptr_rcu(cds_rht_bucket(tbl, i)), tbl, i)
			bits[6] |= RHT_KEY(pos);
		cds_rht_for_each_entry_rcu(e, pos, tbl, i, node)
			bits[7] |= 1L << e->key;
		cds_rht_for_each_entry_rcu_from(e, pos, cds_rht_ptr_rcu(cds_rht_bucket(tbl, i)), tbl, i, node)
			bits[8] |= 1L << e->key;
	}
	rculist_read_unlock();
	for (k = 0; k < 9; k++)
		iter_expect(bits[k], 62, what[k]); /* keys 1..5 */
	cds_rhashtable_destroy(&ht);
}

/*
 * Walk every iterator over fresh lists, the _rcu ones inside a read-side
 * critical section of the calling (registered) thread, and again given
 * a condition outside it.  Returns the number of walks that went wrong.
 */
static int iter_check_all(void)
{
	struct node n[NNODES];
	struct cds_list_head h;
	struct cds_hlist_head hh;

	iter_failures = 0;
	iter_build(n, &h, &hh);
	rculist_read_lock();
	iter_circular(n, &h);
	iter_linear(n, &hh);
	iter_nulls(n);
	iter_nulls_more(n);
	iter_bl(n, &h);
	iter_hash(n);
	iter_rhl();
	rculist_read_unlock();
	iter_sort(n);
	iter_rht();
	iter_build(n, &h, &hh);
	iter_with_cond(n, &h, &hh);
	return iter_failures;
}

#endif /* RCULIST_TESTS_CXX_ITERATORS_H */
