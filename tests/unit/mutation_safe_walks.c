// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/mutation_safe_walks.c - every _safe iterator lets its body
 * take the element it stands on away: here each visited element moves to
 * the front of another list, g, so that its next no longer leads to the
 * rest of the walked list (a deleted element's next, left as it was
 * outside debug mode, would hide an iterator that reads it after the
 * body).  The walk must still visit exactly the elements it started
 * from, in order, end where the iterator says, and leave both lists
 * whole.  Each walk is bounded (WALK_MAX).  Written for planted bugs
 * that make the _safe iterators read the cursor's next after the body
 * (tests/mutants/planted/).
 */
#include "check.h"

TestSuite(mutation_safe_walks, .timeout = 10);

#define WALK_MAX 8

static struct item it[4];
static struct cds_list_head h, g;
static struct cds_hlist_head hh, hg;
static int seen[WALK_MAX];
static size_t nseen;

#define LI(ch) (&it[(ch) - 'a'])

static void see(int key)
{
	cr_assert_lt(nseen, (size_t)WALK_MAX,
		     "the walk went on past %d elements (into the list its "
		     "elements moved to?)",
		     WALK_MAX);
	seen[nseen++] = key;
}

static void check_seen(const char *keys)
{
	size_t n = strlen(keys);

	cr_assert_eq(nseen, n, "visited %zu elements, expected %zu (\"%s\")",
		     nseen, n, keys);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(seen[i], keys[i], "visit [%zu] is %c, expected %c",
			     i, seen[i], keys[i]);
}

/* [h] <-> a <-> b <-> c <-> d, [g] empty; [hh] -> a -> b -> c -> d, [hg] empty */
static void setup(void)
{
	memset(it, 0xa5, sizeof(it));
	nseen = 0;
	CDS_INIT_LIST_HEAD(&h);
	CDS_INIT_LIST_HEAD(&g);
	CDS_INIT_HLIST_HEAD(&hh);
	CDS_INIT_HLIST_HEAD(&hg);
	for (int i = 0; i < 4; i++) {
		it[i].key = 'a' + i;
		cds_list_add_tail(&it[i].link, &h);
	}
	for (int i = 4; i-- > 0;)
		cds_hlist_add_head(&it[i].hnode, &hh);
}

/* The element visited moves to the front of g. */
static void take(struct item *e)
{
	see(e->key);
	cds_list_move(&e->link, &g);
}

static void htake(struct item *e)
{
	see(e->key);
	cds_hlist_del(&e->hnode);
	cds_hlist_add_head(&e->hnode, &hg);
}

/*
 * A walk of [h] from @start (0: the iterator's own start), taking every
 * element it visits: it visits @visits, and leaves [h] <-> @left and
 * [g] <-> @moved (the visits, last first).
 * X(test, walk, start, visits, left, moved)
 */
/* clang-format off */
/* The link walks use the cursor pos; the entry walks start from e. */
#define LINK_SAFE(e)		  cds_list_for_each_safe(pos, p, &h)	\
					take(ITEM_OF(pos))
#define LINK_PREV_SAFE(e)	  cds_list_for_each_prev_safe(pos, p, &h) \
					take(ITEM_OF(pos))
#define ENTRY_SAFE(e)		  cds_list_for_each_entry_safe(e, n, &h, link) \
					take(e)
#define ENTRY_SAFE_REVERSE(e)	  cds_list_for_each_entry_safe_reverse(e, n, &h, link) \
					take(e)
#define ENTRY_SAFE_FROM(e)	  cds_list_for_each_entry_safe_from(e, n, &h, link) \
					take(e)
#define ENTRY_SAFE_CONTINUE(e)	  cds_list_for_each_entry_safe_continue(e, n, &h, link) \
					take(e)
#define ITEM_OF(l) cds_list_entry(l, struct item, link)

#define LIST_SAFE_WALKS(X)						\
	X(list_for_each_safe_takes_each, LINK_SAFE, 0, "abcd", "", "dcba") \
	X(list_for_each_prev_safe_takes_each, LINK_PREV_SAFE, 0, "dcba", "", "abcd") \
	X(list_for_each_entry_safe_takes_each, ENTRY_SAFE, 0, "abcd", "", "dcba") \
	X(list_for_each_entry_safe_reverse_takes_each, ENTRY_SAFE_REVERSE, 0, "dcba", "", "abcd") \
	X(list_for_each_entry_safe_from_takes_each, ENTRY_SAFE_FROM, 'b', "bcd", "a", "dcb") \
	X(list_for_each_entry_safe_continue_takes_each, ENTRY_SAFE_CONTINUE, 'a', "bcd", "a", "dcb")

#define LIST_SAFE_TEST(test, walk, start, visits, left, moved)		\
	Test(mutation_safe_walks, test)					\
	{								\
		struct cds_list_head *pos = NULL, *p;			\
		struct item *e = NULL, *n;				\
									\
		(void)p;						\
		(void)n;						\
		(void)pos;						\
		(void)e;						\
		setup();						\
		if (start)						\
			e = LI(start);					\
		walk(e);						\
		check_seen(visits);					\
		check_list_str(&h, left);				\
		check_list_str(&g, moved);				\
	}
/* clang-format on */
LIST_SAFE_WALKS(LIST_SAFE_TEST)

/*
 * The hlist _safe walks, each visited node moving to the front of [hg]:
 * visits a, b, c, d, leaves [hh] empty and [hg] -> d -> c -> b -> a, the
 * cursor NULL at the end.
 */
static void check_hlists_after(void)
{
	check_seen("abcd");
	cr_assert_null(hh.next, "hh is not empty");
	CHECK_HLIST(&hg, 'd', 'c', 'b', 'a');
}

Test(mutation_safe_walks, hlist_for_each_safe_takes_each)
{
	struct cds_hlist_node *pos, *p;

	setup();
	cds_hlist_for_each_safe(pos, p, &hh)
		htake(cds_hlist_entry(pos, struct item, hnode));
	cr_assert_null(pos);
	check_hlists_after();
}

Test(mutation_safe_walks, hlist_for_each_entry_safe_takes_each)
{
	struct cds_hlist_node *pos, *p;
	struct item *e;

	setup();
	cds_hlist_for_each_entry_safe(e, pos, p, &hh, hnode)
		htake(e);
	cr_assert_null(pos);
	check_hlists_after();
}

Test(mutation_safe_walks, hlist_for_each_entry_safe_2_takes_each)
{
	struct item *e, *n;

	setup();
	cds_hlist_for_each_entry_safe_2(e, n, &hh, hnode)
		htake(e);
	cr_assert_null(e);
	check_hlists_after();
}

/* ------------------------------------------ nulls and bit-locked lists */

struct xitem {
	int key;
	struct cds_hlist_nulls_node nnode;
	struct cds_hlist_bl_node bnode;
};

static struct xitem xit[4];

/*
 * [nh] -> a -> b -> c -> d -> (1) walked by cds_hlist_nulls_for_each_entry_safe,
 * each node moving to the front of [ng] -> (2): visits a, b, c, d, ends
 * on nh's marker (1), leaves [nh] -> (1) and [ng] -> d -> c -> b -> a -> (2).
 */
Test(mutation_safe_walks, nulls_for_each_entry_safe_takes_each)
{
	struct cds_hlist_nulls_head nh, ng;
	struct cds_hlist_nulls_node *pos, *prev;
	struct xitem *e;
	const char *want = "dcba";

	memset(xit, 0x5a, sizeof(xit));
	nseen = 0;
	CDS_INIT_HLIST_NULLS_HEAD(&nh, 1);
	CDS_INIT_HLIST_NULLS_HEAD(&ng, 2);
	for (int i = 4; i-- > 0;) {
		xit[i].key = 'a' + i;
		cds_hlist_nulls_add_head(&xit[i].nnode, &nh);
	}
	cds_hlist_nulls_for_each_entry_safe(e, pos, &nh, nnode) {
		see(e->key);
		cds_hlist_nulls_del(&e->nnode);
		cds_hlist_nulls_add_head(&e->nnode, &ng);
	}
	check_seen("abcd");
	cr_assert(cds_is_a_nulls(pos));
	cr_assert_eq(cds_get_nulls_value(pos), 1);
	cr_assert(cds_is_a_nulls(nh.next) && cds_get_nulls_value(nh.next) == 1,
		  "nh is not empty");
	prev = (struct cds_hlist_nulls_node *)(void *)&ng;
	pos = ng.next;
	for (size_t i = 0; i < 4; i++) {
		cr_assert(!cds_is_a_nulls(pos), "ng ends after %zu", i);
		cr_assert_eq(pos->prev, prev, "ng [%zu]->prev is wrong", i);
		e = cds_hlist_nulls_entry(pos, struct xitem, nnode);
		cr_assert_eq(e->key, want[i], "ng [%zu] is %c", i, e->key);
		prev = pos;
		pos = pos->next;
	}
	cr_assert(cds_is_a_nulls(pos) && cds_get_nulls_value(pos) == 2,
		  "ng does not end on its own marker");
}

/* The same with cds_hlist_bl_for_each_entry_safe, [bh] to [bg], both locked. */
Test(mutation_safe_walks, bl_for_each_entry_safe_takes_each)
{
	struct cds_hlist_bl_head bh, bg;
	struct cds_hlist_bl_node *pos, *n, **pprev;
	struct xitem *e;
	const char *want = "dcba";

	memset(xit, 0x5a, sizeof(xit));
	nseen = 0;
	CDS_INIT_HLIST_BL_HEAD(&bh);
	CDS_INIT_HLIST_BL_HEAD(&bg);
	cds_hlist_bl_lock(&bh);
	cds_hlist_bl_lock(&bg);
	for (int i = 4; i-- > 0;) {
		xit[i].key = 'a' + i;
		cds_hlist_bl_add_head(&xit[i].bnode, &bh);
	}
	cds_hlist_bl_for_each_entry_safe(e, pos, n, &bh, bnode) {
		see(e->key);
		cds_hlist_bl_del(&e->bnode);
		cds_hlist_bl_add_head(&e->bnode, &bg);
	}
	check_seen("abcd");
	cr_assert_null(pos);
	cr_assert(cds_hlist_bl_empty(&bh), "bh is not empty");
	cr_assert(cds_hlist_bl_is_locked(&bh) && cds_hlist_bl_is_locked(&bg));
	cds_hlist_bl_unlock(&bh);
	cds_hlist_bl_unlock(&bg);
	pprev = &bg.first;
	pos = bg.first;
	for (size_t i = 0; i < 4; i++) {
		cr_assert_not_null(pos, "bg ends after %zu", i);
		cr_assert_eq(pos->pprev, pprev, "bg [%zu]->pprev is wrong", i);
		e = cds_hlist_bl_entry(pos, struct xitem, bnode);
		cr_assert_eq(e->key, want[i], "bg [%zu] is %c", i, e->key);
		pprev = &pos->next;
		pos = pos->next;
	}
	cr_assert_null(pos, "bg is longer than 4");
}
