/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/bench.h - what the harness and the benchmarked sides share.
 *
 * A "side" is one way of reading and updating the same lists: rculist
 * through its flavour library (rl.c, compiled once for every flavour),
 * rculist with the read side inlined at compile time (rl.c again, with
 * -DRCULIST_INLINE_<FLAVOR>), liburcu's own inline macros and read lock
 * (urcu.c, per flavour), liburcu through its shared library, and the
 * baselines: no synchronisation, pthread_rwlock, pthread_mutex (locks.c).
 * Each side runs the same loops (side.h) with its own primitives.
 *
 * rculist's and liburcu's list headers define the same structures, with
 * the same layout, and cannot share a translation unit; so this header
 * names them but expects the includer's list header to define them.
 */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include <pthread.h>
#include <stdint.h>

struct elem {
	unsigned long key;
	unsigned long val;
	struct cds_list_head node;
	struct cds_hlist_node hnode;
	struct rcu_head rcu;
};

#define BENCH_BUCKETS 1024UL

/* One data set: a circular list or a hash table, and how to update it. */
struct bench_data {
	struct cds_list_head *head;	/* list workloads */
	struct cds_hlist_head *buckets; /* hash workload, BENCH_BUCKETS */
	unsigned long nkeys;
	struct elem **slot;	  /* slot[key]: the element now linked */
	pthread_mutex_t upd_lock; /* serialises RCU updaters */
	pthread_rwlock_t rwlock;  /* the rwlock side's lock */
	pthread_mutex_t mutex;	  /* the mutex side's lock */
};

typedef unsigned long (*bench_lookup_fn)(struct bench_data *d, unsigned long n,
					 uint64_t *rng);
/* Update-side microbenchmark: n operations on v[] (and v[n..2n) for
 * replace), state prepared by the harness (see harness.c, run_upd). */
typedef void (*bench_op_fn)(struct elem **v, unsigned long n, void *head);

enum bench_op {
	OP_LIST_ADD,
	OP_LIST_DEL,
	OP_LIST_REPLACE,
	OP_HLIST_ADD,
	OP_HLIST_DEL,
	OP_COUNT
};

struct bench_side {
	const char *name;
	int rcu;     /* retired elements need a grace period */
	int updates; /* may run with a concurrent updater */
	void (*thread_init)(void);
	void (*thread_fini)(void);
	void (*quiescent)(void);
	bench_lookup_fn list_lookup;
	bench_lookup_fn list_lookup_qs; /* a quiescent state after each */
	bench_lookup_fn hash_lookup;
	/* hash_lookup with a quiescent state after every lookup */
	bench_lookup_fn hash_lookup_qs;
	bench_lookup_fn sections; /* n empty read-side sections */
	/* Replace the element @old by @newe, which has @old's key. */
	void (*list_replace)(struct bench_data *d, struct elem *old,
			     struct elem *newe);
	void (*hash_replace)(struct bench_data *d, struct elem *old,
			     struct elem *newe);
	void (*call_rcu)(struct rcu_head *head, void (*fn)(struct rcu_head *));
	void (*synchronize)(void);
	void (*barrier)(void);
	bench_op_fn op[OP_COUNT]; /* NULL: not measured on this side */
};

/* xorshift64: the same key sequence for every side. */
static inline unsigned long bench_key(uint64_t *x, unsigned long nkeys)
{
	uint64_t v = *x;

	v ^= v << 13;
	v ^= v >> 7;
	v ^= v << 17;
	*x = v;
	return (unsigned long)(((v >> 32) * nkeys) >> 32);
}

extern const struct bench_side bench_side_rl, bench_side_rli, bench_side_urcu,
	bench_side_urcu_lib, bench_side_plain, bench_side_rwlock,
	bench_side_mutex;
/* Linked into the static binary only (rl.c built with -flto): else NULL. */
extern const struct bench_side bench_side_rlto __attribute__((weak));

#endif /* BENCH_BENCH_H */
