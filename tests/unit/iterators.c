// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/iterators.c - every circular-list iterator, plain and RCU (the RCU
 * ones single-threaded, inside a read-side critical section).
 *
 * Each test asserts the exact visit order, records how many times the
 * head argument was evaluated (HEAD has a side effect), and where the
 * cursor is left.  Elements are e['a'..'f'] with keys 'a'..'f'.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define NELEM 6
static struct item e[NELEM];
static struct cds_list_head h;

#define L(ch)  (&e[(ch) - 'a'].link)
#define IT(ch) (&e[(ch) - 'a'])

/* The head, as an expression with a side effect: count its evaluations. */
static int head_evals;
#define HEAD (head_evals++, &h)

/* The visit order, as a string of keys. */
static char seen[64];
static size_t nseen;

static void visit(int key)
{
	cr_assert_lt(nseen, sizeof(seen) - 1, "too many visits");
	seen[nseen++] = (char)key;
	seen[nseen] = '\0';
}

#define CHECK_VISITS(expect)                                           \
	do {                                                           \
		cr_assert_str_eq(seen, expect);                        \
		cr_assert_eq(head_evals, 1, "head evaluated %d times", \
			     head_evals);                              \
	} while (0)

static void reset(void)
{
	nseen = 0;
	seen[0] = '\0';
	head_evals = 0;
}

/* [h] <-> a <-> b <-> c <-> d */
static void setup(void)
{
	int i;

	memset(e, 0xa5, sizeof(e));
	CDS_INIT_LIST_HEAD(&h);
	for (i = 0; i < NELEM; i++)
		e[i].key = 'a' + i;
	for (i = 0; i < 4; i++)
		cds_list_add_tail(&e[i].link, &h);
	reset();
}

/* Scribble over an unlinked element, as free() and reuse might. */
static void trash(struct cds_list_head *link)
{
	memset(link, 0x5a, sizeof(*link));
}

TestSuite(iterators, .timeout = 10, .init = setup);

/* ------------------------------------------------- link iterators */

Test(iterators, for_each)
{
	struct cds_list_head *pos;

	cds_list_for_each(pos, HEAD)
		visit(ITEM_KEY(pos));
	CHECK_VISITS("abcd");
	cr_assert_eq(pos, &h);
	CHECK_LIST(&h, 'a', 'b', 'c', 'd');
}

Test(iterators, for_each_on_an_empty_list)
{
	struct cds_list_head *pos;

	CDS_INIT_LIST_HEAD(&h);
	cds_list_for_each(pos, HEAD)
		visit(ITEM_KEY(pos));
	CHECK_VISITS("");
	cr_assert_eq(pos, &h);
}

Test(iterators, for_each_break_and_continue)
{
	struct cds_list_head *pos;

	cds_list_for_each(pos, HEAD) {
		if (pos == L('b'))
			continue;
		if (pos == L('d'))
			break;
		visit(ITEM_KEY(pos));
	}
	CHECK_VISITS("ac");
	cr_assert_eq(pos, L('d'));
}

Test(iterators, for_each_prev)
{
	struct cds_list_head *pos;

	cds_list_for_each_prev(pos, HEAD)
		visit(ITEM_KEY(pos));
	CHECK_VISITS("dcba");
	cr_assert_eq(pos, &h);
}

Test(iterators, for_each_continue)
{
	struct cds_list_head *pos = L('b');

	/* from b, exclusive: c d */
	cds_list_for_each_continue(pos, HEAD)
		visit(ITEM_KEY(pos));
	CHECK_VISITS("cd");
	cr_assert_eq(pos, &h);
	/* from the last: nothing */
	reset();
	pos = L('d');
	cds_list_for_each_continue(pos, HEAD)
		visit(ITEM_KEY(pos));
	CHECK_VISITS("");
}

Test(iterators, for_each_safe_deleting_every_link)
{
	struct cds_list_head *pos, *p;

	/* before: [h] <-> a <-> b <-> c <-> d   after: [h] */
	cds_list_for_each_safe(pos, p, HEAD) {
		visit(ITEM_KEY(pos));
		cds_list_del(pos);
		trash(pos);
	}
	CHECK_VISITS("abcd");
	CHECK_EMPTY(&h);
}

Test(iterators, for_each_safe_deleting_some)
{
	struct cds_list_head *pos, *p;

	/* before: [h] <-> a <-> b <-> c <-> d   after: [h] <-> a <-> c */
	cds_list_for_each_safe(pos, p, HEAD) {
		visit(ITEM_KEY(pos));
		if (ITEM_KEY(pos) == 'b' || ITEM_KEY(pos) == 'd') {
			cds_list_del(pos);
			trash(pos);
		}
	}
	CHECK_VISITS("abcd");
	CHECK_LIST(&h, 'a', 'c');
}

Test(iterators, for_each_prev_safe_deleting)
{
	struct cds_list_head *pos, *p;

	/* before: [h] <-> a <-> b <-> c <-> d   after: [h] <-> a */
	cds_list_for_each_prev_safe(pos, p, HEAD) {
		if (pos == L('a'))
			break;
		visit(ITEM_KEY(pos));
		cds_list_del(pos);
		trash(pos);
	}
	CHECK_VISITS("dcb");
	CHECK_LIST(&h, 'a');
}

/* ------------------------------------------------- entry iterators */

Test(iterators, for_each_entry)
{
	struct item *pos;

	cds_list_for_each_entry(pos, HEAD, link)
		visit(pos->key);
	CHECK_VISITS("abcd");
	CHECK_LIST(&h, 'a', 'b', 'c', 'd');
}

Test(iterators, for_each_entry_not_found_idiom)
{
	struct item *pos;

	/* a search that finds nothing leaves &pos->link == head */
	cds_list_for_each_entry(pos, HEAD, link)
		if (pos->key == 'z')
			break;
	cr_assert_eq(&pos->link, &h);
	cr_assert_eq(head_evals, 1);
	/* one that finds, does not */
	cds_list_for_each_entry(pos, &h, link)
		if (pos->key == 'c')
			break;
	cr_assert_eq(pos, IT('c'));
	/* and an empty list ends at once, at the head */
	CDS_INIT_LIST_HEAD(&h);
	cds_list_for_each_entry(pos, &h, link)
		visit(pos->key);
	cr_assert_eq(&pos->link, &h);
	cr_assert_str_eq(seen, "");
}

Test(iterators, for_each_entry_break_and_continue)
{
	struct item *pos;

	cds_list_for_each_entry(pos, HEAD, link) {
		if (pos->key == 'a')
			continue;
		visit(pos->key);
		if (pos->key == 'c')
			break;
	}
	CHECK_VISITS("bc");
	cr_assert_eq(pos, IT('c'));
}

Test(iterators, for_each_entry_reverse)
{
	struct item *pos;

	cds_list_for_each_entry_reverse(pos, HEAD, link)
		visit(pos->key);
	CHECK_VISITS("dcba");
	cr_assert_eq(&pos->link, &h);
}

Test(iterators, for_each_entry_continue)
{
	struct item *pos = IT('b');

	cds_list_for_each_entry_continue(pos, HEAD, link)
		visit(pos->key);
	CHECK_VISITS("cd");
	cr_assert_eq(&pos->link, &h);
}

Test(iterators, for_each_entry_continue_reverse)
{
	struct item *pos = IT('c');

	cds_list_for_each_entry_continue_reverse(pos, HEAD, link)
		visit(pos->key);
	CHECK_VISITS("ba");
	cr_assert_eq(&pos->link, &h);
}

Test(iterators, for_each_entry_from)
{
	struct item *pos = IT('b');

	cds_list_for_each_entry_from(pos, HEAD, link)
		visit(pos->key);
	CHECK_VISITS("bcd");
	cr_assert_eq(&pos->link, &h);
	/* from the head itself (after a failed search): nothing */
	reset();
	cds_list_for_each_entry_from(pos, HEAD, link)
		visit(pos->key);
	CHECK_VISITS("");
}

Test(iterators, for_each_entry_from_resumes_a_search)
{
	struct item *pos;

	/* the kernel idiom: find b, then go on from there */
	cds_list_for_each_entry(pos, &h, link)
		if (pos->key == 'b')
			break;
	cds_list_for_each_entry_from(pos, HEAD, link)
		visit(pos->key);
	CHECK_VISITS("bcd");
}

Test(iterators, for_each_entry_from_reverse)
{
	struct item *pos = IT('c');

	cds_list_for_each_entry_from_reverse(pos, HEAD, link)
		visit(pos->key);
	CHECK_VISITS("cba");
	cr_assert_eq(&pos->link, &h);
}

Test(iterators, entry_is_head)
{
	struct item *pos, *p;

	/* a loop run to its end leaves pos at the head's (invalid) entry */
	cds_list_for_each_entry(pos, &h, link)
		visit(pos->key);
	cr_assert(cds_list_entry_is_head(pos, HEAD, link));
	CHECK_VISITS("abcd");
	/* one that breaks out leaves a real element: not the head */
	reset();
	cds_list_for_each_entry_reverse(pos, &h, link)
		if (pos->key == 'c')
			break;
	cr_assert_not(cds_list_entry_is_head(pos, HEAD, link));
	cr_assert_eq(pos, IT('c'));
	cr_assert_eq(head_evals, 1);
	/* every element, first and last included, is not the head */
	cr_assert_not(cds_list_entry_is_head(IT('a'), &h, link));
	cr_assert_not(cds_list_entry_is_head(IT('d'), &h, link));
	/* another list's head is not this one */
	cr_assert_not(cds_list_entry_is_head(cds_list_entry(&e[5].link,
							    struct item, link),
					     &h, link));
	/* each argument evaluated once */
	reset();
	p = IT('a');
	cr_assert_not(cds_list_entry_is_head(p++, HEAD, link));
	cr_assert_eq(p, IT('b'));
	cr_assert_eq(head_evals, 1);
	CHECK_LIST(&h, 'a', 'b', 'c', 'd');
}

/* ------------------------------------------------- safe entry iterators */

static struct item *new_item(int key)
{
	struct item *it = malloc(sizeof(*it));

	cr_assert_not_null(it);
	it->key = key;
	return it;
}

/* A list of malloc()ed elements: [h] <-> keys... */
static void build_heap(const char *keys)
{
	CDS_INIT_LIST_HEAD(&h);
	for (; *keys; keys++)
		cds_list_add_tail(&new_item(*keys)->link, &h);
}

static void free_item(struct item *it)
{
	memset(it, 0x5a, sizeof(*it));
	free(it);
}

Test(iterators, for_each_entry_safe_deleting_and_freeing)
{
	struct item *pos, *n;

	build_heap("abcd");
	/* before: [h] <-> a <-> b <-> c <-> d   after: [h] */
	cds_list_for_each_entry_safe(pos, n, HEAD, link) {
		visit(pos->key);
		cds_list_del(&pos->link);
		free_item(pos);
	}
	CHECK_VISITS("abcd");
	CHECK_EMPTY(&h);
	cr_assert_eq(&pos->link, &h);
}

Test(iterators, for_each_entry_safe_deleting_some)
{
	struct item *pos, *n;

	build_heap("abcd");
	/* before: [h] <-> a <-> b <-> c <-> d   after: [h] <-> b <-> d */
	cds_list_for_each_entry_safe(pos, n, HEAD, link) {
		visit(pos->key);
		if (pos->key == 'a' || pos->key == 'c') {
			cds_list_del(&pos->link);
			free_item(pos);
		}
	}
	CHECK_VISITS("abcd");
	CHECK_LIST(&h, 'b', 'd');
	cds_list_for_each_entry_safe(pos, n, &h, link)
		free_item(pos);
}

Test(iterators, for_each_entry_safe_reverse)
{
	struct item *pos, *n;

	build_heap("abcd");
	/* before: [h] <-> a <-> b <-> c <-> d   after: [h] */
	cds_list_for_each_entry_safe_reverse(pos, n, HEAD, link) {
		visit(pos->key);
		cds_list_del(&pos->link);
		free_item(pos);
	}
	CHECK_VISITS("dcba");
	CHECK_EMPTY(&h);
}

Test(iterators, for_each_entry_safe_from)
{
	struct item *pos, *n;

	/* before: [h] <-> a <-> b <-> c <-> d   after: [h] <-> a (from b on) */
	pos = IT('b');
	cds_list_for_each_entry_safe_from(pos, n, HEAD, link) {
		visit(pos->key);
		cds_list_del(&pos->link);
		trash(&pos->link);
	}
	CHECK_VISITS("bcd");
	CHECK_LIST(&h, 'a');
	cr_assert_eq(&pos->link, &h);
}

Test(iterators, for_each_entry_safe_continue)
{
	struct item *pos, *n;

	/* before: [h] <-> a <-> b <-> c <-> d   after: [h] <-> a <-> b (after b) */
	pos = IT('b');
	cds_list_for_each_entry_safe_continue(pos, n, HEAD, link) {
		visit(pos->key);
		cds_list_del(&pos->link);
		trash(&pos->link);
	}
	CHECK_VISITS("cd");
	CHECK_LIST(&h, 'a', 'b');
}

Test(iterators, safe_iterators_break_and_continue)
{
	struct item *pos, *n;

	cds_list_for_each_entry_safe(pos, n, HEAD, link) {
		if (pos->key == 'b')
			continue;
		if (pos->key == 'd')
			break;
		visit(pos->key);
	}
	CHECK_VISITS("ac");
	cr_assert_eq(pos, IT('d'));
	CHECK_LIST(&h, 'a', 'b', 'c', 'd');
}

/* ------------------------------------------------- forms */

Test(iterators, nest_in_themselves)
{
	struct cds_list_head *p1, *p2, *s1, *s2;
	struct item *i1, *i2, *n1, *n2;
	int pairs = 0;

	/* every pair (x, y), x before y in list order, four ways */
	cds_list_for_each(p1, &h)
		cds_list_for_each(p2, &h)
			if (ITEM_KEY(p1) < ITEM_KEY(p2))
				pairs++;
	cds_list_for_each_safe(p1, s1, &h)
		cds_list_for_each_safe(p2, s2, &h)
			if (ITEM_KEY(p1) < ITEM_KEY(p2))
				pairs++;
	cds_list_for_each_entry(i1, &h, link)
		cds_list_for_each_entry_reverse(i2, &h, link)
			if (i1->key < i2->key)
				pairs++;
	cds_list_for_each_entry_safe(i1, n1, &h, link)
		cds_list_for_each_entry_safe(i2, n2, &h, link)
			if (i1->key < i2->key)
				pairs++;
	cr_assert_eq(pairs, 4 * 6);
	/* the same iterator on the same cursor type: pairs x < y, in order */
	cds_list_for_each_entry(i1, &h, link) {
		i2 = i1;
		cds_list_for_each_entry_continue(i2, &h, link) {
			visit(i1->key);
			visit(i2->key);
		}
	}
	cr_assert_str_eq(seen, "abacadbcbdcd");
}

Test(iterators, single_statement_bodies_and_dangling_else)
{
	struct cds_list_head *pos;
	struct item *it;
	int n = 0, other = 0;

	if (n == 0)
		cds_list_for_each(pos, &h)
			n++;
	else
		other++;
	cr_assert_eq(n, 4);
	cr_assert_eq(other, 0);
	if (n != 4)
		cds_list_for_each_entry(it, &h, link)
			n++;
	else
		other++;
	cr_assert_eq(n, 4);
	cr_assert_eq(other, 1);
}

/* Walking a list through a const head works, as with liburcu. */
static int sum_keys(const struct cds_list_head *head)
{
	const struct item *pos;
	int sum = 0;

	cds_list_for_each_entry(pos, head, link)
		sum += pos->key;
	cds_list_for_each_entry_reverse(pos, head, link)
		sum += pos->key;
	return sum;
}

Test(iterators, const_head)
{
	cr_assert_eq(sum_keys(&h), 2 * ('a' + 'b' + 'c' + 'd'));
}

/* ------------------------------------------------- RCU iterators */

static void rcu_setup(void) RCULIST_ACQUIRES_RCU
{
	setup();
	rculist_register_thread();
	rculist_read_lock();
}

static void rcu_teardown(void) RCULIST_RELEASES_RCU
{
	rculist_read_unlock();
	rculist_unregister_thread();
}

TestSuite(iterators_rcu, .timeout = 10, .init = rcu_setup, .fini = rcu_teardown);

TEST_REQUIRES_RCU(iterators_rcu, for_each_rcu);
Test(iterators_rcu, for_each_rcu)
{
	struct cds_list_head *pos;

	cds_list_for_each_rcu(pos, HEAD)
		visit(ITEM_KEY(pos));
	CHECK_VISITS("abcd");
	cr_assert_eq(pos, &h);
	reset();
	cds_list_for_each_rcu(pos, HEAD) {
		if (pos == L('a'))
			continue;
		if (pos == L('c'))
			break;
		visit(ITEM_KEY(pos));
	}
	CHECK_VISITS("b");
	cr_assert_eq(pos, L('c'));
}

TEST_REQUIRES_RCU(iterators_rcu, for_each_entry_rcu);
Test(iterators_rcu, for_each_entry_rcu)
{
	struct item *pos;

	cds_list_for_each_entry_rcu(pos, HEAD, link)
		visit(pos->key);
	CHECK_VISITS("abcd");
	cr_assert_eq(&pos->link, &h);
	reset();
	cds_list_for_each_entry_rcu(pos, HEAD, link) {
		if (pos->key == 'b')
			continue;
		visit(pos->key);
		if (pos->key == 'c')
			break;
	}
	CHECK_VISITS("ac");
	cr_assert_eq(pos, IT('c'));
}

TEST_REQUIRES_RCU(iterators_rcu, for_each_entry_reverse_rcu);
Test(iterators_rcu, for_each_entry_reverse_rcu)
{
	struct item *pos;

	cds_list_for_each_entry_reverse_rcu(pos, HEAD, link)
		visit(pos->key);
	CHECK_VISITS("dcba");
	cr_assert_eq(&pos->link, &h);
	reset();
	cds_list_for_each_entry_reverse_rcu(pos, HEAD, link)
		if (pos->key == 'b')
			break;
	cr_assert_eq(pos, IT('b'));
}

TEST_REQUIRES_RCU(iterators_rcu, for_each_entry_continue_rcu);
Test(iterators_rcu, for_each_entry_continue_rcu)
{
	struct item *pos = IT('b');

	cds_list_for_each_entry_continue_rcu(pos, HEAD, link)
		visit(pos->key);
	CHECK_VISITS("cd");
	cr_assert_eq(&pos->link, &h);
}

TEST_REQUIRES_RCU(iterators_rcu, for_each_entry_from_rcu);
Test(iterators_rcu, for_each_entry_from_rcu)
{
	struct item *pos;

	cds_list_for_each_entry_rcu(pos, &h, link)
		if (pos->key == 'c')
			break;
	cds_list_for_each_entry_from_rcu(pos, HEAD, link)
		visit(pos->key);
	CHECK_VISITS("cd");
	cr_assert_eq(&pos->link, &h);
}

TEST_REQUIRES_RCU(iterators_rcu, empty_list);
Test(iterators_rcu, empty_list)
{
	struct cds_list_head *p;
	struct item *pos;

	CDS_INIT_LIST_HEAD(&h);
	cds_list_for_each_rcu(p, &h)
		visit(ITEM_KEY(p));
	cds_list_for_each_entry_rcu(pos, &h, link)
		visit(pos->key);
	cds_list_for_each_entry_reverse_rcu(pos, &h, link)
		visit(pos->key);
	cr_assert_str_eq(seen, "");
	cr_assert_eq(&pos->link, &h);
}

TEST_REQUIRES_RCU(iterators_rcu, nest_in_themselves);
Test(iterators_rcu, nest_in_themselves)
{
	struct cds_list_head *p1, *p2;
	struct item *i1, *i2;
	int pairs = 0;

	cds_list_for_each_rcu(p1, &h)
		cds_list_for_each_rcu(p2, &h)
			if (ITEM_KEY(p1) < ITEM_KEY(p2))
				pairs++;
	cds_list_for_each_entry_rcu(i1, &h, link)
		cds_list_for_each_entry_rcu(i2, &h, link)
			if (i1->key < i2->key)
				pairs++;
	cds_list_for_each_entry_reverse_rcu(i1, &h, link)
		cds_list_for_each_entry_reverse_rcu(i2, &h, link)
			if (i1->key < i2->key)
				pairs++;
	cr_assert_eq(pairs, 3 * 6);
}

TEST_REQUIRES_RCU(iterators_rcu, const_head);
Test(iterators_rcu, const_head)
{
	const struct cds_list_head *ch = &h;
	const struct item *pos;
	int sum = 0;

	cds_list_for_each_entry_rcu(pos, ch, link)
		sum += pos->key;
	cds_list_for_each_entry_reverse_rcu(pos, ch, link)
		sum -= pos->key;
	cr_assert_eq(sum, 0);
	cr_assert_eq(&pos->link, &h);
}
