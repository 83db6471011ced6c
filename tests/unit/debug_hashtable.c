// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/debug_hashtable.c - debug mode catches misuse of the hash
 * tables: their operations are the hlist ones, checked as those are,
 * and reported at the caller's line.  Compiled in debug mode in both
 * builds.
 */
#ifndef RCULIST_DEBUG
#define RCULIST_DEBUG
#endif
#include "debug_expect.h"

TestSuite(debug_hashtable, .timeout = 10, .init = debug_init);

static CDS_DEFINE_HASHTABLE(t, 3);
static struct item a = { .key = 1 }, b = { .key = 2 }, c = { .key = 3 };

/* One bucket: [t[hash(7)]] -> c <-> b <-> a */
static struct cds_hlist_head *abc(void)
{
	cds_hash_add(t, &a.hnode, 7);
	cds_hash_add(t, &b.hnode, 7);
	cds_hash_add_rcu(t, &c.hnode, 7);
	CHECK_HLIST(&t[cds_hash_32(7, 3)], 3, 2, 1);
	return &t[cds_hash_32(7, 3)];
}

Test(debug_hashtable, del_twice_is_harmless)
{
	struct cds_hlist_head *bucket = abc();

	/* del_init: the second delete finds the node unhashed, as the kernel's */
	cds_hash_del_rcu(&b.hnode);
	cds_hash_del_rcu(&b.hnode);
	cds_hash_del(&b.hnode);
	CHECK_HLIST(bucket, 3, 1);
	cr_assert_eq(reports, 0, "%s", last_report);
}

/* Cursors of the walks provoked. */
static struct item *cur;
static int cur_bkt;

/* One row a test: its name, setup, call and the report that call makes. */
/* clang-format off */
REPORT_TEST(debug_hashtable, add_rcu_of_an_object_first_in_its_bucket, abc(), cds_hash_add_rcu(t, &c.hnode, 7), "cds_hlist_add_head_rcu", &c.hnode, NODE_DOUBLE_ADD)
/* a.hnode.prev should be &b.hnode */
REPORT_TEST(debug_hashtable, del_rcu_in_a_corrupted_bucket, { abc(); a.hnode.prev = &c.hnode; }, cds_hash_del_rcu(&b.hnode), "cds_hash_del_rcu", &b.hnode, "next->prev is %p, expected %p (corrupted list?)", (void *)&c.hnode, (void *)&b.hnode)
REPORT_TEST(debug_hashtable, del_in_a_corrupted_bucket, { abc(); a.hnode.prev = &c.hnode; }, cds_hash_del(&b.hnode), "cds_hash_del", &b.hnode, "next->prev is %p, expected %p (corrupted list?)", (void *)&c.hnode, (void *)&b.hnode)
REPORT_TEST_NO_RCU_ANALYSIS(debug_hashtable, lookup_outside_a_read_side_section, { abc(); rculist_register_thread(); }, cds_hash_for_each_possible_rcu(t, cur, hnode, 7) (void)cur, "cds_hlist_for_each_entry_rcu_2", NULL, NOT_READING)
REPORT_TEST_NO_RCU_ANALYSIS(debug_hashtable, table_walk_outside_a_read_side_section, { abc(); rculist_register_thread(); }, cds_hash_for_each_rcu(t, cur_bkt, cur, hnode) (void)cur, "cds_hlist_for_each_entry_rcu_2", NULL, NOT_READING)
/* clang-format on */

Test(debug_hashtable, walks_inside_a_section_report_nothing)
{
	struct item *x;
	int bkt, n = 0;

	abc();
	rculist_register_thread();
	rculist_read_lock();
	cds_hash_for_each_possible_rcu(t, x, hnode, 7)
		n++;
	cds_hash_for_each_rcu(t, bkt, x, hnode)
		n++;
	rculist_read_unlock();
	/* _notrace: not checked, even outside a section */
	cds_hash_for_each_possible_rcu_notrace(t, x, hnode, 7)
		n++;
	rculist_unregister_thread();
	cr_assert_eq(n, 9);
	cr_assert_eq(reports, 0, "%s", last_report);
}
