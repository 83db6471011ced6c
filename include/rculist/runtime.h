/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/runtime.h - the flavour-neutral RCU runtime.
 *
 * Every flavour library (-lrculist-memb, -lrculist-qsbr, -lrculist-bp,
 * -lrculist-mb) exports these functions under the same names, so one
 * object file written against them links with any of the four.  Calls a
 * flavour does not need are cheap no-ops there:
 *
 *                          memb, mb    qsbr             bp
 *   register_thread        required    required         no-op (lazy)
 *   read_lock/unlock       real        no-op (no call)  real
 *   quiescent_state        no-op (no call) required  no-op (no call)
 *   thread_offline/online  no-op       around blocking  no-op
 *
 * so a program that registers its reader threads, brackets its reads
 * with read_lock/unlock and announces quiescent states between them is
 * correct under all four.
 *
 * struct rcu_head is liburcu's own, from <urcu/call-rcu.h>.
 */
#ifndef RCULIST_RUNTIME_H
#define RCULIST_RUNTIME_H

#include <stddef.h>
#include <urcu/call-rcu.h>

#include "compiler.h"
#include "urcu_compat.h"

/*
 * The runtime calls go through the PLT, as ordinary calls: a direct call
 * to the stub and its indirect jump measured faster (x86-64, make bench,
 * "cost") than one memory-indirect call through the GOT (noplt), 2.3 ns
 * against 3.4 for qsbr's empty lock/unlock pair.
 */

RCULIST__BEGIN_DECLS

/**
 * rculist_version - the version of the library the program runs with
 *
 * Context: any thread, at any time.
 * Return: "MAJOR.MINOR.PATCH", a static string; it matches the
 * RCULIST_VERSION_MAJOR, RCULIST_VERSION_MINOR and RCULIST_VERSION_PATCH
 * of the headers the library was built with.
 */
const char *rculist_version(void);

/**
 * rculist_flavor_name - the flavour the program is linked with
 *
 * Context: any thread, at any time.
 * Return: "memb", "qsbr", "bp", ... as the -lrculist-<flavour> library
 * linked, a static string.
 */
const char *rculist_flavor_name(void);

/**
 * rculist_register_thread - make the calling thread an RCU reader
 *
 * memb, qsbr and mb: required before the thread's first read-side
 * critical section (debug mode reports a reader that never registered).
 * bp: optional.  liburcu-bp registers a thread itself on its first
 * rculist_read_lock(), which also arms the watch of the thread's exit
 * (rculist_unregister_thread(3)); rculist_register_thread() arms that
 * watch too, in the ways the first section cannot (it allocates: bp's
 * read side must stay usable from signal handlers).
 * Under qsbr the thread is online afterwards: it must announce quiescent
 * states from now on.
 *
 * In a thread registered already it does nothing (under qsbr the thread
 * stays online or offline as it was), and one rculist_unregister_thread()
 * undoes the registration.
 *
 * Context: the calling thread, outside any read-side critical section.
 */
void rculist_register_thread(void);

/**
 * rculist_unregister_thread - stop being an RCU reader
 *
 * A registered thread that exits without it is unregistered at thread
 * exit; calling it earlier stops the thread from holding up grace
 * periods (qsbr) and frees its slot.  Under bp (liburcu-bp unregisters
 * the thread at its exit) it only ends the watch below.
 *
 * A thread that exits inside a read-side critical section (every
 * flavour; under qsbr, one opened through debug mode's
 * rculist_read_lock()) is reported before it is cleaned up: one line on
 * stderr, "rculist: thread exit: thread "NAME" (tid N) exits inside a
 * read-side critical section (FLAVOUR); ...", then the error handler,
 * abort() by default, as for every misuse: the section it left open is
 * a bug that its cleanup would hide (the next grace period would end at
 * once).  If the handler returns, the thread is cleaned up as usual:
 * unregistered (bp: by liburcu-bp), and grace periods stop waiting for
 * it.  The main thread is not watched (its exit is the process's).
 * Under bp a thread that never calls rculist_register_thread() is
 * watched from its first rculist_read_lock() (or the first call of
 * rculist's that registers it) on, which takes the thread's cleanup over
 * from liburcu-bp without allocating (a pthread key of rculist's holds
 * it, and gives it back to liburcu-bp's after the watch).  It is not
 * watched if liburcu's API, called directly, registered it, nor when the
 * take-over cannot be done (rculist's key not among the process's first
 * 32, or liburcu-bp's not found).
 *
 * Context: the calling thread, registered, outside any read-side
 * critical section.
 */
void rculist_unregister_thread(void);

/**
 * rculist_read_lock - begin a read-side critical section
 *
 * Until the matching rculist_read_unlock() the thread may follow links
 * loaded with the _rcu iterators and accessors, and the elements it
 * reaches are not freed.  Sections nest.  memb and bp: a thread-local
 * counter update (bp registers the thread on its first call); mb: the
 * same, and a full memory barrier; qsbr: nothing, the thread being
 * inside a section whenever it is online (the inline wrapper of
 * <rculist/read_side.h> reads that from the library and makes no call).
 * With -DRCULIST_INLINE_<FLAVOUR> it is liburcu's inline code.
 *
 * Context: any reader thread (registered under memb, qsbr and mb; any
 * thread and signal handlers under bp).  The section must not block for
 * long nor wait for a grace period: rculist_synchronize_rcu() and the
 * other blocking calls made inside it are reported, and the program
 * aborts (memb, bp and mb always, qsbr with -DRCULIST_DEBUG; see
 * rculist_synchronize_rcu()).
 */
void rculist_read_lock(void) RCULIST_ACQUIRES_RCU;

/**
 * rculist_read_unlock - end a read-side critical section
 *
 * After it the thread may no longer use pointers loaded inside the
 * section.  Nothing under qsbr, where no call is made.
 *
 * Context: the thread that called the matching rculist_read_lock()
 * (debug mode reports an unmatched unlock).
 */
void rculist_read_unlock(void) RCULIST_RELEASES_RCU;

/**
 * rculist_read_ongoing - whether the caller is inside a read-side critical section
 *
 * Context: any reader thread.
 * Return: non-zero inside a read-side critical section (under qsbr:
 * while the thread is registered and online).
 */
int rculist_read_ongoing(void);

/**
 * rculist_quiescent_state - announce that the thread holds no RCU-protected reference
 *
 * qsbr: a registered thread calls it regularly (between requests of an
 * event loop, say); grace periods wait for every online thread to do so.
 * Inline: it calls the library only when a grace period has begun since
 * the thread's last announcement, as liburcu's own inline code does.  A
 * no-op under memb, bp and mb, where no call is made.
 *
 * Context: a registered reader, outside any read-side critical section
 * and holding no pointer loaded in one (debug mode reports a call inside
 * a section).
 */
void rculist_quiescent_state(void) RCULIST_EXCLUDES_RCU;

/**
 * rculist_thread_offline - announce that the thread will read nothing for a while
 *
 * qsbr: bracket every blocking call (read, poll, sleep, condition wait)
 * with rculist_thread_offline() and rculist_thread_online(), so that
 * grace periods need not wait for the thread.  A no-op under memb, bp
 * and mb.
 *
 * Context: a registered reader, outside any read-side critical section.
 */
void rculist_thread_offline(void) RCULIST_EXCLUDES_RCU;

/**
 * rculist_thread_online - announce that the thread reads again
 *
 * The end of a rculist_thread_offline() bracket (qsbr); a no-op under
 * memb, bp and mb.
 *
 * Context: a registered reader that called rculist_thread_offline().
 */
void rculist_thread_online(void);

/**
 * rculist_synchronize_rcu - wait for a grace period
 *
 * Returns once every read-side critical section that began before the
 * call has ended: elements removed before the call may then be freed.
 * memb: microseconds (membarrier); qsbr: until every online thread
 * announced a quiescent state; bp: polls in 10 ms steps while a reader
 * is inside a section; mb: needs neither membarrier nor signals (the
 * readers' own barriers pair with the updater's).
 *
 * Context: any thread (registered or not), outside any read-side
 * critical section.  Called inside the caller's own section it is
 * reported (one line on stderr naming it, then the error handler,
 * abort() by default), and it calls abort() if the handler returns: it
 * can neither wait there (memb, bp and mb would deadlock, qsbr would end
 * the section) nor return without a grace period.  Under memb, bp and mb
 * always, under qsbr with -DRCULIST_DEBUG; without it qsbr's grace period
 * silently ends the caller's section, as liburcu's does.  Blocks; it
 * must not be called with a lock held that readers take.
 */
void rculist_synchronize_rcu(void) RCULIST_EXCLUDES_RCU;

/**
 * rculist_call_rcu - run a function after a grace period
 * @head: a struct rcu_head (liburcu's own) embedded in the object
 * @func: called as func(@head), from a helper thread, once every
 *	read-side critical section that began before the call has ended
 *
 * @func usually frees the enclosing object (rculist_free_rcu() does that
 * without a function to write).  The calls are batched with the
 * rculist_free_rcu() blocks of the calling thread: one liburcu callback
 * per batch; callbacks run in no particular order.  They count in
 * rculist_reclaim_get_stats() and against rculist_reclaim_set_limit().
 *
 * Context: any thread, inside read-side critical sections too.  Never
 * waits, unless a limit is set (rculist_reclaim_set_limit()) and the
 * caller is outside any read-side critical section: then it may wait
 * for grace periods, as rculist_synchronize_rcu() does, so it must not
 * be called holding a lock that readers wait for.  @func runs in
 * liburcu's call_rcu thread, concurrently with the program's threads,
 * or in a thread that calls rculist_rcu_barrier(), which waits for it.
 */
void rculist_call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head));

/**
 * rculist_rcu_barrier - wait until every callback queued before the call has run
 *
 * Covers rculist_call_rcu() callbacks and rculist_free_rcu() frees, of
 * every thread.  Call it before unloading code that callbacks run, or at
 * exit so that leak checkers see everything freed.
 *
 * Context: any thread, outside any read-side critical section (inside
 * one it is reported, as below); not from a callback.  Blocks.
 *
 * The blocking calls (rculist_synchronize_rcu(),
 * rculist_cond_synchronize_rcu(), rculist_rcu_barrier()) and the splices
 * that wait for a grace period report a call made inside the caller's
 * own read-side critical section with one line on stderr naming the
 * call, then call the error handler (<rculist/debug_api.h>, abort() by
 * default), and abort() if it returns: none ever returns without a grace
 * period (liburcu's own rcu_barrier() returns at once inside a section,
 * its callbacks not run; rculist's checks before calling it).  Under
 * memb, bp and mb always, under qsbr with -DRCULIST_DEBUG (whose
 * rculist_read_lock() counts qsbr's sections).  Without it, under qsbr,
 * the grace period silently ends the caller's section, as liburcu's
 * does.
 */
void rculist_rcu_barrier(void) RCULIST_EXCLUDES_RCU;

/*
 * Not for programs: exported so that a copy of rculist embedded in a
 * plugin (librculist-<f>.a) and librculist-<f>.so loaded beside it run
 * liburcu's fork hooks once per fork() between them (core/pin.c).
 */
#define RCULIST__FORK_PREPARE 0
#define RCULIST__FORK_PARENT  1
#define RCULIST__FORK_CHILD   2
void rculist__fork_liburcu(int phase);

/*
 * Polled grace periods, as the Linux kernel has them: an updater takes a
 * cookie when it unlinks an element, goes on with its work, and frees
 * the element once rculist_poll_state_synchronize_rcu() says that a full
 * grace period has elapsed since, or waits for one with
 * rculist_cond_synchronize_rcu().  Under every flavour and every liburcu
 * version (liburcu 0.13 has no polled grace periods; 0.14's
 * start_poll_synchronize_rcu() is not used).  The defer queue
 * (<rculist/dq.h>) keeps the cookies and the pointers for the program.
 */

/**
 * struct rculist_gp_cookie - a moment, to ask later whether a full grace
 * period has elapsed since
 * @seq: opaque; compare cookies only through
 *	 rculist_poll_state_synchronize_rcu(), which allows for wrap
 *
 * Returned by value by rculist_get_state_synchronize_rcu() and
 * rculist_start_poll_synchronize_rcu(); may be copied, stored, and
 * passed to another thread.  Valid in the process that took it.  A cookie
 * older than about LONG_MAX grace periods may be reported unsatisfied
 * again; a correct answer needs fewer grace periods than that between
 * taking it and polling it.
 *
 * Context: a plain value; any thread may hold, copy and poll it.
 */
struct rculist_gp_cookie {
	unsigned long seq;
};

/**
 * rculist_get_state_synchronize_rcu - take a cookie, starting nothing
 *
 * Return: a cookie satisfied once a full grace period has elapsed since
 * this call: one that began after it, through rculist_synchronize_rcu(),
 * rculist_cond_synchronize_rcu() or rculist_start_poll_synchronize_rcu()
 * of any thread.  Nothing else makes it satisfied: a program where no
 * thread ever waits for a grace period sees it unsatisfied for ever.
 *
 * Context: callable from any thread, registered or not, inside a
 * read-side critical section too; never blocks; lock-free.  Typical use:
 * the updater, holding its update-side lock, unlinks an element with a
 * _rcu operation and takes a cookie; the element may be freed once the
 * cookie is satisfied (rculist_poll_state_synchronize_rcu()).
 */
struct rculist_gp_cookie rculist_get_state_synchronize_rcu(void);

/**
 * rculist_start_poll_synchronize_rcu - take a cookie and make sure a
 * grace period will satisfy it, without waiting
 *
 * Return: a cookie, as rculist_get_state_synchronize_rcu() gives, that
 * becomes satisfied without any further call, in about one grace period:
 * rculist's grace-period thread ("rculist-gp", created by the first
 * call, every signal blocked, never a reader) is woken and runs
 * rculist_synchronize_rcu() for as long as a cookie waits, one grace
 * period for all the cookies taken meanwhile.  Satisfied once every
 * read-side critical section that began before this call has ended
 * (qsbr: every registered online thread has announced a quiescent
 * state), at most two grace periods later (the one in progress may have
 * begun before the call).  make bench-poll reports the latency
 * (op=start_to_satisfied) beside rculist_synchronize_rcu()'s.
 *
 * Context: callable from any thread, registered or not, inside a
 * read-side critical section too; never blocks and allocates nothing
 * (a few atomic operations, and a futex wake when the thread sleeps),
 * except the first call, which creates the thread (not async-signal-
 * safe then).  If the thread cannot be created, a callback through
 * rculist_call_rcu() does its work (one at most in flight, satisfied in
 * liburcu's call_rcu thread's time, about 10 ms) and the next call tries
 * again.  fork() waits for the polled grace period in progress (a child
 * must not inherit liburcu's grace-period lock held by a thread it does
 * not have), so do not fork inside a read-side critical section (qsbr:
 * an online caller goes offline meanwhile); the child gets a thread of
 * its own, and a cookie taken before the fork is satisfied there too.
 * At process exit, the thread starts no grace period once rculist's
 * destructor has run (it waits 1 s at most for the one in progress).
 */
struct rculist_gp_cookie rculist_start_poll_synchronize_rcu(void);

/**
 * rculist_poll_state_synchronize_rcu - has a full grace period elapsed
 * since @cookie was taken?
 * @cookie: from rculist_get_state_synchronize_rcu() or
 *	    rculist_start_poll_synchronize_rcu()
 *
 * Return: non-zero once every read-side critical section that was in
 * progress when @cookie was taken has ended; then memory unlinked before
 * the cookie was taken may be freed.  Once non-zero, it stays so.
 *
 * Context: callable from any thread, inside a read-side critical
 * section too; never blocks; one atomic load.
 */
int rculist_poll_state_synchronize_rcu(struct rculist_gp_cookie cookie);

/**
 * rculist_cond_synchronize_rcu - wait for a full grace period since
 * @cookie, unless one has already elapsed
 * @cookie: from rculist_get_state_synchronize_rcu() or
 *	    rculist_start_poll_synchronize_rcu()
 *
 * Returns at once if rculist_poll_state_synchronize_rcu(@cookie) is
 * non-zero, and otherwise calls rculist_synchronize_rcu().  On return the
 * cookie is satisfied.
 *
 * Context: may block, like rculist_synchronize_rcu(): never call it
 * inside a read-side critical section, nor while holding a lock a reader
 * waits for.  Called inside the caller's own section it is reported,
 * even when @cookie is satisfied, and aborts if the error handler
 * returns, as rculist_synchronize_rcu() does (memb, bp and mb always,
 * qsbr with -DRCULIST_DEBUG; without it a grace period it waits for
 * silently ends a qsbr caller's section).
 */
void rculist_cond_synchronize_rcu(struct rculist_gp_cookie cookie)
	RCULIST_EXCLUDES_RCU;

/**
 * struct rculist_reclaim_stats - memory waiting for grace periods
 * @pending: blocks handed to rculist_free_rcu() and callbacks handed to
 *	rculist_call_rcu(), not yet freed or run
 * @peak: the most @pending at once since the start (sampled as threads
 *	publish their counts every 32 blocks: it may miss up to 32 blocks
 *	per thread of a short peak)
 * @freed: blocks freed and callbacks run since the start
 * @throttled: times a caller waited because @pending had reached the
 *	limit (rculist_reclaim_set_limit())
 * @oldest_ms: age in milliseconds of the oldest batch of pending blocks
 *	(0 when none is pending): grows while a reader holds grace periods up
 * @grace_periods: grace periods seen to end since the start: each
 *	rculist_synchronize_rcu() return (the limit's waits and
 *	rculist_rcu_barrier() included) and each batch of blocks whose grace
 *	period ended (liburcu may end several batches with one grace period:
 *	each counts)
 * @limit: the limit set, 0 if none
 * @reserved: zero; room for counters of later versions
 *
 * Filled by rculist_reclaim_get_stats().  @pending is exact once no
 * thread is inside rculist_free_rcu() or rculist_call_rcu(), and so after
 * rculist_rcu_barrier() returns in a program where no other thread
 * queues (it is 0 then); while threads queue it is a snapshot of
 * counters read one after the other.
 *
 * Context: a plain value, copied out; any thread may read it.
 */
struct rculist_reclaim_stats {
	unsigned long pending;
	unsigned long peak;
	unsigned long freed;
	unsigned long throttled;
	unsigned long oldest_ms;
	unsigned long grace_periods;
	unsigned long limit;
	unsigned long reserved[5];
};

/**
 * rculist_reclaim_get_stats - how much memory waits for grace periods
 * @st: filled in (every field, @reserved zeroed)
 *
 * For an operator's dashboard: a @pending or @oldest_ms that keeps
 * growing means that a reader holds grace periods up (the stall
 * detector names it, see RCULIST_STALL_TIMEOUT_MS).  Reads counters of
 * every thread that ever queued: microseconds, no lock the queueing
 * threads take.
 *
 * Context: any thread, registered or not, inside read-side critical
 * sections too; never blocks for a grace period.
 */
void rculist_reclaim_get_stats(struct rculist_reclaim_stats *st);

/**
 * rculist_reclaim_set_limit - bound the blocks waiting for grace periods
 * @blocks: the most blocks (rculist_free_rcu()) and callbacks
 *	(rculist_call_rcu()) that may wait; 0, the default, for no limit
 *
 * With a limit, a thread that calls rculist_free_rcu() or
 * rculist_call_rcu() while @pending (rculist_reclaim_get_stats()) is at
 * the limit waits for grace periods until it is below (back-pressure,
 * counted in @throttled), if it may wait: outside any read-side critical
 * section (under qsbr: a thread that is offline or not registered, an
 * online qsbr thread being inside a section between its quiescent
 * states), and not inside a callback.  Calls that may not wait queue as
 * without a limit.  Threads check every 32 blocks, so @pending may pass
 * the limit by up to 64 blocks per thread, and by what callers that may
 * not wait queue.  A reader stuck in a section then blocks the freeing
 * threads instead of making memory grow without bound.
 *
 * Context: any thread, at any time; takes effect at each thread's next
 * check.
 */
void rculist_reclaim_set_limit(unsigned long blocks);

/*
 * Internal: report @op, a blocking call, if made inside the caller's
 * read-side critical section, and abort() if the error handler returns;
 * returns 0 (it never returns otherwise).
 */
int rculist__not_reading(const char *op);

/* Free @ptr's block after a grace period; see rculist_free_rcu(). */
void rculist__free_rcu(struct rcu_head *head, size_t offset);

/*
 * Internal, for <rculist/rcu.hpp>'s retire: rculist_call_rcu(), except
 * that @func may also run in the calling thread, at one of its later
 * rculist_free_rcu(), rculist_call_rcu() or retire calls (as
 * rculist_free_rcu()'s frees do), inside its read-side critical section
 * and with its locks held: C++26 lets retire run the deleters it
 * scheduled.
 */
void rculist__retire_rcu(struct rcu_head *head,
			 void (*func)(struct rcu_head *head));

/*
 * Internal, for the tests and benchmarks: how rculist_free_rcu() batches,
 * and how many blocks wait.  @waiting counts the blocks handed off and
 * not yet freed plus those in the threads' open batches (a racy sum);
 * @handed_peak is the most blocks handed off and not yet freed at once
 * since the last call with @reset_peak non-zero; @freed counts every
 * block rculist_free_rcu() has freed.
 */
struct rculist__reclaim_stats {
	unsigned long batch;	   /* blocks per batch */
	unsigned long slots;	   /* batches in flight per thread, at most */
	unsigned long handed;	   /* handed off, not yet freed */
	unsigned long waiting;	   /* handed + open batches */
	unsigned long handed_peak; /* most of handed at once */
	unsigned long freed;	   /* blocks freed since the start */
	unsigned long polled;	   /* of freed, by their owner, polled */
};
void rculist__reclaim_get_stats(struct rculist__reclaim_stats *st,
				int reset_peak);
/*
 * Internal, for the tests: a batch handed off with @blocks blocks or
 * more is freed by its slot's callback in call_rcu's worker, a smaller
 * one by its owner (0: every batch by its owner; the default is twice
 * the batch size).  Returns the previous value.
 */
unsigned long rculist__reclaim_set_spill(unsigned long blocks);
/*
 * Internal, for the tests: how many polled slots (16 at most, the
 * default) a thread's batches of free_rcu blocks may wait in, to be
 * freed by the thread itself once their grace period ends (0: every
 * batch goes through call_rcu).  Returns the previous value.
 */
unsigned long rculist__reclaim_set_local(unsigned long slots);

RCULIST__END_DECLS

/**
 * rculist_free_rcu - free an object after a grace period, with no callback to write
 * @ptr: the object, returned by malloc() (a typed pointer: its type gives
 *	the field's offset)
 * @rcu_member: the name of its struct rcu_head field
 *
 * free(@ptr) runs once every read-side critical section that began
 * before the call has ended.  The frees are batched: one grace period
 * per batch, not one callback per object.  free() runs in the calling
 * thread, at one of its later rculist_free_rcu() or rculist_call_rcu()
 * calls, for most batches (those whose polled grace period ended), or
 * in liburcu's call_rcu thread, or in rculist_rcu_barrier()'s caller.
 *
 * Context: wherever rculist_call_rcu() may be called (any thread,
 * inside read-side critical sections too); like it, may wait for grace
 * periods outside a section when a limit is set
 * (rculist_reclaim_set_limit()); rculist_rcu_barrier() waits for these
 * frees too.
 */
#define rculist_free_rcu(ptr, rcu_member)     \
	rculist__free_rcu(&(ptr)->rcu_member, \
			  offsetof(RCULIST__POINTEE(ptr), rcu_member))

/* Compile-time flavour choice: the read side inlined (see <rculist/inline.h>). */
#if defined(RCULIST_INLINE_MEMB) || defined(RCULIST_INLINE_QSBR) || \
	defined(RCULIST_INLINE_BP) || defined(RCULIST_INLINE_MB)
#include "inline.h"
#else
#include "read_side.h"
#endif

/* ThreadSanitizer: the read side's exits, with -fsanitize=thread only. */
#include "tsan.h"

#endif /* RCULIST_RUNTIME_H */
