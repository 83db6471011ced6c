// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/harness.c - the harness every benchmark question shares.
 *
 *   bench [-l LABEL] [-o RAW.csv] [-s SUMMARY.csv] SECTION...
 *
 * Each question is a file of its own, bench/q_<question>.c, which
 * registers its sections (BENCH_SECTION, bench/harness.h): read and
 * static (q_read.c: one reader, no updater; static is shorter, for the
 * static link), cost (q_cost.c: where a read-side section's time goes),
 * conc (q_conc.c: readers against updaters), upd (q_upd.c: update-side
 * microbenchmarks), gp (q_gp.c: grace periods) and instr (q_instr.c:
 * fixed work per case between callgrind client requests, for `make
 * bench-instructions`).  Here: clocks, noise, results, data, main.
 *
 * Each case runs BENCH_REPS times (default 5), cases interleaved so that
 * drift hits them alike; a sample lasts BENCH_SCALE times its base
 * duration.  BENCH_FULL=1 runs every workload of a section (make
 * bench-full); without it, the read, static and conc sections run list8
 * only, what the closing table and the chart read (make bench).  A sample is flagged disturbed ('!', see NOISE_LINE) when
 * something else needed a core the case was using: our threads were
 * preempted (involuntary context switches, getrusage), other processes
 * ran on more than the cores the case left free (/proc/stat minus our own
 * CPU time), or the hypervisor stole time (/proc/stat steal).  Medians are
 * taken over the undisturbed samples when there are any.
 *
 * Compiled once; the flavour is whatever library the binary links.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <valgrind/callgrind.h>

#include <rculist.h>

#include "harness.h"

const char *label = "?";
static FILE *raw_csv, *sum_csv;
int reps = 5;
double scale = 1.0;
int full;

/* ------------------------------------------------------------ clocks */

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Busy and stolen CPU seconds of the whole machine, from /proc/stat. */
static void machine_cpu(double *busy, double *steal)
{
	static long hz;
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	*busy = *steal = 0;
	if (!hz)
		hz = sysconf(_SC_CLK_TCK);
	if (!f)
		return;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 5)
		return;
	/* user nice system [idle iowait] irq softirq | steal */
	*busy = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) / (double)hz;
	*steal = (double)v[7] / (double)hz;
}

/* Our CPU seconds and involuntary context switches. */
static void self_usage(double *cpu, double *invol)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	*invol = (double)ru.ru_nivcsw;
}

void noise_start(struct noise *n, int threads)
{
	n->threads = threads;
	n->t = now();
	machine_cpu(&n->busy, &n->steal);
	self_usage(&n->self, &n->invol);
}

/*
 * Cores used by other processes since noise_start(); *disturbed is set
 * when the sample was disturbed: preempted, others beyond the free cores,
 * or steal.
 */
double noise_end(const struct noise *n, int *disturbed)
{
	static long ncpu;
	double dt = now() - n->t, busy, steal, self, invol, other, free_cores;

	if (!ncpu)
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	machine_cpu(&busy, &steal);
	self_usage(&self, &invol);
	if (dt <= 0) {
		*disturbed = 0;
		return 0;
	}
	other = ((busy - n->busy) - (self - n->self)) / dt;
	if (other < 0)
		other = 0;
	free_cores = (double)ncpu - n->threads;
	if (free_cores < 0)
		free_cores = 0;
	*disturbed = (invol - n->invol) / dt > NOISY_CS_HZ ||
		     (steal - n->steal) / dt > NOISY_CORES ||
		     other > free_cores + NOISY_CORES;
	return other;
}

/* ----------------------------------------------------------- results */

struct result {
	char section[8], workload[24], side[24], metric[16];
	double v[MAX_REPS];
	int disturbed[MAX_REPS];
	int n;
};

static struct result results[MAX_RESULTS];
static int nresults;

static struct result *result_get(const char *section, const char *workload,
				 const char *side, const char *metric)
{
	struct result *r;

	for (int i = 0; i < nresults; i++) {
		r = &results[i];
		if (!strcmp(r->section, section) &&
		    !strcmp(r->workload, workload) && !strcmp(r->side, side) &&
		    !strcmp(r->metric, metric))
			return r;
	}
	if (nresults == MAX_RESULTS) {
		fprintf(stderr, "bench: too many results\n");
		exit(1);
	}
	r = &results[nresults++];
	/* A truncated name would never be found again: refuse it. */
	if ((size_t)snprintf(r->section, sizeof(r->section), "%s", section) >=
		    sizeof(r->section) ||
	    (size_t)snprintf(r->workload, sizeof(r->workload), "%s", workload) >=
		    sizeof(r->workload) ||
	    (size_t)snprintf(r->side, sizeof(r->side), "%s", side) >=
		    sizeof(r->side) ||
	    (size_t)snprintf(r->metric, sizeof(r->metric), "%s", metric) >=
		    sizeof(r->metric)) {
		fprintf(stderr, "bench: name too long: %s,%s,%s,%s\n", section,
			workload, side, metric);
		exit(1);
	}
	return r;
}

void record(const char *section, const char *workload, const char *side,
	    const char *metric, double v, double other, int disturbed)
{
	struct result *r = result_get(section, workload, side, metric);

	if (r->n < MAX_REPS) {
		r->v[r->n] = v;
		r->disturbed[r->n] = disturbed;
		r->n++;
	}
	if (raw_csv)
		fprintf(raw_csv, "%s,%s,%s,%s,%s,%d,%.6g,%.3f,%d\n", label,
			section, workload, side, metric, r->n, v, other,
			disturbed);
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of @v's @n values (sorts @v). */
double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median over the quiet samples if there are any, else over all. */
static struct stat stat_of(const struct result *r)
{
	double q[MAX_REPS], all[MAX_REPS];
	struct stat s = { NAN, NAN, NAN, 0, 0 };
	int nq = 0;

	if (!r || !r->n)
		return s;
	for (int i = 0; i < r->n; i++) {
		all[i] = r->v[i];
		if (!r->disturbed[i])
			q[nq++] = r->v[i];
	}
	s.noisy = r->n - nq;
	if (!nq) {
		memcpy(q, all, sizeof(all));
		nq = r->n;
	}
	s.n = nq;
	s.med = median_of(q, nq);
	s.min = q[0];
	s.max = q[nq - 1];
	return s;
}

struct stat stat_get(const char *section, const char *workload,
		     const char *side, const char *metric)
{
	for (int i = 0; i < nresults; i++) {
		struct result *r = &results[i];

		if (!strcmp(r->section, section) &&
		    !strcmp(r->workload, workload) && !strcmp(r->side, side) &&
		    !strcmp(r->metric, metric))
			return stat_of(r);
	}
	return stat_of(NULL);
}

static void write_summary(void)
{
	if (!sum_csv)
		return;
	for (int i = 0; i < nresults; i++) {
		struct result *r = &results[i];
		struct stat s = stat_of(r);

		fprintf(sum_csv, "%s,%s,%s,%s,%s,%.6g,%.6g,%.6g,%d,%d\n", label,
			r->section, r->workload, r->side, r->metric, s.med,
			s.min, s.max, r->n - s.noisy, s.noisy);
	}
}

/*
 * Where a run is: on a terminal, one line rewritten in place; elsewhere
 * (a log, a pipe) a line of its own every PROGRESS_EVERY seconds at most,
 * so that a long section never sits silent and a log stays short.
 */
#define PROGRESS_EVERY 10.0

void progress(const char *fmt, ...)
{
	static double last;
	int tty = isatty(STDERR_FILENO);
	char line[120];
	va_list ap;

	if (!tty && last && now() - last < PROGRESS_EVERY)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (tty) {
		fprintf(stderr, "\r\033[K  [%s] %s", label, line);
	} else {
		fprintf(stderr, "  [%s] %s\n", label, line);
		last = now();
	}
}

void progress_done(void)
{
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
}

/* -------------------------------------------------------------- data */

/* clang-format off */
const struct workload workloads[NWORKLOADS] = {
	{ "list8", 8, 0 },
	{ "list64", 64, 0 },
	{ "list1024", 1024, 0 },
	{ "list65536", 65536, 0 },
	{ "hash", 65536, 1 },
};
/* clang-format on */

uint64_t seed = 0x9e3779b97f4a7c15ULL;

struct elem *elem_new(unsigned long key)
{
	struct elem *e = calloc(1, sizeof(*e));

	if (!e) {
		perror("bench");
		exit(1);
	}
	e->key = key;
	e->val = key * 3 + 1;
	return e;
}

/* Allocated in key order, linked in a shuffled order. */
void data_init(struct bench_data *d, const struct workload *w)
{
	unsigned long n = w->nkeys, *perm = malloc(n * sizeof(*perm));
	uint64_t x = seed;

	memset(d, 0, sizeof(*d));
	d->nkeys = n;
	d->slot = malloc(n * sizeof(*d->slot));
	pthread_mutex_init(&d->upd_lock, NULL);
	pthread_rwlock_init(&d->rwlock, NULL);
	pthread_mutex_init(&d->mutex, NULL);
	for (unsigned long i = 0; i < n; i++) {
		d->slot[i] = elem_new(i);
		perm[i] = i;
	}
	for (unsigned long i = n - 1; i > 0; i--) {
		unsigned long j = bench_key(&x, i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	if (w->hash) {
		d->buckets = calloc(BENCH_BUCKETS, sizeof(*d->buckets));
		for (unsigned long i = 0; i < n; i++) {
			struct elem *e = d->slot[perm[i]];

			cds_hlist_add_head(&e->hnode,
					   &d->buckets[e->key & (BENCH_BUCKETS - 1)]);
		}
	} else {
		d->head = malloc(sizeof(*d->head));
		CDS_INIT_LIST_HEAD(d->head);
		for (unsigned long i = 0; i < n; i++)
			cds_list_add_tail(&d->slot[perm[i]]->node, d->head);
	}
	free(perm);
}

void data_fini(struct bench_data *d)
{
	for (unsigned long i = 0; i < d->nkeys; i++)
		free(d->slot[i]);
	free(d->slot);
	free(d->head);
	free(d->buckets);
	pthread_mutex_destroy(&d->upd_lock);
	pthread_rwlock_destroy(&d->rwlock);
	pthread_mutex_destroy(&d->mutex);
}

bench_lookup_fn lookup_of(const struct bench_side *s, const struct bench_data *d)
{
	return d->buckets ? s->hash_lookup : s->list_lookup;
}

/* Lookups per call between clock reads: a few microseconds of work. */
unsigned long batch_of(const struct bench_data *d)
{
	if (d->buckets)
		return 256;
	return d->nkeys >= 1024 ? 1 : 2048 / d->nkeys;
}

volatile unsigned long sink;

/* clang-format off */
/* NULL entries (the LTO side outside the static binary) are skipped. */
const struct bench_side *const read_sides[NREAD_SIDES] = {
	&bench_side_plain, &bench_side_rl,	 &bench_side_rlto,
	&bench_side_rli,   &bench_side_urcu,	 &bench_side_urcu_lib,
	&bench_side_rwlock, &bench_side_mutex,
};
/* clang-format on */

/* ------------------------------------------------------------ tables */

/*
 * o / u, two overheads over the plain walk (medians of paired
 * differences), in @buf; "noise" when u's range holds 0, liburcu's own
 * overhead not told from nothing.
 */
const char *ovh_ratio(char *buf, size_t len, struct stat o, struct stat u)
{
	if (!o.n || !u.n)
		snprintf(buf, len, "-");
	else if (u.min <= 0 && u.max >= 0)
		snprintf(buf, len, "noise");
	else
		snprintf(buf, len, "%.2f", o.med / u.med);
	return buf;
}

/* ---------------------------------------------------------- sections */

static struct bench_section *sections;

void bench_register(struct bench_section *s)
{
	s->next = sections;
	sections = s;
}

/* -------------------------------------------------------------- main */

int main(int argc, char **argv)
{
	const char *e;
	int opt;

	while ((opt = getopt(argc, argv, "l:o:s:")) != -1) {
		switch (opt) {
		case 'l':
			label = optarg;
			break;
		case 'o':
			raw_csv = fopen(optarg, "a");
			break;
		case 's':
			sum_csv = fopen(optarg, "a");
			break;
		default:
			fprintf(stderr,
				"usage: %s [-l label] [-o raw.csv] [-s summary.csv] "
				"SECTION...\n",
				argv[0]);
			return 2;
		}
	}
	if ((e = getenv("BENCH_REPS")))
		reps = atoi(e) < 1	  ? 1 :
		       atoi(e) > MAX_REPS ? MAX_REPS :
					    atoi(e);
	if ((e = getenv("BENCH_SCALE")))
		scale = atof(e) > 0 ? atof(e) : 1.0;
	full = (e = getenv("BENCH_FULL")) && *e && strcmp(e, "0");
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("== %s (flavour %s): %d runs per case, %s\n", label,
	       rculist_flavor_name(), reps,
	       full ? "every workload" : "list8 (BENCH_FULL=1: every workload)");
	for (int i = optind; i < argc; i++) {
		const struct bench_section *s = sections;

		while (s && strcmp(s->name, argv[i]))
			s = s->next;
		if (!s) {
			fprintf(stderr, "bench: unknown section %s\n", argv[i]);
			return 2;
		}
		s->run();
	}
	write_summary();
	if (raw_csv)
		fclose(raw_csv);
	if (sum_csv)
		fclose(sum_csv);
	return 0;
}
