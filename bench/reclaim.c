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
 *                  full=);
 *   simple         the simpler design issue 30 asked to be measured
 *                  (bench/reclaim_simple.h): a thread-local batch handed
 *                  whole to liburcu's call_rcu(), whose callback frees it.
 *
 *   reclaim [-t SECONDS] [-r RUNS] [-i IMPL,...] [-s STALL_SECONDS [-l LIMIT]]
 *
 * Cases: those five (or those -i names) x {1, 2} updaters (no readers),
 * measured in RUNS rounds (default 7): each round runs every case once,
 * BENCH_SCALE x 0.25 s a case (BENCH_QUICK=1: 0.05 s), one after the
 * other, the order turned by one case each round; so a noisy phase of
 * the machine (another process, a slow drain) spoils a round's few
 * samples, not a whole row, and no case always follows the same one.
 * One line per case:
 *
 *   reclaim: impl=free_rcu flavor=memb updaters=2 updates/s=... \
 *	min=... max=... peak_waiting=... others=... runs=7 full=0 \
 *	ops=... drained/s=...
 *
 * updates/s is the median over the rounds, min/max the extremes;
 * peak_waiting the most blocks retired and not yet freed at once over
 * the rounds (sampled every millisecond, and for free_rcu also the
 * library's exact peak of blocks handed to call_rcu); others the most
 * CPU, in cores, that other processes used during a sample; full the
 * -ENOSPC returns over all rounds (dq; 0 for the others); ops the
 * updates of all rounds (instructions per update: a callgrind run with
 * -i and -t); drained/s the median of the updates over the time until
 * the sample's last block was freed (the barrier after the updaters
 * stop included), which a design that leaves its frees for later cannot
 * flatter.  Then, when every case ran, one line per updater count with
 * the ratios issue 28 sets targets for, each the median over the rounds
 * of that round's ratio (two cases measured a few seconds apart, under
 * the same load), with the lowest and highest round's:
 *
 *   reclaim-ratio: flavor=memb updaters=1 rounds=7 call_rcu/urcu=... \
 *	free_rcu/urcu=... dq/free_rcu=... simple/urcu=... \
 *	simple/free_rcu=... call_rcu/urcu_min=... call_rcu/urcu_max=... ...
 *
 * and one of the scaling, 2 updaters over 1 (medians of the rows):
 *
 *   reclaim-scaling: flavor=memb free_rcu=... call_rcu=... \
 *	urcu_call_rcu=... dq=... simple=...
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
 * Then the same two runs with the simple design (a lighter run: the
 * updaters only retire, no checking readers):
 *
 *   reclaim-stall-simple: flavor=memb limit=100000 seconds=15.0 peak=... \
 *	rss_growth_mib=... rss_after_drain_mib=... throttled=... \
 *	updates/s=... oldest_ms=...
 *
 * Compiled once; the flavour is whatever library the binary links.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>

#include "measure.h"
#include "reclaim_simple.h"
#include "../tests/torture/limit_run.h"

#define MAX_UPDATERS 2
#define MAX_RUNS     32

struct elem {
	long key;
	struct rcu_head rcu;
	char payload[40];
};

enum impl { FREE_RCU, CALL_RCU, URCU_CALL_RCU, DQ, SIMPLE, IMPLS };
static const char *const impl_name[] = { "free_rcu", "call_rcu",
					 "urcu_call_rcu", "dq", "simple" };

#define DQ_CAPACITY 4096
/* The dq updater reclaims up to DQ_RECLAIM every DQ_EVERY enqueues. */
#define DQ_EVERY   16
#define DQ_RECLAIM 32

/*
 * One updater's counters and queue, alone on a cache line.  freed: its
 * queue's frees, counted by dq_free() in the one thread that reclaims
 * that queue at a time (the updater, then run() once it was joined), as
 * rculist_free_rcu() counts its own: no locked instruction per element.
 */
static struct {
	unsigned long done, full, freed;
	struct rculist_dq *dq;
	char pad[64 - 3 * sizeof(unsigned long) - sizeof(void *)];
} upd[MAX_UPDATERS] __attribute__((aligned(64)));

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

/* Read by every updater at each element: a line no counter shares. */
static int stop __attribute__((aligned(64)));
static unsigned long callbacks_run __attribute__((aligned(64)));

static void free_elem(struct rcu_head *head)
{
	free(rculist__container_of(head, struct elem, rcu));
	__atomic_fetch_add(&callbacks_run, 1, __ATOMIC_RELAXED);
}

static void dq_free(void *arg, void *ptr)
{
	unsigned long *freed = arg;

	free(ptr);
	__atomic_store_n(freed, __atomic_load_n(freed, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELAXED);
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
		case SIMPLE:
			simple_free_rcu(&e->rcu, offsetof(struct elem, rcu));
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
	if (impl == SIMPLE)
		return simple_pending(NULL, 0);
	run_ = __atomic_load_n(&callbacks_run, __ATOMIC_RELAXED);
	for (i = 0; i < updaters; i++) {
		queued += __atomic_load_n(&upd[i].done, __ATOMIC_RELAXED);
		if (impl == DQ)
			run_ += __atomic_load_n(&upd[i].freed, __ATOMIC_RELAXED);
	}
	/* The counters are published every 64 updates. */
	return queued > run_ ? queued - run_ : 0;
}

struct sample {
	double rate, others, ops, drained;
	unsigned long peak, full;
};

static struct sample run(enum impl impl, int updaters, double seconds)
{
	struct updater_arg args[MAX_UPDATERS];
	pthread_t tid[MAX_UPDATERS];
	struct rculist__reclaim_stats st;
	struct sample s = { 0, 0, 0, 0, 0, 0 };
	double t0, t1, busy0, self0;
	unsigned long total = 0, w;
	const struct timespec ms = { 0, 1000000 };
	int i;

	rculist__reclaim_get_stats(&st, 1);
	simple_pending(NULL, 1);
	__atomic_store_n(&callbacks_run, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	busy0 = bench_machine_busy();
	self0 = bench_self_cpu();
	t0 = bench_now();
	for (i = 0; i < updaters; i++) {
		upd[i].done = upd[i].full = upd[i].freed = 0;
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
	s.ops = (double)total;
	s.others = ((bench_machine_busy() - busy0) - (bench_self_cpu() - self0)) /
		   (t1 - t0);
	if (s.others < 0)
		s.others = 0;
	if (impl == FREE_RCU) {
		rculist__reclaim_get_stats(&st, 0);
		if (st.handed_peak > s.peak)
			s.peak = st.handed_peak;
	} else if (impl == SIMPLE) {
		simple_pending(&w, 0);
		if (w > s.peak)
			s.peak = w;
	}
	/* Free what waits: drained counts it, updates/s does not. */
	if (impl == URCU_CALL_RCU) {
		urcu_barrier();
	} else if (impl == SIMPLE) {
		simple_barrier();
	} else if (impl == DQ) {
		rculist_synchronize_rcu();
		for (i = 0; i < updaters; i++)
			rculist_dq_reclaim(upd[i].dq, ~0UL);
	}
	rculist_rcu_barrier();
	s.drained = (double)total / (bench_now() - t0);
	return s;
}

/*
 * The stalled reader again, the updaters retiring through the simple
 * design (bench/reclaim_simple.h): what its limit bounds, and what the
 * stall detector would be told (the oldest batch's wait).
 */
static int simple_stop, simple_release;
static unsigned long simple_retired[LR_UPDATERS];

static void *simple_stalled(void *arg)
{
	(void)arg;
	rculist_register_thread();
	rculist_read_lock();
	while (!__atomic_load_n(&simple_release, __ATOMIC_ACQUIRE))
		lr_sleep_ms(1);
	rculist_read_unlock();
	rculist_unregister_thread();
	return NULL;
}

static void *simple_updater(void *arg)
{
	unsigned long *n = arg;
	struct lr_elem *e;

	while (!__atomic_load_n(&simple_stop, __ATOMIC_RELAXED)) {
		e = malloc(sizeof(*e));
		if (!e)
			abort();
		memset(e, 0x5a, sizeof(*e));
		simple_free_rcu(&e->h.rcu, offsetof(struct lr_elem, h.rcu));
		__atomic_store_n(n, *n + 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void simple_stall_run(unsigned long limit, double seconds)
{
	pthread_t reader, tid[LR_UPDATERS];
	unsigned long peak, total = 0, oldest = 0, throttled0, o;
	long before, top, after, rss;
	double t0;
	int i;

	simple_barrier();
	__atomic_store_n(&simple_limit, limit, __ATOMIC_RELAXED);
	simple_pending(NULL, 1);
	throttled0 = __atomic_load_n(&simple_throttled, __ATOMIC_RELAXED);
	simple_stop = simple_release = 0;
	before = top = lr_rss_kb();
	if (pthread_create(&reader, NULL, simple_stalled, NULL))
		goto fail;
	lr_sleep_ms(10);
	for (i = 0; i < LR_UPDATERS; i++) {
		simple_retired[i] = 0;
		if (pthread_create(&tid[i], NULL, simple_updater,
				   &simple_retired[i]))
			goto fail;
	}
	t0 = lr_now();
	while (lr_now() - t0 < seconds) {
		lr_sleep_ms(10);
		rss = lr_rss_kb();
		if (rss > top)
			top = rss;
		o = simple_oldest_ms();
		if (o > oldest)
			oldest = o;
	}
	for (i = 0; i < LR_UPDATERS; i++)
		total += __atomic_load_n(&simple_retired[i], __ATOMIC_RELAXED);
	__atomic_store_n(&simple_release, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&simple_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < LR_UPDATERS; i++)
		pthread_join(tid[i], NULL);
	pthread_join(reader, NULL);
	simple_pending(&peak, 0);
	simple_barrier();
	after = lr_rss_kb();
	__atomic_store_n(&simple_limit, 0, __ATOMIC_RELAXED);
	printf("reclaim-stall-simple: flavor=%s limit=%lu seconds=%.1f "
	       "peak=%lu rss_growth_mib=%.1f rss_after_drain_mib=%.1f "
	       "throttled=%lu updates/s=%.2fM oldest_ms=%lu\n",
	       rculist_flavor_name(), limit, seconds, peak,
	       (double)(top - before) / 1024, (double)(after - before) / 1024,
	       __atomic_load_n(&simple_throttled, __ATOMIC_RELAXED) - throttled0,
	       (double)total / seconds / 1e6, oldest);
	fflush(stdout);
	return;
fail:
	perror("pthread_create");
	exit(1);
}

/* -i: only the cases named, comma-separated; 0 on an unknown name. */
static int pick(char *list, int on[IMPLS])
{
	char *name, *save = NULL;
	int i, any = 0;

	memset(on, 0, IMPLS * sizeof(on[0]));
	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < IMPLS && strcmp(name, impl_name[i]); i++)
			;
		if (i == IMPLS)
			return 0;
		on[i] = any = 1;
	}
	return any;
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

/* The median of @n values (sorted in place). */
static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(v[0]), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static struct sample s[IMPLS][2][MAX_RUNS];

/* The ratios issue 28 sets targets for (and issue 30's two). */
static const struct {
	const char *name;
	enum impl a, b;
} ratio[] = {
	{ "call_rcu/urcu", CALL_RCU, URCU_CALL_RCU },
	{ "free_rcu/urcu", FREE_RCU, URCU_CALL_RCU },
	{ "dq/free_rcu", DQ, FREE_RCU },
	{ "simple/urcu", SIMPLE, URCU_CALL_RCU },
	{ "simple/free_rcu", SIMPLE, FREE_RCU },
};
#define RATIOS (sizeof(ratio) / sizeof(ratio[0]))

/*
 * One reclaim-ratio line: each ratio the median over the rounds of that
 * round's ratio, then each one's lowest and highest round.
 */
static void print_ratios(int u, int updaters, int runs)
{
	double v[MAX_RUNS], med[RATIOS], lo[RATIOS], hi[RATIOS];
	size_t j;
	int r;

	for (j = 0; j < RATIOS; j++) {
		/* A round whose second case did nothing (a stalled thread): 0. */
		for (r = 0; r < runs; r++)
			v[r] = s[ratio[j].b][u][r].rate > 0 ?
				       s[ratio[j].a][u][r].rate /
					       s[ratio[j].b][u][r].rate :
				       0;
		med[j] = median_of(v, runs);
		lo[j] = v[0];
		hi[j] = v[runs - 1];
	}
	printf("reclaim-ratio: flavor=%s updaters=%d rounds=%d",
	       rculist_flavor_name(), updaters, runs);
	for (j = 0; j < RATIOS; j++)
		printf(" %s=%.2f", ratio[j].name, med[j]);
	for (j = 0; j < RATIOS; j++)
		printf(" %s_min=%.2f %s_max=%.2f", ratio[j].name, lo[j],
		       ratio[j].name, hi[j]);
	printf("\n");
}

int main(int argc, char **argv)
{
	static const int nupd[] = { 1, 2 };
	double median[IMPLS][2];
	unsigned long full;
	const char *quick = getenv("BENCH_QUICK"),
		   *scale_env = getenv("BENCH_SCALE");
	double seconds = quick && !strcmp(quick, "1") ? 0.05 : 0.25, v[MAX_RUNS];
	double others;
	unsigned long peak;
	double ops;
	char med[32], lo[32], hi[32], drained[32];
	int runs = 7, opt, r, i, j, u, k, on[IMPLS] = { 1, 1, 1, 1, 1 };
	int all = 1;
	double stall = 0;
	unsigned long limit = 100000;

	if (scale_env && atof(scale_env) > 0)
		seconds *= atof(scale_env);
	while ((opt = getopt(argc, argv, "t:r:s:l:i:")) != -1) {
		if (opt == 't')
			seconds = atof(optarg);
		else if (opt == 'r')
			runs = atoi(optarg);
		else if (opt == 's')
			stall = atof(optarg);
		else if (opt == 'l')
			limit = strtoul(optarg, NULL, 10);
		else if (opt == 'i' && pick(optarg, on))
			;
		else {
			fprintf(stderr,
				"usage: %s [-t SECONDS] [-r RUNS] [-i IMPL,...] [-s STALL_SECONDS [-l LIMIT]]\n",
				argv[0]);
			return 2;
		}
	}
	if (runs < 1 || runs > MAX_RUNS || seconds <= 0) {
		fprintf(stderr, "reclaim: 1 <= runs <= %d, seconds > 0\n",
			MAX_RUNS);
		return 2;
	}
	for (i = 0; i < IMPLS; i++)
		all &= on[i];
	urcu_call_rcu = flavor_symbol("call_rcu");
	urcu_barrier = flavor_symbol("barrier");
	simple_call_rcu = urcu_call_rcu;
	simple_barrier_rcu = urcu_barrier;
	for (u = 0; u < MAX_UPDATERS; u++) {
		upd[u].dq =
			rculist_dq_create(DQ_CAPACITY, dq_free, &upd[u].freed);
		if (!upd[u].dq) {
			perror("rculist_dq_create");
			return 1;
		}
	}
	/* Round r starts with case r: the order turns by one each round. */
	for (r = 0; r < runs; r++)
		for (u = 0; u < 2; u++)
			for (j = 0; j < IMPLS; j++) {
				i = (j + r) % IMPLS;
				if (on[i])
					s[i][u][r] = run((enum impl)i, nupd[u],
							 seconds);
			}
	for (i = 0; i < IMPLS; i++) {
		for (u = 0; u < 2 && on[i]; u++) {
			peak = 0;
			full = 0;
			others = 0;
			ops = 0;
			for (k = 0; k < runs; k++) {
				ops += s[i][u][k].ops;
				if (s[i][u][k].peak > peak)
					peak = s[i][u][k].peak;
				if (s[i][u][k].others > others)
					others = s[i][u][k].others;
				full += s[i][u][k].full;
			}
			for (k = 0; k < runs; k++)
				v[k] = s[i][u][k].drained;
			print_si(drained, sizeof(drained), median_of(v, runs));
			for (k = 0; k < runs; k++)
				v[k] = s[i][u][k].rate;
			median[i][u] = median_of(v, runs);
			print_si(med, sizeof(med), median[i][u]);
			print_si(lo, sizeof(lo), v[0]);
			print_si(hi, sizeof(hi), v[runs - 1]);
			printf("reclaim: impl=%s flavor=%s updaters=%d updates/s=%s "
			       "min=%s max=%s peak_waiting=%lu others=%.2f runs=%d full=%lu "
			       "ops=%.0f drained/s=%s\n",
			       impl_name[i], rculist_flavor_name(), nupd[u], med,
			       lo, hi, peak, others, runs, full, ops, drained);
		}
	}
	for (u = 0; u < 2 && all; u++)
		print_ratios(u, nupd[u], runs);
	/* 2 updaters over 1: how each scales on this machine. */
	if (all)
		printf("reclaim-scaling: flavor=%s free_rcu=%.2f call_rcu=%.2f "
		       "urcu_call_rcu=%.2f dq=%.2f simple=%.2f\n",
		       rculist_flavor_name(),
		       median[FREE_RCU][1] / median[FREE_RCU][0],
		       median[CALL_RCU][1] / median[CALL_RCU][0],
		       median[URCU_CALL_RCU][1] / median[URCU_CALL_RCU][0],
		       median[DQ][1] / median[DQ][0],
		       median[SIMPLE][1] / median[SIMPLE][0]);
	for (u = 0; u < MAX_UPDATERS; u++)
		rculist_dq_destroy(upd[u].dq);
	fflush(stdout);
	if (stall > 0) {
		stall_run(limit, stall);
		stall_run(0, stall / 10 > 1 ? stall / 10 : 1);
		/* Its unlimited run no longer than the limited one (check-bench). */
		simple_stall_run(limit, stall);
		simple_stall_run(0, stall / 10 > 1 ? stall / 10 :
				    stall < 1	   ? stall :
						     1);
	}
	return 0;
}
