/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/harness.h - what the benchmark questions (bench/q_*.c) share
 * with the harness (bench/harness.c): run parameters, clocks and noise,
 * results, data sets, and the registry of sections.
 *
 * A new question is a file bench/q_<name>.c that includes this header,
 * defines a function per section and registers it:
 *
 *	static void section_hash(void) { ... record(...); ... }
 *	BENCH_SECTION("hash", section_hash)
 *
 * bench.mk links every bench/q_*.c into the benchmark binaries; `bench
 * hash` then runs it, and bench/run.sh names the sections make bench runs.
 */
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"

#define MAX_REPS    32
#define MAX_RESULTS 512
#define NOISY_CORES 0.25 /* CPU of others (or steal) above the free cores */
#define NOISY_CS_HZ 50.0 /* involuntary switches of ours per second */
#define UPD_CHUNK   1024UL
#define BATCH	    1024    /* retired elements per synchronize */
#define STEADY_RATE 10000.0 /* updates/s of the steady updater */

/*
 * Run parameters (-l, BENCH_REPS, BENCH_SCALE, BENCH_FULL), the key
 * sequence's seed.  full: every workload of a section (make bench-full);
 * else the ones the closing table reads (list8; make bench).
 */
extern const char *label;
extern int reps;
extern double scale;
extern int full;
extern uint64_t seed;
/* Results of lookups go here, so that no loop is optimised away. */
extern volatile unsigned long sink;

/* What a sample was measured beside (see the top of this file). */
struct noise {
	double t, busy, steal, self, invol;
	int threads; /* of the case: the cores it needs */
};

/* One line under every table header that uses the mark. */
#define NOISE_LINE                                                              \
	"'!': a sample of this median was disturbed (preempted, others ran on " \
	"its cores, or steal time); the median is of the undisturbed ones; "    \
	"rerun on an idle machine to clear it"

struct stat {
	double med, min, max;
	int n, noisy;
};

struct workload {
	const char *name;
	unsigned long nkeys;
	int hash;
};

/* list8, list64, list1024, list65536, hash */
#define NWORKLOADS 5
extern const struct workload workloads[NWORKLOADS];

/* The sides a lookup is measured on; NULL entries are skipped. */
#define NREAD_SIDES 8
extern const struct bench_side *const read_sides[NREAD_SIDES];

double now(void);
void noise_start(struct noise *n, int threads);
double noise_end(const struct noise *n, int *disturbed);
void record(const char *section, const char *workload, const char *side,
	    const char *metric, double v, double other, int disturbed);
struct stat stat_get(const char *section, const char *workload,
		     const char *side, const char *metric);
void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_done(void);
struct elem *elem_new(unsigned long key);
void data_init(struct bench_data *d, const struct workload *w);
void data_fini(struct bench_data *d);
bench_lookup_fn lookup_of(const struct bench_side *s, const struct bench_data *d);
unsigned long batch_of(const struct bench_data *d);
const char *ovh_ratio(char *buf, size_t len, struct stat o, struct stat u);

int cmp_double(const void *a, const void *b); /* for qsort() */
double median_of(double *v, int n);

/* q_upd.c's cases, which q_instr.c counts too. */
extern const char *const op_names[OP_COUNT];
void upd_prepare(enum bench_op op, struct elem **v, unsigned long n,
		 struct cds_list_head *head, struct cds_hlist_head *hhead);
void *upd_head(enum bench_op op, struct cds_list_head *head,
	       struct cds_hlist_head *hhead);

/* A section: `bench NAME` runs it (its cases, then its table). */
struct bench_section {
	const char *name;
	void (*run)(void);
	struct bench_section *next;
};
void bench_register(struct bench_section *s);

#define BENCH_SECTION(nm, fn)                                              \
	static struct bench_section bench_section_##fn = { nm, fn, NULL }; \
	__attribute__((constructor)) static void bench_register_##fn(void) \
	{                                                                  \
		bench_register(&bench_section_##fn);                       \
	}

#endif /* BENCH_HARNESS_H */
