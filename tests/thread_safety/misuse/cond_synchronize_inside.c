/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A conditional grace period inside a section. */
/* expect: cannot call function '[a-z_]*cond_synchronize_rcu' while RCU read-side section 'rculist_rcu' is held */
#include "misuse.h"

void drop(struct rculist_gp_cookie c)
{
	rculist_read_lock();
	rculist_cond_synchronize_rcu(c); /* MISUSE */
	rculist_read_unlock();
}
