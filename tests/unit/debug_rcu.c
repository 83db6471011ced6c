// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/debug_rcu.c - debug mode catches misuse of RCU: reading outside a
 * read-side critical section or unregistered, unbalanced unlocks, and
 * quiescent, offline or blocking calls inside a section.  Debug mode
 * counts rculist_read_lock() sections itself, so every flavour reports
 * the same misuse, qsbr too.  Compiled in debug mode in both builds;
 * runs under every flavour.
 */
#ifndef RCULIST_DEBUG
#define RCULIST_DEBUG
#endif
#include "debug_expect.h"

TestSuite(debug_rcu, .timeout = 10, .init = debug_init);

static CDS_LIST_HEAD(h);
static CDS_HLIST_HEAD(hh);
static struct item a = { .key = 1 }, b = { .key = 2 };

/* [h] <-> a <-> b   [hh] -> a <-> b */
static void ab(void)
{
	cds_list_add_tail_rcu(&a.link, &h);
	cds_list_add_tail_rcu(&b.link, &h);
	cds_hlist_add_tail_rcu(&a.hnode, &hh);
	cds_hlist_add_tail_rcu(&b.hnode, &hh);
}

static const char *not_registered =
	"thread is not registered with RCU (call rculist_register_thread() first)";

/*
 * ab(), from a registered thread outside any rculist_read_lock() section:
 * under qsbr it is online, and qsbr alone would let it read, but the
 * program would not be correct under memb or bp.
 */
static void registered_ab(void)
{
	ab();
	rculist_register_thread();
}

/* A registered thread inside a section. */
static void reading(void) RCULIST_NO_RCU_ANALYSIS;
static void reading(void)
{
	rculist_register_thread();
	rculist_read_lock();
}

/* Cursors and destination of the calls provoked. */
static struct item *cur;
static struct cds_list_head *lcur;
static CDS_LIST_HEAD(dst);

/* One row a test: its name, setup, call and the report that call makes. */
/* clang-format off */
REPORT_TEST_NO_RCU_ANALYSIS(debug_rcu, list_iterator_outside_reader, registered_ab(), cds_list_for_each_entry_rcu(cur, &h, link) (void)cur, "cds_list_for_each_entry_rcu", NULL, NOT_READING)
REPORT_TEST_NO_RCU_ANALYSIS(debug_rcu, reverse_iterator_outside_reader, registered_ab(), cds_list_for_each_entry_reverse_rcu(cur, &h, link) (void)cur, "cds_list_for_each_entry_reverse_rcu", NULL, NOT_READING)
REPORT_TEST_NO_RCU_ANALYSIS(debug_rcu, accessor_outside_reader, registered_ab(), cur = cds_list_first_or_null_rcu(&h, struct item, link), "cds_list_first_or_null_rcu", NULL, NOT_READING)
REPORT_TEST_NO_RCU_ANALYSIS(debug_rcu, hlist_iterator_outside_reader, registered_ab(), cds_hlist_for_each_entry_rcu_2(cur, &hh, hnode) (void)cur, "cds_hlist_for_each_entry_rcu_2", NULL, NOT_READING)
REPORT_TEST_NO_RCU_ANALYSIS(debug_rcu, hlist_kernel_iterator_outside_reader, registered_ab(), cds_hlist_for_each_entry_rcu(cur, &hh, hnode) (void)cur, "cds_hlist_for_each_entry_rcu", NULL, NOT_READING)
/* bp registers lazily: there, it is only outside a section */
REPORT_TEST_NO_RCU_ANALYSIS(debug_rcu, iterator_in_unregistered_thread, ab(), cds_list_for_each_rcu(lcur, &h) (void)lcur, "cds_list_for_each_rcu", NULL, "%s", flavor_is("bp") ? NOT_READING : not_registered)
REPORT_TEST_NO_RCU_ANALYSIS(debug_rcu, unlock_without_lock, { reading(); rculist_read_unlock(); }, rculist_read_unlock(), "rculist_read_unlock", NULL, "no matching rculist_read_lock() (unbalanced unlock?)")
/* clang-format on */

/* qsbr: offline inside a section; memb and bp have no offline state */
TEST_NO_RCU_ANALYSIS(debug_rcu, accessor_offline_inside_section);
Test(debug_rcu, accessor_offline_inside_section, .signal = SIGABRT)
{
	struct item *first;

	ab();
	rculist_register_thread();
	rculist_thread_offline();
	rculist_read_lock();
	if (!flavor_is("qsbr")) {
		first = cds_list_first_or_null_rcu(&h, struct item, link);
		cr_assert_eq(first, &a);
		cr_assert_eq(reports, 0, "%s", last_report);
		abort();
	}
	EXPECT_REPORT("cds_list_first_or_null_rcu", NULL,
		      "thread is offline inside rculist_read_lock() (call rculist_thread_online() first)");
	PROVOKE(first = cds_list_first_or_null_rcu(&h, struct item, link));
	(void)first;
}

TEST_NO_RCU_ANALYSIS(debug_rcu, read_lock_in_unregistered_thread);
Test(debug_rcu, read_lock_in_unregistered_thread, .signal = SIGABRT)
{
	if (flavor_is("bp")) {
		/* lazily registered: legal, nothing reported */
		rculist_read_lock();
		rculist_read_unlock();
		cr_assert_eq(reports, 0, "%s", last_report);
		abort();
	}
	EXPECT_REPORT("rculist_read_lock", NULL, "%s", not_registered);
	PROVOKE(rculist_read_lock());
}

/* The reason given fits the flavour linked. */
static const char *ends_section(void)
{
	static char buf[160];

	if (flavor_is("qsbr"))
		return "called inside a read-side critical section (it ends the section while the caller reads)";
	snprintf(buf, sizeof(buf),
		 "called inside a read-side critical section (a no-op under %s, but qsbr would end the section while it reads)",
		 rculist_flavor_name());
	return buf;
}

static const char *blocks(void)
{
	return flavor_is("qsbr") ?
		       "called inside a read-side critical section (under qsbr it would end the section while the caller reads)" :
		       "called inside a read-side critical section (it waits for a grace period, which cannot end while the caller itself reads: deadlock)";
}

/* clang-format off */
REPORT_TEST_NO_RCU_ANALYSIS(debug_rcu, quiescent_state_inside_reader, reading(), rculist_quiescent_state(), "rculist_quiescent_state", NULL, "%s", ends_section())
REPORT_TEST_NO_RCU_ANALYSIS(debug_rcu, thread_offline_inside_reader, reading(), rculist_thread_offline(), "rculist_thread_offline", NULL, "%s", ends_section())
/* nested: the report comes though the inner section has ended */
REPORT_TEST_NO_RCU_ANALYSIS(debug_rcu, synchronize_rcu_inside_reader, { reading(); rculist_read_lock(); rculist_read_unlock(); }, rculist_synchronize_rcu(), "rculist_synchronize_rcu", NULL, "%s", blocks())
REPORT_TEST_NO_RCU_ANALYSIS(debug_rcu, splice_init_rcu_inside_reader, { ab(); reading(); }, cds_list_splice_init_rcu(&h, &dst), "cds_list_splice_init_rcu", NULL, "%s", blocks())
REPORT_TEST_NO_RCU_ANALYSIS(debug_rcu, rcu_barrier_inside_reader, reading(), rculist_rcu_barrier(), "rculist_rcu_barrier", NULL, "%s", blocks())
/* clang-format on */

TEST_NO_RCU_ANALYSIS(debug_rcu,
		     unbalanced_unlock_is_skipped_when_handler_returns);
Test(debug_rcu, unbalanced_unlock_is_skipped_when_handler_returns)
{
	rculist_register_thread();
	rculist_read_unlock();
	cr_assert_eq(reports, 1);
	cr_assert(strstr(last_report, "(unbalanced unlock?)"), "%s", last_report);
	/* the flavour's count was not touched: a lock/unlock pair still works */
	rculist_read_lock();
	cr_assert(rculist_read_ongoing());
	rculist_read_unlock();
	if (!flavor_is("qsbr"))
		cr_assert_not(rculist_read_ongoing());
	rculist_synchronize_rcu();
	cr_assert_eq(reports, 1, "%s", last_report);
	rculist_unregister_thread();
}

Test(debug_rcu, correct_readers_report_nothing, .timeout = 10)
{
	struct cds_list_head *lpos;
	struct cds_hlist_node *hpos;
	struct item *pos, *first;
	int sum = 0;
	CDS_LIST_HEAD(g);

	ab();
	rculist_register_thread();
	rculist_read_lock();
	cds_list_for_each_rcu(lpos, &h)
		sum += ITEM_KEY(lpos);
	cds_list_for_each_entry_rcu(pos, &h, link)
		sum += pos->key;
	cds_list_for_each_entry_reverse_rcu(pos, &h, link)
		sum += pos->key;
	first = cds_list_first_or_null_rcu(&h, struct item, link);
	cr_assert_eq(first, &a);
	cr_assert_eq(cds_list_next_or_null_rcu(&h, &a.link, struct item, link),
		     &b);
	cr_assert_eq(cds_list_entry_rcu(h.prev, struct item, link), &b);
	pos = first;
	cds_list_for_each_entry_continue_rcu(pos, &h, link)
		sum += pos->key; /* b */
	pos = first;
	cds_list_for_each_entry_from_rcu(pos, &h, link)
		sum += pos->key; /* a, b */
	cds_hlist_for_each_rcu(hpos, &hh)
		sum += HITEM_KEY(hpos);
	cds_hlist_for_each_entry_rcu(pos, hpos, &hh, hnode)
		sum += pos->key;
	cds_hlist_for_each_entry_rcu_2(pos, &hh, hnode) {
		if (pos->key == 2)
			break;
		sum += pos->key; /* a only */
	}
	pos = &a;
	cds_hlist_for_each_entry_continue_rcu(pos, hnode)
		sum += pos->key; /* b */
	pos = &a;
	cds_hlist_for_each_entry_from_rcu(pos, hnode)
		sum += pos->key; /* a, b */
	rculist_read_unlock();
	cr_assert_eq(sum, 3 * 5 + 2 + 3 + 1 + 2 + 3);

	rculist_quiescent_state();
	rculist_thread_offline();
	rculist_synchronize_rcu(); /* offline, outside any section */
	rculist_thread_online();
	cds_list_splice_init_rcu(&h, &g);
	CHECK_LIST(&g, 1, 2);
	CHECK_EMPTY(&h);
	cr_assert_eq(reports, 0, "%s", last_report);
	fflush(stderr);
	cr_assert_stderr_eq_str("");
	rculist_unregister_thread();
}
