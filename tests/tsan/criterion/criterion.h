/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/tsan/criterion/criterion.h - the part of Criterion's API that the
 * rhashtable suites use (TestSuite, Test with .init/.fini/.timeout/
 * .signal, the cr_assert family), for ThreadSanitizer: Criterion 2.4.1
 * cannot start under it (docs/FACTS).  Found first through -I when
 * make check-tsan-full builds tests/unit/rhashtable*.c with
 * -fsanitize=thread; tests/tsan/unit_main.c runs each test in a child
 * of its own, forked from the single-threaded runner, as Criterion does.
 * An assertion that fails prints where and ends the child with status 1.
 * The messages of the assertions are not printed.
 */
#ifndef RCULIST_TSAN_CRITERION_H
#define RCULIST_TSAN_CRITERION_H

#include <stddef.h>
#include <string.h>

struct tsan_test_data {
	void (*init)(void);
	void (*fini)(void);
	double timeout;
	int signal;
	int exit_code;
	int disabled;
	const char *description;
};

struct tsan_test {
	const char *suite, *name;
	void (*fn)(void);
	struct tsan_test_data data;
	struct tsan_test *next;
};

struct tsan_suite {
	const char *name;
	struct tsan_test_data data;
	struct tsan_suite *next;
};

void tsan_register_test(struct tsan_test *t);
void tsan_register_suite(struct tsan_suite *s);
void tsan_assert_failed(const char *file, int line, const char *what)
	__attribute__((noreturn));

#define TestSuite(s, ...)                                                     \
	static struct tsan_suite tsan_suite_##s = { #s, { __VA_ARGS__ }, 0 }; \
	__attribute__((constructor)) static void tsan_suite_reg_##s(void)     \
	{                                                                     \
		tsan_register_suite(&tsan_suite_##s);                         \
	}

#define Test(s, n, ...)                                                        \
	void s##_##n##_impl(void);                                             \
	static struct tsan_test tsan_test_##s##_##n = {                        \
		#s, #n, s##_##n##_impl, { __VA_ARGS__ }, 0                     \
	};                                                                     \
	__attribute__((constructor)) static void tsan_test_reg_##s##_##n(void) \
	{                                                                      \
		tsan_register_test(&tsan_test_##s##_##n);                      \
	}                                                                      \
	void s##_##n##_impl(void)

#define cr_assert(c, ...)                                           \
	do {                                                        \
		if (!(c))                                           \
			tsan_assert_failed(__FILE__, __LINE__, #c); \
	} while (0)
#define cr_assert_not(c, ...)	    cr_assert(!(c))
#define cr_assert_eq(a, b, ...)	    cr_assert((a) == (b))
#define cr_assert_neq(a, b, ...)    cr_assert((a) != (b))
#define cr_assert_lt(a, b, ...)	    cr_assert((a) < (b))
#define cr_assert_gt(a, b, ...)	    cr_assert((a) > (b))
#define cr_assert_leq(a, b, ...)    cr_assert((a) <= (b))
#define cr_assert_geq(a, b, ...)    cr_assert((a) >= (b))
#define cr_assert_null(a, ...)	    cr_assert((a) == NULL)
#define cr_assert_not_null(a, ...)  cr_assert((a) != NULL)
#define cr_assert_str_eq(a, b, ...) cr_assert(strcmp((a), (b)) == 0)
#define cr_assert_fail(...) \
	tsan_assert_failed(__FILE__, __LINE__, "cr_assert_fail")

#endif /* RCULIST_TSAN_CRITERION_H */
