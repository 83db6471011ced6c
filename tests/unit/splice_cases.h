/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/unit/splice_cases.h - the cases of splice_init and splice_tail_init,
 * defined in tests/unit/list_plain.c and run by it on the plain splices and by
 * tests/unit/list_rcu.c on the _rcu ones: @fill builds a list (with the plain
 * or the _rcu add), @add and @head are the two lists.
 */
#ifndef RCULIST_TESTS_SPLICE_CASES_H
#define RCULIST_TESTS_SPLICE_CASES_H

#include <rculist.h>

typedef void splice_fn(struct cds_list_head *add, struct cds_list_head *head);
typedef void build_fn(struct cds_list_head *head, const char *keys);

void splice_init_case(splice_fn *splice, build_fn *fill,
		      struct cds_list_head *add, struct cds_list_head *head);
void splice_tail_init_case(splice_fn *splice, build_fn *fill,
			   struct cds_list_head *add, struct cds_list_head *head);

#endif /* RCULIST_TESTS_SPLICE_CASES_H */
