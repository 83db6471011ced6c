// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/dq.c - the defer queue against rculist_free_rcu() and
 * rculist_call_rcu(): updaters that allocate a 256-byte element and
 * retire it, flat out, while one reader thread runs an event loop
 * (read-side section, quiescent state; with the defer queue it is the
 * loop that reclaims, 64 pointers at most per turn).
 *
 *   dq [-r RUNS]
 *
 * Cases: {dq, free_rcu, call_rcu} x {1, 2} updaters, each run RUNS times
 * (default 3), interleaved, BENCH_SCALE x 0.5 s a run (BENCH_QUICK=1:
 * 0.05 s).  dq: one queue of 65536 for all updaters; an updater that
 * finds it full (-ENOSPC) yields and tries again (counted: full=).  One
 * line per case:
 *
 *   dq flavor=<f> impl=<dq|free_rcu|call_rcu> updaters=<n> \
 *	updates/s=<median>M min=..M max=..M peak_waiting=.. full=.. \
 *	by_loop=<share freed by the event loop> others=<cores> runs=<n>
 *
 * peak_waiting: the most elements retired and not yet freed, sampled
 * every millisecond; others: the most CPU, in cores, that other
 * processes used during a run (the machine is shared: flag a case where
 * it is high).  Between runs everything is freed, untimed.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>

#include "measure.h"

#define MAX_UPDATERS 2
#define MAX_RUNS     32
#define DQ_CAPACITY  65536
#define LOOP_RECLAIM 64

struct elem {
	long key;
	struct rcu_head rcu;
	char payload[256 - sizeof(long) - sizeof(struct rcu_head)];
};

enum impl { DQ, FREE_RCU, CALL_RCU, IMPLS };
static const char *const impl_name[] = { "dq", "free_rcu", "call_rcu" };

/* One updater's counters, alone on a cache line. */
static struct {
	unsigned long done, full;
	char pad[64 - 2 * sizeof(unsigned long)];
} upd[MAX_UPDATERS];

static int stop, reader_stop;
static unsigned long freed, by_loop;
static struct rculist_dq *dq;

static void free_cb(struct rcu_head *head)
{
	free(rculist__container_of(head, struct elem, rcu));
	__atomic_fetch_add(&freed, 1, __ATOMIC_RELAXED);
}

static void free_fn(void *arg, void *ptr)
{
	(void)arg;
	free(ptr);
	__atomic_fetch_add(&freed, 1, __ATOMIC_RELAXED);
}

struct updater_arg {
	enum impl impl;
	int id;
};

static void *updater(void *p)
{
	const struct updater_arg *a = p;
	unsigned long n = 0, full = 0;
	struct elem *e;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		e = malloc(sizeof(*e));
		if (!e)
			abort();
		e->key = (long)n;
		memset(e->payload, 0x5a, sizeof(e->payload));
		if (a->impl == DQ) {
			while (rculist_dq_enqueue(dq, e) == -ENOSPC) {
				full++;
				sched_yield();
			}
		} else if (a->impl == FREE_RCU) {
			rculist_free_rcu(e, rcu);
		} else {
			rculist_call_rcu(&e->rcu, free_cb);
		}
		if (!(++n % 64))
			__atomic_store_n(&upd[a->id].done, n, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&upd[a->id].done, n, __ATOMIC_RELAXED);
	__atomic_store_n(&upd[a->id].full, full, __ATOMIC_RELAXED);
	return NULL;
}

/* The event loop: read, announce, and (with the queue) reclaim. */
static void *event_loop(void *p)
{
	const enum impl *impl = p;
	unsigned long n = 0;

	rculist_register_thread();
	while (!__atomic_load_n(&reader_stop, __ATOMIC_RELAXED)) {
		rculist_read_lock();
		rculist_read_unlock();
		rculist_quiescent_state();
		if (*impl == DQ)
			n += rculist_dq_reclaim(dq, LOOP_RECLAIM);
	}
	rculist_unregister_thread();
	__atomic_fetch_add(&by_loop, n, __ATOMIC_RELAXED);
	return NULL;
}

struct sample {
	double rate, others, by_loop;
	unsigned long peak, full;
};

static unsigned long retired(int updaters)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i < updaters; i++)
		n += __atomic_load_n(&upd[i].done, __ATOMIC_RELAXED);
	return n;
}

static struct sample run(enum impl impl, int updaters, double secs)
{
	struct updater_arg args[MAX_UPDATERS];
	pthread_t tid[MAX_UPDATERS], loop;
	struct sample s = { 0, 0, 0, 0, 0 };
	const struct timespec ms = { 0, 1000000 };
	struct bench_others others;
	double t0, t1;
	unsigned long total = 0, r, f;
	int i;

	__atomic_store_n(&freed, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&by_loop, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&reader_stop, 0, __ATOMIC_RELAXED);
	if (pthread_create(&loop, NULL, event_loop, &impl)) {
		perror("pthread_create");
		exit(1);
	}
	others = bench_others_start();
	t0 = bench_now();
	for (i = 0; i < updaters; i++) {
		upd[i].done = upd[i].full = 0;
		args[i] = (struct updater_arg){ impl, i };
		if (pthread_create(&tid[i], NULL, updater, &args[i])) {
			perror("pthread_create");
			exit(1);
		}
	}
	while (bench_now() - t0 < secs) {
		nanosleep(&ms, NULL);
		r = retired(updaters);
		f = __atomic_load_n(&freed, __ATOMIC_RELAXED);
		if (r > f && r - f > s.peak)
			s.peak = r - f;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < updaters; i++) {
		pthread_join(tid[i], NULL);
		total += upd[i].done;
		s.full += upd[i].full;
	}
	t1 = bench_now();
	__atomic_store_n(&reader_stop, 1, __ATOMIC_RELAXED);
	pthread_join(loop, NULL);
	s.rate = (double)total / (t1 - t0);
	s.others = bench_others_cores(&others);
	s.by_loop = total ? (double)by_loop / (double)total : 0;
	/* Untimed: free what waits. */
	if (impl == DQ)
		while (rculist_dq_reclaim(dq, ~0UL) ||
		       __atomic_load_n(&freed, __ATOMIC_RELAXED) < total)
			rculist_synchronize_rcu();
	else
		rculist_rcu_barrier();
	return s;
}

int main(int argc, char **argv)
{
	double secs = bench_run_seconds(0.5);
	static struct sample smp[IMPLS][MAX_UPDATERS][MAX_RUNS];
	int runs = 3, r, u, opt;
	enum impl impl;

	while ((opt = getopt(argc, argv, "r:")) != -1) {
		if (opt != 'r')
			return 2;
		runs = atoi(optarg);
	}
	if (runs < 1 || runs > MAX_RUNS)
		runs = 3;
	dq = rculist_dq_create(DQ_CAPACITY, free_fn, NULL);
	if (!dq) {
		perror("rculist_dq_create");
		return 1;
	}
	for (r = 0; r < runs; r++)
		for (u = 1; u <= MAX_UPDATERS; u++)
			for (impl = DQ; impl < IMPLS; impl++)
				smp[impl][u - 1][r] = run(impl, u, secs);
	for (u = 1; u <= MAX_UPDATERS; u++) {
		for (impl = DQ; impl < IMPLS; impl++) {
			double rate[MAX_RUNS], others = 0, loop = 0;
			unsigned long peak = 0, full = 0;

			for (r = 0; r < runs; r++) {
				struct sample *s = &smp[impl][u - 1][r];

				rate[r] = s->rate;
				if (s->others > others)
					others = s->others;
				if (s->peak > peak)
					peak = s->peak;
				full += s->full;
				loop += s->by_loop / runs;
			}
			qsort(rate, (size_t)runs, sizeof(rate[0]),
			      bench_cmp_double);
			printf("dq flavor=%s impl=%s updaters=%d updates/s=%.2fM min=%.2fM max=%.2fM peak_waiting=%lu full=%lu by_loop=%.2f others=%.2f runs=%d\n",
			       rculist_flavor_name(), impl_name[impl], u,
			       rate[runs / 2] / 1e6, rate[0] / 1e6,
			       rate[runs - 1] / 1e6, peak, full,
			       impl == DQ ? loop : 0.0, others, runs);
		}
	}
	rculist_dq_destroy(dq);
	return 0;
}
