// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A liburcu flavour header under _LGPL_SOURCE (which includes
 * <urcu/list.h>) before <rculist.h>: rculist takes over the list names,
 * and every cds_list_* call below is rculist's.
 */
#define _LGPL_SOURCE
#include <urcu/urcu-bp.h>
#include <rculist.h>

#include <stddef.h>

struct node {
	int key;
	struct cds_list_head link;
};

int main(void)
{
	CDS_LIST_HEAD(list);
	struct cds_list_head other;
	struct node a = { 1, { NULL, NULL } }, b = { 2, { NULL, NULL } }, *pos;
	int sum = 0, n = 0;

	CDS_INIT_LIST_HEAD(&other);
	cds_list_add(&a.link, &list);
	cds_list_add_tail_rcu(&b.link, &list);
	urcu_bp_read_lock();
	cds_list_for_each_entry_rcu(pos, &list, link)
		sum = sum * 10 + pos->key;
	urcu_bp_read_unlock();
	cds_list_splice_init(&list, &other);
	cds_list_for_each_entry_reverse(pos, &other, link)
		n = n * 10 + pos->key;
	/* rculist's swap is not in liburcu: the names are ours. */
	cds_list_swap(&a.link, &b.link);
	/* clang-format off */
	return sum == 12 && n == 21 && cds_list_empty(&list) &&
	       cds_list_first_entry(&other, struct node, link) == &b ? 0 : 1;
	/* clang-format on */
}
