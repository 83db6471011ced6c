// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/cxx/debug_walk.cc - debug mode (-DRCULIST_DEBUG) sees the regions
 * of <rculist/rcu.hpp>: a walk inside one passes, under every flavour
 * (qsbr's regions are counted as the C sections are); with an argument,
 * a walk after the region closed is reported at its line, and the
 * program aborts (make check-cxx-rcu expects both).
 */
#include <rculist/rcu.hpp>

#include <cstdio>

struct route {
	int key;
	struct cds_list_head node;
};

static CDS_LIST_HEAD(routes);

/* Misuse on purpose, for debug mode to catch: no analysis here. */
int main(int argc, char **argv) RCULIST_NO_RCU_ANALYSIS
{
	route r{ 1, {} };
	int sum = 0;

	(void)argv;
	rculist::list_add_rcu<&route::node>(r, routes);
	{
		std::scoped_lock lk(rculist::rcu_default_domain());
		std::scoped_lock nested(rculist::rcu_default_domain());
		for (route &x : rculist::rcu_entries<&route::node>(routes))
			sum += x.key;
	}
	std::printf("debug mode: a walk inside a region passes (%s)\n",
		    rculist_flavor_name());
	if (argc > 1)
		for (route &x :
		     rculist::rcu_entries<&route::node>(routes)) /* WALK OUTSIDE */
			sum += x.key;
	return sum == 1 ? 0 : 1;
}
