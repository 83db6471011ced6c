/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A return that leaves the section open (an early return past the unlock). */
/* expect: mutex 'rculist_rcu' is not held on every path through here */
#include "misuse.h"

struct item *find(int key)
{
	struct item *pos;

	rculist_read_lock();
	cds_list_for_each_entry_rcu(pos, &list, link)
		if (pos->key == key)
			return pos;
	rculist_read_unlock();
	return NULL;
} /* MISUSE */
