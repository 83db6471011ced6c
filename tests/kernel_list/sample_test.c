// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/kernel_list/sample_test.c - a KUnit test written with the
 * kernel's list names, for make check-kernel-list: run.sh maps and runs
 * it as it does the kernel's list-test.c, and the check compares the
 * verdicts with sample_test.expected.  Each case takes one path of
 * run.sh and kunit.h: passing (lists both ways; the kernel's hlist
 * spellings), an expectation failing, an assertion ending its case, a
 * crash failing its case alone, a case that does not compile, a klist
 * case cut out, a case skipping itself.  The check compiles it at -O0
 * with -Wall -Wextra -Werror: a warning, from kunit.h or the headers,
 * fails the case it is in.
 */
#include <kunit/test.h>
#include <linux/list.h>

struct thing {
	int key;
	struct list_head link;
	struct hlist_node node;
};

/* [h] -> 1 -> 2 -> 3 walked both ways, then 2 deleted: [h] -> 1 -> 3 */
static void sample_list_both_ways(struct kunit *test)
{
	struct thing t[3], *pos;
	LIST_HEAD(head);
	int i;

	for (i = 0; i < 3; i++) {
		t[i].key = i + 1;
		list_add_tail(&t[i].link, &head);
	}
	i = 0;
	list_for_each_entry(pos, &head, link)
		KUNIT_EXPECT_EQ(test, pos->key, ++i);
	KUNIT_EXPECT_EQ(test, i, 3);
	list_for_each_entry_reverse(pos, &head, link)
		KUNIT_EXPECT_EQ(test, pos->key, i--);
	KUNIT_EXPECT_EQ(test, i, 0);
	list_del(&t[1].link);
	KUNIT_EXPECT_PTR_EQ(test, head.next, &t[0].link);
	KUNIT_EXPECT_PTR_EQ(test, t[0].link.next, &t[2].link);
	KUNIT_EXPECT_PTR_EQ(test, t[2].link.next, &head);
	KUNIT_EXPECT_PTR_EQ(test, head.prev, &t[2].link);
	KUNIT_EXPECT_PTR_EQ(test, t[2].link.prev, &t[0].link);
	KUNIT_EXPECT_PTR_EQ(test, t[0].link.prev, &head);
}

/*
 * HLIST_HEAD_INIT, first, pprev, the 3- and 4-argument iterators, and
 * hlist_entry_safe() of a node not yet initialised (no warning at -O0).
 * [h] -> 1 -> 2, then emptied by the safe walk.
 */
static void sample_hlist_kernel_spellings(struct kunit *test)
{
	struct hlist_head head = HLIST_HEAD_INIT;
	struct thing a, b, *pos;
	struct hlist_node *n;
	int seen = 0;

	KUNIT_EXPECT_PTR_EQ(test, hlist_entry_safe(&a.node, struct thing, node),
			    &a);
	a.key = 1;
	b.key = 2;
	hlist_add_head(&b.node, &head);
	hlist_add_head(&a.node, &head);
	KUNIT_EXPECT_PTR_EQ(test, head.first, &a.node);
	KUNIT_EXPECT_PTR_EQ(test, a.node.pprev, &head.first);
	KUNIT_EXPECT_PTR_EQ(test, a.node.next, &b.node);
	KUNIT_EXPECT_PTR_EQ(test, b.node.pprev, &a.node.next);
	KUNIT_EXPECT_NULL(test, b.node.next);
	/* (the kernel's iterator names are not in .clang-format's ForEachMacros) */
	/* clang-format off */
	hlist_for_each_entry(pos, &head, node)
		seen = seen * 10 + pos->key;
	KUNIT_EXPECT_EQ(test, seen, 12);
	KUNIT_EXPECT_NULL(test, pos);
	hlist_for_each_entry_safe(pos, n, &head, node)
		hlist_del_init(&pos->node);
	/* clang-format on */
	KUNIT_EXPECT_NULL(test, pos);
	KUNIT_EXPECT_TRUE(test, hlist_empty(&head));
	KUNIT_EXPECT_TRUE(test,
			  hlist_unhashed(&a.node) && hlist_unhashed(&b.node));
}

/* Fails: the message is printed, and the case goes on to its end. */
static void sample_expectation_fails(struct kunit *test)
{
	LIST_HEAD(head);

	KUNIT_EXPECT_FALSE_MSG(test, list_empty(&head), "an empty list, %s",
			       "planted");
	KUNIT_EXPECT_TRUE(test, list_empty(&head));
}

/* Fails: the assertion ends the case before the NULL dereference. */
static void sample_assertion_ends_the_case(struct kunit *test)
{
	struct list_head *p = NULL;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_TRUE(test, list_empty(p));
}

/* Fails, alone: the cases after it run. */
static void sample_crash(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, 1);
	abort();
}

/* Does not compile: an operation no header has. */
static void sample_missing_operation(struct kunit *test)
{
	LIST_HEAD(head);

	KUNIT_EXPECT_TRUE(test, list_no_such_operation(&head));
}

/* Cut out with every definition that names klist. */
static struct klist_node *sample_last;

static void sample_klist(struct kunit *test)
{
	struct klist list;

	klist_init(&list, NULL, NULL);
	KUNIT_EXPECT_NULL(test, sample_last);
}

static void sample_skips_itself(struct kunit *test)
{
	kunit_skip(test, "planted skip");
	KUNIT_FAIL(test, "ran on after kunit_skip()");
}

static struct kunit_case sample_list_cases[] = {
	KUNIT_CASE(sample_list_both_ways),
	KUNIT_CASE(sample_hlist_kernel_spellings),
	KUNIT_CASE(sample_expectation_fails),
	KUNIT_CASE(sample_assertion_ends_the_case),
	{},
};

static struct kunit_case sample_other_cases[] = {
	KUNIT_CASE(sample_crash),
	KUNIT_CASE(sample_missing_operation),
	KUNIT_CASE(sample_klist),
	KUNIT_CASE(sample_skips_itself),
	{},
};

static struct kunit_suite sample_list_suite = {
	.name = "sample-list",
	.test_cases = sample_list_cases,
};

static struct kunit_suite sample_other_suite = {
	.name = "sample-other",
	.test_cases = sample_other_cases,
};

kunit_test_suites(&sample_list_suite, &sample_other_suite);

MODULE_DESCRIPTION("run.sh's own test");
