// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/poll.c - what polled grace periods cost, and how long they take.
 *
 *   poll [CALLS]
 *
 * The calls an updater makes per element, back to back, no reader:
 *
 *   poll flavor=<f> op=<op> ns=<mean ns per call> calls=<n>
 *
 * for get_state, poll_state, cond_synchronize of a satisfied cookie and
 * start_poll.  Then latencies, without and with one reader thread (it
 * loops: read-side section of about 1 us, quiescent state, and every 16
 * loops a usleep(10) while online, so that a qsbr grace period waits for
 * it to wake), for start_poll until its cookie is satisfied (this thread
 * polling) beside rculist_synchronize_rcu():
 *
 *   poll flavor=<f> op=start_to_satisfied readers=<0|1> p50_us=.. p99_us=.. \
 *	max_us=.. n=<samples>
 *   poll flavor=<f> op=synchronize_rcu readers=<0|1> p50_us=.. p99_us=.. ...
 *
 * Each latency case takes samples for BENCH_SCALE x 0.5 s (BENCH_QUICK=1:
 * 0.05 s) or 2000 samples, whichever comes first, and 20 at least; the
 * machine's other load shows in p99 and max.  Compiled once; the flavour
 * is the library it links.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>

#include "measure.h"

#define MAX_SAMPLES 2000

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void report(const char *op, double ns, long calls)
{
	printf("poll flavor=%s op=%s ns=%.1f calls=%ld\n",
	       rculist_flavor_name(), op, ns / calls, calls);
}

/* ----------------------------------------------------------- the reader */

static int reader_stop;

static void *reader(void *arg)
{
	volatile unsigned long spin;
	unsigned long n = 0;

	(void)arg;
	rculist_register_thread();
	while (!__atomic_load_n(&reader_stop, __ATOMIC_RELAXED)) {
		rculist_read_lock();
		for (spin = 0; spin < 200; spin++)
			;
		rculist_read_unlock();
		rculist_quiescent_state();
		if (!(++n % 16))
			usleep(10); /* online: qsbr's grace period waits */
	}
	rculist_unregister_thread();
	return NULL;
}

/* ------------------------------------------------------------ latencies */

static double start_to_satisfied(void)
{
	double t = now_ns();
	struct rculist_gp_cookie c = rculist_start_poll_synchronize_rcu();

	while (!rculist_poll_state_synchronize_rcu(c))
		sched_yield();
	return now_ns() - t;
}

static double synchronize(void)
{
	double t = now_ns();

	rculist_synchronize_rcu();
	return now_ns() - t;
}

static void latency(const char *op, double (*one)(void), int readers)
{
	static double us[MAX_SAMPLES];
	double end = now_ns() + bench_run_seconds(0.5) * 1e9;
	int n = 0;

	while (n < MAX_SAMPLES && (n < 20 || now_ns() < end))
		us[n++] = one() / 1e3;
	qsort(us, (size_t)n, sizeof(us[0]), bench_cmp_double);
	printf("poll flavor=%s op=%s readers=%d p50_us=%.1f p99_us=%.1f max_us=%.1f n=%d\n",
	       rculist_flavor_name(), op, readers, us[n / 2],
	       us[(n * 99) / 100], us[n - 1], n);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, i;
	struct rculist_gp_cookie c = rculist_get_state_synchronize_rcu();
	volatile unsigned long sink = 0;
	pthread_t tid;
	double t;
	int readers;

	rculist_synchronize_rcu();

	t = now_ns();
	for (i = 0; i < n; i++)
		sink += rculist_get_state_synchronize_rcu().seq;
	report("get_state", now_ns() - t, n);

	t = now_ns();
	for (i = 0; i < n; i++)
		sink += rculist_poll_state_synchronize_rcu(c);
	report("poll_state", now_ns() - t, n);

	t = now_ns();
	for (i = 0; i < n; i++)
		rculist_cond_synchronize_rcu(c);
	report("cond_synchronize_satisfied", now_ns() - t, n);

	t = now_ns();
	for (i = 0; i < n; i++)
		c = rculist_start_poll_synchronize_rcu();
	report("start_poll", now_ns() - t, n);
	while (!rculist_poll_state_synchronize_rcu(c))
		usleep(100);

	for (readers = 0; readers <= 1; readers++) {
		if (readers && pthread_create(&tid, NULL, reader, NULL)) {
			perror("pthread_create");
			return 1;
		}
		latency("start_to_satisfied", start_to_satisfied, readers);
		latency("synchronize_rcu", synchronize, readers);
		if (readers) {
			__atomic_store_n(&reader_stop, 1, __ATOMIC_RELAXED);
			pthread_join(tid, NULL);
		}
	}
	rculist_rcu_barrier();
	return sink == 42;
}
