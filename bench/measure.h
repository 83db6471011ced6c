/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/measure.h - what the self-contained benchmarks (reclaim.c,
 * poll.c, dq.c) measure alike: the clock, the CPU that other processes
 * take during a run (the machine is shared: a case they disturbed is
 * flagged, not trusted), medians, and how long a run lasts.
 */
#ifndef BENCH_MEASURE_H
#define BENCH_MEASURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* CLOCK_MONOTONIC, in seconds. */
static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Busy CPU seconds of the machine (/proc/stat): 0 if unreadable. */
static inline double bench_machine_busy(void)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 5)
		return 0;
	return (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) /
	       (double)sysconf(_SC_CLK_TCK);
}

/* CPU seconds of this process. */
static inline double bench_self_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* What other processes use, in cores, from bench_others_start() on. */
struct bench_others {
	double t, busy, self;
};

static inline struct bench_others bench_others_start(void)
{
	struct bench_others o = { bench_now(), bench_machine_busy(),
				  bench_self_cpu() };

	return o;
}

static inline double bench_others_cores(const struct bench_others *o)
{
	double cores = ((bench_machine_busy() - o->busy) -
			(bench_self_cpu() - o->self)) /
		       (bench_now() - o->t);

	return cores > 0 ? cores : 0;
}

/* For qsort(): doubles, ascending. */
static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * How long a run lasts: @base seconds times BENCH_SCALE (set by
 * bench/run.sh; default 1), or 0.05 s with BENCH_QUICK=1.
 */
static inline double bench_run_seconds(double base)
{
	const char *quick = getenv("BENCH_QUICK"), *scale = getenv("BENCH_SCALE");

	if (quick && !strcmp(quick, "1"))
		return 0.05;
	if (scale && atof(scale) > 0)
		return base * atof(scale);
	return base;
}

#endif /* BENCH_MEASURE_H */
