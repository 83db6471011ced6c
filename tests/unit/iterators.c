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

TestSuite(iterators, .timeout = 10, .init = setup);

/* The _rcu suite walks inside a read-side section of a registered thread. */
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

/* ------------------------------------------------- link iterators */

Test(iterators, for_each_on_an_empty_list)
{
	struct cds_list_head *pos;

	CDS_INIT_LIST_HEAD(&h);
	cds_list_for_each(pos, HEAD)
		visit(ITEM_KEY(pos));
	CHECK_VISITS("");
	cr_assert_eq(pos, &h);
}

/* ------------------------------------------------- entry iterators */

Test(iterators, for_each_entry_not_found_idiom)
{
	struct item *pos;

	/*
	 * a search that finds nothing leaves &pos->link == head (asked with
	 * cds_list_entry_is_head(): a member access through the head's
	 * entry is what clang's -fsanitize=undefined reports)
	 */
	cds_list_for_each_entry(pos, HEAD, link)
		if (pos->key == 'z')
			break;
	cr_assert(cds_list_entry_is_head(pos, &h, link));
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
	cr_assert(cds_list_entry_is_head(pos, &h, link));
	cr_assert_str_eq(seen, "");
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

/* ------------------------------------------------- heap elements */

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

/* ------------------------------------------------- the walks, as tables */

/* A test of @suite: those of iterators_rcu hold a read-side section. */
#define DECLARE_iterators(test)	    TEST_NO_RCU_ANALYSIS(iterators, test)
#define DECLARE_iterators_rcu(test) TEST_REQUIRES_RCU(iterators_rcu, test)

/* The entry whose link is the head itself (where a failed search ends). */
#define HEAD_ENTRY cds_list_entry(&h, struct item, link)

/* (clang-format would not lay out the loops of the bodies below as loops) */
/* clang-format off */
/* The _safe iterators with their spare cursor @n, as walk(pos, head[, member]). */
#define LINK_SAFE(pos, head)		  cds_list_for_each_safe(pos, n, head)
#define LINK_PREV_SAFE(pos, head)	  cds_list_for_each_prev_safe(pos, n, head)
#define ENTRY_SAFE(pos, head, m)	  cds_list_for_each_entry_safe(pos, n, head, m)
#define ENTRY_SAFE_REVERSE(pos, head, m)  cds_list_for_each_entry_safe_reverse(pos, n, head, m)
#define ENTRY_SAFE_FROM(pos, head, m)	  cds_list_for_each_entry_safe_from(pos, n, head, m)
#define ENTRY_SAFE_CONTINUE(pos, head, m) cds_list_for_each_entry_safe_continue(pos, n, head, m)

/*
 * The two kinds of cursor, for the tables below: a link (the list_head
 * iterators) or an entry.  Of a cursor @pos: its key, its link; the
 * cursor at element @ch; a walk of [h] by iterator @walk; the cursor at
 * item @it, and the item at cursor @pos.
 */
#define LINK_T			struct cds_list_head
#define LINK_KEY(pos)		ITEM_KEY(pos)
#define LINK_LINK(pos)		(pos)
#define LINK_AT(ch)		L(ch)
#define LINK_WALK(walk, pos)	walk(pos, HEAD)
#define LINK_OF(it)		(&(it)->link)
#define LINK_ITEM(pos)		cds_list_entry(pos, struct item, link)
#define ENTRY_T			struct item
#define ENTRY_KEY(pos)		((pos)->key)
/* &pos->link, of the head's entry too, without a member access */
#define ENTRY_LINK(pos)							\
	((struct cds_list_head *)((char *)(pos) + offsetof(struct item, link)))
#define ENTRY_AT(ch)		IT(ch)
#define ENTRY_WALK(walk, pos)	walk(pos, HEAD, link)
#define ENTRY_OF(it)		(it)
#define ENTRY_ITEM(pos)		(pos)

/*
 * A whole walk of [h] <-> a <-> b <-> c <-> d by cds_list_<iterator>,
 * the cursor starting at @start: it visits @expect, ends on the head,
 * and leaves the list as it was.  X(test, kind, iterator, start, expect)
 */
#define PLAIN_WALKS(X)							\
	X(for_each, LINK, for_each, NULL, "abcd")			\
	X(for_each_prev, LINK, for_each_prev, NULL, "dcba")		\
	X(for_each_continue, LINK, for_each_continue, L('b'), "cd")	\
	X(for_each_continue_from_the_last, LINK, for_each_continue, L('d'), "") \
	X(for_each_entry, ENTRY, for_each_entry, NULL, "abcd")		\
	X(for_each_entry_reverse, ENTRY, for_each_entry_reverse, NULL, "dcba") \
	X(for_each_entry_continue, ENTRY, for_each_entry_continue, IT('b'), "cd") \
	X(for_each_entry_continue_reverse, ENTRY, for_each_entry_continue_reverse, IT('c'), "ba") \
	X(for_each_entry_from, ENTRY, for_each_entry_from, IT('b'), "bcd") \
	X(for_each_entry_from_the_head, ENTRY, for_each_entry_from, HEAD_ENTRY, "") \
	X(for_each_entry_from_reverse, ENTRY, for_each_entry_from_reverse, IT('c'), "cba")
#define RCU_WALKS(X)							\
	X(for_each_rcu, LINK, for_each_rcu, NULL, "abcd")		\
	X(for_each_entry_rcu, ENTRY, for_each_entry_rcu, NULL, "abcd")	\
	X(for_each_entry_reverse_rcu, ENTRY, for_each_entry_reverse_rcu, NULL, "dcba") \
	X(for_each_entry_continue_rcu, ENTRY, for_each_entry_continue_rcu, IT('b'), "cd") \
	X(for_each_entry_from_rcu, ENTRY, for_each_entry_from_rcu, IT('c'), "cd")

#define WALK_TEST(suite, test, kind, iterator, start, expect)		\
	DECLARE_##suite(test);						\
	Test(suite, test)						\
	{								\
		kind##_T *pos = start;					\
									\
		kind##_WALK(cds_list_##iterator, pos)			\
			visit(kind##_KEY(pos));				\
		CHECK_VISITS(expect);					\
		cr_assert_eq(kind##_LINK(pos), &h);			\
		CHECK_LIST(&h, 'a', 'b', 'c', 'd');			\
	}
#define PLAIN_WALK(...) WALK_TEST(iterators, __VA_ARGS__)
#define RCU_WALK(...)	WALK_TEST(iterators_rcu, __VA_ARGS__)
PLAIN_WALKS(PLAIN_WALK)
RCU_WALKS(RCU_WALK)

/*
 * A walk that skips @skip with continue and stops at @stop with break
 * (before visiting it): it visits @expect and leaves the cursor at @stop.
 * X(test, kind, walk, skip, stop, expect)
 */
#define PLAIN_BREAKS(X)							\
	X(for_each_break_and_continue, LINK, cds_list_for_each, 'b', 'd', "ac") \
	X(for_each_entry_break_and_continue, ENTRY, cds_list_for_each_entry, 'a', 'c', "b") \
	X(safe_iterators_break_and_continue, ENTRY, ENTRY_SAFE, 'b', 'd', "ac")
#define RCU_BREAKS(X)							\
	X(for_each_rcu_break_and_continue, LINK, cds_list_for_each_rcu, 'a', 'c', "b") \
	X(for_each_entry_rcu_break, ENTRY, cds_list_for_each_entry_rcu, 'b', 'c', "a") \
	X(for_each_entry_reverse_rcu_break, ENTRY, cds_list_for_each_entry_reverse_rcu, \
	  'c', 'a', "db")

#define BREAK_TEST(suite, test, kind, walk, skip, stop, expect)		\
	DECLARE_##suite(test);						\
	Test(suite, test)						\
	{								\
		kind##_T *pos, *n;					\
									\
		(void)n;						\
		kind##_WALK(walk, pos) {				\
			if (kind##_KEY(pos) == (skip))			\
				continue;				\
			if (kind##_KEY(pos) == (stop))			\
				break;					\
			visit(kind##_KEY(pos));				\
		}							\
		CHECK_VISITS(expect);					\
		cr_assert_eq(pos, kind##_AT(stop));			\
		CHECK_LIST(&h, 'a', 'b', 'c', 'd');			\
	}
#define PLAIN_BREAK(...) BREAK_TEST(iterators, __VA_ARGS__)
#define RCU_BREAK(...)	 BREAK_TEST(iterators_rcu, __VA_ARGS__)
PLAIN_BREAKS(PLAIN_BREAK)
RCU_BREAKS(RCU_BREAK)

/*
 * The _safe iterators over malloc()ed elements, the cursor starting at
 * the element @start (0: none): each deletes and frees the elements of
 * @del as it goes, stops at @stop (0: never), visits @expect, ends on the
 * head (unless stopped) and leaves [h] <-> @left.
 * X(test, kind, iterator, start, stop, del, expect, left)
 */
#define SAFE_WALKS(X)							\
	X(for_each_safe_deleting_every_link, LINK, LINK_SAFE, 0, 0, "abcd", "abcd", "") \
	X(for_each_safe_deleting_some, LINK, LINK_SAFE, 0, 0, "bd", "abcd", "ac") \
	X(for_each_prev_safe_deleting, LINK, LINK_PREV_SAFE, 0, 'a', "bcd", "dcb", "a") \
	X(for_each_entry_safe_deleting_and_freeing, ENTRY, ENTRY_SAFE, 0, 0, "abcd", "abcd", "") \
	X(for_each_entry_safe_deleting_some, ENTRY, ENTRY_SAFE, 0, 0, "ac", "abcd", "bd") \
	X(for_each_entry_safe_reverse, ENTRY, ENTRY_SAFE_REVERSE, 0, 0, "abcd", "dcba", "") \
	X(for_each_entry_safe_from, ENTRY, ENTRY_SAFE_FROM, 'b', 0, "bcd", "bcd", "a") \
	X(for_each_entry_safe_continue, ENTRY, ENTRY_SAFE_CONTINUE, 'b', 0, "cd", "cd", "ab")

#define SAFE_TEST(test, kind, walk, start, stop, del, expect, left)	\
	Test(iterators, test)						\
	{								\
		kind##_T *pos = NULL, *n;				\
		struct item *it, *next;					\
									\
		build_heap("abcd");					\
		cds_list_for_each_entry(it, &h, link)			\
			if (it->key == (start))				\
				pos = kind##_OF(it);			\
		kind##_WALK(walk, pos) {				\
			if (kind##_KEY(pos) == (stop))			\
				break;					\
			visit(kind##_KEY(pos));				\
			if (strchr(del, kind##_KEY(pos))) {		\
				cds_list_del(kind##_LINK(pos));		\
				free_item(kind##_ITEM(pos));		\
			}						\
		}							\
		CHECK_VISITS(expect);					\
		if (!(stop))						\
			cr_assert_eq(kind##_LINK(pos), &h);		\
		check_list_str(&h, left);					\
		cds_list_for_each_entry_safe(it, next, &h, link)	\
			free_item(it);					\
	}
SAFE_WALKS(SAFE_TEST)
/* clang-format on */

/* ------------------------------------------------- forms */

/*
 * A walk by @walk nested in another by the same iterator (cursors @x and
 * @y of @kind): @count goes up once for each pair of keys in order.
 */
/* clang-format off */
#define COUNT_PAIRS(count, kind, walk, x, y)				\
	kind##_WALK(walk, x)						\
		kind##_WALK(walk, y)					\
			if (kind##_KEY(x) < kind##_KEY(y))		\
				(count)++
/* clang-format on */

Test(iterators, nest_in_themselves)
{
	struct cds_list_head *p1, *p2, *s1, *s2;
	struct item *i1, *i2, *n1, *n2;
	int pairs = 0;

	/* every pair (x, y), x before y in list order, four ways */
	COUNT_PAIRS(pairs, LINK, cds_list_for_each, p1, p2);
	cds_list_for_each_safe(p1, s1, &h)
		cds_list_for_each_safe(p2, s2, &h)
			if (ITEM_KEY(p1) < ITEM_KEY(p2))
				pairs++;
	COUNT_PAIRS(pairs, ENTRY, cds_list_for_each_entry_reverse, i1, i2);
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
	cr_assert(cds_list_entry_is_head(pos, &h, link));
}

TEST_REQUIRES_RCU(iterators_rcu, nest_in_themselves);
Test(iterators_rcu, nest_in_themselves)
{
	struct cds_list_head *p1, *p2;
	struct item *i1, *i2;
	int pairs = 0;

	COUNT_PAIRS(pairs, LINK, cds_list_for_each_rcu, p1, p2);
	COUNT_PAIRS(pairs, ENTRY, cds_list_for_each_entry_rcu, i1, i2);
	COUNT_PAIRS(pairs, ENTRY, cds_list_for_each_entry_reverse_rcu, i1, i2);
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
	cr_assert(cds_list_entry_is_head(pos, &h, link));
}
