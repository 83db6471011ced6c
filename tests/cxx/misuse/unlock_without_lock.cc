// SPDX-License-Identifier: LGPL-2.1-or-later
/* rcu_domain::unlock() with no region open. */
/* expect: releasing RCU read-side section 'rculist_rcu' that was not held */
#include <rculist/rcu.hpp>

void unbalanced()
{
	rculist::rcu_default_domain().unlock(); /* MISUSE */
}
