// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/lto/lto.c - a flavour-neutral reader, linked with -flto against a
 * flavour's archive (check-lto).  Two readers, so that the read side is
 * called from more than one place: gcc then inlines it only if the
 * library's functions are small enough or declared inline, which is what
 * the check is after (a function called once is inlined regardless).
 * Prints the flavour and what the readers found; the check also reads
 * the disassembly of reader_list() and reader_hlist() for calls.  They
 * are declared hot, as readers are: gcc optimises a function called only
 * from main() for size, and would not inline the read side's wrappers
 * (<rculist/read_side.h>: a test and a call) into it.
 */
#include <rculist.h>
#include <stdio.h>

struct item {
	int key;
	struct cds_list_head node;
	struct cds_hlist_node hnode;
};

static CDS_LIST_HEAD(list);
static struct cds_hlist_head bucket;

__attribute__((noinline, hot)) int reader_list(int key)
{
	struct item *p;
	int found = -1;

	rculist_read_lock();
	cds_list_for_each_entry_rcu(p, &list, node) {
		if (p->key == key) {
			found = p->key;
			break;
		}
	}
	rculist_read_unlock();
	rculist_quiescent_state();
	return found;
}

__attribute__((noinline, hot)) int reader_hlist(void)
{
	struct item *p;
	int n = 0;

	rculist_read_lock();
	cds_hlist_for_each_entry_rcu_2(p, &bucket, hnode)
		n = n * 10 + p->key;
	rculist_read_unlock();
	rculist_quiescent_state();
	return n;
}

int main(void)
{
	static struct item a = { .key = 1 }, b = { .key = 2 };

	rculist_register_thread();
	cds_list_add_tail_rcu(&a.node, &list);
	cds_list_add_tail_rcu(&b.node, &list);
	cds_hlist_add_head_rcu(&a.hnode, &bucket);
	cds_hlist_add_head_rcu(&b.hnode, &bucket);
	/* before: [list] -> 1 -> 2, [bucket] -> 2 -> 1 */
	printf("%s %d %d %d\n", rculist_flavor_name(), reader_list(2),
	       reader_list(3), reader_hlist());
	rculist_unregister_thread();
	return 0;
}
