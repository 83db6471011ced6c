// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/thread.c - a registered thread that exits without unregistering is
 * unregistered at thread exit, so that no grace period waits on, or reads
 * the memory of, a dead thread.
 */
#include <pthread.h>
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
