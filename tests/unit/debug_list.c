// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/debug_list.c - debug mode catches misuse of the circular lists.
 *
 * Compiled in debug mode in both builds (the plain one too): these
 * tests are about the checks.
 */
#ifndef RCULIST_DEBUG
#define RCULIST_DEBUG
#endif
#include <setjmp.h>

#include "debug_expect.h"

TestSuite(debug_list, .timeout = 10, .init = debug_init);

static CDS_LIST_HEAD(h);
static struct item a = { .key = 1 }, b = { .key = 2 }, c = { .key = 3 };

/* [h] <-> a <-> b <-> c */
static void abc(void)
{
	list_fill(&h, ITEMS(&a, &b, &c));
	CHECK_LIST(&h, 1, 2, 3);
}

/* [h] <-> a <-> c, b deleted and poisoned */
static void del_b(void)
{
	abc();
	cds_list_del(&b.link);
	CHECK_LIST(&h, 1, 3);
	check_poisoned(b.link.next, b.link.prev);
}

/* [h] <-> a <-> c, b deleted by del_rcu, which poisons nothing: b still -> c, b <- a */
static void del_rcu_b(void)
{
	abc();
	cds_list_del_rcu(&b.link);
	CHECK_LIST(&h, 1, 3);
	cr_assert_eq(b.link.next, &c.link);
	cr_assert_eq(b.link.prev, &a.link);
}

/* An element and a head never added nor initialised (zeroed), and new elements. */
static struct item z, fresh = { .key = 7 }, lone = { .key = 9 };
static struct cds_list_head zh;

static const char *double_add =
	"element is already on the list, next to the insertion point (double add?)";
static const char *poisoned = "next is 0x100, the poison of a deleted element";

/*
 * The table of report cases: a test per row, each its name, its setup, the
 * call and the report that call makes.
 */
/* clang-format off */
REPORT_TEST(debug_list, double_del, del_b(), cds_list_del(&b.link), "cds_list_del", &b.link, "%s (double delete?)", poisoned)
REPORT_TEST(debug_list, double_del_rcu, del_rcu_b(), cds_list_del_rcu(&b.link), "cds_list_del_rcu", &b.link, "prev->next is %p, expected %p (double delete?)", (void *)&c.link, (void *)&b.link)
REPORT_TEST(debug_list, del_of_zeroed_element, abc(), cds_list_del(&z.link), "cds_list_del", &z.link, "next is NULL (never added nor initialised? use CDS_INIT_LIST_HEAD())")
/* b is re-initialised while a and c still point to it */
REPORT_TEST(debug_list, reinitialised_element_is_caught_at_its_neighbour, { abc(); CDS_INIT_LIST_HEAD(&b.link); }, cds_list_del(&a.link), "cds_list_del", &a.link, "next->prev is %p, expected %p (corrupted list?)", (void *)&b.link, (void *)&a.link)
REPORT_TEST(debug_list, add_of_first_element_at_head, abc(), cds_list_add(&a.link, &h), "cds_list_add", &a.link, "%s", double_add)
REPORT_TEST(debug_list, add_tail_of_last_element, abc(), cds_list_add_tail_rcu(&c.link, &h), "cds_list_add_tail_rcu", &c.link, "%s", double_add)
REPORT_TEST(debug_list, add_to_zeroed_head, , cds_list_add(&a.link, &zh), "cds_list_add", &a.link, "next is NULL (list head not initialised, or adding beside a deleted element?)")
REPORT_TEST(debug_list, add_beside_deleted_element, del_b(), cds_list_add(&a.link, &b.link), "cds_list_add", &a.link, "%s (list head not initialised, or adding beside a deleted element?)", poisoned)
REPORT_TEST(debug_list, replace_of_removed_element, del_b(), cds_list_replace(&b.link, &fresh.link), "cds_list_replace", &b.link, "%s (already removed or replaced?)", poisoned)
REPORT_TEST(debug_list, replace_rcu_of_removed_element, del_rcu_b(), cds_list_replace_rcu(&b.link, &fresh.link), "cds_list_replace_rcu", &b.link, "prev->next is %p, expected %p (already removed or replaced?)", (void *)&c.link, (void *)&b.link)
REPORT_TEST(debug_list, splice_into_itself, abc(), cds_list_splice(&h, &h), "cds_list_splice", &h, "splicing a list into itself")
REPORT_TEST(debug_list, splice_into_own_element, abc(), cds_list_splice_tail_init(&h, &b.link), "cds_list_splice_tail_init", &h, "the insertion point is an element of the list being spliced (splicing a list into itself?)")
/* b.link.prev should be &a.link */
REPORT_TEST(debug_list, hand_corrupted_prev, { abc(); b.link.prev = &h; }, cds_list_add(&fresh.link, &a.link), "cds_list_add", &fresh.link, "next->prev is %p, expected %p (corrupted list?)", (void *)&h, (void *)&a.link)
/* a.link.next skips b */
REPORT_TEST(debug_list, hand_corrupted_next, { abc(); a.link.next = &c.link; }, cds_list_move_tail(&b.link, &h), "cds_list_move_tail", &b.link, "prev->next is %p, expected %p (double delete?)", (void *)&c.link, (void *)&b.link)
/* cds_list_swap() deletes b inside: the report names cds_list_swap */
REPORT_TEST(debug_list, report_names_the_outer_operation, { del_b(); CDS_INIT_LIST_HEAD(&lone.link); }, cds_list_swap(&lone.link, &b.link), "cds_list_swap", &b.link, "%s (double delete?)", poisoned)
/* clang-format on */

Test(debug_list, del_of_initialised_element_does_nothing)
{
	struct item x = { .key = 9 };

	/* before: x <-> x (never added)   after: the same, no report */
	CDS_INIT_LIST_HEAD(&x.link);
	cds_list_del(&x.link);
	cds_list_del(&x.link);
	cr_assert_eq(x.link.next, &x.link);
	cr_assert_eq(x.link.prev, &x.link);
	cr_assert_eq(reports, 0, "%s", last_report);
}

/* The checks come before the writes: a handler that longjmps out leaves the list as it was. */
static jmp_buf escape;

static void escape_handler(const struct rculist_error *err)
{
	(void)err;
	reports++;
	longjmp(escape, 1);
}

Test(debug_list, longjmp_handler_leaves_list_intact)
{
	abc();
	rculist_set_error_handler(escape_handler);
	if (!setjmp(escape))
		cds_list_add(&b.link, &a.link); /* b is already after a */
	cr_assert_eq(reports, 1);
	CHECK_LIST(&h, 1, 2, 3);
	cr_assert(rculist_list_check(&h));
}

Test(debug_list, log_and_continue)
{
	char want[600];

	abc();
	/* A handler that returns: the report goes to stderr, the call goes on. */
	cds_list_add(&a.link, &h); /* a is already first: a is now self-linked */
	cr_assert_eq(reports, 1);
	cr_assert(strstr(last_report, "(double add?)"), "%s", last_report);
	snprintf(want, sizeof(want), "%s\n", last_report);
	fflush(stderr);
	cr_assert_stderr_eq_str(want);
}

Test(debug_list, correct_program_reports_nothing)
{
	struct item n = { .key = 4 }, m = { .key = 5 };
	CDS_LIST_HEAD(g);

	abc();
	/* before: [h] <-> 1 <-> 2 <-> 3 */
	cds_list_move(&c.link, &h);	    /* 3 1 2 */
	cds_list_swap(&a.link, &b.link);    /* 3 2 1 */
	cds_list_replace(&c.link, &n.link); /* 4 2 1 */
	cds_list_add(&c.link, &g);
	cds_list_add_tail(&m.link, &g);		 /* g: 3 5 */
	cds_list_splice_tail_init(&g, &h);	 /* 4 2 1 3 5 */
	cds_list_rotate_left(&h);		 /* 2 1 3 5 4 */
	cds_list_rotate_to_front(&c.link, &h);	 /* 3 5 4 2 1 */
	cds_list_del_init(&m.link);		 /* 3 4 2 1 */
	cds_list_del(&m.link);			 /* m is self-linked: legal */
	cds_list_replace_init(&b.link, &m.link); /* 3 4 5 1 */
	cds_list_del(&b.link);			 /* self-linked: legal */
	cds_list_add_rcu(&b.link, &h);		 /* 2 3 4 5 1 */
	cds_list_del_rcu(&n.link);		 /* 2 3 5 1 */
	cds_list_replace_rcu(&m.link, &n.link);	 /* 2 3 4 1 */
	cds_list_splice(&g, &h);		 /* g empty: nothing */
	cds_list_move_tail(&b.link, &h);	 /* 3 4 1 2 */
	CHECK_LIST(&h, 3, 4, 1, 2);
	cr_assert(rculist_list_check(&h));
	cr_assert_eq(reports, 0, "%s", last_report);
	fflush(stderr);
	cr_assert_stderr_eq_str("");
}
