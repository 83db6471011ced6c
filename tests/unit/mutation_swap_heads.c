// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/mutation_swap_heads.c - cds_hlists_swap_heads_rcu() with
 * either head empty, or both: a table of the four cases, each checking
 * both lists whole (every key, every prev leading back to its own head).
 * Written for a planted bug that follows the left head's first node
 * without testing it for NULL (tests/mutants/planted/).
 */
#include "check.h"

TestSuite(mutation_swap_heads, .timeout = 10);

static struct item it[4];

/* @h -> it[from] <-> ... <-> it[from + n - 1], keys from + 1 on. */
static void hlist_of(struct cds_hlist_head *h, int from, int n)
{
	CDS_INIT_HLIST_HEAD(h);
	for (int i = from + n; i-- > from;) {
		it[i].key = i + 1;
		cds_hlist_add_head(&it[i].hnode, h);
	}
}

/*
 * before: [l] -> @nl nodes (keys 1..)   [r] -> @nr nodes (the next keys)
 * after:  [l] -> r's nodes              [r] -> l's nodes
 */
static void swap_case(int nl, int nr)
{
	struct cds_hlist_head l, r;
	int lkeys[2], rkeys[2];

	memset(it, 0xa5, sizeof(it));
	hlist_of(&l, 0, nl);
	hlist_of(&r, nl, nr);
	for (int i = 0; i < nl; i++)
		rkeys[i] = i + 1;
	for (int i = 0; i < nr; i++)
		lkeys[i] = nl + i + 1;
	cds_hlists_swap_heads_rcu(&l, &r);
	check_hlist_keys(&l, lkeys, (size_t)nr, "l");
	check_hlist_keys(&r, rkeys, (size_t)nl, "r");
	cr_assert_eq(cds_hlist_empty(&l), nr == 0);
	cr_assert_eq(cds_hlist_empty(&r), nl == 0);
}

Test(mutation_swap_heads, both_empty)
{
	swap_case(0, 0);
}

Test(mutation_swap_heads, left_empty)
{
	swap_case(0, 2);
}

Test(mutation_swap_heads, right_empty)
{
	swap_case(2, 0);
}

Test(mutation_swap_heads, neither_empty)
{
	swap_case(2, 2);
}
