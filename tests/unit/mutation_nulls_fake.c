// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/mutation_nulls_fake.c - cds_hlist_nulls_add_fake() on a node
 * of garbage makes it a list of its own, as its comment says: prev to
 * itself, next the end marker of value 0, so that it reads as hashed, a
 * walk from it meets it alone and ends on that marker, and a delete
 * leaves it as it was.  The garbage is even, so that a next left
 * unwritten does not read as a marker by luck.  Written for a planted
 * bug that forgets the marker (tests/mutants/planted/).
 */
#include "check.h"

TestSuite(mutation_nulls_fake, .timeout = 10);

struct nitem {
	int key;
	struct cds_hlist_nulls_node node;
};

/* before: n of garbage   after: n, prev -> n, next -> (0) */
Test(mutation_nulls_fake, add_fake_makes_a_list_of_one)
{
	struct nitem x, *e;
	struct cds_hlist_nulls_node *pos;
	int seen = 0;

	memset(&x, 0x5a, sizeof(x));
	cr_assert_not(cds_is_a_nulls(x.node.next),
		      "the garbage reads as a marker");
	x.key = 1;
	cds_hlist_nulls_add_fake(&x.node);
	cr_assert_eq(x.node.prev, &x.node);
	cr_assert(cds_is_a_nulls(x.node.next), "next is not an end marker");
	cr_assert_eq(cds_get_nulls_value(x.node.next), 0);
	cr_assert_not(cds_hlist_nulls_unhashed(&x.node));

	pos = &x.node;
	cds_hlist_nulls_for_each_entry_from(e, pos, node) {
		cr_assert_eq(e, &x);
		cr_assert_lt(seen++, 1, "the walk from the fake node goes on");
	}
	cr_assert_eq(seen, 1);
	cr_assert(cds_is_a_nulls(pos));
	cr_assert_eq(cds_get_nulls_value(pos), 0);

	/* A delete rewrites only x's own next: the same marker. */
	cds_hlist_nulls_del(&x.node);
	cr_assert(cds_is_a_nulls(x.node.next));
	cr_assert_eq(cds_get_nulls_value(x.node.next), 0);
	cr_assert_eq(x.node.prev, &x.node);
}
