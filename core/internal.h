/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * core/internal.h - the library's hidden calls, each under the file that
 * defines it, from the bottom layer up (HACKING.md, "Layers").
 *
 * A file calls only what is declared in the sections above its own (and
 * the public API of those files); nothing calls up.  Two places where a
 * lower layer must reach a higher one do it through a table the higher
 * one registers, said where it is declared: core/fork.c's fork hooks,
 * and the adapter's hook for a bp thread's first read-side section.
 * `make check-layers` checks the graph of the objects (nm): no cycle.
 */
#ifndef RCULIST_CORE_INTERNAL_H
#define RCULIST_CORE_INTERNAL_H

#include <stdint.h>
#include <time.h>

#define RCULIST__HIDDEN __attribute__((visibility("hidden")))

struct rcu_head;

/*
 * ---------------------------------------------------------------------
 * The flavour adapter: core/bind.h, compiled as flavors/<f>.o.  liburcu's
 * primitives under one prefix, and what only the flavour knows.  It calls
 * nothing in core/.
 */

/* Register/unregister the calling thread with liburcu (memb, qsbr, mb). */
RCULIST__HIDDEN void rculist__flavor_register(void);
RCULIST__HIDDEN void rculist__flavor_unregister(void);
/* The calling thread's reader state (liburcu's), for the stall detector. */
RCULIST__HIDDEN const void *rculist__flavor_reader_state(void);
/* Non-zero if @reader_state holds up the current grace period. */
RCULIST__HIDDEN int rculist__flavor_reader_blocking(const void *reader_state);
/* Whether readers register (memb, qsbr, mb), so can be named. */
RCULIST__HIDDEN int rculist__flavor_has_registry(void);
/* Whether the calling thread is registered; bp registers lazily: always. */
RCULIST__HIDDEN int rculist__flavor_registered(void);
/* Whether read_lock/unlock delimit sections the flavour sees (not qsbr). */
RCULIST__HIDDEN int rculist__flavor_has_sections(void);
/* liburcu's synchronize_rcu(), barrier(), call_rcu() (no fork gate). */
RCULIST__HIDDEN void rculist__flavor_synchronize_rcu(void);
RCULIST__HIDDEN void rculist__flavor_barrier(void);
RCULIST__HIDDEN void rculist__flavor_call_rcu(struct rcu_head *head,
					      void (*func)(struct rcu_head *head));
/*
 * What call_rcu() would do under a lock a forking thread holds (create
 * the default call_rcu thread; bp: register), done before the gate.
 */
RCULIST__HIDDEN void rculist__flavor_call_rcu_ready(void);
/* Whether the caller may wait for a grace period (not reading). */
RCULIST__HIDDEN int rculist__flavor_may_block(void);
/*
 * bp: the hook run once liburcu-bp registered a thread, with its registry
 * slot, by the adapter's first call that finds the thread unregistered
 * (rculist_read_lock() on the thread's first section, or
 * rculist_read_ongoing(), _may_block(), _call_rcu_ready()); set once, by
 * core/thread.c's constructor (it arms the watch of the thread's exit).
 * A registered hook: the registration is the adapter's, the watch above
 * it.  rculist_read_lock() may run in a signal handler: the hook must be
 * async-signal-safe.
 */
RCULIST__HIDDEN void rculist__flavor_on_first_section(void (*hook)(void *slot));
/* bp: register the calling thread, then run the hook (noinline: cold). */
RCULIST__HIDDEN __attribute__((noinline, cold)) void
rculist__flavor_first_section(void);
/*
 * Fill the inline read side's description (<rculist/read_side.h>), once,
 * and read the kind it says (RCULIST__RS_*).
 */
RCULIST__HIDDEN void rculist__flavor_read_side_init(void);
RCULIST__HIDDEN unsigned long rculist__flavor_read_side_kind(void);
/* liburcu's fork hooks: rculist__fork_liburcu() (<rculist/runtime.h>). */

/*
 * ---------------------------------------------------------------------
 * core/spawn.c: start one of rculist's threads, detached, every signal
 * blocked, named @name (15 characters at most): 0 or pthread_create()'s
 * error.
 */
RCULIST__HIDDEN int rculist__thread_start(void *(*fn)(void *), const char *name);

/*
 * ---------------------------------------------------------------------
 * core/pin.c: its constructor keeps the object rculist is linked into
 * mapped; @symbol of the shared library @soname if it is loaded and is
 * not the object this copy of rculist is in (an embedded copy beside
 * it), or NULL.
 */
RCULIST__HIDDEN void rculist__pin_init(void);
RCULIST__HIDDEN void *rculist__other_copy(const char *soname, const char *symbol);

/*
 * ---------------------------------------------------------------------
 * core/report.c: how a misuse is reported (one line on stderr, then the
 * error handler), and what the library can tell of the caller's own
 * read-side critical section.
 */

/* A call site, as debug mode's wrappers record it. */
struct rculist__site {
	const char *op;
	const char *file;
	int line;
};

/* rculist__debug_enter()/_leave() (<rculist/debug_api.h>) record them. */
/* The innermost recorded site, or one naming only @fallback. */
RCULIST__HIDDEN struct rculist__site rculist__current_site(const char *fallback);
/* "rculist: OP(ELEM) at FILE:LINE: DETAIL", then the handler (may return). */
RCULIST__HIDDEN void rculist__report(const struct rculist__site *s,
				     const void *elem, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A pointer as the reports print it: hexadecimal, or NULL. */
struct rculist__ptrbuf {
	char s[24];
};
RCULIST__HIDDEN const char *rculist__ptrstr(struct rculist__ptrbuf *b,
					    const void *p);
/* Read-side sections entered through debug mode's wrappers (core/debug.c). */
RCULIST__HIDDEN extern __thread unsigned long rculist__debug_depth;
/*
 * Whether the calling thread is inside its own read-side critical
 * section, as the library can tell: memb, bp, mb from the flavour's
 * nesting count; qsbr from debug mode's count only.
 */
RCULIST__HIDDEN int rculist__reading(void);
/*
 * @op, a call that cannot wait inside the caller's section, was made
 * there: report it (@why), and abort() if the error handler returns.
 */
RCULIST__HIDDEN void rculist__report_reading(const char *op, const char *why)
	__attribute__((noreturn));

/*
 * ---------------------------------------------------------------------
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
 * A callback of the program's, once run: rculist_rcu_barrier() after it.
 */
RCULIST__HIDDEN void rculist__tsan_handover(void *head);
RCULIST__HIDDEN void rculist__tsan_takeover(void *head);
RCULIST__HIDDEN void rculist__tsan_callback_done(void);

/*
 * ---------------------------------------------------------------------
 * core/stall.c: the grace-period stall detector, fed by its callers.
 */

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
/*
 * A batch was handed to call_rcu: watch batches from now on.  The
 * watchdog then asks @oldest (core/reclaim.c's, registered by this call:
 * a thread of the detector's own polls it) for the oldest batch whose
 * grace period has not ended (0 if none; lock-free).
 */
RCULIST__HIDDEN void
rculist__stall_watch_batches(int (*oldest)(struct timespec *since));

/*
 * ---------------------------------------------------------------------
 * core/fork.c: fork() without exec(), and the call_rcu gate.
 *
 * The modules' fork hooks are a registered table (a lower layer must
 * reach them): each module registers its hooks once, from a constructor,
 * in its slot; fork.c runs the prepare hooks in slot order (the flavour's
 * liburcu hooks and the gate's closing between RCULIST__FORK_POLL and
 * RCULIST__FORK_RECLAIM), the parent's and the child's in reverse.
 */
enum rculist__fork_slot {
	RCULIST__FORK_POLL,    /* before liburcu's locks: core/poll.c */
	RCULIST__FORK_RECLAIM, /* after the gate: core/reclaim.c */
	RCULIST__FORK_STALL,   /* core/stall.c */
	RCULIST__FORK_SLOTS
};
struct rculist__fork_hooks {
	void (*prepare)(void);
	void (*parent)(void);
	void (*child)(void);
};
RCULIST__HIDDEN void
rculist__fork_register(enum rculist__fork_slot slot,
		       const struct rculist__fork_hooks *hooks);
/* The constructor, referenced so that static links pull fork.c in. */
RCULIST__HIDDEN void rculist__fork_init(void);
/*
 * The call_rcu gate, around every rculist call into call_rcu() (and what
 * leads up to it): a fork() waits until no thread is inside.
 */
RCULIST__HIDDEN void rculist__call_rcu_enter(void);
RCULIST__HIDDEN void rculist__call_rcu_leave(void);
/* liburcu's call_rcu(), through the gate (unbatched). */
RCULIST__HIDDEN void rculist__call_rcu_gated(struct rcu_head *head,
					     void (*func)(struct rcu_head *head));

/*
 * ---------------------------------------------------------------------
 * core/gp.c: rculist_synchronize_rcu(), and the sequence of grace periods
 * that polled cookies read.
 */

/*
 * Every grace period rculist waits for takes a ticket as it begins and
 * hands it back once it ended.  rculist__gp_done(): one past the largest
 * ticket whose grace period has ended.
 */
RCULIST__HIDDEN unsigned long rculist__gp_begin(void);
RCULIST__HIDDEN void rculist__gp_end(unsigned long gp_ticket);
RCULIST__HIDDEN unsigned long rculist__gp_done(void);
/* rculist_get_state_synchronize_rcu()'s cookie: one load, inlined by LTO. */
RCULIST__HIDDEN unsigned long rculist__gp_ticket(void);
/*
 * core/poll.c: start the grace period that satisfies the cookie @seq
 * (taken with rculist_get_state_synchronize_rcu()) if nobody asked for
 * it yet: rculist_start_poll_synchronize_rcu() for a cookie taken before,
 * but lazy: a grace-period thread that naps is left to see it (50 us).
 */
RCULIST__HIDDEN void rculist__poll_request(unsigned long seq);
/* Grace periods rculist_synchronize_rcu() waited for. */
RCULIST__HIDDEN unsigned long rculist__gp_count(void);
/* CLOCK_MONOTONIC in nanoseconds (core/reclaim.c's ages, core/poll.c's naps). */
static inline uint64_t rculist__now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
/* Where the sequences start: 100 short of wrapping. */
#define RCULIST__SEQ_INIT ((unsigned long)-100)
/* Whether @a comes after @b, modulo wrap. */
static inline int rculist__seq_after(unsigned long a, unsigned long b)
{
	return (long)(a - b) > 0;
}
/* *@p = @v unless *@p is already @v or after it: non-zero if raised. */
static inline int rculist__seq_raise(unsigned long *p, unsigned long v)
{
	unsigned long cur = __atomic_load_n(p, __ATOMIC_SEQ_CST);

	while (rculist__seq_after(v, cur))
		if (__atomic_compare_exchange_n(p, &cur, v, 0, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return 1;
	return 0;
}
/*
 * A call that waits for a grace period, or for callbacks that do, made
 * inside the caller's own read-side critical section: reported, then
 * abort() if the error handler returns.  Returns if the caller may wait.
 */
RCULIST__HIDDEN void rculist__check_not_reading(const char *op);

/*
 * ---------------------------------------------------------------------
 * core/reclaim.c: blocks per batch handed to call_rcu, and batch slots
 * per thread (see rculist__reclaim_get_stats()).
 */
#define RCULIST__RECLAIM_BATCH 256
#define RCULIST__RECLAIM_SLOTS 16

/*
 * ---------------------------------------------------------------------
 * core/thread.c: rculist_register_thread() and its pair, and the watch
 * of a thread's exit.  Its constructor, referenced by core/gp.c so that
 * static links that wait for grace periods pull it in.
 */
RCULIST__HIDDEN void rculist__thread_init(void);

#endif /* RCULIST_CORE_INTERNAL_H */
