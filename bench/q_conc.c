// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/q_conc.c - readers beside updaters.
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
	do { /* one batch at least, however late the thread runs */
		sink += fn(c->d, batch, &x);
		n += batch;
	} while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED));
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
	do { /* one update at least, however late the thread runs */
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
	} while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED));
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

/*
 * Two readers, rculist's default link against liburcu inline, in pairs
 * of runs back to back, the order swapped every pair: each pair's ratio
 * is recorded ("2r-xurcu"), and the closing table reads their median,
 * which a drift of the machine's load between the table's runs (seconds
 * apart) does not move.  4 * reps + 1 pairs (MAX_REPS at most): 13 in
 * make bench, whose pairs' ratios spread over 0.88-1.08 even idle.
 */
static void conc_pairs(struct bench_data *d)
{
	const struct bench_side *pair[2] = { &bench_side_rl, &bench_side_urcu };
	int npairs = 4 * reps + 1 < MAX_REPS ? 4 * reps + 1 : MAX_REPS;

	for (int p = 0; p < npairs; p++) {
		double r[2], u, other;
		struct noise nz;
		int dist, worst = 0;

		for (int k = 0; k < 2; k++) {
			int i = (p + k) % 2; /* rculist first in even pairs */
			struct conc c = { .side = pair[i],
					  .d = d,
					  .mode = UPD_NONE };

			progress("conc list8  2readers pair %d of %d", p + 1,
				 npairs);
			noise_start(&nz, 2);
			run_conc(&c, 0.12 * scale, &r[i], &u);
			other = noise_end(&nz, &dist);
			worst |= dist;
		}
		record("conc", "list8", "rculist", "2r-xurcu",
		       r[1] > 0 ? r[0] / r[1] : 0, other, worst);
	}
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
	int nw = full ? 2 : 1; /* list8; bench-full adds hash */

	for (int w = 0; w < nw; w++)
		data_init(&data[w], ws[w]);
	for (int rep = 0; rep < reps; rep++) {
		for (int w = 0; w < nw; w++) {
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
					progress("conc %-6s %-8s %-14s run %d of %d",
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
	conc_pairs(&data[0]);
	for (int w = 0; w < nw; w++)
		data_fini(&data[w]);
	progress_done();
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

static void run_conc_section(void)
{
	struct stat x;

	section_conc();
	print_conc_table();
	x = stat_get("conc", "list8", "rculist", "2r-xurcu");
	if (x.n)
		printf("list8  2 readers, paired runs: rculist / urcu %.3f%s "
		       "[%.3f-%.3f] (median of %d pairs)\n",
		       x.med, x.noisy ? "!" : " ", x.min, x.max, x.n);
}
BENCH_SECTION("conc", run_conc_section)
