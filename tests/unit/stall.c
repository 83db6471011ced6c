// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/stall.c - the grace-period stall detector.
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

/* Lines written to @f so far (read through its own descriptor). */
static int lines_in(FILE *f)
{
	char buf[8192];
	ssize_t n = pread(fileno(f), buf, sizeof(buf), 0);
	int lines = 0;

	for (ssize_t i = 0; i < n; i++)
		lines += buf[i] == '\n';
	return lines;
}

/*
 * Release the reader once @file holds @lines lines, or after @wait_ms.
 * With @late_after > 0, a second reader enters its section once
 * @late_after lines are there: after the grace period began.
 */
struct releaser {
	struct stuck *stuck;
	FILE *file;
	long wait_ms;
	int lines;
	int late_after;
	struct stuck *late;
	pthread_t late_thread;
};

static void *stuck_reader(void *arg);

static void *release_later(void *arg)
{
	struct releaser *r = arg;
	long waited;
	int late_started = 0;

	for (waited = 0; waited < r->wait_ms; waited += 10) {
		int n = lines_in(r->file);

		if (r->late_after && !late_started && n >= r->late_after) {
			cr_assert_eq(pthread_create(&r->late_thread, NULL,
						    stuck_reader, r->late),
				     0);
			while (!__atomic_load_n(&r->late->ready, __ATOMIC_ACQUIRE))
				sleep_ms(1);
			late_started = 1;
		}
		if (n >= r->lines)
			break;
		sleep_ms(10);
	}
	if (late_started) {
		__atomic_store_n(&r->late->release, 1, __ATOMIC_RELEASE);
		pthread_join(r->late_thread, NULL);
	}
	__atomic_store_n(&r->stuck->release, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Hold up one grace period with a stuck reader, stderr sent to a file;
 * the reader is let go when a report appears or after @wait_ms.  Returns
 * what stderr received; *tid is the reader's thread id.
 */
static long elapsed_ms; /* of the last stall's grace period */
static long late_tid;	/* the late reader of the last stall, if any */

static char *stall_lines(const char *timeout_ms, long wait_ms, int lines,
			 int late_after, long *tid)
{
	static char buf[8192];
	struct stuck s = { 0 }, late = { 0 };
	struct releaser r;
	struct timespec t0, t1;
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
	r = (struct releaser){ &s, out, wait_ms, lines, late_after, &late, 0 };
	cr_assert_eq(pthread_create(&releaser, NULL, release_later, &r), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rculist_synchronize_rcu(); /* returns once the reader is let go */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	elapsed_ms = (t1.tv_sec - t0.tv_sec) * 1000L +
		     (t1.tv_nsec - t0.tv_nsec) / 1000000L;
	late_tid = late.tid;
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

static char *stall_once(const char *timeout_ms, long wait_ms, long *tid)
{
	return stall_lines(timeout_ms, wait_ms, 1, 0, tid);
}

static int registry(void)
{
	return strcmp(rculist_flavor_name(), "bp") != 0;
}

TestSuite(stall, .timeout = 30);

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
		/* bp keeps no registry we may read: it says so */
		cr_assert_null(strstr(out, "tid"), "%s", out);
		cr_assert_not_null(
			strstr(out,
			       "; blocked by a thread inside a read-side critical section (bp keeps no registry the detector can read: it cannot name the thread)"),
			"%s", out);
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

/*
 * A stall, then an idle period of 20 timeouts (the watchdog has nothing
 * to wait for), then another stall: it is reported too.
 */
Test(stall, second_stall_after_idle_period_is_reported)
{
	char first[1024];
	long tid;

	snprintf(first, sizeof(first), "%s", stall_once("50", 10000, &tid));
	cr_assert(strstr(first, "grace period stalled for "), "first: %s", first);
	sleep_ms(1000);
	{
		const char *second = stall_once("50", 10000, &tid);

		cr_assert(strstr(second, "grace period stalled for "),
			  "no report of the second stall, stderr: \"%s\"",
			  second);
	}
}

/*
 * Held for three reports: report k comes once the wait reaches k
 * timeouts, never sooner, so no more lines than whole timeouts waited.
 */
Test(stall, report_repeats_once_per_timeout)
{
	long tid, waited;
	int k = 0;
	char *line, *save = NULL;
	char *out = stall_lines("100", 20000, 3, 0, &tid);
	char prefix[64];

	snprintf(prefix, sizeof(prefix),
		 "rculist: %s grace period stalled for ", rculist_flavor_name());
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		k++;
		cr_assert(strncmp(line, prefix, strlen(prefix)) == 0,
			  "line %d: %s", k, line);
		waited = atol(line + strlen(prefix));
		cr_assert_geq(waited, 100L * k, "report %d after %ld ms: %s", k,
			      waited, line);
	}
	cr_assert_geq(k, 3, "%d reports", k);
	cr_assert_leq(k, elapsed_ms / 100,
		      "%d reports in a grace period of %ld ms, timeout 100 ms",
		      k, elapsed_ms);
}

/*
 * A reader whose section began after the grace period did (after the
 * first report) does not hold it up, and is not named; the stuck one is.
 */
Test(stall, reader_that_began_after_the_grace_period_is_not_named)
{
	char expect[64];
	long tid;
	char *out = stall_lines("100", 20000, 2, 1, &tid);
	char *second = strchr(out, '\n');

	cr_assert_not_null(second, "one line only: %s", out);
	second++;
	cr_assert_neq(late_tid, 0, "the late reader never started: %s", out);
	snprintf(expect, sizeof(expect), "tid %ld ", late_tid);
	cr_assert_null(strstr(second, expect), "late reader named: %s", second);
	snprintf(expect, sizeof(expect), "tid %ld ", tid);
	if (registry())
		cr_assert_not_null(strstr(second, expect), "%s", second);
	else
		cr_assert_null(strstr(second, "tid"), "%s", second);
}
