/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An _rcu walk outside any read-side critical section. */
/* expect: calling function '[a-z_]*' requires holding RCU read-side section 'rculist_rcu' */
#include "misuse.h"

int sum(void)
{
	struct item *pos;
	int s = 0;

	cds_list_for_each_entry_rcu(pos, &list, link) /* MISUSE */
		s += pos->key;
	return s;
}
