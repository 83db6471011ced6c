/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/workers.h - the threads of the hash-table benchmarks
 * (bench/hash.c, bench/rhash.c), written once: readers looking random
 * keys up, an updater replacing random keys' elements flat out, and one
 * case of them run for a time.
 *
 * The including file has included <rculist.h>, "keys.h" and "measure.h",
 * and defines before including this one:
 *   static unsigned long nkeys;               the keys of the table
 *   static int stop;                           set when a case ends
 * and after it:
 *   static int lookup(unsigned long key);      one lookup, 1 if found
 *   static void replace(unsigned long key);    the updater's step
 *   static int uses_rcu(void);                 0: no RCU in this case
 */
#ifndef BENCH_WORKERS_H
#define BENCH_WORKERS_H

#include <malloc.h>
#include <pthread.h>

#define MAX_READERS 2

static int lookup(unsigned long key);
static void replace(unsigned long key);
static int uses_rcu(void);

/* One thread's counts, alone on its cache line. */
struct worker {
	pthread_t tid;
	unsigned long long seed;
	unsigned long ops, hits;
	double cpu; /* the thread's CPU seconds */
	char pad[64];
};

static struct worker readers[MAX_READERS], updater;

/* CPU seconds the calling thread has used. */
static double thread_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* Bytes malloc has handed out and not had back, over every arena. */
static double heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return (double)mi.uordblks + (double)mi.hblkhd;
}

static void *reader_main(void *arg)
{
	struct worker *me = arg;
	unsigned long ops = 0, hits = 0;
	double cpu0 = thread_cpu();
	int i;

	if (uses_rcu())
		rculist_register_thread();
	do { /* one batch at least, however late the thread starts */
		for (i = 0; i < 256; i++)
			hits += (unsigned long)lookup(
				key_of(next_rand(&me->seed) % nkeys));
		ops += 256;
		if (uses_rcu())
			rculist_quiescent_state();
	} while (!__atomic_load_n(&stop, __ATOMIC_RELAXED));
	if (uses_rcu())
		rculist_unregister_thread();
	me->ops = ops;
	me->hits = hits;
	me->cpu = thread_cpu() - cpu0;
	return NULL;
}

static void *updater_main(void *arg)
{
	struct worker *me = arg;
	unsigned long ops = 0;

	if (uses_rcu())
		rculist_register_thread();
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		replace(key_of(next_rand(&me->seed) % nkeys));
		if (!(++ops % 64) && uses_rcu())
			rculist_quiescent_state();
	}
	if (uses_rcu())
		rculist_unregister_thread();
	me->ops = ops;
	return NULL;
}

/* What one case measured. */
struct case_result {
	double lookups_s;     /* M lookups/s, summed over the readers */
	double lookups_cpu_s; /* M lookups per CPU-second of the readers */
	double hits_pct;      /* lookups that found their key, % */
	double updates_s;     /* M updates/s of the updater */
	double others;	      /* cores other processes used meanwhile */
};

/*
 * @nreaders readers and, if @with_updater, the updater, for @secs
 * seconds; then what the updater retired freed, untimed.
 */
static struct case_result run_workers(int nreaders, int with_updater, double secs)
{
	unsigned long lookups = 0, hits = 0;
	struct case_result r;
	struct bench_others o;
	double t0, t1, cpu = 0;
	int i;

	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	updater.ops = 0;
	o = bench_others_start();
	t0 = bench_now();
	for (i = 0; i < nreaders; i++) {
		readers[i].seed =
			0x2545f4914f6cdd1dULL * (unsigned long long)(i + 1);
		if (pthread_create(&readers[i].tid, NULL, reader_main,
				   &readers[i]))
			abort();
	}
	updater.seed = 0x9e3779b97f4a7c15ULL;
	if (with_updater &&
	    pthread_create(&updater.tid, NULL, updater_main, &updater))
		abort();
	usleep((useconds_t)(secs * 1e6));
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < nreaders; i++) {
		pthread_join(readers[i].tid, NULL);
		lookups += readers[i].ops;
		hits += readers[i].hits;
		cpu += readers[i].cpu;
	}
	if (with_updater)
		pthread_join(updater.tid, NULL);
	t1 = bench_now();
	r.lookups_s = (double)lookups / (t1 - t0) / 1e6;
	r.lookups_cpu_s = cpu > 0 ? (double)lookups / cpu / 1e6 : 0.0;
	r.hits_pct = lookups ? 100.0 * (double)hits / (double)lookups : 0.0;
	r.updates_s = (double)updater.ops / (t1 - t0) / 1e6;
	r.others = bench_others_cores(&o);
	if (uses_rcu())
		rculist_rcu_barrier();
	return r;
}

#endif /* BENCH_WORKERS_H */
