// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/debug_hlist_bl.c - debug mode catches misuse of the
 * bit-locked lists: a second delete, a delete of a node never added, a
 * double add, an update or unlock of a list not locked.  Compiled in
 * debug mode in both builds.
 */
#ifndef RCULIST_DEBUG
#define RCULIST_DEBUG
#endif
#include "debug_expect.h"

TestSuite(debug_hlist_bl, .timeout = 10, .init = debug_init);

struct bitem {
	int key;
	struct cds_hlist_bl_node node;
};

static struct cds_hlist_bl_head h;
static struct bitem a = { .key = 1 }, b = { .key = 2 }, c = { .key = 3 };

/* [h] -> a <-> b <-> c, locked */
static void abc(void)
{
	CDS_INIT_HLIST_BL_HEAD(&h);
	cds_hlist_bl_lock(&h);
	cds_hlist_bl_add_head(&c.node, &h);
	cds_hlist_bl_add_head(&b.node, &h);
	cds_hlist_bl_add_head(&a.node, &h);
	cr_assert_eq((uintptr_t)h.first, (uintptr_t)&a.node | 1);
	cr_assert_eq(a.node.next, &b.node);
	cr_assert_eq(b.node.next, &c.node);
}

/* [h] -> a <-> c, b deleted and poisoned */
static void del_b(void)
{
	abc();
	cds_hlist_bl_del(&b.node);
	cr_assert_eq(a.node.next, &c.node);
	cr_assert_eq(c.node.pprev, &a.node.next);
	check_poisoned(b.node.next, b.node.pprev);
}

/* b deleted by del_rcu, which poisons pprev only: readers on b still go on to c */
static void del_rcu_b(void)
{
	abc();
	cds_hlist_bl_del_rcu(&b.node);
	cr_assert_eq(b.node.next, &c.node);
	cr_assert_eq((void *)b.node.pprev, RCULIST_POISON_PREV);
}

/* A node on no list. */
static struct bitem lone = { .key = 9 };

static const char *not_locked =
	"the list is not locked (take cds_hlist_bl_lock() first)";

/* One row a test: its name, setup, call and the report that call makes. */
/* clang-format off */
REPORT_TEST(debug_hlist_bl, double_del, del_b(), cds_hlist_bl_del(&b.node), "cds_hlist_bl_del", &b.node, DOUBLE_DEL("pprev"))
REPORT_TEST(debug_hlist_bl, double_del_rcu, del_rcu_b(), cds_hlist_bl_del_rcu(&b.node), "cds_hlist_bl_del_rcu", &b.node, DOUBLE_DEL("pprev"))
REPORT_TEST(debug_hlist_bl, del_of_never_added_node, CDS_INIT_HLIST_BL_NODE(&lone.node), cds_hlist_bl_del(&lone.node), "cds_hlist_bl_del", &lone.node, "pprev is NULL: the node is on no list (never added, or deleted with cds_hlist_bl_del_init()?)")
REPORT_TEST(debug_hlist_bl, add_head_of_first_node, abc(), cds_hlist_bl_add_head_rcu(&a.node, &h), "cds_hlist_bl_add_head_rcu", &a.node, NODE_DOUBLE_ADD)
REPORT_TEST(debug_hlist_bl, add_behind_itself, abc(), cds_hlist_bl_add_behind(&b.node, &b.node), "cds_hlist_bl_add_behind", &b.node, NODE_DOUBLE_ADD)
REPORT_TEST(debug_hlist_bl, add_head_unlocked, CDS_INIT_HLIST_BL_HEAD(&h), cds_hlist_bl_add_head(&lone.node, &h), "cds_hlist_bl_add_head", &h, "%s", not_locked)
REPORT_TEST(debug_hlist_bl, unlock_unlocked, CDS_INIT_HLIST_BL_HEAD(&h), cds_hlist_bl_unlock(&h), "cds_hlist_bl_unlock", &h, "%s", not_locked)
/* clang-format on */

/* The checks pass on correct use: no report, the lock bit kept. */
Test(debug_hlist_bl, correct_use_is_silent)
{
	struct bitem x = { .key = 4 };

	abc();
	cds_hlist_bl_add_before(&x.node, &a.node);
	cr_assert_eq((uintptr_t)h.first, (uintptr_t)&x.node | 1);
	cds_hlist_bl_del_init(&x.node);
	cds_hlist_bl_del_init(&x.node);
	cds_hlist_bl_add_behind(&x.node, &c.node);
	cds_hlist_bl_del_rcu(&x.node);
	cds_hlist_bl_unlock(&h);
	cr_assert_eq(h.first, &a.node);
	cr_assert_eq(reports, 0, "a report on correct use: %s", last_report);
}
