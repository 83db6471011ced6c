// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/tsan.c - what RCU orders, told to ThreadSanitizer.
 *
 * A grace period orders every read-side critical section that began
 * before it before everything its updater does after it: that is why an
 * element removed before rculist_synchronize_rcu() may be freed after
 * it.  ThreadSanitizer cannot see that order (liburcu 0.13 makes it with
 * plain loads, fences and sys_membarrier), and reports each such free as
 * a data race.  So rculist tells it, with two kinds of event on a sync
 * object of its own (READERS below):
 *
 *  - release, as a reader leaves its section: rculist_read_unlock(),
 *    rculist_quiescent_state(), rculist_thread_offline(), and a thread's
 *    unregistering (its own call, or at its exit);
 *  - acquire, once a grace period has ended: after
 *    rculist_synchronize_rcu(), a satisfied polled cookie, and before
 *    each callback of rculist_call_rcu() and each block of
 *    rculist_free_rcu() is freed.
 *
 * Every release that happened before the grace period ended is then
 * ordered before whatever follows the acquire.  Over-approximate (a
 * release of a section that began after the grace period started counts
 * too), which can hide no missing grace period: a free with no grace
 * period acquires nothing, and a reader's accesses after its last
 * release are ordered before nothing.
 *
 * The releases are made by the program's own code when it is compiled
 * with -fsanitize=thread (<rculist/tsan.h> routes the read-side exits,
 * rculist_free_rcu(), rculist_call_rcu() and the polled cookies' test to
 * the rculist__tsan_* functions of core/tsan_api.c, at the top of the
 * library), so neither the normal read side nor those calls are
 * touched.  This file is a watcher below them: its callers tell it what
 * happened; it calls nothing of the library's.  The acquires are made here, by the library the program links
 * whether or not it is built for ThreadSanitizer: through weak references
 * to the sanitizer's interface, null unless a ThreadSanitizer runtime is
 * in the process, tested on slow paths only (after a grace period, per
 * batch of blocks, per callback).
 *
 * rculist_call_rcu() callbacks run on liburcu's call_rcu thread, after a
 * grace period liburcu waits for itself: queued from code compiled with
 * -fsanitize=thread (<rculist/tsan.h> routes rculist_call_rcu() here),
 * each goes through a trampoline (a small record allocated per call)
 * that acquires before the callback and releases CALLBACKS after it,
 * which rculist_rcu_barrier() acquires.  rculist_call_rcu() itself is
 * untouched; the library's own callbacks (rculist_free_rcu()'s batches,
 * the polled grace periods') take what their queuing thread handed over
 * (a release on their rcu_head) with an acquire, per batch.
 */
#include <stdlib.h>

#include <rculist.h>

#include "internal.h"

/* ThreadSanitizer's interface (compiler-rt's tsan_interface.h). */
void __tsan_acquire(void *addr) __attribute__((weak));
void __tsan_release(void *addr) __attribute__((weak));

/* Readers release it as their section ends; grace periods acquire it. */
static long readers;
/* Callbacks release it once run; rculist_rcu_barrier() acquires it. */
static long callbacks;

static int present(void)
{
	return __tsan_acquire && __tsan_release;
}

int rculist__tsan_present(void)
{
	return present();
}

void rculist__tsan_reader_exit(void)
{
	if (present())
		__tsan_release(&readers);
}

void rculist__tsan_gp_ended(void)
{
	if (present())
		__tsan_acquire(&readers);
}

void rculist__tsan_barrier_ended(void)
{
	if (present()) {
		__tsan_acquire(&readers);
		__tsan_acquire(&callbacks);
	}
}

/*
 * Before a block of rculist_free_rcu() is freed, once its grace period
 * has ended (ThreadSanitizer present): see rculist__tsan_free_rcu().
 */
void rculist__tsan_before_free(void *head)
{
	__tsan_acquire(&readers);
	__tsan_acquire(head);
}

void rculist__tsan_handover(void *head)
{
	if (present())
		__tsan_release(head);
}

void rculist__tsan_takeover(void *head)
{
	if (present()) {
		__tsan_acquire(head);
		__tsan_acquire(&readers);
	}
}

/* A callback of the program's has run (core/tsan_api.c's trampoline). */
void rculist__tsan_callback_done(void)
{
	if (present())
		__tsan_release(&callbacks);
}
