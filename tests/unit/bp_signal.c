// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/bp_signal.c - bp only: the read side from a signal handler, in a
 * thread that never registered.
 *
 * The thread only sleeps; the updater sends it SIGUSR1 after each update.
 * The handler walks a list of NKEYS elements inside rculist_read_lock()
 * while the updater replaces elements and reclaims them with
 * rculist_synchronize_rcu() and poison (tests/unit/conc.h): every walk must
 * see exactly NKEYS live elements, in order.  The handler records what
 * it saw; the test asserts on it after joining the thread.  (Recording a
 * violation formats a message, which is not async-signal-safe in
 * general; here the interrupted thread does nothing but nanosleep().)
 */
#include <errno.h>
#include <signal.h>

#include "conc.h"

TestSuite(bp_signal, .timeout = 30);

#define NKEYS 32

static struct conc_elem head;
static struct conc_elem *present[NKEYS];
/* A grace period per replacement: poison follows removal closely. */
static struct conc_reclaimer rc = { .mode = CONC_SYNC, .batch_max = 1 };
/* Signals are rarer than a reader thread's walks: pause more often. */
static struct conc_reader sig_reader = { .param = NKEYS, .pause_every = 16 };
static pthread_t target;
static uint64_t rnd = 0x6a09e667f3bcc909ULL;
static unsigned long kills;
static int ongoing_in_handler = 1;

static void walk_exact(struct conc_reader *r) RCULIST_REQUIRES_RCU
{
	struct conc_elem *e;
	long last = -1, n = 0;

	cds_list_for_each_entry_rcu(e, &head.link, link) {
		if (!conc_check_elem(r, e, NKEYS))
			return;
		if (e->key != last + 1) {
			conc_violation(r, "handler walk %lu: key %ld after %ld",
				       r->walks, e->key, last);
			return;
		}
		last = e->key;
		conc_pause_point(r, n++);
	}
	if (n != NKEYS)
		conc_violation(r, "handler walk %lu saw %ld elements", r->walks,
			       n);
	r->elems += n;
}

static void on_sigusr1(int sig)
{
	struct conc_reader *r = &sig_reader;
	int saved_errno = errno;

	(void)sig;
	rculist_read_lock();
	if (!rculist_read_ongoing())
		ongoing_in_handler = 0;
	conc_walk_begin(r);
	walk_exact(r);
	conc_walk_end(r);
	rculist_read_unlock();
	errno = saved_errno;
}

/* Never registers, never reads outside the handler. */
static void *sleeper(void *arg)
{
	struct timespec ts = { 0, 100 * 1000 };

	(void)arg;
	while (!__atomic_load_n(&conc_stopping, __ATOMIC_ACQUIRE))
		nanosleep(&ts, NULL);
	return NULL;
}

/* Replace one element, then signal the sleeper. */
static void replace_and_kill(void *arg)
{
	long k = conc_rand(&rnd) % NKEYS;
	struct conc_elem *old = present[k], *n = conc_elem_new(k);

	(void)arg;
	cds_list_replace_rcu(&old->link, &n->link);
	present[k] = n;
	conc_updated();
	conc_retire(&rc, old);
	if (pthread_kill(target, SIGUSR1) == 0)
		kills++;
}

Test(bp_signal, handler_reads_in_an_unregistered_thread)
{
	struct sigaction sa;
	long k;

	if (strcmp(rculist_flavor_name(), "bp") != 0)
		cr_skip_test("the read side in a signal handler of an "
			     "unregistered thread is bp's (flavour %s)",
			     rculist_flavor_name());

	conc_head_init(&head);
	for (k = 0; k < NKEYS; k++) {
		present[k] = conc_elem_new(k);
		cds_list_add_tail(&present[k]->link, &head.link);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigusr1;
	sigemptyset(&sa.sa_mask);
	cr_assert_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	cr_assert_eq(pthread_create(&target, NULL, sleeper, NULL), 0);

	conc_update_for(conc_secs(), 100, &sig_reader, 1, replace_and_kill, NULL);
	__atomic_store_n(&conc_stopping, 1, __ATOMIC_RELEASE);
	cr_assert_eq(pthread_join(target, NULL), 0);
	conc_reclaim_finish(&rc);

	cr_log_info("%lu signals sent, %lu handler walks, %lu overlapped updates, "
		    "%lu grace periods",
		    kills, sig_reader.walks, sig_reader.overlaps,
		    rc.grace_periods);
	cr_assert_eq(sig_reader.violations, 0,
		     "%lu violations in %lu walks; first: %s",
		     sig_reader.violations, sig_reader.walks, sig_reader.why);
	cr_assert_gt(sig_reader.walks, 100, "only %lu handler walks",
		     sig_reader.walks);
	cr_assert_gt(sig_reader.overlaps, 0,
		     "no handler walk overlapped an update");
	cr_assert(ongoing_in_handler,
		  "rculist_read_ongoing() false in the handler");
	cr_assert_gt(rc.grace_periods, 0);
	/* after: [h] <-> 0 <-> 1 <-> ... <-> NKEYS-1, the latest copies. */
	for (k = 0; k < NKEYS; k++) {
		cr_assert_eq(present[k]->link.prev,
			     k ? &present[k - 1]->link : &head.link);
		cr_assert_eq(present[k]->link.next,
			     k < NKEYS - 1 ? &present[k + 1]->link : &head.link);
	}
	cr_assert_eq(cds_list_count_nodes(&head.link), NKEYS);
	for (k = 0; k < NKEYS; k++)
		free(present[k]);
}
