/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A cds_rhashtable bucket's _rcu walk outside a section. */
/* expect: calling function '[a-z_]*' requires holding RCU read-side section 'rculist_rcu' */
#include "misuse.h"

struct robj {
	int key;
	struct cds_rhash_head node;
};

int sum(struct cds_bucket_table *tbl)
{
	struct cds_rhash_head *pos;
	struct robj *o;
	int s = 0;

	cds_rht_for_each_entry_rcu(o, pos, tbl, 0, node) /* MISUSE */
		s += o->key;
	return s;
}
