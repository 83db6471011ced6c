/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A return with the section still open: the unlock forgotten. */
/* expect: mutex 'rculist_rcu' is still held at the end of function */
#include "misuse.h"

int sum(void)
{
	struct item *pos;
	int s = 0;

	rculist_read_lock();
	cds_list_for_each_entry_rcu(pos, &list, link)
		s += pos->key;
	return s;
} /* MISUSE */
