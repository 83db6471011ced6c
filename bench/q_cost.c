// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/q_cost.c - where the time of a read-side section goes.
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

/* ------------------------------------------------------ cost section */

/*
 * Where the time of a read-side section goes: empty sections (lock,
 * unlock, and a quiescent state after each: in the default link, calls
 * into the library where the flavour needs them, <rculist/read_side.h>;
 * so this is also what one quiescent state costs under qsbr, which the
 * lookups amortise over 1024, bench/side.h), beside probes of three
 * calls per iteration to an empty function in this program and to one
 * in the library (rculist_flavor_name(), through the PLT and GOT).
 */
#if defined(__clang__)
#define BENCH_NOIPA __attribute__((noinline))
#else
#define BENCH_NOIPA __attribute__((noipa))
#endif
BENCH_NOIPA static void probe_empty(void)
{
	__asm__ __volatile__("");
}

static unsigned long probe_local(struct bench_data *d, unsigned long n,
				 uint64_t *rng)
{
	(void)d;
	(void)rng;
	while (n--) {
		probe_empty();
		probe_empty();
		probe_empty();
	}
	return 0;
}

static unsigned long probe_lib(struct bench_data *d, unsigned long n,
			       uint64_t *rng)
{
	unsigned long sum = 0;

	(void)d;
	(void)rng;
	while (n--) {
		sum += (unsigned long)rculist_flavor_name();
		sum += (unsigned long)rculist_flavor_name();
		sum += (unsigned long)rculist_flavor_name();
	}
	return sum;
}

static const struct {
	const char *name;
	bench_lookup_fn fn;
} cost_probes[] = {
	{ "3calls-local", probe_local },
	{ "3calls-lib", probe_lib },
};

static double run_loop(bench_lookup_fn fn, struct bench_data *d, double duration)
{
	unsigned long n = 0;
	uint64_t x = seed;
	double t0, t;

	sink += fn(d, 4096, &x);
	t0 = now();
	do {
		sink += fn(d, 4096, &x);
		n += 4096;
		t = now();
	} while (t - t0 < duration);
	return (t - t0) * 1e9 / (double)n;
}

static void section_cost(void)
{
	struct bench_data d;
	size_t nprobes = sizeof(cost_probes) / sizeof(cost_probes[0]);

	data_init(&d, &workloads[0]);
	bench_side_rl.thread_init();
	for (int rep = 0; rep < reps; rep++) {
		for (size_t i = 0; i < NREAD_SIDES + nprobes; i++) {
			const struct bench_side *s =
				i < NREAD_SIDES ? read_sides[i] : NULL;
			const char *name = s ? s->name :
					   i < NREAD_SIDES ?
					       NULL :
					       cost_probes[i - NREAD_SIDES].name;
			struct noise nz;
			double v, other;
			int dist;

			if (!name || (s && !s->rcu && s != &bench_side_plain))
				continue;
			progress("cost %-15s run %d of %d", name, rep + 1, reps);
			noise_start(&nz, 1);
			v = run_loop(s ? s->sections :
					 cost_probes[i - NREAD_SIDES].fn,
				     &d, 0.02 * scale);
			other = noise_end(&nz, &dist);
			record("cost", "empty", name, "ns/section", v, other,
			       dist);
		}
	}
	bench_side_rl.thread_fini();
	data_fini(&d);
	progress_done();
}

static void print_cost_table(void)
{
	struct stat p = stat_get("cost", "empty", "plain", "ns/section");
	struct stat u = stat_get("cost", "empty", "urcu", "ns/section");
	size_t nprobes = sizeof(cost_probes) / sizeof(cost_probes[0]);

	printf("\ncost: an empty read-side section (lock, unlock, quiescent state),"
	       " ns: median [min-max],\n"
	       "      over an empty loop, and over urcu inline's; the probes make"
	       " three calls of an empty function\n"
	       "      " NOISE_LINE "\n");
	for (size_t i = 0; i < NREAD_SIDES + nprobes; i++) {
		const char *name =
			i < NREAD_SIDES ?
				(read_sides[i] ? read_sides[i]->name : NULL) :
				cost_probes[i - NREAD_SIDES].name;
		struct stat st;
		char mm[32];

		if (!name)
			continue;
		st = stat_get("cost", "empty", name, "ns/section");
		if (!st.n)
			continue;
		snprintf(mm, sizeof(mm), "[%.2f-%.2f]", st.min, st.max);
		printf("%-15s %7.2f%s %15s  +%5.2f over loop  %+6.2f over urcu\n",
		       name, st.med, st.noisy ? "!" : " ", mm, st.med - p.med,
		       st.med - u.med);
	}
}

static void run_cost_section(void)
{
	section_cost();
	print_cost_table();
}
BENCH_SECTION("cost", run_cost_section)
