// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/thread_exit.c - a thread that exits inside a read-side
 * critical section is reported before it is cleaned up (its name, its
 * tid, the flavour, what happens next), under every flavour: memb, qsbr
 * and mb arm the watch when the thread registers, bp too (there only
 * rculist_register_thread() arms it: the first section must stay
 * signal-safe).  The error handler aborts by default; if it returns, the
 * thread is cleaned up and grace periods stop waiting for it.  Compiled
 * in both builds of the suites (sections the checks see: section.h).
 */
#define _GNU_SOURCE /* pthread_setname_np() */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "section.h"

#include <criterion/redirect.h>

static int reports;
static char last[600];
static pthread_t main_thread;

static void returning_handler(const struct rculist_error *err)
{
	cr_assert(!pthread_equal(pthread_self(), main_thread),
		  "reported in the main thread: %s", err->message);
	reports++;
	snprintf(last, sizeof(last), "%s", err->message);
}

/* How the thread leaves. */
enum how { IN_SECTION, AFTER_SECTION, IN_NESTED_SECTION };

/* Leaves its section open on purpose. */
static void *exiter(void *arg) RCULIST_NO_RCU_ANALYSIS;
static void *exiter(void *arg)
{
	enum how how = *(enum how *)arg;

	pthread_setname_np(pthread_self(), "exiter");
	rculist_register_thread();
	enter_section();
	if (how == IN_NESTED_SECTION)
		enter_section();
	if (how == AFTER_SECTION)
		leave_section();
	return NULL; /* the section, if open, stays open */
}

static void run_exiter(enum how how)
{
	pthread_t t;

	main_thread = pthread_self();
	cr_assert_eq(pthread_create(&t, NULL, exiter, &how), 0);
	cr_assert_eq(pthread_join(t, NULL), 0);
}

TestSuite(thread_exit, .init = cr_redirect_stderr, .timeout = 20);

/* The default handler: the process aborts as the thread exits. */
Test(thread_exit, inside_a_section_aborts_by_default, .signal = SIGABRT)
{
	run_exiter(IN_SECTION);
	cr_assert_fail("the thread exited inside its section, unreported");
}

/* What the line says, then the thread is cleaned up: grace periods end. */
static void check_reported(enum how how)
{
	char want[300];

	rculist_set_error_handler(returning_handler);
	run_exiter(how);
	cr_assert_eq(reports, 1, "%d reports, last: %s", reports, last);
	snprintf(want, sizeof(want),
		 "rculist: thread exit: thread \"exiter\" (tid ");
	cr_assert(strncmp(last, want, strlen(want)) == 0, "%s", last);
	snprintf(want, sizeof(want),
		 ") exits inside a read-side critical section (%s); if the error handler returns, the thread is unregistered and grace periods stop waiting for it",
		 rculist_flavor_name());
	cr_assert(strstr(last, want), "%s", last);
	/* Would wait for ever if the thread were still counted as a reader. */
	rculist_synchronize_rcu();
}

Test(thread_exit, inside_a_section_is_reported_then_cleaned_up)
{
	check_reported(IN_SECTION);
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
