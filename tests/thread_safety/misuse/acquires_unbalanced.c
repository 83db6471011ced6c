/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A function marked RCULIST_ACQUIRES_RCU (it returns inside the section
 * it opens) whose caller never ends the section.
 */
/* expect: mutex 'rculist_rcu' is still held at the end of function */
#include "misuse.h"

static struct item *get(int key) RCULIST_ACQUIRES_RCU
{
	struct item *pos;

	rculist_read_lock();
	cds_list_for_each_entry_rcu(pos, &list, link)
		if (pos->key == key)
			return pos;
	return NULL;
}

int key_of(int key)
{
	struct item *it = get(key);

	return it ? it->key : -1;
} /* MISUSE */
