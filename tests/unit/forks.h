/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/unit/forks.h - how many times the fork tests fork
 * (tests/unit/fork.c, tests/unit/reclaim.c).
 *
 * RCULIST_TEST_FORKS, from 10 to 1000 (the most the tests' timeouts
 * allow), 1000 unless set.  Each fork waits for a grace period and
 * liburcu's call_rcu thread (about 25 ms), so make check forks 250 times
 * per flavour and make check-full the whole 1000 (UNIT_FORKS and
 * FULL_FORKS in the Makefile).  A test scales its own count from it.
 */
#ifndef RCULIST_TESTS_FORKS_H
#define RCULIST_TESTS_FORKS_H

#include "check.h"

#define TEST_FORKS_MAX 1000

static inline int test_forks(void)
{
	return (int)test_env_number("RCULIST_TEST_FORKS", TEST_FORKS_MAX, 10,
				    TEST_FORKS_MAX);
}

#endif /* RCULIST_TESTS_FORKS_H */
