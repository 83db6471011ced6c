// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/blocking.c - a blocking call inside the caller's own read-side
 * critical section is reported, in one line naming the call and the
 * reason, then aborts, instead of deadlocking (memb, bp) or silently
 * ending the section (qsbr): rculist_synchronize_rcu(),
 * rculist_rcu_barrier(), rculist_cond_synchronize_rcu(),
 * cds_list_splice_init_rcu() and cds_list_splice_tail_init_rcu().  It
 * aborts also when the error handler returns: it never returns without
 * a grace period.
 *
 * Compiled in both builds: without RCULIST_DEBUG the library's own check
 * reports the call without its site; in debug mode with it (the sections
 * the checks see: section.h).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "section.h"

#include <criterion/redirect.h>

static struct {
	const char *op;
	const char *file;
	int line;
} expected;

static const char *reason(void)
{
	return flavor_is("qsbr") ?
		       "under qsbr it would end the section while the caller reads" :
		       "it waits for a grace period, which cannot end while the caller itself reads: deadlock";
}

/* The whole line, then abort(): the tests expect SIGABRT. */
static void expect_handler(const struct rculist_error *err)
{
	char want[400];

#ifdef RCULIST_DEBUG
	snprintf(want, sizeof(want),
		 "rculist: %s() at %s:%d: called inside a read-side critical section (%s)",
		 expected.op, expected.file, expected.line, reason());
	cr_assert_str_eq(err->file, expected.file);
	cr_assert_eq(err->line, expected.line);
#else
	snprintf(want, sizeof(want),
		 "rculist: %s: called inside a read-side critical section (%s)",
		 expected.op, reason());
	cr_assert_null(err->file, "%s", err->message);
#endif
	cr_assert_str_eq(err->message, want);
	cr_assert_str_eq(err->op, expected.op);
	cr_assert_null(err->elem);
	abort();
}

/* PROVOKE(op, statement): the statement, on one line, must report @op. */
#define PROVOKE(name, ...)                                 \
	do {                                               \
		expected.op = name;                        \
		expected.file = __FILE__;                  \
		expected.line = __LINE__;                  \
		rculist_set_error_handler(expect_handler); \
		__VA_ARGS__;                               \
	} while (0)

TestSuite(blocking, .init = cr_redirect_stderr, .timeout = 10);

TEST_NO_RCU_ANALYSIS(blocking, synchronize_rcu_inside_nested_section);
Test(blocking, synchronize_rcu_inside_nested_section, .signal = SIGABRT)
{
	rculist_register_thread();
	enter_section();
	enter_section();
	leave_section();
	PROVOKE("rculist_synchronize_rcu", rculist_synchronize_rcu());
}

TEST_NO_RCU_ANALYSIS(blocking, rcu_barrier_inside_section);
Test(blocking, rcu_barrier_inside_section, .signal = SIGABRT)
{
	rculist_register_thread();
	enter_section();
	PROVOKE("rculist_rcu_barrier", rculist_rcu_barrier());
}

/* Without the check, this one never returned: the batch waits for us. */
TEST_NO_RCU_ANALYSIS(blocking, rcu_barrier_inside_section_after_free_rcu);
Test(blocking, rcu_barrier_inside_section_after_free_rcu, .signal = SIGABRT)
{
	struct item *p = malloc(sizeof(*p));

	cr_assert_not_null(p);
	rculist_register_thread();
	rculist_free_rcu(p, rcu);
	enter_section();
	PROVOKE("rculist_rcu_barrier", rculist_rcu_barrier());
}

/* A cookie no grace period has satisfied: the call would wait. */
TEST_NO_RCU_ANALYSIS(blocking, cond_synchronize_rcu_inside_section);
Test(blocking, cond_synchronize_rcu_inside_section, .signal = SIGABRT)
{
	struct rculist_gp_cookie c;

	rculist_register_thread();
	c = rculist_get_state_synchronize_rcu();
	enter_section();
	cr_assert_not(rculist_poll_state_synchronize_rcu(c));
	PROVOKE("rculist_cond_synchronize_rcu", rculist_cond_synchronize_rcu(c));
}

/* Satisfied: it would return at once, but the call is misplaced all the same. */
TEST_NO_RCU_ANALYSIS(blocking, cond_synchronize_rcu_satisfied_inside_section);
Test(blocking, cond_synchronize_rcu_satisfied_inside_section, .signal = SIGABRT)
{
	struct rculist_gp_cookie c;

	rculist_register_thread();
	c = rculist_get_state_synchronize_rcu();
	rculist_synchronize_rcu();
	cr_assert(rculist_poll_state_synchronize_rcu(c));
	enter_section();
	PROVOKE("rculist_cond_synchronize_rcu", rculist_cond_synchronize_rcu(c));
}

static CDS_LIST_HEAD(src);
static CDS_LIST_HEAD(dst);
static struct item a = { .key = 1 }, b = { .key = 2 };

/* The splice is refused before it touches either list. */
static void lists_untouched(const struct rculist_error *err)
{
	CHECK_LIST(&src, 1);
	CHECK_LIST(&dst, 2);
	expect_handler(err);
}

/* before: [src] <-> a   [dst] <-> b   reported, nothing moved */
TEST_NO_RCU_ANALYSIS(blocking, splice_init_rcu_inside_section);
Test(blocking, splice_init_rcu_inside_section, .signal = SIGABRT)
{
	cds_list_add_rcu(&a.link, &src);
	cds_list_add_rcu(&b.link, &dst);
	rculist_register_thread();
	enter_section();
	expected.op = "cds_list_splice_init_rcu";
	expected.file = __FILE__;
	rculist_set_error_handler(lists_untouched);
	expected.line = __LINE__ + 1;
	cds_list_splice_init_rcu(&src, &dst);
}

TEST_NO_RCU_ANALYSIS(blocking, splice_tail_init_rcu_inside_section);
Test(blocking, splice_tail_init_rcu_inside_section, .signal = SIGABRT)
{
	cds_list_add_rcu(&a.link, &src);
	cds_list_add_rcu(&b.link, &dst);
	rculist_register_thread();
	enter_section();
	expected.op = "cds_list_splice_tail_init_rcu";
	expected.file = __FILE__;
	rculist_set_error_handler(lists_untouched);
	expected.line = __LINE__ + 1;
	cds_list_splice_tail_init_rcu(&src, &dst);
}

/* No handler installed: the line goes to stderr and the process aborts. */
TEST_NO_RCU_ANALYSIS(blocking, default_handler_aborts);
Test(blocking, default_handler_aborts, .signal = SIGABRT)
{
	rculist_register_thread();
	enter_section();
	rculist_synchronize_rcu();
}

static int reports;
static char last[512];

static void count_handler(const struct rculist_error *err)
{
	reports++;
	snprintf(last, sizeof(last), "%s", err->message);
}

/*
 * A handler that returns: the call can neither wait (deadlock, or qsbr's
 * section ended) nor return as if a grace period had passed, so it
 * aborts after the report.  The handler checks the report and returns;
 * the test passes only by the abort that follows.
 */
static void returning_handler(const struct rculist_error *err)
{
	reports++;
	cr_assert_str_eq(err->op, expected.op, "%s", err->message);
	cr_assert(strstr(err->message,
			 "called inside a read-side critical section"),
		  "%s", err->message);
}

static struct rculist_gp_cookie unsatisfied(void)
{
	return rculist_get_state_synchronize_rcu();
}

static struct rculist_gp_cookie satisfied(void)
{
	struct rculist_gp_cookie c = rculist_get_state_synchronize_rcu();

	rculist_synchronize_rcu();
	return c;
}

/* Each call that waits: its name, and the call (made inside a section). */
#define WAITING_CALLS(X)                                                         \
	X(synchronize_rcu, "rculist_synchronize_rcu", rculist_synchronize_rcu()) \
	X(rcu_barrier, "rculist_rcu_barrier", rculist_rcu_barrier())             \
	X(cond_synchronize_rcu, "rculist_cond_synchronize_rcu",                  \
	  rculist_cond_synchronize_rcu(c_unsat))                                 \
	X(cond_synchronize_rcu_satisfied, "rculist_cond_synchronize_rcu",        \
	  rculist_cond_synchronize_rcu(c_sat))                                   \
	X(splice_init_rcu, "cds_list_splice_init_rcu",                           \
	  cds_list_splice_init_rcu(&src, &dst))                                  \
	X(splice_tail_init_rcu, "cds_list_splice_tail_init_rcu",                 \
	  cds_list_splice_tail_init_rcu(&src, &dst))

#define RETURNING_HANDLER_ABORTS(name, opname, call)                              \
	TEST_NO_RCU_ANALYSIS(blocking, name##_aborts_when_the_handler_returns);   \
	Test(blocking, name##_aborts_when_the_handler_returns, .signal = SIGABRT) \
	{                                                                         \
		struct rculist_gp_cookie c_unsat, c_sat;                          \
                                                                                  \
		cds_list_add_rcu(&a.link, &src);                                  \
		cds_list_add_rcu(&b.link, &dst);                                  \
		rculist_register_thread();                                        \
		c_sat = satisfied();                                              \
		c_unsat = unsatisfied();                                          \
		(void)c_sat;                                                      \
		(void)c_unsat;                                                    \
		expected.op = opname;                                             \
		rculist_set_error_handler(returning_handler);                     \
		enter_section();                                                  \
		call;                                                             \
		cr_assert_fail("%s returned inside the section (%d reports)",     \
			       opname, reports);                                  \
	}
WAITING_CALLS(RETURNING_HANDLER_ABORTS)

/* after: [src]   [dst] <-> a <-> b   outside a section: no report */
Test(blocking, outside_a_section_nothing_is_reported)
{
	struct item *p = malloc(sizeof(*p));

	cr_assert_not_null(p);
	cds_list_add_rcu(&a.link, &src);
	cds_list_add_rcu(&b.link, &dst);
	rculist_register_thread();
	rculist_set_error_handler(count_handler);
	enter_section();
	leave_section();
	rculist_synchronize_rcu();
	rculist_free_rcu(p, rcu);
	rculist_rcu_barrier();
	cds_list_splice_tail_init_rcu(&src, &dst);
	CHECK_EMPTY(&src);
	CHECK_LIST(&dst, 2, 1);
	cr_assert_eq(reports, 0, "%s", last);
	rculist_unregister_thread();
}
