/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/list_sort.h - sorting a circular list: the kernel's list_sort().
 *
 * The one list operation that is a library call, not an inline function:
 * a merge sort is too big to inline at every call site.  It lives in
 * core/list_sort.c, in every flavour library, and knows nothing of RCU.
 */
#ifndef RCULIST_LIST_SORT_H
#define RCULIST_LIST_SORT_H

#include "compiler.h"
#include "types.h"

RCULIST__BEGIN_DECLS

/**
 * cds_list_cmp_func_t - the comparison function of cds_list_sort()
 *
 * int cmp(void *priv, const struct cds_list_head *a,
 * const struct cds_list_head *b): @priv is cds_list_sort()'s first
 * argument, @a and @b two links of the list being sorted, @a coming
 * before @b in the input order.  A result > 0 puts @a after @b; a result
 * <= 0 keeps @a before @b (so 0 keeps equal elements in their order).
 * The kernel's list_cmp_func_t.
 *
 * Context: called by cds_list_sort() in the caller's thread; it must not
 * change the list, nor the order of elements between two calls.
 */
typedef int (*cds_list_cmp_func_t)(void *priv, const struct cds_list_head *a,
				   const struct cds_list_head *b);

/**
 * cds_list_sort - sort a list, stably
 * @priv: passed unchanged to each call of @cmp
 * @head: the list to sort
 * @cmp: the comparison; cmp(priv, a, b) > 0 puts a after b
 *
 * A merge sort, as the kernel's list_sort(): elements that compare
 * equal (@cmp returns 0 or less for the earlier one) keep their order.
 * At most n*ceil(log2 n) - 2^ceil(log2 n) + 1 calls of @cmp for n
 * elements (top-down merge sort's worst case); no memory is allocated
 * and nothing recurses (a stack of at most 66 small frames).  Both
 * directions of @head are rebuilt at the end.
 *
 * before: [h] <-> 3 <-> 1 <-> 2    after: [h] <-> 1 <-> 2 <-> 3
 *
 * Context: the caller owns the list: updaters excluded, and no RCU reader
 * walks it (the elements are relinked in place: to sort a list readers
 * walk, sort a private copy and publish it with cds_list_replace_rcu()
 * of a head, or cds_list_splice_rcu()).  May be called from any thread,
 * registered or not, inside a read-side critical section or not.
 */
void cds_list_sort(void *priv, struct cds_list_head *head,
		   cds_list_cmp_func_t cmp);

RCULIST__END_DECLS

#endif /* RCULIST_LIST_SORT_H */
