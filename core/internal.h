/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * core/internal.h - what the flavour-agnostic core needs from a flavour.
 *
 * core/ calls these hidden hooks; each flavors/<name>.c defines them (via
 * core/bind.h).  Nothing here names a flavour.
 */
#ifndef RCULIST_CORE_INTERNAL_H
#define RCULIST_CORE_INTERNAL_H

#define RCULIST__HIDDEN __attribute__((visibility("hidden")))

/* Unregister the calling thread from the flavour (memb, qsbr). */
RCULIST__HIDDEN void rculist__flavor_unregister(void);
/* The flavour's own rcu_barrier(): wait for queued callbacks. */
RCULIST__HIDDEN void rculist__flavor_barrier(void);

/* core/thread.c: unregister a thread that exits still registered. */
RCULIST__HIDDEN void rculist__thread_exit_arm(void);
RCULIST__HIDDEN void rculist__thread_exit_disarm(void);
/*
 * core/thread.c: start one of rculist's threads, detached, every signal
 * blocked, named @name (15 characters at most): 0 or pthread_create()'s
 * error.
 */
RCULIST__HIDDEN int rculist__thread_start(void *(*fn)(void *), const char *name);

/*
 * Grace-period stall detector (core/stall.c) and fork() handling
 * (core/fork.c).
 */
#include <time.h>

/* One rculist_synchronize_rcu() call being waited for. */
struct rculist__stall_wait {
	struct rculist__stall_wait *next;
	struct timespec start;
	unsigned long reports;
};

/* Around the flavour's synchronize_rcu(): 0 if the detector is off. */
RCULIST__HIDDEN int rculist__stall_begin(struct rculist__stall_wait *w);
RCULIST__HIDDEN void rculist__stall_end(struct rculist__stall_wait *w);
/* Name the calling thread in reports; @reader_state is liburcu's. */
RCULIST__HIDDEN void rculist__stall_register(const void *reader_state);
RCULIST__HIDDEN void rculist__stall_unregister(void);
/* Flavour: whether its readers register (memb, qsbr), so can be named. */
RCULIST__HIDDEN int rculist__flavor_has_registry(void);
/* Flavour: non-zero if @reader_state holds up the current grace period. */
RCULIST__HIDDEN int rculist__flavor_reader_blocking(const void *reader_state);

/*
 * core/reclaim.c hands a batch to call_rcu: watch batches from now on.
 * The watchdog asks core/reclaim.c for the oldest batch whose grace
 * period has not ended (0 if none; lock-free).
 */
RCULIST__HIDDEN void rculist__stall_watch_batches(void);
RCULIST__HIDDEN int rculist__reclaim_oldest_wait(struct timespec *since);
RCULIST__HIDDEN void rculist__stall_before_fork(void);
RCULIST__HIDDEN void rculist__stall_after_fork_parent(void);
RCULIST__HIDDEN void rculist__stall_after_fork_child(void);
/* Flavour: liburcu's fork hooks (call_rcu's; bp's own). */
RCULIST__HIDDEN void rculist__flavor_before_fork(void);
RCULIST__HIDDEN void rculist__flavor_after_fork_parent(void);
RCULIST__HIDDEN void rculist__flavor_after_fork_child(void);
/*
 * core/fork.c's call_rcu gate, around every rculist call into call_rcu()
 * (and what leads up to it): a fork() waits until no thread is inside.
 * Flavour: before each entry, what call_rcu() would do under a lock the
 * forking thread holds (create the default call_rcu thread; register).
 */
RCULIST__HIDDEN void rculist__call_rcu_enter(void);
RCULIST__HIDDEN void rculist__call_rcu_leave(void);
RCULIST__HIDDEN void rculist__flavor_call_rcu_ready(void);
/* Flavour: liburcu's call_rcu(), through the gate (unbatched). */
struct rcu_head;
RCULIST__HIDDEN void rculist__flavor_call_rcu(struct rcu_head *head,
					      void (*func)(struct rcu_head *head));
/* Flavour: whether the caller may wait for a grace period (not reading). */
RCULIST__HIDDEN int rculist__flavor_may_block(void);
/* core/reclaim.c: a grace period rculist_synchronize_rcu() waited for ended. */
RCULIST__HIDDEN void rculist__reclaim_note_gp(void);
/* core/fork.c's constructor, referenced so static links pull it in. */
RCULIST__HIDDEN void rculist__fork_init(void);
/* core/pin.c's constructor: the object rculist is linked into stays mapped. */
RCULIST__HIDDEN void rculist__pin_init(void);
/*
 * @symbol of the shared library @soname if it is loaded and is not the
 * object this copy of rculist is in (an embedded copy beside it), or NULL.
 */
RCULIST__HIDDEN void *rculist__other_copy(const char *soname, const char *symbol);

/* Debug mode (core/debug.c), defined by core/bind.h. */
/* Whether the calling thread is registered (bp: always, it registers lazily). */
RCULIST__HIDDEN int rculist__flavor_registered(void);
/* Whether read_lock/unlock delimit sections the flavour sees (not qsbr). */
RCULIST__HIDDEN int rculist__flavor_has_sections(void);

/*
 * core/poll.c: every grace period a flavour's rculist_synchronize_rcu()
 * waits for takes a ticket as it begins and hands it back once it ended.
 */
RCULIST__HIDDEN unsigned long rculist__gp_begin(void);
RCULIST__HIDDEN void rculist__gp_end(unsigned long gp_ticket);
/*
 * core/poll.c's grace-period thread across fork(): the prepare handler
 * waits for its grace period in progress (first, before liburcu's
 * locks); the parent's and the child's handlers release it last (the
 * child starts a thread of its own if a cookie waits).
 */
RCULIST__HIDDEN void rculist__poll_before_fork(void);
RCULIST__HIDDEN void rculist__poll_after_fork_parent(void);
RCULIST__HIDDEN void rculist__poll_after_fork_child(void);

/*
 * Blocking calls inside the caller's own read-side critical section
 * (core/bind.h): non-zero, after a report naming @op, if the call must
 * not go on.  core/debug.c: debug mode's count of the calling thread's
 * sections, and the report.
 */
RCULIST__HIDDEN int rculist__check_not_reading(const char *op);
RCULIST__HIDDEN unsigned long rculist__debug_read_depth(void);
RCULIST__HIDDEN void rculist__report_reading(const char *op, const char *why);

/*
 * core/reclaim.c: blocks per batch handed to call_rcu, and batch slots
 * per thread (see rculist__reclaim_get_stats()).
 */
#define RCULIST__RECLAIM_BATCH 256
#define RCULIST__RECLAIM_SLOTS 16

/*
 * core/reclaim.c: its registry lock across fork(), released in the
 * parent and in the child (which also gives up the other threads' batch
 * states).
 */
RCULIST__HIDDEN void rculist__reclaim_before_fork(void);
RCULIST__HIDDEN void rculist__reclaim_after_fork(void);

/*
 * core/tsan.c: the order RCU guarantees, told to ThreadSanitizer when
 * its runtime is in the process (each a no-op otherwise).  A reader
 * leaves its section; a grace period, or a barrier, has ended.
 * rculist__tsan_before_free() only once rculist__tsan_present() said
 * yes.
 */
RCULIST__HIDDEN int rculist__tsan_present(void);
RCULIST__HIDDEN void rculist__tsan_reader_exit(void);
RCULIST__HIDDEN void rculist__tsan_gp_ended(void);
RCULIST__HIDDEN void rculist__tsan_barrier_ended(void);
RCULIST__HIDDEN void rculist__tsan_before_free(void *head);
/*
 * The library's own callbacks: what the thread that queues @head did is
 * ordered before the callback (after the grace period) that takes it.
 */
RCULIST__HIDDEN void rculist__tsan_handover(void *head);
RCULIST__HIDDEN void rculist__tsan_takeover(void *head);

#endif /* RCULIST_CORE_INTERNAL_H */
