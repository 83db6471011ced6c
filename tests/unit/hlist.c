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

#define CHECK_SEEN(seen, n, ...) check_seen(seen, n, KEYS(__VA_ARGS__), #seen)

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

/* Both spellings: liburcu's, with an argument, and the kernel's, without. */
Test(hlist, hlist_head_init_initialises_empty)
{
	struct cds_hlist_head h = CDS_HLIST_HEAD_INIT(h);
	struct cds_hlist_head k = CDS_HLIST_HEAD_INIT;
	struct item a, b;

	CHECK_HEMPTY(&h);
	CHECK_HEMPTY(&k);
	/* The initialised heads are usable: [h] -> a, [k] -> b. */
	scribble(&a, 1);
	scribble(&b, 2);
	cds_hlist_add_head(&a.hnode, &h);
	cds_hlist_add_head(&b.hnode, &k);
	CHECK_HLIST(&h, 1);
	CHECK_HLIST(&k, 2);
}

/*
 * The kernel's field names, first and pprev, are the head's next and a
 * node's prev: pprev is the address of the link that leads to the node.
 *   [h] -> 1 -> 2 -> 3, then 2 deleted: [h] -> 1 -> 3, then 1: [h] -> 3
 */
Test(hlist, first_and_pprev_are_next_and_prev)
{
	struct cds_hlist_head h;
	struct item it[3], fake;

	fill(&h, it, 3);
	cr_assert_eq(h.first, &it[0].hnode);
	cr_assert_eq(it[0].hnode.pprev, &h.first);
	cr_assert_eq(it[1].hnode.pprev, &it[0].hnode.next);
	cr_assert_eq(it[2].hnode.pprev, &it[1].hnode.next);
	cr_assert_eq(*it[2].hnode.pprev, &it[2].hnode);
	cds_hlist_del_init(&it[1].hnode);
	CHECK_HLIST(&h, 1, 3);
	cr_assert_eq(it[2].hnode.pprev, &it[0].hnode.next);
	cr_assert_null(it[1].hnode.pprev);
	cr_assert_null(it[1].hnode.next);
	cds_hlist_del(&it[0].hnode);
	CHECK_HLIST(&h, 3);
	cr_assert_eq(h.first, &it[2].hnode);
	cr_assert_eq(it[2].hnode.pprev, &h.first);
	/* A node made a list of its own: pprev is its own next's address. */
	scribble(&fake, 9);
	CDS_INIT_HLIST_NODE(&fake.hnode);
	cds_hlist_add_fake(&fake.hnode);
	cr_assert_eq(fake.hnode.pprev, &fake.hnode.next);
	cr_assert(cds_hlist_fake(&fake.hnode));
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

/*
 * Three nodes added one by one to an empty list with @add (at the head
 * or the tail, plain or _rcu):
 *   at the head: [h] -> 1, then [h] -> 2 -> 1, then [h] -> 3 -> 2 -> 1
 *   at the tail: [h] -> 1, then [h] -> 1 -> 2, then [h] -> 1 -> 2 -> 3
 */
static void add_three_case(void (*add)(struct cds_hlist_node *,
				       struct cds_hlist_head *),
			   int at_head)
{
	CDS_HLIST_HEAD(h);
	struct item it[3];
	int want[3];
	int i, j;

	for (i = 0; i < 3; i++) {
		scribble(&it[i], i + 1);
		add(&it[i].hnode, &h);
		for (j = 0; j <= i; j++)
			want[j] = at_head ? i - j + 1 : j + 1;
		check_hlist_keys(&h, want, (size_t)i + 1, "after an add");
	}
}

/*
 * A deletion (plain or _rcu, with _init or not) at every position of
 * [h] -> 1 -> 2 -> 3 -> 4: the middle, the first, the last, the only.
 * The deleted node then reads as unhashed (the _init forms) and its next
 * is NULL (del_init) or still leads where it led (the _rcu forms, for
 * the readers standing on it).
 */
static const struct del_step {
	int at;
	int after[3];
	size_t n;
} del_steps[] = {
	/* before: [h] -> 1 -> 2 -> 3 -> 4   after: [h] -> 1 -> 3 -> 4 */
	{ 1, { 1, 3, 4 }, 3 },
	/* before: [h] -> 1 -> 3 -> 4   after: [h] -> 3 -> 4 */
	{ 0, { 3, 4 }, 2 },
	/* before: [h] -> 3 -> 4   after: [h] -> 3 */
	{ 3, { 3 }, 1 },
	/* before: [h] -> 3   after: [h] */
	{ 2, { 0 }, 0 },
};

static void del_case(void (*del)(struct cds_hlist_node *), int unhashes,
		     enum del_next next)
{
	struct cds_hlist_head h;
	struct item it[4];
	struct cds_hlist_node *node, *was;
	size_t i;

	fill(&h, it, 4);
	for (i = 0; i < sizeof(del_steps) / sizeof(del_steps[0]); i++) {
		node = &it[del_steps[i].at].hnode;
		was = node->next;
		del(node);
		check_hlist_keys(&h, del_steps[i].after, del_steps[i].n,
				 "after a deletion");
		cr_assert(!unhashes || cds_hlist_unhashed(node), "step %zu", i);
		check_deleted_next(node->next, was, next, i);
	}
	CHECK_HEMPTY(&h);
}

/* X(test, deletion, unhashes, next) */
/* clang-format off */
#define DEL_TESTS(X)							\
	X(del_middle_first_last_only, cds_hlist_del, 0, NEXT_ANY)	\
	X(del_init_unhashes, cds_hlist_del_init, 1, NEXT_NULL)		\
	X(del_rcu_leaves_next_intact, cds_hlist_del_rcu, 0, NEXT_KEPT)	\
	X(del_init_rcu_unhashes_and_leaves_next, cds_hlist_del_init_rcu, 1, NEXT_KEPT)

#define DEL_TEST(test, del, unhashes, next)				\
	Test(hlist, test)						\
	{								\
		del_case(del, unhashes, next);				\
	}
DEL_TESTS(DEL_TEST)
/* clang-format on */

/*
 * The _init deletions of an unhashed node do nothing: of a node never
 * listed, and a second time of a node deleted once (whose next stays as
 * the first left it: NULL, or kept by the _rcu form).
 *   before: [h] -> 1 -> 2 -> 3, x unhashed   after: [h] -> 2 -> 3
 */
static void del_init_again_case(void (*del)(struct cds_hlist_node *),
				enum del_next next)
{
	struct cds_hlist_head h;
	struct item it[3], x;

	fill(&h, it, 3);
	scribble(&x, 9);
	CDS_INIT_HLIST_NODE(&x.hnode);
	del(&x.hnode);
	CHECK_HLIST(&h, 1, 2, 3);
	cr_assert_null(x.hnode.next);
	cr_assert_null(x.hnode.prev);
	del(&it[0].hnode);
	del(&it[0].hnode);
	CHECK_HLIST(&h, 2, 3);
	cr_assert(cds_hlist_unhashed(&it[0].hnode));
	cr_assert_eq(it[0].hnode.next, next == NEXT_KEPT ? &it[1].hnode : NULL);
}

Test(hlist, del_init_of_unhashed_node_does_nothing)
{
	del_init_again_case(cds_hlist_del_init, NEXT_NULL);
}

Test(hlist, del_init_rcu_of_unhashed_node_does_nothing)
{
	del_init_again_case(cds_hlist_del_init_rcu, NEXT_KEPT);
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

/*
 * Two nodes put next to nodes of [h] -> 1 -> 2 by an insertion (before
 * or behind, plain or _rcu): 10 next to it[at[0]], then 20 next to
 * it[at[1]]; the list is then after[0], then after[1].
 */
struct insert_case {
	int at[2];
	int after[2][4];
};

/* before: [h] -> 1 -> 2   after: [h] -> 10 -> 1 -> 2, [h] -> 10 -> 1 -> 20 -> 2 */
static const struct insert_case ins_before = {
	.at = { 0, 1 },
	.after = { { 10, 1, 2 }, { 10, 1, 20, 2 } },
};

/* before: [h] -> 1 -> 2   after: [h] -> 1 -> 2 -> 10, [h] -> 1 -> 20 -> 2 -> 10 */
static const struct insert_case ins_behind = {
	.at = { 1, 0 },
	.after = { { 1, 2, 10 }, { 1, 20, 2, 10 } },
};

static void insert_case(void (*add)(struct cds_hlist_node *,
				    struct cds_hlist_node *),
			const struct insert_case *c)
{
	struct cds_hlist_head h;
	struct item it[2], x[2];
	int i;

	fill(&h, it, 2);
	for (i = 0; i < 2; i++) {
		scribble(&x[i], 10 * (i + 1));
		add(&x[i].hnode, &it[c->at[i]].hnode);
		check_hlist_keys(&h, c->after[i], (size_t)i + 3,
				 "after an insertion");
	}
}

/* The additions, plain and _rcu: X(test, the case it runs). */
/* clang-format off */
#define ADD_TESTS(X)                                                                            \
	X(add_head, add_three_case(cds_hlist_add_head, 1))                                      \
	X(add_before_first_and_middle, insert_case(cds_hlist_add_before, &ins_before))          \
	X(add_behind_last_and_middle, insert_case(cds_hlist_add_behind, &ins_behind))           \
	X(add_head_rcu, add_three_case(cds_hlist_add_head_rcu, 1))                              \
	X(add_tail_rcu_empty_and_nonempty, add_three_case(cds_hlist_add_tail_rcu, 0))           \
	X(add_before_rcu_first_and_middle, insert_case(cds_hlist_add_before_rcu, &ins_before))  \
	X(add_behind_rcu_last_and_middle, insert_case(cds_hlist_add_behind_rcu, &ins_behind))

#define ADD_TEST(test, run_case) Test(hlist, test) { run_case; }
ADD_TESTS(ADD_TEST)
/* clang-format on */

/* ------------------------------------------------------ RCU operations */

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

/* A walk test's list, [h] -> 1 -> 2 -> 3, and the keys its walks saw. */
struct walk {
	struct cds_hlist_head h;
	struct item it[3];
	int seen[8];
	size_t n;
};

static void walk_fill(struct walk *w)
{
	fill(&w->h, w->it, 3);
	w->n = 0;
}

/*
 * The walks below are written once for every iterator of a kind, plain
 * and _rcu: a table X(test, begin, end, iterator, ...) names them, and
 * one macro per kind is the test.  Each walks the list whole (and finds
 * it unchanged), again stopped by continue and break, and walks an
 * empty list or past the end.
 */
/* (clang-format would not lay out the loops of the bodies below as loops) */
/* clang-format off */
#define NODE_WALKS(X)							\
	X(for_each, NO_SECTION, NO_SECTION, cds_hlist_for_each)		\
	X(for_each_rcu, reader_begin, reader_end, cds_hlist_for_each_rcu)

#define NODE_WALK_TEST(test, begin, end, for_each)			\
	Test(hlist, test)						\
	{								\
		struct walk w;						\
		struct cds_hlist_node *pos;				\
									\
		walk_fill(&w);						\
		begin();						\
		for_each(pos, &w.h)					\
			w.seen[w.n++] = HITEM_KEY(pos);			\
		CHECK_SEEN(w.seen, w.n, 1, 2, 3);			\
		cr_assert_null(pos);					\
		CHECK_HLIST(&w.h, 1, 2, 3);				\
		w.n = 0;						\
		for_each(pos, &w.h) {					\
			if (HITEM_KEY(pos) == 1)			\
				continue;				\
			w.seen[w.n++] = HITEM_KEY(pos);			\
			break;						\
		}							\
		CHECK_SEEN(w.seen, w.n, 2);				\
		cr_assert_eq(pos, &w.it[1].hnode);			\
		CDS_INIT_HLIST_HEAD(&w.h);				\
		for_each(pos, &w.h)					\
			cr_assert_fail("body run on an empty list");	\
		cr_assert_null(pos);					\
		end();							\
	}
NODE_WALKS(NODE_WALK_TEST)

/*
 * The entry iterators, through a walk_of(e, head) of each: with a node
 * cursor @pos (which must stand on @e's node and end NULL) or without
 * (the _2 forms: @e itself ends NULL).
 */
#define ENTRY_WALK(e, h)	cds_hlist_for_each_entry(e, pos, h, hnode)
#define ENTRY_WALK_RCU(e, h)	cds_hlist_for_each_entry_rcu(e, pos, h, hnode)
#define ENTRY_WALK_2(e, h)	cds_hlist_for_each_entry_2(e, h, hnode)
#define ENTRY_WALK_RCU_2(e, h)	cds_hlist_for_each_entry_rcu_2(e, h, hnode)
#define ENTRY_WALK_KERNEL(e, h)	cds_hlist_for_each_entry(e, h, hnode)
#define ENTRY_WALK_RCU_KERNEL(e, h) cds_hlist_for_each_entry_rcu(e, h, hnode)
#define ENTRY_WALKS(X)							\
	X(for_each_entry, NO_SECTION, NO_SECTION, ENTRY_WALK, pos)	\
	X(for_each_entry_3_args_ends_null, NO_SECTION, NO_SECTION,	\
	  ENTRY_WALK_KERNEL, e)						\
	X(for_each_entry_rcu, reader_begin, reader_end, ENTRY_WALK_RCU, pos) \
	X(for_each_entry_rcu_3_args_ends_null, reader_begin, reader_end, \
	  ENTRY_WALK_RCU_KERNEL, e)					\
	X(for_each_entry_2_ends_null, NO_SECTION, NO_SECTION, ENTRY_WALK_2, e) \
	X(for_each_entry_rcu_2_ends_null, reader_begin, reader_end,	\
	  ENTRY_WALK_RCU_2, e)

#define ENTRY_WALK_TEST(test, begin, end, walk_of, ends_null)		\
	Test(hlist, test)						\
	{								\
		struct walk w;						\
		struct cds_hlist_node *pos = NULL;			\
		struct item *e;						\
									\
		walk_fill(&w);						\
		begin();						\
		walk_of(e, &w.h) {						\
			cr_assert(!pos || pos == &e->hnode);		\
			cr_assert_eq(e, &w.it[w.n]);			\
			w.seen[w.n++] = e->key;				\
		}							\
		CHECK_SEEN(w.seen, w.n, 1, 2, 3);			\
		cr_assert_null(ends_null);				\
		CHECK_HLIST(&w.h, 1, 2, 3);				\
		w.n = 0;						\
		walk_of(e, &w.h) {						\
			if (e->key == 1)				\
				continue;				\
			w.seen[w.n++] = e->key;				\
			break;						\
		}							\
		CHECK_SEEN(w.seen, w.n, 2);				\
		cr_assert_eq(e, &w.it[1]);				\
		CDS_INIT_HLIST_HEAD(&w.h);				\
		e = &w.it[0];						\
		walk_of(e, &w.h)						\
			cr_assert_fail("body run on an empty list");	\
		cr_assert_null(ends_null);				\
		end();							\
	}
ENTRY_WALKS(ENTRY_WALK_TEST)

/*
 * The iterators that start at an element: _continue after it (@skip 1),
 * _from at it (@skip 0).  Started at 1 (continue) or 2 (from): 2, 3; so
 * again, stopped by a break at 2; resumed there; and started at @past
 * (the last element, or NULL): nothing.
 */
#define START_WALKS(X)							\
	X(for_each_entry_continue, NO_SECTION, NO_SECTION,		\
	  cds_hlist_for_each_entry_continue, 1, &w.it[2])		\
	X(for_each_entry_continue_rcu, reader_begin, reader_end,	\
	  cds_hlist_for_each_entry_continue_rcu, 1, &w.it[2])		\
	X(for_each_entry_from, NO_SECTION, NO_SECTION,			\
	  cds_hlist_for_each_entry_from, 0, NULL)			\
	X(for_each_entry_from_rcu, reader_begin, reader_end,		\
	  cds_hlist_for_each_entry_from_rcu, 0, NULL)

#define START_WALK_TEST(test, begin, end, walk_from, skip, past)	\
	Test(hlist, test)						\
	{								\
		static const int rest[] = { 2, 3 };			\
		struct walk w;						\
		struct item *e;						\
									\
		walk_fill(&w);						\
		begin();						\
		e = &w.it[1 - (skip)];					\
		walk_from(e, hnode)					\
			w.seen[w.n++] = e->key;				\
		CHECK_SEEN(w.seen, w.n, 2, 3);				\
		cr_assert_null(e);					\
		w.n = 0;						\
		e = &w.it[1 - (skip)];					\
		walk_from(e, hnode) {					\
			w.seen[w.n++] = e->key;				\
			if (e->key == 2)				\
				break;					\
		}							\
		CHECK_SEEN(w.seen, w.n, 2);				\
		cr_assert_eq(e, &w.it[1]);				\
		w.n = 0;						\
		walk_from(e, hnode)					\
			w.seen[w.n++] = e->key;				\
		check_seen(w.seen, w.n, rest + (skip), 2 - (skip),	\
			   "resumed after the break");			\
		e = past;						\
		walk_from(e, hnode)					\
			cr_assert_fail("body run past the end");	\
		cr_assert_null(e);					\
		CHECK_HLIST(&w.h, 1, 2, 3);				\
		end();							\
	}
START_WALKS(START_WALK_TEST)
/* clang-format on */

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

/*
 * Deleting @e: its bytes are scribbled over (volatile stores, which no
 * compiler may drop) and it is kept in @dead, freed when the test ends,
 * so that a walk reading @e after its body deleted it meets the poison
 * (a free() at once would let the compiler reuse what it loaded before).
 */
static void bury(struct item **dead, size_t *ndead, struct item *e)
{
	volatile unsigned char *b = (volatile unsigned char *)e;
	size_t i;

	for (i = 0; i < sizeof(*e); i++)
		b[i] = 0xa5;
	dead[(*ndead)++] = e;
}

/*
 * The _safe entry iterators delete and poison the element they stand on
 * (bury()): liburcu's with a node cursor @pos (on @e's node, ending
 * NULL), the kernel's 4 arguments and _2 without (@e ends NULL).
 *   before: [h] -> 1 -> 2 -> 3 -> 4 -> 5   after: [h] -> 1 -> 3 -> 5
 *   a break leaves @e on 1; then all deleted: [h]
 */
/* clang-format off */
#define SAFE_WALK(e, h)		cds_hlist_for_each_entry_safe(e, pos, p, h, hnode)
#define SAFE_WALK_2(e, h)	cds_hlist_for_each_entry_safe_2(e, next, h, hnode)
#define SAFE_WALK_KERNEL(e, h)	cds_hlist_for_each_entry_safe(e, p, h, hnode)
#define SAFE_WALKS(X)							\
	X(for_each_entry_safe_deletes_and_frees, SAFE_WALK, pos)	\
	X(for_each_entry_safe_4_args_deletes_and_frees, SAFE_WALK_KERNEL, e) \
	X(for_each_entry_safe_2_deletes_and_frees, SAFE_WALK_2, e)

#define SAFE_WALK_TEST(test, walk_of, ends_null)			\
	Test(hlist, test)						\
	{								\
		CDS_HLIST_HEAD(h);					\
		struct cds_hlist_node *pos = NULL, *p;			\
		struct item *e, *next, *dead[5];			\
		int seen[8];						\
		size_t n = 0, ndead = 0;				\
		int k;							\
									\
		(void)p;						\
		(void)next;						\
		for (k = 5; k >= 1; k--) {				\
			e = malloc(sizeof(*e));				\
			cr_assert_not_null(e);				\
			e->key = k;					\
			cds_hlist_add_head(&e->hnode, &h);		\
		}							\
		walk_of(e, &h) {					\
			cr_assert(!pos || pos == &e->hnode);		\
			seen[n++] = e->key;				\
			if (e->key % 2 == 0) {				\
				cds_hlist_del(&e->hnode);		\
				bury(dead, &ndead, e);			\
			}						\
		}							\
		CHECK_SEEN(seen, n, 1, 2, 3, 4, 5);			\
		cr_assert_null(ends_null);				\
		CHECK_HLIST(&h, 1, 3, 5);				\
		walk_of(e, &h)						\
			break;						\
		cr_assert_eq(e->key, 1);				\
		walk_of(e, &h) {					\
			cds_hlist_del(&e->hnode);			\
			bury(dead, &ndead, e);				\
		}							\
		cr_assert_null(ends_null);				\
		CHECK_HEMPTY(&h);					\
		cr_assert_eq(ndead, 5);					\
		while (ndead)						\
			free(dead[--ndead]);				\
	}
SAFE_WALKS(SAFE_WALK_TEST)
/* clang-format on */

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
