/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * core/bind.h - the runtime API, bound to whichever flavour includes it.
 *
 * A flavour file (flavors/<name>.c) includes <rculist.h>, then its
 * liburcu flavour header under _LGPL_SOURCE (so that liburcu's read side
 * is inlined here, once, rather than called through liburcu's shared
 * library), then defines:
 *
 *   RCULIST__FLAVOR      the flavour's name, as a bare word
 *   RCULIST__URCU(fn)    liburcu's name of operation fn in that flavour
 *   RCULIST__QSBR        1 if readers announce quiescent states
 *   RCULIST__REGISTERS   1 if reader threads must register
 *   RCULIST__FORK_HOOKS  1 if liburcu has urcu_<flavour>_before_fork()
 *                        and its pair (optional, default 0)
 *   RCULIST__MEMBARRIER  1 if liburcu has urcu_<flavour>_has_sys_membarrier
 *                        (optional, default 0)
 *
 * and includes this file.  Nothing below names a flavour.
 *
 * The bottom layer of the library (HACKING.md, "Layers"): an adapter of
 * liburcu's primitives, the inline read side's descriptor and the
 * flavour's constants.  It calls nothing in core/ (`make check-layers`);
 * core/ calls down into it through the hooks declared at the top of
 * core/internal.h.
 */
#ifndef RCULIST_CORE_BIND_H
#define RCULIST_CORE_BIND_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define RCULIST__STR2(x) #x
#define RCULIST__STR(x)	 RCULIST__STR2(x)

/* The library defines the functions <rculist/read_side.h> wraps. */
#undef rculist_read_lock
#undef rculist_read_unlock
#undef rculist_quiescent_state

/*
 * The read side's description that programs compiled before the inline
 * read side (rculist__read_side_v2) read, kept for them: whether
 * read_lock/unlock do anything, and qsbr's grace-period counter, which
 * rculist_quiescent_state() compares with the thread's own counter as the
 * library last stored it (rculist__qs_ctr, kept by every call below that
 * changes liburcu's reader counter).
 */
#if !RCULIST__QSBR
/* No grace-period counter: 0, as every thread's rculist__qs_ctr stays. */
static const unsigned long rculist__no_gp;
#endif
const struct rculist__read_side rculist__read_side = {
	.lock_calls = !RCULIST__QSBR,
#if RCULIST__QSBR
	.qs_gp = &RCULIST__URCU(gp).ctr,
#else
	.qs_gp = &rculist__no_gp,
#endif
};
__thread unsigned long rculist__qs_ctr;
/*
 * The inline read side's description (<rculist/read_side.h>): filled at
 * load time by rculist__flavor_read_side_init() below, in this library and in
 * the program's copy of it (a copy relocation: -Bsymbolic binds this
 * library's own accesses to its own object).  Until then its kind says
 * to call the library.  Defined writable, declared const to programs.
 */
#ifndef RCULIST__MEMBARRIER
#define RCULIST__MEMBARRIER 0 /* liburcu has <flavour>_has_sys_membarrier */
#endif
static struct rculist__read_side_v2 rculist__rs_own = {
	.kind = RCULIST__RS_CALL,
#if RCULIST__QSBR
	.qs_gp = &RCULIST__URCU(gp).ctr,
#else
	.qs_gp = &rculist__no_gp,
#endif
	.owner = &rculist__rs_own,
};
/*
 * Programs name it in assembly (<rculist/read_side.h>): kept under its
 * name by link-time optimisation too.
 */
#ifdef __clang__
#define RCULIST__RS_VISIBLE used
#else
#define RCULIST__RS_VISIBLE used, externally_visible
#endif
extern const struct rculist__read_side_v2 rculist__read_side_v2
	__attribute__((alias("rculist__rs_own"), RCULIST__RS_VISIBLE));

/*
 * What the inline code assumes of liburcu's reader, checked against the
 * headers this library is built with; rculist__flavor_read_side_init() checks it
 * again against the liburcu loaded.  memb, mb: the inline read side;
 * qsbr: the C++ read side, which goes online and offline inline
 * (<rculist/rcu.hpp>); the reader's counter, and the futex after the
 * grace-period counter.
 */
#if RCULIST__REGISTERS
typedef __typeof__(URCU_TLS(RCULIST__URCU(reader))) rculist__urcu_reader;
_Static_assert(__builtin_types_compatible_p(__typeof__(RCULIST__URCU(gp).futex),
					    int32_t) &&
		       sizeof(int32_t) == sizeof(int) &&
		       offsetof(__typeof__(RCULIST__URCU(gp)), futex) ==
			       sizeof(unsigned long) &&
		       offsetof(__typeof__(RCULIST__URCU(gp)), ctr) == 0,
	       "liburcu's grace-period futex is not an int after its counter");
#else
typedef __typeof__(*URCU_TLS(RCULIST__URCU(reader))) rculist__urcu_reader;
#endif
_Static_assert(offsetof(rculist__urcu_reader, ctr) == 0 &&
		       __builtin_types_compatible_p(
			       __typeof__(((rculist__urcu_reader *)0)->ctr),
			       unsigned long),
	       "liburcu's reader counter is not an unsigned long at offset 0");
_Static_assert(__builtin_types_compatible_p(__typeof__(RCULIST__URCU(gp).ctr),
					    unsigned long),
	       "liburcu's grace-period counter is not an unsigned long");
#if RCULIST__REGISTERS && !RCULIST__QSBR
/*
 * The inline lock tests the registered bit (bit 0 of the first bit-field,
 * after the thread id) in the byte RCULIST__RS_REG_OFF past the counter;
 * rculist__rs_check() finds the bit there too.
 */
_Static_assert(offsetof(rculist__urcu_reader, tid) +
			       sizeof(((rculist__urcu_reader *)0)->tid) ==
		       RCULIST__RS_REG_OFF,
	       "liburcu's registered bit is not where <rculist/read_side.h> "
	       "looks");

/* Whether setting the bit-field sets bit 0 of that byte, and only it. */
static int rculist__rs_reg_bit_ok(void)
{
	rculist__urcu_reader r;
	const unsigned char *b;

	memset(&r, 0, sizeof(r));
	r.registered = 1;
	b = (const unsigned char *)&r;
	for (size_t i = 0; i < sizeof(r); i++)
		if (b[i] != (i == RCULIST__RS_REG_OFF))
			return 0;
	return 1;
}
#endif
#if RCULIST__QSBR
/*
 * The counter the inline code finds must be the one liburcu reads: while
 * it is not 0 the thread is online to liburcu (a thread offline or
 * unregistered here, a constructor's).
 */
static int rculist__rs_check(const struct rculist__read_side_v2 *d)
{
	unsigned long *ctr =
		(unsigned long *)((char *)__builtin_thread_pointer() + d->reader);
	int on, off;

	if (*ctr)
		return 1; /* online already: nothing to change */
	*ctr = 1;
	on = RCULIST__URCU(read_ongoing)();
	*ctr = 0;
	off = RCULIST__URCU(read_ongoing)();
	return on && !off;
}
#else
#if RCULIST__REGISTERS
#define RCULIST__URCU_NEST  URCU_GP_CTR_NEST_MASK
#define RCULIST__URCU_COUNT URCU_GP_COUNT
#else
#define RCULIST__URCU_NEST  URCU_BP_GP_CTR_NEST_MASK
#define RCULIST__URCU_COUNT URCU_BP_GP_COUNT
#endif
_Static_assert(RCULIST__URCU_NEST == RCULIST__RS_NEST && RCULIST__URCU_COUNT == 1,
	       "liburcu's reader counter nests otherwise");

/* liburcu's own read side, out of line: what the load-time check runs. */
void rculist__urcu_lock_fn(void) __asm__(
	"urcu_" RCULIST__STR(RCULIST__FLAVOR) "_read_lock");
void rculist__urcu_unlock_fn(void) __asm__(
	"urcu_" RCULIST__STR(RCULIST__FLAVOR) "_read_unlock");

static unsigned long *rculist__rs_counter(const struct rculist__read_side_v2 *d)
{
	char *tp = __builtin_thread_pointer();

#if RCULIST__REGISTERS
	return (unsigned long *)(tp + d->reader);
#else
	unsigned long *slot;

	memcpy(&slot, tp + d->reader, sizeof(slot));
	return slot;
#endif
}

/*
 * liburcu's out-of-line lock must count one more in the counter the
 * inline code finds (bp: and register the thread), its unlock one less.
 */
static int rculist__rs_check(const struct rculist__read_side_v2 *d)
{
	unsigned long *ctr = rculist__rs_counter(d);
	unsigned long before = ctr ? *ctr & RCULIST__RS_NEST : 0, in, after;

	rculist__urcu_lock_fn();
	ctr = rculist__rs_counter(d);
	if (!ctr)
		return 0;
	in = *ctr & RCULIST__RS_NEST;
	rculist__urcu_unlock_fn();
	after = *ctr & RCULIST__RS_NEST;
#if RCULIST__REGISTERS
	if (!rculist__rs_reg_bit_ok() ||
	    (((const unsigned char *)ctr)[RCULIST__RS_REG_OFF] & 1) !=
		    URCU_TLS(RCULIST__URCU(reader)).registered)
		return 0;
#endif
	return in == before + 1 && after == before;
}
#endif

/* <dlfcn.h> declares these only to _GNU_SOURCE, which comes too late here. */
extern void *dlvsym(void *handle, const char *symbol, const char *version);
#ifndef RTLD_DEFAULT
#define RTLD_DEFAULT ((void *)0)
#endif
#ifndef RTLD_NOLOAD
#define RTLD_NOLOAD 0x00004
#endif

/* The program's copy of the description, if it has one. */
static void *rculist__rs_program_copy(void)
{
	const char *name = RCULIST__STR(RCULIST__FLAVOR);
	char node[32] = "RCULIST_";
	size_t n = strlen(node);
	void *(*open)(const char *file, int mode) = NULL;
	void *sym, *program, *copy;

	for (; *name && n < sizeof(node) - 8; name++)
		node[n++] = (char)(*name >= 'a' && *name <= 'z' ? *name - 32 :
								  *name);
	snprintf(node + n, sizeof(node) - n, "_%d", RCULIST_VERSION_MAJOR);
	/*
	 * Looked up in the program's scope: from this -Bsymbolic library,
	 * RTLD_DEFAULT would find this library's own first.  dlopen() is
	 * found, not named (see core/pin.c): a static program has no copy.
	 */
	sym = dlsym(RTLD_DEFAULT, "dlopen");
	memcpy(&open, &sym, sizeof(open));
	program = open ? open(NULL, RTLD_LAZY | RTLD_NOLOAD) : NULL;
	if (!program)
		return NULL;
	copy = dlvsym(program, "rculist__read_side_v2", node);
	dlclose(program);
	if (!copy || copy == &rculist__rs_own ||
	    ((struct rculist__read_side_v2 *)copy)->owner != &rculist__rs_own)
		return NULL; /* none, or another library's */
	return copy;
}

static void rculist__rs_publish(struct rculist__read_side_v2 *to,
				const struct rculist__read_side_v2 *d)
{
	to->reader = d->reader;
	to->gp = d->gp;
	__atomic_store_n(&to->kind, d->kind, __ATOMIC_RELEASE);
}

/*
 * Fills the description once: from this library's constructor, or before
 * that from core/jump.c when a static program's constructor runs first.
 */
void rculist__flavor_read_side_init(void)
{
	static int done;
	struct rculist__read_side_v2 d = rculist__rs_own;
	void *copy;

	if (__atomic_exchange_n(&done, 1, __ATOMIC_ACQ_REL))
		return;

#if RCULIST__QSBR
	d.reader = (char *)&URCU_TLS(RCULIST__URCU(reader)) -
		   (char *)__builtin_thread_pointer();
	d.gp = &RCULIST__URCU(gp).ctr;
	if (!rculist__rs_check(&d)) {
		fprintf(stderr,
			"rculist: liburcu-qsbr's reader is not laid out as "
			"librculist-qsbr was built for: rebuild rculist against "
			"the liburcu installed\n");
		abort();
	}
	d.kind = RCULIST__RS_QSBR;
#elif RCULIST__RS_INLINE
#if RCULIST__REGISTERS
	RCULIST__URCU(init)(); /* decides on sys_membarrier */
	d.reader = (char *)&URCU_TLS(RCULIST__URCU(reader)) -
		   (char *)__builtin_thread_pointer();
#else
	d.reader = (char *)&URCU_TLS(RCULIST__URCU(reader)) -
		   (char *)__builtin_thread_pointer();
#endif
	d.gp = &RCULIST__URCU(gp).ctr;
	/* bp: registers the thread, and so initialises liburcu. */
	if (!rculist__rs_check(&d)) {
		fprintf(stderr,
			"rculist: liburcu-%s's reader is not laid out as "
			"librculist-%s was built for: rebuild rculist against "
			"the liburcu installed\n",
			RCULIST__STR(RCULIST__FLAVOR),
			RCULIST__STR(RCULIST__FLAVOR));
		abort();
	}
#if RCULIST__MEMBARRIER
	if (!RCULIST__URCU(has_sys_membarrier))
		d.kind = RCULIST__REGISTERS ? RCULIST__RS_FENCED :
					      RCULIST__RS_CALL;
	else
		d.kind = RCULIST__REGISTERS ? RCULIST__RS_MEMB : RCULIST__RS_BP;
#else
	d.kind = RCULIST__RS_FENCED;
#endif
#endif
	copy = rculist__rs_program_copy();
	rculist__rs_publish(&rculist__rs_own, &d);
	if (copy)
		rculist__rs_publish(copy, &d);
}

__attribute__((constructor)) static void rculist__read_side_init(void)
{
	rculist__flavor_read_side_init();
}

/* The kind the description says, once filled. */
unsigned long rculist__flavor_read_side_kind(void)
{
	return __atomic_load_n(&rculist__rs_own.kind, __ATOMIC_ACQUIRE);
}

/* A grace period waits on the futex: wake it (memb, mb). */
void rculist__read_side_wake(void)
{
#if RCULIST__QSBR
	RCULIST__URCU(wake_up_gp)(); /* a thread gone offline inline (C++) */
#elif RCULIST__REGISTERS
	urcu_common_wake_up_gp(&RCULIST__URCU(gp));
#endif
}

static inline void rculist__qs_sync(void)
{
#if RCULIST__QSBR
	rculist__qs_ctr = URCU_TLS(RCULIST__URCU(reader)).ctr;
#endif
}

/*
 * Defined by this flavour's library alone: a program compiled with
 * -DRCULIST_INLINE_<FLAVOR> refers to it (<rculist/inline.h>), so linking
 * it with another flavour's library fails at link time, naming it.
 */
const int RCULIST__CAT(rculist_flavor_is_, RCULIST__FLAVOR) = 1;

const char *rculist_flavor_name(void)
{
	return RCULIST__STR(RCULIST__FLAVOR);
}

void rculist__flavor_register(void)
{
#if RCULIST__REGISTERS
	RCULIST__URCU(register_thread)();
	rculist__qs_sync();
#endif
}

void rculist__flavor_unregister(void)
{
#if RCULIST__REGISTERS
	RCULIST__URCU(unregister_thread)();
	rculist__qs_ctr = 0;
#endif
}

const void *rculist__flavor_reader_state(void)
{
#if RCULIST__REGISTERS
	return &URCU_TLS(RCULIST__URCU(reader));
#else
	return NULL;
#endif
}

/*
 * The stall detector's view of a registered reader: does it hold up the
 * grace period in progress?  qsbr: online, and its counter is not the
 * current one (no quiescent state since the grace period began).  memb:
 * inside a read-side critical section entered in the other phase.  A
 * racy snapshot, which is all a report needs.
 */
int rculist__flavor_reader_blocking(const void *reader_state)
{
#if RCULIST__REGISTERS
	const __typeof__(URCU_TLS(RCULIST__URCU(reader))) *r = reader_state;
	unsigned long ctr = __atomic_load_n(&r->ctr, __ATOMIC_RELAXED);
	unsigned long gp =
		__atomic_load_n(&RCULIST__URCU(gp).ctr, __ATOMIC_RELAXED);

#if RCULIST__QSBR
	return ctr && ctr != gp;
#else
	return (ctr & URCU_GP_CTR_NEST_MASK) && ((ctr ^ gp) & URCU_GP_CTR_PHASE);
#endif
#else
	(void)reader_state;
	return 0;
#endif
}

/*
 * liburcu's fork hooks: its call_rcu hooks in every flavour, and the
 * flavour's own where it has them (RCULIST__FORK_HOOKS:
 * urcu_<flavour>_before_fork and its pair).  They must run once per
 * fork() however many copies of this flavour's rculist the process holds
 * (core/pin.c): core/fork.c calls the shared library's when another copy
 * is that library, this copy's otherwise.  The first call of a fork
 * pauses liburcu's call_rcu threads (and takes bp's locks); the first
 * after-fork call resumes them.
 */
#ifndef RCULIST__FORK_HOOKS
#define RCULIST__FORK_HOOKS 0
#endif

void rculist__fork_liburcu(int phase)
{
	static int paused;

	if (phase == RCULIST__FORK_PREPARE && !paused) {
		RCULIST__URCU(call_rcu_before_fork)();
#if RCULIST__FORK_HOOKS
		RCULIST__URCU(before_fork)();
#endif
		paused = 1;
	} else if (phase == RCULIST__FORK_PARENT && paused) {
#if RCULIST__FORK_HOOKS
		RCULIST__URCU(after_fork_parent)();
#endif
		RCULIST__URCU(call_rcu_after_fork_parent)();
		paused = 0;
	} else if (phase == RCULIST__FORK_CHILD && paused) {
#if RCULIST__FORK_HOOKS
		RCULIST__URCU(after_fork_child)();
#endif
		RCULIST__URCU(call_rcu_after_fork_child)();
		paused = 0;
	}
}

/*
 * bp: liburcu-bp registers the calling thread in whichever of its calls
 * first finds it unregistered (read_lock, read_ongoing, call_rcu).  The
 * adapter's calls that lead there register it first, through
 * rculist__flavor_first_section() (below), which runs the hook.
 */
#if RCULIST__REGISTERS
#define RCULIST__BP_FIRST() ((void)0)
#else
#define RCULIST__BP_FIRST()                               \
	(caa_unlikely(!URCU_TLS(RCULIST__URCU(reader))) ? \
		 rculist__flavor_first_section() :        \
		 (void)0)
#endif

/*
 * The read side.  Declared inline (still external definitions: the
 * declarations in <rculist/runtime.h> are not): a program linked with
 * -flto against the archive's LTO code then gets them inlined as
 * liburcu's own static inline read side is.  Without the hint gcc
 * inlines a function only under --param max-inline-insns-auto, which
 * memb's read_unlock and qsbr's quiescent_state exceed: they carry
 * liburcu's wake-up of a waiting grace period (a futex call), cold code
 * that counts towards the limit.
 */
inline void rculist_read_lock(void)
{
	RCULIST__BP_FIRST();
	RCULIST__URCU(read_lock)();
}

inline void rculist_read_unlock(void)
{
	RCULIST__URCU(read_unlock)();
}

inline int rculist_read_ongoing(void)
{
	RCULIST__BP_FIRST();
	return RCULIST__URCU(read_ongoing)();
}

inline void rculist_quiescent_state(void)
{
#if RCULIST__QSBR
	RCULIST__URCU(quiescent_state)();
	rculist__qs_sync();
#endif
}

void rculist_thread_offline(void)
{
#if RCULIST__QSBR
	RCULIST__URCU(thread_offline)();
	rculist__qs_sync();
#endif
}

void rculist_thread_online(void)
{
#if RCULIST__QSBR
	RCULIST__URCU(thread_online)();
	rculist__qs_sync();
#endif
}

#if RCULIST__QSBR
/*
 * exit() in a thread registered and online (most often the main thread
 * returning from main()): liburcu 0.15's destructor stops each call_rcu
 * thread and waits for it, and one in the middle of a grace period waits
 * for this thread, which announces no quiescent state again: both wait
 * for ever (seen in tests/unit under qsbr against liburcu 0.15.6, one run
 * in three, at the exit of a test process).  The program's own
 * destructors and atexit handlers have run (it depends on this library:
 * finalised first); what runs after this reads none of its RCU data.
 * Offline, the thread holds no grace period up.  A static program's
 * destructors run in link order reversed, liburcu's first: there this
 * runs too late, and such a program goes offline before exit() itself.
 */
__attribute__((destructor)) static void rculist__qsbr_exit(void)
{
	if (RCULIST__URCU(read_ongoing)())
		rculist_thread_offline();
}
#endif

void rculist__flavor_synchronize_rcu(void)
{
	RCULIST__URCU(synchronize_rcu)();
}

/* liburcu's call_rcu(); core/fork.c's gate is the caller's. */
void rculist__flavor_call_rcu(struct rcu_head *head,
			      void (*func)(struct rcu_head *head))
{
	RCULIST__URCU(call_rcu)(head, func);
}

/*
 * Whether the calling thread may wait for a grace period: outside any
 * read-side critical section (qsbr: offline or unregistered, a registered
 * online thread being inside one between its quiescent states), and not
 * a call_rcu thread of liburcu's (a callback queued with liburcu's own
 * call_rcu() that frees through rculist: the grace periods it would wait
 * for end only when its thread runs callbacks again).
 */
int rculist__flavor_may_block(void)
{
	RCULIST__BP_FIRST();
	return !RCULIST__URCU(read_ongoing)() &&
	       !RCULIST__URCU(get_thread_call_rcu_data)();
}

/*
 * Outside the gate, before each entry: call_rcu() creates the default
 * call_rcu thread under call_rcu_mutex the first time, and bp's call_rcu
 * registers the thread under bp's registry lock; the forking thread
 * holds both while it waits for the gate to empty.  Once done, each is
 * one load.  This runs also in a thread's exit (core/reclaim.c hands its
 * last batch off from a pthread key destructor), where the hook's watch
 * runs in glibc's next round of destructors.
 */
void rculist__flavor_call_rcu_ready(void)
{
	(void)RCULIST__URCU(get_default_call_rcu_data)();
	RCULIST__BP_FIRST();
}

void rculist__flavor_barrier(void)
{
	RCULIST__URCU(barrier)();
}

/* What only the flavour knows (core/debug.c, core/stall.c, ...). */

/* Whether the calling thread is registered; bp registers lazily: always. */
int rculist__flavor_registered(void)
{
#if RCULIST__REGISTERS
	return URCU_TLS(RCULIST__URCU(reader)).registered;
#else
	return 1;
#endif
}

int rculist__flavor_has_registry(void)
{
	return RCULIST__REGISTERS;
}

/* Whether read_lock/unlock delimit sections the flavour sees (not qsbr). */
int rculist__flavor_has_sections(void)
{
	return !RCULIST__QSBR;
}

/*
 * bp: a thread's first read-side critical section registers it, then
 * runs the hook core/thread.c registered (it watches the thread's exit)
 * with the thread's registry slot.  Async-signal-safe as liburcu-bp's
 * own registration is (the hook must be too).
 */
static void (*rculist__first_section_hook)(void *slot);

void rculist__flavor_on_first_section(void (*hook)(void *slot))
{
	__atomic_store_n(&rculist__first_section_hook, hook, __ATOMIC_RELEASE);
}

#if !RCULIST__REGISTERS
void rculist__flavor_first_section(void)
{
	void (*hook)(void *slot) =
		__atomic_load_n(&rculist__first_section_hook, __ATOMIC_ACQUIRE);

	RCULIST__URCU(register)();
	if (hook && URCU_TLS(RCULIST__URCU(reader)))
		hook(URCU_TLS(RCULIST__URCU(reader)));
}
#endif

/* The inline read side's dispatch sites, patched at load time. */
#include "jump.h"

#endif /* RCULIST_CORE_BIND_H */
