/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/unit/list_cases.h - what tests/unit/list_plain.c and list_rcu.c
 * share: the elements e['a'..'h'] (keys 'a'..'h', so that the keys in
 * CHECK_LIST() read like the pictures: L('b') is element b's link), the
 * lists h and g, and the cases written once here and run by list_plain.c
 * on the plain operations and by list_rcu.c on the _rcu ones.
 */
#ifndef RCULIST_TESTS_LIST_CASES_H
#define RCULIST_TESTS_LIST_CASES_H

#include <string.h>

#include "check.h"

#define NELEM 8
static struct item e[NELEM];
static struct cds_list_head h, g;

#define L(ch)  (&e[(ch) - 'a'].link)
#define IT(ch) (&e[(ch) - 'a'])

/* Every element holds garbage links and its key; h and g are empty. */
static inline void list_cases_setup(void)
{
	int i;

	memset(e, 0xa5, sizeof(e));
	memset(&h, 0xa5, sizeof(h));
	memset(&g, 0xa5, sizeof(g));
	for (i = 0; i < NELEM; i++)
		e[i].key = 'a' + i;
	CDS_INIT_LIST_HEAD(&h);
	CDS_INIT_LIST_HEAD(&g);
}

/* Make @head hold the elements named by @keys, in that order (OP(add_tail)). */
static void build(struct cds_list_head *head, const char *keys)
{
	CDS_INIT_LIST_HEAD(head);
	for (; *keys; keys++)
		OP(add_tail)(L(*keys), head);
}

/*
 * A head made empty by @init (OP_INIT: the plain or the _rcu one): one
 * of garbage, and [h] <-> a <-> b (a and b left untouched).
 */
static inline void init_case(void (*init)(struct cds_list_head *))
{
	struct cds_list_head x;

	memset(&x, 0x5a, sizeof(x));
	init(&x);
	CHECK_EMPTY(&x);
	cr_assert(cds_list_empty_careful(&x));
	cr_assert_eq(cds_list_count_nodes(&x), 0);
	build(&h, "ab");
	init(&h);
	CHECK_EMPTY(&h);
	cr_assert_eq(L('a')->next, L('b'));
}

typedef void splice_fn(struct cds_list_head *add, struct cds_list_head *head);
typedef void build_fn(struct cds_list_head *head, const char *keys);
typedef void add_fn(struct cds_list_head *elem, struct cds_list_head *at);

/*
 * a, b and c added to the empty [h] by @add (at the beginning or the
 * end, plain or _rcu): a and b at [h], c at b; [h] is @after_a, then
 * @after_b, then @after_c.
 */
static inline void add_case(add_fn *add, const char *after_a,
			    const char *after_b, const char *after_c)
{
	add(L('a'), &h);
	check_list_str(&h, after_a);
	add(L('b'), &h);
	check_list_str(&h, after_b);
	add(L('c'), L('b'));
	check_list_str(&h, after_c);
}

/*
 * The splices that leave the spliced list empty (at the beginning or the
 * end, plain or _rcu), the lists built by @fill:
 *   before: [g] <-> d <-> e   [h] <-> a <-> b   after: [g]   [h] <-> @after_de
 * again from the empty [g]: nothing changes; then [g] <-> f spliced:
 * [h] <-> @after_f; last, [h] spliced into the empty [g]: [g] <-> @after_f.
 */
static inline void splice_case(splice_fn *splice, build_fn *fill,
			       const char *after_de, const char *after_f)
{
	static const char *const spliced[] = { "de", "", "f" };
	int i;

	fill(&h, "ab");
	CDS_INIT_LIST_HEAD(&g);
	for (i = 0; i < 3; i++) {
		if (*spliced[i])
			fill(&g, spliced[i]);
		splice(&g, &h);
		check_list_str(&h, i < 2 ? after_de : after_f);
		CHECK_EMPTY(&g);
	}
	splice(&h, &g);
	check_list_str(&g, after_f);
	CHECK_EMPTY(&h);
}

/*
 * The cases, as tests: X(plain test, _rcu test, the case it runs), the
 * operations named by OP() and OP_INIT, which list_plain.c spells
 * cds_list_<name> and CDS_INIT_LIST_HEAD, list_rcu.c cds_list_<name>_rcu
 * and CDS_INIT_LIST_HEAD_RCU, before it includes this file.
 */
/* clang-format off */
#define LIST_CASES(X)							\
	X(init_list_head, init_list_head_rcu, init_case(OP_INIT))	\
	X(add_inserts_at_the_beginning, add_rcu_inserts_at_the_beginning, \
	  add_case(OP(add), "a", "ba", "bca"))				\
	X(add_tail_inserts_at_the_end, add_tail_rcu_inserts_at_the_end,	\
	  add_case(OP(add_tail), "a", "ab", "acb"))			\
	X(splice_init_leaves_add_empty, splice_init_rcu,		\
	  splice_case(OP(splice_init), build, "deab", "fdeab"))		\
	X(splice_tail_init_leaves_add_empty, splice_tail_init_rcu,	\
	  splice_case(OP(splice_tail_init), build, "abde", "abdef"))

#define CASE_TEST(suite, test, run_case)				\
	Test(suite, test)						\
	{								\
		run_case;						\
	}
/* clang-format on */

#endif /* RCULIST_TESTS_LIST_CASES_H */
