// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/debug_check.c - rculist_list_check() and rculist_hlist_check() on
 * sound and hand-corrupted lists.  The checkers need no debug mode: this
 * file is compiled as the build compiles it (with and without it).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#include <criterion/redirect.h>

static int reports;
static char last[512];

static void record(const struct rculist_error *err)
{
	reports++;
	snprintf(last, sizeof(last), "%s", err->message);
}

static void init(void)
{
	cr_redirect_stderr();
	rculist_set_error_handler(record);
}

TestSuite(debug_check, .timeout = 10, .init = init);

static CDS_LIST_HEAD(h);
static CDS_HLIST_HEAD(hh);
static struct item a = { .key = 1 }, b = { .key = 2 }, c = { .key = 3 };

/* [h] <-> a <-> b <-> c   [hh] -> a <-> b <-> c */
static void abc(void)
{
	cds_list_add_tail(&a.link, &h);
	cds_list_add_tail(&b.link, &h);
	cds_list_add_tail(&c.link, &h);
	cds_hlist_add_head(&c.hnode, &hh);
	cds_hlist_add_head(&b.hnode, &hh);
	cds_hlist_add_head(&a.hnode, &hh);
}

/* Assert one report, exactly @want after the "rculist: " prefix. */
static void check_report(const char *fn, const void *head, int line,
			 const char *want)
{
	char full[600];

	snprintf(full, sizeof(full), "rculist: %s(%p) at %s:%d: %s", fn, head,
		 __FILE__, line, want);
	cr_assert_eq(reports, 1, "%d reports, last: %s", reports, last);
	cr_assert_str_eq(last, full);
}

Test(debug_check, sound_lists_pass)
{
	struct cds_list_head empty;

	CDS_INIT_LIST_HEAD(&empty);
	cr_assert(rculist_list_check(&empty));
	cr_assert(rculist_hlist_check(&hh));
	abc();
	cr_assert(rculist_list_check(&h));
	cr_assert(rculist_hlist_check(&hh));
	cr_assert_eq(reports, 0, "%s", last);
}

Test(debug_check, corrupted_next)
{
	char want[256];
	int line;

	abc();
	a.link.next = &c.link; /* skips b */
	line = __LINE__ + 1;
	cr_assert_not(rculist_list_check(&h));
	snprintf(want, sizeof(want),
		 "element #1 (%p)->next->prev is %p, expected %p (corrupted next or prev?)",
		 (void *)&a.link, (void *)&b.link, (void *)&a.link);
	check_report("rculist_list_check", &h, line, want);
}

Test(debug_check, corrupted_prev_of_head)
{
	char want[256];
	int line;

	abc();
	h.prev = &b.link; /* should be c */
	line = __LINE__ + 1;
	cr_assert_not(rculist_list_check(&h));
	snprintf(want, sizeof(want),
		 "element #3 (%p)->next->prev is %p, expected %p (corrupted next or prev?)",
		 (void *)&c.link, (void *)&b.link, (void *)&c.link);
	check_report("rculist_list_check", &h, line, want);
}

Test(debug_check, null_and_poisoned_links)
{
	char want[256];
	int line;

	abc();
	b.link.next = NULL;
	line = __LINE__ + 1;
	cr_assert_not(rculist_list_check(&h));
	snprintf(want, sizeof(want),
		 "element #2 (%p)->next is NULL (corrupted list?)",
		 (void *)&b.link);
	check_report("rculist_list_check", &h, line, want);

	reports = 0;
	b.link.next = RCULIST_POISON_NEXT;
	line = __LINE__ + 1;
	cr_assert_not(rculist_list_check(&h));
	snprintf(want, sizeof(want),
		 "element #2 (%p)->next is 0x100, the poison of a deleted element (corrupted list?)",
		 (void *)&b.link);
	check_report("rculist_list_check", &h, line, want);
}

Test(debug_check, cycle_that_misses_the_head_ends, .timeout = 2)
{
	char want[256];
	int line;

	abc();
	/* [h] -> a -> b -> c -> a ... with c <-> a consistent both ways */
	c.link.next = &a.link;
	line = __LINE__ + 1;
	cr_assert_not(rculist_list_check(&h));
	snprintf(want, sizeof(want),
		 "element #3 (%p)->next->prev is %p, expected %p (corrupted next or prev?)",
		 (void *)&c.link, (void *)&h, (void *)&c.link);
	check_report("rculist_list_check", &h, line, want);
}

Test(debug_check, hlist_corrupted_prev)
{
	char want[256];
	int line;

	abc();
	c.hnode.prev = &a.hnode; /* should be b */
	line = __LINE__ + 1;
	cr_assert_not(rculist_hlist_check(&hh));
	snprintf(want, sizeof(want),
		 "element #3 (%p)->prev is %p, expected %p (corrupted next or prev?)",
		 (void *)&c.hnode, (void *)&a.hnode, (void *)&b.hnode);
	check_report("rculist_hlist_check", &hh, line, want);
}

Test(debug_check, hlist_poisoned_next)
{
	char want[256];
	int line;

	abc();
	b.hnode.next = RCULIST_POISON_NEXT;
	line = __LINE__ + 1;
	cr_assert_not(rculist_hlist_check(&hh));
	snprintf(want, sizeof(want),
		 "element #3 is 0x100, the poison of a deleted node (corrupted list?)");
	check_report("rculist_hlist_check", &hh, line, want);
}

Test(debug_check, hlist_cycle_ends, .timeout = 2)
{
	char want[256];
	int line;

	abc();
	c.hnode.next = &a.hnode; /* back to the first node */
	line = __LINE__ + 1;
	cr_assert_not(rculist_hlist_check(&hh));
	snprintf(want, sizeof(want),
		 "element #4 (%p)->prev is %p, expected %p (corrupted next or prev?)",
		 (void *)&a.hnode, (void *)&hh, (void *)&c.hnode);
	check_report("rculist_hlist_check", &hh, line, want);
}

Test(debug_check, default_handler_aborts_after_one_line, .signal = SIGABRT)
{
	abc();
	rculist_set_error_handler(NULL);
	b.link.prev = &c.link;
	rculist_list_check(&h);
}

Test(debug_check, report_goes_to_stderr)
{
	char want[600];

	abc();
	a.link.prev = &b.link;
	cr_assert_not(rculist_list_check(&h));
	cr_assert_eq(reports, 1);
	snprintf(want, sizeof(want), "%s\n", last);
	fflush(stderr);
	cr_assert_stderr_eq_str(want);
}

/* Called by its own name (without the macro): no call site to report. */
Test(debug_check, function_without_call_site)
{
	char want[256];

	abc();
	b.link.prev = &c.link;
	cr_assert_not((rculist_list_check)(&h));
	snprintf(want, sizeof(want),
		 "rculist: rculist_list_check(%p): element #1 (%p)->next->prev is %p, expected %p (corrupted next or prev?)",
		 (void *)&h, (void *)&a.link, (void *)&c.link, (void *)&a.link);
	cr_assert_str_eq(last, want);
}
