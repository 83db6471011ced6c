// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/list_rcu.c - the RCU update operations and accessors of circular
 * lists, single-threaded: the shape each leaves, both ways, and what a
 * removed element still points to (a reader standing on it walks on).
 * The concurrent behaviour is tested elsewhere.
 * Elements e['a'..'h'], lists h and g: tests/unit/list_cases.h.
 */
#include <string.h>

/* The operations of list_cases.h: the _rcu ones. */
#define OP(name) cds_list_##name##_rcu
#define OP_INIT	 CDS_INIT_LIST_HEAD_RCU
#include "list_cases.h"

static void setup(void)
{
	list_cases_setup();
	/* the splices wait for grace periods: memb and qsbr need this */
	rculist_register_thread();
}

static void teardown(void)
{
	rculist_unregister_thread();
}

TestSuite(list_rcu, .timeout = 10, .init = setup, .fini = teardown);

#define THIS_CASE(test, rcu_test, run_case) \
	CASE_TEST(list_rcu, rcu_test, run_case)
LIST_CASES(THIS_CASE)

/* ------------------------------------------------- updates */

Test(list_rcu, del_rcu_leaves_next_and_prev_intact)
{
	build(&h, "abcd");
	/* before: [h] <-> a <-> b <-> c <-> d   after: [h] <-> a <-> c <-> d
	 * and b still: a <- b -> c */
	cds_list_del_rcu(L('b'));
	CHECK_LIST(&h, 'a', 'c', 'd');
	cr_assert_eq(L('b')->next, L('c'));
	cr_assert_eq(L('b')->prev, L('a'));
	/* the first: after: [h] <-> c <-> d, and h <- a -> c */
	cds_list_del_rcu(L('a'));
	CHECK_LIST(&h, 'c', 'd');
	cr_assert_eq(L('a')->next, L('c'));
	cr_assert_eq(L('a')->prev, &h);
	/* the last: after: [h] <-> c, and c <- d -> h */
	cds_list_del_rcu(L('d'));
	CHECK_LIST(&h, 'c');
	cr_assert_eq(L('d')->next, &h);
	cr_assert_eq(L('d')->prev, L('c'));
	/* the only one: after: [h], and h <- c -> h */
	cds_list_del_rcu(L('c'));
	CHECK_EMPTY(&h);
	cr_assert_eq(L('c')->next, &h);
	cr_assert_eq(L('c')->prev, &h);
}

Test(list_rcu, replace_rcu_leaves_old_intact)
{
	build(&h, "abc");
	/* before: [h] <-> a <-> b <-> c   after: [h] <-> a <-> e <-> c
	 * and b still: a <- b -> c */
	cds_list_replace_rcu(L('b'), L('e'));
	CHECK_LIST(&h, 'a', 'e', 'c');
	cr_assert_eq(L('b')->next, L('c'));
	cr_assert_eq(L('b')->prev, L('a'));
	/* first and last */
	cds_list_replace_rcu(L('a'), L('d'));
	cds_list_replace_rcu(L('c'), L('f'));
	CHECK_LIST(&h, 'd', 'e', 'f');
	cr_assert_eq(L('a')->next, L('e'));
	cr_assert_eq(L('a')->prev, &h);
	cr_assert_eq(L('c')->next, &h);
	cr_assert_eq(L('c')->prev, L('e'));
	/* the only element: before: [g] <-> a   after: [g] <-> b */
	build(&g, "a");
	cds_list_replace_rcu(L('a'), L('b'));
	CHECK_LIST(&g, 'b');
	cr_assert_eq(L('a')->next, &g);
	cr_assert_eq(L('a')->prev, &g);
}

Test(list_rcu, a_reader_on_a_deleted_element_walks_on)
{
	struct item *pos = IT('b');
	char seen[8] = "";
	size_t n = 0;

	build(&h, "abcd");
	rculist_read_lock();
	/* the reader stands on b; the updater removes b, then c */
	cds_list_del_rcu(L('b'));
	cds_list_del_rcu(L('c'));
	CHECK_LIST(&h, 'a', 'd');
	cds_list_for_each_entry_continue_rcu(pos, &h, link)
		seen[n++] = (char)pos->key;
	rculist_read_unlock();
	/* it goes on to c (removed during the walk, not freed), then d */
	cr_assert_str_eq(seen, "cd");
}

/* ------------------------------------------------- splices */

Test(list_rcu, splice_init_rcu_after_an_element)
{
	build(&g, "c");
	build(&h, "ab");
	/* before: [g] <-> c   [h] <-> a <-> b   after: [g]   [h] <-> a <-> c <-> b */
	cds_list_splice_init_rcu(&g, L('a'));
	CHECK_LIST(&h, 'a', 'c', 'b');
	CHECK_EMPTY(&g);
}

Test(list_rcu, splice_init_rcu_from_an_offline_thread)
{
	/* an offline thread (qsbr: not blocking grace periods) splices too */
	build(&g, "ab");
	rculist_thread_offline();
	cds_list_splice_init_rcu(&g, &h);
	rculist_thread_online();
	CHECK_LIST(&h, 'a', 'b');
	CHECK_EMPTY(&g);
}

/* ------------------------------------------------- accessors */

Test(list_rcu, entry_rcu)
{
	build(&h, "ab");
	rculist_read_lock();
	cr_assert_eq(cds_list_entry_rcu(h.next, struct item, link), IT('a'));
	cr_assert_eq(cds_list_entry_rcu(h.prev, struct item, link), IT('b'));
	cr_assert_eq(cds_list_entry_rcu(L('a')->next, struct item, link),
		     IT('b'));
	rculist_read_unlock();
	CHECK_LIST(&h, 'a', 'b');
}

Test(list_rcu, first_or_null_rcu)
{
	rculist_read_lock();
	cr_assert_null(cds_list_first_or_null_rcu(&h, struct item, link));
	rculist_read_unlock();
	build(&h, "ba");
	rculist_read_lock();
	cr_assert_eq(cds_list_first_or_null_rcu(&h, struct item, link), IT('b'));
	rculist_read_unlock();
	CHECK_LIST(&h, 'b', 'a');
}

Test(list_rcu, next_or_null_rcu)
{
	const struct cds_list_head *ch = &h;

	build(&h, "abc");
	rculist_read_lock();
	/* from the head: the first */
	cr_assert_eq(cds_list_next_or_null_rcu(&h, &h, struct item, link),
		     IT('a'));
	cr_assert_eq(cds_list_next_or_null_rcu(&h, L('a'), struct item, link),
		     IT('b'));
	cr_assert_eq(cds_list_next_or_null_rcu(&h, L('b'), struct item, link),
		     IT('c'));
	/* from the last: NULL */
	cr_assert_null(cds_list_next_or_null_rcu(&h, L('c'), struct item, link));
	/* through const pointers */
	cr_assert_eq(cds_list_next_or_null_rcu(ch, ch, struct item, link),
		     IT('a'));
	cr_assert_eq(cds_list_first_or_null_rcu(ch, struct item, link), IT('a'));
	rculist_read_unlock();
	CHECK_LIST(&h, 'a', 'b', 'c');
}

Test(list_rcu, walk_with_next_or_null_rcu)
{
	struct item *pos;
	char seen[8] = "";
	size_t n = 0;

	build(&h, "abcd");
	rculist_read_lock();
	for (pos = cds_list_first_or_null_rcu(&h, struct item, link); pos;
	     pos = cds_list_next_or_null_rcu(&h, &pos->link, struct item, link))
		seen[n++] = (char)pos->key;
	rculist_read_unlock();
	cr_assert_str_eq(seen, "abcd");
}
