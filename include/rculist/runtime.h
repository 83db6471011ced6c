/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/runtime.h - the flavour-neutral RCU runtime.
 *
 * Every flavour library (-lrculist-memb, -lrculist-qsbr, -lrculist-bp)
 * exports these functions under the same names, so one object file
 * written against them links with any of the three.  Calls a flavour
 * does not need are cheap no-ops there:
 *
 *                          memb        qsbr             bp
 *   register_thread        required    required         no-op (lazy)
 *   read_lock/unlock       real        no-op            real
 *   quiescent_state        no-op       required often   no-op
 *   thread_offline/online  no-op       around blocking  no-op
 *
 * so a program that registers its reader threads, brackets its reads
 * with read_lock/unlock and announces quiescent states between them is
 * correct under all three.
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
 * The runtime calls are resolved through the GOT rather than a PLT stub
 * where the compiler allows it: one indirect call instead of two jumps.
 */
#if defined(__has_attribute)
#if __has_attribute(noplt)
#define RCULIST__NOPLT	__attribute__((noplt))
#endif
#endif
#ifndef RCULIST__NOPLT
#define RCULIST__NOPLT
#endif

RCULIST__BEGIN_DECLS

/* The library's version, "MAJOR.MINOR.PATCH" (see <rculist/version.h>). */
const char *rculist_version(void);

/* The flavour the program is linked with: "memb", "qsbr" or "bp". */
const char *rculist_flavor_name(void);

/*
 * Reader threads: register before the first read-side critical section
 * (memb, qsbr; bp registers lazily), unregister before exiting (a thread
 * that exits registered is unregistered at thread exit).
 */
void rculist_register_thread(void) RCULIST__NOPLT;
void rculist_unregister_thread(void) RCULIST__NOPLT;

/* Read-side critical sections; they nest. */
void rculist_read_lock(void) RCULIST__NOPLT;
void rculist_read_unlock(void) RCULIST__NOPLT;
/* Non-zero inside a read-side critical section (qsbr: while online). */
int rculist_read_ongoing(void) RCULIST__NOPLT;

/*
 * QSBR: a registered thread announces, outside any critical section, that
 * it holds no reference to RCU-protected data; offline/online bracket
 * blocking calls during which it reads nothing.  No-ops elsewhere.
 */
void rculist_quiescent_state(void) RCULIST__NOPLT;
void rculist_thread_offline(void) RCULIST__NOPLT;
void rculist_thread_online(void) RCULIST__NOPLT;

/*
 * Wait until every read-side critical section that began before the call
 * has ended.  Blocks; never call it inside a read-side critical section
 * (memb and bp deadlock, qsbr silently ends the section).
 */
void rculist_synchronize_rcu(void);

/*
 * Run @func(@head) after a grace period, from a helper thread.  Callable
 * from any thread, inside read-side critical sections too.
 */
void rculist_call_rcu(struct rcu_head *head,
		      void (*func)(struct rcu_head *head));

/*
 * Wait until every callback queued before the call has run.  Blocks;
 * never call it inside a read-side critical section.
 *
 * Both blocking calls, and the splices that wait for a grace period,
 * report a call made inside the caller's own read-side critical section
 * under memb and bp (and under qsbr in debug mode) with one line on
 * stderr, then call the error handler (<rculist/debug_api.h>, abort() by
 * default), and return at once if it returns.
 */
void rculist_rcu_barrier(void);

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
 * Internal: report @op, a blocking call, if made inside the caller's
 * read-side critical section; non-zero if it must not go on.
 */
int rculist__not_reading(const char *op);

/* Free @ptr's block after a grace period; see rculist_free_rcu(). */
void rculist__free_rcu(struct rcu_head *head, size_t offset);

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
};
void rculist__reclaim_read_stats(struct rculist__reclaim_stats *st,
				 int reset_peak);

RCULIST__END_DECLS

/**
 * rculist_free_rcu - free(@ptr) after a grace period, with no callback to
 * write.  @ptr was returned by malloc(); @rcu_member names its
 * struct rcu_head field.  Callable wherever rculist_call_rcu() is.
 * rculist_rcu_barrier() waits for these frees too.
 */
#define rculist_free_rcu(ptr, rcu_member)				\
	rculist__free_rcu(&(ptr)->rcu_member,				\
			  offsetof(RCULIST__POINTEE(ptr), rcu_member))

/* Compile-time flavour choice: the read side inlined (see <rculist/inline.h>). */
#if defined(RCULIST_INLINE_MEMB) || defined(RCULIST_INLINE_QSBR) || defined(RCULIST_INLINE_BP)
#include "inline.h"
#endif

#endif /* RCULIST_RUNTIME_H */
