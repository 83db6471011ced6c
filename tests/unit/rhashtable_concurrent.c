// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/rhashtable_concurrent.c - cds_rhashtable with real threads:
 *
 * - grow_shrink: readers look up every key that is present while one
 *   updater fills the table from empty to RCULIST_TEST_RHASH_KEYS keys
 *   (100000 in make check) and empties it again, so that the rehash
 *   thread doubles it a dozen times and halves it back; a present key
 *   must be found every time.
 * - churn: two updaters insert, remove and replace keys of their own
 *   while readers look up a set of keys that stay in the table (always
 *   found) and churned ones (found or not, never a freed object), the
 *   table growing and shrinking under them.
 * - walkers: a walker makes passes while updaters churn; a pass that
 *   saw no resize (no -EAGAIN) never returns an object twice, and every
 *   pass returns every key that stayed in the table.
 *
 * Removed objects are poisoned after a grace period (their magic, key
 * and link overwritten, and kept in a quarantine before free()): a
 * reader that reaches one sees the poison (the comparison function
 * checks every object a lookup visits).  Waits are bounded by progress.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

#include <rculist/rhashtable.h>

TestSuite(rhashtable_concurrent, .timeout = 120);

#define ALIVE 0xa11fe0a11fe0UL
#define DEAD  0xdeaddeaddeadUL

struct cobj {
	unsigned long magic;
	long key;
	struct cds_rhash_head node;
	long gen;
};

static unsigned long violations;
static char first_violation[256];

static void violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void violation(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_fetch_add(&violations, 1, __ATOMIC_RELAXED) == 0) {
		va_start(ap, fmt);
		vsnprintf(first_violation, sizeof(first_violation), fmt, ap);
		va_end(ap);
	}
}

/* Every object a lookup compares: a poisoned one is a use after free. */
static int cobj_cmp(struct cds_rhashtable_compare_arg *arg, const void *obj)
{
	const struct cobj *o = obj;

	if (__atomic_load_n(&o->magic, __ATOMIC_RELAXED) != ALIVE) {
		violation("a lookup of key %ld reached a freed object",
			  *(const long *)arg->key);
		return 0; /* end the lookup on it */
	}
	return o->key != *(const long *)arg->key;
}

static const struct cds_rhashtable_params cparams = {
	.key_len = sizeof(long),
	.key_offset = offsetof(struct cobj, key),
	.head_offset = offsetof(struct cobj, node),
	.automatic_shrinking = true,
	.obj_cmpfn = cobj_cmp,
};

static struct cobj *cobj_new(long key)
{
	struct cobj *o = malloc(sizeof(*o));

	cr_assert_not_null(o);
	o->magic = ALIVE;
	o->key = key;
	o->gen = 0;
	return o;
}

/* A dead end that a reader recognises: its chain marker is nobody's. */
static struct cobj sentinel = { DEAD, -1, { (struct cds_rhash_head *)1 }, 0 };

/* Poisoned objects wait here; the oldest is freed when the ring is full. */
#define QUARANTINE 4096
static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cobj *q_ring[QUARANTINE];
static size_t q_next;
static unsigned long q_poisoned;

static void poison(struct cobj *o)
{
	struct cobj *old;

	__atomic_store_n(&o->magic, DEAD, __ATOMIC_RELAXED);
	__atomic_store_n(&o->key, -2, __ATOMIC_RELAXED);
	__atomic_store_n(&o->node.next, &sentinel.node, __ATOMIC_RELAXED);
	pthread_mutex_lock(&q_lock);
	old = q_ring[q_next];
	q_ring[q_next] = o;
	q_next = (q_next + 1) % QUARANTINE;
	q_poisoned++;
	pthread_mutex_unlock(&q_lock);
	free(old);
}

static void quarantine_drain(void)
{
	size_t i;

	for (i = 0; i < QUARANTINE; i++) {
		free(q_ring[i]);
		q_ring[i] = NULL;
	}
}

/* Removed objects, poisoned a grace period later, a batch at a time. */
struct retire {
	struct cobj *batch[4096];
	size_t n;
	unsigned long retired;
};

static void retire_flush(struct retire *r)
{
	size_t i;

	if (!r->n)
		return;
	rculist_thread_offline();
	rculist_synchronize_rcu();
	rculist_thread_online();
	for (i = 0; i < r->n; i++)
		poison(r->batch[i]);
	r->n = 0;
}

static void retire(struct retire *r, struct cobj *o)
{
	r->retired++;
	r->batch[r->n++] = o;
	if (r->n == 4096)
		retire_flush(r);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static long env_keys(long def)
{
	return (long)test_env_number("RCULIST_TEST_RHASH_KEYS", (double)def,
				     1000, 1e8);
}

/* ---------------------------------------------------------- grow_shrink */

static struct cds_rhashtable g_ht;
static long g_hi; /* keys 0 .. g_hi - 1 are in the table */
static int g_stop;
static unsigned long g_lookups[2];

static void *grow_reader(void *arg)
{
	long id = (long)arg;
	uint64_t s = 0x9e3779b97f4a7c15ULL * (uint64_t)(id + 1);
	unsigned long n = 0;

	rculist_register_thread();
	while (!__atomic_load_n(&g_stop, __ATOMIC_ACQUIRE)) {
		long h1 = __atomic_load_n(&g_hi, __ATOMIC_ACQUIRE), h2, k;
		struct cobj *o;

		k = h1 ? (long)(rnd(&s) % (uint64_t)h1) : 0;
		rculist_read_lock();
		o = cds_rhashtable_lookup(&g_ht, &k, cparams);
		if (o && (__atomic_load_n(&o->magic, __ATOMIC_RELAXED) != ALIVE ||
			  o->key != k))
			violation("key %ld: found a freed or wrong object (key %ld)",
				  k, o->key);
		rculist_read_unlock();
		h2 = __atomic_load_n(&g_hi, __ATOMIC_ACQUIRE);
		/* Present from before the lookup to after it: must be found. */
		if (!o && k < h1 && k < h2)
			violation("key %ld missed (keys 0..%ld present throughout)",
				  k, (h1 < h2 ? h1 : h2) - 1);
		__atomic_store_n(&g_lookups[id], ++n, __ATOMIC_RELAXED);
		if (!(n & 63))
			rculist_quiescent_state();
	}
	rculist_unregister_thread();
	return NULL;
}

/* Wait until each reader has made @more lookups since @base. */
static void wait_readers(unsigned long *base, unsigned long more,
			 const char *phase)
{
	struct timespec ms = { 0, 1000000 };
	int r, i;

	for (r = 0; r < 2; r++) {
		for (i = 0; __atomic_load_n(&g_lookups[r], __ATOMIC_RELAXED) <
			    base[r] + more;
		     i++) {
			cr_assert_lt(i, 30000,
				     "no progress: reader %d made no lookups during %s",
				     r, phase);
			rculist_thread_offline();
			nanosleep(&ms, NULL);
			rculist_thread_online();
		}
		base[r] = __atomic_load_n(&g_lookups[r], __ATOMIC_RELAXED);
	}
}

/*
 * The table's size now, read as a reader does (the rehash thread may
 * replace and free the table at any time).
 */
static unsigned int table_size(struct cds_rhashtable *ht)
{
	unsigned int size;

	rculist_read_lock();
	size = rculist__load_once(cds_rht_dereference_rcu(ht->tbl, ht)->size);
	rculist_read_unlock();
	return size;
}

Test(rhashtable_concurrent,
     lookups_find_every_present_key_while_it_grows_and_shrinks)
{
	long n = env_keys(100000), k;
	struct cobj **o = calloc((size_t)n, sizeof(*o));
	struct retire rt = { { NULL }, 0, 0 };
	unsigned long base[2] = { 0, 0 };
	unsigned int biggest = 0, smallest;
	pthread_t t[2];
	long i;

	cr_assert_not_null(o);
	rculist_register_thread();
	cr_assert_eq(cds_rhashtable_init(&g_ht, &cparams), 0);
	smallest = table_size(&g_ht);
	for (i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, grow_reader, (void *)i),
			     0);
	/* Grow: insert, then publish; readers look below the mark. */
	for (k = 0; k < n; k++) {
		o[k] = cobj_new(k);
		cr_assert_eq(cds_rhashtable_lookup_insert_fast(&g_ht, &o[k]->node,
							       cparams),
			     0);
		__atomic_store_n(&g_hi, k + 1, __ATOMIC_RELEASE);
		if (!(k & 1023)) {
			unsigned int size = table_size(&g_ht);

			biggest = size > biggest ? size : biggest;
			rculist_quiescent_state();
		}
		if (k == n / 2)
			wait_readers(base, 1000, "growth");
	}
	wait_readers(base, 1000, "the full table");
	for (i = 0; i < 30000 && table_size(&g_ht) < n; i++) {
		struct timespec ms = { 0, 1000000 };

		rculist_thread_offline();
		nanosleep(&ms, NULL);
		rculist_thread_online();
	}
	biggest = table_size(&g_ht);
	cr_assert_geq(biggest, (unsigned int)n,
		      "no progress: the table stayed at %u buckets", biggest);
	/* Shrink: unpublish, then remove. */
	for (k = n - 1; k >= 0; k--) {
		__atomic_store_n(&g_hi, k, __ATOMIC_RELEASE);
		cr_assert_eq(cds_rhashtable_remove_fast(&g_ht, &o[k]->node,
							cparams),
			     0);
		retire(&rt, o[k]);
		if (k == n / 2)
			wait_readers(base, 1000, "shrinking");
		if (!(k & 1023))
			rculist_quiescent_state();
	}
	retire_flush(&rt);
	wait_readers(base, 100, "the empty table");
	for (i = 0; i < 30000 && table_size(&g_ht) > 4; i++) {
		struct timespec ms = { 0, 1000000 };

		rculist_thread_offline();
		nanosleep(&ms, NULL);
		rculist_thread_online();
	}
	__atomic_store_n(&g_stop, 1, __ATOMIC_RELEASE);
	rculist_thread_offline();
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	rculist_thread_online();
	cr_assert_eq(violations, 0, "%lu violations, the first: %s", violations,
		     first_violation);
	cr_assert_eq(g_ht.nelems, 0);
	smallest = table_size(&g_ht);
	cr_assert_eq(smallest, 4,
		     "no progress: the table did not shrink back (%u buckets)",
		     smallest);
	cr_assert_eq(q_poisoned, (unsigned long)n);
	(void)smallest;
	cds_rhashtable_destroy(&g_ht);
	quarantine_drain();
	free(o);
}

/* --------------------------------------------------------------- churn */

#define STABLE	512
#define CHURNED 4096 /* per updater */

static struct cds_rhashtable c_ht;
static int c_stop;
static unsigned long c_lookups[2], c_updates[2], c_walks, c_passes_clean,
	c_passes_resized;

static void *churn_reader(void *arg)
{
	long id = (long)arg;
	uint64_t s = 0x2545f4914f6cdd1dULL * (uint64_t)(id + 3);
	unsigned long n = 0;

	rculist_register_thread();
	while (!__atomic_load_n(&c_stop, __ATOMIC_ACQUIRE)) {
		long k = (long)(rnd(&s) % (STABLE + 2 * CHURNED));
		struct cobj *o;

		rculist_read_lock();
		o = cds_rhashtable_lookup(&c_ht, &k, cparams);
		if (o && (__atomic_load_n(&o->magic, __ATOMIC_RELAXED) != ALIVE ||
			  o->key != k))
			violation("key %ld: found a freed or wrong object", k);
		rculist_read_unlock();
		if (!o && k < STABLE)
			violation("stable key %ld missed", k);
		__atomic_store_n(&c_lookups[id], ++n, __ATOMIC_RELAXED);
		if (!(n & 63))
			rculist_quiescent_state();
	}
	rculist_unregister_thread();
	return NULL;
}

struct churner {
	long id;
	struct cobj *present[CHURNED];
	struct retire rt;
	uint64_t s;
};

/* Fill the keys, then churn at random, then empty them: resizes both ways. */
static void churn_round(struct churner *c)
{
	long base = STABLE + c->id * CHURNED, i;

	for (i = 0; i < CHURNED; i++) {
		long j = (long)(rnd(&c->s) % CHURNED);
		struct cobj *o = c->present[j], *n;

		if (!o) {
			n = cobj_new(base + j);
			cr_assert_eq(cds_rhashtable_lookup_insert_fast(&c_ht,
								       &n->node,
								       cparams),
				     0);
			c->present[j] = n;
		} else if (rnd(&c->s) & 1) {
			n = cobj_new(base + j);
			n->gen = o->gen + 1;
			cr_assert_eq(cds_rhashtable_replace_fast(&c_ht, &o->node,
								 &n->node,
								 cparams),
				     0);
			c->present[j] = n;
			retire(&c->rt, o);
		} else {
			cr_assert_eq(cds_rhashtable_remove_fast(&c_ht, &o->node,
								cparams),
				     0);
#ifndef RCULIST_DEBUG /* debug mode reports a second removal */
			cr_assert_eq(cds_rhashtable_remove_fast(&c_ht, &o->node,
								cparams),
				     -ENOENT);
#endif
			c->present[j] = NULL;
			retire(&c->rt, o);
		}
		__atomic_add_fetch(&c_updates[c->id], 1, __ATOMIC_RELAXED);
		if (!(i & 63))
			rculist_quiescent_state();
	}
	/* Every key present once: the rest refused. */
	for (i = 0; i < CHURNED; i++)
		if (!c->present[i]) {
			c->present[i] = cobj_new(base + i);
			cr_assert_eq(cds_rhashtable_insert_fast(&c_ht,
								&c->present[i]->node,
								cparams),
				     0);
		}
	for (i = 0; i < CHURNED; i++) {
		struct cobj *dup = cobj_new(base + i);

		cr_assert_eq(cds_rhashtable_lookup_insert_fast(&c_ht, &dup->node,
							       cparams),
			     -EEXIST);
		free(dup);
	}
	for (i = 0; i < CHURNED; i++) {
		cr_assert_eq(cds_rhashtable_remove_fast(&c_ht,
							&c->present[i]->node,
							cparams),
			     0);
		retire(&c->rt, c->present[i]);
		c->present[i] = NULL;
		if (!(i & 63))
			rculist_quiescent_state();
	}
	retire_flush(&c->rt);
}

static void *churn_updater(void *arg)
{
	struct churner *c = arg;

	rculist_register_thread();
	while (!__atomic_load_n(&c_stop, __ATOMIC_ACQUIRE))
		churn_round(c);
	rculist_unregister_thread();
	return NULL;
}

/* A pass: every stable key at least once; twice only after a resize. */
static void *walker(void *arg)
{
	struct cds_rhashtable_iter iter;
	static unsigned char seen[STABLE + 2 * CHURNED];

	(void)arg;
	rculist_register_thread();
	while (!__atomic_load_n(&c_stop, __ATOMIC_ACQUIRE)) {
		int resized = 0, twice = -1;
		struct cobj *o;
		long k;

		memset(seen, 0, sizeof(seen));
		cds_rhashtable_walk_enter(&c_ht, &iter);
		if (cds_rhashtable_walk_start_check(&iter))
			resized = 1;
		while ((o = cds_rhashtable_walk_next(&iter))) {
			if (CDS_IS_ERR(o)) {
				if (CDS_PTR_ERR(o) != -EAGAIN)
					violation("walk_next: error %ld",
						  CDS_PTR_ERR(o));
				resized = 1;
				continue;
			}
			if (__atomic_load_n(&o->magic, __ATOMIC_RELAXED) !=
			    ALIVE) {
				violation("a walk returned a freed object");
				break;
			}
			k = o->key;
			if (k < 0 || k >= STABLE + 2 * CHURNED) {
				violation("a walk returned key %ld", k);
				break;
			}
			if (seen[k]++ && twice < 0)
				twice = (int)k;
		}
		cds_rhashtable_walk_stop(&iter);
		cds_rhashtable_walk_exit(&iter);
		if (twice >= 0 && !resized)
			violation("a pass without a resize returned key %d twice",
				  twice);
		for (k = 0; k < STABLE; k++)
			if (!seen[k])
				violation("a pass missed stable key %ld", k);
		__atomic_add_fetch(resized ? &c_passes_resized : &c_passes_clean,
				   1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&c_walks, 1, __ATOMIC_RELAXED);
		rculist_quiescent_state();
	}
	rculist_unregister_thread();
	return NULL;
}

static void wait_progress(unsigned long *counter, unsigned long target,
			  const char *who)
{
	struct timespec ms = { 0, 1000000 };
	int i;

	for (i = 0; __atomic_load_n(counter, __ATOMIC_RELAXED) < target; i++) {
		cr_assert_lt(i, 60000, "no progress: %s at %lu, want %lu", who,
			     __atomic_load_n(counter, __ATOMIC_RELAXED), target);
		nanosleep(&ms, NULL);
	}
}

static void run_churn(int with_walker)
{
	static struct churner c[2];
	struct cobj *stable[STABLE];
	pthread_t r[2], u[2], w;
	double secs = test_env_number("RCULIST_TEST_CONC_SECS", 0.4, 0.05, 10);
	struct timespec t = { (time_t)secs, (long)((secs - (long)secs) * 1e9) };
	long i;

	cr_assert_eq(cds_rhashtable_init(&c_ht, &cparams), 0);
	rculist_register_thread();
	for (i = 0; i < STABLE; i++) {
		stable[i] = cobj_new(i);
		cr_assert_eq(cds_rhashtable_insert_fast(&c_ht, &stable[i]->node,
							cparams),
			     0);
	}
	rculist_unregister_thread();
	for (i = 0; i < 2; i++) {
		c[i].id = i;
		c[i].s = 0x1234567ULL * (uint64_t)(i + 1);
		cr_assert_eq(pthread_create(&r[i], NULL, churn_reader, (void *)i),
			     0);
		cr_assert_eq(pthread_create(&u[i], NULL, churn_updater, &c[i]),
			     0);
	}
	if (with_walker)
		cr_assert_eq(pthread_create(&w, NULL, walker, NULL), 0);
	nanosleep(&t, NULL);
	/* At least two rounds of each updater (resizes), lookups overlapping. */
	wait_progress(&c_updates[0], 2 * CHURNED, "updater 0");
	wait_progress(&c_updates[1], 2 * CHURNED, "updater 1");
	wait_progress(&c_lookups[0], 10000, "reader 0");
	wait_progress(&c_lookups[1], 10000, "reader 1");
	if (with_walker)
		wait_progress(&c_walks, 20, "the walker");
	__atomic_store_n(&c_stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 2; i++) {
		pthread_join(r[i], NULL);
		pthread_join(u[i], NULL);
	}
	if (with_walker)
		pthread_join(w, NULL);
	cr_assert_eq(violations, 0, "%lu violations, the first: %s", violations,
		     first_violation);
	cr_assert_eq(c_ht.nelems, STABLE);
	cr_assert_eq(q_poisoned, c[0].rt.retired + c[1].rt.retired);
	rculist_register_thread();
	for (i = 0; i < STABLE; i++)
		cr_assert_eq(cds_rhashtable_lookup_fast(&c_ht, &i, cparams),
			     stable[i]);
	rculist_unregister_thread();
	cds_rhashtable_destroy(&c_ht);
	for (i = 0; i < STABLE; i++)
		free(stable[i]);
	quarantine_drain();
}

Test(rhashtable_concurrent, readers_while_updaters_insert_remove_replace)
{
	run_churn(0);
}

Test(rhashtable_concurrent, walkers_see_no_object_twice_without_a_resize)
{
	run_churn(1);
	cr_assert_gt(c_passes_clean + c_passes_resized, 0);
}
