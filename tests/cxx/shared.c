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

/* The keys read front to back as the digits of one number. */
#define SIGNATURE_FN(name, head_type, for_each, member)            \
	long name(struct head_type *head)                          \
	{                                                          \
		struct croute *r;                                  \
		long sig = 0;                                      \
                                                                   \
		rculist_read_lock();                               \
		for_each(r, head, member) sig = sig * 10 + r->key; \
		rculist_read_unlock();                             \
		return sig;                                        \
	}

SIGNATURE_FN(c_signature, cds_list_head, cds_list_for_each_entry_rcu, node)
SIGNATURE_FN(c_hsignature, cds_hlist_head, cds_hlist_for_each_entry_rcu_2, hnode)
