/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/debug_api.h - consistency checks, error reports, debug mode.
 *
 * Always available:
 *   rculist_list_check(head), rculist_hlist_check(head)
 *	walk a whole list and report its first inconsistency; return
 *	non-zero if the list is sound.
 *   rculist_set_error_handler(handler)
 *	what happens after a report (abort() by default).
 *
 * With -DRCULIST_DEBUG (the whole program, or at least every file that
 * updates or reads a given list, compiled with it), the public list
 * operations, RCU iterators and accessors, and the read-side runtime
 * calls become macros that record their name and call site, then call
 * the real (checked) inline function or a checking variant of the
 * runtime call.  A misuse is reported as one line on stderr:
 *
 *   rculist: cds_list_del(0x55d0c3a0) at server.c:212: prev->next is
 *   0x55d0c400, expected 0x55d0c3a0 (double delete?)
 *
 * then the error handler is called.
 *
 * Debug mode counts, per thread, the sections opened with its
 * rculist_read_lock(), in every flavour: an RCU iterator or accessor
 * used outside one is reported under qsbr exactly as under memb, bp and
 * mb, so a program tested under one flavour is checked against the
 * contract of all four.  (Under qsbr a section opened in a file compiled
 * without RCULIST_DEBUG is not counted.)
 *
 * Always, debug mode or not: rculist_synchronize_rcu(),
 * rculist_cond_synchronize_rcu(), rculist_rcu_barrier() and the splices
 * that wait for a grace period, called inside the caller's own read-side
 * critical section, are reported under memb, bp and mb (qsbr: inside a
 * section counted by debug mode) instead of deadlocking.
 *
 * Included at the end of <rculist.h>,
 * after every real definition, so that the wrappers' own uses of the
 * names reach the inline functions.
 */
#ifndef RCULIST_DEBUG_API_H
#define RCULIST_DEBUG_API_H

#include "compiler.h"
#include "types.h"

RCULIST__BEGIN_DECLS

/**
 * struct rculist_error - one report of debug mode or of a checker, as handed to the error handler
 *
 * message is the whole line written to stderr ("rculist: ...", without
 * the newline); op the operation ("cds_list_del",
 * "rculist_read_unlock", ...); file and line its call site (file NULL
 * if none was recorded); elem the element or head concerned, or NULL.
 *
 * Context: valid during the handler's call only; the strings are the
 * library's.
 */
struct rculist_error {
	const char *message;	/* the whole line, "rculist: ...", no '\n' */
	const char *op;		/* "cds_list_del", "rculist_read_unlock", ... */
	const char *file;	/* the call site, or NULL if none was recorded */
	int line;
	const void *elem;	/* the element or head concerned, or NULL */
};

/**
 * rculist_error_handler - the type of an error handler
 *
 * Called after each report has been written to stderr.  Returning
 * continues the program: the reported call goes on as written (for a
 * corrupted list it may well crash; an unmatched rculist_read_unlock()
 * and the blocking or quiescent calls made inside a read-side critical
 * section are skipped instead), and the checkers return 0.  A handler may
 * also longjmp() out (the checks run before anything is written, so the
 * list is left as it was), or abort().
 *
 * Context: called in the thread that made the reported call, possibly
 * inside a read-side critical section or with the caller's update lock
 * held.
 */
typedef void rculist_error_handler(const struct rculist_error *err);

/**
 * rculist_set_error_handler - choose what happens after a report
 * @handler: called with each report, for every thread; NULL restores
 *	the default, abort()
 *
 * Context: any thread, at any time; the change is seen by reports made
 * after it returns.
 * Return: the previous handler (NULL for the default).
 */
rculist_error_handler *rculist_set_error_handler(rculist_error_handler *handler);

/**
 * rculist_list_check - check a whole circular list
 * @head: the list head
 *
 * Walks the list forwards and then backwards, checking that every
 * link's partner leads back, that no link is NULL or poisoned, and that
 * both walks meet the same number of elements.  A cycle that never
 * comes back to @head is reported, not followed forever.  The first
 * inconsistency is reported as in debug mode (one line on stderr, then
 * the error handler), with the caller's file and line: it is a macro
 * over a function.  Works with or without -DRCULIST_DEBUG.
 *
 * Context: the caller keeps updaters away (it holds the update lock);
 * it need not be a reader: it is a plain walk.
 * Return: 1 if the list is sound, 0 after a report.
 */
int rculist_list_check(const struct cds_list_head *head);
/**
 * rculist_hlist_check - check a whole linear list
 * @head: the list head
 *
 * Walks the list, checking that every node's prev leads back to the
 * node or head before it and that no link is poisoned; a cycle is
 * reported, not followed forever.  Reports as rculist_list_check().
 *
 * Context: the caller keeps updaters away.
 * Return: 1 if the list is sound, 0 after a report.
 */
int rculist_hlist_check(const struct cds_hlist_head *head);

/* The same, reporting the call site @file:@line; see the macros below. */
int rculist__list_check_at(const struct cds_list_head *head,
			   const char *file, int line);
int rculist__hlist_check_at(const struct cds_hlist_head *head,
			    const char *file, int line);

/* Debug mode: the call-site record and the checking runtime calls. */
void rculist__debug_enter(const char *op, const char *file, int line);
void rculist__debug_leave(void);
/* Declared for clang's thread-safety analysis as the calls they check. */
void rculist__debug_reader_at(const char *op, const char *file, int line)
	RCULIST_REQUIRES_RCU;
void rculist__debug_blocking_at(const char *op, const char *file, int line);
void rculist__debug_read_lock(const char *file, int line) RCULIST_ACQUIRES_RCU;
void rculist__debug_read_unlock(const char *file, int line) RCULIST_RELEASES_RCU;
void rculist__debug_quiescent_state(const char *file, int line)
	RCULIST_EXCLUDES_RCU;
void rculist__debug_thread_offline(const char *file, int line)
	RCULIST_EXCLUDES_RCU;
void rculist__debug_synchronize_rcu(const char *file, int line)
	RCULIST_EXCLUDES_RCU;
void rculist__debug_rcu_barrier(const char *file, int line) RCULIST_EXCLUDES_RCU;
void rculist__debug_cond_synchronize_rcu(struct rculist_gp_cookie cookie,
					 const char *file, int line)
	RCULIST_EXCLUDES_RCU;

RCULIST__END_DECLS

/* The checkers report where they were called from, with or without the switch. */
#define rculist_list_check(head)	rculist__list_check_at(head, __FILE__, __LINE__)
#define rculist_hlist_check(head)	rculist__hlist_check_at(head, __FILE__, __LINE__)

#ifdef RCULIST_DEBUG

/*
 * An update operation: record the name and call site for the checks the
 * inline function makes, call it, forget the record.  Records nest, so
 * an argument that is itself a wrapped call leaves the outer one intact.
 * Every argument is evaluated once, by the inline function's call.
 */
#define RCULIST__DEBUG_OP(name, call)					\
	(rculist__debug_enter(#name, __FILE__, __LINE__), (call),	\
	 rculist__debug_leave())
/*
 * An operation that waits for a grace period: the library reports it
 * inside a reader (with or without debug mode), at the site recorded.
 */
#define RCULIST__DEBUG_BLOCKING_OP(name, call) RCULIST__DEBUG_OP(name, call)
/*
 * An RCU accessor: the record is used, and dropped, by the
 * RCULIST__CHECK_READER() of the inline function it calls.
 */
#define RCULIST__DEBUG_READ(name, call)					\
	(rculist__debug_enter(#name, __FILE__, __LINE__), (call))
/*
 * An RCU iterator: a one-pass outer loop records the site, and the
 * RCULIST__CHECK_READER() in the real loop's initialisation uses and
 * drops it.  break leaves the real loop, and then the outer one; continue
 * belongs to the real loop.
 */
#define RCULIST__DEBUG_ITER(name)					\
	RCULIST__DEBUG_ITER_(name, RCULIST__UNIQ(once))
#define RCULIST__DEBUG_ITER_(name, _o)					\
	for (int _o = (rculist__debug_enter(#name, __FILE__, __LINE__), 1); \
	     _o; _o = 0)

/*
 * <rculist/list.h>.  After liburcu's <urcu/list.h> (see
 * <rculist/urcu_shadow.h>) the names it shares with rculist are
 * object-like macros already: those calls are checked all the same, and
 * reported without their call site.
 */
#ifndef cds_list_add
#define cds_list_add(newp, head)					\
	RCULIST__DEBUG_OP(cds_list_add, cds_list_add(newp, head))
#endif
#ifndef cds_list_add_tail
#define cds_list_add_tail(newp, head)					\
	RCULIST__DEBUG_OP(cds_list_add_tail, cds_list_add_tail(newp, head))
#endif
#ifndef cds_list_del
#define cds_list_del(elem)						\
	RCULIST__DEBUG_OP(cds_list_del, cds_list_del(elem))
#endif
#ifndef cds_list_del_init
#define cds_list_del_init(elem)						\
	RCULIST__DEBUG_OP(cds_list_del_init, cds_list_del_init(elem))
#endif
#ifndef cds_list_replace
#define cds_list_replace(old, newp)					\
	RCULIST__DEBUG_OP(cds_list_replace, cds_list_replace(old, newp))
#endif
#ifndef cds_list_replace_init
#define cds_list_replace_init(old, newp)				\
	RCULIST__DEBUG_OP(cds_list_replace_init, cds_list_replace_init(old, newp))
#endif
#define cds_list_swap(a, b)						\
	RCULIST__DEBUG_OP(cds_list_swap, cds_list_swap(a, b))
#ifndef cds_list_move
#define cds_list_move(elem, head)					\
	RCULIST__DEBUG_OP(cds_list_move, cds_list_move(elem, head))
#endif
#define cds_list_move_tail(elem, head)					\
	RCULIST__DEBUG_OP(cds_list_move_tail, cds_list_move_tail(elem, head))
#ifndef cds_list_splice
#define cds_list_splice(add, head)					\
	RCULIST__DEBUG_OP(cds_list_splice, cds_list_splice(add, head))
#endif
#define cds_list_splice_tail(add, head)					\
	RCULIST__DEBUG_OP(cds_list_splice_tail, cds_list_splice_tail(add, head))
#define cds_list_splice_init(add, head)					\
	RCULIST__DEBUG_OP(cds_list_splice_init, cds_list_splice_init(add, head))
#define cds_list_splice_tail_init(add, head)				\
	RCULIST__DEBUG_OP(cds_list_splice_tail_init,			\
			  cds_list_splice_tail_init(add, head))
#define cds_list_rotate_left(head)					\
	RCULIST__DEBUG_OP(cds_list_rotate_left, cds_list_rotate_left(head))
#define cds_list_rotate_to_front(elem, head)				\
	RCULIST__DEBUG_OP(cds_list_rotate_to_front,			\
			  cds_list_rotate_to_front(elem, head))

/* <rculist/list_rcu.h> */
#define cds_list_add_rcu(newp, head)					\
	RCULIST__DEBUG_OP(cds_list_add_rcu, cds_list_add_rcu(newp, head))
#define cds_list_add_tail_rcu(newp, head)				\
	RCULIST__DEBUG_OP(cds_list_add_tail_rcu, cds_list_add_tail_rcu(newp, head))
#define cds_list_del_rcu(elem)						\
	RCULIST__DEBUG_OP(cds_list_del_rcu, cds_list_del_rcu(elem))
#define cds_list_replace_rcu(old, newp)					\
	RCULIST__DEBUG_OP(cds_list_replace_rcu, cds_list_replace_rcu(old, newp))
#define cds_list_splice_init_rcu(list, head)				\
	RCULIST__DEBUG_BLOCKING_OP(cds_list_splice_init_rcu,		\
				   cds_list_splice_init_rcu(list, head))
#define cds_list_splice_tail_init_rcu(list, head)			\
	RCULIST__DEBUG_BLOCKING_OP(cds_list_splice_tail_init_rcu,	\
				   cds_list_splice_tail_init_rcu(list, head))

/*
 * The accessors are macros already: these redefinitions repeat their
 * expansions in <rculist/list_rcu.h> behind the site record.  The RCU
 * iterators record theirs themselves (RCULIST__ITER_SITE, debug.h).
 */
#undef cds_list_entry_rcu
#define cds_list_entry_rcu(ptr, type, member)				\
	(rculist__debug_reader_at("cds_list_entry_rcu", __FILE__, __LINE__), \
	 rculist__container_at(rculist__deref(ptr), type,		\
			       rculist__list_offsetof(type, member)))
#undef cds_list_first_or_null_rcu
#define cds_list_first_or_null_rcu(ptr, type, member)			\
	((type *)RCULIST__DEBUG_READ(cds_list_first_or_null_rcu,	\
		rculist__list_first_or_null_rcu(ptr,			\
			rculist__list_offsetof(type, member))))
#undef cds_list_next_or_null_rcu
#define cds_list_next_or_null_rcu(head, ptr, type, member)		\
	((type *)RCULIST__DEBUG_READ(cds_list_next_or_null_rcu,	\
		rculist__list_next_or_null_rcu(head, &(ptr)->next,	\
					       rculist__list_offsetof(type, member))))

/* <rculist/hlist.h> */
#define cds_hlist_add_head(newp, head)					\
	RCULIST__DEBUG_OP(cds_hlist_add_head, cds_hlist_add_head(newp, head))
#define cds_hlist_del(elem)						\
	RCULIST__DEBUG_OP(cds_hlist_del, cds_hlist_del(elem))
#define cds_hlist_del_init(elem)					\
	RCULIST__DEBUG_OP(cds_hlist_del_init, cds_hlist_del_init(elem))
#define cds_hlist_add_before(n, next)					\
	RCULIST__DEBUG_OP(cds_hlist_add_before, cds_hlist_add_before(n, next))
#define cds_hlist_add_behind(n, prev)					\
	RCULIST__DEBUG_OP(cds_hlist_add_behind, cds_hlist_add_behind(n, prev))

/* <rculist/hlist_rcu.h> */
#define cds_hlist_add_head_rcu(newp, head)				\
	RCULIST__DEBUG_OP(cds_hlist_add_head_rcu, cds_hlist_add_head_rcu(newp, head))
#define cds_hlist_add_before_rcu(n, next)				\
	RCULIST__DEBUG_OP(cds_hlist_add_before_rcu, cds_hlist_add_before_rcu(n, next))
#define cds_hlist_add_behind_rcu(n, prev)				\
	RCULIST__DEBUG_OP(cds_hlist_add_behind_rcu, cds_hlist_add_behind_rcu(n, prev))
#define cds_hlist_add_tail_rcu(n, head)					\
	RCULIST__DEBUG_OP(cds_hlist_add_tail_rcu, cds_hlist_add_tail_rcu(n, head))
#define cds_hlist_del_rcu(elem)						\
	RCULIST__DEBUG_OP(cds_hlist_del_rcu, cds_hlist_del_rcu(elem))
#define cds_hlist_del_init_rcu(elem)					\
	RCULIST__DEBUG_OP(cds_hlist_del_init_rcu, cds_hlist_del_init_rcu(elem))
#define cds_hlist_replace_rcu(old, newn)				\
	RCULIST__DEBUG_OP(cds_hlist_replace_rcu, cds_hlist_replace_rcu(old, newn))

/* <rculist/hlist_bl.h> */
#define cds_hlist_bl_add_head(n, head)					\
	RCULIST__DEBUG_OP(cds_hlist_bl_add_head, cds_hlist_bl_add_head(n, head))
#define cds_hlist_bl_add_before(n, next)				\
	RCULIST__DEBUG_OP(cds_hlist_bl_add_before, cds_hlist_bl_add_before(n, next))
#define cds_hlist_bl_add_behind(n, prev)				\
	RCULIST__DEBUG_OP(cds_hlist_bl_add_behind, cds_hlist_bl_add_behind(n, prev))
#define cds_hlist_bl_del(n)						\
	RCULIST__DEBUG_OP(cds_hlist_bl_del, cds_hlist_bl_del(n))
#define cds_hlist_bl_del_init(n)					\
	RCULIST__DEBUG_OP(cds_hlist_bl_del_init, cds_hlist_bl_del_init(n))
#define cds_hlist_bl_unlock(head)					\
	RCULIST__DEBUG_OP(cds_hlist_bl_unlock, cds_hlist_bl_unlock(head))
#define cds_hlist_bl_add_head_rcu(n, head)				\
	RCULIST__DEBUG_OP(cds_hlist_bl_add_head_rcu, cds_hlist_bl_add_head_rcu(n, head))
#define cds_hlist_bl_del_rcu(n)						\
	RCULIST__DEBUG_OP(cds_hlist_bl_del_rcu, cds_hlist_bl_del_rcu(n))
/* <rculist/list_rcu.h>, newer names */
#define cds_list_splice_rcu(list, head)					\
	RCULIST__DEBUG_OP(cds_list_splice_rcu, cds_list_splice_rcu(list, head))
#define cds_list_bidir_del_rcu(elem)					\
	RCULIST__DEBUG_OP(cds_list_bidir_del_rcu, cds_list_bidir_del_rcu(elem))
#define cds_list_del_init_careful(elem)					\
	RCULIST__DEBUG_OP(cds_list_del_init_careful, cds_list_del_init_careful(elem))
/* <rculist/hashtable.h>: cds_hash_add*() expand to the hlist wrappers above */
#define cds_hash_del(node)						\
	RCULIST__DEBUG_OP(cds_hash_del, cds_hash_del(node))
#define cds_hash_del_rcu(node)						\
	RCULIST__DEBUG_OP(cds_hash_del_rcu, cds_hash_del_rcu(node))

/*
 * <rculist/runtime.h>: the read side, checked.  They replace the inlined
 * read side of RCULIST_INLINE_<FLAVOUR> too: the checking functions call
 * the library's, which share liburcu's per-thread state with it.
 */
#undef rculist_read_lock
#undef rculist_read_unlock
#undef rculist_quiescent_state
#undef rculist_thread_offline
#undef rculist_synchronize_rcu
#undef rculist_rcu_barrier
#undef rculist_cond_synchronize_rcu
#define rculist_read_lock()	rculist__debug_read_lock(__FILE__, __LINE__)
#define rculist_read_unlock()	rculist__debug_read_unlock(__FILE__, __LINE__)
#define rculist_quiescent_state() rculist__debug_quiescent_state(__FILE__, __LINE__)
#define rculist_thread_offline() rculist__debug_thread_offline(__FILE__, __LINE__)
#define rculist_synchronize_rcu() rculist__debug_synchronize_rcu(__FILE__, __LINE__)
#define rculist_rcu_barrier()	rculist__debug_rcu_barrier(__FILE__, __LINE__)
#define rculist_cond_synchronize_rcu(cookie)				\
	rculist__debug_cond_synchronize_rcu((cookie), __FILE__, __LINE__)

#endif /* RCULIST_DEBUG */

#endif /* RCULIST_DEBUG_API_H */
