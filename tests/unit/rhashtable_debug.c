// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/rhashtable_debug.c - cds_rhashtable's debug-mode checks
 * (compiled with RCULIST_DEBUG whatever the build): an object inserted
 * twice, a removal of an object that is not in the table (never
 * inserted, or removed already), a lookup or an _rcu bucket walk outside
 * a read-side critical section, and a plain bucket walk without the
 * bucket's lock, are reported (one line naming the operation, then the
 * error handler: here one that checks the report and aborts); correct
 * calls report nothing.
 */
#ifndef RCULIST_DEBUG
#define RCULIST_DEBUG
#endif
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "debug_expect.h"

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
	EXPECT_REPORT("cds_rhashtable_insert_fast", &a,
		      "the object is in the table already (inserted twice?)");
	PROVOKE(cds_rhashtable_insert_fast(&ht, &a.node, dparams));
}

/* The same through another insert: its name and call site reported. */
Test(rhashtable_debug, lookup_insert_twice, .signal = SIGABRT)
{
	static struct cds_rhashtable ht;
	static struct dobj a = { 1, { NULL } }, b = { 2, { NULL } };

	cr_assert_eq(cds_rhashtable_init(&ht, &dparams), 0);
	cr_assert_eq(cds_rhashtable_insert_fast(&ht, &a.node, dparams), 0);
	cr_assert_eq(cds_rhashtable_insert_fast(&ht, &b.node, dparams), 0);
	EXPECT_REPORT("cds_rhashtable_lookup_get_insert_fast", &a,
		      "the object is in the table already (inserted twice?)");
	PROVOKE(cds_rhashtable_lookup_get_insert_fast(&ht, &a.node, dparams));
}

TEST_NO_RCU_ANALYSIS(rhashtable_debug, lookup_outside_a_section);
Test(rhashtable_debug, lookup_outside_a_section, .signal = SIGABRT)
{
	static struct cds_rhashtable ht;
	int k = 1;

	cr_assert_eq(cds_rhashtable_init(&ht, &dparams), 0);
	rculist_thread_offline(); /* qsbr: outside a section once offline */
	EXPECT_REPORT("cds_rhashtable_lookup", NULL, NOT_READING);
	PROVOKE((void)cds_rhashtable_lookup(&ht, &k, dparams));
}

/* A removal of an object never inserted: its next is NULL (zeroed). */
Test(rhashtable_debug, remove_never_inserted, .signal = SIGABRT)
{
	static struct cds_rhashtable ht;
	static struct dobj a = { 1, { NULL } }, b = { 1, { NULL } };

	cr_assert_eq(cds_rhashtable_init(&ht, &dparams), 0);
	cr_assert_eq(cds_rhashtable_insert_fast(&ht, &a.node, dparams), 0);
	EXPECT_REPORT("cds_rhashtable_remove_fast", &b,
		      "the object is not in the table: its next is NULL, it was "
		      "never inserted (-ENOENT)");
	PROVOKE(cds_rhashtable_remove_fast(&ht, &b.node, dparams));
}

/* Or poisoned by its owner (RCULIST_POISON_NEXT): never inserted too. */
Test(rhashtable_debug, remove_poisoned, .signal = SIGABRT)
{
	static struct cds_rhashtable ht;
	static struct dobj a = {
		1, { (struct cds_rhash_head *)RCULIST_POISON_NEXT }
	};

	cr_assert_eq(cds_rhashtable_init(&ht, &dparams), 0);
	EXPECT_REPORT("cds_rhashtable_remove_fast", &a,
		      "the object is not in the table: its next is 0x100, it was "
		      "never inserted (-ENOENT)");
	PROVOKE(cds_rhashtable_remove_fast(&ht, &a.node, dparams));
}

/* before: [a]   after: []; a's next still leads on (readers may stand on a) */
Test(rhashtable_debug, remove_twice, .signal = SIGABRT)
{
	static struct cds_rhashtable ht;
	static struct dobj a = { 1, { NULL } };

	cr_assert_eq(cds_rhashtable_init(&ht, &dparams), 0);
	cr_assert_eq(cds_rhashtable_insert_fast(&ht, &a.node, dparams), 0);
	cr_assert_eq(cds_rhashtable_remove_fast(&ht, &a.node, dparams), 0);
	cr_assert(cds_rht_is_a_nulls(a.node.next));
	EXPECT_REPORT("cds_rhashtable_remove_fast", &a,
		      "the object is not in the table: its next is %p, it was "
		      "removed already (removed twice?) or is in another table "
		      "(-ENOENT)",
		      (void *)a.node.next);
	PROVOKE(cds_rhashtable_remove_fast(&ht, &a.node, dparams));
}

struct dlobj {
	int key;
	struct cds_rhlist_head list;
};

static const struct cds_rhashtable_params dlparams = {
	.key_len = sizeof(int),
	.key_offset = offsetof(struct dlobj, key),
	.head_offset = offsetof(struct dlobj, list),
};

/* Replacing an object never inserted: reported as removing it. */
Test(rhashtable_debug, replace_never_inserted, .signal = SIGABRT)
{
	static struct cds_rhashtable ht;
	static struct dobj a = { 1, { NULL } }, b = { 1, { NULL } };

	cr_assert_eq(cds_rhashtable_init(&ht, &dparams), 0);
	EXPECT_REPORT("cds_rhashtable_replace_fast", &a,
		      "the object is not in the table: its next is NULL, it was "
		      "never inserted (-ENOENT)");
	PROVOKE(cds_rhashtable_replace_fast(&ht, &a.node, &b.node, dparams));
}

/* key 3: b -> a, then a; b removed twice */
Test(rhashtable_debug, rhltable_remove_twice, .signal = SIGABRT)
{
	static struct cds_rhltable hlt;
	static struct dlobj a = { 3, { { NULL }, NULL } },
			    b = { 3, { { NULL }, NULL } };

	cr_assert_eq(cds_rhltable_init(&hlt, &dlparams), 0);
	cr_assert_eq(cds_rhltable_insert(&hlt, &a.list, dlparams), 0);
	cr_assert_eq(cds_rhltable_insert(&hlt, &b.list, dlparams), 0);
	cr_assert_eq(cds_rhltable_remove(&hlt, &b.list, dlparams), 0);
	EXPECT_REPORT("cds_rhltable_remove", &b,
		      "the object is not in the table: its next is %p, it was "
		      "removed already (removed twice?) or is in another table "
		      "(-ENOENT)",
		      (void *)b.list.rhead.next);
	PROVOKE(cds_rhltable_remove(&hlt, &b.list, dlparams));
}

/* The handler returns: the removal returns -ENOENT, as without debug mode. */
Test(rhashtable_debug, remove_reported_then_enoent)
{
	struct cds_rhashtable ht;
	struct dobj a = { 1, { NULL } }, b = { 2, { NULL } };

	rculist_set_error_handler(count_handler);
	cr_assert_eq(cds_rhashtable_init(&ht, &dparams), 0);
	cr_assert_eq(cds_rhashtable_insert_fast(&ht, &a.node, dparams), 0);
	cr_assert_eq(cds_rhashtable_remove_fast(&ht, &b.node, dparams), -ENOENT);
	cr_assert_eq(reports, 1);
	cr_assert_eq(cds_rhashtable_remove_fast(&ht, &a.node, dparams), 0);
	cr_assert_eq(reports, 1);
	cr_assert_eq(cds_rhashtable_remove_fast(&ht, &a.node, dparams), -ENOENT);
	cr_assert_eq(reports, 2);
	cr_assert_not_null(strstr(last_report, "removed already"), "%s",
			   last_report);
	cr_assert_eq(ht.nelems, 0);
	cds_rhashtable_destroy(&ht);
}

/* A plain bucket walk without the bucket's lock (the kernel's lockdep). */
Test(rhashtable_debug, plain_walk_without_the_bucket_lock, .signal = SIGABRT)
{
	static struct cds_rhashtable ht;
	struct cds_rhash_head *pos;
	int n = 0;

	cr_assert_eq(cds_rhashtable_init(&ht, &dparams), 0);
	want_op = "cds_rht_ptr";
	want_detail = "the bucket is not locked (call cds_rht_lock() first)";
	rculist_read_lock();
	cds_rht_for_each(pos, ht.tbl, 0)
		n++;
	rculist_read_unlock();
}

TEST_NO_RCU_ANALYSIS(rhashtable_debug, rcu_walk_outside_a_section);
Test(rhashtable_debug, rcu_walk_outside_a_section, .signal = SIGABRT)
{
	static struct cds_rhashtable ht;
	struct cds_rhash_head *pos;
	int n = 0;

	cr_assert_eq(cds_rhashtable_init(&ht, &dparams), 0);
	rculist_thread_offline(); /* qsbr: outside a section once offline */
	EXPECT_REPORT("cds_rht_for_each_rcu", NULL, NOT_READING);
	PROVOKE(cds_rht_for_each_rcu(pos, ht.tbl, 0) n++);
}
