// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/fork.c - fork() without exec() in a program using rculist.
 *
 * Installed once, when the library is loaded, so that users need not:
 *  - every flavour: liburcu's call_rcu fork hooks.  Before the fork the
 *    call_rcu helper threads are paused (and leave the reader registry);
 *    in the child, where they do not exist, a new helper thread takes
 *    over the queued callbacks, so rculist_call_rcu(), rculist_free_rcu()
 *    and rculist_rcu_barrier() keep working there.
 *  - bp: urcu_bp_before_fork() and its pair, which hold bp's grace-period
 *    and registry locks across the fork and prune the child's registry of
 *    the threads that did not follow it (without them, the child's grace
 *    periods hang with every signal blocked).
 *  - rculist_free_rcu()'s lock (core/reclaim.c), taken once the call_rcu
 *    threads are paused, so that no batch callback holds it.
 *  - the stall detector (core/stall.c): its lock, and its watchdog thread,
 *    which the child starts afresh.
 *
 * memb and qsbr keep the threads that did not follow the child in their
 * registries: a fork() while another thread is inside a read-side
 * critical section (qsbr: online and not quiescent) leaves the child's
 * grace periods waiting for ever.  Fork from a thread when no other
 * thread is reading, or exec() in the child; the stall detector names
 * the thread a child waits for.
 *
 * Lock order, one for the whole library: liburcu's (call_rcu_mutex,
 * taken by call_rcu_before_fork() while it pauses the call_rcu threads;
 * then bp's grace-period and registry locks), then core/reclaim.c's
 * registry_lock, then core/stall.c's lock.  The handlers take them in
 * that order before the fork and release them in reverse after it.
 * Nothing in rculist holds one of its own locks across a call into
 * liburcu (call_rcu, synchronize_rcu, barrier, register): reclaim.c
 * hands batches to call_rcu with no lock held, stall.c waits outside
 * its lock, so no thread can hold an rculist lock while waiting for
 * call_rcu_mutex (tests/fork.c races fork() against the first
 * rculist_free_rcu() calls, whose call_rcu takes call_rcu_mutex).
 *
 * Installing liburcu's call_rcu hooks with pthread_atfork() while
 * callbacks call free() (liburcu's README warns): glibc 2.36 runs the
 * atfork prepare handlers before it takes malloc's arena locks, and
 * call_rcu_before_fork() waits until every call_rcu thread is paused
 * between callbacks, so no callback is inside free() across the fork;
 * tests/fork.c forks 1000 times per flavour while callbacks free.
 */
#include <pthread.h>

#include "internal.h"

static void before_fork(void)
{
	rculist__flavor_before_fork();
	rculist__reclaim_before_fork();
	rculist__stall_before_fork();
}

static void after_fork_parent(void)
{
	rculist__stall_after_fork_parent();
	rculist__reclaim_after_fork();
	rculist__flavor_after_fork_parent();
}

static void after_fork_child(void)
{
	rculist__stall_after_fork_child();
	rculist__reclaim_after_fork();
	rculist__flavor_after_fork_child();
}

__attribute__((constructor)) void rculist__fork_init(void)
{
	/* Failure (ENOMEM) leaves fork() as liburcu alone handles it. */
	(void)pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}
