// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/thread.c - a registered thread that exits without unregistering is
 * unregistered at thread exit, so that no grace period waits on, or reads
 * the memory of, a dead thread.  And rculist's own threads (the stall
 * watchdog, the polled grace-period thread) are started here.
 */
#define _GNU_SOURCE /* pthread_setname_np() */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "internal.h"

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void thread_exit(void *armed)
{
	(void)armed;
	rculist__flavor_unregister();
}

static void exit_key_create(void)
{
	/* Failure leaves the key unusable; exits then go unnoticed, as in liburcu. */
	(void)pthread_key_create(&exit_key, thread_exit);
}

void rculist__thread_exit_arm(void)
{
	pthread_once(&exit_key_once, exit_key_create);
	(void)pthread_setspecific(exit_key, (void *)(uintptr_t)1);
}

void rculist__thread_exit_disarm(void)
{
	pthread_once(&exit_key_once, exit_key_create);
	(void)pthread_setspecific(exit_key, NULL);
}

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
