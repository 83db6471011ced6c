// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * <rculist.h> first, then liburcu's flavour header (under _LGPL_SOURCE,
 * so that it pulls in <urcu/list.h>) and every liburcu list header: they
 * must all be harmless, and liburcu's own API must stay usable.
 */
#define _LGPL_SOURCE
#include <rculist.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/list.h>
#include <urcu/hlist.h>
#include <urcu/rculist.h>
#include <urcu/rcuhlist.h>
#include <urcu/cds.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
	int key;
	struct cds_list_head link;
	struct rcu_head rcu;
};

static void free_node(struct rcu_head *head)
{
	free((char *)head - offsetof(struct node, rcu));
}

int main(void)
{
	CDS_LIST_HEAD(list);
	struct node *n = malloc(sizeof(*n)), *pos;
	int seen = 0;

	if (!n)
		return 1;
	n->key = 42;
	urcu_qsbr_register_thread();
	cds_list_add_rcu(&n->link, &list);
	urcu_qsbr_read_lock();
	cds_list_for_each_entry_rcu(pos, &list, link)
		seen += pos->key;
	urcu_qsbr_read_unlock();
	cds_list_del_rcu(&n->link);
	urcu_qsbr_call_rcu(&n->rcu, free_node);
	urcu_qsbr_thread_offline();
	urcu_qsbr_barrier();
	urcu_qsbr_thread_online();
	urcu_qsbr_unregister_thread();
	if (seen != 42 || !cds_list_empty(&list)) {
		fprintf(stderr, "compat: saw %d\n", seen);
		return 1;
	}
	return 0;
}
