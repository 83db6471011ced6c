/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rculist_rcu_barrier() inside a section. */
/* expect: cannot call function '[a-z_]*rcu_barrier' while RCU read-side section 'rculist_rcu' is held */
#include "misuse.h"

void flush(void)
{
	rculist_read_lock();
	rculist_rcu_barrier(); /* MISUSE */
	rculist_read_unlock();
}
