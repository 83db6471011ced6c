// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/reclaim.c - reclamation throughput: updaters that allocate an
 * element and retire it, flat out, each case one way:
 *   free_rcu       rculist_free_rcu();
 *   call_rcu       rculist_call_rcu() with a callback that frees it;
 *   urcu_call_rcu  liburcu's own call_rcu() (urcu_<flavour>_call_rcu(),
 *                  the library rculist links) with the same callback;
 *   dq             a defer queue of DQ_CAPACITY per updater: enqueue, and
 *                  rculist_dq_reclaim() in the same loop; on -ENOSPC the
 *                  updater waits with rculist_synchronize_rcu() (counted:
 *                  full=).
 *
 *   reclaim [-t SECONDS] [-r RUNS] [-s STALL_SECONDS [-l LIMIT]]
 *
 * Cases: those four x {1, 2} updaters (no readers), each run RUNS times
 * (default 5), cases interleaved so that drift hits them alike,
 * BENCH_SCALE x 0.5 s a run (BENCH_QUICK=1: 0.05 s).  One line per case:
 *
 *   reclaim: impl=free_rcu flavor=memb updaters=2 updates/s=... \
 *	min=... max=... peak_waiting=... others=... runs=5 full=0
 *
 * updates/s is the median over the runs, min/max the extremes;
 * peak_waiting the most blocks retired and not yet freed at once over
 * the runs (sampled every millisecond, and for free_rcu also the
 * library's exact peak of blocks handed to call_rcu); others the most
 * CPU, in cores, that other processes used during a run; full the
 * -ENOSPC returns over all runs (dq; 0 for the others).  Between runs
 * everything is freed, untimed.  Then one line per updater count, the
 * ratios of the medians (same run):
 *
 *   reclaim-ratio: flavor=memb updaters=1 call_rcu/urcu=... \
 *	free_rcu/urcu=... dq/free_rcu=...
  *
 * With -s, then two runs of a reader stalled inside its section while 2
 * updaters replace and retire 256-byte elements flat out
 * (tests/torture/limit_run.h): STALL_SECONDS with rculist_reclaim_set_limit(
 * LIMIT) (default 100000), and a tenth of that (1 s at least) with no
 * limit, one line each:
 *
 *   reclaim-stall: flavor=memb limit=100000 seconds=15.0 peak=... \
 *	rss_growth_mib=... rss_mib_per_s=... rss_after_drain_mib=... \
 *	throttled=... updates/s=... oldest_ms=... verdict=ok
 *
 * rss_growth_mib is the most the process's RSS grew during the stall,
 * rss_after_drain_mib what remains once the reader left and
 * rculist_rcu_barrier() returned; verdict is what torture --stall checks.
 *
 * Compiled once; the flavour is whatever library the binary links.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>

#include "measure.h"
#include "../tests/torture/limit_run.h"

#define MAX_UPDATERS 2
#define MAX_RUNS     32

struct elem {
	long key;
	struct rcu_head rcu;
	char payload[40];
};

enum impl { FREE_RCU, CALL_RCU, URCU_CALL_RCU, DQ, IMPLS };
static const char *const impl_name[] = { "free_rcu", "call_rcu",
					 "urcu_call_rcu", "dq" };

#define DQ_CAPACITY 4096
/* The dq updater reclaims up to DQ_RECLAIM every DQ_EVERY enqueues. */
#define DQ_EVERY   16
#define DQ_RECLAIM 32

/* One updater's counters and queue, alone on a cache line. */
static struct {
	unsigned long done, full;
	struct rculist_dq *dq;
	char pad[64 - 2 * sizeof(unsigned long) - sizeof(void *)];
} upd[MAX_UPDATERS];

/* liburcu's call_rcu() and rcu_barrier() of the flavour rculist links. */
static void (*urcu_call_rcu)(struct rcu_head *head,
			     void (*func)(struct rcu_head *head));
static void (*urcu_barrier)(void);

static void *flavor_symbol(const char *op)
{
	char name[64];
	void *fn;

	snprintf(name, sizeof(name), "urcu_%s_%s", rculist_flavor_name(), op);
	fn = dlsym(RTLD_DEFAULT, name);
	if (!fn) {
		fprintf(stderr, "reclaim: %s not found\n", name);
		exit(1);
	}
	return fn;
}

static int stop;
static unsigned long callbacks_run;

static void free_elem(struct rcu_head *head)
{
	free(rculist__container_of(head, struct elem, rcu));
	__atomic_fetch_add(&callbacks_run, 1, __ATOMIC_RELAXED);
}

static void dq_free(void *arg, void *ptr)
{
	(void)arg;
	free(ptr);
	__atomic_fetch_add(&callbacks_run, 1, __ATOMIC_RELAXED);
}

struct updater_arg {
	enum impl impl;
	int id;
};

static void *updater(void *p)
{
	const struct updater_arg *a = p;
	struct rculist_dq *dq = upd[a->id].dq;
	unsigned long n = 0, full = 0;
	struct elem *e;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		e = malloc(sizeof(*e));
		if (!e)
			abort();
		e->key = (long)n;
		memset(e->payload, 0x5a, sizeof(e->payload));
		switch (a->impl) {
		case FREE_RCU:
			rculist_free_rcu(e, rcu);
			break;
		case CALL_RCU:
			rculist_call_rcu(&e->rcu, free_elem);
			break;
		case URCU_CALL_RCU:
			urcu_call_rcu(&e->rcu, free_elem);
			break;
		default:
			while (rculist_dq_enqueue(dq, e) == -ENOSPC) {
				full++;
				rculist_synchronize_rcu();
			}
			if (!(n % DQ_EVERY))
				rculist_dq_reclaim(dq, DQ_RECLAIM);
		}
		if (!(++n % 64))
			__atomic_store_n(&upd[a->id].done, n, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&upd[a->id].done, n, __ATOMIC_RELAXED);
	__atomic_store_n(&upd[a->id].full, full, __ATOMIC_RELAXED);
	return NULL;
}

/* Blocks retired and not yet freed, as far as can be seen now. */
static unsigned long waiting(enum impl impl, int updaters)
{
	struct rculist__reclaim_stats st;
	unsigned long queued = 0, run_;
	int i;

	if (impl == FREE_RCU) {
		rculist__reclaim_get_stats(&st, 0);
		return st.waiting;
	}
	for (i = 0; i < updaters; i++)
		queued += __atomic_load_n(&upd[i].done, __ATOMIC_RELAXED);
	run_ = __atomic_load_n(&callbacks_run, __ATOMIC_RELAXED);
	/* The counters are published every 64 updates. */
	return queued > run_ ? queued - run_ : 0;
}

struct sample {
	double rate, others;
	unsigned long peak, full;
};

static struct sample run(enum impl impl, int updaters, double seconds)
{
	struct updater_arg args[MAX_UPDATERS];
	pthread_t tid[MAX_UPDATERS];
	struct rculist__reclaim_stats st;
	struct sample s = { 0, 0, 0, 0 };
	double t0, t1, busy0, self0;
	unsigned long total = 0, w;
	const struct timespec ms = { 0, 1000000 };
	int i;

	rculist__reclaim_get_stats(&st, 1);
	__atomic_store_n(&callbacks_run, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	busy0 = bench_machine_busy();
	self0 = bench_self_cpu();
	t0 = bench_now();
	for (i = 0; i < updaters; i++) {
		upd[i].done = upd[i].full = 0;
		args[i] = (struct updater_arg){ impl, i };
		if (pthread_create(&tid[i], NULL, updater, &args[i])) {
			perror("pthread_create");
			exit(1);
		}
	}
	while (bench_now() - t0 < seconds) {
		nanosleep(&ms, NULL);
		w = waiting(impl, updaters);
		if (w > s.peak)
			s.peak = w;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < updaters; i++) {
		pthread_join(tid[i], NULL);
		total += upd[i].done;
		s.full += upd[i].full;
	}
	t1 = bench_now();
	s.rate = (double)total / (t1 - t0);
	s.others = ((bench_machine_busy() - busy0) - (bench_self_cpu() - self0)) /
		   (t1 - t0);
	if (s.others < 0)
		s.others = 0;
	if (impl == FREE_RCU) {
		rculist__reclaim_get_stats(&st, 0);
		if (st.handed_peak > s.peak)
			s.peak = st.handed_peak;
	}
	/* Untimed: free what waits. */
	if (impl == URCU_CALL_RCU) {
		urcu_barrier();
	} else if (impl == DQ) {
		rculist_synchronize_rcu();
		for (i = 0; i < updaters; i++)
			rculist_dq_reclaim(upd[i].dq, ~0UL);
	}
	rculist_rcu_barrier();
	return s;
}

static void print_si(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.2fM", v / 1e6);
}

/* One stalled-reader run (see the top of the file). */
static void stall_run(unsigned long limit, double seconds)
{
	struct lr_result r;
	char why[256];
	double growth;

	if (lr_run(limit, seconds, 0, 0.5, &r)) {
		perror("pthread_create");
		exit(1);
	}
	growth = (double)(r.rss_peak_kb - r.rss_before_kb) / 1024;
	lr_verdict(&r, limit, limit ? 64 * 1024 : 0, why, sizeof(why));
	printf("reclaim-stall: flavor=%s limit=%lu seconds=%.1f peak=%lu "
	       "rss_growth_mib=%.1f rss_mib_per_s=%.1f rss_after_drain_mib=%.1f "
	       "throttled=%lu updates/s=%.2fM oldest_ms=%lu verdict=%s\n",
	       rculist_flavor_name(), limit, seconds, r.during.peak, growth,
	       growth / seconds,
	       (double)(r.rss_after_kb - r.rss_before_kb) / 1024,
	       r.during.throttled - r.before.throttled,
	       (double)(r.retired - r.after_release) / seconds / 1e6,
	       r.during.oldest_ms, why[0] ? why : "ok");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const int nupd[] = { 1, 2 };
	static struct sample s[IMPLS][2][MAX_RUNS];
	double median[IMPLS][2];
	unsigned long full;
	const char *quick = getenv("BENCH_QUICK"),
		   *scale_env = getenv("BENCH_SCALE");
	double seconds = quick && !strcmp(quick, "1") ? 0.05 : 0.5, v[MAX_RUNS];
	double others;
	unsigned long peak;
	char med[32], lo[32], hi[32];
	int runs = 5, opt, r, i, u, k;
	double stall = 0;
	unsigned long limit = 100000;

	if (scale_env && atof(scale_env) > 0)
		seconds *= atof(scale_env);
	while ((opt = getopt(argc, argv, "t:r:s:l:")) != -1) {
		if (opt == 't')
			seconds = atof(optarg);
		else if (opt == 'r')
			runs = atoi(optarg);
		else if (opt == 's')
			stall = atof(optarg);
		else if (opt == 'l')
			limit = strtoul(optarg, NULL, 10);
		else {
			fprintf(stderr,
				"usage: %s [-t SECONDS] [-r RUNS] [-s STALL_SECONDS [-l LIMIT]]\n",
				argv[0]);
			return 2;
		}
	}
	if (runs < 1 || runs > MAX_RUNS || seconds <= 0) {
		fprintf(stderr, "reclaim: 1 <= runs <= %d, seconds > 0\n",
			MAX_RUNS);
		return 2;
	}
	urcu_call_rcu = flavor_symbol("call_rcu");
	urcu_barrier = flavor_symbol("barrier");
	for (u = 0; u < MAX_UPDATERS; u++) {
		upd[u].dq = rculist_dq_create(DQ_CAPACITY, dq_free, NULL);
		if (!upd[u].dq) {
			perror("rculist_dq_create");
			return 1;
		}
	}
	for (r = 0; r < runs; r++)
		for (u = 0; u < 2; u++)
			for (i = 0; i < IMPLS; i++)
				s[i][u][r] = run((enum impl)i, nupd[u], seconds);
	for (i = 0; i < IMPLS; i++) {
		for (u = 0; u < 2; u++) {
			peak = 0;
			full = 0;
			others = 0;
			for (k = 0; k < runs; k++) {
				v[k] = s[i][u][k].rate;
				if (s[i][u][k].peak > peak)
					peak = s[i][u][k].peak;
				if (s[i][u][k].others > others)
					others = s[i][u][k].others;
				full += s[i][u][k].full;
			}
			qsort(v, (size_t)runs, sizeof(v[0]), bench_cmp_double);
			median[i][u] =
				runs % 2 ? v[runs / 2] :
					   (v[runs / 2 - 1] + v[runs / 2]) / 2;
			print_si(med, sizeof(med), median[i][u]);
			print_si(lo, sizeof(lo), v[0]);
			print_si(hi, sizeof(hi), v[runs - 1]);
			printf("reclaim: impl=%s flavor=%s updaters=%d updates/s=%s "
			       "min=%s max=%s peak_waiting=%lu others=%.2f runs=%d full=%lu\n",
			       impl_name[i], rculist_flavor_name(), nupd[u],
			       med, lo, hi, peak, others, runs, full);
		}
	}
	for (u = 0; u < 2; u++)
		printf("reclaim-ratio: flavor=%s updaters=%d call_rcu/urcu=%.2f "
		       "free_rcu/urcu=%.2f dq/free_rcu=%.2f\n",
		       rculist_flavor_name(), nupd[u],
		       median[CALL_RCU][u] / median[URCU_CALL_RCU][u],
		       median[FREE_RCU][u] / median[URCU_CALL_RCU][u],
		       median[DQ][u] / median[FREE_RCU][u]);
	for (u = 0; u < MAX_UPDATERS; u++)
		rculist_dq_destroy(upd[u].dq);
	fflush(stdout);
	if (stall > 0) {
		stall_run(limit, stall);
		stall_run(0, stall / 10 > 1 ? stall / 10 : 1);
	}
	return 0;
}
