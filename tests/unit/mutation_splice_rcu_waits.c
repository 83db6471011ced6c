// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/mutation_splice_rcu_waits.c - cds_list_splice_init_rcu() and
 * cds_list_splice_tail_init_rcu() wait for a grace period between
 * emptying the source and linking its elements into the destination (so
 * that readers still inside the source have left it), as their comment
 * says: a cookie taken before the call is satisfied when it returns.
 * One thread, no reader: the concurrent suites show the readers' side
 * (conc_updates); this fails every run, not just when a reader is
 * caught inside the source.  Written for a planted bug that drops the
 * wait (tests/mutants/planted/).
 */
#include "check.h"

TestSuite(mutation_splice_rcu_waits, .timeout = 10);

static struct item it[3];

/*
 * before: [l] <-> a <-> b   [h] <-> x
 * after:  [l]   [h] <-> a <-> b <-> x (or x <-> a <-> b for the tail
 *	   form), a full grace period elapsed during the call
 */
static void splice_case(int tail)
{
	struct cds_list_head l, h;
	struct rculist_gp_cookie cookie;

	memset(it, 0xa5, sizeof(it));
	it[0].key = 'a';
	it[1].key = 'b';
	it[2].key = 'x';
	CDS_INIT_LIST_HEAD(&l);
	CDS_INIT_LIST_HEAD(&h);
	cds_list_add_tail(&it[0].link, &l);
	cds_list_add_tail(&it[1].link, &l);
	cds_list_add_tail(&it[2].link, &h);

	cookie = rculist_get_state_synchronize_rcu();
	cr_assert_not(rculist_poll_state_synchronize_rcu(cookie),
		      "a grace period elapsed before the splice");
	if (tail)
		cds_list_splice_tail_init_rcu(&l, &h);
	else
		cds_list_splice_init_rcu(&l, &h);
	cr_assert(rculist_poll_state_synchronize_rcu(cookie),
		  "the splice returned without waiting for a grace period");
	CHECK_EMPTY(&l);
	if (tail)
		CHECK_LIST(&h, 'x', 'a', 'b');
	else
		CHECK_LIST(&h, 'a', 'b', 'x');
}

Test(mutation_splice_rcu_waits, splice_init_rcu)
{
	splice_case(0);
}

Test(mutation_splice_rcu_waits, splice_tail_init_rcu)
{
	splice_case(1);
}
