// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/hlist_bl.c - bit-locked lists: every operation and iterator,
 * single-threaded, each checked on the whole list (every key, every
 * pprev) and on the lock bit, which every update must keep as it found
 * it; the lock itself between threads.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

TestSuite(hlist_bl, .timeout = 20);

struct bitem {
	int key;
	struct cds_hlist_bl_node node;
};

/* The list's nodes, bit 0 of first aside. */
static struct cds_hlist_bl_node *raw_first(const struct cds_hlist_bl_head *h)
{
	return (struct cds_hlist_bl_node *)((uintptr_t)h->first & ~(uintptr_t)1);
}

static int locked_bit(const struct cds_hlist_bl_head *h)
{
	return (int)((uintptr_t)h->first & 1);
}

/* Assert @h holds exactly @keys, every pprev leading back, lock bit @lk. */
static void check_bl_keys(const struct cds_hlist_bl_head *h, int lk,
			  const int *keys, size_t n, const char *where)
{
	struct cds_hlist_bl_node *const *pprev = &h->first;
	const struct cds_hlist_bl_node *pos = raw_first(h);
	size_t i;

	cr_assert_eq(locked_bit(h), lk, "%s: lock bit is %d, expected %d",
		     where, locked_bit(h), lk);
	for (i = 0; i < n; i++) {
		cr_assert_not_null(pos, "%s: list ends after %zu of %zu keys",
				   where, i, n);
		cr_assert_eq(pos->pprev, pprev, "%s: [%zu]->pprev is wrong",
			     where, i);
		cr_assert_eq(cds_hlist_bl_entry(pos, struct bitem, node)->key,
			     keys[i], "%s: [%zu] is %d, expected %d", where, i,
			     cds_hlist_bl_entry(pos, struct bitem, node)->key,
			     keys[i]);
		pprev = &pos->next;
		pos = pos->next;
	}
	cr_assert_null(pos, "%s: list longer than %zu keys", where, n);
	cr_assert_eq(cds_hlist_bl_empty(h), n == 0, "%s: cds_hlist_bl_empty",
		     where);
}

#define CHECK_BL(h, lk, ...)  check_bl_keys(h, lk, KEYS(__VA_ARGS__), #h)
#define CHECK_BL_EMPTY(h, lk) check_bl_keys(h, lk, NULL, 0, #h)

static void init_items(struct bitem *it, size_t n)
{
	size_t i;

	memset(it, 0xa5, n * sizeof(*it)); /* garbage, as if never initialised */
	for (i = 0; i < n; i++)
		it[i].key = (int)i + 1;
}

/* Layout: the kernel's, one pointer per head, two per node. */
Test(hlist_bl, layout_is_the_kernels)
{
	cr_assert_eq(sizeof(struct cds_hlist_bl_head), sizeof(void *));
	cr_assert_eq(offsetof(struct cds_hlist_bl_head, first), 0);
	cr_assert_eq(sizeof(struct cds_hlist_bl_node), 2 * sizeof(void *));
	cr_assert_eq(offsetof(struct cds_hlist_bl_node, next), 0);
	cr_assert_eq(offsetof(struct cds_hlist_bl_node, pprev), sizeof(void *));
}

Test(hlist_bl, init_head_and_node)
{
	struct cds_hlist_bl_head h;
	struct bitem it[1];

	memset(&h, 0xff, sizeof(h));
	CDS_INIT_HLIST_BL_HEAD(&h);
	cr_assert_null(h.first);
	CHECK_BL_EMPTY(&h, 0);
	cr_assert_not(cds_hlist_bl_is_locked(&h));
	init_items(it, 1);
	CDS_INIT_HLIST_BL_NODE(&it[0].node);
	cr_assert_null(it[0].node.next);
	cr_assert_null(it[0].node.pprev);
	cr_assert(cds_hlist_bl_unhashed(&it[0].node));
	cr_assert_eq(cds_hlist_bl_entry(&it[0].node, struct bitem, node), &it[0]);
}

/* lock sets bit 0 and nothing else; unlock clears it; the list is intact. */
Test(hlist_bl, lock_is_bit_zero_of_first)
{
	struct cds_hlist_bl_head h;
	struct bitem it[2];

	init_items(it, 2);
	CDS_INIT_HLIST_BL_HEAD(&h);
	cds_hlist_bl_lock(&h);
	cr_assert_eq((uintptr_t)h.first, 1);
	cr_assert(cds_hlist_bl_is_locked(&h));
	cr_assert(cds_hlist_bl_empty(&h), "a locked empty list is empty");
	cr_assert_null(cds_hlist_bl_first(&h));
	cds_hlist_bl_add_head(&it[1].node, &h);
	cds_hlist_bl_add_head(&it[0].node, &h);
	cr_assert_eq((uintptr_t)h.first, (uintptr_t)&it[0].node | 1);
	CHECK_BL(&h, 1, 1, 2);
	cr_assert_eq(cds_hlist_bl_first(&h), &it[0].node);
	rculist_register_thread();
	rculist_read_lock();
	cr_assert_eq(cds_hlist_bl_first_rcu(&h), &it[0].node,
		     "a reader sees the first node without the lock bit");
	rculist_read_unlock();
	rculist_unregister_thread();
	cds_hlist_bl_unlock(&h);
	cr_assert_not(cds_hlist_bl_is_locked(&h));
	cr_assert_eq(h.first, &it[0].node);
	CHECK_BL(&h, 0, 1, 2);
}

/* before: [h] -> 2 -> 3   after add_head(1): [h] -> 1 <-> 2 <-> 3, bit kept */
Test(hlist_bl, add_head_keeps_lock_bit)
{
	struct cds_hlist_bl_head h;
	struct bitem it[3];

	init_items(it, 3);
	CDS_INIT_HLIST_BL_HEAD(&h);
	cds_hlist_bl_lock(&h);
	cds_hlist_bl_add_head(&it[2].node, &h);
	CHECK_BL(&h, 1, 3);
	cds_hlist_bl_add_head(&it[1].node, &h);
	CHECK_BL(&h, 1, 2, 3);
	cds_hlist_bl_add_head_rcu(&it[0].node, &h);
	CHECK_BL(&h, 1, 1, 2, 3);
	cds_hlist_bl_unlock(&h);
	CHECK_BL(&h, 0, 1, 2, 3);
}

/* add_before the first node rewrites the head's first: the bit stays. */
Test(hlist_bl, add_before_and_behind)
{
	struct cds_hlist_bl_head h;
	struct bitem it[5];

	init_items(it, 5);
	CDS_INIT_HLIST_BL_HEAD(&h);
	cds_hlist_bl_lock(&h);
	cds_hlist_bl_add_head(&it[2].node, &h);		   /* [h] -> 3 */
	cds_hlist_bl_add_before(&it[0].node, &it[2].node); /* before first */
	CHECK_BL(&h, 1, 1, 3);
	cds_hlist_bl_add_before(&it[1].node, &it[2].node); /* in the middle */
	CHECK_BL(&h, 1, 1, 2, 3);
	cds_hlist_bl_add_behind(&it[4].node, &it[2].node); /* after last */
	CHECK_BL(&h, 1, 1, 2, 3, 5);
	cds_hlist_bl_add_behind(&it[3].node, &it[2].node); /* in the middle */
	CHECK_BL(&h, 1, 1, 2, 3, 4, 5);
	cds_hlist_bl_unlock(&h);
	CHECK_BL(&h, 0, 1, 2, 3, 4, 5);
}

/*
 * A deletion (plain, _init or _rcu) at every position of the locked
 * [h] -> 1 -> 2 -> 3 -> 4: the middle, the first, the last, the only.
 * Deleting the first node rewrites first: the lock bit stays.  The deleted
 * node then reads as unhashed (_init, and a second _init does nothing)
 * and its next is NULL (_init) or still leads where it led (_rcu, for a
 * reader standing on it).
 */
static const struct bl_del_step {
	int at;
	int after[3];
	size_t n;
} bl_del_steps[] = {
	{ 1, { 1, 3, 4 }, 3 }, /* middle */
	{ 0, { 3, 4 }, 2 },    /* first */
	{ 3, { 3 }, 1 },       /* last */
	{ 2, { 0 }, 0 },       /* only */
};

static void bl_del_case(void (*del)(struct cds_hlist_bl_node *), int init,
			enum del_next next)
{
	struct cds_hlist_bl_head h;
	struct cds_hlist_bl_node *node, *was;
	struct bitem it[4];
	size_t i;

	init_items(it, 4);
	CDS_INIT_HLIST_BL_HEAD(&h);
	cds_hlist_bl_lock(&h);
	for (i = 4; i-- > 0;)
		cds_hlist_bl_add_head(&it[i].node, &h);
	CHECK_BL(&h, 1, 1, 2, 3, 4);
	for (i = 0; i < sizeof(bl_del_steps) / sizeof(bl_del_steps[0]); i++) {
		node = &it[bl_del_steps[i].at].node;
		was = node->next;
		del(node);
		check_bl_keys(&h, 1, bl_del_steps[i].after, bl_del_steps[i].n,
			      "after a deletion");
		cr_assert(!init || cds_hlist_bl_unhashed(node), "step %zu", i);
		check_deleted_next(node->next, was, next, i);
	}
	if (init) {
		del(&it[0].node);
		CHECK_BL_EMPTY(&h, 1);
	}
	cds_hlist_bl_unlock(&h);
	CHECK_BL_EMPTY(&h, 0);
}

Test(hlist_bl, del_every_position_keeps_lock_bit)
{
	bl_del_case(cds_hlist_bl_del, 0, NEXT_ANY);
}

Test(hlist_bl, del_init_twice)
{
	bl_del_case(cds_hlist_bl_del_init, 1, NEXT_NULL);
}

Test(hlist_bl, del_rcu_keeps_next)
{
	bl_del_case(cds_hlist_bl_del_rcu, 0, NEXT_KEPT);
}

/* The iterators: the kernel's argument lists; the lock bit never shows. */
Test(hlist_bl, iterators)
{
	static const int keys[] = { 1, 2, 3, 4 };
	struct cds_hlist_bl_head h;
	struct cds_hlist_bl_node *pos, *n;
	struct bitem it[4], *e;
	int i, seen;

	init_items(it, 4);
	CDS_INIT_HLIST_BL_HEAD(&h);
	cds_hlist_bl_lock(&h);
	for (i = 3; i >= 0; i--)
		cds_hlist_bl_add_head(&it[i].node, &h);

	seen = 0;
	cds_hlist_bl_for_each_entry(e, pos, &h, node) {
		cr_assert_lt(seen, 4);
		cr_assert_eq(e->key, keys[seen]);
		cr_assert_eq(pos, &e->node);
		seen++;
	}
	cr_assert_eq(seen, 4);
	cr_assert_null(pos);

	rculist_register_thread();
	rculist_read_lock();
	seen = 0;
	cds_hlist_bl_for_each_entry_rcu(e, pos, &h, node) {
		cr_assert_lt(seen, 4);
		cr_assert_eq(e->key, keys[seen]);
		seen++;
	}
	cr_assert_eq(seen, 4);
	cr_assert_null(pos);
	rculist_read_unlock();
	rculist_unregister_thread();

	/* safe: delete every even key while walking */
	seen = 0;
	cds_hlist_bl_for_each_entry_safe(e, pos, n, &h, node) {
		cr_assert_eq(e->key, keys[seen]);
		if (e->key % 2 == 0)
			cds_hlist_bl_del(pos);
		seen++;
	}
	cr_assert_eq(seen, 4);
	CHECK_BL(&h, 1, 1, 3);
	cds_hlist_bl_unlock(&h);

	/* an empty list: no iteration */
	CDS_INIT_HLIST_BL_HEAD(&h);
	cds_hlist_bl_for_each_entry(e, pos, &h, node)
		cr_assert_fail("walked an empty list");
}

/*
 * The lock excludes: threads increment a counter with a plain
 * read-modify-write under it; any lost update shows in the total.  Waits
 * for progress only through pthread_join (the threads do a fixed amount
 * of work each).
 */
struct lock_arg {
	struct cds_hlist_bl_head *head;
	unsigned long *counter;
	unsigned long rounds;
	int inside;
	int overlaps;
};

static void *lock_worker(void *p)
{
	struct lock_arg *a = p;
	unsigned long i, v;

	for (i = 0; i < a->rounds; i++) {
		cds_hlist_bl_lock(a->head);
		if (__atomic_exchange_n(&a->inside, 1, __ATOMIC_RELAXED))
			__atomic_store_n(&a->overlaps, 1, __ATOMIC_RELAXED);
		v = *(volatile unsigned long *)a->counter;
		if (i % 8 == 0) /* hold the lock across a reschedule */
			sched_yield();
		*(volatile unsigned long *)a->counter = v + 1;
		__atomic_store_n(&a->inside, 0, __ATOMIC_RELAXED);
		cds_hlist_bl_unlock(a->head);
	}
	return NULL;
}

Test(hlist_bl, lock_excludes_between_threads)
{
	struct cds_hlist_bl_head h;
	struct bitem it[1];
	unsigned long counter = 0;
	struct lock_arg a;
	pthread_t t[3];
	int i;

	init_items(it, 1);
	CDS_INIT_HLIST_BL_HEAD(&h);
	cds_hlist_bl_lock(&h);
	cds_hlist_bl_add_head(&it[0].node, &h);
	cds_hlist_bl_unlock(&h);
	memset(&a, 0, sizeof(a));
	a.head = &h;
	a.counter = &counter;
	a.rounds = 20000;
	for (i = 0; i < 3; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, lock_worker, &a), 0);
	for (i = 0; i < 3; i++)
		cr_assert_eq(pthread_join(t[i], NULL), 0);
	cr_assert_eq(a.overlaps, 0, "two threads held the lock at once");
	cr_assert_eq(counter, 3 * a.rounds, "counter %lu, expected %lu",
		     counter, 3 * a.rounds);
	CHECK_BL(&h, 0, 1);
}
