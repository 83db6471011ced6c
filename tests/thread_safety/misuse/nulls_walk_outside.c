/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A nulls _rcu walk outside a section. */
/* expect: calling function '[a-z_]*' requires holding RCU read-side section 'rculist_rcu' */
#include "misuse.h"

int sum(void)
{
	struct item *pos;
	struct cds_hlist_nulls_node *n;
	int s = 0;

	cds_hlist_nulls_for_each_entry_rcu(pos, n, &nulls, nnode) /* MISUSE */
		s += pos->key;
	return s;
}
