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
	cds_hlist_add_head(&c.hnode, &h);
	cds_hlist_add_head(&b.hnode, &h);
	cds_hlist_add_head(&a.hnode, &h);
	CHECK_HLIST(&h, 1, 2, 3);
}

Test(debug_hlist, double_del, .signal = SIGABRT)
{
	abc();
	/* before: [h] -> a <-> b <-> c   after: [h] -> a <-> c, b poisoned */
	cds_hlist_del(&b.hnode);
	CHECK_HLIST(&h, 1, 3);
	cr_assert_eq(b.hnode.next, RCULIST_POISON_NEXT);
	cr_assert_eq(b.hnode.prev, RCULIST_POISON_PREV);
	EXPECT_REPORT("cds_hlist_del", &b.hnode,
		      "prev is 0x200, the poison of a deleted element (double delete?)");
	PROVOKE(cds_hlist_del(&b.hnode));
}

Test(debug_hlist, double_del_rcu, .signal = SIGABRT)
{
	abc();
	/* del_rcu poisons prev only: readers on b still go on to c */
	cds_hlist_del_rcu(&b.hnode);
	CHECK_HLIST(&h, 1, 3);
	cr_assert_eq(b.hnode.next, &c.hnode);
	cr_assert_eq(b.hnode.prev, RCULIST_POISON_PREV);
	EXPECT_REPORT("cds_hlist_del_rcu", &b.hnode,
		      "prev is 0x200, the poison of a deleted element (double delete?)");
	PROVOKE(cds_hlist_del_rcu(&b.hnode));
}

Test(debug_hlist, del_init_after_del, .signal = SIGABRT)
{
	abc();
	cds_hlist_del(&a.hnode);
	EXPECT_REPORT("cds_hlist_del_init", &a.hnode,
		      "prev is 0x200, the poison of a deleted element (double delete?)");
	PROVOKE(cds_hlist_del_init(&a.hnode));
}

Test(debug_hlist, del_of_never_added_node, .signal = SIGABRT)
{
	struct item x = { .key = 9 };

	CDS_INIT_HLIST_NODE(&x.hnode);
	EXPECT_REPORT("cds_hlist_del", &x.hnode,
		      "prev is NULL: the node is on no list (never added, or deleted with a _init delete?)");
	PROVOKE(cds_hlist_del(&x.hnode));
}

Test(debug_hlist, add_head_of_first_node, .signal = SIGABRT)
{
	abc();
	EXPECT_REPORT("cds_hlist_add_head_rcu", &a.hnode,
		      "node is already on the list, next to the insertion point (double add?)");
	PROVOKE(cds_hlist_add_head_rcu(&a.hnode, &h));
}

Test(debug_hlist, add_behind_itself, .signal = SIGABRT)
{
	abc();
	EXPECT_REPORT("cds_hlist_add_behind", &b.hnode,
		      "node is already on the list, next to the insertion point (double add?)");
	PROVOKE(cds_hlist_add_behind(&b.hnode, &a.hnode));
}

Test(debug_hlist, add_before_unhashed_node, .signal = SIGABRT)
{
	struct item x = { .key = 9 }, n = { .key = 7 };

	CDS_INIT_HLIST_NODE(&x.hnode);
	EXPECT_REPORT("cds_hlist_add_before_rcu", &n.hnode,
		      "prev is NULL (inserting beside a node that is on no list?)");
	PROVOKE(cds_hlist_add_before_rcu(&n.hnode, &x.hnode));
}

Test(debug_hlist, replace_rcu_of_removed_node, .signal = SIGABRT)
{
	struct item n = { .key = 7 };

	abc();
	cds_hlist_del_init_rcu(&c.hnode);
	EXPECT_REPORT("cds_hlist_replace_rcu", &c.hnode,
		      "prev is NULL: the node is on no list (never added, or deleted with a _init delete?)");
	PROVOKE(cds_hlist_replace_rcu(&c.hnode, &n.hnode));
}

Test(debug_hlist, hand_corrupted_prev, .signal = SIGABRT)
{
	abc();
	c.hnode.prev = &a.hnode; /* should be &b.hnode */
	EXPECT_REPORT("cds_hlist_del", &b.hnode,
		      "next->prev is %p, expected %p (corrupted list?)",
		      (void *)&a.hnode, (void *)&b.hnode);
	PROVOKE(cds_hlist_del(&b.hnode));
}

Test(debug_hlist, hand_corrupted_next, .signal = SIGABRT)
{
	struct item n = { .key = 7 };

	abc();
	a.hnode.next = &c.hnode; /* skips b */
	EXPECT_REPORT("cds_hlist_add_before", &n.hnode,
		      "prev->next is %p, expected %p (corrupted list?)",
		      (void *)&c.hnode, (void *)&b.hnode);
	PROVOKE(cds_hlist_add_before(&n.hnode, &b.hnode));
}

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
