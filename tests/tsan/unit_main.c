// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/tsan/unit_main.c - the runner of tests/tsan/criterion/criterion.h:
 * unit [--filter GLOB], every registered test whose "suite/name" matches,
 * each in a child forked from this single-threaded process (so liburcu's
 * state and the rehash thread are the test's own, as under Criterion),
 * with its .init and .fini, killed after its timeout (the suite's, or
 * 120 s).  A test passes if its child exits 0, or 66 (ThreadSanitizer's
 * exit code for reports: make check-tsan counts those in the logs), or
 * dies of the .signal it expects.  Prints a line per failure and the
 * totals; exits 1 if any failed.
 */
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "criterion/criterion.h"

static struct tsan_test *tests, **tests_tail = &tests;
static struct tsan_suite *suites;

void tsan_register_test(struct tsan_test *t)
{
	*tests_tail = t; /* in the order of the sources */
	tests_tail = &t->next;
}

void tsan_register_suite(struct tsan_suite *s)
{
	s->next = suites;
	suites = s;
}

void tsan_assert_failed(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: assertion failed: %s\n", file, line, what);
	exit(1);
}

static const struct tsan_suite *suite_of(const struct tsan_test *t)
{
	const struct tsan_suite *s;

	for (s = suites; s; s = s->next)
		if (!strcmp(s->name, t->suite))
			return s;
	return NULL;
}

static int run(const struct tsan_test *t)
{
	const struct tsan_suite *s = suite_of(t);
	double timeout = t->data.timeout      ? t->data.timeout :
			 s && s->data.timeout ? s->data.timeout :
						120;
	int st;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		alarm((unsigned int)timeout + 1);
		if (s && s->data.init)
			s->data.init();
		if (t->data.init)
			t->data.init();
		t->fn();
		if (t->data.fini)
			t->data.fini();
		if (s && s->data.fini)
			s->data.fini();
		exit(0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return 0;
	if (t->data.signal)
		return WIFSIGNALED(st) && WTERMSIG(st) == t->data.signal;
	return WIFEXITED(st) &&
	       (WEXITSTATUS(st) == t->data.exit_code || WEXITSTATUS(st) == 66);
}

int main(int argc, char **argv)
{
	const char *filter =
		argc > 2 && !strcmp(argv[1], "--filter") ? argv[2] : "*";
	const struct tsan_test *t;
	int passed = 0, failed = 0;
	char id[256];

	for (t = tests; t; t = t->next) {
		snprintf(id, sizeof(id), "%s/%s", t->suite, t->name);
		if (t->data.disabled || fnmatch(filter, id, 0))
			continue;
		if (run(t)) {
			passed++;
		} else {
			failed++;
			printf("FAIL %s\n", id);
		}
	}
	printf("tsan unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
