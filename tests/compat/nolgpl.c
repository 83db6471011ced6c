// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A liburcu flavour header without _LGPL_SOURCE includes no list header,
 * so it may come before <rculist.h>; call_rcu and friends stay declared.
 */
#include <urcu/urcu-memb.h>
#include <rculist.h>

static void nothing(struct rcu_head *head)
{
	(void)head;
}

int main(void)
{
	static struct rcu_head rh;
	CDS_LIST_HEAD(list);

	urcu_memb_register_thread();
	urcu_memb_call_rcu(&rh, nothing);
	urcu_memb_barrier();
	urcu_memb_unregister_thread();
	return cds_list_empty(&list) ? 0 : 1;
}
