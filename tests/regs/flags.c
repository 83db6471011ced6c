// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/regs/flags.c - the read side under code-generation flags a user
 * may build with: no SSE or no x87 (the inline read side's rare calls
 * then clobber only what the compiler has), no red zone, non-PIE, CET,
 * frame pointers, ASan.  A reader thread runs lookups in sections and
 * quiescent states (its first section and its quiescent states take the
 * rare paths under bp and qsbr) while the main thread replaces elements
 * and waits for grace periods; the sums both compute must come out.
 */
#include <pthread.h>
#include <stdio.h>

#include <rculist.h>

#define NKEYS  4
#define ROUNDS 2000

struct item {
	int key;
	struct cds_list_head node;
};

static CDS_LIST_HEAD(head);
static struct item items[2][NKEYS];

static __attribute__((noinline)) int lookup(int key)
{
	struct item *it;
	int found = -1;

	rculist_read_lock();
	cds_list_for_each_entry_rcu(it, &head, node)
		if (it->key == key) {
			found = key;
			break;
		}
	rculist_read_unlock();
	rculist_quiescent_state();
	return found;
}

static void *reader(void *arg)
{
	long sum = 0;

	(void)arg;
	rculist_register_thread();
	for (int i = 0; i < ROUNDS; i++)
		sum += lookup(i % NKEYS);
	rculist_unregister_thread();
	return (void *)sum;
}

int main(void)
{
	long want = 0;
	pthread_t t;
	void *got;

	for (int k = 0; k < NKEYS; k++) {
		items[0][k].key = items[1][k].key = k;
		cds_list_add_tail_rcu(&items[0][k].node, &head);
	}
	for (int i = 0; i < ROUNDS; i++)
		want += i % NKEYS;
	if (pthread_create(&t, NULL, reader, NULL))
		return 2;
	for (int r = 1; r <= 20; r++) {
		for (int k = 0; k < NKEYS; k++)
			cds_list_replace_rcu(&items[(r - 1) % 2][k].node,
					     &items[r % 2][k].node);
		rculist_synchronize_rcu();
	}
	pthread_join(t, &got);
	if ((long)got != want) {
		fprintf(stderr, "flags: the reader summed %ld, expected %ld\n",
			(long)got, want);
		return 1;
	}
	return 0;
}
