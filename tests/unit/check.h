/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/unit/check.h - whole-shape assertions shared by the suites.
 *
 * A test states the list it expects as an array of keys and checks every
 * link of it: forwards, backwards, and that each prev agrees with the
 * next that leads to it.
 */
#ifndef RCULIST_TESTS_CHECK_H
#define RCULIST_TESTS_CHECK_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include <rculist.h>

/* The element type most tests use. */
struct item {
	int key;
	struct cds_list_head link;
	struct cds_hlist_node hnode;
	struct rcu_head rcu;
};

/*
 * For clang -Wthread-safety (make check-thread-safety): a Test() whose
 * body runs inside the read-side section its suite's .init opened, and
 * one that misuses the read side on purpose.  Placed before Test(), they
 * declare Criterion's test function with the attribute, which its
 * definition inherits.
 */
#define TEST_REQUIRES_RCU(suite, name) \
	void suite##_##name##_impl(void) RCULIST_REQUIRES_RCU
#define TEST_NO_RCU_ANALYSIS(suite, name) \
	void suite##_##name##_impl(void) RCULIST_NO_RCU_ANALYSIS

/*
 * The keys given, as the two arguments (array, count) that the check_*
 * functions take: CHECK_LIST(h, 1, 2) is check_list_keys(h, KEYS(1, 2), "h").
 */
#define KEYS(...)                     \
	(const int[]){ __VA_ARGS__ }, \
		sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int)

/*
 * The walks of the _rcu iterators run between reader_begin() and
 * reader_end(), a read-side section of a registered thread; a table of
 * walks names NO_SECTION for the plain ones.
 */
static inline void reader_begin(void) RCULIST_ACQUIRES_RCU
{
	rculist_register_thread();
	rculist_read_lock();
}

static inline void reader_end(void) RCULIST_RELEASES_RCU
{
	rculist_read_unlock();
	rculist_quiescent_state();
	rculist_unregister_thread();
}

#define NO_SECTION() ((void)0)

/*
 * What the next of a node just deleted reads, by the deletion: anything
 * (NEXT_ANY), NULL (the _init forms of hlists), or what it read before
 * (@was: the _rcu forms, for a reader standing on the node).
 */
enum del_next { NEXT_ANY, NEXT_NULL, NEXT_KEPT };

static inline void check_deleted_next(const void *next, const void *was,
				      enum del_next want, size_t step)
{
	if (want == NEXT_NULL)
		cr_assert_null(next, "step %zu: next is not NULL", step);
	if (want == NEXT_KEPT)
		cr_assert_eq(next, was, "step %zu: next changed", step);
}

/* The items given, as the two arguments (array, count) of list_fill(). */
#define ITEMS(...)                                              \
	(struct item *const[]){ __VA_ARGS__ },                  \
		sizeof((struct item *const[]){ __VA_ARGS__ }) / \
			sizeof(struct item *)

/* [head] <-> items[0] <-> ... <-> items[n - 1], by cds_list_add_tail(). */
static inline void list_fill(struct cds_list_head *head,
			     struct item *const items[], size_t n)
{
	for (size_t i = 0; i < n; i++)
		cds_list_add_tail(&items[i]->link, head);
}

/* [head] -> items[0] <-> ... <-> items[n - 1], by cds_hlist_add_head() from the last. */
static inline void hlist_fill(struct cds_hlist_head *head,
			      struct item *const items[], size_t n)
{
	for (size_t i = n; i-- > 0;)
		cds_hlist_add_head(&items[i]->hnode, head);
}

/* Assert that a deleted node's @next and @prev are both poisoned. */
static inline void check_poisoned(const void *next, const void *prev)
{
	cr_assert_eq(next, RCULIST_POISON_NEXT, "next: %p", next);
	cr_assert_eq(prev, RCULIST_POISON_PREV, "prev: %p", prev);
}

#define ITEM_KEY(l)  (cds_list_entry(l, struct item, link)->key)
#define HITEM_KEY(n) (cds_hlist_entry(n, struct item, hnode)->key)

/* Assert that @head holds exactly the @n keys @keys, checking both ways. */
static inline void check_list_keys(const struct cds_list_head *head,
				   const int *keys, size_t n, const char *where)
{
	const struct cds_list_head *pos = head;
	size_t i;

	for (i = 0; i < n; i++) {
		cr_assert_eq(pos->next->prev, pos,
			     "%s: [%zu]->next->prev does not lead back", where,
			     i);
		pos = pos->next;
		cr_assert_neq(pos, head, "%s: list ends after %zu of %zu keys",
			      where, i, n);
		cr_assert_eq(ITEM_KEY(pos), keys[i],
			     "%s: forward [%zu] is %d, expected %d", where, i,
			     ITEM_KEY(pos), keys[i]);
	}
	cr_assert_eq(pos->next, head, "%s: list longer than %zu keys", where, n);
	cr_assert_eq(head->prev, pos, "%s: head->prev is not the last", where);
	for (i = n; i-- > 0;) {
		cr_assert_eq(ITEM_KEY(pos), keys[i],
			     "%s: backward [%zu] is %d, expected %d", where, i,
			     ITEM_KEY(pos), keys[i]);
		cr_assert_eq(pos->prev->next, pos,
			     "%s: [%zu]->prev->next does not lead back", where,
			     i);
		pos = pos->prev;
	}
	cr_assert_eq(pos, head, "%s: backward walk does not end at head", where);
}

#define CHECK_LIST(head, ...) check_list_keys(head, KEYS(__VA_ARGS__), #head)

/* Assert that @head holds exactly the keys of the string @keys, both ways. */
static inline void check_list_str(const struct cds_list_head *head,
				  const char *keys)
{
	int k[64] = { 0 };
	size_t i, n = strlen(keys);

	cr_assert_lt(n, sizeof(k) / sizeof(k[0]));
	for (i = 0; i < n; i++)
		k[i] = keys[i];
	check_list_keys(head, k, n, keys);
}

/* Assert that @head is an empty circular list. */
#define CHECK_EMPTY(head)                                                   \
	do {                                                                \
		cr_assert_eq((head)->next, (head), #head " next not self"); \
		cr_assert_eq((head)->prev, (head), #head " prev not self"); \
		cr_assert(cds_list_empty(head));                            \
	} while (0)

/* Assert that the hlist @head holds exactly @keys, every prev consistent. */
static inline void check_hlist_keys(const struct cds_hlist_head *head,
				    const int *keys, size_t n, const char *where)
{
	const struct cds_hlist_node *prev =
		(const struct cds_hlist_node *)(const void *)head;
	const struct cds_hlist_node *pos = head->next;
	size_t i;

	for (i = 0; i < n; i++) {
		cr_assert_not_null(pos, "%s: list ends after %zu of %zu keys",
				   where, i, n);
		cr_assert_eq(pos->prev, prev, "%s: [%zu]->prev is wrong", where,
			     i);
		cr_assert_eq(HITEM_KEY(pos), keys[i],
			     "%s: [%zu] is %d, expected %d", where, i,
			     HITEM_KEY(pos), keys[i]);
		prev = pos;
		pos = pos->next;
	}
	cr_assert_null(pos, "%s: list longer than %zu keys", where, n);
}

#define CHECK_HLIST(head, ...) check_hlist_keys(head, KEYS(__VA_ARGS__), #head)

/*
 * A test's knob from the environment: the number @name holds, @def
 * unless set; the test fails, naming it, if it is not a number from
 * @min to @max.
 */
static inline double test_env_number(const char *name, double def, double min,
				     double max)
{
	const char *s = getenv(name);
	char *end;
	double v;

	if (!s)
		return def;
	v = strtod(s, &end);
	cr_assert(*s && !*end && v >= min && v <= max,
		  "%s=\"%s\": not a number from %g to %g", name, s, min, max);
	return v;
}

#endif /* RCULIST_TESTS_CHECK_H */
