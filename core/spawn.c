// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/spawn.c - rculist's own threads (the stall watchdog, the polled
 * grace-period thread) are started here: detached, every signal blocked,
 * named.
 */
#define _GNU_SOURCE /* pthread_setname_np() */
#include <pthread.h>
#include <signal.h>

#include "internal.h"

int rculist__thread_start(void *(*fn)(void *), const char *name)
{
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t t;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&t, &attr, fn, NULL);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!err)
		(void)pthread_setname_np(t, name);
	return err;
}
