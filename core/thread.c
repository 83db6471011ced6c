// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/thread.c - rculist_register_thread() and rculist_unregister_thread(),
 * and what happens when a thread exits.
 *
 * A thread that exits inside a read-side critical section is a bug the
 * grace periods would hide: the section never ends, but the thread's
 * cleanup (rculist's below under memb, qsbr and mb; liburcu-bp's own
 * under bp) takes it out of the registry, and the next grace period ends
 * at once.  So it is reported first, through the error handler (abort()
 * by default), naming the thread, its id and the flavour: a watch runs
 * at the thread's exit before any cleanup (a thread-local destructor,
 * glibc's __cxa_thread_atexit_impl(), which runs before every
 * pthread_key_create() destructor, liburcu-bp's among them).  It is armed
 * by rculist_register_thread(), under bp too, where registering is
 * otherwise liburcu-bp's, on the thread's first section: not there,
 * because arming allocates (glibc's list of thread-local destructors)
 * and bp's read side must stay usable from a signal handler that
 * interrupted malloc().  A bp thread that never calls
 * rculist_register_thread() is watched otherwise, from its first section
 * (the end of this file).  If the handler returns, the
 * thread is cleaned up as usual.  Under qsbr only sections opened
 * through debug mode's rculist_read_lock() are seen (qsbr's own are
 * empty brackets).  The main thread is not watched: its exit is the
 * process's.
 *
 * A registered thread that exits without unregistering is unregistered
 * at thread exit (a pthread key destructor), so that no grace period
 * waits on, or reads the memory of, a dead thread.  Registering a
 * registered thread does nothing (one unregistration undoes it).
 */
#define _GNU_SOURCE /* pthread_getname_np() */
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rculist.h>

#include "internal.h"

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

/* glibc's registration of a thread-local destructor (C++ uses it). */
extern int __cxa_thread_atexit_impl(void (*fn)(void *), void *obj,
				    void *dso_handle) __attribute__((weak));
extern void *__dso_handle;

/* The exit watch: armed (reading is a bug from now), hooked (registered). */
static __thread int watch_armed;
static __thread int watch_hooked;

static void unregister_now(void)
{
	rculist__tsan_reader_exit();
	rculist__stall_unregister();
	rculist__flavor_unregister();
}

/* The thread is exiting: is it still inside a read-side section? */
static void exit_watch(void *arg)
{
	struct rculist__site s = { "thread exit", NULL, 0 };
	char name[16] = "?";
	long tid = (long)syscall(SYS_gettid);

	(void)arg;
	if (!watch_armed || !rculist__reading() || tid == (long)getpid())
		return;
	(void)pthread_getname_np(pthread_self(), name, sizeof(name));
	rculist__report(&s, NULL,
			"thread \"%s\" (tid %ld) exits inside a read-side critical section (%s); if the error handler returns, the thread is unregistered and grace periods stop waiting for it",
			name, tid, rculist_flavor_name());
}

static void watch_arm(void)
{
	watch_armed = 1;
	if (watch_hooked || !__cxa_thread_atexit_impl)
		return;
	watch_hooked = 1;
	(void)__cxa_thread_atexit_impl(exit_watch, NULL, &__dso_handle);
}

/* The pthread key's destructor: an exit without unregistering. */
static void thread_exit(void *armed)
{
	(void)armed;
	if (!watch_hooked) /* no thread-local destructor: watch here */
		exit_watch(NULL);
	watch_armed = 0;
	unregister_now();
}

static void exit_key_create(void)
{
	/* Failure leaves the key unusable; exits then go unnoticed, as in liburcu. */
	(void)pthread_key_create(&exit_key, thread_exit);
}

void rculist_register_thread(void)
{
	if (!rculist__flavor_has_registry()) {
		watch_arm(); /* bp: liburcu-bp registers on the first section */
		return;
	}
	/* Registered already (liburcu would abort, or list it twice). */
	if (rculist__flavor_registered()) {
		watch_arm();
		return;
	}
	rculist__flavor_register();
	pthread_once(&exit_key_once, exit_key_create);
	(void)pthread_setspecific(exit_key, (void *)(uintptr_t)1);
	watch_arm();
	rculist__stall_register(rculist__flavor_reader_state());
}

void rculist_unregister_thread(void)
{
	if (!rculist__flavor_has_registry()) {
		watch_armed = 0;
		return;
	}
	pthread_once(&exit_key_once, exit_key_create);
	(void)pthread_setspecific(exit_key, NULL);
	watch_armed = 0;
	unregister_now();
}

/*
 * bp: the watch of a thread that never called rculist_register_thread(),
 * armed by its first read-side critical section (the adapter's hook,
 * once liburcu-bp registered the thread).  That may run in a signal
 * handler that interrupted malloc(): arming allocates nothing and takes
 * no lock.  It moves the thread's registry slot from liburcu-bp's
 * pthread key, whose destructor unregisters the thread, to ours (a key
 * below glibc's 32, whose values sit in the thread's descriptor: setting
 * one allocates nothing).  At the thread's exit liburcu-bp's destructor
 * then finds nothing; ours runs the watch, and hands the slot back to
 * liburcu-bp's key, so that glibc runs another round of destructors (it
 * repeats them while values were set), in which liburcu-bp cleans the
 * thread up.  liburcu-bp's key is the one whose value is the slot, found
 * once by reading every key's value (liburcu 0.13 to 0.15 store the slot
 * there).  If it is not found, or our key is not below 32 (or the C
 * library is not glibc), the thread is not watched.
 */
#define BP_KEYS_FIRST_BLOCK 32 /* glibc's PTHREAD_KEY_2NDLEVEL_SIZE */

static pthread_key_t bp_watch_key;
static int bp_watch_key_ok;
static int bp_key = -1;		 /* liburcu-bp's, once found */
static __thread int bp_key_mine; /* liburcu-bp's, where this thread's slot was */

/* The key other than ours whose value, in this thread, is @slot; or -1. */
static int bp_key_find(const void *slot)
{
	int k = __atomic_load_n(&bp_key, __ATOMIC_RELAXED);

	if (k >= 0 && pthread_getspecific((pthread_key_t)k) == slot)
		return k;
	for (k = 0; k < PTHREAD_KEYS_MAX; k++) {
		if ((pthread_key_t)k == bp_watch_key ||
		    pthread_getspecific((pthread_key_t)k) != slot)
			continue;
		__atomic_store_n(&bp_key, k, __ATOMIC_RELAXED);
		return k;
	}
	return -1;
}

/* The hook of a bp thread's first section: async-signal-safe. */
static void bp_watch_arm(void *slot)
{
	int k;

	if (!bp_watch_key_ok || pthread_getspecific(bp_watch_key))
		return;
	k = bp_key_find(slot);
	if (k < 0 || pthread_setspecific(bp_watch_key, slot))
		return;
	(void)pthread_setspecific((pthread_key_t)k, NULL);
	bp_key_mine = k;
	watch_armed = 1;
}

/* Our key's destructor: the watch, then liburcu-bp's cleanup. */
static void bp_watch_exit(void *slot)
{
	if (!watch_hooked) /* else the thread-local destructor watched */
		exit_watch(NULL);
	watch_armed = 0;
	(void)pthread_setspecific((pthread_key_t)bp_key_mine, slot);
}

__attribute__((constructor)) void rculist__thread_init(void)
{
	if (rculist__flavor_has_registry() ||
	    pthread_key_create(&bp_watch_key, bp_watch_exit))
		return;
#ifdef __GLIBC__
	bp_watch_key_ok = bp_watch_key < BP_KEYS_FIRST_BLOCK;
#endif
	rculist__flavor_on_first_section(bp_watch_arm);
}
