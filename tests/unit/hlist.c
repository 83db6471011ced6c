// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/hlist.c - linear lists: every operation and every iterator,
 * single-threaded (the _rcu iterators inside a read-side section).
 *
 * Lists are built by linking nodes by hand (fill()), so that no test of
 * an operation depends on another operation being right; after each
 * operation CHECK_HLIST() checks every key and every prev.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

TestSuite(hlist, .timeout = 10);

/* [h] -> it[0] <-> ... <-> it[n-1], keys 1..n, linked by hand. */
static void fill(struct cds_hlist_head *h, struct item *it, size_t n)
{
	struct cds_hlist_node *prev = (struct cds_hlist_node *)(void *)h;
	size_t i;

	memset(it, 0, n * sizeof(*it));
	h->next = n ? &it[0].hnode : NULL;
	for (i = 0; i < n; i++) {
		it[i].key = (int)i + 1;
		it[i].hnode.prev = prev;
		it[i].hnode.next = i + 1 < n ? &it[i + 1].hnode : NULL;
		prev = &it[i].hnode;
	}
}

/* A node with every field set to garbage, as if never initialised. */
static void scribble(struct item *it, int key)
{
	memset(it, 0xa5, sizeof(*it));
	it->key = key;
}

static void check_hempty(const struct cds_hlist_head *h, const char *where)
{
	cr_assert_null(h->next, "%s: head->next is not NULL", where);
	cr_assert(cds_hlist_empty(h), "%s: cds_hlist_empty() is false", where);
}

#define CHECK_HEMPTY(h) check_hempty(h, #h)

/* Assert that the @n keys seen by an iterator are exactly @keys. */
static void check_seen(const int *seen, size_t n, const int *keys, size_t nkeys,
		       const char *where)
{
	size_t i;

	cr_assert_eq(n, nkeys, "%s: visited %zu elements, expected %zu", where,
		     n, nkeys);
	for (i = 0; i < n; i++)
		cr_assert_eq(seen[i], keys[i],
			     "%s: visit [%zu] is %d, expected %d", where, i,
			     seen[i], keys[i]);
}

#define CHECK_SEEN(seen, n, ...)                                             \
	do {                                                                 \
		static const int keys_[] = { __VA_ARGS__ };                  \
		check_seen(seen, n, keys_, sizeof(keys_) / sizeof(keys_[0]), \
			   #seen);                                           \
	} while (0)

/* ------------------------------------------------------- heads, nodes */

Test(hlist, init_hlist_head_is_a_function)
{
	struct cds_hlist_head h = { .next = (struct cds_hlist_node *)&h };
	void (*init)(struct cds_hlist_head *) = CDS_INIT_HLIST_HEAD;

	/* before: h.next = garbage   after: [h] (empty) */
	init(&h);
	CHECK_HEMPTY(&h);
}

static CDS_HLIST_HEAD(static_head);

Test(hlist, hlist_head_declares_an_empty_head)
{
	CDS_HLIST_HEAD(local);

	CHECK_HEMPTY(&local);
	CHECK_HEMPTY(&static_head);
}

Test(hlist, hlist_head_init_initialises_empty)
{
	struct cds_hlist_head h = CDS_HLIST_HEAD_INIT(h);
	struct item a;

	CHECK_HEMPTY(&h);
	/* The initialised head is usable: [h] -> a. */
	scribble(&a, 1);
	cds_hlist_add_head(&a.hnode, &h);
	CHECK_HLIST(&h, 1);
}

Test(hlist, init_hlist_node_makes_it_unhashed)
{
	struct item a;

	scribble(&a, 1);
	CDS_INIT_HLIST_NODE(&a.hnode);
	cr_assert_null(a.hnode.next);
	cr_assert_null(a.hnode.prev);
	cr_assert(cds_hlist_unhashed(&a.hnode));
}

Test(hlist, unhashed_follows_membership)
{
	CDS_HLIST_HEAD(h);
	struct item a;
	const struct cds_hlist_node *cn = &a.hnode;

	scribble(&a, 1);
	CDS_INIT_HLIST_NODE(&a.hnode);
	cr_assert(cds_hlist_unhashed(cn));
	/* [h] -> a: hashed */
	cds_hlist_add_head(&a.hnode, &h);
	CHECK_HLIST(&h, 1);
	cr_assert_not(cds_hlist_unhashed(cn));
	/* [h]: a unhashed again */
	cds_hlist_del_init(&a.hnode);
	CHECK_HEMPTY(&h);
	cr_assert(cds_hlist_unhashed(cn));
}

Test(hlist, empty_follows_contents)
{
	struct cds_hlist_head h;
	const struct cds_hlist_head *ch = &h;
	struct item it[2];

	CDS_INIT_HLIST_HEAD(&h);
	cr_assert(cds_hlist_empty(ch));
	fill(&h, it, 2);
	cr_assert_not(cds_hlist_empty(ch));
	/* before: [h] -> 1 -> 2   after: [h] -> 2   then [h] */
	cds_hlist_del(&it[0].hnode);
	CHECK_HLIST(&h, 2);
	cr_assert_not(cds_hlist_empty(ch));
	cds_hlist_del(&it[1].hnode);
	CHECK_HEMPTY(&h);
}

Test(hlist, unhashed_lockless_agrees_with_unhashed)
{
	CDS_HLIST_HEAD(h);
	struct item a, b, c;
	const struct cds_hlist_node *ca = &a.hnode, *cb = &b.hnode;

	scribble(&a, 1);
	scribble(&b, 2);
	scribble(&c, 3);
	CDS_INIT_HLIST_NODE(&a.hnode);
	CDS_INIT_HLIST_NODE(&b.hnode);
	cr_assert(cds_hlist_unhashed_lockless(ca));
	cr_assert(cds_hlist_unhashed_lockless(cb));
	/* before: [h]   after: [h] -> 1, 2 unhashed */
	cds_hlist_add_head(&a.hnode, &h);
	CHECK_HLIST(&h, 1);
	cr_assert_not(cds_hlist_unhashed_lockless(ca));
	cr_assert(cds_hlist_unhashed_lockless(cb));
	/* before: [h] -> 1   after: [h] -> 1 -> 2 -> 3 */
	cds_hlist_add_behind_rcu(&b.hnode, &a.hnode);
	cds_hlist_add_behind(&c.hnode, &b.hnode);
	CHECK_HLIST(&h, 1, 2, 3);
	cr_assert_not(cds_hlist_unhashed_lockless(ca));
	cr_assert_not(cds_hlist_unhashed_lockless(cb));
	cr_assert_not(cds_hlist_unhashed_lockless(&c.hnode));
	/* before: [h] -> 1 -> 2 -> 3   after: [h] -> 1 -> 3, 2 unhashed */
	cds_hlist_del_init_rcu(&b.hnode);
	CHECK_HLIST(&h, 1, 3);
	cr_assert(cds_hlist_unhashed_lockless(cb));
	cr_assert_eq(cds_hlist_unhashed_lockless(cb), cds_hlist_unhashed(cb));
	/* before: [h] -> 1 -> 3   after: [h] -> 3, 1 unhashed */
	cds_hlist_del_init(&a.hnode);
	CHECK_HLIST(&h, 3);
	cr_assert(cds_hlist_unhashed_lockless(ca));
	cr_assert_not(cds_hlist_unhashed_lockless(&c.hnode));
	cr_assert_eq(cds_hlist_unhashed_lockless(&c.hnode),
		     cds_hlist_unhashed(&c.hnode));
}

Test(hlist, add_fake_makes_a_headless_list_of_one)
{
	struct cds_hlist_head h;
	struct item it[2], x;
	const struct cds_hlist_node *cx = &x.hnode;

	fill(&h, it, 2);
	scribble(&x, 9);
	CDS_INIT_HLIST_NODE(&x.hnode);
	cr_assert_not(cds_hlist_fake(cx));
	/* before: x (prev NULL)   after: x (prev x, next NULL) */
	cds_hlist_add_fake(&x.hnode);
	cr_assert(cds_hlist_fake(cx));
	cr_assert_eq(x.hnode.prev, &x.hnode);
	cr_assert_null(x.hnode.next);
	cr_assert_not(cds_hlist_unhashed(cx));
	cr_assert_not(cds_hlist_unhashed_lockless(cx));
	/* Nodes on a list are not fake, and the list is untouched. */
	cr_assert_not(cds_hlist_fake(&it[0].hnode));
	cr_assert_not(cds_hlist_fake(&it[1].hnode));
	CHECK_HLIST(&h, 1, 2);
	/* before: x fake   after: x unhashed, [h] -> 1 -> 2 untouched */
	cds_hlist_del_init(&x.hnode);
	cr_assert(cds_hlist_unhashed(cx));
	cr_assert_not(cds_hlist_fake(cx));
	cr_assert_null(x.hnode.next);
	CHECK_HLIST(&h, 1, 2);
	/* A fake node may be deleted with every delete, then hashed. */
	cds_hlist_add_fake(&x.hnode);
	cds_hlist_del_init_rcu(&x.hnode);
	cr_assert(cds_hlist_unhashed(cx));
	cr_assert_null(x.hnode.next);
	cds_hlist_add_fake(&x.hnode);
	cds_hlist_del_rcu(&x.hnode);
	cr_assert_null(x.hnode.next);
	cds_hlist_add_fake(&x.hnode);
	cds_hlist_del(&x.hnode);
	CHECK_HLIST(&h, 1, 2);
	CDS_INIT_HLIST_NODE(&x.hnode);
	/* before: [h] -> 1 -> 2   after: [h] -> 9 -> 1 -> 2, 9 not fake */
	cds_hlist_add_head(&x.hnode, &h);
	CHECK_HLIST(&h, 9, 1, 2);
	cr_assert_not(cds_hlist_fake(cx));
}

Test(hlist, is_singular_node_of_its_head_only)
{
	CDS_HLIST_HEAD(h);
	CDS_HLIST_HEAD(other);
	struct item a, b, z;
	const struct cds_hlist_head *ch = &h;

	scribble(&a, 1);
	scribble(&b, 2);
	scribble(&z, 26);
	CDS_INIT_HLIST_NODE(&a.hnode);
	CDS_INIT_HLIST_NODE(&b.hnode);
	/* unhashed, and an empty head */
	cr_assert_not(cds_hlist_is_singular_node(&a.hnode, ch));
	/* before: [h]   after: [h] -> 1 */
	cds_hlist_add_head(&a.hnode, &h);
	CHECK_HLIST(&h, 1);
	cr_assert(cds_hlist_is_singular_node(&a.hnode, ch));
	cr_assert_not(cds_hlist_is_singular_node(&a.hnode, &other));
	/* before: [h] -> 1   after: [h] -> 1 -> 2: neither is alone */
	cds_hlist_add_behind(&b.hnode, &a.hnode);
	CHECK_HLIST(&h, 1, 2);
	cr_assert_not(cds_hlist_is_singular_node(&a.hnode, ch));
	cr_assert_not(cds_hlist_is_singular_node(&b.hnode, ch));
	/* before: [h] -> 1 -> 2   after: [h] -> 2: 2 is first and last */
	cds_hlist_del(&a.hnode);
	CHECK_HLIST(&h, 2);
	cr_assert(cds_hlist_is_singular_node(&b.hnode, ch));
	/* the only node of another list is not singular here */
	cds_hlist_add_head(&z.hnode, &other);
	CHECK_HLIST(&other, 26);
	cr_assert(cds_hlist_is_singular_node(&z.hnode, &other));
	cr_assert_not(cds_hlist_is_singular_node(&z.hnode, ch));
	/* a fake node is nobody's singular node */
	CDS_INIT_HLIST_NODE(&a.hnode);
	cds_hlist_add_fake(&a.hnode);
	cr_assert_not(cds_hlist_is_singular_node(&a.hnode, ch));
}

/* --------------------------------------------------- plain operations */

/* Three nodes pushed at the head with @add (cds_hlist_add_head or _rcu). */
static void add_head_case(void (*add)(struct cds_hlist_node *,
				      struct cds_hlist_head *))
{
	CDS_HLIST_HEAD(h);
	struct item a, b, c;

	scribble(&a, 1);
	scribble(&b, 2);
	scribble(&c, 3);
	/* before: [h]   after: [h] -> 1 */
	add(&a.hnode, &h);
	CHECK_HLIST(&h, 1);
	/* before: [h] -> 1   after: [h] -> 2 -> 1 */
	add(&b.hnode, &h);
	CHECK_HLIST(&h, 2, 1);
	/* before: [h] -> 2 -> 1   after: [h] -> 3 -> 2 -> 1 */
	add(&c.hnode, &h);
	CHECK_HLIST(&h, 3, 2, 1);
}

Test(hlist, add_head)
{
	add_head_case(cds_hlist_add_head);
}

Test(hlist, del_middle_first_last_only)
{
	struct cds_hlist_head h;
	struct item it[4];

	fill(&h, it, 4);
	CHECK_HLIST(&h, 1, 2, 3, 4);
	/* before: [h] -> 1 -> 2 -> 3 -> 4   after: [h] -> 1 -> 3 -> 4 */
	cds_hlist_del(&it[1].hnode);
	CHECK_HLIST(&h, 1, 3, 4);
	/* before: [h] -> 1 -> 3 -> 4   after: [h] -> 3 -> 4 */
	cds_hlist_del(&it[0].hnode);
	CHECK_HLIST(&h, 3, 4);
	/* before: [h] -> 3 -> 4   after: [h] -> 3 */
	cds_hlist_del(&it[3].hnode);
	CHECK_HLIST(&h, 3);
	/* before: [h] -> 3   after: [h] */
	cds_hlist_del(&it[2].hnode);
	CHECK_HEMPTY(&h);
}

Test(hlist, del_init_unhashes)
{
	struct cds_hlist_head h;
	struct item it[3];

	fill(&h, it, 3);
	/* before: [h] -> 1 -> 2 -> 3   after: [h] -> 1 -> 3, 2 unhashed */
	cds_hlist_del_init(&it[1].hnode);
	CHECK_HLIST(&h, 1, 3);
	cr_assert(cds_hlist_unhashed(&it[1].hnode));
	cr_assert_null(it[1].hnode.next);
	/* before: [h] -> 1 -> 3   after: [h] -> 3, 1 unhashed */
	cds_hlist_del_init(&it[0].hnode);
	CHECK_HLIST(&h, 3);
	cr_assert(cds_hlist_unhashed(&it[0].hnode));
	cr_assert_null(it[0].hnode.next);
}

Test(hlist, del_init_of_unhashed_node_does_nothing)
{
	struct cds_hlist_head h;
	struct item it[2], x;

	fill(&h, it, 2);
	scribble(&x, 9);
	CDS_INIT_HLIST_NODE(&x.hnode);
	/* before: [h] -> 1 -> 2, x unhashed   after: the same */
	cds_hlist_del_init(&x.hnode);
	CHECK_HLIST(&h, 1, 2);
	cr_assert_null(x.hnode.next);
	cr_assert_null(x.hnode.prev);
	/* Twice on a node that was on the list: the second is a no-op. */
	cds_hlist_del_init(&it[0].hnode);
	cds_hlist_del_init(&it[0].hnode);
	CHECK_HLIST(&h, 2);
	cr_assert(cds_hlist_unhashed(&it[0].hnode));
}

Test(hlist, move_list)
{
	struct cds_hlist_head old, newh;
	struct item it[3];

	fill(&old, it, 3);
	CDS_INIT_HLIST_HEAD(&newh);
	/* before: [old] -> 1 -> 2 -> 3, [newh]
	 * after:  [old], [newh] -> 1 -> 2 -> 3 (1's prev is newh) */
	cds_hlist_move_list(&old, &newh);
	CHECK_HEMPTY(&old);
	CHECK_HLIST(&newh, 1, 2, 3);
	/* An empty list moved over a non-empty one leaves both empty. */
	cds_hlist_move_list(&old, &newh);
	CHECK_HEMPTY(&old);
	CHECK_HEMPTY(&newh);
}

/* Insert @add (cds_hlist_add_before or _rcu) before the first, the second. */
static void add_before_case(void (*add)(struct cds_hlist_node *,
					struct cds_hlist_node *))
{
	struct cds_hlist_head h;
	struct item it[2], x, y;

	fill(&h, it, 2);
	scribble(&x, 10);
	scribble(&y, 20);
	/* before: [h] -> 1 -> 2   after: [h] -> 10 -> 1 -> 2 */
	add(&x.hnode, &it[0].hnode);
	CHECK_HLIST(&h, 10, 1, 2);
	/* before: [h] -> 10 -> 1 -> 2   after: [h] -> 10 -> 1 -> 20 -> 2 */
	add(&y.hnode, &it[1].hnode);
	CHECK_HLIST(&h, 10, 1, 20, 2);
}

Test(hlist, add_before_first_and_middle)
{
	add_before_case(cds_hlist_add_before);
}

/* Insert with @add (cds_hlist_add_behind or _rcu) behind the last, the first. */
static void add_behind_case(void (*add)(struct cds_hlist_node *,
					struct cds_hlist_node *))
{
	struct cds_hlist_head h;
	struct item it[2], x, y;

	fill(&h, it, 2);
	scribble(&x, 10);
	scribble(&y, 20);
	/* before: [h] -> 1 -> 2   after: [h] -> 1 -> 2 -> 10 */
	add(&x.hnode, &it[1].hnode);
	CHECK_HLIST(&h, 1, 2, 10);
	/* before: [h] -> 1 -> 2 -> 10   after: [h] -> 1 -> 20 -> 2 -> 10 */
	add(&y.hnode, &it[0].hnode);
	CHECK_HLIST(&h, 1, 20, 2, 10);
}

Test(hlist, add_behind_last_and_middle)
{
	add_behind_case(cds_hlist_add_behind);
}

/* ------------------------------------------------------ RCU operations */

Test(hlist, add_head_rcu)
{
	add_head_case(cds_hlist_add_head_rcu);
}

Test(hlist, add_before_rcu_first_and_middle)
{
	add_before_case(cds_hlist_add_before_rcu);
}

Test(hlist, add_behind_rcu_last_and_middle)
{
	add_behind_case(cds_hlist_add_behind_rcu);
}

Test(hlist, add_tail_rcu_empty_and_nonempty)
{
	CDS_HLIST_HEAD(h);
	struct item a, b, c;

	scribble(&a, 1);
	scribble(&b, 2);
	scribble(&c, 3);
	/* before: [h]   after: [h] -> 1 */
	cds_hlist_add_tail_rcu(&a.hnode, &h);
	CHECK_HLIST(&h, 1);
	/* before: [h] -> 1   after: [h] -> 1 -> 2 */
	cds_hlist_add_tail_rcu(&b.hnode, &h);
	CHECK_HLIST(&h, 1, 2);
	/* before: [h] -> 1 -> 2   after: [h] -> 1 -> 2 -> 3 */
	cds_hlist_add_tail_rcu(&c.hnode, &h);
	CHECK_HLIST(&h, 1, 2, 3);
}

Test(hlist, del_rcu_leaves_next_intact)
{
	struct cds_hlist_head h;
	struct item it[3];

	fill(&h, it, 3);
	/* before: [h] -> 1 -> 2 -> 3   after: [h] -> 1 -> 3   (2 still -> 3) */
	cds_hlist_del_rcu(&it[1].hnode);
	CHECK_HLIST(&h, 1, 3);
	cr_assert_eq(it[1].hnode.next, &it[2].hnode);
	/* before: [h] -> 1 -> 3   after: [h] -> 1   (3 still -> NULL) */
	cds_hlist_del_rcu(&it[2].hnode);
	CHECK_HLIST(&h, 1);
	cr_assert_null(it[2].hnode.next);
	/* before: [h] -> 1   after: [h] */
	cds_hlist_del_rcu(&it[0].hnode);
	CHECK_HEMPTY(&h);
}

Test(hlist, del_init_rcu_unhashes_and_leaves_next)
{
	struct cds_hlist_head h;
	struct item it[3], x;

	fill(&h, it, 3);
	/* before: [h] -> 1 -> 2 -> 3   after: [h] -> 2 -> 3 (1 -> 2, unhashed) */
	cds_hlist_del_init_rcu(&it[0].hnode);
	CHECK_HLIST(&h, 2, 3);
	cr_assert(cds_hlist_unhashed(&it[0].hnode));
	cr_assert_eq(it[0].hnode.next, &it[1].hnode);
	/* A second call, and a call on a never-listed node, do nothing. */
	cds_hlist_del_init_rcu(&it[0].hnode);
	CHECK_HLIST(&h, 2, 3);
	cr_assert_eq(it[0].hnode.next, &it[1].hnode);
	scribble(&x, 9);
	CDS_INIT_HLIST_NODE(&x.hnode);
	cds_hlist_del_init_rcu(&x.hnode);
	CHECK_HLIST(&h, 2, 3);
	cr_assert_null(x.hnode.next);
	cr_assert_null(x.hnode.prev);
	/* before: [h] -> 2 -> 3   after: [h] -> 2 (3 unhashed, -> NULL) */
	cds_hlist_del_init_rcu(&it[2].hnode);
	CHECK_HLIST(&h, 2);
	cr_assert(cds_hlist_unhashed(&it[2].hnode));
	cr_assert_null(it[2].hnode.next);
}

Test(hlist, replace_rcu_first_middle_last)
{
	struct cds_hlist_head h;
	struct item it[3], x, y, z;

	fill(&h, it, 3);
	scribble(&x, 10);
	scribble(&y, 20);
	scribble(&z, 30);
	/* before: [h] -> 1 -> 2 -> 3   after: [h] -> 10 -> 2 -> 3 (1 -> 2) */
	cds_hlist_replace_rcu(&it[0].hnode, &x.hnode);
	CHECK_HLIST(&h, 10, 2, 3);
	cr_assert_eq(it[0].hnode.next, &it[1].hnode);
	/* before: [h] -> 10 -> 2 -> 3   after: [h] -> 10 -> 20 -> 3 (2 -> 3) */
	cds_hlist_replace_rcu(&it[1].hnode, &y.hnode);
	CHECK_HLIST(&h, 10, 20, 3);
	cr_assert_eq(it[1].hnode.next, &it[2].hnode);
	/* before: [h] -> 10 -> 20 -> 3   after: [h] -> 10 -> 20 -> 30 */
	cds_hlist_replace_rcu(&it[2].hnode, &z.hnode);
	CHECK_HLIST(&h, 10, 20, 30);
	cr_assert_null(it[2].hnode.next);
}

/* ----------------------------------------------------------- accessors */

Test(hlist, entry_and_entry_safe)
{
	struct item a;
	struct cds_hlist_node *n = &a.hnode, *none = NULL;

	cr_assert_eq(cds_hlist_entry(n, struct item, hnode), &a);
	cr_assert_eq(cds_hlist_entry_safe(n, struct item, hnode), &a);
	cr_assert_null(cds_hlist_entry_safe(none, struct item, hnode));
	/* The argument is evaluated once. */
	n = &a.hnode;
	cr_assert_eq(cds_hlist_entry_safe(n++, struct item, hnode), &a);
	cr_assert_eq(n, &a.hnode + 1);
}

/* ----------------------------------------------------------- iterators */

Test(hlist, for_each)
{
	struct cds_hlist_head h;
	struct item it[3];
	struct cds_hlist_node *pos;
	int seen[8];
	size_t n = 0;

	fill(&h, it, 3);
	cds_hlist_for_each(pos, &h)
		seen[n++] = HITEM_KEY(pos);
	CHECK_SEEN(seen, n, 1, 2, 3);
	cr_assert_null(pos);
	CHECK_HLIST(&h, 1, 2, 3);

	/* break and continue */
	n = 0;
	cds_hlist_for_each(pos, &h) {
		if (HITEM_KEY(pos) == 1)
			continue;
		seen[n++] = HITEM_KEY(pos);
		if (HITEM_KEY(pos) == 2)
			break;
	}
	CHECK_SEEN(seen, n, 2);
	cr_assert_eq(pos, &it[1].hnode);

	CDS_INIT_HLIST_HEAD(&h);
	cds_hlist_for_each(pos, &h)
		cr_assert_fail("body run on an empty list");
	cr_assert_null(pos);
}

Test(hlist, for_each_safe_deletes)
{
	struct cds_hlist_head h;
	struct item it[4];
	struct cds_hlist_node *pos, *p;
	int seen[8];
	size_t n = 0;

	fill(&h, it, 4);
	/* before: [h] -> 1 -> 2 -> 3 -> 4   after: [h] -> 1 -> 3 (evens gone) */
	cds_hlist_for_each_safe(pos, p, &h) {
		seen[n++] = HITEM_KEY(pos);
		if (HITEM_KEY(pos) % 2 == 0)
			cds_hlist_del(pos);
	}
	CHECK_SEEN(seen, n, 1, 2, 3, 4);
	cr_assert_null(pos);
	CHECK_HLIST(&h, 1, 3);

	/* before: [h] -> 1 -> 3   after: [h] */
	cds_hlist_for_each_safe(pos, p, &h)
		cds_hlist_del(pos);
	CHECK_HEMPTY(&h);
	cds_hlist_for_each_safe(pos, p, &h)
		cr_assert_fail("body run on an empty list");
}

Test(hlist, for_each_entry)
{
	struct cds_hlist_head h;
	struct item it[3], *e;
	struct cds_hlist_node *pos;
	int seen[8];
	size_t n = 0;

	fill(&h, it, 3);
	cds_hlist_for_each_entry(e, pos, &h, hnode) {
		cr_assert_eq(&e->hnode, pos);
		seen[n++] = e->key;
	}
	CHECK_SEEN(seen, n, 1, 2, 3);
	cr_assert_null(pos);

	n = 0;
	cds_hlist_for_each_entry(e, pos, &h, hnode) {
		if (e->key == 1)
			continue;
		seen[n++] = e->key;
		break;
	}
	CHECK_SEEN(seen, n, 2);
	cr_assert_eq(e, &it[1]);

	CDS_INIT_HLIST_HEAD(&h);
	cds_hlist_for_each_entry(e, pos, &h, hnode)
		cr_assert_fail("body run on an empty list");
	cr_assert_null(pos);
}

Test(hlist, for_each_entry_2_ends_null)
{
	struct cds_hlist_head h;
	struct item it[3], *e;
	int seen[8];
	size_t n = 0;

	fill(&h, it, 3);
	cds_hlist_for_each_entry_2(e, &h, hnode)
		seen[n++] = e->key;
	CHECK_SEEN(seen, n, 1, 2, 3);
	cr_assert_null(e);

	n = 0;
	cds_hlist_for_each_entry_2(e, &h, hnode) {
		if (e->key != 3)
			continue;
		seen[n++] = e->key;
		break;
	}
	CHECK_SEEN(seen, n, 3);
	cr_assert_eq(e, &it[2]);

	CDS_INIT_HLIST_HEAD(&h);
	e = &it[0];
	cds_hlist_for_each_entry_2(e, &h, hnode)
		cr_assert_fail("body run on an empty list");
	cr_assert_null(e);
}

Test(hlist, for_each_entry_safe_deletes_and_frees)
{
	CDS_HLIST_HEAD(h);
	struct item *e;
	struct cds_hlist_node *pos, *p;
	int seen[8];
	size_t n = 0;
	int k;

	for (k = 5; k >= 1; k--) {
		e = malloc(sizeof(*e));
		cr_assert_not_null(e);
		e->key = k;
		cds_hlist_add_head(&e->hnode, &h);
	}
	CHECK_HLIST(&h, 1, 2, 3, 4, 5);
	/* before: [h] -> 1 -> 2 -> 3 -> 4 -> 5   after: [h] -> 1 -> 3 -> 5 */
	cds_hlist_for_each_entry_safe(e, pos, p, &h, hnode) {
		cr_assert_eq(&e->hnode, pos);
		seen[n++] = e->key;
		if (e->key % 2 == 0) {
			cds_hlist_del(&e->hnode);
			free(e);
		}
	}
	CHECK_SEEN(seen, n, 1, 2, 3, 4, 5);
	cr_assert_null(pos);
	CHECK_HLIST(&h, 1, 3, 5);
	/* before: [h] -> 1 -> 3 -> 5   after: [h] */
	cds_hlist_for_each_entry_safe(e, pos, p, &h, hnode) {
		cds_hlist_del(&e->hnode);
		free(e);
	}
	CHECK_HEMPTY(&h);
}

Test(hlist, for_each_entry_safe_2_deletes_and_frees)
{
	CDS_HLIST_HEAD(h);
	struct item *e, *next;
	int seen[8];
	size_t n = 0;
	int k;

	for (k = 4; k >= 1; k--) {
		e = malloc(sizeof(*e));
		cr_assert_not_null(e);
		e->key = k;
		cds_hlist_add_head(&e->hnode, &h);
	}
	/* before: [h] -> 1 -> 2 -> 3 -> 4   after: [h] -> 2 -> 4 */
	cds_hlist_for_each_entry_safe_2(e, next, &h, hnode) {
		seen[n++] = e->key;
		if (e->key % 2) {
			cds_hlist_del(&e->hnode);
			free(e);
		}
	}
	CHECK_SEEN(seen, n, 1, 2, 3, 4);
	cr_assert_null(e);
	CHECK_HLIST(&h, 2, 4);
	/* break leaves @e on the element it stopped at */
	cds_hlist_for_each_entry_safe_2(e, next, &h, hnode)
		break;
	cr_assert_eq(e->key, 2);
	cds_hlist_for_each_entry_safe_2(e, next, &h, hnode) {
		cds_hlist_del(&e->hnode);
		free(e);
	}
	cr_assert_null(e);
	CHECK_HEMPTY(&h);
}

Test(hlist, for_each_entry_continue)
{
	struct cds_hlist_head h;
	struct item it[3], *e;
	int seen[8];
	size_t n = 0;

	fill(&h, it, 3);
	e = &it[0];
	cds_hlist_for_each_entry_continue(e, hnode)
		seen[n++] = e->key;
	CHECK_SEEN(seen, n, 2, 3);
	cr_assert_null(e);

	/* From the last element: nothing follows. */
	e = &it[2];
	cds_hlist_for_each_entry_continue(e, hnode)
		cr_assert_fail("body run after the last element");
	cr_assert_null(e);

	/* Resume where a break stopped. */
	n = 0;
	cds_hlist_for_each_entry_2(e, &h, hnode)
		if (e->key == 2)
			break;
	cds_hlist_for_each_entry_continue(e, hnode)
		seen[n++] = e->key;
	CHECK_SEEN(seen, n, 3);
}

Test(hlist, for_each_entry_from)
{
	struct cds_hlist_head h;
	struct item it[3], *e;
	int seen[8];
	size_t n = 0;

	fill(&h, it, 3);
	e = &it[1];
	cds_hlist_for_each_entry_from(e, hnode)
		seen[n++] = e->key;
	CHECK_SEEN(seen, n, 2, 3);
	cr_assert_null(e);

	e = NULL;
	cds_hlist_for_each_entry_from(e, hnode)
		cr_assert_fail("body run from NULL");
	cr_assert_null(e);
}

/* ---------------------------------------------------- RCU iterators */

/* The RCU iterators run inside a read-side section of a registered thread. */
static void reader_begin(void) RCULIST_ACQUIRES_RCU
{
	rculist_register_thread();
	rculist_read_lock();
}

static void reader_end(void) RCULIST_RELEASES_RCU
{
	rculist_read_unlock();
	rculist_quiescent_state();
	rculist_unregister_thread();
}

Test(hlist, for_each_rcu)
{
	struct cds_hlist_head h;
	struct item it[3];
	struct cds_hlist_node *pos;
	int seen[8];
	size_t n = 0;

	fill(&h, it, 3);
	reader_begin();
	cds_hlist_for_each_rcu(pos, &h)
		seen[n++] = HITEM_KEY(pos);
	CHECK_SEEN(seen, n, 1, 2, 3);
	cr_assert_null(pos);
	n = 0;
	cds_hlist_for_each_rcu(pos, &h) {
		if (HITEM_KEY(pos) == 1)
			continue;
		seen[n++] = HITEM_KEY(pos);
		break;
	}
	CHECK_SEEN(seen, n, 2);
	CDS_INIT_HLIST_HEAD(&h);
	cds_hlist_for_each_rcu(pos, &h)
		cr_assert_fail("body run on an empty list");
	cr_assert_null(pos);
	reader_end();
}

Test(hlist, for_each_entry_rcu)
{
	struct cds_hlist_head h;
	struct item it[3], *e;
	struct cds_hlist_node *pos;
	int seen[8];
	size_t n = 0;

	fill(&h, it, 3);
	reader_begin();
	cds_hlist_for_each_entry_rcu(e, pos, &h, hnode) {
		cr_assert_eq(&e->hnode, pos);
		seen[n++] = e->key;
	}
	CHECK_SEEN(seen, n, 1, 2, 3);
	cr_assert_null(pos);
	n = 0;
	cds_hlist_for_each_entry_rcu(e, pos, &h, hnode) {
		if (e->key == 1)
			continue;
		seen[n++] = e->key;
		break;
	}
	CHECK_SEEN(seen, n, 2);
	cr_assert_eq(e, &it[1]);
	CDS_INIT_HLIST_HEAD(&h);
	cds_hlist_for_each_entry_rcu(e, pos, &h, hnode)
		cr_assert_fail("body run on an empty list");
	cr_assert_null(pos);
	reader_end();
}

Test(hlist, for_each_entry_rcu_2_ends_null)
{
	struct cds_hlist_head h;
	struct item it[3], *e;
	int seen[8];
	size_t n = 0;

	fill(&h, it, 3);
	reader_begin();
	cds_hlist_for_each_entry_rcu_2(e, &h, hnode)
		seen[n++] = e->key;
	CHECK_SEEN(seen, n, 1, 2, 3);
	cr_assert_null(e);
	n = 0;
	cds_hlist_for_each_entry_rcu_2(e, &h, hnode) {
		if (e->key == 1)
			continue;
		seen[n++] = e->key;
		break;
	}
	CHECK_SEEN(seen, n, 2);
	cr_assert_eq(e, &it[1]);
	CDS_INIT_HLIST_HEAD(&h);
	e = &it[0];
	cds_hlist_for_each_entry_rcu_2(e, &h, hnode)
		cr_assert_fail("body run on an empty list");
	cr_assert_null(e);
	reader_end();
}

Test(hlist, for_each_entry_continue_rcu)
{
	struct cds_hlist_head h;
	struct item it[3], *e;
	int seen[8];
	size_t n = 0;

	fill(&h, it, 3);
	reader_begin();
	e = &it[0];
	cds_hlist_for_each_entry_continue_rcu(e, hnode)
		seen[n++] = e->key;
	CHECK_SEEN(seen, n, 2, 3);
	cr_assert_null(e);
	e = &it[2];
	cds_hlist_for_each_entry_continue_rcu(e, hnode)
		cr_assert_fail("body run after the last element");
	cr_assert_null(e);
	reader_end();
}

Test(hlist, for_each_entry_from_rcu)
{
	struct cds_hlist_head h;
	struct item it[3], *e;
	int seen[8];
	size_t n = 0;

	fill(&h, it, 3);
	reader_begin();
	e = &it[1];
	cds_hlist_for_each_entry_from_rcu(e, hnode)
		seen[n++] = e->key;
	CHECK_SEEN(seen, n, 2, 3);
	cr_assert_null(e);
	n = 0;
	e = &it[0];
	cds_hlist_for_each_entry_from_rcu(e, hnode) {
		seen[n++] = e->key;
		if (e->key == 2)
			break;
	}
	CHECK_SEEN(seen, n, 1, 2);
	cr_assert_eq(e, &it[1]);
	e = NULL;
	cds_hlist_for_each_entry_from_rcu(e, hnode)
		cr_assert_fail("body run from NULL");
	cr_assert_null(e);
	reader_end();
}

/* A reader standing on a node removed by del_rcu goes on to the rest. */
Test(hlist, reader_on_deleted_node_continues)
{
	struct cds_hlist_head h;
	struct item it[3], *e;
	int seen[8];
	size_t n = 0;

	fill(&h, it, 3);
	reader_begin();
	cds_hlist_for_each_entry_rcu_2(e, &h, hnode) {
		seen[n++] = e->key;
		if (e->key == 2)
			cds_hlist_del_rcu(&e->hnode); /* as an updater would */
	}
	CHECK_SEEN(seen, n, 1, 2, 3);
	cr_assert_null(e);
	reader_end();
	CHECK_HLIST(&h, 1, 3);
}
