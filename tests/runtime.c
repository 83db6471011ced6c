// SPDX-License-Identifier: LGPL-2.1-or-later
/* tests/runtime.c - the flavour-neutral runtime API, single-threaded. */
#include <stdio.h>
#include <string.h>

#include "check.h"

TestSuite(runtime);

Test(runtime, flavor_name_is_one_of_three)
{
	const char *name = rculist_flavor_name();

	cr_assert(strcmp(name, "memb") == 0 || strcmp(name, "qsbr") == 0 ||
		  strcmp(name, "bp") == 0, "unexpected flavour %s", name);
}

Test(runtime, version_matches_header)
{
	char expect[32];

	snprintf(expect, sizeof(expect), "%d.%d.%d", RCULIST_VERSION_MAJOR,
		 RCULIST_VERSION_MINOR, RCULIST_VERSION_PATCH);
	cr_assert_str_eq(rculist_version(), expect);
}

Test(runtime, read_lock_nests_and_reports_ongoing)
{
	rculist_register_thread();
	rculist_read_lock();
	rculist_read_lock();
	cr_assert(rculist_read_ongoing());
	rculist_read_unlock();
	cr_assert(rculist_read_ongoing());
	rculist_read_unlock();
	if (strcmp(rculist_flavor_name(), "qsbr") != 0)
		cr_assert_not(rculist_read_ongoing());
	rculist_quiescent_state();
	rculist_thread_offline();
	rculist_thread_online();
	rculist_synchronize_rcu();
	rculist_unregister_thread();
}
