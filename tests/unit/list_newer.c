// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/list_newer.c - the list names the kernel added since v5.6
 * (and a few older ones rculist lacked), and what the replace operations
 * do to an empty head: every result checked whole, both directions.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"

TestSuite(list_newer, .timeout = 10);

static struct item it[6];

/* [h] <-> it[0] <-> ... <-> it[n-1], keys 1..n. */
static void fill(struct cds_list_head *h, size_t n)
{
	size_t i;

	memset(it, 0xa5, sizeof(it));
	CDS_INIT_LIST_HEAD(h);
	for (i = 0; i < n; i++) {
		it[i].key = (int)i + 1;
		cds_list_add_tail(&it[i].link, h);
	}
}

/* ------------------------------------------- replace on an empty head */

/* old: an empty head; newp: poisoned, for the replace to overwrite. */
static void empty_head_and_poison(struct cds_list_head *old,
				  struct cds_list_head *newp)
{
	CDS_INIT_LIST_HEAD(old);
	memset(newp, 0xa5, sizeof(*newp));
}

/*
 * before: [old] (empty)    after: [newp] (empty)
 * The kernel's result; liburcu's macro would leave old <-> newp.
 */
Test(list_newer, replace_empty_head_leaves_new_empty)
{
	struct cds_list_head old, newp;

	empty_head_and_poison(&old, &newp);
	cds_list_replace(&old, &newp);
	CHECK_EMPTY(&newp);
}

/* before: [old] (empty)    after: [old] (empty), [newp] (empty) */
Test(list_newer, replace_init_empty_head_leaves_both_empty)
{
	struct cds_list_head old, newp;

	empty_head_and_poison(&old, &newp);
	cds_list_replace_init(&old, &newp);
	CHECK_EMPTY(&newp);
	CHECK_EMPTY(&old);
}

/*
 * The kernel's semantics, no special case: an empty head is not an
 * element.  before: [old] (empty)    after: old <-> newp, a circle of two
 */
Test(list_newer, replace_rcu_empty_head_links_old_and_new)
{
	struct cds_list_head old, newp;

	empty_head_and_poison(&old, &newp);
	cds_list_replace_rcu(&old, &newp);
	cr_assert_eq(old.next, &newp);
	cr_assert_eq(old.prev, &newp);
	cr_assert_eq(newp.next, &old);
	cr_assert_eq(newp.prev, &old);
}

/* A non-empty head replaced: the new head holds the elements. */
Test(list_newer, replace_head_moves_elements)
{
	struct cds_list_head h, newp;

	fill(&h, 2);
	cds_list_replace_init(&h, &newp);
	CHECK_LIST(&newp, 1, 2);
	CHECK_EMPTY(&h);
}

/* ------------------------------------------------------ entry access */

Test(list_newer, last_entry_or_null)
{
	struct cds_list_head h;
	int calls = 0;

	fill(&h, 0);
	cr_assert_null(cds_list_last_entry_or_null(&h, struct item, link));
	fill(&h, 3);
	{
		struct item *last = cds_list_last_entry_or_null((calls++, &h),
								struct item,
								link);

		cr_assert_eq(last, &it[2]);
	}
	cr_assert_eq(calls, 1, "head evaluated %d times", calls);
	CHECK_LIST(&h, 1, 2, 3);
}

/* [h] <-> 1 <-> 2 <-> 3: after 3 comes 1, before 1 comes 3, never the head. */
Test(list_newer, next_prev_entry_circular)
{
	struct cds_list_head h;
	struct item *pos = &it[0], *e;
	int n_pos = 0, n_head = 0, i;

	fill(&h, 3);
	e = &it[0];
	for (i = 0; i < 6; i++) {
		cr_assert_eq(e->key, i % 3 + 1);
		e = cds_list_next_entry_circular(e, &h, link);
	}
	e = &it[0];
	for (i = 0; i < 6; i++) {
		cr_assert_eq(e->key, (3 - i % 3) % 3 + 1);
		e = cds_list_prev_entry_circular(e, &h, link);
	}
	e = cds_list_next_entry_circular((n_pos++, pos), (n_head++, &h), link);
	cr_assert_eq(e, &it[1]);
	cr_assert_eq(n_pos + n_head, 2, "arguments evaluated more than once");
	CHECK_LIST(&h, 1, 2, 3);

	/* a list of one: the element itself, both ways */
	fill(&h, 1);
	cr_assert_eq(cds_list_next_entry_circular(&it[0], &h, link), &it[0]);
	cr_assert_eq(cds_list_prev_entry_circular(&it[0], &h, link), &it[0]);
}

/* prepare_entry(NULL) + _continue walks the whole list; a cursor stays. */
Test(list_newer, prepare_entry_and_safe_reset_next)
{
	/* The head inside an item: the head computed as an element is one. */
	static struct item hold;
	struct cds_list_head *const hp = &hold.link;
	struct item *pos = NULL, *n;
	int seen = 0;

	fill(hp, 3);
	pos = cds_list_prepare_entry(pos, hp, link);
	cr_assert_eq(pos, &hold);
	cr_assert(cds_list_entry_is_head(pos, hp, link));
	cds_list_for_each_entry_continue(pos, hp, link) {
		seen++;
		cr_assert_eq(pos->key, seen);
	}
	cr_assert_eq(seen, 3);
	pos = &it[1];
	cr_assert_eq(cds_list_prepare_entry(pos, hp, link), &it[1]);

	/* the body removes the element @n holds: reset_next repairs @n */
	seen = 0;
	cds_list_for_each_entry_safe(pos, n, hp, link) {
		seen++;
		if (pos->key == 1) {
			cds_list_del(&it[1].link);
			cds_list_safe_reset_next(pos, n, link);
			cr_assert_eq(n, &it[2]);
		}
	}
	cr_assert_eq(seen, 2);
	CHECK_LIST(hp, 1, 3);
}

/* before: [h] <-> 1 <-> 2    after: [h] <-> 2    [1] empty (careful) */
Test(list_newer, del_init_careful)
{
	struct cds_list_head h;

	fill(&h, 2);
	cds_list_del_init_careful(&it[0].link);
	CHECK_LIST(&h, 2);
	cr_assert(cds_list_empty_careful(&it[0].link));
	cr_assert_eq(it[0].link.next, &it[0].link);
	cr_assert_eq(it[0].link.prev, &it[0].link);
	cr_assert_not(cds_list_empty_careful(&h));
}

/* ----------------------------------------------------------- _rcu ops */

/* before: [l] <-> 4 <-> 5   [h] <-> 1 <-> 2   after: [h] <-> 4 <-> 5 <-> 1 <-> 2 */
Test(list_newer, splice_rcu)
{
	struct cds_list_head h, l;
	size_t i;

	fill(&h, 2);
	CDS_INIT_LIST_HEAD(&l);
	for (i = 3; i < 5; i++) {
		it[i].key = (int)i + 1;
		cds_list_add_tail(&it[i].link, &l);
	}
	cds_list_splice_rcu(&l, &h);
	CHECK_LIST(&h, 4, 5, 1, 2);

	/* an empty private list: nothing changes, no grace period */
	CDS_INIT_LIST_HEAD(&l);
	cds_list_splice_rcu(&l, &h);
	CHECK_LIST(&h, 4, 5, 1, 2);
	CHECK_EMPTY(&l);

	/* into an empty list */
	CDS_INIT_LIST_HEAD(&l);
	cds_list_del(&it[0].link);
	cds_list_add(&it[0].link, &l);
	cds_list_del(&it[1].link);
	cds_list_add_tail(&it[1].link, &l);
	{
		struct cds_list_head e;

		CDS_INIT_LIST_HEAD(&e);
		cds_list_splice_rcu(&l, &e);
		CHECK_LIST(&e, 1, 2);
	}
}

/* before: [h] <-> 1 <-> 2 <-> 3   after: [h] <-> 1 <-> 3, 2 still <-> both */
Test(list_newer, bidir_del_rcu_keeps_both_links)
{
	struct cds_list_head h;

	fill(&h, 3);
	cds_list_bidir_del_rcu(&it[1].link);
	CHECK_LIST(&h, 1, 3);
	cr_assert_eq(it[1].link.next, &it[2].link);
	cr_assert_eq(it[1].link.prev, &it[0].link);
}

/* The lvalue accessors name the fields themselves. */
Test(list_newer, rcu_lvalue_accessors)
{
	struct cds_list_head h;

	fill(&h, 2);
	cr_assert_eq(&cds_list_tail_rcu(&h), &h.prev);
	cr_assert_eq(&cds_list_next_rcu(&it[0].link), &it[0].link.next);
	cr_assert_eq(&cds_list_bidir_prev_rcu(&it[1].link), &it[1].link.prev);
	rculist_register_thread();
	rculist_read_lock();
	cr_assert_eq(rculist__deref(cds_list_tail_rcu(&h)), &it[1].link);
	rculist_read_unlock();
	rculist_unregister_thread();
}

/* -------------------------------------------------------------- hlist */

static void hfill(struct cds_hlist_head *h, size_t from, size_t n)
{
	size_t i;

	CDS_INIT_HLIST_HEAD(h);
	for (i = from + n; i-- > from;) {
		it[i].key = (int)i + 1;
		cds_hlist_add_head(&it[i].hnode, h);
	}
}

Test(list_newer, hlist_count_nodes)
{
	struct cds_hlist_head h;

	memset(it, 0xa5, sizeof(it));
	hfill(&h, 0, 0);
	cr_assert_eq(cds_hlist_count_nodes(&h), 0);
	hfill(&h, 0, 4);
	cr_assert_eq(cds_hlist_count_nodes(&h), 4);
	CHECK_HLIST(&h, 1, 2, 3, 4);
}

/* before: [f] -> 1 <-> 2   [t] -> 3   after: [f]   [t] -> 1 <-> 2 <-> 3 */
Test(list_newer, hlist_splice_init)
{
	struct cds_hlist_head f, t;

	memset(it, 0xa5, sizeof(it));
	hfill(&f, 0, 2);
	hfill(&t, 2, 1);
	cds_hlist_splice_init(&f, &it[1].hnode, &t);
	CHECK_HLIST(&t, 1, 2, 3);
	cr_assert(cds_hlist_empty(&f));
	/* into an empty head */
	hfill(&f, 3, 2);
	CDS_INIT_HLIST_HEAD(&t);
	cds_hlist_splice_init(&f, &it[4].hnode, &t);
	CHECK_HLIST(&t, 4, 5);
	cr_assert(cds_hlist_empty(&f));
}

/* before: [l] -> 1   [r] -> 2 <-> 3   after: [l] -> 2 <-> 3   [r] -> 1 */
Test(list_newer, hlists_swap_heads_rcu)
{
	struct cds_hlist_head l, r;

	memset(it, 0xa5, sizeof(it));
	hfill(&l, 0, 1);
	hfill(&r, 1, 2);
	cds_hlists_swap_heads_rcu(&l, &r);
	CHECK_HLIST(&l, 2, 3);
	CHECK_HLIST(&r, 1);
	CDS_INIT_HLIST_HEAD(&r);
	cds_hlists_swap_heads_rcu(&l, &r);
	cr_assert(cds_hlist_empty(&l));
	CHECK_HLIST(&r, 2, 3);
}

Test(list_newer, hlist_rcu_lvalue_accessors)
{
	struct cds_hlist_head h;

	memset(it, 0xa5, sizeof(it));
	hfill(&h, 0, 2);
	cr_assert_eq(&cds_hlist_first_rcu(&h), &h.next);
	cr_assert_eq(&cds_hlist_next_rcu(&it[0].hnode), &it[0].hnode.next);
	cr_assert_eq(&cds_hlist_pprev_rcu(&it[0].hnode), &h.next);
	cr_assert_eq(&cds_hlist_pprev_rcu(&it[1].hnode), &it[0].hnode.next);
}

/* -------------------------------------------------------------- nulls */

struct nitem {
	int key;
	struct cds_hlist_nulls_node node;
};

static struct nitem nit[4];

static void check_nulls(const struct cds_hlist_nulls_head *h,
			unsigned long marker, const int *keys, size_t n,
			const char *where)
{
	const struct cds_hlist_nulls_node *prev = (const void *)h, *pos = h->next;
	size_t i;

	for (i = 0; i < n; i++) {
		cr_assert_not(cds_is_a_nulls(pos), "%s: ends after %zu", where,
			      i);
		cr_assert_eq(pos->prev, prev, "%s: [%zu]->prev", where, i);
		cr_assert_eq(cds_hlist_nulls_entry(pos, struct nitem, node)->key,
			     keys[i], "%s: [%zu]", where, i);
		prev = pos;
		pos = pos->next;
	}
	cr_assert(cds_is_a_nulls(pos), "%s: longer than %zu", where, n);
	cr_assert_eq(cds_get_nulls_value(pos), marker, "%s: marker", where);
}

#define CHECK_NULLS(h, m, ...) check_nulls(h, m, KEYS(__VA_ARGS__), #h)

static void nfill(struct cds_hlist_nulls_head *h, size_t n)
{
	size_t i;

	memset(nit, 0xa5, sizeof(nit));
	CDS_INIT_HLIST_NULLS_HEAD(h, 5);
	for (i = n; i-- > 0;) {
		nit[i].key = (int)i + 1;
		cds_hlist_nulls_add_head(&nit[i].node, h);
	}
}

/* before: [h] -> 1 <-> 2 -> |5|   after replace(1, 4): [h] -> 4 <-> 2 -> |5| */
Test(list_newer, nulls_replace_rcu_and_init)
{
	struct cds_hlist_nulls_head h;

	nfill(&h, 2);
	nit[3].key = 4;
	cds_hlist_nulls_replace_rcu(&nit[0].node, &nit[3].node);
	CHECK_NULLS(&h, 5, 4, 2);
	cr_assert_eq(nit[0].node.next, &nit[1].node, "old keeps its next");
	/* the last node, replaced: the marker follows */
	nit[2].key = 3;
	cds_hlist_nulls_replace_init_rcu(&nit[1].node, &nit[2].node);
	CHECK_NULLS(&h, 5, 4, 3);
	cr_assert(cds_hlist_nulls_unhashed(&nit[1].node));
	cr_assert(cds_hlist_nulls_unhashed_lockless(&nit[1].node));
	cr_assert(cds_is_a_nulls(nit[1].node.next),
		  "old keeps its next (the marker)");
	cr_assert_not(cds_hlist_nulls_unhashed_lockless(&nit[2].node));
}

Test(list_newer, nulls_accessors_init_fake_entry_safe)
{
	static struct cds_hlist_nulls_head s = CDS_HLIST_NULLS_HEAD_INIT(9);
	struct cds_hlist_nulls_head h;

	cr_assert(cds_hlist_nulls_empty(&s));
	cr_assert_eq(cds_get_nulls_value(s.next), 9);
	nfill(&h, 2);
	cr_assert_eq(&cds_hlist_nulls_first_rcu(&h), &h.next);
	cr_assert_eq(&cds_hlist_nulls_next_rcu(&nit[0].node), &nit[0].node.next);
	cr_assert_eq(&cds_hlist_nulls_pprev_rcu(&nit[0].node), &h.next);
	cr_assert_eq(&cds_hlist_nulls_pprev_rcu(&nit[1].node), &nit[0].node.next);
	cr_assert_eq(cds_hlist_nulls_entry_safe(h.next, struct nitem, node),
		     &nit[0]);
	cr_assert_null(cds_hlist_nulls_entry_safe(nit[1].node.next,
						  struct nitem, node));

	cds_hlist_nulls_add_fake(&nit[3].node);
	cr_assert_not(cds_hlist_nulls_unhashed(&nit[3].node));
	cr_assert(cds_is_a_nulls(nit[3].node.next));
	cds_hlist_nulls_del(&nit[3].node); /* a list of its own: legal */
	cr_assert(cds_is_a_nulls(nit[3].node.next));
	CHECK_NULLS(&h, 5, 1, 2);
}

/* _safe: the body deletes the element; _from: a walk from a node on. */
Test(list_newer, nulls_for_each_entry_safe_and_from)
{
	struct cds_hlist_nulls_head h;
	struct cds_hlist_nulls_node *pos;
	struct nitem *e;
	int seen = 0;

	nfill(&h, 3);
	rculist_register_thread();
	rculist_read_lock();
	cds_hlist_nulls_for_each_entry_safe(e, pos, &h, node) {
		seen++;
		cr_assert_eq(e->key, seen);
		if (e->key == 2)
			cds_hlist_nulls_del_rcu(&e->node);
	}
	rculist_read_unlock();
	rculist_unregister_thread();
	cr_assert_eq(seen, 3);
	cr_assert_eq(cds_get_nulls_value(pos), 5);
	CHECK_NULLS(&h, 5, 1, 3);

	seen = 0;
	pos = &nit[2].node;
	cds_hlist_nulls_for_each_entry_from(e, pos, node) {
		cr_assert_eq(e->key, 3 + seen);
		seen++;
	}
	cr_assert_eq(seen, 1);
	cr_assert(cds_is_a_nulls(pos));
}
