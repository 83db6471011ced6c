// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/cxx/shared.c - the C side of a list that C++ walks and updates
 * too (tests/cxx/concurrent.cc, "shared").
 */
#include "shared.h"

void c_add(struct cds_list_head *list, struct cds_hlist_head *hlist,
	   struct croute *r)
{
	cds_list_add_tail_rcu(&r->node, list);
	cds_hlist_add_head_rcu(&r->hnode, hlist);
}

long c_signature(struct cds_list_head *list)
{
	struct croute *r;
	long sig = 0;

	rculist_read_lock();
	cds_list_for_each_entry_rcu(r, list, node)
		sig = sig * 10 + r->key;
	rculist_read_unlock();
	return sig;
}

long c_hsignature(struct cds_hlist_head *hlist)
{
	struct croute *r;
	long sig = 0;

	rculist_read_lock();
	cds_hlist_for_each_entry_rcu_2(r, hlist, hnode)
		sig = sig * 10 + r->key;
	rculist_read_unlock();
	return sig;
}
