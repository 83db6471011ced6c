/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A splice that waits for a grace period, inside a section. */
/* expect: cannot call function 'cds_list_splice_tail_init_rcu' while RCU read-side section 'rculist_rcu' is held */
#include "misuse.h"

void move_all(void)
{
	rculist_read_lock();
	cds_list_splice_tail_init_rcu(&other, &list); /* MISUSE */
	rculist_read_unlock();
}
