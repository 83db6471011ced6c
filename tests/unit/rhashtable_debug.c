// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/rhashtable_debug.c - cds_rhashtable's debug-mode checks
 * (compiled with RCULIST_DEBUG whatever the build): an object inserted
 * twice, and a lookup outside a read-side critical section, are reported
 * (one line naming the operation, then the error handler: here one that
 * checks the report and aborts); correct calls report nothing.
 */
#ifndef RCULIST_DEBUG
#define RCULIST_DEBUG
#endif
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#include <rculist/rhashtable.h>

static const char *want_op, *want_detail;

static void check_report(const struct rculist_error *err)
{
	cr_assert_not_null(want_op, "unexpected report: %s", err->message);
	cr_assert_str_eq(err->op, want_op, "%s", err->message);
	cr_assert_not_null(strstr(err->message, want_detail), "%s", err->message);
	abort();
}

static void debug_rht_init(void)
{
	rculist_register_thread();
	rculist_set_error_handler(check_report);
}

TestSuite(rhashtable_debug, .timeout = 20, .init = debug_rht_init);

struct dobj {
	int key;
	struct cds_rhash_head node;
};

static const struct cds_rhashtable_params dparams = {
	.key_len = sizeof(int),
	.key_offset = offsetof(struct dobj, key),
	.head_offset = offsetof(struct dobj, node),
};

/* Correct use: no report (the handler would fail the test). */
Test(rhashtable_debug, correct_calls_report_nothing)
{
	struct cds_rhashtable ht;
	struct dobj a = { 1, { NULL } }, b = { 2, { NULL } };
	int k = 2;

	cr_assert_eq(cds_rhashtable_init(&ht, &dparams), 0);
	cr_assert_eq(cds_rhashtable_insert_fast(&ht, &a.node, dparams), 0);
	cr_assert_eq(cds_rhashtable_insert_fast(&ht, &b.node, dparams), 0);
	rculist_read_lock();
	cr_assert_eq(cds_rhashtable_lookup(&ht, &k, dparams), &b);
	rculist_read_unlock();
	cr_assert_eq(cds_rhashtable_remove_fast(&ht, &a.node, dparams), 0);
	cr_assert_eq(cds_rhashtable_insert_fast(&ht, &a.node, dparams), 0);
	cds_rhashtable_destroy(&ht);
}

/* before: [b] -> a   after: a would point to itself: reported instead */
Test(rhashtable_debug, insert_twice, .signal = SIGABRT)
{
	static struct cds_rhashtable ht;
	static struct dobj a = { 1, { NULL } };

	cr_assert_eq(cds_rhashtable_init(&ht, &dparams), 0);
	cr_assert_eq(cds_rhashtable_insert_fast(&ht, &a.node, dparams), 0);
	want_op = "cds_rhashtable_insert_fast";
	want_detail = "the object is in the table already (inserted twice?)";
	cds_rhashtable_insert_fast(&ht, &a.node, dparams);
}

TEST_NO_RCU_ANALYSIS(rhashtable_debug, lookup_outside_a_section);
Test(rhashtable_debug, lookup_outside_a_section, .signal = SIGABRT)
{
	static struct cds_rhashtable ht;
	int k = 1;

	cr_assert_eq(cds_rhashtable_init(&ht, &dparams), 0);
	rculist_thread_offline(); /* qsbr: outside a section once offline */
	want_op = "cds_rhashtable_lookup";
	want_detail = "read-side critical section";
	(void)cds_rhashtable_lookup(&ht, &k, dparams);
}
