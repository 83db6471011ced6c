// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/debug_check.c - rculist_list_check() and rculist_hlist_check() on
 * sound and hand-corrupted lists.  The checkers need no debug mode: this
 * file is compiled as the build compiles it (with and without it).
 */
#include <signal.h>
#include <stdarg.h>
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
	list_fill(&h, ITEMS(&a, &b, &c));
	hlist_fill(&hh, ITEMS(&a, &b, &c));
}

/*
 * Assert that the check returned false (@ok) and made one report, exactly
 * "rculist: @fn(@head) at FILE:@line: <detail>".
 */
static void check_fails(int ok, const char *fn, const void *head, int line,
			const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void check_fails(int ok, const char *fn, const void *head, int line,
			const char *fmt, ...)
{
	char want[256], full[600];
	va_list ap;

	cr_assert_not(ok, "%s passed a corrupted list", fn);
	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	snprintf(full, sizeof(full), "rculist: %s(%p) at %s:%d: %s", fn, head,
		 __FILE__, line, want);
	cr_assert_eq(reports, 1, "%d reports, last: %s", reports, last);
	cr_assert_str_eq(last, full);
}

/* CHECK_FAILS(check, head, detail...): check_fails() of check(head), called on this line. */
#define CHECK_FAILS(check, head, ...) \
	check_fails(check(head), #check, head, __LINE__, __VA_ARGS__)

/*
 * CORRUPTION_TEST(name, corrupt, check, head, detail...): the test
 * debug_check/name corrupts abc() by @corrupt, then CHECK_FAILS().
 */
#define CORRUPTION_TEST(name, corrupt, check, head, ...) \
	Test(debug_check, name)                          \
	{                                                \
		abc();                                   \
		corrupt;                                 \
		CHECK_FAILS(check, head, __VA_ARGS__);   \
	}

#define NEXT_PREV \
	"element #%d (%p)->next->prev is %p, expected %p (corrupted next or prev?)"
#define HLIST_PREV \
	"element #%d (%p)->prev is %p, expected %p (corrupted next or prev?)"

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

/* One row a corruption: its test name, the corruption and the report. */
/* clang-format off */
/* a.link.next skips b */
CORRUPTION_TEST(corrupted_next, a.link.next = &c.link, rculist_list_check, &h, NEXT_PREV, 1, (void *)&a.link, (void *)&b.link, (void *)&a.link)
/* h.prev should be c */
CORRUPTION_TEST(corrupted_prev_of_head, h.prev = &b.link, rculist_list_check, &h, NEXT_PREV, 3, (void *)&c.link, (void *)&b.link, (void *)&c.link)
/* c.hnode.prev should be b */
CORRUPTION_TEST(hlist_corrupted_prev, c.hnode.prev = &a.hnode, rculist_hlist_check, &hh, HLIST_PREV, 3, (void *)&c.hnode, (void *)&a.hnode, (void *)&b.hnode)
CORRUPTION_TEST(hlist_poisoned_next, b.hnode.next = RCULIST_POISON_NEXT, rculist_hlist_check, &hh, "element #3 is 0x100, the poison of a deleted node (corrupted list?)")
/* clang-format on */

Test(debug_check, null_and_poisoned_links)
{
	abc();
	b.link.next = NULL;
	CHECK_FAILS(rculist_list_check, &h,
		    "element #2 (%p)->next is NULL (corrupted list?)",
		    (void *)&b.link);
	reports = 0;
	b.link.next = RCULIST_POISON_NEXT;
	CHECK_FAILS(rculist_list_check, &h,
		    "element #2 (%p)->next is 0x100, the poison of a deleted element (corrupted list?)",
		    (void *)&b.link);
}

Test(debug_check, cycle_that_misses_the_head_ends, .timeout = 2)
{
	abc();
	/* [h] -> a -> b -> c -> a ... with c <-> a consistent both ways */
	c.link.next = &a.link;
	CHECK_FAILS(rculist_list_check, &h, NEXT_PREV, 3, (void *)&c.link,
		    (void *)&h, (void *)&c.link);
}

Test(debug_check, hlist_cycle_ends, .timeout = 2)
{
	abc();
	c.hnode.next = &a.hnode; /* back to the first node */
	CHECK_FAILS(rculist_hlist_check, &hh, HLIST_PREV, 4, (void *)&a.hnode,
		    (void *)&hh, (void *)&c.hnode);
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
