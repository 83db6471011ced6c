// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/abi/strict.c - <rculist.h> under -std=c99 -pedantic: every
 * iterator (iterators.h), the static initialisers, and the runtime API,
 * linked with one flavour and run.
 */
#include <stdio.h>
#include <string.h>

#include "iterators.h"

static CDS_LIST_HEAD(static_list);
static CDS_HLIST_HEAD(static_hlist);

int main(void)
{
	int failures;

	rculist_register_thread();
	iter_check_all();
	iter_expect(cds_list_empty(&static_list), 1, "CDS_LIST_HEAD is empty");
	iter_expect(static_list.prev == &static_list, 1,
		    "CDS_LIST_HEAD prev is the head");
	iter_expect(cds_hlist_empty(&static_hlist), 1, "CDS_HLIST_HEAD is empty");
	failures = iter_failures;
	rculist_unregister_thread();
	printf("strict C99: every iterator under %s: %s\n",
	       rculist_flavor_name(), failures ? "FAILED" : "ok");
	return failures != 0;
}
