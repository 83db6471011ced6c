// SPDX-License-Identifier: LGPL-2.1-or-later
/* A range-for over rcu_entries after the region closed. */
/* expect: calling function 'rcu_entries<&route::node, 0>' requires holding RCU read-side section 'rculist_rcu' */
#include <rculist/rcu.hpp>

struct route {
	int key;
	struct cds_list_head node;
};

int sum(struct cds_list_head &routes)
{
	int s = 0;
	{
		std::scoped_lock lk(rculist::rcu_default_domain());
		for (route &r : rculist::rcu_entries<&route::node>(routes))
			s += r.key;
	}
	for (route &r : rculist::rcu_entries<&route::node>(routes)) /* MISUSE */
		s += r.key;
	return s;
}
