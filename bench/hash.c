// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/hash.c - hash-table lookups: rculist's fixed-size table
 * (<rculist/hashtable.h>) against liburcu's lock-free resizable table
 * (<urcu/rculfhash.h>) and an hlist table behind one pthread_rwlock.
 *
 *   hash [-t SECONDS]      (SECONDS per case; default BENCH_TIME or 0.5)
 *
 * A table of 2^16 buckets holding 1M keys (16 per bucket), 1 or 2
 * reader threads looking random keys up, without and with an updater
 * that flat out deletes a random key's element and adds a new one with
 * the same key (freed after a grace period; under the write lock for
 * rwlock).  Every lookup is one read-side section (one read lock for
 * rwlock).  rculfhash runs twice: with its 2^16 buckets fixed, as the
 * others, and with automatic resizing ("rculfhash-resize", 1M buckets
 * once filled).  One line per case:
 *
 *   hash: impl=rculist flavor=memb buckets=65536 keys=1048576 readers=2
 *	updater=1 lookups/s=... lookups/cpu-s=... hits=100.0% updates/s=...
 *	bytes/elem=... others=...
 *
 * lookups/s is summed over the readers; lookups/cpu-s divides the
 * lookups by the CPU time the readers had (on a machine shared with
 * other work, the figure that moves least); bytes/elem is what the table
 * and its elements took from malloc (mallinfo2(), every arena), divided
 * by the keys; others the CPU, in cores, that other processes used
 * during the case (a busy machine makes the numbers noise).
 * BENCH_QUICK=1: 4096 keys, 0.02 s per case, so that check-bench runs
 * it in well under a second.  Compiled per flavour: rculfhash is bound
 * to liburcu's flavour that the rculist library of this binary uses.
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
/* bench.mk: -DBENCH_HEADER='<urcu/urcu-memb.h>' -DBENCH_FLAVOR=memb */
#include BENCH_HEADER
#include <urcu/rculfhash.h>

#include "keys.h"

#include "measure.h"

/* liburcu's flavour structure, urcu_<BENCH_FLAVOR>_flavor */
#define HASH_CAT2(a, b, c) a##b##c
#define HASH_CAT(a, b, c)  HASH_CAT2(a, b, c)
#define URCU_FLAVOR	   HASH_CAT(urcu_, BENCH_FLAVOR, _flavor)

/* liburcu's container_of casts away const (clang -Wcast-qual): theirs. */
#pragma GCC diagnostic ignored "-Wcast-qual"

#define HASH_BITS 16

enum impl { RCULIST, LFHT, LFHT_RESIZE, RWLOCK, NIMPL };
static const char *const impl_name[NIMPL] = {
	"rculist",
	"rculfhash",
	"rculfhash-resize",
	"rwlock",
};

/* The elements: a key, a value, the table's link (and an rcu_head). */
struct relem {
	unsigned long key, val;
	struct cds_hlist_node node;
	struct rcu_head rcu;
};

struct lelem {
	unsigned long key, val;
	struct cds_lfht_node node;
	struct rcu_head rcu;
};

struct welem {
	unsigned long key, val;
	struct cds_hlist_node node;
};

/* The tables; the two hlist tables are malloc'd, to be weighed. */
struct htable {
	CDS_DECLARE_HASHTABLE(t, HASH_BITS);
};

static struct htable *rtab, *wtab;
static struct cds_lfht *lfht;
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t update_lock = PTHREAD_MUTEX_INITIALIZER;

static enum impl cur;
static unsigned long nkeys;
static int stop;

#include "workers.h"

static int lfht_match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct lelem, node)->key ==
	       *(const unsigned long *)key;
}

/* One lookup of @key in the current table; 1 if found. */
static int lookup(unsigned long key)
{
	struct cds_lfht_iter iter;
	struct relem *r;
	struct welem *w;
	int found = 0;

	switch (cur) {
	case RCULIST:
		rculist_read_lock();
		cds_hash_for_each_possible_rcu(rtab->t, r, node, key)
			if (r->key == key) {
				found = r->val == key;
				break;
			}
		rculist_read_unlock();
		break;
	case LFHT:
	case LFHT_RESIZE:
		rculist_read_lock();
		cds_lfht_lookup(lfht, lfht_hash(key), lfht_match, &key, &iter);
		if (cds_lfht_iter_get_node(&iter))
			found = caa_container_of(cds_lfht_iter_get_node(&iter),
						 struct lelem, node)
					->val == key;
		rculist_read_unlock();
		break;
	default:
		pthread_rwlock_rdlock(&rwlock);
		cds_hash_for_each_possible(wtab->t, w, node, key)
			if (w->key == key) {
				found = w->val == key;
				break;
			}
		pthread_rwlock_unlock(&rwlock);
		break;
	}
	return found;
}

/* Insert a new element for @key (table being built, or the updater). */
static void insert(unsigned long key)
{
	struct relem *r;
	struct lelem *l;
	struct welem *w;

	switch (cur) {
	case RCULIST:
		r = malloc(sizeof(*r));
		if (!r)
			abort();
		r->key = r->val = key;
		cds_hash_add_rcu(rtab->t, &r->node, key);
		break;
	case LFHT:
	case LFHT_RESIZE:
		l = malloc(sizeof(*l));
		if (!l)
			abort();
		l->key = l->val = key;
		cds_lfht_node_init(&l->node);
		rculist_read_lock();
		cds_lfht_add(lfht, lfht_hash(key), &l->node);
		rculist_read_unlock();
		break;
	default:
		w = malloc(sizeof(*w));
		if (!w)
			abort();
		w->key = w->val = key;
		cds_hash_add(wtab->t, &w->node, key);
		break;
	}
}

/* The updater's step: @key's element out (freed after a grace period), a new one in. */
static void replace(unsigned long key)
{
	struct cds_lfht_iter iter;
	struct lelem *l = NULL;
	struct relem *r;
	struct welem *w;

	switch (cur) {
	case RCULIST:
		pthread_mutex_lock(&update_lock);
		cds_hash_for_each_possible(rtab->t, r, node, key)
			if (r->key == key)
				break;
		if (r)
			cds_hash_del_rcu(&r->node);
		insert(key);
		pthread_mutex_unlock(&update_lock);
		if (r)
			rculist_free_rcu(r, rcu);
		break;
	case LFHT:
	case LFHT_RESIZE:
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
		break;
	default:
		pthread_rwlock_wrlock(&rwlock);
		cds_hash_for_each_possible(wtab->t, w, node, key)
			if (w->key == key)
				break;
		if (w)
			cds_hash_del(&w->node);
		insert(key);
		pthread_rwlock_unlock(&rwlock);
		free(w);
		break;
	}
}

static int uses_rcu(void)
{
	return cur != RWLOCK;
}

/* Build the table of @impl with every key; the bytes it took per key. */
static double build(enum impl impl)
{
	double before = heap_in_use();
	unsigned long i;

	cur = impl;
	switch (impl) {
	case RCULIST:
		rtab = malloc(sizeof(*rtab));
		if (!rtab)
			abort();
		cds_hash_init(rtab->t);
		break;
	case LFHT:
	case LFHT_RESIZE:
		/*
		 * Resizing: no maximum, so that liburcu takes its bucket
		 * tables from malloc (with a maximum it reserves them with
		 * mmap, which mallinfo2() would not see).
		 */
		lfht = cds_lfht_new_flavor(1UL << HASH_BITS, 1UL << HASH_BITS,
					   impl == LFHT ? 1UL << HASH_BITS : 0,
					   impl == LFHT ?
						   0 :
						   CDS_LFHT_AUTO_RESIZE |
							   CDS_LFHT_ACCOUNTING,
					   &URCU_FLAVOR, NULL);
		if (!lfht)
			abort();
		break;
	default:
		wtab = malloc(sizeof(*wtab));
		if (!wtab)
			abort();
		cds_hash_init(wtab->t);
		break;
	}
	rculist_register_thread();
	for (i = 0; i < nkeys; i++)
		insert(key_of(i));
	rculist_unregister_thread();
	if (impl == LFHT_RESIZE) /* its resize worker grows the table meanwhile */
		usleep(nkeys > 4096 ? 200000 : 20000);
	return (heap_in_use() - before) / (double)nkeys;
}

static void teardown(void)
{
	struct cds_lfht_iter iter;
	struct cds_hlist_node *tmp;
	struct lelem *l;
	struct relem *r;
	struct welem *w;
	int bkt;

	switch (cur) {
	case RCULIST:
		cds_hash_for_each_safe(rtab->t, bkt, tmp, r, node) {
			cds_hash_del(&r->node);
			free(r);
		}
		free(rtab);
		break;
	case LFHT:
	case LFHT_RESIZE:
		rculist_register_thread();
		rculist_read_lock();
		cds_lfht_for_each_entry(lfht, &iter, l,
					node) if (!cds_lfht_del(lfht, &l->node))
			rculist_free_rcu(l, rcu);
		rculist_read_unlock();
		rculist_unregister_thread();
		rculist_rcu_barrier();
		if (cds_lfht_destroy(lfht, NULL))
			abort();
		break;
	default:
		cds_hash_for_each_safe(wtab->t, bkt, tmp, w, node) {
			cds_hash_del(&w->node);
			free(w);
		}
		free(wtab);
		break;
	}
}

static void run_case(int nreaders, int with_updater, double secs, double bytes)
{
	struct case_result r = run_workers(nreaders, with_updater, secs);

	printf("hash: impl=%s flavor=%s buckets=%lu keys=%lu readers=%d updater=%d "
	       "lookups/s=%.2fM lookups/cpu-s=%.2fM hits=%.1f%% updates/s=%.2fM "
	       "bytes/elem=%.1f others=%.2f\n",
	       impl_name[cur], rculist_flavor_name(), 1UL << HASH_BITS, nkeys,
	       nreaders, with_updater, r.lookups_s, r.lookups_cpu_s, r.hits_pct,
	       r.updates_s, bytes, r.others);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *quick = getenv("BENCH_QUICK"), *bt = getenv("BENCH_TIME");
	double secs = bt && *bt ? atof(bt) : 0.5, bytes;
	int opt, impl, readers_n, upd;

	nkeys = quick && *quick && strcmp(quick, "0") ? 4096 : 1UL << 20;
	if (quick && *quick && strcmp(quick, "0"))
		secs = 0.02;
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
			for (readers_n = 1; readers_n <= MAX_READERS; readers_n++)
				run_case(readers_n, upd, secs, bytes);
		teardown();
	}
	return 0;
}
