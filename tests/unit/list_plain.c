// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/list_plain.c - the plain operations on circular lists, one test
 * per operation, each checking the whole list both ways afterwards.
 * Elements e['a'..'h'], lists h and g: tests/unit/list_cases.h.
 */
#include <string.h>

/* The operations of list_cases.h: the plain ones. */
#define OP(name) cds_list_##name
#define OP_INIT	 CDS_INIT_LIST_HEAD
#include "list_cases.h"

TestSuite(list_plain, .timeout = 10, .init = list_cases_setup);

#define THIS_CASE(test, rcu_test, run_case) \
	CASE_TEST(list_plain, test, run_case)
LIST_CASES(THIS_CASE)

/* ------------------------------------------------- initialisation */

Test(list_plain, init_list_head_reinitialises_a_used_head)
{
	/* before: [h] <-> a <-> b   after: [h] (a, b untouched) */
	build(&h, "ab");
	CDS_INIT_LIST_HEAD(&h);
	CHECK_EMPTY(&h);
	cr_assert_eq(L('a')->next, L('b'));
}

static struct cds_list_head static_init = CDS_LIST_HEAD_INIT(static_init);

Test(list_plain, list_head_init_initialiser)
{
	struct cds_list_head local = CDS_LIST_HEAD_INIT(local);

	/* [static_init], [local]: both empty, usable as heads */
	CHECK_EMPTY(&static_init);
	CHECK_EMPTY(&local);
	cds_list_add(L('a'), &local);
	CHECK_LIST(&local, 'a');
	cds_list_add(L('b'), &static_init);
	CHECK_LIST(&static_init, 'b');
}

static CDS_LIST_HEAD(global_head);

Test(list_plain, list_head_declares_an_empty_head)
{
	CDS_LIST_HEAD(local);

	CHECK_EMPTY(&global_head);
	CHECK_EMPTY(&local);
	/* before: [local]   after: [local] <-> a <-> b */
	cds_list_add_tail(L('a'), &local);
	cds_list_add_tail(L('b'), &local);
	CHECK_LIST(&local, 'a', 'b');
	cds_list_add(L('c'), &global_head);
	CHECK_LIST(&global_head, 'c');
}

/* ------------------------------------------------- add, del */

Test(list_plain, add_after_an_element)
{
	/* before: [h] <-> a <-> c   after: [h] <-> a <-> b <-> c */
	build(&h, "ac");
	cds_list_add(L('b'), L('a'));
	CHECK_LIST(&h, 'a', 'b', 'c');
}

Test(list_plain, add_tail_before_an_element)
{
	/* before: [h] <-> a <-> c   after: [h] <-> a <-> b <-> c */
	build(&h, "ac");
	cds_list_add_tail(L('b'), L('c'));
	CHECK_LIST(&h, 'a', 'b', 'c');
}

Test(list_plain, del_middle_first_last_only)
{
	build(&h, "abcd");
	/* before: [h] <-> a <-> b <-> c <-> d   after: [h] <-> a <-> c <-> d */
	cds_list_del(L('b'));
	CHECK_LIST(&h, 'a', 'c', 'd');
	/* before: [h] <-> a <-> c <-> d   after: [h] <-> c <-> d */
	cds_list_del(L('a'));
	CHECK_LIST(&h, 'c', 'd');
	/* before: [h] <-> c <-> d   after: [h] <-> c */
	cds_list_del(L('d'));
	CHECK_LIST(&h, 'c');
	/* before: [h] <-> c   after: [h] */
	cds_list_del(L('c'));
	CHECK_EMPTY(&h);
}

Test(list_plain, del_of_initialised_unlinked_element_is_a_no_op)
{
	/* before: [a] alone, [h] <-> b   after: the same */
	build(&h, "b");
	CDS_INIT_LIST_HEAD(L('a'));
	cds_list_del(L('a'));
	cr_assert_eq(L('a')->next, L('a'));
	cr_assert_eq(L('a')->prev, L('a'));
	CHECK_LIST(&h, 'b');
}

Test(list_plain, del_init_leaves_the_element_empty)
{
	build(&h, "abc");
	/* before: [h] <-> a <-> b <-> c   after: [h] <-> a <-> c, [b] empty */
	cds_list_del_init(L('b'));
	CHECK_LIST(&h, 'a', 'c');
	CHECK_EMPTY(L('b'));
	/* deleting it again is harmless */
	cds_list_del_init(L('b'));
	CHECK_EMPTY(L('b'));
	CHECK_LIST(&h, 'a', 'c');
	/* before: [h] <-> a <-> c   after: [h] */
	cds_list_del_init(L('a'));
	cds_list_del_init(L('c'));
	CHECK_EMPTY(&h);
	CHECK_EMPTY(L('a'));
	CHECK_EMPTY(L('c'));
}

/* ------------------------------------------------- predicates */

Test(list_plain, empty)
{
	cr_assert(cds_list_empty(&h));
	build(&h, "a");
	cr_assert_not(cds_list_empty(&h));
	cds_list_del(L('a'));
	cr_assert(cds_list_empty(&h));
}

Test(list_plain, empty_careful_checks_both_links)
{
	cr_assert(cds_list_empty_careful(&h));
	build(&h, "a");
	cr_assert_not(cds_list_empty_careful(&h));
	/* a head half-way through an update: next is self, prev is not */
	h.next = &h;
	cr_assert(cds_list_empty(&h));
	cr_assert_not(cds_list_empty_careful(&h));
}

Test(list_plain, is_singular)
{
	cr_assert_not(cds_list_is_singular(&h));
	build(&h, "a");
	cr_assert(cds_list_is_singular(&h));
	cds_list_add_tail(L('b'), &h);
	cr_assert_not(cds_list_is_singular(&h));
}

Test(list_plain, is_first_is_last_is_head)
{
	build(&h, "abc");
	cr_assert(cds_list_is_first(L('a'), &h));
	cr_assert_not(cds_list_is_first(L('b'), &h));
	cr_assert_not(cds_list_is_first(L('c'), &h));
	cr_assert_not(cds_list_is_last(L('a'), &h));
	cr_assert_not(cds_list_is_last(L('b'), &h));
	cr_assert(cds_list_is_last(L('c'), &h));
	cr_assert(cds_list_is_head(&h, &h));
	cr_assert_not(cds_list_is_head(L('a'), &h));
	cr_assert_not(cds_list_is_head(&g, &h));
	/* in a one-element list, the element is first and last */
	build(&g, "d");
	cr_assert(cds_list_is_first(L('d'), &g));
	cr_assert(cds_list_is_last(L('d'), &g));
}

Test(list_plain, count_nodes)
{
	cr_assert_eq(cds_list_count_nodes(&h), 0);
	build(&h, "a");
	cr_assert_eq(cds_list_count_nodes(&h), 1);
	build(&h, "abcdefgh");
	cr_assert_eq(cds_list_count_nodes(&h), NELEM);
}

/* Everything that only reads takes const pointers. */
static void check_const(const struct cds_list_head *ch,
			const struct cds_list_head *cfirst,
			const struct cds_list_head *clast)
{
	cr_assert_not(cds_list_empty(ch));
	cr_assert_not(cds_list_empty_careful(ch));
	cr_assert_not(cds_list_is_singular(ch));
	cr_assert(cds_list_is_first(cfirst, ch));
	cr_assert(cds_list_is_last(clast, ch));
	cr_assert_not(cds_list_is_last(cfirst, ch));
	cr_assert(cds_list_is_head(ch, ch));
	cr_assert_eq(cds_list_count_nodes(ch), 2);
	cr_assert_eq(cds_list_first_entry_or_null(ch, struct item, link)->key,
		     'a');
	cr_assert_eq(cds_list_first_entry(ch, struct item, link)->key, 'a');
	cr_assert_eq(cds_list_last_entry(ch, struct item, link)->key, 'b');
}

Test(list_plain, predicates_accept_const_pointers)
{
	const struct cds_list_head *cg = &g;

	build(&h, "ab");
	check_const(&h, L('a'), L('b'));
	cr_assert(cds_list_empty(cg));
	cr_assert(cds_list_empty_careful(cg));
	cr_assert_null(cds_list_first_entry_or_null(cg, struct item, link));
	CHECK_LIST(&h, 'a', 'b');
}

/* ------------------------------------------------- accessors */

struct two_links {
	long pad[3];
	struct cds_list_head first;
	int key;
	struct cds_list_head second;
};

Test(list_plain, entry_finds_the_enclosing_structure)
{
	struct two_links t;

	cr_assert_eq(cds_list_entry(L('c'), struct item, link), IT('c'));
	cr_assert_eq(cds_list_entry(&t.first, struct two_links, first), &t);
	cr_assert_eq(cds_list_entry(&t.second, struct two_links, second), &t);
	/* and an expression as ptr */
	build(&h, "ab");
	cr_assert_eq(cds_list_entry(h.next->next, struct item, link), IT('b'));
}

Test(list_plain, first_entry_and_last_entry)
{
	/* [h] <-> a <-> b <-> c */
	build(&h, "abc");
	cr_assert_eq(cds_list_first_entry(&h, struct item, link), IT('a'));
	cr_assert_eq(cds_list_last_entry(&h, struct item, link), IT('c'));
	/* [h] <-> b */
	build(&h, "b");
	cr_assert_eq(cds_list_first_entry(&h, struct item, link), IT('b'));
	cr_assert_eq(cds_list_last_entry(&h, struct item, link), IT('b'));
	CHECK_LIST(&h, 'b');
}

Test(list_plain, first_entry_or_null)
{
	cr_assert_null(cds_list_first_entry_or_null(&h, struct item, link));
	build(&h, "ba");
	cr_assert_eq(cds_list_first_entry_or_null(&h, struct item, link),
		     IT('b'));
	CHECK_LIST(&h, 'b', 'a');
}

Test(list_plain, next_entry_and_prev_entry)
{
	struct item *pos;

	/* [h] <-> a <-> b <-> c */
	build(&h, "abc");
	pos = IT('b');
	cr_assert_eq(cds_list_next_entry(pos, link), IT('c'));
	cr_assert_eq(cds_list_prev_entry(pos, link), IT('a'));
	/* past the ends lies the head, as an (invalid) entry */
	pos = IT('c');
	cr_assert_eq(&cds_list_next_entry(pos, link)->link, &h);
	pos = IT('a');
	cr_assert_eq(&cds_list_prev_entry(pos, link)->link, &h);
	CHECK_LIST(&h, 'a', 'b', 'c');
}

/* ------------------------------------------------- move, replace, swap */

Test(list_plain, move_within_a_list)
{
	build(&h, "abc");
	/* before: [h] <-> a <-> b <-> c   after: [h] <-> c <-> a <-> b */
	cds_list_move(L('c'), &h);
	CHECK_LIST(&h, 'c', 'a', 'b');
	/* moving the first to the front changes nothing */
	cds_list_move(L('c'), &h);
	CHECK_LIST(&h, 'c', 'a', 'b');
}

Test(list_plain, move_to_another_list)
{
	build(&h, "ab");
	build(&g, "c");
	/* before: [h] <-> a <-> b, [g] <-> c   after: [h] <-> b, [g] <-> a <-> c */
	cds_list_move(L('a'), &g);
	CHECK_LIST(&h, 'b');
	CHECK_LIST(&g, 'a', 'c');
	/* before: [h] <-> b   after: [h], [g] <-> b <-> a <-> c */
	cds_list_move(L('b'), &g);
	CHECK_EMPTY(&h);
	CHECK_LIST(&g, 'b', 'a', 'c');
}

Test(list_plain, move_tail)
{
	build(&h, "abc");
	build(&g, "d");
	/* before: [h] <-> a <-> b <-> c   after: [h] <-> b <-> c <-> a */
	cds_list_move_tail(L('a'), &h);
	CHECK_LIST(&h, 'b', 'c', 'a');
	/* before: [g] <-> d   after: [g] <-> d <-> c, [h] <-> b <-> a */
	cds_list_move_tail(L('c'), &g);
	CHECK_LIST(&g, 'd', 'c');
	CHECK_LIST(&h, 'b', 'a');
	/* moving the last to the tail changes nothing */
	cds_list_move_tail(L('a'), &h);
	CHECK_LIST(&h, 'b', 'a');
}

Test(list_plain, bulk_move_tail_to_another_list)
{
	build(&g, "abcd");
	build(&h, "e");
	/* before: [g] <-> a <-> b <-> c <-> d   [h] <-> e
	 * after:  [g] <-> a <-> d               [h] <-> e <-> b <-> c */
	cds_list_bulk_move_tail(&h, L('b'), L('c'));
	CHECK_LIST(&g, 'a', 'd');
	CHECK_LIST(&h, 'e', 'b', 'c');
	/* before: [g] <-> a <-> d   after: [g], [h] <-> e <-> b <-> c <-> a <-> d */
	cds_list_bulk_move_tail(&h, L('a'), L('d'));
	CHECK_EMPTY(&g);
	CHECK_LIST(&h, 'e', 'b', 'c', 'a', 'd');
}

Test(list_plain, bulk_move_tail_within_a_list_and_into_an_empty_one)
{
	build(&h, "abcd");
	/* before: [h] <-> a <-> b <-> c <-> d   after: [h] <-> c <-> d <-> a <-> b */
	cds_list_bulk_move_tail(&h, L('a'), L('b'));
	CHECK_LIST(&h, 'c', 'd', 'a', 'b');
	/* one element: before: [g]   after: [g] <-> d, [h] <-> c <-> a <-> b */
	cds_list_bulk_move_tail(&g, L('d'), L('d'));
	CHECK_LIST(&g, 'd');
	CHECK_LIST(&h, 'c', 'a', 'b');
}

Test(list_plain, replace_an_element)
{
	build(&h, "abc");
	/* before: [h] <-> a <-> b <-> c   after: [h] <-> a <-> x <-> c */
	cds_list_replace(L('b'), L('e'));
	CHECK_LIST(&h, 'a', 'e', 'c');
	/* first and last too */
	cds_list_replace(L('a'), L('d'));
	cds_list_replace(L('c'), L('f'));
	CHECK_LIST(&h, 'd', 'e', 'f');
	/* the only element */
	build(&g, "a");
	cds_list_replace(L('a'), L('b'));
	CHECK_LIST(&g, 'b');
}

Test(list_plain, replace_a_list_head)
{
	struct cds_list_head nh;

	build(&h, "abc");
	/* before: [h] <-> a <-> b <-> c   after: [nh] <-> a <-> b <-> c */
	cds_list_replace(&h, &nh);
	CHECK_LIST(&nh, 'a', 'b', 'c');
	/* an empty head: before: [g]   after: [nh] (empty) */
	cds_list_replace(&g, &nh);
	CHECK_EMPTY(&nh);
}

Test(list_plain, replace_init_leaves_old_empty)
{
	struct cds_list_head nh;

	build(&h, "abc");
	/* before: [h] <-> a <-> b <-> c   after: [h] <-> a <-> d <-> c, [b] */
	cds_list_replace_init(L('b'), L('d'));
	CHECK_LIST(&h, 'a', 'd', 'c');
	CHECK_EMPTY(L('b'));
	/* a head: before: [h] <-> a <-> d <-> c   after: [nh] <-> a <-> d <-> c, [h] */
	cds_list_replace_init(&h, &nh);
	CHECK_LIST(&nh, 'a', 'd', 'c');
	CHECK_EMPTY(&h);
}

Test(list_plain, swap_adjacent_in_both_orders)
{
	build(&h, "abc");
	/* before: [h] <-> a <-> b <-> c   after: [h] <-> b <-> a <-> c */
	cds_list_swap(L('a'), L('b'));
	CHECK_LIST(&h, 'b', 'a', 'c');
	/* (second, first): before: [h] <-> b <-> a <-> c   after: [h] <-> a <-> b <-> c */
	cds_list_swap(L('a'), L('b'));
	CHECK_LIST(&h, 'a', 'b', 'c');
	/* (second, first) the other way: after: [h] <-> a <-> c <-> b */
	cds_list_swap(L('c'), L('b'));
	CHECK_LIST(&h, 'a', 'c', 'b');
}

Test(list_plain, swap_the_only_two)
{
	build(&h, "ab");
	/* before: [h] <-> a <-> b   after: [h] <-> b <-> a */
	cds_list_swap(L('a'), L('b'));
	CHECK_LIST(&h, 'b', 'a');
	cds_list_swap(L('a'), L('b'));
	CHECK_LIST(&h, 'a', 'b');
}

Test(list_plain, swap_non_adjacent)
{
	build(&h, "abcde");
	/* before: [h] <-> a <-> b <-> c <-> d <-> e
	 * after:  [h] <-> e <-> b <-> c <-> d <-> a */
	cds_list_swap(L('a'), L('e'));
	CHECK_LIST(&h, 'e', 'b', 'c', 'd', 'a');
	/* one apart: after: [h] <-> e <-> d <-> c <-> b <-> a */
	cds_list_swap(L('d'), L('b'));
	CHECK_LIST(&h, 'e', 'd', 'c', 'b', 'a');
}

Test(list_plain, swap_across_two_lists)
{
	build(&h, "abc");
	build(&g, "de");
	/* before: [h] <-> a <-> b <-> c   [g] <-> d <-> e
	 * after:  [h] <-> a <-> e <-> c   [g] <-> d <-> b */
	cds_list_swap(L('b'), L('e'));
	CHECK_LIST(&h, 'a', 'e', 'c');
	CHECK_LIST(&g, 'd', 'b');
	/* singular lists: [f] alone in one */
	build(&g, "f");
	/* before: [h] <-> a <-> e <-> c   [g] <-> f
	 * after:  [h] <-> f <-> e <-> c   [g] <-> a */
	cds_list_swap(L('f'), L('a'));
	CHECK_LIST(&h, 'f', 'e', 'c');
	CHECK_LIST(&g, 'a');
}

/* ------------------------------------------------- splice */

Test(list_plain, splice_puts_add_at_the_beginning)
{
	build(&g, "de");
	build(&h, "ab");
	/* before: [g] <-> d <-> e   [h] <-> a <-> b
	 * after:  [h] <-> d <-> e <-> a <-> b */
	cds_list_splice(&g, &h);
	CHECK_LIST(&h, 'd', 'e', 'a', 'b');
}

Test(list_plain, splice_into_an_empty_list)
{
	build(&g, "abc");
	/* before: [g] <-> a <-> b <-> c   [h]   after: [h] <-> a <-> b <-> c */
	cds_list_splice(&g, &h);
	CHECK_LIST(&h, 'a', 'b', 'c');
}

Test(list_plain, splice_of_an_empty_list_changes_nothing)
{
	build(&h, "ab");
	/* before: [g]   [h] <-> a <-> b   after: the same */
	cds_list_splice(&g, &h);
	CHECK_LIST(&h, 'a', 'b');
	CHECK_EMPTY(&g);
}

Test(list_plain, splice_tail_puts_add_at_the_end)
{
	build(&g, "de");
	build(&h, "ab");
	/* before: [g] <-> d <-> e   [h] <-> a <-> b
	 * after:  [h] <-> a <-> b <-> d <-> e */
	cds_list_splice_tail(&g, &h);
	CHECK_LIST(&h, 'a', 'b', 'd', 'e');
	/* an empty add: [h] unchanged */
	CDS_INIT_LIST_HEAD(&g);
	cds_list_splice_tail(&g, &h);
	CHECK_LIST(&h, 'a', 'b', 'd', 'e');
	CHECK_EMPTY(&g);
}

/* ------------------------------------------------- cut */

Test(list_plain, cut_position_at_head_empties_list)
{
	build(&h, "abc");
	build(&g, "");
	/* before: [h] <-> a <-> b <-> c   after: [g], [h] unchanged */
	cds_list_cut_position(&g, &h, &h);
	CHECK_EMPTY(&g);
	CHECK_LIST(&h, 'a', 'b', 'c');
}

Test(list_plain, cut_position_of_a_singular_list)
{
	build(&h, "a");
	/* before: [h] <-> a   after: [g] <-> a, [h] */
	cds_list_cut_position(&g, &h, L('a'));
	CHECK_LIST(&g, 'a');
	CHECK_EMPTY(&h);
	/* an entry not on the singular list: nothing happens */
	build(&h, "b");
	build(&g, "");
	cds_list_cut_position(&g, &h, L('c'));
	CHECK_EMPTY(&g);
	CHECK_LIST(&h, 'b');
}

Test(list_plain, cut_position_of_an_empty_list_does_nothing)
{
	build(&g, "d");
	/* before: [h]   after: [h], [g] <-> d untouched */
	cds_list_cut_position(&g, &h, &h);
	CHECK_EMPTY(&h);
	CHECK_LIST(&g, 'd');
}

Test(list_plain, cut_position_in_the_middle)
{
	build(&h, "abcd");
	/* before: [h] <-> a <-> b <-> c <-> d
	 * after:  [g] <-> a <-> b   [h] <-> c <-> d */
	cds_list_cut_position(&g, &h, L('b'));
	CHECK_LIST(&g, 'a', 'b');
	CHECK_LIST(&h, 'c', 'd');
}

Test(list_plain, cut_position_at_the_first)
{
	build(&h, "abc");
	/* before: [h] <-> a <-> b <-> c   after: [g] <-> a   [h] <-> b <-> c */
	cds_list_cut_position(&g, &h, L('a'));
	CHECK_LIST(&g, 'a');
	CHECK_LIST(&h, 'b', 'c');
}

Test(list_plain, cut_position_at_the_last)
{
	build(&h, "abcd");
	/* before: [h] <-> a <-> b <-> c <-> d
	 * after:  [g] <-> a <-> b <-> c <-> d   [h] */
	cds_list_cut_position(&g, &h, L('d'));
	CHECK_LIST(&g, 'a', 'b', 'c', 'd');
	CHECK_EMPTY(&h);
}

Test(list_plain, cut_before_the_first_empties_list)
{
	build(&h, "abc");
	build(&g, "");
	/* before: [h] <-> a <-> b <-> c   after: [g], [h] unchanged */
	cds_list_cut_before(&g, &h, L('a'));
	CHECK_EMPTY(&g);
	CHECK_LIST(&h, 'a', 'b', 'c');
}

Test(list_plain, cut_before_in_the_middle)
{
	build(&h, "abcd");
	/* before: [h] <-> a <-> b <-> c <-> d
	 * after:  [g] <-> a <-> b   [h] <-> c <-> d */
	cds_list_cut_before(&g, &h, L('c'));
	CHECK_LIST(&g, 'a', 'b');
	CHECK_LIST(&h, 'c', 'd');
	/* before the last: after: [g] <-> c   [h] <-> d */
	cds_list_cut_before(&g, &h, L('d'));
	CHECK_LIST(&g, 'c');
	CHECK_LIST(&h, 'd');
}

Test(list_plain, cut_before_head_moves_everything)
{
	build(&h, "abc");
	/* before: [h] <-> a <-> b <-> c   after: [g] <-> a <-> b <-> c   [h] */
	cds_list_cut_before(&g, &h, &h);
	CHECK_LIST(&g, 'a', 'b', 'c');
	CHECK_EMPTY(&h);
	/* and of an empty list: [g] is made empty */
	build(&g, "d");
	cds_list_cut_before(&g, &h, &h);
	CHECK_EMPTY(&g);
	CHECK_EMPTY(&h);
}

/* ------------------------------------------------- rotate */

Test(list_plain, rotate_left)
{
	build(&h, "abc");
	/* before: [h] <-> a <-> b <-> c   after: [h] <-> b <-> c <-> a */
	cds_list_rotate_left(&h);
	CHECK_LIST(&h, 'b', 'c', 'a');
	cds_list_rotate_left(&h);
	CHECK_LIST(&h, 'c', 'a', 'b');
	cds_list_rotate_left(&h);
	CHECK_LIST(&h, 'a', 'b', 'c');
	/* empty and singular lists do not change */
	cds_list_rotate_left(&g);
	CHECK_EMPTY(&g);
	build(&g, "d");
	cds_list_rotate_left(&g);
	CHECK_LIST(&g, 'd');
}

Test(list_plain, rotate_to_front)
{
	build(&h, "abcd");
	/* before: [h] <-> a <-> b <-> c <-> d   after: [h] <-> c <-> d <-> a <-> b */
	cds_list_rotate_to_front(L('c'), &h);
	CHECK_LIST(&h, 'c', 'd', 'a', 'b');
	/* the last: after: [h] <-> b <-> c <-> d <-> a */
	cds_list_rotate_to_front(L('b'), &h);
	CHECK_LIST(&h, 'b', 'c', 'd', 'a');
	/* the first already: no change */
	cds_list_rotate_to_front(L('b'), &h);
	CHECK_LIST(&h, 'b', 'c', 'd', 'a');
}
