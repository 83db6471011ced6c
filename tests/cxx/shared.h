/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/cxx/shared.h - a list shared between C (shared.c) and C++
 * (concurrent.cc): the element type and the C side's calls.
 */
#ifndef RCULIST_TEST_CXX_SHARED_H
#define RCULIST_TEST_CXX_SHARED_H

#include <rculist.h>

struct croute {
	long key;
	struct cds_list_head node;
	struct cds_hlist_node hnode;
};

RCULIST__BEGIN_DECLS
/* cds_list_add_tail_rcu() and cds_hlist_add_head_rcu() of @r. */
void c_add(struct cds_list_head *list, struct cds_hlist_head *hlist,
	   struct croute *r);
/* The keys, in walk order, as decimal digits: a reader's walks in C. */
long c_signature(struct cds_list_head *list);
long c_hsignature(struct cds_hlist_head *hlist);
RCULIST__END_DECLS

#endif
