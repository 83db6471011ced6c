// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/runtime.c - the flavour-neutral runtime API: one thread, then
 * threads that register, unregister, go offline or exit, and what grace
 * periods and callbacks make of them.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

TestSuite(runtime, .timeout = 10);

/*
 * Each flavour's suite is linked as <build>/tests/<flavour>/unit (and
 * tests-debug/, asan/...): the library it runs with must name the
 * directory's flavour, whatever the list of flavours.
 */
Test(runtime, flavor_name_is_the_linked_flavour)
{
	char exe[4096], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	cr_assert(n > 0, "readlink(/proc/self/exe) failed");
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	cr_assert(slash != NULL);
	*slash = '\0';
	slash = strrchr(exe, '/');
	cr_assert(slash != NULL, "no flavour directory in %s", exe);
	cr_assert_str_eq(rculist_flavor_name(), slash + 1);
}

Test(runtime, version_matches_header)
{
	char expect[32];

	snprintf(expect, sizeof(expect), "%d.%d.%d", RCULIST_VERSION_MAJOR,
		 RCULIST_VERSION_MINOR, RCULIST_VERSION_PATCH);
	cr_assert_str_eq(rculist_version(), expect);
}

TEST_NO_RCU_ANALYSIS(runtime, read_lock_nests_and_reports_ongoing);
Test(runtime, read_lock_nests_and_reports_ongoing)
{
	rculist_register_thread();
	rculist_read_lock();
	rculist_read_lock();
	cr_assert(rculist_read_ongoing());
	rculist_read_unlock();
	cr_assert(rculist_read_ongoing());
	rculist_read_unlock();
	if (strcmp(rculist_flavor_name(), "qsbr") != 0)
		cr_assert_not(rculist_read_ongoing());
	rculist_quiescent_state();
	rculist_thread_offline();
	rculist_thread_online();
	rculist_synchronize_rcu();
	rculist_unregister_thread();
}

/* ----------------------------------------------- threads and grace periods */

/* Run rculist_synchronize_rcu() in a thread of its own, to watch it. */
struct syncer {
	pthread_t tid;
	int done;
};

static void *syncer_main(void *arg)
{
	struct syncer *s = arg;

	rculist_synchronize_rcu();
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void syncer_start(struct syncer *s)
{
	s->done = 0;
	cr_assert_eq(pthread_create(&s->tid, NULL, syncer_main, s), 0);
}

/* Non-zero if the grace period ended within @ms milliseconds. */
static int syncer_done_within(struct syncer *s, long ms)
{
	long waited;

	for (waited = 0; waited < ms; waited++) {
		if (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE)) {
			cr_assert_eq(pthread_join(s->tid, NULL), 0);
			return 1;
		}
		usleep(1000);
	}
	return 0;
}

/* A grace period started now ends within 5 s. */
static void assert_synchronize_returns(const char *why)
{
	struct syncer s;

	syncer_start(&s);
	cr_assert(syncer_done_within(&s, 5000),
		  "rculist_synchronize_rcu() blocked for 5 s %s", why);
}

/* Threads and the test step through numbered stages. */
static int stage;

static void stage_set(int v)
{
	__atomic_store_n(&stage, v, __ATOMIC_RELEASE);
}

static void stage_wait(int v)
{
	while (__atomic_load_n(&stage, __ATOMIC_ACQUIRE) < v)
		usleep(500);
}

/*
 * The thread @tid has reached stage 3 and is inside a read-side section:
 * a grace period started now waits for it (@reader says where it is);
 * at stage 4 it leaves, and the grace period must end (@after says why).
 * Stage 5 lets the thread finish.
 */
static void assert_reader_holds_up_grace_period(pthread_t tid, const char *reader,
						const char *after)
{
	struct syncer s;

	syncer_start(&s);
	cr_assert_not(syncer_done_within(&s, 100),
		      "a grace period ended inside %s", reader);
	stage_set(4);
	cr_assert(syncer_done_within(&s, 5000),
		  "the grace period did not end %s", after);
	stage_set(5);
	cr_assert_eq(pthread_join(tid, NULL), 0);
}

/*
 * Runs thread, which holds up no grace period at its stage 1 (idle says
 * how it stands then) and is inside a read-side section from its stage 3
 * to its stage 4: a grace period ends at stage 1, and then only when the
 * section ends.
 */
static void assert_idle_then_reading(void *(*thread)(void *), const char *idle,
				     const char *reader, const char *after)
{
	pthread_t tid;

	cr_assert_eq(pthread_create(&tid, NULL, thread, NULL), 0);
	stage_wait(1);
	assert_synchronize_returns(idle);
	stage_set(2);
	stage_wait(3);
	assert_reader_holds_up_grace_period(tid, reader, after);
}

/*
 * The end of a reader thread inside its read-side section: leaves it at
 * stage 4, announces a quiescent state, unregisters at stage 5.
 */
static void *leave_section_at_stage_4(void) RCULIST_RELEASES_RCU
{
	stage_wait(4);
	rculist_read_unlock();
	rculist_quiescent_state();
	stage_wait(5);
	rculist_unregister_thread();
	return NULL;
}

/*
 * Registers, reads, and exits without unregistering, online (qsbr) and
 * without a quiescent state since its read.
 */
static void *exit_registered(void *arg)
{
	(void)arg;
	rculist_register_thread();
	rculist_read_lock();
	rculist_read_unlock();
	return NULL;
}

/*
 * A thread that exits registered is unregistered at its exit: later
 * grace periods neither wait for it nor trip over its freed state, even
 * when the next threads reuse its stack and thread-local storage.
 */
Test(runtime, thread_exiting_registered_does_not_block_synchronize, .timeout = 20)
{
	pthread_t tid;
	int i;

	for (i = 0; i < 4; i++) {
		cr_assert_eq(pthread_create(&tid, NULL, exit_registered, NULL),
			     0);
		cr_assert_eq(pthread_join(tid, NULL), 0);
		assert_synchronize_returns("after a thread exited registered");
	}
}

static int ongoing_after_reregister;

static void *reregister(void *arg)
{
	(void)arg;
	rculist_register_thread();
	rculist_read_lock();
	rculist_read_unlock();
	rculist_quiescent_state();
	rculist_unregister_thread();
	stage_set(1); /* unregistered, and staying so a while */
	stage_wait(2);

	rculist_register_thread();
	rculist_read_lock();
	ongoing_after_reregister = rculist_read_ongoing();
	stage_set(3); /* in a read-side section: holds up grace periods */
	return leave_section_at_stage_4();
}

/*
 * rculist_unregister_thread(), then rculist_register_thread() again: the
 * unregistered thread holds up no grace period; registered again, its
 * read-side section does, until it ends.
 */
Test(runtime, unregister_then_register_again, .timeout = 20)
{
	assert_idle_then_reading(reregister, "for an unregistered thread",
				 "a reader's section", "after the section");
	cr_assert(ongoing_after_reregister,
		  "rculist_read_ongoing() false after registering again");
}

static void *goes_offline(void *arg)
{
	(void)arg;
	rculist_register_thread();
	rculist_thread_offline();
	stage_set(1); /* offline: blocks, reads nothing */
	stage_wait(2);
	rculist_thread_online();
	rculist_read_lock();
	stage_set(3); /* online, inside a section */
	stage_wait(4);
	rculist_read_unlock();
	rculist_thread_offline();
	stage_wait(5);
	rculist_thread_online();
	rculist_unregister_thread();
	return NULL;
}

/*
 * An offline thread (qsbr; a no-op elsewhere) holds up no grace period,
 * however long it stays offline; back online and reading, it does, until
 * it goes offline again.
 */
Test(runtime, offline_thread_does_not_block_synchronize, .timeout = 20)
{
	assert_idle_then_reading(goes_offline, "for an offline thread",
				 "an online reader's section",
				 "when the reader went offline");
}

#define NCALLS 100

struct counted {
	struct rcu_head rcu;
	int seen;
};

static struct counted calls[NCALLS];
static int callbacks_run;

static void count(struct rcu_head *head)
{
	struct counted *c = (struct counted *)(void *)head;

	c->seen++;
	__atomic_fetch_add(&callbacks_run, 1, __ATOMIC_RELAXED);
}

struct freed_rcu {
	long payload;
	struct rcu_head rcu;
};

/* Never registers; queues callbacks and frees, then waits for them. */
static void *unregistered_caller(void *arg)
{
	struct freed_rcu *f;
	int i;

	(void)arg;
	for (i = 0; i < NCALLS; i++) {
		rculist_call_rcu(&calls[i].rcu, count);
		f = malloc(sizeof(*f));
		if (f)
			rculist_free_rcu(f, rcu);
	}
	rculist_rcu_barrier();
	return NULL;
}

/* rculist_call_rcu(), rculist_free_rcu() and the barrier, unregistered. */
Test(runtime, call_rcu_from_an_unregistered_thread, .timeout = 20)
{
	pthread_t tid;
	int i;

	cr_assert_eq(pthread_create(&tid, NULL, unregistered_caller, NULL), 0);
	cr_assert_eq(pthread_join(tid, NULL), 0);
	cr_assert_eq(__atomic_load_n(&callbacks_run, __ATOMIC_RELAXED), NCALLS,
		     "%d of %d callbacks ran before the barrier returned",
		     callbacks_run, NCALLS);
	for (i = 0; i < NCALLS; i++)
		cr_assert_eq(calls[i].seen, 1, "callback %d ran %d times", i,
			     calls[i].seen);
}

/*
 * How a reader arrives at the section the test holds it in.  The inline
 * rculist_quiescent_state() of <rculist/read_side.h> compares the
 * grace-period counter with the thread's counter as the library last
 * stored it, which each of these paths sets.
 */
enum arrival {
	ARRIVE_PLAIN,
	ARRIVE_AFTER_OFFLINE,
	ARRIVE_REREGISTERED,
	ARRIVE_COUNT
};
static enum arrival arrival;
static int reader_inside;

/*
 * Announces quiescent states until stage 3 (grace periods go by), then
 * enters a section and stays there, announcing nothing, until stage 4;
 * leaves it and announces one: the call that must end the grace period
 * that began meanwhile.
 */
static void *announces_after_section(void *arg)
{
	(void)arg;
	rculist_register_thread();
	if (arrival == ARRIVE_AFTER_OFFLINE) {
		rculist_thread_offline();
		rculist_thread_online();
	} else if (arrival == ARRIVE_REREGISTERED) {
		rculist_quiescent_state();
		rculist_unregister_thread();
		rculist_register_thread();
	}
	while (__atomic_load_n(&stage, __ATOMIC_ACQUIRE) < 3) {
		rculist_quiescent_state();
		usleep(500);
	}
	rculist_read_lock();
	__atomic_store_n(&reader_inside, 1, __ATOMIC_RELEASE);
	return leave_section_at_stage_4();
}

/*
 * Each way in: grace periods end while the reader announces quiescent
 * states; one that began while it was inside its section waits for it
 * (qsbr: until its quiescent state, the unlock being empty), and ends
 * once it leaves and announces one.
 */
Test(runtime, quiescent_state_ends_the_grace_period_it_holds_up, .timeout = 60)
{
	pthread_t tid;

	for (arrival = 0; arrival < ARRIVE_COUNT; arrival++) {
		stage_set(0);
		__atomic_store_n(&reader_inside, 0, __ATOMIC_RELEASE);
		cr_assert_eq(pthread_create(&tid, NULL, announces_after_section,
					    NULL),
			     0);
		assert_synchronize_returns(
			"for a reader announcing quiescent states");
		assert_synchronize_returns(
			"for a reader announcing quiescent states");
		stage_set(3);
		while (!__atomic_load_n(&reader_inside, __ATOMIC_ACQUIRE))
			usleep(500);
		assert_reader_holds_up_grace_period(
			tid, "a reader's section",
			"when the reader left and announced a quiescent state");
	}
}
