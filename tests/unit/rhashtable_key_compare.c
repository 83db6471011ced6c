// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/rhashtable_key_compare.c - a lookup compares the key of an
 * object whose owner is changing it (the kernel's test_rhashtable
 * rewrites the key of each object it removed, while lookups in flight
 * may still compare it) and never takes it for another key.
 *
 * One chain (the hash function puts every key in bucket 0): an object
 * whose key a thread flips between { 0x100, 1 } and { INT_MAX, 1 }, a
 * stable object { 5, 5 }.  The test's thread looks up { 0x2ff, 2 }, a
 * key no object ever has, whose first byte is INT_MAX's: libc's
 * memcmp() loads the first differing byte again to order the keys, and
 * when the flip lands between its two loads it returns 0.  The lookup
 * must return NULL every time, and the stable object for its own key.
 */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "check.h"

#include <rculist/rhashtable.h>

TestSuite(rhashtable_key_compare, .timeout = 60);

struct kv {
	int id;
	int tid;
};

struct kobj {
	struct kv key;
	struct cds_rhash_head node;
};

static uint32_t bucket_zero(const void *data, uint32_t len, uint32_t seed)
{
	(void)data;
	(void)len;
	(void)seed;
	return 0;
}

/* Not const, as the kernel test's: the key length is not a constant there. */
static struct cds_rhashtable_params kparams = {
	.key_len = sizeof(struct kv),
	.key_offset = offsetof(struct kobj, key),
	.head_offset = offsetof(struct kobj, node),
	.hashfn = bucket_zero,
};

static struct kobj flipped, stable;
static int stop;
static unsigned long flips;

static void *flipper(void *arg)
{
	unsigned long n = 0;

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		__atomic_store_n(&flipped.key.id, INT_MAX, __ATOMIC_RELAXED);
		__atomic_store_n(&flipped.key.id, 0x100, __ATOMIC_RELAXED);
		if (!(++n & 1023))
			__atomic_store_n(&flips, n, __ATOMIC_RELAXED);
	}
	return NULL;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

Test(rhashtable_key_compare, a_key_changing_under_a_lookup_never_matches_another)
{
	double secs = test_env_number("RCULIST_TEST_CONC_SECS", 0.4, 0.05, 10);
	struct kv never = { 0x2ff, 2 }, five = { 5, 5 };
	static struct cds_rhashtable ht;
	unsigned long lookups = 0, wrong = 0, missed = 0;
	double end;
	pthread_t t;

	rculist_register_thread();
	cr_assert_eq(cds_rhashtable_init(&ht, &kparams), 0);
	flipped.key = (struct kv){ 0x100, 1 };
	stable.key = five;
	cr_assert_eq(cds_rhashtable_insert_fast(&ht, &stable.node, kparams), 0);
	cr_assert_eq(cds_rhashtable_insert_fast(&ht, &flipped.node, kparams), 0);
	cr_assert_eq(pthread_create(&t, NULL, flipper, NULL), 0);
	end = now() + secs;
	do {
		int i;

		for (i = 0; i < 4096; i++) {
			if (cds_rhashtable_lookup_fast(&ht, &never, kparams))
				wrong++;
			if (cds_rhashtable_lookup_fast(&ht, &five, kparams) !=
			    &stable)
				missed++;
		}
		lookups += 4096;
	} while (now() < end ||
		 __atomic_load_n(&flips, __ATOMIC_RELAXED) < 100000);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	cr_assert_eq(wrong, 0,
		     "%lu of %lu lookups of a key no object has returned the "
		     "object whose key was changing",
		     wrong, lookups);
	cr_assert_eq(missed, 0, "%lu lookups missed the stable object", missed);
	cds_rhashtable_destroy(&ht);
}
