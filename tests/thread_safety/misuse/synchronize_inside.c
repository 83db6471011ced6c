/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A grace period waited for inside a section (a deadlock under memb and bp). */
/* expect: cannot call function '[a-z_]*synchronize_rcu' while RCU read-side section 'rculist_rcu' is held */
#include "misuse.h"

void drop(struct item *it)
{
	rculist_read_lock();
	cds_list_del_rcu(&it->link);
	rculist_synchronize_rcu(); /* MISUSE */
	rculist_read_unlock();
}
