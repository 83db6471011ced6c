// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/reclaim_limit.c - what waits for grace periods, seen and
 * bounded: rculist_reclaim_get_stats(), rculist_reclaim_set_limit(), the
 * stall detector's watch over rculist_free_rcu()'s and rculist_call_rcu()'s
 * batches, and memory given back once a backlog drains.
 *
 * A reader stuck inside its section (qsbr: online, announcing no
 * quiescent state) holds every grace period up, so nothing queued after
 * it entered can be freed: the counts are exact while it stays.
 */
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "check.h"
#include "../torture/limit_run.h"

TestSuite(reclaim_limit, .timeout = 60);

static struct rculist_reclaim_stats stats(void)
{
	struct rculist_reclaim_stats st;

	rculist_reclaim_get_stats(&st);
	return st;
}

/* ------------------------------------------------- a reader that stays */
static struct {
	int in, release;
	long tid;
} stuck;

static void *stuck_reader(void *arg)
{
	(void)arg;
	rculist_register_thread();
	rculist_read_lock();
	stuck.tid = (long)syscall(SYS_gettid);
	__atomic_store_n(&stuck.in, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&stuck.release, __ATOMIC_ACQUIRE))
		lr_sleep_ms(1);
	rculist_read_unlock();
	rculist_quiescent_state();
	rculist_unregister_thread();
	return NULL;
}

static pthread_t stick(void)
{
	pthread_t t;

	cr_assert_eq(pthread_create(&t, NULL, stuck_reader, NULL), 0);
	while (!__atomic_load_n(&stuck.in, __ATOMIC_ACQUIRE))
		lr_sleep_ms(1);
	return t;
}

static void unstick(pthread_t t)
{
	__atomic_store_n(&stuck.release, 1, __ATOMIC_RELEASE);
	cr_assert_eq(pthread_join(t, NULL), 0);
}

struct blk {
	struct rcu_head rcu;
	char data[48];
};

static unsigned long callbacks_run;

static void count_and_free(struct rcu_head *head)
{
	free(head);
	__atomic_fetch_add(&callbacks_run, 1, __ATOMIC_RELAXED);
}

/* @nfree blocks through rculist_free_rcu(), @ncall through rculist_call_rcu(). */
static void queue_blocks(long nfree, long ncall)
{
	struct blk *b;
	long i;

	for (i = 0; i < nfree || i < ncall; i++) {
		if (i < nfree) {
			b = malloc(sizeof(*b));
			cr_assert_not_null(b);
			rculist_free_rcu(b, rcu);
		}
		if (i < ncall) {
			b = malloc(sizeof(*b));
			cr_assert_not_null(b);
			rculist_call_rcu(&b->rcu, count_and_free);
		}
	}
}

/*
 * Stuck reader; 1000 frees and 500 calls: pending is exactly 1500 and
 * nothing is freed; the oldest batch ages.  Once the reader leaves and
 * the barrier returns: pending 0, freed up by exactly 1500, every
 * callback run once, grace periods counted, nobody throttled (no limit).
 */
Test(reclaim_limit, stats_are_exact_under_a_stuck_reader_and_after_the_barrier)
{
	struct rculist_reclaim_stats s0, s1, s2, s3;
	pthread_t t;

	queue_blocks(100, 100); /* warm: call_rcu's thread, our state */
	rculist_rcu_barrier();
	s0 = stats();
	cr_assert_eq(s0.pending, 0, "%lu pending after the barrier", s0.pending);
	cr_assert_eq(s0.limit, 0);
	cr_assert_geq(s0.freed, 200);
	__atomic_store_n(&callbacks_run, 0, __ATOMIC_RELAXED);

	t = stick();
	queue_blocks(1000, 500);
	s1 = stats();
	cr_assert_eq(s1.pending, 1500, "pending %lu, 1500 queued", s1.pending);
	cr_assert_eq(s1.freed, s0.freed, "%lu freed under the stuck reader",
		     s1.freed - s0.freed);
	cr_assert_geq(s1.peak, 1500);
	lr_sleep_ms(300);
	s2 = stats();
	cr_assert_eq(s2.pending, 1500);
	cr_assert_geq(s2.oldest_ms, 250, "oldest batch %lu ms old", s2.oldest_ms);
	cr_assert_eq(__atomic_load_n(&callbacks_run, __ATOMIC_RELAXED), 0);

	unstick(t);
	rculist_rcu_barrier();
	s3 = stats();
	cr_assert_eq(s3.pending, 0, "%lu pending after the barrier", s3.pending);
	cr_assert_eq(s3.freed - s0.freed, 1500, "%lu of 1500 freed or run",
		     s3.freed - s0.freed);
	cr_assert_eq(__atomic_load_n(&callbacks_run, __ATOMIC_RELAXED), 500);
	cr_assert_gt(s3.grace_periods, s0.grace_periods);
	cr_assert_eq(s3.oldest_ms, 0);
	cr_assert_eq(s3.throttled, s0.throttled, "throttled with no limit");
	cr_assert_geq(s3.peak, s1.peak);
	cr_assert_eq(s3.reserved[0] | s3.reserved[4], 0);
}

/*
 * The target, short: a reader stalled 1 s, 2 updaters
 * replacing and retiring 256-byte elements flat out, limit 20000; peak
 * within the limit and a small batch per thread, RSS bounded, callers
 * throttled; then every element freed exactly once, none while a reader
 * could hold it (see tests/torture/limit_run.h; torture --stall runs it
 * for 15 s with limit 100000).
 */
#define SHORT_LIMIT 20000UL

Test(reclaim_limit, limit_bounds_memory_under_a_stalled_reader)
{
	struct lr_result r;
	char why[256];

	cr_assert_eq(lr_run(SHORT_LIMIT, 1.0, SHORT_LIMIT - LR_SLACK, 0.3, &r),
		     0);
	cr_log_info("peak %lu, throttled %lu, RSS +%ld KiB, %lu retired "
		    "(%lu after), %lu walks",
		    r.during.peak, r.during.throttled - r.before.throttled,
		    r.rss_peak_kb - r.rss_before_kb, r.retired, r.after_release,
		    r.walks);
	cr_assert_not(lr_verdict(&r, SHORT_LIMIT, 32 * 1024, why, sizeof(why)),
		      "%s", why);
	cr_assert_geq(r.during.pending, SHORT_LIMIT - LR_SLACK,
		      "the limit was never reached: %lu pending",
		      r.during.pending);
}

/*
 * The checker can fail: with no limit the same run passes the limit
 * it was given at once.
 */
Test(reclaim_limit, without_a_limit_the_same_run_passes_it)
{
	struct lr_result r;
	char why[256];

	cr_assert_eq(lr_run(0, 0.5, 2 * SHORT_LIMIT + 1, 0.1, &r), 0);
	cr_assert_gt(r.during.pending, 2 * SHORT_LIMIT, "pending %lu",
		     r.during.pending);
	cr_assert(lr_verdict(&r, SHORT_LIMIT, 0, why, sizeof(why)));
	cr_assert_not_null(strstr(why, "peak"), "%s", why);
	cr_assert_eq(r.during.throttled, r.before.throttled);
	/* ... and is otherwise correct. */
	cr_assert_not(lr_verdict(&r, 0, 0, why, sizeof(why)), "%s", why);
}

/*
 * Over the limit, a thread inside its own read-side critical section
 * (qsbr: registered and online) queues 5000 blocks and returns; a thread
 * outside any section waits until the stuck reader leaves.
 */
static int inside_done, outside_done;

static void *free_inside(void *arg)
{
	(void)arg;
	rculist_register_thread();
	rculist_read_lock();
	queue_blocks(2500, 2500);
	rculist_read_unlock();
	__atomic_store_n(&inside_done, 1, __ATOMIC_RELEASE);
	rculist_quiescent_state();
	rculist_unregister_thread();
	return NULL;
}

static void *free_outside(void *arg)
{
	(void)arg;
	queue_blocks(500, 0);
	__atomic_store_n(&outside_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Within @ms, until throttled reaches @n; whether it did. */
static int wait_throttled(unsigned long n, long ms)
{
	long i;

	for (i = 0; i < ms && stats().throttled < n; i++)
		lr_sleep_ms(1);
	return stats().throttled >= n;
}

static int wait_flag(int *flag, long ms)
{
	long i;

	for (i = 0; i < ms && !__atomic_load_n(flag, __ATOMIC_ACQUIRE); i++)
		lr_sleep_ms(1);
	return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

Test(reclaim_limit, inside_a_section_never_waits_outside_waits)
{
	struct rculist_reclaim_stats s0, s1, s2;
	pthread_t t, in, out;

	rculist_reclaim_set_limit(100);
	t = stick();
	s0 = stats();
	cr_assert_eq(pthread_create(&in, NULL, free_inside, NULL), 0);
	cr_assert(wait_flag(&inside_done, 20000),
		  "rculist_free_rcu() inside a section waited for the limit");
	cr_assert_eq(pthread_join(in, NULL), 0);
	s1 = stats();
	cr_assert_eq(s1.pending, 5000, "pending %lu", s1.pending);
	cr_assert_eq(s1.throttled, s0.throttled);

	cr_assert_eq(pthread_create(&out, NULL, free_outside, NULL), 0);
	cr_assert(wait_throttled(s1.throttled + 1, 20000),
		  "a caller outside any section was never throttled");
	lr_sleep_ms(300);
	cr_assert_not(__atomic_load_n(&outside_done, __ATOMIC_ACQUIRE),
		      "a caller outside any section did not wait for the limit");
	s2 = stats();
	cr_assert_eq(s2.throttled, s1.throttled + 1);
	cr_assert_leq(s2.pending, 5000 + 64);
	unstick(t);
	cr_assert(wait_flag(&outside_done, 20000),
		  "the throttled caller never went on");
	cr_assert_eq(pthread_join(out, NULL), 0);
	rculist_rcu_barrier();
	cr_assert_eq(stats().pending, 0);
	cr_assert_eq(stats().freed - s0.freed, 5500);
}

/*
 * fork() while a thread waits for the limit (inside
 * rculist_synchronize_rcu(), outside the call_rcu gate): the fork
 * returns, in the parent and in the child.  Under bp the fork handlers
 * take bp's grace-period lock, which the waiting thread holds: there the
 * fork waits until the reader leaves (released after 500 ms).
 */
static void *release_later(void *arg)
{
	(void)arg;
	lr_sleep_ms(500);
	__atomic_store_n(&stuck.release, 1, __ATOMIC_RELEASE);
	return NULL;
}

Test(reclaim_limit, fork_while_a_thread_waits_for_the_limit)
{
	pthread_t t, out, rel;
	int status;
	pid_t pid;

	rculist_reclaim_set_limit(64);
	t = stick();
	cr_assert_eq(pthread_create(&out, NULL, free_outside, NULL), 0);
	cr_assert(wait_throttled(1, 20000), "never throttled");
	lr_sleep_ms(50); /* into its grace period */
	cr_assert_eq(pthread_create(&rel, NULL, release_later, NULL), 0);
	pid = fork();
	cr_assert_neq(pid, -1);
	if (!pid)
		_exit(stats().limit == 64 ? 0 : 3);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "child %#x", status);
	cr_assert_eq(pthread_join(rel, NULL), 0);
	cr_assert_eq(pthread_join(t, NULL), 0);
	cr_assert(wait_flag(&outside_done, 20000));
	cr_assert_eq(pthread_join(out, NULL), 0);
	rculist_rcu_barrier();
	cr_assert_eq(stats().pending, 0);
}

/*
 * The stall detector with nothing but frees: no thread calls
 * rculist_synchronize_rcu(), yet the reader holding up the batches'
 * grace period is named (memb, qsbr, mb: its kernel thread id; bp says
 * it cannot name it, core/stall.c says why).
 */
static int count_lines(FILE *f)
{
	char buf[8192];
	ssize_t n = pread(fileno(f), buf, sizeof(buf), 0), i;
	int lines = 0;

	for (i = 0; i < n; i++)
		lines += buf[i] == '\n';
	return lines;
}

Test(reclaim_limit, stall_detector_names_the_reader_with_only_frees)
{
	char out[8192], expect[128];
	FILE *f = tmpfile();
	int saved = dup(STDERR_FILENO), i;
	size_t n;
	pthread_t t;

	cr_assert_not_null(f);
	setenv("RCULIST_STALL_TIMEOUT_MS", "100", 1);
	t = stick();
	cr_assert_eq(dup2(fileno(f), STDERR_FILENO), STDERR_FILENO);
	queue_blocks(10, 10);
	for (i = 0; i < 10000 && !count_lines(f); i++)
		lr_sleep_ms(1);
	dup2(saved, STDERR_FILENO);
	close(saved);
	unstick(t);
	rculist_rcu_barrier();
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
	snprintf(expect, sizeof(expect),
		 "rculist: %s grace period stalled for ", rculist_flavor_name());
	cr_assert(strncmp(out, expect, strlen(expect)) == 0,
		  "no report in 10 s: \"%s\"", out);
	cr_assert_geq(atol(out + strlen(expect)), 100, "%s", out);
	cr_assert_not_null(
		strstr(out,
		       "(batches of rculist_free_rcu()/rculist_call_rcu() wait for it)"),
		"%s", out);
	if (strcmp(rculist_flavor_name(), "bp"))
		snprintf(expect, sizeof(expect), "blocked by tid %ld ",
			 stuck.tid);
	else
		snprintf(expect, sizeof(expect),
			 "blocked by a thread inside a read-side critical section (bp keeps no registry the detector can read: it cannot name the thread)");
	cr_assert_not_null(strstr(out, expect), "\"%s\" not in \"%s\"", expect,
			   out);
}

/*
 * A backlog of 200000 256-byte blocks (about 55 MB) under a stuck
 * reader: once it drains, most of the memory is given back to the
 * system (malloc_trim()), not kept at the peak.
 */
struct big {
	struct rcu_head rcu;
	char data[240];
};

Test(reclaim_limit, memory_returns_once_a_backlog_drains)
{
	long rss0, rss_peak, rss_end, i;
	struct big *b;
	pthread_t t;

	queue_blocks(1000, 0);
	rculist_rcu_barrier();
	rss0 = lr_rss_kb();
	t = stick();
	for (i = 0; i < 200000; i++) {
		b = malloc(sizeof(*b));
		cr_assert_not_null(b);
		memset(b->data, 1, sizeof(b->data));
		rculist_free_rcu(b, rcu);
	}
	rss_peak = lr_rss_kb();
	unstick(t);
	rculist_rcu_barrier();
	rss_end = lr_rss_kb();
	cr_log_info("RSS %ld KiB, peak %ld, after %ld", rss0, rss_peak, rss_end);
	cr_assert_gt(rss_peak - rss0, 40 * 1024, "backlog of %ld KiB only",
		     rss_peak - rss0);
	cr_assert_lt(rss_end - rss0, (rss_peak - rss0) / 4,
		     "RSS %ld KiB above the start after the drain, peak %ld",
		     rss_end - rss0, rss_peak - rss0);
}
