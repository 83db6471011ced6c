// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/q_read.c - one reader, no updater: ns per lookup, every side and workload.
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

/* One reader, nothing else: ns per lookup over about @duration s. */
static double run_read(bench_lookup_fn fn, struct bench_data *d, double duration)
{
	unsigned long batch = batch_of(d), n = 0;
	uint64_t x = seed;
	double t0, t;

	t0 = now();
	do {
		sink += fn(d, batch, &x);
		n += batch;
		t = now();
	} while (t - t0 < duration);
	return (t - t0) * 1e9 / (double)n;
}

/*
 * One run of a workload: ROUNDS rounds, each measuring every side for a
 * short while, in turn (from a different side each round).  A side's
 * ns/lookup is the median of its rounds; its overhead ("ovh-ns") is the
 * median of its differences to the plain walk measured in the same
 * round, so that a drift of the machine (clock, neighbours) between
 * sides does not pass for a cost.
 */
#define ROUNDS 25

static void run_workload(const char *sec, const char *wname,
			 const struct bench_side *const *sides, size_t nsides,
			 struct bench_data *d, double duration)
{
	double t[NREAD_SIDES][ROUNDS], diff[ROUNDS], v[ROUNDS], other;
	bench_lookup_fn fn[NREAD_SIDES];
	struct noise nz;
	int dist;

	for (size_t i = 0; i < nsides; i++) {
		uint64_t x = seed;

		fn[i] = lookup_of(sides[i], d);
		sink += fn[i](d, batch_of(d), &x); /* warm up */
	}
	noise_start(&nz, 1);
	for (int r = 0; r < ROUNDS; r++)
		for (size_t k = 0; k < nsides; k++) {
			size_t i = (k + (size_t)r) % nsides;

			t[i][r] = run_read(fn[i], d, duration / ROUNDS);
		}
	other = noise_end(&nz, &dist);
	for (size_t i = 0; i < nsides; i++) {
		for (int r = 0; r < ROUNDS; r++) {
			v[r] = t[i][r];
			diff[r] = t[i][r] - t[0][r];
		}
		record(sec, wname, sides[i]->name, "ns/lookup",
		       median_of(v, ROUNDS), other, dist);
		record(sec, wname, sides[i]->name, "ovh-ns",
		       median_of(diff, ROUNDS), other, dist);
	}
}

static void section_read(int only_short)
{
	struct bench_data data[NWORKLOADS];
	const struct bench_side *sides[NREAD_SIDES];
	/* list8 first; bench-full adds the others (static: hash only). */
	size_t nw = !full ? 1 : only_short ? 2 : NWORKLOADS, nsides = 0;
	const char *sec = only_short ? "static" : "read";

	/* The plain walk first: run_workload() takes overheads over sides[0]. */
	sides[nsides++] = &bench_side_plain;
	for (size_t i = 0; i < NREAD_SIDES; i++) {
		const struct bench_side *s = read_sides[i];

		if (!s || s == &bench_side_plain ||
		    (only_short &&
		     (s == &bench_side_rwlock || s == &bench_side_mutex)))
			continue;
		sides[nsides++] = s;
	}
	for (size_t w = 0; w < nw; w++)
		data_init(&data[w],
			  &workloads[only_short && w ? NWORKLOADS - 1 : w]);
	bench_side_rl.thread_init();
	for (int rep = 0; rep < reps; rep++) {
		for (size_t w = 0; w < nw; w++) {
			const char *wname =
				workloads[only_short && w ? NWORKLOADS - 1 : w].name;
			double dur = 0.04 * scale * (double)nsides;

			if (data[w].nkeys >= 1024)
				dur *= 2;
			progress("%s %-10s run %d of %d", sec, wname, rep + 1,
				 reps);
			run_workload(sec, wname, sides, nsides, &data[w], dur);
		}
	}
	bench_side_rl.thread_fini();
	for (size_t w = 0; w < nw; w++)
		data_fini(&data[w]);
	progress_done();
}

static void print_read_table(const char *sec)
{
	printf("\n%s: one reader, no updater, ns per lookup: median [min-max] of the runs;\n"
	       "      ovh: ns over the plain walk, the median of differences measured in\n"
	       "      the same round (bench/q_read.c); xurcu: ovh / liburcu inline's ovh,\n"
	       "      'noise' where liburcu's range holds 0; qsbr: a quiescent state per\n"
	       "      1024 lookups (bench/side.h)\n"
	       "      " NOISE_LINE "\n",
	       sec);
	printf("%-10s %-15s %10s %19s %8s %7s\n", "workload", "side", "median",
	       "min-max", "ovh", "xurcu");
	for (size_t w = 0; w < NWORKLOADS; w++) {
		const char *wn = workloads[w].name;
		struct stat u = stat_get(sec, wn, "urcu", "ovh-ns");

		for (size_t i = 0; i < NREAD_SIDES; i++) {
			struct stat st, o;
			char mm[32], ratio[16];

			if (!read_sides[i])
				continue;
			st = stat_get(sec, wn, read_sides[i]->name, "ns/lookup");
			o = stat_get(sec, wn, read_sides[i]->name, "ovh-ns");
			if (!st.n)
				continue;
			snprintf(mm, sizeof(mm), "[%.2f-%.2f]", st.min, st.max);
			printf("%-10s %-15s %9.2f%s %19s %8.2f %7s\n", wn,
			       read_sides[i]->name, st.med, st.noisy ? "!" : " ",
			       mm, o.med, ovh_ratio(ratio, sizeof(ratio), o, u));
		}
	}
}

static void run_read_section(void)
{
	section_read(0);
	print_read_table("read");
}
BENCH_SECTION("read", run_read_section)

/* The static binary: the short workloads only. */
static void run_static_section(void)
{
	section_read(1);
	print_read_table("static");
}
BENCH_SECTION("static", run_static_section)
