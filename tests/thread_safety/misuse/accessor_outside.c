/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An _rcu accessor outside a section. */
/* expect: calling function '[a-z_]*' requires holding RCU read-side section 'rculist_rcu' */
#include "misuse.h"

int first_key(void)
{
	struct item *first = cds_list_first_or_null_rcu(&list, struct item, link); /* MISUSE */

	return first ? first->key : -1;
}
