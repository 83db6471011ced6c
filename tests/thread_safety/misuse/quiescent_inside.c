/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A quiescent state announced inside a section (qsbr would end it). */
/* expect: cannot call function '[a-z_]*quiescent_state[a-z_]*' while RCU read-side section 'rculist_rcu' is held */
#include "misuse.h"

int sum(void)
{
	struct item *pos;
	int s = 0;

	rculist_read_lock();
	cds_list_for_each_entry_rcu(pos, &list, link) {
		s += pos->key;
		rculist_quiescent_state(); /* MISUSE */
	}
	rculist_read_unlock();
	return s;
}
