/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cds_list_entry_rcu(), a dereference, outside a section. */
/* expect: calling function '[a-z_]*' requires holding RCU read-side section 'rculist_rcu' */
#include "misuse.h"

int first_key(void)
{
	struct item *first = cds_list_entry_rcu(list.next, struct item, link); /* MISUSE */

	return first->key;
}
