/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/outside/walk.h - the program bench/outside/run.sh counts, written
 * as a user would (no rculist internals): each operation a function of
 * its own, called in a loop, so that callgrind's inclusive count of a
 * function is what one call costs, its frame and its read side's code
 * included.  Included by walk.c (rculist, the installed headers) and by
 * walk_urcu.c (liburcu's inline code), which define:
 *   LOCK(), UNLOCK()  the read side
 *   QS()              a quiescent state (qsbr; nothing elsewhere)
 *   REGISTER(), UNREGISTER()
 * The list and hlist operations have the same names in both.
 */
#include <stdio.h>
#include <stdlib.h>

#define WALK_LEN   8
#define WALK_CALLS 100000UL

struct item {
	unsigned long key;
	struct cds_list_head node;
	struct cds_hlist_node hnode;
};

static struct cds_list_head head;
static struct item items[WALK_LEN];
static struct item pool[2 * WALK_CALLS];
static struct cds_hlist_head hhead;

/* The walk without synchronisation: what every read side is measured over. */
__attribute__((noinline)) unsigned long plain_lookup(unsigned long key)
{
	struct item *it;

	cds_list_for_each_entry(it, &head, node)
		if (it->key == key)
			return it->key + 1;
	return 0;
}

/* The walk a reader does inside its section. */
static inline __attribute__((always_inline)) unsigned long
rcu_walk(unsigned long key)
{
	struct item *it;

	cds_list_for_each_entry_rcu(it, &head, node)
		if (it->key == key)
			return it->key + 1;
	return 0;
}

__attribute__((noinline)) unsigned long section_lookup(unsigned long key)
{
	unsigned long found;

	LOCK();
	found = rcu_walk(key);
	UNLOCK();
	return found;
}

/* A qsbr server's request: a lookup, then a quiescent state. */
__attribute__((noinline)) unsigned long section_lookup_qs(unsigned long key)
{
	unsigned long found;

	LOCK();
	found = rcu_walk(key);
	UNLOCK();
	QS();
	return found;
}

__attribute__((noinline)) void op_list_add(struct item *it)
{
	cds_list_add_rcu(&it->node, &head);
}

__attribute__((noinline)) void op_list_del(struct item *it)
{
	cds_list_del_rcu(&it->node);
}

__attribute__((noinline)) void op_list_replace(struct item *old, struct item *newp)
{
	cds_list_replace_rcu(&old->node, &newp->node);
}

__attribute__((noinline)) void op_hlist_add(struct item *it)
{
	cds_hlist_add_head_rcu(&it->hnode, &hhead);
}

__attribute__((noinline)) void op_hlist_del(struct item *it)
{
	cds_hlist_del_rcu(&it->hnode);
}

static void lookups(unsigned long (*fn)(unsigned long), unsigned long want)
{
	unsigned long hits = 0;

	for (unsigned long i = 0; i < WALK_CALLS; i++)
		hits += fn(i % WALK_LEN) == i % WALK_LEN + 1;
	if (hits != want) {
		fprintf(stderr, "walk: %lu hits, expected %lu\n", hits, want);
		exit(1);
	}
}

int main(void)
{
	REGISTER();
	CDS_INIT_LIST_HEAD(&head);
	for (unsigned long i = 0; i < WALK_LEN; i++) {
		items[i].key = i;
		cds_list_add_tail_rcu(&items[i].node, &head);
	}
	lookups(plain_lookup, WALK_CALLS);
	lookups(section_lookup, WALK_CALLS);
	lookups(section_lookup_qs, WALK_CALLS);

	/* Updates, on a list the walk does not use (no reader here). */
	CDS_INIT_LIST_HEAD(&head);
	for (unsigned long i = 0; i < WALK_CALLS; i++)
		op_list_add(&pool[i]);
	for (unsigned long i = 0; i < WALK_CALLS; i++)
		op_list_replace(&pool[i], &pool[WALK_CALLS + i]);
	for (unsigned long i = 0; i < WALK_CALLS; i++)
		op_list_del(&pool[WALK_CALLS + i]);
	if (head.next != &head || head.prev != &head) {
		fprintf(stderr,
			"walk: the list is not empty after the deletions\n");
		return 1;
	}
	for (unsigned long i = 0; i < WALK_CALLS; i++)
		op_hlist_add(&pool[i]);
	for (unsigned long i = 0; i < WALK_CALLS; i++)
		op_hlist_del(&pool[i]);
	if (hhead.next) {
		fprintf(stderr,
			"walk: the hlist is not empty after the deletions\n");
		return 1;
	}
	UNREGISTER();
	puts("walk ok");
	return 0;
}
