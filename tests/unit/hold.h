/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/unit/hold.h - a reader thread that the test holds inside one
 * read-side critical section, then lets go (tests/unit/poll.c, dq.c).
 *
 * hold_start(): the reader registers, enters a section (qsbr: online,
 * announcing no quiescent state) and says so; hold_leave(): it leaves,
 * goes offline (qsbr) and says so; hold_finish(): it exits and is joined.
 * Every wait is for the reader's progress, with no bound but the test's
 * timeout (the reader only sleeps).
 */
#ifndef RCULIST_TESTS_HOLD_H
#define RCULIST_TESTS_HOLD_H

#include <pthread.h>
#include <unistd.h>

#include "check.h"

/* The reader steps through stages the test sets (1 and 3 are its own). */
static int hold_stage;

static inline void hold_set(int v)
{
	__atomic_store_n(&hold_stage, v, __ATOMIC_RELEASE);
}

static inline void hold_wait(int v)
{
	while (__atomic_load_n(&hold_stage, __ATOMIC_ACQUIRE) < v)
		usleep(500);
}

static inline void *hold_main(void *arg)
{
	(void)arg;
	rculist_register_thread();
	rculist_read_lock();
	hold_set(1);
	hold_wait(2);
	rculist_read_unlock();
	rculist_thread_offline();
	hold_set(3);
	hold_wait(4);
	rculist_thread_online();
	rculist_unregister_thread();
	return NULL;
}

/* A reader inside a section, when it returns. */
static inline pthread_t hold_start(void)
{
	pthread_t tid;

	hold_set(0);
	cr_assert_eq(pthread_create(&tid, NULL, hold_main, NULL), 0);
	hold_wait(1);
	return tid;
}

/* The reader has left its section (and is offline, under qsbr). */
static inline void hold_leave(void)
{
	hold_set(2);
	hold_wait(3);
}

static inline void hold_finish(pthread_t tid)
{
	hold_set(4);
	cr_assert_eq(pthread_join(tid, NULL), 0);
}

#endif /* RCULIST_TESTS_HOLD_H */
