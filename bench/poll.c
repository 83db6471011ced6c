// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/poll.c - what polled grace periods cost, one line per operation:
 *
 *   poll flavor=<f> op=<op> ns=<mean ns per call> calls=<n>
 *
 * get_state, poll_state and cond_synchronize of a satisfied cookie (the
 * calls an updater makes per element), start_poll (back to back, one
 * callback in flight), and the latency from start_poll to the cookie
 * being satisfied beside that of rculist_synchronize_rcu().  No reader
 * runs: these are the costs of the calls themselves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>

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

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, gps = n / 10000 + 10, i;
	struct rculist_gp_cookie c = rculist_get_state_synchronize_rcu();
	volatile unsigned long sink = 0;
	double t;

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

	t = now_ns();
	for (i = 0; i < gps; i++) {
		c = rculist_start_poll_synchronize_rcu();
		while (!rculist_poll_state_synchronize_rcu(c))
			usleep(10);
	}
	report("start_poll_to_satisfied", now_ns() - t, gps);

	t = now_ns();
	for (i = 0; i < gps; i++)
		rculist_synchronize_rcu();
	report("synchronize_rcu", now_ns() - t, gps);
	rculist_rcu_barrier();
	return sink == 42;
}
