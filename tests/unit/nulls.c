// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/nulls.c - nulls lists: every operation single-threaded (the whole
 * chain, its prev links and its end marker checked after each), then the
 * reason they exist: a hash table whose elements move between buckets
 * without a grace period while readers look keys up.
 */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"

TestSuite(nulls, .timeout = 10);

struct nitem {
	int key;
	struct cds_hlist_nulls_node node;
};

/*
 * Assert that @head holds exactly the @n keys @keys, each prev leading
 * back, and ends with the marker of value @nulls.
 */
static void check_nulls_keys(const struct cds_hlist_nulls_head *head,
			     unsigned long nulls, const int *keys, size_t n,
			     const char *where)
{
	const struct cds_hlist_nulls_node *prev =
		(const struct cds_hlist_nulls_node *)(const void *)head;
	const struct cds_hlist_nulls_node *pos = head->next;
	size_t i;

	for (i = 0; i < n; i++) {
		cr_assert_not(cds_is_a_nulls(pos),
			      "%s: list ends after %zu of %zu keys", where, i, n);
		cr_assert_eq(pos->prev, prev, "%s: [%zu]->prev is wrong", where,
			     i);
		cr_assert_eq(cds_hlist_nulls_entry(pos, struct nitem, node)->key,
			     keys[i], "%s: [%zu] is %d, expected %d", where, i,
			     cds_hlist_nulls_entry(pos, struct nitem, node)->key,
			     keys[i]);
		prev = pos;
		pos = pos->next;
	}
	cr_assert(cds_is_a_nulls(pos), "%s: list longer than %zu keys", where, n);
	cr_assert_eq(cds_get_nulls_value(pos), nulls,
		     "%s: ends with marker %lu, expected %lu", where,
		     cds_get_nulls_value(pos), nulls);
	cr_assert_eq(cds_hlist_nulls_empty(head), n == 0,
		     "%s: empty() is wrong", where);
}

/* CHECK_NULLS(head, nulls, keys...); CHECK_NULLS_EMPTY(head, nulls). */
#define CHECK_NULLS(head, nulls, ...) \
	check_nulls_keys(head, nulls, KEYS(__VA_ARGS__), #head)
#define CHECK_NULLS_EMPTY(head, nulls) \
	check_nulls_keys(head, nulls, NULL, 0, #head)

/* [h] -> it[0] <-> ... <-> it[n-1] -> |nulls|, keys 1..n, linked by hand. */
static void fill(struct cds_hlist_nulls_head *h, unsigned long nulls,
		 struct nitem *it, size_t n)
{
	struct cds_hlist_nulls_node *prev =
		(struct cds_hlist_nulls_node *)(void *)h;
	struct cds_hlist_nulls_node *end =
		(struct cds_hlist_nulls_node *)(((uintptr_t)nulls << 1) | 1);
	size_t i;

	h->next = n ? &it[0].node : end;
	for (i = 0; i < n; i++) {
		it[i].key = (int)i + 1;
		it[i].node.prev = prev;
		it[i].node.next = i + 1 < n ? &it[i + 1].node : end;
		prev = &it[i].node;
	}
}

/* ------------------------------------------------ markers and accessors */

Test(nulls, init_head_sets_the_marker)
{
	struct cds_hlist_nulls_head h = { NULL };
	void (*init)(struct cds_hlist_nulls_head *, unsigned long) =
		CDS_INIT_HLIST_NULLS_HEAD;

	/* before: h.next = NULL   after: [h] -> |5| */
	init(&h, 5);
	cr_assert(cds_is_a_nulls(h.next));
	cr_assert_eq(((uintptr_t)h.next), (5u << 1) | 1);
	CHECK_NULLS_EMPTY(&h, 5);
	CDS_INIT_HLIST_NULLS_HEAD(&h, 0);
	CHECK_NULLS_EMPTY(&h, 0);
	CDS_INIT_HLIST_NULLS_HEAD(&h, ULONG_MAX >> 1);
	CHECK_NULLS_EMPTY(&h, ULONG_MAX >> 1);
}

Test(nulls, is_a_nulls_and_value)
{
	struct nitem a;
	const struct cds_hlist_nulls_node *m =
		(const struct cds_hlist_nulls_node *)(uintptr_t)((42u << 1) | 1);

	cr_assert(cds_is_a_nulls(m));
	cr_assert_eq(cds_get_nulls_value(m), 42);
	cr_assert_not(cds_is_a_nulls(&a.node));
	cr_assert_not(cds_is_a_nulls(NULL), "NULL is not a marker");
}

Test(nulls, entry)
{
	struct nitem a;
	struct cds_hlist_nulls_node *n = &a.node;

	cr_assert_eq(cds_hlist_nulls_entry(n, struct nitem, node), &a);
}

Test(nulls, unhashed_and_empty)
{
	struct cds_hlist_nulls_head h;
	struct nitem a;

	CDS_INIT_HLIST_NULLS_HEAD(&h, 3);
	a.key = 1;
	a.node.prev = NULL;
	a.node.next = NULL;
	cr_assert(cds_hlist_nulls_unhashed(&a.node));
	cr_assert(cds_hlist_nulls_empty(&h));
	/* before: [h] -> |3|   after: [h] -> 1 -> |3| */
	cds_hlist_nulls_add_head(&a.node, &h);
	CHECK_NULLS(&h, 3, 1);
	cr_assert_not(cds_hlist_nulls_unhashed(&a.node));
	cr_assert_not(cds_hlist_nulls_empty(&h));
	/* before: [h] -> 1 -> |3|   after: [h] -> |3|, 1 unhashed */
	cds_hlist_nulls_del_init_rcu(&a.node);
	CHECK_NULLS_EMPTY(&h, 3);
	cr_assert(cds_hlist_nulls_unhashed(&a.node));
}

/* ------------------------------------------------------- operations */

Test(nulls, add_head)
{
	struct cds_hlist_nulls_head h;
	struct nitem a = { .key = 1 }, b = { .key = 2 };

	CDS_INIT_HLIST_NULLS_HEAD(&h, 9);
	/* before: [h] -> |9|   after: [h] -> 1 -> |9| */
	cds_hlist_nulls_add_head(&a.node, &h);
	CHECK_NULLS(&h, 9, 1);
	/* before: [h] -> 1 -> |9|   after: [h] -> 2 -> 1 -> |9| */
	cds_hlist_nulls_add_head(&b.node, &h);
	CHECK_NULLS(&h, 9, 2, 1);
}

Test(nulls, del_middle_first_last_only)
{
	struct cds_hlist_nulls_head h;
	struct nitem it[4];

	fill(&h, 4, it, 4);
	CHECK_NULLS(&h, 4, 1, 2, 3, 4);
	/* before: [h] -> 1 -> 2 -> 3 -> 4 -> |4|   after: [h] -> 1 -> 3 -> 4 -> |4| */
	cds_hlist_nulls_del(&it[1].node);
	CHECK_NULLS(&h, 4, 1, 3, 4);
	/* before: [h] -> 1 -> 3 -> 4 -> |4|   after: [h] -> 3 -> 4 -> |4| */
	cds_hlist_nulls_del(&it[0].node);
	CHECK_NULLS(&h, 4, 3, 4);
	/* before: [h] -> 3 -> 4 -> |4|   after: [h] -> 3 -> |4| */
	cds_hlist_nulls_del(&it[3].node);
	CHECK_NULLS(&h, 4, 3);
	/* before: [h] -> 3 -> |4|   after: [h] -> |4| */
	cds_hlist_nulls_del(&it[2].node);
	CHECK_NULLS_EMPTY(&h, 4);
}

Test(nulls, add_head_rcu)
{
	struct cds_hlist_nulls_head h;
	struct nitem it[2], x = { .key = 10 };

	fill(&h, 6, it, 2);
	/* before: [h] -> 1 -> 2 -> |6|   after: [h] -> 10 -> 1 -> 2 -> |6| */
	cds_hlist_nulls_add_head_rcu(&x.node, &h);
	CHECK_NULLS(&h, 6, 10, 1, 2);
	CDS_INIT_HLIST_NULLS_HEAD(&h, 7);
	/* before: [h] -> |7|   after: [h] -> 10 -> |7| */
	cds_hlist_nulls_add_head_rcu(&x.node, &h);
	CHECK_NULLS(&h, 7, 10);
}

Test(nulls, add_tail_rcu)
{
	struct cds_hlist_nulls_head h;
	struct nitem it[2], x = { .key = 10 }, y = { .key = 20 };

	CDS_INIT_HLIST_NULLS_HEAD(&h, 2);
	/* before: [h] -> |2|   after: [h] -> 10 -> |2| */
	cds_hlist_nulls_add_tail_rcu(&x.node, &h);
	CHECK_NULLS(&h, 2, 10);
	fill(&h, 8, it, 2);
	/* before: [h] -> 1 -> 2 -> |8|   after: [h] -> 1 -> 2 -> 20 -> |8| */
	cds_hlist_nulls_add_tail_rcu(&y.node, &h);
	CHECK_NULLS(&h, 8, 1, 2, 20);
}

/*
 * The _rcu deletions at every position of [h] -> 1 -> 2 -> 3 -> |5|: the
 * middle, the last, the first (then the only one left): the deleted node
 * keeps its next (another node or the marker) for a reader standing on it,
 * and reads as unhashed after the _init form, whose second call does
 * nothing.
 */
static void nulls_del_case(void (*del)(struct cds_hlist_nulls_node *), int init)
{
	static const struct {
		int at;
		int after[2];
		size_t n;
	} steps[] = {
		{ 1, { 1, 3 }, 2 }, /* middle */
		{ 2, { 1 }, 1 },    /* last */
		{ 0, { 0 }, 0 },    /* first, the only */
	};
	struct cds_hlist_nulls_head h;
	struct cds_hlist_nulls_node *node, *was;
	struct nitem it[3];
	size_t i;

	fill(&h, 5, it, 3);
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		node = &it[steps[i].at].node;
		was = node->next;
		del(node);
		check_nulls_keys(&h, 5, steps[i].after, steps[i].n,
				 "after a deletion");
		cr_assert(!init || cds_hlist_nulls_unhashed(node), "step %zu", i);
		check_deleted_next(node->next, was, NEXT_KEPT, i);
	}
	cr_assert_eq(cds_get_nulls_value(it[2].node.next), 5);
	if (init) {
		del(&it[1].node);
		CHECK_NULLS_EMPTY(&h, 5);
		cr_assert_eq(it[1].node.next, &it[2].node);
	}
}

Test(nulls, del_rcu_leaves_next_intact)
{
	nulls_del_case(cds_hlist_nulls_del_rcu, 0);
}

Test(nulls, del_init_rcu_unhashes_and_leaves_next)
{
	nulls_del_case(cds_hlist_nulls_del_init_rcu, 1);
}

/* -------------------------------------------------------- iterators */

/*
 * The walks of an iterator and its _rcu twin, written once:
 * X(test, begin, end, iterator).  [h] -> 1 -> 2 -> 3 -> nulls(11) walked
 * whole (ending on the marker), again with continue and break, and an
 * empty list -> nulls(12).
 */
/* clang-format off */
#define ENTRY_WALKS(X)							\
	X(for_each_entry, NO_SECTION, NO_SECTION, cds_hlist_nulls_for_each_entry) \
	X(for_each_entry_rcu, reader_begin, reader_end,			\
	  cds_hlist_nulls_for_each_entry_rcu)

#define ENTRY_WALK_TEST(test, begin, end, for_each_entry)		\
	Test(nulls, test)						\
	{								\
		struct cds_hlist_nulls_head h;				\
		struct nitem it[3], *e;					\
		struct cds_hlist_nulls_node *pos;			\
		int seen[4], n = 0;					\
									\
		fill(&h, 11, it, 3);					\
		begin();						\
		for_each_entry(e, pos, &h, node)			\
			seen[n++] = e->key;				\
		cr_assert_eq(n, 3);					\
		cr_assert(seen[0] == 1 && seen[1] == 2 && seen[2] == 3); \
		cr_assert(cds_is_a_nulls(pos));				\
		cr_assert_eq(cds_get_nulls_value(pos), 11);		\
		CHECK_NULLS(&h, 11, 1, 2, 3);				\
		n = 0;							\
		for_each_entry(e, pos, &h, node) {			\
			if (e->key == 1)				\
				continue;				\
			seen[n++] = e->key;				\
			break;						\
		}							\
		cr_assert(n == 1 && seen[0] == 2 && e == &it[1] &&	\
			  pos == &it[1].node);				\
		CDS_INIT_HLIST_NULLS_HEAD(&h, 12);			\
		for_each_entry(e, pos, &h, node)			\
			cr_assert_fail("body run on an empty list");	\
		cr_assert_eq(cds_get_nulls_value(pos), 12);		\
		end();							\
	}
ENTRY_WALKS(ENTRY_WALK_TEST)
/* clang-format on */

/* A reader standing on an element that moves to another bucket ends its
 * walk at that bucket's marker: the signal to restart. */
Test(nulls, moved_element_leads_to_other_marker)
{
	struct cds_hlist_nulls_head a, b;
	struct nitem it[2], x = { .key = 10 }, *e;
	struct cds_hlist_nulls_node *pos;
	int n = 0;

	fill(&a, 0, it, 2);
	CDS_INIT_HLIST_NULLS_HEAD(&b, 1);
	cds_hlist_nulls_add_head(&x.node, &b);
	rculist_register_thread();
	rculist_read_lock();
	cds_hlist_nulls_for_each_entry_rcu(e, pos, &a, node) {
		n++;
		if (e->key == 1) {
			/* before: [a] -> 1 -> 2 -> |0|, [b] -> 10 -> |1|
			 * after:  [a] -> 2 -> |0|, [b] -> 1 -> 10 -> |1| */
			cds_hlist_nulls_del_init_rcu(&e->node);
			cds_hlist_nulls_add_head_rcu(&e->node, &b);
		}
	}
	cr_assert_eq(n, 2, "walk 1 then 10, never 2");
	cr_assert_eq(cds_get_nulls_value(pos), 1);
	rculist_read_unlock();
	rculist_unregister_thread();
	CHECK_NULLS(&a, 0, 2);
	CHECK_NULLS(&b, 1, 1, 10);
}

/* ----------------------------------------------- type-stable hash table
 * NBUCKET buckets, the marker of each its index, a mutex each.  STABLE
 * elements (keys 0 .. STABLE-1) never move; MOVERS elements are moved by
 * the updaters from bucket to bucket, with new keys, at once - no grace
 * period - while readers look keys up.  A mover's gen is odd while its
 * key changes (a seqcount), so that a reader can tell "the key changed
 * under me" from "the lookup returned a wrong element".
 */
#define NBUCKET	   16
#define STABLE	   (2 * NBUCKET)
#define MOVERS	   64
#define MOVER_KEY0 1000
#define MOVER_KEYS (8 * NBUCKET)
#define NUPDATER   2
#define NREADER	   2
#define RUN_NS	   1000000000L

struct telem {
	int key;	  /* atomic: readers load it while it may change */
	unsigned int gen; /* odd while the key changes */
	struct cds_hlist_nulls_node node;
};

static struct cds_hlist_nulls_head table[NBUCKET];
static pthread_mutex_t bucket_lock[NBUCKET];
static struct telem stable[STABLE], movers[MOVERS];
static int stop;

struct reader_stats {
	unsigned long lookups, restarts, stable_misses, wrong, mover_hits;
	unsigned long bounded; /* lookups cut at LOOKUP_BOUND */
};

/*
 * Elements a lookup may visit, restarts included, before it gives up: a
 * list bug (a cycle, a lost back pointer) then fails the test instead of
 * walking for ever.  A correct lookup visits a few dozen.
 */
#define LOOKUP_BOUND 100000

static unsigned int bucket_of(int key)
{
	return (unsigned int)key % NBUCKET;
}

static int key_of(const struct telem *e)
{
	return __atomic_load_n(&e->key, __ATOMIC_RELAXED);
}

/* Keep the reader on each element a while (about a microsecond), so that
 * elements do move under it: the test needs restarts to happen. */
static void linger(void)
{
	for (int i = 0; i < 2048; i++)
		__asm__ __volatile__("" ::: "memory");
}

/* Look @key up; on a hit, *@gen is the element's gen seen before its key. */
static struct telem *lookup(int key, unsigned int *gen,
			    struct reader_stats *st) RCULIST_REQUIRES_RCU
{
	unsigned int b = bucket_of(key);
	struct cds_hlist_nulls_node *pos;
	struct telem *e;
	long visits = 0;

again:
	cds_hlist_nulls_for_each_entry_rcu(e, pos, &table[b], node) {
		unsigned int g = __atomic_load_n(&e->gen, __ATOMIC_ACQUIRE);

		if (++visits > LOOKUP_BOUND) {
			__atomic_fetch_add(&st->bounded, 1, __ATOMIC_RELAXED);
			return NULL;
		}
		linger();
		if (g % 2 == 0 && key_of(e) == key) {
			/* Re-check: the element may have been recycled. */
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			if (__atomic_load_n(&e->gen, __ATOMIC_RELAXED) == g &&
			    key_of(e) == key) {
				*gen = g;
				return e;
			}
		}
	}
	if (cds_get_nulls_value(pos) != b) {
		__atomic_fetch_add(&st->restarts, 1, __ATOMIC_RELAXED);
		if (++visits > LOOKUP_BOUND) {
			__atomic_fetch_add(&st->bounded, 1, __ATOMIC_RELAXED);
			return NULL;
		}
		goto again;
	}
	return NULL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static unsigned int rnd(unsigned int *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 8;
}

static void *reader(void *arg)
{
	struct reader_stats *st = arg;
	unsigned int seed = (unsigned int)(uintptr_t)arg;

	rculist_register_thread();
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		int k = (int)(rnd(&seed) % STABLE);
		unsigned int g, g2;
		struct telem *e;

		rculist_read_lock();
		e = lookup(k, &g, st);
		if (!e)
			st->stable_misses++;
		else if (e != &stable[k])
			st->wrong++;
		k = MOVER_KEY0 + (int)(rnd(&seed) % MOVER_KEYS);
		e = lookup(k, &g, st);
		if (e) {
			int now = key_of(e);

			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			g2 = __atomic_load_n(&e->gen, __ATOMIC_RELAXED);
			/* A different key now is fine only if it changed since. */
			if (now != k && g2 == g)
				st->wrong++;
			if (e < movers || e >= movers + MOVERS)
				st->wrong++;
			st->mover_hits++;
		}
		rculist_read_unlock();
		rculist_quiescent_state();
		st->lookups += 2;
	}
	rculist_unregister_thread();
	return NULL;
}

/* Move updater @arg's movers (every NUPDATER-th) to random other buckets. */
static void *updater(void *arg)
{
	unsigned int id = (unsigned int)(uintptr_t)arg;
	unsigned int seed = id * 7919u + 1;
	unsigned long *moves = calloc(1, sizeof(*moves));

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		struct telem *e =
			&movers[id + NUPDATER * (rnd(&seed) % (MOVERS / NUPDATER))];
		unsigned int from = bucket_of(e->key);
		int key;

		do
			key = MOVER_KEY0 + (int)(rnd(&seed) % MOVER_KEYS);
		while (bucket_of(key) == from);

		pthread_mutex_lock(&bucket_lock[from]);
		cds_hlist_nulls_del_init_rcu(&e->node);
		pthread_mutex_unlock(&bucket_lock[from]);

		/* Off-list: change the key, no grace period. */
		__atomic_store_n(&e->gen, e->gen + 1, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_RELEASE);
		__atomic_store_n(&e->key, key, __ATOMIC_RELAXED);
		__atomic_store_n(&e->gen, e->gen + 1, __ATOMIC_RELEASE);

		pthread_mutex_lock(&bucket_lock[bucket_of(key)]);
		cds_hlist_nulls_add_head_rcu(&e->node, &table[bucket_of(key)]);
		pthread_mutex_unlock(&bucket_lock[bucket_of(key)]);
		(*moves)++;
	}
	return moves;
}

Test(nulls, recycled_without_grace_period_readers_restart, .timeout = 30)
{
	pthread_t rt[NREADER], ut[NUPDATER];
	struct reader_stats st[NREADER] = { { 0 } }, sum = { 0 };
	unsigned long moves = 0;
	unsigned long restarts;
	uint64_t start, end;
	int i, n;

	for (i = 0; i < NBUCKET; i++) {
		CDS_INIT_HLIST_NULLS_HEAD(&table[i], (unsigned long)i);
		pthread_mutex_init(&bucket_lock[i], NULL);
	}
	for (i = 0; i < STABLE; i++) {
		stable[i].key = i;
		cds_hlist_nulls_add_head(&stable[i].node, &table[bucket_of(i)]);
	}
	for (i = 0; i < MOVERS; i++) {
		movers[i].key = MOVER_KEY0 + i;
		cds_hlist_nulls_add_head(&movers[i].node,
					 &table[bucket_of(movers[i].key)]);
	}
	for (i = 0; i < NREADER; i++)
		cr_assert_eq(pthread_create(&rt[i], NULL, reader, &st[i]), 0);
	for (i = 0; i < NUPDATER; i++)
		cr_assert_eq(pthread_create(&ut[i], NULL, updater,
					    (void *)(uintptr_t)i),
			     0);

	/*
	 * RUN_NS, and on until a reader has restarted: a loaded machine may
	 * give the threads few turns; 25 s at most (the test's timeout is 30).
	 */
	start = now_ns();
	do {
		struct timespec ts = { 0, 10000000 };

		nanosleep(&ts, NULL);
		end = now_ns();
		restarts = 0;
		for (i = 0; i < NREADER; i++)
			restarts += __atomic_load_n(&st[i].restarts,
						    __ATOMIC_RELAXED);
	} while (end - start < RUN_NS ||
		 (!restarts && end - start < 25 * RUN_NS));
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < NUPDATER; i++) {
		void *ret;

		pthread_join(ut[i], &ret);
		cr_assert_not_null(ret);
		moves += *(unsigned long *)ret;
		free(ret);
	}
	for (i = 0; i < NREADER; i++) {
		pthread_join(rt[i], NULL);
		sum.lookups += st[i].lookups;
		sum.restarts += st[i].restarts;
		sum.stable_misses += st[i].stable_misses;
		sum.wrong += st[i].wrong;
		sum.mover_hits += st[i].mover_hits;
		sum.bounded += st[i].bounded;
	}
	cr_log_info("nulls %s: %lu moves, %lu lookups, %lu restarts, %lu mover hits",
		    rculist_flavor_name(), moves, sum.lookups, sum.restarts,
		    sum.mover_hits);

	cr_assert_eq(sum.bounded, 0,
		     "%lu lookups visited more than %d elements (a cycle?)",
		     sum.bounded, LOOKUP_BOUND);
	cr_assert_gt(moves, 1000, "updaters made only %lu moves", moves);
	cr_assert_gt(sum.lookups, 1000, "readers made only %lu lookups",
		     sum.lookups);
	cr_assert_eq(sum.wrong, 0, "%lu lookups returned a wrong element",
		     sum.wrong);
	cr_assert_eq(sum.stable_misses, 0, "%lu lookups of present keys failed",
		     sum.stable_misses);
	cr_assert_gt(sum.mover_hits, 0, "no lookup of a moving key ever hit");
	cr_assert_gt(sum.restarts, 0,
		     "no reader ever ended in another bucket: the test did not test");

	/* Every element is in the bucket of its key, and none was lost. */
	n = 0;
	for (i = 0; i < NBUCKET; i++) {
		struct cds_hlist_nulls_node *pos;
		struct telem *e;

		cds_hlist_nulls_for_each_entry(e, pos, &table[i], node) {
			cr_assert_eq(bucket_of(e->key), (unsigned int)i);
			cr_assert_eq(e->gen % 2, 0);
			cr_assert_leq(++n, STABLE + MOVERS,
				      "a cycle in bucket %d", i);
		}
		cr_assert_eq(cds_get_nulls_value(pos), (unsigned long)i);
	}
	cr_assert_eq(n, STABLE + MOVERS);
}
