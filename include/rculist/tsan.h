/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/tsan.h - the read side's exits, told to ThreadSanitizer.
 *
 * Compiled with -fsanitize=thread (gcc's __SANITIZE_THREAD__, clang's
 * __has_feature(thread_sanitizer)), a program's rculist_read_unlock(),
 * rculist_quiescent_state() and rculist_thread_offline() first tell
 * ThreadSanitizer that the thread leaves its read-side critical section
 * (a release, which the library acquires once a grace period has ended:
 * see core/tsan.c); rculist_poll_state_synchronize_rcu() acquires when
 * it says yes; rculist_free_rcu() orders what the caller wrote into the
 * block before its free, wherever that runs; rculist_call_rcu() queues
 * the callback through a trampoline that acquires before it runs.  Each goes through a
 * function of the library the program links, -lrculist-<flavour> as
 * always (it is not rebuilt for ThreadSanitizer).
 *
 * Without -fsanitize=thread nothing here is compiled: the read side is
 * the same, instruction for instruction (make check-tsan compares the
 * object code with and without this file).
 *
 * Included at the end of <rculist/runtime.h>; do not include it directly.
 */
#ifndef RCULIST_TSAN_H
#define RCULIST_TSAN_H

/* TSAN-BEGIN: everything below to TSAN-END is for -fsanitize=thread. */
#if defined(__SANITIZE_THREAD__)
#define RCULIST__TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RCULIST__TSAN 1
#endif
#endif

#ifdef RCULIST__TSAN
RCULIST__BEGIN_DECLS
/* The library's (core/tsan.c); internal, for this header only. */
void rculist__tsan_read_unlock(void);
void rculist__tsan_quiescent_state(void);
void rculist__tsan_thread_offline(void);
int rculist__tsan_poll_state_synchronize_rcu(struct rculist_gp_cookie cookie);
void rculist__tsan_free_rcu(struct rcu_head *head, size_t offset);
void rculist__tsan_call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head));
RCULIST__END_DECLS

/*
 * Whatever the names meant so far (the library's functions, or the
 * inline read side of RCULIST_INLINE_<FLAVOUR>, which shares its reader
 * state with the library), under ThreadSanitizer they are the library's,
 * after a release.  Debug mode (<rculist/debug_api.h>) replaces the
 * read-side ones again; its checking functions make the same release.
 */
#undef rculist_read_unlock
#undef rculist_quiescent_state
#undef rculist_thread_offline
#define rculist_read_unlock			rculist__tsan_read_unlock
#define rculist_quiescent_state			rculist__tsan_quiescent_state
#define rculist_thread_offline			rculist__tsan_thread_offline
#define rculist_poll_state_synchronize_rcu	rculist__tsan_poll_state_synchronize_rcu
#define rculist__free_rcu			rculist__tsan_free_rcu
#define rculist_call_rcu			rculist__tsan_call_rcu
#endif /* RCULIST__TSAN */
/* TSAN-END */

#endif /* RCULIST_TSAN_H */
