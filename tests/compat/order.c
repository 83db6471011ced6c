// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A liburcu flavour header (ORDER_FLAVOR_H) before or after <rculist.h>
 * (ORDER_FLAVOR_FIRST), with or without _LGPL_SOURCE: both APIs stay
 * usable.  ORDER_FLAVOR is the flavour's name (urcu_<flavour>_read_lock).
 * Compiled by tests/compat/compat_order.mk for every flavour and order.
 */
#ifdef ORDER_FLAVOR_FIRST
#include ORDER_FLAVOR_H
#include <rculist.h>
#else
#include <rculist.h>
#include ORDER_FLAVOR_H
#endif

#include <stddef.h>

#define ORDER_CAT(a, b, c) a##b##c
#define ORDER_URCU(f, fn)  ORDER_CAT(urcu_, f, fn)
#define URCU(fn)	   ORDER_URCU(ORDER_FLAVOR, fn)

struct node {
	int key;
	struct cds_list_head link;
	struct rcu_head rcu;
};

static void forget(struct rcu_head *head)
{
	(void)head;
}

int order_check(struct node *n);
int order_check(struct node *n)
{
	CDS_LIST_HEAD(list);
	struct node *pos;
	int sum = 0;

	cds_list_add_rcu(&n->link, &list);
	URCU(_read_lock)();
	cds_list_for_each_entry_rcu(pos, &list, link)
		sum += pos->key;
	URCU(_read_unlock)();
	cds_list_del_rcu(&n->link);
	URCU(_call_rcu)(&n->rcu, forget);
	rculist_rcu_barrier();
	return sum;
}
