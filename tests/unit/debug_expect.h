/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/unit/debug_expect.h - expecting the reports of debug mode.
 *
 * A test announces the one report it provokes with EXPECT_REPORT(): the
 * operation, the element printed in it, and the detail; then makes the
 * call inside PROVOKE(), which notes its line as the expected call site.  The handler compares the whole line (and the
 * fields of struct rculist_error) and then abort()s, so the test is
 * declared with .signal = SIGABRT: a missing report fails it (no abort),
 * a different one fails it (an assertion before the abort).
 *
 * Tests that go on after a report install count_handler instead, which
 * records each report and returns.
 */
#ifndef RCULIST_TESTS_DEBUG_EXPECT_H
#define RCULIST_TESTS_DEBUG_EXPECT_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#include <criterion/redirect.h>

static struct {
	char detail[400];
	const char *op;
	const void *elem;
	const char *file;
	int line;
} expected;

static inline void expect_handler(const struct rculist_error *err)
{
	char el[32] = "", want[600];

	cr_assert_not_null(expected.file, "report before PROVOKE(): %s",
			   err->message);
	if (expected.elem)
		snprintf(el, sizeof(el), "%p", expected.elem);
	snprintf(want, sizeof(want), "rculist: %s(%s) at %s:%d: %s",
		 expected.op, el, expected.file, expected.line, expected.detail);
	cr_assert_str_eq(err->message, want);
	cr_assert_str_eq(err->op, expected.op);
	cr_assert_not_null(err->file, "no call site in: %s", err->message);
	cr_assert_str_eq(err->file, expected.file);
	cr_assert_eq(err->line, expected.line, "%s", err->message);
	cr_assert_eq(err->elem, expected.elem, "%s", err->message);
	abort();
}

/*
 * Expect "rculist: @op(@elem) at FILE:LINE: <detail>" from the call in
 * the next PROVOKE(), @elem printed with %p (empty when NULL), then
 * abort().
 */
static inline void expect_report(const char *op, const void *elem,
				 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void expect_report(const char *op, const void *elem,
				 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(expected.detail, sizeof(expected.detail), fmt, ap);
	va_end(ap);
	expected.op = op;
	expected.elem = elem;
	expected.file = NULL;
	rculist_set_error_handler(expect_handler);
}

#define EXPECT_REPORT(op, elem, ...) expect_report(op, elem, __VA_ARGS__)

/*
 * PROVOKE(statement): the statement, written on one line, expected to
 * report with that line as its call site.
 */
#define PROVOKE(...)                      \
	do {                              \
		expected.file = __FILE__; \
		expected.line = __LINE__; \
		__VA_ARGS__;              \
	} while (0)

/*
 * REPORT_TEST(suite, name, setup, call, op, elem, detail...): one row of
 * a file's table of report cases.  The test suite/name runs @setup (a
 * statement; a block if it has several), expects the report
 * "rculist: @op(@elem) at FILE:LINE: <detail>" from @call made on the
 * row's line, and so ends in the handler's abort() (.signal = SIGABRT).
 */
#define REPORT_TEST(suite, name, setup, call, op, elem, ...) \
	Test(suite, name, .signal = SIGABRT)                 \
	{                                                    \
		setup;                                       \
		EXPECT_REPORT(op, elem, __VA_ARGS__);        \
		PROVOKE(call);                               \
	}

/* REPORT_TEST() of a test that reads outside what the analysis allows. */
#define REPORT_TEST_NO_RCU_ANALYSIS(suite, name, ...) \
	TEST_NO_RCU_ANALYSIS(suite, name);            \
	REPORT_TEST(suite, name, __VA_ARGS__)

/* Details said by several suites. */
#define NOT_READING \
	"not inside a read-side critical section (call rculist_read_lock() first)"
#define DOUBLE_DEL(prev) \
	prev " is 0x200, the poison of a deleted element (double delete?)"
#define NODE_DOUBLE_ADD \
	"node is already on the list, next to the insertion point (double add?)"

/* Reports seen by count_handler, and the last one. */
static int reports;
static char last_report[512];

static inline void count_handler(const struct rculist_error *err)
{
	reports++;
	snprintf(last_report, sizeof(last_report), "%s", err->message);
}

/* .init of every debug test: quiet stderr, and count reports. */
static inline void debug_init(void)
{
	cr_redirect_stderr();
	reports = 0;
	rculist_set_error_handler(count_handler);
}

static inline int flavor_is(const char *name)
{
	return strcmp(rculist_flavor_name(), name) == 0;
}

#endif /* RCULIST_TESTS_DEBUG_EXPECT_H */
