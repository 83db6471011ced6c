/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/kernel_list/kunit.h - the part of the kernel's KUnit that a
 * list test uses, in user space, over <rculist.h>.
 *
 * tests/kernel_list/run.sh includes this header first in its mapped copy
 * of the kernel's lib/list-test.c (whose #includes it drops).  Written
 * for rculist from KUnit's documented interface; nothing of the kernel
 * is here.
 *
 *   KUNIT_EXPECT_*   a failed expectation is printed, the case goes on
 *   KUNIT_ASSERT_*   a failed assertion is printed, the case ends
 *   KUNIT_CASE()     a case of a NULL-terminated struct kunit_case array
 *   kunit_test_suites(&a, &b, ...)  defines main(): every case of every
 *                    suite runs, in a child process of its own (a crash
 *                    fails that case only), in order; "ok"/"not ok" is
 *                    printed per case, then a count; the exit status is
 *                    1 if any case failed.  An argument, a glob on
 *                    "suite.case", runs the cases it matches.
 *   kmalloc & co.    malloc, GFP flags ignored (user space cannot fail
 *                    differently on them); kunit_kzalloc() is calloc,
 *                    freed when the case's process ends.
 *
 * run.sh replaces a case that cannot run here with KUNIT__CASE_NOT_RUN(),
 * its reason and whether it counts as a failure (a case that does not
 * compile) or a skip (a kernel-only facility, such as klist).
 */
#ifndef RCULIST_TESTS_KUNIT_H
#define RCULIST_TESTS_KUNIT_H

#define _GNU_SOURCE
#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rculist.h>

struct kunit {
	const char *name;
	int failures;
	const char *skip; /* set by kunit_skip() */
	jmp_buf end;	  /* a failed assertion or kunit_skip() ends the case */
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const char *not_run; /* why the case is not run, or NULL */
	int not_run_fails;   /* whether that counts as a failure */
};

struct kunit_suite {
	const char *name;
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(fn)                        \
	{                                     \
		.run_case = (fn), .name = #fn \
	}
#define KUNIT__CASE_NOT_RUN(fn, why, fails)                             \
	{                                                               \
		.name = #fn, .not_run = (why), .not_run_fails = (fails) \
	}

/* Kernel facilities a list test touches, mapped to user space. */
#define GFP_KERNEL		       0
#define GFP_ATOMIC		       0
#define __GFP_NOFAIL		       0
#define __GFP_ZERO		       0
#define kmalloc(size, gfp)	       malloc(size)
#define kzalloc(size, gfp)	       calloc(1, (size))
#define kcalloc(n, size, gfp)	       calloc((n), (size))
#define kmalloc_array(n, size, gfp)    calloc((n), (size))
#define kmalloc_obj(obj, gfp)	       malloc(sizeof(obj))
#define kzalloc_obj(obj, gfp)	       calloc(1, sizeof(obj))
#define kfree			       free
#define kunit_kzalloc(test, size, gfp) calloc(1, (size))
#define kunit_kmalloc(test, size, gfp) malloc(size)
#define kunit_kfree(test, p)	       free(p)
#define ARRAY_SIZE(a)		       (sizeof(a) / sizeof((a)[0]))
#define MODULE_DESCRIPTION(s)
#define MODULE_LICENSE(s)
#define MODULE_AUTHOR(s)
#define EXPORT_SYMBOL(s)
#define kunit_info(test, ...) printf("    # " __VA_ARGS__)
#define kunit_warn(test, ...) printf("    # warning: " __VA_ARGS__)
#define kunit_err(test, ...)  printf("    # error: " __VA_ARGS__)

/* Reports a failed check of @test at @file:@line; ends the case if @fatal. */
__attribute__((format(printf, 5, 6))) static inline void
kunit__fail(struct kunit *test, int fatal, const char *file, int line,
	    const char *fmt, ...)
{
	va_list ap;

	test->failures++;
	printf("    # %s: %s at %s:%d: ", test->name,
	       fatal ? "ASSERTION FAILED" : "EXPECTATION FAILED", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (fatal)
		longjmp(test->end, 1);
}

/* The optional message of the _MSG forms, as one string. */
__attribute__((format(printf, 1, 2))) static inline const char *
kunit__msg(const char *fmt, ...)
{
	static char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

#define KUNIT__CHECK(test, fatal, ok, ...)                               \
	do {                                                             \
		if (!(ok))                                               \
			kunit__fail((test), (fatal), __FILE__, __LINE__, \
				    __VA_ARGS__);                        \
	} while (0)

/* A truth value; each operand is evaluated once. */
#define KUNIT__BOOL(test, fatal, cond, want, msg)                              \
	do {                                                                   \
		bool c_ = !!(cond);                                            \
		KUNIT__CHECK(test, fatal, c_ == (want),                        \
			     "%s is %s, expected %s%s", #cond,                 \
			     c_ ? "true" : "false", (want) ? "true" : "false", \
			     msg);                                             \
	} while (0)

/* Integers, compared as long long (as KUnit's long long assertions). */
#define KUNIT__INT(test, fatal, left, op, right, msg)                           \
	do {                                                                    \
		long long l_ = (long long)(left), r_ = (long long)(right);      \
		KUNIT__CHECK(test, fatal, l_ op r_, "%s %s %s: %lld vs %lld%s", \
			     #left, #op, #right, l_, r_, msg);                  \
	} while (0)

#define KUNIT__PTR(test, fatal, left, op, right, msg)                       \
	do {                                                                \
		const void *l_ = (left), *r_ = (right);                     \
		KUNIT__CHECK(test, fatal, l_ op r_, "%s %s %s: %p vs %p%s", \
			     #left, #op, #right, l_, r_, msg);              \
	} while (0)

#define KUNIT__STR(test, fatal, left, want_eq, right, msg)                    \
	do {                                                                  \
		const char *l_ = (left), *r_ = (right);                       \
		KUNIT__CHECK(test, fatal, (strcmp(l_, r_) == 0) == (want_eq), \
			     "%s %s %s: \"%s\" vs \"%s\"%s", #left,           \
			     (want_eq) ? "==" : "!=", #right, l_, r_, msg);   \
	} while (0)

#define KUNIT_EXPECT_TRUE(test, c)	KUNIT__BOOL(test, 0, c, true, "")
#define KUNIT_EXPECT_FALSE(test, c)	KUNIT__BOOL(test, 0, c, false, "")
#define KUNIT_EXPECT_EQ(test, l, r)	KUNIT__INT(test, 0, l, ==, r, "")
#define KUNIT_EXPECT_NE(test, l, r)	KUNIT__INT(test, 0, l, !=, r, "")
#define KUNIT_EXPECT_LT(test, l, r)	KUNIT__INT(test, 0, l, <, r, "")
#define KUNIT_EXPECT_LE(test, l, r)	KUNIT__INT(test, 0, l, <=, r, "")
#define KUNIT_EXPECT_GT(test, l, r)	KUNIT__INT(test, 0, l, >, r, "")
#define KUNIT_EXPECT_GE(test, l, r)	KUNIT__INT(test, 0, l, >=, r, "")
#define KUNIT_EXPECT_PTR_EQ(test, l, r) KUNIT__PTR(test, 0, l, ==, r, "")
#define KUNIT_EXPECT_PTR_NE(test, l, r) KUNIT__PTR(test, 0, l, !=, r, "")
#define KUNIT_EXPECT_NULL(test, p)	KUNIT__PTR(test, 0, p, ==, NULL, "")
#define KUNIT_EXPECT_NOT_NULL(test, p)	KUNIT__PTR(test, 0, p, !=, NULL, "")
#define KUNIT_EXPECT_STREQ(test, l, r)	KUNIT__STR(test, 0, l, 1, r, "")
#define KUNIT_EXPECT_STRNEQ(test, l, r) KUNIT__STR(test, 0, l, 0, r, "")

#define KUNIT_ASSERT_TRUE(test, c)	KUNIT__BOOL(test, 1, c, true, "")
#define KUNIT_ASSERT_FALSE(test, c)	KUNIT__BOOL(test, 1, c, false, "")
#define KUNIT_ASSERT_EQ(test, l, r)	KUNIT__INT(test, 1, l, ==, r, "")
#define KUNIT_ASSERT_NE(test, l, r)	KUNIT__INT(test, 1, l, !=, r, "")
#define KUNIT_ASSERT_LT(test, l, r)	KUNIT__INT(test, 1, l, <, r, "")
#define KUNIT_ASSERT_LE(test, l, r)	KUNIT__INT(test, 1, l, <=, r, "")
#define KUNIT_ASSERT_GT(test, l, r)	KUNIT__INT(test, 1, l, >, r, "")
#define KUNIT_ASSERT_GE(test, l, r)	KUNIT__INT(test, 1, l, >=, r, "")
#define KUNIT_ASSERT_PTR_EQ(test, l, r) KUNIT__PTR(test, 1, l, ==, r, "")
#define KUNIT_ASSERT_PTR_NE(test, l, r) KUNIT__PTR(test, 1, l, !=, r, "")
#define KUNIT_ASSERT_NULL(test, p)	KUNIT__PTR(test, 1, p, ==, NULL, "")
#define KUNIT_ASSERT_NOT_NULL(test, p)	KUNIT__PTR(test, 1, p, !=, NULL, "")
#define KUNIT_ASSERT_STREQ(test, l, r)	KUNIT__STR(test, 1, l, 1, r, "")
#define KUNIT_ASSERT_STRNEQ(test, l, r) KUNIT__STR(test, 1, l, 0, r, "")

/* The _MSG forms: the same check, the message appended when it fails. */
#define KUNIT__WITH(fmt, ...) kunit__msg(" (" fmt ")", ##__VA_ARGS__)
#define KUNIT_EXPECT_TRUE_MSG(test, c, ...) \
	KUNIT__BOOL(test, 0, c, true, KUNIT__WITH(__VA_ARGS__))
#define KUNIT_EXPECT_FALSE_MSG(test, c, ...) \
	KUNIT__BOOL(test, 0, c, false, KUNIT__WITH(__VA_ARGS__))
#define KUNIT_EXPECT_EQ_MSG(test, l, r, ...) \
	KUNIT__INT(test, 0, l, ==, r, KUNIT__WITH(__VA_ARGS__))
#define KUNIT_EXPECT_PTR_EQ_MSG(test, l, r, ...) \
	KUNIT__PTR(test, 0, l, ==, r, KUNIT__WITH(__VA_ARGS__))
#define KUNIT_ASSERT_TRUE_MSG(test, c, ...) \
	KUNIT__BOOL(test, 1, c, true, KUNIT__WITH(__VA_ARGS__))
#define KUNIT_ASSERT_FALSE_MSG(test, c, ...) \
	KUNIT__BOOL(test, 1, c, false, KUNIT__WITH(__VA_ARGS__))
#define KUNIT_ASSERT_EQ_MSG(test, l, r, ...) \
	KUNIT__INT(test, 1, l, ==, r, KUNIT__WITH(__VA_ARGS__))
#define KUNIT_ASSERT_PTR_EQ_MSG(test, l, r, ...) \
	KUNIT__PTR(test, 1, l, ==, r, KUNIT__WITH(__VA_ARGS__))

#define KUNIT_FAIL(test, ...) \
	kunit__fail((test), 0, __FILE__, __LINE__, __VA_ARGS__)
#define KUNIT_SUCCEED(test) ((void)(test))
#define kunit_skip(test, why)            \
	do {                             \
		(test)->skip = (why);    \
		longjmp((test)->end, 1); \
	} while (0)
#define kunit_mark_skipped(test, why) ((void)((test)->skip = (why)))

/* What a case's child process tells its parent through its exit status. */
enum { KUNIT__PASS = 0, KUNIT__FAILED = 1, KUNIT__SKIPPED = 2 };

/* Runs @c of @s in this (child) process; returns its KUNIT__ status. */
static inline int kunit__run_here(struct kunit_suite *s, struct kunit_case *c)
{
	struct kunit test = { .name = c->name };

	if (s->suite_init && s->suite_init(s)) {
		printf("    # %s: suite_init failed\n", c->name);
		return KUNIT__FAILED;
	}
	if (s->init && s->init(&test)) {
		printf("    # %s: init failed\n", c->name);
		return KUNIT__FAILED;
	}
	if (!setjmp(test.end))
		c->run_case(&test);
	if (s->exit)
		s->exit(&test);
	if (s->suite_exit)
		s->suite_exit(s);
	if (test.failures)
		return KUNIT__FAILED;
	if (test.skip) {
		printf("    # %s: skipped: %s\n", c->name, test.skip);
		return KUNIT__SKIPPED;
	}
	return KUNIT__PASS;
}

/* Runs @c in a child; prints its line; returns its KUNIT__ status. */
static inline int kunit__run_case(struct kunit_suite *s, struct kunit_case *c,
				  int n)
{
	int status, st;
	pid_t pid;

	if (c->not_run) {
		printf("%s %d %s.%s # %s %s\n",
		       c->not_run_fails ? "not ok" : "ok", n, s->name, c->name,
		       c->not_run_fails ? "NOT RUN" : "SKIP", c->not_run);
		return c->not_run_fails ? KUNIT__FAILED : KUNIT__SKIPPED;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		st = kunit__run_here(s, c);
		fflush(stdout);
		_exit(st);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		exit(2);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) <= KUNIT__SKIPPED)
		st = WEXITSTATUS(status);
	else {
		st = KUNIT__FAILED;
		if (WIFSIGNALED(status))
			printf("    # %s: killed by signal %d\n", c->name,
			       WTERMSIG(status));
		else
			printf("    # %s: exit status %d\n", c->name,
			       WEXITSTATUS(status));
	}
	printf("%s %d %s.%s%s\n", st == KUNIT__FAILED ? "not ok" : "ok", n,
	       s->name, c->name, st == KUNIT__SKIPPED ? " # SKIP" : "");
	return st;
}

/* Runs every case of @suites (those matching @glob, if not NULL). */
static inline int kunit__main(struct kunit_suite **suites, const char *glob)
{
	int count[3] = { 0, 0, 0 }, n = 0;
	char full[512];

	for (struct kunit_suite **s = suites; *s; s++) {
		printf("# suite %s\n", (*s)->name);
		for (struct kunit_case *c = (*s)->test_cases; c->name; c++) {
			snprintf(full, sizeof(full), "%s.%s", (*s)->name,
				 c->name);
			if (glob && fnmatch(glob, full, 0))
				continue;
			count[kunit__run_case(*s, c, ++n)]++;
		}
	}
	printf("# kunit: %d cases: %d passed, %d failed, %d skipped\n", n,
	       count[KUNIT__PASS], count[KUNIT__FAILED], count[KUNIT__SKIPPED]);
	return count[KUNIT__FAILED] || !n;
}

#define kunit_test_suites(...)                                                \
	static struct kunit_suite *kunit__suites[] = { __VA_ARGS__, NULL };   \
	int main(int argc, char **argv)                                       \
	{                                                                     \
		return kunit__main(kunit__suites, argc > 1 ? argv[1] : NULL); \
	}
#define kunit_test_suite(suite) kunit_test_suites(&(suite))

#endif /* RCULIST_TESTS_KUNIT_H */
