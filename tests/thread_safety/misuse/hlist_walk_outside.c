/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An hlist _rcu walk (the kernel's three-argument form) outside a section. */
/* expect: calling function '[a-z_]*' requires holding RCU read-side section 'rculist_rcu' */
#include "misuse.h"

int sum(void)
{
	struct item *pos;
	int s = 0;

	cds_hlist_for_each_entry_rcu_2(pos, &hlist, hnode) /* MISUSE */
		s += pos->key;
	return s;
}
