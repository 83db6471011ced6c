/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A function marked RCULIST_REQUIRES_RCU called outside a section. */
/* expect: calling function 'lookup' requires holding RCU read-side section 'rculist_rcu' */
#include "misuse.h"

static struct item *lookup(int key) RCULIST_REQUIRES_RCU
{
	struct item *pos;

	cds_list_for_each_entry_rcu(pos, &list, link)
		if (pos->key == key)
			return pos;
	return NULL;
}

int has(int key)
{
	return lookup(key) != NULL; /* MISUSE */
}
