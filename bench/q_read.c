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

/* One reader, nothing else: ns per lookup. */
static double run_read(const struct bench_side *s, struct bench_data *d,
		       double duration)
{
	bench_lookup_fn fn = lookup_of(s, d);
	unsigned long batch = batch_of(d), n = 0;
	uint64_t x = seed;
	double t0, t;

	sink += fn(d, batch, &x); /* warm up */
	x = seed;
	t0 = now();
	do {
		sink += fn(d, batch, &x);
		n += batch;
		t = now();
	} while (t - t0 < duration);
	return (t - t0) * 1e9 / (double)n;
}

static void section_read(int only_short)
{
	struct bench_data data[NWORKLOADS];
	size_t nw = only_short ? 2 : NWORKLOADS;
	const char *sec = only_short ? "static" : "read";

	for (size_t w = 0; w < nw; w++)
		data_init(&data[w],
			  &workloads[only_short && w ? NWORKLOADS - 1 : w]);
	bench_side_rl.thread_init();
	for (int rep = 0; rep < reps; rep++) {
		for (size_t w = 0; w < nw; w++) {
			const char *wname =
				workloads[only_short && w ? NWORKLOADS - 1 : w].name;

			for (size_t i = 0; i < NREAD_SIDES; i++) {
				const struct bench_side *s = read_sides[i];
				double dur = 0.04 * scale, v, other;
				struct noise nz;
				int dist;

				if (!s)
					continue;
				if (only_short && (s == &bench_side_rwlock ||
						   s == &bench_side_mutex))
					continue;
				if (data[w].nkeys >= 1024)
					dur *= 2;
				progress("%s %-10s %-15s rep %d/%d", sec, wname,
					 s->name, rep + 1, reps);
				noise_start(&nz, 1);
				v = run_read(s, &data[w], dur);
				other = noise_end(&nz, &dist);
				record(sec, wname, s->name, "ns/lookup", v,
				       other, dist);
			}
		}
	}
	bench_side_rl.thread_fini();
	for (size_t w = 0; w < nw; w++)
		data_fini(&data[w]);
	progress_done();
}


static void print_read_table(const char *sec)
{
	printf("\n%s: one reader, no updater, ns per lookup: median [min-max]"
	       " (ovh: over plain; xurcu: ovh / urcu's ovh,\n"
	       "      'noise' where urcu's and plain's ranges overlap; qsbr: a quiescent\n"
	       "      state per 1024 lookups, bench/side.h)\n"
	       "      " NOISE_LINE "\n",
	       sec);
	printf("%-10s %-15s %10s %19s %8s %7s\n", "workload", "side", "median",
	       "min-max", "ovh", "xurcu");
	for (size_t w = 0; w < NWORKLOADS; w++) {
		const char *wn = workloads[w].name;
		struct stat p = stat_get(sec, wn, "plain", "ns/lookup");
		struct stat u = stat_get(sec, wn, "urcu", "ns/lookup");

		for (size_t i = 0; i < NREAD_SIDES; i++) {
			struct stat st;
			char mm[32], ratio[16];

			if (!read_sides[i])
				continue;
			st = stat_get(sec, wn, read_sides[i]->name, "ns/lookup");
			if (!st.n)
				continue;
			snprintf(mm, sizeof(mm), "[%.2f-%.2f]", st.min, st.max);
			printf("%-10s %-15s %9.2f%s %19s %8.2f %7s\n", wn,
			       read_sides[i]->name, st.med,
			       st.noisy ? "!" : " ", mm, st.med - p.med,
			       ovh_ratio(ratio, sizeof(ratio), st, p, u));
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
