// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/rhash.c - the resizable tables: rculist's cds_rhashtable
 * (<rculist/rhashtable.h>) against liburcu's rculfhash with automatic
 * resizing.
 *
 *   rhash [-t SECONDS]      (SECONDS per case; default BENCH_TIME or 0.5)
 *
 * Each table starts empty (cds_rhashtable: nelem_hint 0, 64 buckets;
 * rculfhash: 64 buckets, CDS_LFHT_AUTO_RESIZE) and gets 1M keys inserted
 * by one thread, each insert timed; the table then settles (its resize
 * threads finish) and is weighed.  Then 1 or 2 reader threads look
 * random keys up, each lookup one read-side section, without and with
 * an updater that flat out removes a random key's element and inserts a
 * new one with the same key (the old freed after a grace period,
 * rculist_free_rcu()).  Lines:
 *
 *   rhash-insert: impl=rhashtable flavor=memb keys=1048576 secs=0.41
 *	inserts/s=2.55M p50-ns=180 p99-ns=900 buckets=2097152 others=0.02
 *   rhash: impl=rhashtable flavor=memb keys=1048576 readers=2 updater=1
 *	lookups/s=...M lookups/cpu-s=...M hits=100.0% updates/s=...M
 *	bytes/elem=... others=...
 *
 * (one line each).  impl is rhashtable or rculfhash-resize; secs the
 * time to insert every key into the empty table; p50-ns and p99-ns the
 * latency of one insert; buckets the table's size once settled (0 where
 * not known: rculfhash does not say); bytes/elem what the table and its
 * elements took from malloc (mallinfo2(), every arena) per key; the
 * other fields as bench/hash.c prints them.  BENCH_QUICK=1: 4096 keys,
 * 0.02 s a case (check-bench).  Compiled per flavour: rculfhash is
 * bound to the flavour of the rculist library of this binary.
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>
#include <rculist/rhashtable.h>
/* rhash.mk: -DBENCH_HEADER='<urcu/urcu-memb.h>' -DBENCH_FLAVOR=memb */
#include BENCH_HEADER
#include <urcu/rculfhash.h>

#include "keys.h"

#include "measure.h"

#define RH_CAT2(a, b, c) a##b##c
#define RH_CAT(a, b, c)	 RH_CAT2(a, b, c)
#define URCU_FLAVOR	 RH_CAT(urcu_, BENCH_FLAVOR, _flavor)

/* liburcu's container_of casts away const (clang -Wcast-qual): theirs. */
#pragma GCC diagnostic ignored "-Wcast-qual"

enum impl { RHT, LFHT, NIMPL };
static const char *const impl_name[NIMPL] = { "rhashtable", "rculfhash-resize" };

/* The same payload in both: a key, a value, the link, an rcu_head. */
struct relem {
	unsigned long key, val;
	struct cds_rhash_head node;
	struct rcu_head rcu;
};

struct lelem {
	unsigned long key, val;
	struct cds_lfht_node node;
	struct rcu_head rcu;
};

static const struct cds_rhashtable_params rparams = {
	.key_len = sizeof(unsigned long),
	.key_offset = offsetof(struct relem, key),
	.head_offset = offsetof(struct relem, node),
	.automatic_shrinking = true,
};

static struct cds_rhashtable rht;
static struct cds_lfht *lfht;
static enum impl cur;
static unsigned long nkeys;
static int stop;

#include "workers.h"

static int lfht_match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct lelem, node)->key ==
	       *(const unsigned long *)key;
}

static int lookup(unsigned long key)
{
	struct cds_lfht_iter iter;
	struct relem *r;
	int found = 0;

	rculist_read_lock();
	if (cur == RHT) {
		r = cds_rhashtable_lookup(&rht, &key, rparams);
		found = r && r->val == key;
	} else {
		cds_lfht_lookup(lfht, lfht_hash(key), lfht_match, &key, &iter);
		if (cds_lfht_iter_get_node(&iter))
			found = caa_container_of(cds_lfht_iter_get_node(&iter),
						 struct lelem, node)
					->val == key;
	}
	rculist_read_unlock();
	return found;
}

static void insert(unsigned long key)
{
	struct relem *r;
	struct lelem *l;

	if (cur == RHT) {
		r = malloc(sizeof(*r));
		if (!r)
			abort();
		r->key = r->val = key;
		if (cds_rhashtable_insert_fast(&rht, &r->node, rparams))
			abort();
	} else {
		l = malloc(sizeof(*l));
		if (!l)
			abort();
		l->key = l->val = key;
		cds_lfht_node_init(&l->node);
		rculist_read_lock();
		cds_lfht_add(lfht, lfht_hash(key), &l->node);
		rculist_read_unlock();
	}
}

/* The updater's step: @key's element out (freed after a grace period), a new one in. */
static void replace(unsigned long key)
{
	struct cds_lfht_iter iter;
	struct lelem *l = NULL;
	struct relem *r;

	if (cur == RHT) {
		rculist_read_lock();
		r = cds_rhashtable_lookup(&rht, &key, rparams);
		if (r && cds_rhashtable_remove_fast(&rht, &r->node, rparams))
			r = NULL;
		rculist_read_unlock();
		insert(key);
		if (r)
			rculist_free_rcu(r, rcu);
		return;
	}
	rculist_read_lock();
	cds_lfht_lookup(lfht, lfht_hash(key), lfht_match, &key, &iter);
	if (cds_lfht_iter_get_node(&iter)) {
		l = caa_container_of(cds_lfht_iter_get_node(&iter),
				     struct lelem, node);
		if (cds_lfht_del(lfht, &l->node))
			l = NULL;
	}
	rculist_read_unlock();
	insert(key);
	if (l)
		rculist_free_rcu(l, rcu);
}

static int uses_rcu(void)
{
	return 1;
}

/* Wait until cds_rhashtable's rehash thread has sized the table. */
static unsigned long rht_settle(void)
{
	unsigned long size = 0;
	int i;

	for (i = 0; i < 10000; i++) {
		struct cds_bucket_table *tbl;
		int busy;

		rculist_read_lock();
		tbl = rculist__deref(rht.tbl);
		busy = rculist__deref(tbl->future_tbl) != NULL;
		size = tbl->size;
		rculist_read_unlock();
		if (!busy && !rculist__rht_grow_above_75(&rht, tbl))
			break;
		rculist_thread_offline();
		usleep(1000);
		rculist_thread_online();
	}
	return size;
}

/* Build the table of @impl, timing each insert; the bytes it took per key. */
static double build(enum impl impl)
{
	double before = heap_in_use(), t0, t1, *lat;
	struct bench_others o;
	unsigned long i, buckets = 0;

	cur = impl;
	lat = malloc(nkeys * sizeof(*lat));
	if (!lat)
		abort();
	if (impl == RHT) {
		if (cds_rhashtable_init(&rht, &rparams))
			abort();
	} else {
		lfht = cds_lfht_new_flavor(1, 1, 0,
					   CDS_LFHT_AUTO_RESIZE |
						   CDS_LFHT_ACCOUNTING,
					   &URCU_FLAVOR, NULL);
		if (!lfht)
			abort();
	}
	rculist_register_thread();
	o = bench_others_start();
	t0 = bench_now();
	for (i = 0; i < nkeys; i++) {
		double a = bench_now();

		insert(key_of(i));
		lat[i] = bench_now() - a;
		if (!(i % 1024))
			rculist_quiescent_state();
	}
	t1 = bench_now();
	if (impl == RHT)
		buckets = rht_settle();
	rculist_unregister_thread();
	if (impl == LFHT) /* its resize worker grows the table meanwhile */
		usleep(nkeys > 4096 ? 200000 : 20000);
	qsort(lat, nkeys, sizeof(*lat), bench_cmp_double);
	printf("rhash-insert: impl=%s flavor=%s keys=%lu secs=%.3f inserts/s=%.2fM "
	       "p50-ns=%.0f p99-ns=%.0f buckets=%lu others=%.2f\n",
	       impl_name[impl], rculist_flavor_name(), nkeys, t1 - t0,
	       (double)nkeys / (t1 - t0) / 1e6, lat[nkeys / 2] * 1e9,
	       lat[nkeys / 100 * 99] * 1e9, buckets, bench_others_cores(&o));
	free(lat);
	return (heap_in_use() - before) / (double)nkeys;
}

static void free_relem(void *ptr, void *arg)
{
	(void)arg;
	free(ptr);
}

static void teardown(void)
{
	struct cds_lfht_iter iter;
	struct lelem *l;

	rculist_register_thread();
	if (cur == RHT) {
		rculist_unregister_thread();
		rculist_rcu_barrier();
		cds_rhashtable_free_and_destroy(&rht, free_relem, NULL);
		return;
	}
	rculist_read_lock();
	cds_lfht_for_each_entry(lfht, &iter, l,
				node) if (!cds_lfht_del(lfht, &l->node))
		rculist_free_rcu(l, rcu);
	rculist_read_unlock();
	rculist_unregister_thread();
	rculist_rcu_barrier();
	if (cds_lfht_destroy(lfht, NULL))
		abort();
}

static void run_case(int nreaders, int with_updater, double secs, double bytes)
{
	struct case_result r = run_workers(nreaders, with_updater, secs);

	printf("rhash: impl=%s flavor=%s keys=%lu readers=%d updater=%d "
	       "lookups/s=%.2fM lookups/cpu-s=%.2fM hits=%.1f%% updates/s=%.2fM "
	       "bytes/elem=%.1f others=%.2f\n",
	       impl_name[cur], rculist_flavor_name(), nkeys, nreaders,
	       with_updater, r.lookups_s, r.lookups_cpu_s, r.hits_pct,
	       r.updates_s, bytes, r.others);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *quick = getenv("BENCH_QUICK"), *bt = getenv("BENCH_TIME");
	int q = quick && *quick && strcmp(quick, "0");
	double secs = q ? 0.02 : bt && *bt ? atof(bt) : 0.5, bytes;
	int opt, impl, nr, upd;

	nkeys = q ? 4096 : 1UL << 20;
	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't') {
			fprintf(stderr, "usage: %s [-t SECONDS]\n", argv[0]);
			return 2;
		}
		secs = atof(optarg);
	}
	for (impl = 0; impl < NIMPL; impl++) {
		bytes = build((enum impl)impl);
		for (upd = 0; upd <= 1; upd++)
			for (nr = 1; nr <= MAX_READERS; nr++)
				run_case(nr, upd, secs, bytes);
		teardown();
	}
	return 0;
}
