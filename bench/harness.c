// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/harness.c - one harness for every benchmark and every side.
 *
 *   bench [-l LABEL] [-o RAW.csv] [-s SUMMARY.csv] SECTION...
 *
 * Sections: read (one reader, no updater), conc (readers against
 * updaters), upd (update-side microbenchmarks), gp (grace periods),
 * static (read, shorter, for the static link) and instr (fixed work per
 * case between callgrind client requests, for `make bench-instructions`).
 *
 * Each case runs BENCH_REPS times (default 5), cases interleaved so that
 * drift hits them alike; a sample lasts BENCH_SCALE times its base
 * duration.  A sample is flagged disturbed ('!', see NOISE_LINE) when
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

#include "bench.h"

#define MAX_REPS    32
#define MAX_RESULTS 512
#define NOISY_CORES 0.25 /* CPU of others (or steal) above the free cores */
#define NOISY_CS_HZ 50.0 /* involuntary switches of ours per second */
#define UPD_CHUNK   1024UL
#define BATCH	    1024    /* retired elements per synchronize */
#define STEADY_RATE 10000.0 /* updates/s of the steady updater */

static const char *label = "?";
static FILE *raw_csv, *sum_csv;
static int reps = 5;
static double scale = 1.0;

/* ------------------------------------------------------------ clocks */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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

static void noise_start(struct noise *n, int threads)
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
static double noise_end(const struct noise *n, int *disturbed)
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

static void record(const char *section, const char *workload, const char *side,
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct stat {
	double med, min, max;
	int n, noisy;
};

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
	qsort(q, (size_t)nq, sizeof(q[0]), cmp_double);
	s.n = nq;
	s.med = nq % 2 ? q[nq / 2] : (q[nq / 2 - 1] + q[nq / 2]) / 2;
	s.min = q[0];
	s.max = q[nq - 1];
	return s;
}

static struct stat stat_get(const char *section, const char *workload,
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

static void progress(const char *fmt, ...)
{
	char line[120];
	va_list ap;

	if (!isatty(STDERR_FILENO))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "\r\033[K  [%s] %s", label, line);
}

static void progress_done(void)
{
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
}

/* -------------------------------------------------------------- data */

struct workload {
	const char *name;
	unsigned long nkeys;
	int hash;
};

/* clang-format off */
static const struct workload workloads[] = {
	{ "list8", 8, 0 },
	{ "list64", 64, 0 },
	{ "list1024", 1024, 0 },
	{ "list65536", 65536, 0 },
	{ "hash", 65536, 1 },
};
/* clang-format on */
#define NWORKLOADS (sizeof(workloads) / sizeof(workloads[0]))

static uint64_t seed = 0x9e3779b97f4a7c15ULL;

static struct elem *elem_new(unsigned long key)
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
static void data_init(struct bench_data *d, const struct workload *w)
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

static void data_fini(struct bench_data *d)
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

static bench_lookup_fn lookup_of(const struct bench_side *s,
				 const struct bench_data *d)
{
	return d->buckets ? s->hash_lookup : s->list_lookup;
}

/* Lookups per call between clock reads: a few microseconds of work. */
static unsigned long batch_of(const struct bench_data *d)
{
	if (d->buckets)
		return 256;
	return d->nkeys >= 1024 ? 1 : 2048 / d->nkeys;
}

static volatile unsigned long sink;

/* ------------------------------------------------------ read section */

/* clang-format off */
/* NULL entries (the LTO side outside the static binary) are skipped. */
static const struct bench_side *const read_sides[] = {
	&bench_side_plain, &bench_side_rl,	 &bench_side_rlto,
	&bench_side_rli,   &bench_side_urcu,	 &bench_side_urcu_lib,
	&bench_side_rwlock, &bench_side_mutex,
};
/* clang-format on */
#define NREAD_SIDES (sizeof(read_sides) / sizeof(read_sides[0]))

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

/* ------------------------------------------------------ cost section */

/*
 * Where the time of a read-side section goes: empty sections (lock,
 * unlock, quiescent state: three calls through the library in the
 * default link, none inline), beside probes of three calls per iteration
 * to an empty function in this program and to one in the library
 * (rculist_flavor_name(), through the PLT and GOT).
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
			progress("cost %-15s rep %d/%d", name, rep + 1, reps);
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

/* ------------------------------------------------------ conc section */

enum upd_mode { UPD_NONE, UPD_STEADY, UPD_FLAT };
static const char *const upd_names[] = { "2readers", "steady", "flat" };

struct conc {
	const struct bench_side *side;
	struct bench_data *d;
	enum upd_mode mode;
	int batch; /* reclaim by synchronize per BATCH */
	pthread_barrier_t start;
	volatile int stop;
	unsigned long reads[2], updates;
};

struct reader_arg {
	struct conc *c;
	int id;
};

static void *reader_main(void *arg)
{
	struct reader_arg *ra = arg;
	struct conc *c = ra->c;
	bench_lookup_fn fn = lookup_of(c->side, c->d);
	unsigned long batch = batch_of(c->d), n = 0;
	uint64_t x = seed + (uint64_t)ra->id * 7919;

	if (c->side->thread_init)
		c->side->thread_init();
	pthread_barrier_wait(&c->start);
	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		sink += fn(c->d, batch, &x);
		n += batch;
	}
	if (c->side->thread_fini)
		c->side->thread_fini();
	c->reads[ra->id] = n;
	return NULL;
}

static void free_elem_cb(struct rcu_head *head)
{
	free(rculist__container_of(head, struct elem, rcu));
}

static void *updater_main(void *arg)
{
	struct conc *c = arg;
	const struct bench_side *s = c->side;
	struct bench_data *d = c->d;
	struct elem *retired[BATCH];
	int nretired = 0;
	unsigned long n = 0;
	uint64_t x = seed ^ 0x5555;
	double t0, period = 1.0 / STEADY_RATE;

	if (s->thread_init)
		s->thread_init();
	pthread_barrier_wait(&c->start);
	t0 = now();
	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		unsigned long k = bench_key(&x, d->nkeys);
		struct elem *old = d->slot[k], *newe = elem_new(k);

		if (d->buckets)
			s->hash_replace(d, old, newe);
		else
			s->list_replace(d, old, newe);
		d->slot[k] = newe;
		if (!s->rcu) {
			free(old);
		} else if (c->batch) {
			retired[nretired++] = old;
			if (nretired == BATCH) {
				s->synchronize();
				while (nretired)
					free(retired[--nretired]);
			}
		} else {
			s->call_rcu(&old->rcu, free_elem_cb);
		}
		if (s->quiescent)
			s->quiescent();
		n++;
		if (c->mode == UPD_STEADY) {
			double due = t0 + (double)n * period, t = now();

			if (due > t) {
				struct timespec ts = { 0,
						       (long)((due - t) * 1e9) };

				nanosleep(&ts, NULL);
			}
		}
	}
	if (nretired) {
		s->synchronize();
		while (nretired)
			free(retired[--nretired]);
	}
	if (s->barrier)
		s->barrier();
	if (s->thread_fini)
		s->thread_fini();
	c->updates = n;
	return NULL;
}

static void run_conc(struct conc *c, double duration, double *reads,
		     double *updates)
{
	int nreaders = c->mode == UPD_NONE ? 2 : 1;
	pthread_t rt[2], ut;
	struct reader_arg ra[2];
	struct timespec ts = { (time_t)duration,
			       (long)((duration - (double)(time_t)duration) *
				      1e9) };
	double t0, t1;

	c->stop = 0;
	c->reads[0] = c->reads[1] = c->updates = 0;
	pthread_barrier_init(&c->start, NULL,
			     (unsigned)(nreaders + (c->mode != UPD_NONE) + 1));
	for (int i = 0; i < nreaders; i++) {
		ra[i].c = c;
		ra[i].id = i;
		pthread_create(&rt[i], NULL, reader_main, &ra[i]);
	}
	if (c->mode != UPD_NONE)
		pthread_create(&ut, NULL, updater_main, c);
	pthread_barrier_wait(&c->start);
	t0 = now();
	nanosleep(&ts, NULL);
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELAXED);
	t1 = now();
	for (int i = 0; i < nreaders; i++)
		pthread_join(rt[i], NULL);
	if (c->mode != UPD_NONE)
		pthread_join(ut, NULL);
	pthread_barrier_destroy(&c->start);
	*reads = (double)(c->reads[0] + c->reads[1]) / (t1 - t0);
	*updates = (double)c->updates / (t1 - t0);
}

static void section_conc(void)
{
	static const struct {
		const struct bench_side *side;
		int batch;
		const char *name;
	} sides[] = {
		{ &bench_side_plain, 0, "plain" },
		{ &bench_side_rl, 0, "rculist" },
		{ &bench_side_rl, 1, "rculist-batch" },
		{ &bench_side_urcu, 0, "urcu" },
		{ &bench_side_rwlock, 0, "rwlock" },
		{ &bench_side_mutex, 0, "mutex" },
	};
	const struct workload *ws[] = { &workloads[0],
					&workloads[NWORKLOADS - 1] };
	struct bench_data data[2];

	for (int w = 0; w < 2; w++)
		data_init(&data[w], ws[w]);
	for (int rep = 0; rep < reps; rep++) {
		for (int w = 0; w < 2; w++) {
			for (int m = UPD_NONE; m <= UPD_FLAT; m++) {
				for (size_t i = 0;
				     i < sizeof(sides) / sizeof(sides[0]); i++) {
					struct conc c = { .side = sides[i].side,
							  .d = &data[w],
							  .mode = m,
							  .batch = sides[i].batch };
					char wl[12];
					struct noise nz;
					double r, u, other;
					int dist;

					if (m != UPD_NONE && !c.side->updates)
						continue;
					if (c.batch && m != UPD_FLAT)
						continue;
					snprintf(wl, sizeof(wl), "%s",
						 ws[w]->name);
					progress("conc %-6s %-8s %-14s rep %d/%d",
						 wl, upd_names[m],
						 sides[i].name, rep + 1, reps);
					noise_start(&nz, m == UPD_STEADY ? 1 : 2);
					run_conc(&c, 0.12 * scale, &r, &u);
					other = noise_end(&nz, &dist);
					record("conc", wl, sides[i].name,
					       m == UPD_NONE   ? "2r-reads/s" :
					       m == UPD_STEADY ? "st-reads/s" :
								 "fl-reads/s",
					       r, other, dist);
					if (m != UPD_NONE)
						record("conc", wl, sides[i].name,
						       m == UPD_STEADY ?
							       "st-upd/s" :
							       "fl-upd/s",
						       u, other, dist);
				}
			}
		}
	}
	for (int w = 0; w < 2; w++)
		data_fini(&data[w]);
	progress_done();
}

/* ------------------------------------------------- update-side section */

static const char *const op_names[OP_COUNT] = {
	[OP_LIST_ADD] = "list_add_rcu",
	[OP_LIST_DEL] = "list_del_rcu",
	[OP_LIST_REPLACE] = "list_replace_rcu",
	[OP_HLIST_ADD] = "hlist_add_head_rcu",
	[OP_HLIST_DEL] = "hlist_del_rcu",
};

/* Put the pool in the state operation @op starts from. */
static void upd_prepare(enum bench_op op, struct elem **v,
			struct cds_list_head *head, struct cds_hlist_head *hhead)
{
	CDS_INIT_LIST_HEAD(head);
	hhead->next = NULL;
	for (unsigned long i = 0; i < 2 * UPD_CHUNK; i++) {
		CDS_INIT_LIST_HEAD(&v[i]->node);
		v[i]->hnode.next = v[i]->hnode.prev = NULL;
	}
	if (op == OP_LIST_DEL || op == OP_LIST_REPLACE)
		for (unsigned long i = 0; i < UPD_CHUNK; i++)
			cds_list_add(&v[i]->node, head);
	if (op == OP_HLIST_DEL)
		for (unsigned long i = 0; i < UPD_CHUNK; i++)
			cds_hlist_add_head(&v[i]->hnode, hhead);
}

static void *upd_head(enum bench_op op, struct cds_list_head *head,
		      struct cds_hlist_head *hhead)
{
	return op == OP_HLIST_ADD || op == OP_HLIST_DEL ? (void *)hhead :
							  (void *)head;
}

static void section_upd(void)
{
	const struct bench_side *sides[] = { &bench_side_rl, &bench_side_urcu };
	struct elem *v[2 * UPD_CHUNK];
	struct cds_list_head head;
	struct cds_hlist_head hhead;

	for (unsigned long i = 0; i < 2 * UPD_CHUNK; i++)
		v[i] = elem_new(i);
	for (int rep = 0; rep < reps; rep++) {
		for (int op = 0; op < OP_COUNT; op++) {
			for (int i = 0; i < 2; i++) {
				bench_op_fn fn = sides[i]->op[op];
				double spent = 0, t0 = now(), t;
				unsigned long n = 0;
				struct noise nz;
				double other;
				int dist;

				progress("upd %-18s %-8s rep %d/%d", op_names[op],
					 sides[i]->name, rep + 1, reps);
				noise_start(&nz, 1);
				do {
					upd_prepare(op, v, &head, &hhead);
					t = now();
					fn(v, UPD_CHUNK,
					   upd_head(op, &head, &hhead));
					spent += now() - t;
					n += UPD_CHUNK;
				} while (now() - t0 < 0.02 * scale);
				other = noise_end(&nz, &dist);
				record("upd", op_names[op], sides[i]->name,
				       "ns/op", spent * 1e9 / (double)n, other,
				       dist);
			}
		}
	}
	for (unsigned long i = 0; i < 2 * UPD_CHUNK; i++)
		free(v[i]);
	progress_done();
}

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
		progress("gp synchronize idle rep %d/%d", rep + 1, reps);
		run_sync(0, 0.05 * scale);
		progress("gp synchronize, busy reader rep %d/%d", rep + 1, reps);
		run_sync(1, 0.2 * scale);
		progress("gp call_rcu rep %d/%d", rep + 1, reps);
		run_call_rcu(0.05 * scale);
	}
	progress_done();
}

/* ----------------------------------------------- instruction counts */

/*
 * Fixed work per case between CALLGRIND_ZERO_STATS and a named dump;
 * `make bench-instructions` divides each dump's total by the operation
 * count in its name.  Outside valgrind the requests are no-ops.
 */
static void instr_dump(const char *section, const char *workload,
		       const char *side, unsigned long ops)
{
	char name[128];

	snprintf(name, sizeof(name), "%s/%s/%s/%s/%lu", label, section,
		 workload, side, ops);
	CALLGRIND_DUMP_STATS_AT(name);
}

static void section_instr(void)
{
	const size_t wl[] = { 0, 2, NWORKLOADS - 1 };

	bench_side_rl.thread_init();
	for (size_t w = 0; w < sizeof(wl) / sizeof(wl[0]); w++) {
		struct bench_data d;
		unsigned long n = workloads[wl[w]].nkeys == 1024 ? 2000 : 20000;

		data_init(&d, &workloads[wl[w]]);
		for (size_t i = 0; i < NREAD_SIDES; i++) {
			bench_lookup_fn fn;
			uint64_t x = seed;

			if (!read_sides[i])
				continue;
			fn = lookup_of(read_sides[i], &d);
			sink += fn(&d, 16, &x);
			x = seed;
			CALLGRIND_ZERO_STATS;
			sink += fn(&d, n, &x);
			instr_dump("read", workloads[wl[w]].name,
				   read_sides[i]->name, n);
		}
		data_fini(&d);
	}
	bench_side_rl.thread_fini();

	{
		const struct bench_side *sides[] = { &bench_side_rl,
						     &bench_side_urcu };
		struct elem *v[2 * UPD_CHUNK];
		struct cds_list_head head;
		struct cds_hlist_head hhead;

		for (unsigned long i = 0; i < 2 * UPD_CHUNK; i++)
			v[i] = elem_new(i);
		for (int op = 0; op < OP_COUNT; op++) {
			for (int i = 0; i < 2; i++) {
				CALLGRIND_ZERO_STATS;
				CALLGRIND_TOGGLE_COLLECT;
				for (int k = 0; k < 8; k++) {
					upd_prepare(op, v, &head, &hhead);
					CALLGRIND_TOGGLE_COLLECT;
					sides[i]->op[op](v, UPD_CHUNK,
							 upd_head(op, &head,
								  &hhead));
					CALLGRIND_TOGGLE_COLLECT;
				}
				CALLGRIND_TOGGLE_COLLECT;
				instr_dump("upd", op_names[op], sides[i]->name,
					   8 * UPD_CHUNK);
			}
		}
		for (unsigned long i = 0; i < 2 * UPD_CHUNK; i++)
			free(v[i]);
	}
}

/* ------------------------------------------------------------ tables */

/*
 * Whether the difference of two medians is within noise: their samples'
 * min-max ranges overlap.  A ratio over such a difference is no number.
 */
static int within_noise(struct stat a, struct stat b)
{
	return a.min <= b.max && b.min <= a.max;
}

/* (s - p) / (u - p) in @buf, or "noise" when u - p is within noise. */
static const char *ovh_ratio(char *buf, size_t len, struct stat s,
			     struct stat p, struct stat u)
{
	if (!s.n || !p.n || !u.n)
		snprintf(buf, len, "-");
	else if (within_noise(u, p))
		snprintf(buf, len, "noise");
	else
		snprintf(buf, len, "%.2f", (s.med - p.med) / (u.med - p.med));
	return buf;
}

static void print_read_table(const char *sec)
{
	printf("\n%s: one reader, no updater, ns per lookup: median [min-max]"
	       " (ovh: over plain; xurcu: ovh / urcu's ovh,\n"
	       "      'noise' where urcu's and plain's ranges overlap)\n"
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

static void print_conc_table(void)
{
	/* clang-format off */
	static const char *const sides[] = { "plain", "rculist", "rculist-batch",
					     "urcu", "rwlock", "mutex" };
	static const char *const metrics[] = { "2r-reads/s", "st-reads/s", "st-upd/s",
					       "fl-reads/s", "fl-upd/s" };
	/* clang-format on */
	const char *wls[] = { "list8", "hash" };

	printf("\nconc: 2 readers no updater (2r), 1 reader + steady updater"
	       " (st, %.0f/s), 1 reader + flat-out updater (fl);\n"
	       "      M ops/s: median [min-max], x rwlock, x urcu\n"
	       "      " NOISE_LINE "\n",
	       STEADY_RATE);
	for (int w = 0; w < 2; w++) {
		for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
			struct stat rw =
				stat_get("conc", wls[w], "rwlock", metrics[m]);
			struct stat ur =
				stat_get("conc", wls[w], "urcu", metrics[m]);

			for (size_t i = 0; i < sizeof(sides) / sizeof(sides[0]);
			     i++) {
				struct stat s = stat_get("conc", wls[w],
							 sides[i], metrics[m]);
				char mm[40];

				if (!s.n)
					continue;
				snprintf(mm, sizeof(mm), "[%.3f-%.3f]",
					 s.min / 1e6, s.max / 1e6);
				printf("%-6s %-11s %-14s %9.3f%s %23s %7.1fx %6.2fx\n",
				       wls[w], metrics[m], sides[i],
				       s.med / 1e6, s.noisy ? "!" : " ", mm,
				       s.med / rw.med, s.med / ur.med);
			}
		}
	}
}

static void print_upd_table(void)
{
	printf("\nupd: update-side operations, ns/op: median [min-max], x urcu\n"
	       "     " NOISE_LINE "\n");
	for (int op = 0; op < OP_COUNT; op++) {
		struct stat u = stat_get("upd", op_names[op], "urcu", "ns/op");
		struct stat r = stat_get("upd", op_names[op], "rculist", "ns/op");
		char a[32], b[32];

		if (!r.n)
			continue;
		snprintf(a, sizeof(a), "[%.2f-%.2f]", r.min, r.max);
		snprintf(b, sizeof(b), "[%.2f-%.2f]", u.min, u.max);
		printf("%-20s rculist %6.2f%s %15s  urcu %6.2f%s %15s  %5.2fx\n",
		       op_names[op], r.med, r.noisy ? "!" : " ", a, u.med,
		       u.noisy ? "!" : " ", b, r.med / u.med);
	}
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
				"read|static|conc|upd|gp|instr...\n",
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
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("== %s (flavour %s): %d runs per case\n", label,
	       rculist_flavor_name(), reps);
	for (int i = optind; i < argc; i++) {
		if (!strcmp(argv[i], "read")) {
			section_read(0);
			print_read_table("read");
		} else if (!strcmp(argv[i], "static")) {
			section_read(1);
			print_read_table("static");
		} else if (!strcmp(argv[i], "cost")) {
			section_cost();
			print_cost_table();
		} else if (!strcmp(argv[i], "conc")) {
			section_conc();
			print_conc_table();
		} else if (!strcmp(argv[i], "upd")) {
			section_upd();
			print_upd_table();
		} else if (!strcmp(argv[i], "gp")) {
			section_gp();
			print_gp_table();
		} else if (!strcmp(argv[i], "instr")) {
			section_instr();
		} else {
			fprintf(stderr, "bench: unknown section %s\n", argv[i]);
			return 2;
		}
	}
	write_summary();
	if (raw_csv)
		fclose(raw_csv);
	if (sum_csv)
		fclose(sum_csv);
	return 0;
}
