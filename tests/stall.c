// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/stall.c - the grace-period stall detector.
 *
 * A reader that stays inside its read-side critical section (qsbr: online
 * and never announcing a quiescent state) holds up a grace period; with
 * RCULIST_STALL_TIMEOUT_MS small, rculist_synchronize_rcu() must print
 * one line naming the flavour, the time waited and, under memb and qsbr,
 * the reader's thread id.  stderr goes to a file for the test.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

struct stuck {
	long tid;
	int ready;   /* the reader is inside its section */
	int release; /* let the reader leave */
};

static void *stuck_reader(void *arg)
{
	struct stuck *s = arg;

	rculist_register_thread();
	rculist_read_lock();
	s->tid = (long)syscall(SYS_gettid);
	__atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&s->release, __ATOMIC_ACQUIRE))
		usleep(1000);
	rculist_read_unlock();
	rculist_quiescent_state();
	rculist_unregister_thread();
	return NULL;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Release the reader once @file holds a line, or after @wait_ms. */
struct releaser {
	struct stuck *stuck;
	FILE *file;
	long wait_ms;
};

static void *release_later(void *arg)
{
	struct releaser *r = arg;
	long waited;

	for (waited = 0; waited < r->wait_ms; waited += 10) {
		if (ftell(r->file) > 0 ||
		    (fseek(r->file, 0, SEEK_END) == 0 && ftell(r->file) > 0))
			break;
		sleep_ms(10);
	}
	__atomic_store_n(&r->stuck->release, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Hold up one grace period with a stuck reader, stderr sent to a file;
 * the reader is let go when a report appears or after @wait_ms.  Returns
 * what stderr received; *tid is the reader's thread id.
 */
static char *stall_once(const char *timeout_ms, long wait_ms, long *tid)
{
	static char buf[4096];
	struct stuck s = { 0 };
	struct releaser r;
	pthread_t reader, releaser;
	FILE *out = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;

	cr_assert_not_null(out);
	cr_assert_geq(saved, 0);
	setenv("RCULIST_STALL_TIMEOUT_MS", timeout_ms, 1);
	cr_assert_eq(pthread_create(&reader, NULL, stuck_reader, &s), 0);
	while (!__atomic_load_n(&s.ready, __ATOMIC_ACQUIRE))
		sleep_ms(1);

	cr_assert_eq(dup2(fileno(out), STDERR_FILENO), STDERR_FILENO);
	r = (struct releaser){ &s, out, wait_ms };
	cr_assert_eq(pthread_create(&releaser, NULL, release_later, &r), 0);
	rculist_synchronize_rcu(); /* returns once the reader is let go */
	dup2(saved, STDERR_FILENO);
	close(saved);

	pthread_join(releaser, NULL);
	pthread_join(reader, NULL);
	rewind(out);
	n = fread(buf, 1, sizeof(buf) - 1, out);
	buf[n] = '\0';
	fclose(out);
	*tid = s.tid;
	return buf;
}

TestSuite(stall, .timeout = 20);

/* stuck reader, timeout 50 ms: one line with flavour, time and thread */
Test(stall, stuck_reader_is_reported_with_its_thread_id)
{
	char expect[96];
	long tid;
	const char *out = stall_once("50", 5000, &tid);
	const char *nl = strchr(out, '\n');

	snprintf(expect, sizeof(expect),
		 "rculist: %s grace period stalled for ", rculist_flavor_name());
	cr_assert(strncmp(out, expect, strlen(expect)) == 0,
		  "no stall report, stderr was: \"%s\"", out);
	cr_assert_not_null(nl, "report is not a whole line: \"%s\"", out);
	cr_assert_geq(atol(out + strlen(expect)), 50, "waited: %s", out);
	if (strcmp(rculist_flavor_name(), "bp") != 0) {
		/* memb and qsbr: the registry names the reader */
		snprintf(expect, sizeof(expect), "blocked by tid %ld ", tid);
		cr_assert_not_null(strstr(out, expect),
				   "tid %ld not named in \"%s\"", tid, out);
		cr_assert_not_null(
			strstr(out, "not quiescent since the grace period began"),
			"%s", out);
	} else {
		/* bp keeps no registry we may read: flavour and time only */
		cr_assert_null(strstr(out, "tid"), "%s", out);
	}
}

/* RCULIST_STALL_TIMEOUT_MS=0: the same stall, 300 ms, nothing printed */
Test(stall, zero_timeout_turns_the_detector_off)
{
	long tid;
	const char *out = stall_once("0", 300, &tid);

	cr_assert_str_empty(out, "detector off, yet: \"%s\"", out);
}

/* a grace period shorter than the timeout prints nothing */
Test(stall, quick_grace_period_is_not_reported)
{
	FILE *out = tmpfile();
	int saved = dup(STDERR_FILENO);
	int i;

	cr_assert_not_null(out);
	setenv("RCULIST_STALL_TIMEOUT_MS", "1000", 1);
	cr_assert_eq(dup2(fileno(out), STDERR_FILENO), STDERR_FILENO);
	rculist_register_thread();
	for (i = 0; i < 100; i++)
		rculist_synchronize_rcu();
	rculist_unregister_thread();
	dup2(saved, STDERR_FILENO);
	close(saved);
	fseek(out, 0, SEEK_END);
	cr_assert_eq(ftell(out), 0, "a quick grace period was reported");
	fclose(out);
}
