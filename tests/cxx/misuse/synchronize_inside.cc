// SPDX-License-Identifier: LGPL-2.1-or-later
/* rcu_synchronize() inside a region opened by std::lock_guard. */
/* expect: cannot call function 'rcu_synchronize' while RCU read-side section 'rculist_rcu' is held */
#include <rculist/rcu.hpp>

void wait_inside()
{
	std::lock_guard<rculist::rcu_domain> lk(rculist::rcu_default_domain());
	rculist::rcu_synchronize(); /* MISUSE */
}
