// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/debug_hlist.c - debug mode catches misuse of the linear lists.
 * Compiled in debug mode in both builds.
 */
#ifndef RCULIST_DEBUG
#define RCULIST_DEBUG
#endif
#include "debug_expect.h"

TestSuite(debug_hlist, .timeout = 10, .init = debug_init);

static CDS_HLIST_HEAD(h);
static struct item a = { .key = 1 }, b = { .key = 2 }, c = { .key = 3 };

/* [h] -> a <-> b <-> c */
static void abc(void)
{
	hlist_fill(&h, ITEMS(&a, &b, &c));
	CHECK_HLIST(&h, 1, 2, 3);
}

/* [h] -> a <-> c, b deleted and poisoned */
static void del_b(void)
{
	abc();
	cds_hlist_del(&b.hnode);
	CHECK_HLIST(&h, 1, 3);
	check_poisoned(b.hnode.next, b.hnode.prev);
}

/* [h] -> a <-> c, b deleted by del_rcu, which poisons prev only: readers on b still go on to c */
static void del_rcu_b(void)
{
	abc();
	cds_hlist_del_rcu(&b.hnode);
	CHECK_HLIST(&h, 1, 3);
	cr_assert_eq(b.hnode.next, &c.hnode);
	cr_assert_eq(b.hnode.prev, RCULIST_POISON_PREV);
}

/* A node on no list, and a new one. */
static struct item lone = { .key = 9 }, fresh = { .key = 7 };

static const char *on_no_list =
	"prev is NULL: the node is on no list (never added, or deleted with a _init delete?)";

/* One row a test: its name, setup, call and the report that call makes. */
/* clang-format off */
REPORT_TEST(debug_hlist, double_del, del_b(), cds_hlist_del(&b.hnode), "cds_hlist_del", &b.hnode, DOUBLE_DEL("prev"))
REPORT_TEST(debug_hlist, double_del_rcu, del_rcu_b(), cds_hlist_del_rcu(&b.hnode), "cds_hlist_del_rcu", &b.hnode, DOUBLE_DEL("prev"))
REPORT_TEST(debug_hlist, del_init_after_del, { abc(); cds_hlist_del(&a.hnode); }, cds_hlist_del_init(&a.hnode), "cds_hlist_del_init", &a.hnode, DOUBLE_DEL("prev"))
REPORT_TEST(debug_hlist, del_of_never_added_node, CDS_INIT_HLIST_NODE(&lone.hnode), cds_hlist_del(&lone.hnode), "cds_hlist_del", &lone.hnode, "%s", on_no_list)
REPORT_TEST(debug_hlist, add_head_of_first_node, abc(), cds_hlist_add_head_rcu(&a.hnode, &h), "cds_hlist_add_head_rcu", &a.hnode, NODE_DOUBLE_ADD)
REPORT_TEST(debug_hlist, add_behind_itself, abc(), cds_hlist_add_behind(&b.hnode, &a.hnode), "cds_hlist_add_behind", &b.hnode, NODE_DOUBLE_ADD)
REPORT_TEST(debug_hlist, add_before_unhashed_node, CDS_INIT_HLIST_NODE(&lone.hnode), cds_hlist_add_before_rcu(&fresh.hnode, &lone.hnode), "cds_hlist_add_before_rcu", &fresh.hnode, "prev is NULL (inserting beside a node that is on no list?)")
REPORT_TEST(debug_hlist, replace_rcu_of_removed_node, { abc(); cds_hlist_del_init_rcu(&c.hnode); }, cds_hlist_replace_rcu(&c.hnode, &fresh.hnode), "cds_hlist_replace_rcu", &c.hnode, "%s", on_no_list)
/* c.hnode.prev should be &b.hnode */
REPORT_TEST(debug_hlist, hand_corrupted_prev, { abc(); c.hnode.prev = &a.hnode; }, cds_hlist_del(&b.hnode), "cds_hlist_del", &b.hnode, "next->prev is %p, expected %p (corrupted list?)", (void *)&a.hnode, (void *)&b.hnode)
/* a.hnode.next skips b */
REPORT_TEST(debug_hlist, hand_corrupted_next, { abc(); a.hnode.next = &c.hnode; }, cds_hlist_add_before(&fresh.hnode, &b.hnode), "cds_hlist_add_before", &fresh.hnode, "prev->next is %p, expected %p (corrupted list?)", (void *)&c.hnode, (void *)&b.hnode)
/* clang-format on */

Test(debug_hlist, correct_program_reports_nothing)
{
	struct item n = { .key = 4 }, m = { .key = 5 };
	CDS_HLIST_HEAD(g);

	abc();
	/* before: [h] -> 1 <-> 2 <-> 3 */
	cds_hlist_add_before(&n.hnode, &b.hnode);     /* 1 4 2 3 */
	cds_hlist_add_behind(&m.hnode, &c.hnode);     /* 1 4 2 3 5 */
	cds_hlist_del(&a.hnode);		      /* 4 2 3 5 */
	cds_hlist_del_init(&b.hnode);		      /* 4 3 5 */
	cds_hlist_del_init(&b.hnode);		      /* unhashed: nothing */
	cds_hlist_add_head_rcu(&b.hnode, &h);	      /* 2 4 3 5 */
	cds_hlist_del_rcu(&n.hnode);		      /* 2 3 5 */
	cds_hlist_replace_rcu(&c.hnode, &a.hnode);    /* 2 1 5 */
	cds_hlist_del_init_rcu(&m.hnode);	      /* 2 1 */
	cds_hlist_add_tail_rcu(&m.hnode, &h);	      /* 2 1 5 */
	cds_hlist_add_before_rcu(&c.hnode, &a.hnode); /* 2 3 1 5 */
	cds_hlist_move_list(&h, &g);
	CHECK_HLIST(&g, 2, 3, 1, 5);
	cr_assert(cds_hlist_empty(&h));
	cr_assert(rculist_hlist_check(&g));
	cr_assert_eq(reports, 0, "%s", last_report);
	fflush(stderr);
	cr_assert_stderr_eq_str("");
}
