// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/q_gp.c - grace periods: rculist_synchronize_rcu() latency, call_rcu throughput.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <valgrind/callgrind.h>

#include <rculist.h>

#include "harness.h"

/* ------------------------------------------------ grace-period section */

struct busy_reader {
	struct bench_data *d;
	pthread_barrier_t start;
	volatile int stop;
};

static void *busy_reader_main(void *arg)
{
	struct busy_reader *b = arg;
	uint64_t x = seed;

	rculist_register_thread();
	pthread_barrier_wait(&b->start);
	while (!__atomic_load_n(&b->stop, __ATOMIC_RELAXED))
		sink += bench_side_rl.list_lookup(b->d, 64, &x);
	rculist_unregister_thread();
	return NULL;
}

static double quantile(const double *sorted, int n, double q)
{
	int i = (int)ceil(q * n) - 1;

	return sorted[i < 0 ? 0 : i >= n ? n - 1 : i];
}

/* Latencies of rculist_synchronize_rcu(), with or without a reader. */
static void run_sync(int busy, double duration)
{
	static double lat[200000];
	const char *wl = busy ? "sync-busy" : "sync-idle";
	struct bench_data d;
	struct busy_reader b = { .d = &d };
	pthread_t t;
	struct noise nz;
	double t0, other;
	int n = 0, dist;

	data_init(&d, &workloads[0]);
	if (busy) {
		pthread_barrier_init(&b.start, NULL, 2);
		pthread_create(&t, NULL, busy_reader_main, &b);
		pthread_barrier_wait(&b.start);
	}
	noise_start(&nz, busy ? 2 : 1);
	t0 = now();
	do {
		double s = now();

		rculist_synchronize_rcu();
		lat[n++] = (now() - s) * 1e6;
	} while (now() - t0 < duration && n < (int)(sizeof(lat) / sizeof(lat[0])));
	other = noise_end(&nz, &dist);
	if (busy) {
		b.stop = 1;
		pthread_join(t, NULL);
		pthread_barrier_destroy(&b.start);
	}
	data_fini(&d);
	qsort(lat, (size_t)n, sizeof(lat[0]), cmp_double);
	record("gp", wl, "rculist", "p50-us", quantile(lat, n, 0.5), other, dist);
	record("gp", wl, "rculist", "p99-us", quantile(lat, n, 0.99), other,
	       dist);
	record("gp", wl, "rculist", "p99.9-us", quantile(lat, n, 0.999), other,
	       dist);
	record("gp", wl, "rculist", "max-us", lat[n - 1], other, dist);
	record("gp", wl, "rculist", "count", n, other, dist);
}

static unsigned long callbacks_run;

static void count_cb(struct rcu_head *head)
{
	__atomic_fetch_add(&callbacks_run, 1, __ATOMIC_RELAXED);
	free(head);
}

/* rculist_call_rcu() throughput, callbacks drained by the barrier. */
static void run_call_rcu(double duration)
{
	struct noise nz;
	unsigned long n = 0;
	double t0, t, other;
	int dist;

	noise_start(&nz, 2); /* and liburcu's call_rcu thread */
	t0 = now();
	do {
		for (int i = 0; i < 256; i++)
			rculist_call_rcu(malloc(sizeof(struct rcu_head)),
					 count_cb);
		n += 256;
	} while (now() - t0 < duration);
	rculist_rcu_barrier();
	t = now();
	other = noise_end(&nz, &dist);
	record("gp", "call_rcu", "rculist", "calls/s", (double)n / (t - t0),
	       other, dist);
}

static void section_gp(void)
{
	for (int rep = 0; rep < reps; rep++) {
		progress("gp synchronize idle run %d of %d", rep + 1, reps);
		run_sync(0, 0.05 * scale);
		progress("gp synchronize, busy reader run %d of %d", rep + 1,
			 reps);
		run_sync(1, 0.2 * scale);
		progress("gp call_rcu run %d of %d", rep + 1, reps);
		run_call_rcu(0.05 * scale);
	}
	progress_done();
}

static void print_gp_table(void)
{
	const char *wls[] = { "sync-idle", "sync-busy" };

	struct stat c = stat_get("gp", "call_rcu", "rculist", "calls/s");

	printf("\ngp: rculist_synchronize_rcu() latency, us (medians over runs;"
	       " busy: a reader in sections back to back)\n"
	       "    " NOISE_LINE "\n");
	for (int w = 0; w < 2; w++) {
		struct stat p50 = stat_get("gp", wls[w], "rculist", "p50-us");

		printf("%-10s p50 %9.1f%s p99 %9.1f  p99.9 %9.1f  max %9.1f  (%.0f per run)\n",
		       wls[w], p50.med, p50.noisy ? "!" : " ",
		       stat_get("gp", wls[w], "rculist", "p99-us").med,
		       stat_get("gp", wls[w], "rculist", "p99.9-us").med,
		       stat_get("gp", wls[w], "rculist", "max-us").med,
		       stat_get("gp", wls[w], "rculist", "count").med);
	}
	printf("rculist_call_rcu(), callbacks drained: %.2f%s M calls/s [%.2f-%.2f]\n",
	       c.med / 1e6, c.noisy ? "!" : " ", c.min / 1e6, c.max / 1e6);
}

static void run_gp_section(void)
{
	section_gp();
	print_gp_table();
}
BENCH_SECTION("gp", run_gp_section)
