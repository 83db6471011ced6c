// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/thread_exit.c - a thread that exits inside a read-side
 * critical section is reported before it is cleaned up (its name, its
 * tid, the flavour, what happens next), under every flavour: memb, qsbr
 * and mb arm the watch when the thread registers, bp when it registers
 * and on its first section (a bp thread need never register: the
 * lazy_reader_* tests).  The error handler aborts by default; if it
 * returns, the thread is cleaned up and grace periods stop waiting for
 * it.  Compiled in both builds of the suites (sections the checks see:
 * section.h).
 */
#define _GNU_SOURCE /* pthread_setname_np() */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "section.h"

#include <criterion/redirect.h>

static int reports;
static int reading_at_report; /* the section still seen: not cleaned up yet */
static char last[600];
static pthread_t main_thread;

static void returning_handler(const struct rculist_error *err)
{
	cr_assert(!pthread_equal(pthread_self(), main_thread),
		  "reported in the main thread: %s", err->message);
	reports++;
	reading_at_report = rculist_read_ongoing();
	snprintf(last, sizeof(last), "%s", err->message);
}

/* How the thread leaves. */
enum how { IN_SECTION, AFTER_SECTION, IN_NESTED_SECTION, IN_SECTION_BY_EXIT };

struct exiter_arg {
	enum how how;
	int registers; /* calls rculist_register_thread() first (bp: may not) */
	int waits; /* then waits for a grace period (bp: which registers it) */
};

/* Leaves its section open on purpose. */
static void *exiter(void *arg) RCULIST_NO_RCU_ANALYSIS;
static void *exiter(void *arg)
{
	const struct exiter_arg *a = arg;

	pthread_setname_np(pthread_self(), "exiter");
	if (a->registers)
		rculist_register_thread();
	if (a->waits)
		rculist_synchronize_rcu();
	enter_section();
	if (a->how == IN_NESTED_SECTION)
		enter_section();
	if (a->how == AFTER_SECTION)
		leave_section();
	if (a->how == IN_SECTION_BY_EXIT)
		pthread_exit(NULL);
	return NULL; /* the section, if open, stays open */
}

static void run_exiter_as(enum how how, int registers, int waits)
{
	struct exiter_arg a = { how, registers, waits };
	pthread_t t;

	main_thread = pthread_self();
	cr_assert_eq(pthread_create(&t, NULL, exiter, &a), 0);
	cr_assert_eq(pthread_join(t, NULL), 0);
}

static void run_exiter(enum how how)
{
	run_exiter_as(how, 1, 0);
}

static int synced;

static void *synchronizer(void *arg)
{
	(void)arg;
	rculist_synchronize_rcu();
	__atomic_store_n(&synced, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A grace period ends: no dead thread is still counted as a reader. */
static void check_grace_period_ends(void)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	pthread_t t;
	int i;

	cr_assert_eq(pthread_create(&t, NULL, synchronizer, NULL), 0);
	for (i = 0; i < 500 && !__atomic_load_n(&synced, __ATOMIC_ACQUIRE); i++)
		nanosleep(&tick, NULL);
	cr_assert(__atomic_load_n(&synced, __ATOMIC_ACQUIRE),
		  "no progress: no grace period ended in 5 s, the exited thread is still counted as a reader");
	cr_assert_eq(pthread_join(t, NULL), 0);
}

TestSuite(thread_exit, .init = cr_redirect_stderr, .timeout = 20);

/* The default handler: the process aborts as the thread exits. */
Test(thread_exit, inside_a_section_aborts_by_default, .signal = SIGABRT)
{
	run_exiter(IN_SECTION);
	cr_assert_fail("the thread exited inside its section, unreported");
}

/*
 * What the line says, said while the thread is still inside its section
 * (not cleaned up yet); then the thread is cleaned up: grace periods end.
 */
static void check_reported_as(enum how how, int registers, int waits)
{
	char want[300];

	rculist_set_error_handler(returning_handler);
	run_exiter_as(how, registers, waits);
	cr_assert_eq(reports, 1, "%d reports, last: %s", reports, last);
	snprintf(want, sizeof(want),
		 "rculist: thread exit: thread \"exiter\" (tid ");
	cr_assert(strncmp(last, want, strlen(want)) == 0, "%s", last);
	snprintf(want, sizeof(want),
		 ") exits inside a read-side critical section (%s); if the error handler returns, the thread is unregistered and grace periods stop waiting for it",
		 rculist_flavor_name());
	cr_assert(strstr(last, want), "%s", last);
	cr_assert(reading_at_report,
		  "reported after the thread was cleaned up: %s", last);
	check_grace_period_ends();
}

static void check_reported(enum how how)
{
	check_reported_as(how, 1, 0);
}

Test(thread_exit, inside_a_section_is_reported_then_cleaned_up)
{
	check_reported(IN_SECTION);
}

Test(thread_exit, pthread_exit_inside_a_section_is_reported_then_cleaned_up)
{
	check_reported(IN_SECTION_BY_EXIT);
}

Test(thread_exit, inside_a_nested_section_is_reported_once)
{
	check_reported(IN_NESTED_SECTION);
}

/* A thread that left its section exits without a word. */
Test(thread_exit, after_its_section_nothing_is_reported)
{
	rculist_set_error_handler(returning_handler);
	run_exiter(AFTER_SECTION);
	run_exiter(AFTER_SECTION);
	rculist_synchronize_rcu();
	cr_assert_eq(reports, 0, "%s", last);
}

/* Unregistered, it is no reader any more: nothing to report at exit. */
static void *unregisters(void *arg)
{
	(void)arg;
	rculist_register_thread();
	enter_section();
	leave_section();
	rculist_unregister_thread();
	return NULL;
}

Test(thread_exit, unregistered_thread_exits_quietly)
{
	pthread_t t;

	rculist_set_error_handler(returning_handler);
	main_thread = pthread_self();
	cr_assert_eq(pthread_create(&t, NULL, unregisters, NULL), 0);
	cr_assert_eq(pthread_join(t, NULL), 0);
	rculist_synchronize_rcu();
	cr_assert_eq(reports, 0, "%s", last);
}

/*
 * A lazy reader registers only where its flavour requires it: under bp
 * never, as bp allows (liburcu-bp registers it on its first section);
 * its first section (or whichever call of rculist's registers it) arms
 * the watch.  Under the other flavours these are
 * the cases above again.
 */
static int lazy(void)
{
	return !flavor_is("bp");
}

Test(thread_exit, lazy_reader_inside_a_section_aborts_by_default,
     .signal = SIGABRT)
{
	run_exiter_as(IN_SECTION, lazy(), 0);
	cr_assert_fail("the thread exited inside its section, unreported");
}

Test(thread_exit, lazy_reader_returning_is_reported_then_cleaned_up)
{
	check_reported_as(IN_SECTION, lazy(), 0);
}

Test(thread_exit, lazy_reader_exiting_is_reported_then_cleaned_up)
{
	check_reported_as(IN_SECTION_BY_EXIT, lazy(), 0);
}

/* bp: registered by its first grace period, not by its first section. */
Test(thread_exit, lazy_reader_waiting_first_is_reported_then_cleaned_up)
{
	check_reported_as(IN_SECTION, lazy(), 1);
}

Test(thread_exit, lazy_reader_in_a_nested_section_is_reported_once)
{
	check_reported_as(IN_NESTED_SECTION, lazy(), 0);
}

Test(thread_exit, lazy_reader_after_its_section_exits_quietly)
{
	rculist_set_error_handler(returning_handler);
	run_exiter_as(AFTER_SECTION, lazy(), 0);
	run_exiter_as(AFTER_SECTION, lazy(), 0);
	check_grace_period_ends();
	cr_assert_eq(reports, 0, "%s", last);
}
