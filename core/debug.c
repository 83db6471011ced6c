// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/debug.c - the checks of debug mode and the list checkers (their
 * reports: core/report.c).
 *
 * Compiled once, without RCULIST_DEBUG, into every flavour library: debug
 * mode is the program's compile-time switch, and its wrappers (see
 * <rculist/debug_api.h>) call in here.  The flavour answers two questions
 * through the adapter (core/bind.h): is the calling thread registered,
 * and does the flavour have read-side critical sections of its own.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rculist.h>

#include "internal.h"

/* ------------------------------------------------------ link checks */

static int poisoned(const void *p)
{
	return p == RCULIST_POISON_NEXT || p == RCULIST_POISON_PREV;
}

/*
 * A link that cannot be followed: report it as @what of @elem and return
 * 1.  @hint says what probably happened.
 */
static int bad_link(const struct rculist__site *s, const void *elem,
		    const char *what, const void *link, const char *hint)
{
	struct rculist__ptrbuf b;

	if (!link) {
		rculist__report(s, elem, "%s is NULL (%s)", what, hint);
		return 1;
	}
	if (poisoned(link)) {
		rculist__report(s, elem,
				"%s is %s, the poison of a deleted element (%s)",
				what, rculist__ptrstr(&b, link), hint);
		return 1;
	}
	return 0;
}

/* @what is @is where @expect was wanted: report, with @hint. */
static int mismatch(const struct rculist__site *s, const void *elem,
		    const char *what, const void *is, const void *expect,
		    const char *hint)
{
	struct rculist__ptrbuf b1, b2;

	if (is == expect)
		return 0;
	rculist__report(s, elem, "%s is %s, expected %s (%s)", what,
			rculist__ptrstr(&b1, is), rculist__ptrstr(&b2, expect),
			hint);
	return 1;
}

/* The hint for an element that does not seem to be on a list. */
static const char *unlinked_hint(const struct rculist__site *s)
{
	return strstr(s->op, "replace") ? "already removed or replaced?" :
					  "double delete?";
}

void rculist__debug_check_add(const struct cds_list_head *newp,
			      const struct cds_list_head *prev,
			      const struct cds_list_head *next)
{
	struct rculist__site s = rculist__current_site("cds_list_add");

	if (bad_link(&s, newp, "prev", prev,
		     "list head not initialised, or adding beside a deleted element?") ||
	    bad_link(&s, newp, "next", next,
		     "list head not initialised, or adding beside a deleted element?"))
		return;
	if (newp == prev || newp == next) {
		rculist__report(&s, newp,
				"element is already on the list, next to the insertion point (double add?)");
		return;
	}
	if (mismatch(&s, newp, "prev->next", prev->next, next, "corrupted list?"))
		return;
	mismatch(&s, newp, "next->prev", next->prev, prev, "corrupted list?");
}

void rculist__debug_check_del(const struct cds_list_head *elem)
{
	struct rculist__site s = rculist__current_site("cds_list_del");
	const char *hint = unlinked_hint(&s);

	if (!elem->next || !elem->prev) {
		rculist__report(&s, elem,
				"%s is NULL (never added nor initialised? use CDS_INIT_LIST_HEAD())",
				elem->next ? "prev" : "next");
		return;
	}
	if (bad_link(&s, elem, "next", elem->next, hint) ||
	    bad_link(&s, elem, "prev", elem->prev, hint))
		return;
	if (mismatch(&s, elem, "prev->next", elem->prev->next, elem, hint))
		return;
	mismatch(&s, elem, "next->prev", elem->next->prev, elem,
		 "corrupted list?");
}

/* ------------------------------------------------------------ walks */

/*
 * Walk the circular list @head in direction @dir (0: next, 1: prev),
 * checking each link's partner.  Stops at the first fault (reported,
 * returns -1) or back at @head (returns the number of elements).  Also
 * reports an element equal to @forbid.  The partner check alone ends
 * every walk (a link into the middle of the walk so far would have a
 * partner leading elsewhere); Brent's cycle detection guards the walk
 * anyway against memory that changes under it.
 */
static long walk_list(const struct rculist__site *s,
		      const struct cds_list_head *head, int dir,
		      const struct cds_list_head *forbid, const char *forbid_msg)
{
	const char *name = dir ? "prev" : "next";
	const char *back = dir ? "next" : "prev";
	const struct cds_list_head *pos = head, *mark = head;
	unsigned long steps = 0, power = 1, lam = 0;
	struct rculist__ptrbuf b1, b2, b3;
	char what[96];

	for (;;) {
		const struct cds_list_head *to = dir ? pos->prev : pos->next;
		const struct cds_list_head *partner;

		/* the head is #0, elements are numbered from 1 */
		snprintf(what, sizeof(what), "element #%lu (%s)->%s", steps,
			 rculist__ptrstr(&b1, pos), name);
		if (pos == head)
			snprintf(what, sizeof(what), "head->%s", name);
		if (bad_link(s, head, what, to, "corrupted list?"))
			return -1;
		partner = dir ? to->next : to->prev;
		if (partner != pos) {
			rculist__report(s, head,
					"%s->%s is %s, expected %s (corrupted %s or %s?)",
					what, back, rculist__ptrstr(&b2, partner),
					rculist__ptrstr(&b3, pos), name, back);
			return -1;
		}
		if (to == head)
			return (long)steps;
		if (to == forbid) {
			rculist__report(s, head, "%s", forbid_msg);
			return -1;
		}
		pos = to;
		steps++;
		if (pos == mark) {
			rculist__report(s, head,
					"cycle of %lu elements that does not pass through the head (corrupted list?)",
					lam + 1);
			return -1;
		}
		if (++lam == power) {
			mark = pos;
			power *= 2;
			lam = 0;
		}
	}
}

void rculist__debug_check_splice(const struct cds_list_head *list,
				 const struct cds_list_head *prev,
				 const struct cds_list_head *next)
{
	struct rculist__site s = rculist__current_site("cds_list_splice");
	const char *hint =
		"list head not initialised, or splicing beside a deleted element?";

	if (list == prev || list == next) {
		rculist__report(&s, list, "splicing a list into itself");
		return;
	}
	if (bad_link(&s, list, "prev", prev, hint) ||
	    bad_link(&s, list, "next", next, hint))
		return;
	if (mismatch(&s, list, "prev->next", prev->next, next, "corrupted list?") ||
	    mismatch(&s, list, "next->prev", next->prev, prev, "corrupted list?"))
		return;
	walk_list(&s, list, 0, prev,
		  "the insertion point is an element of the list being spliced (splicing a list into itself?)");
}

static int check_list(const struct rculist__site *s,
		      const struct cds_list_head *head)
{
	long fwd, bwd;

	fwd = walk_list(s, head, 0, NULL, NULL);
	if (fwd < 0)
		return 0;
	bwd = walk_list(s, head, 1, NULL, NULL);
	if (bwd < 0)
		return 0;
	if (fwd != bwd) {
		rculist__report(s, head,
				"%ld elements forwards, %ld backwards (corrupted list?)",
				fwd, bwd);
		return 0;
	}
	return 1;
}

int rculist__list_check_at(const struct cds_list_head *head, const char *file,
			   int line)
{
	struct rculist__site s = { "rculist_list_check", file, line };

	return check_list(&s, head);
}

#undef rculist_list_check
int rculist_list_check(const struct cds_list_head *head)
{
	return rculist__list_check_at(head, NULL, 0);
}

/* ----------------------------------------------------------- hlists */

static const struct cds_hlist_node *head_node(const struct cds_hlist_head *head)
{
	return (const struct cds_hlist_node *)(const void *)head;
}

void rculist__debug_check_hadd(const struct cds_hlist_node *newp,
			       const struct cds_hlist_node *prev,
			       const struct cds_hlist_node *next)
{
	struct rculist__site s = rculist__current_site("cds_hlist_add");

	if (bad_link(&s, newp, "prev", prev,
		     "inserting beside a node that is on no list?"))
		return;
	if (next && poisoned(next)) {
		bad_link(&s, newp, "next", next,
			 "inserting beside a deleted node?");
		return;
	}
	if (newp == prev || newp == next) {
		rculist__report(&s, newp,
				"node is already on the list, next to the insertion point (double add?)");
		return;
	}
	if (mismatch(&s, newp, "prev->next", prev->next, next, "corrupted list?"))
		return;
	if (next)
		mismatch(&s, newp, "next->prev", next->prev, prev,
			 "corrupted list?");
}

void rculist__debug_check_hdel(const struct cds_hlist_node *elem)
{
	struct rculist__site s = rculist__current_site("cds_hlist_del");
	const char *hint = unlinked_hint(&s);

	if (!elem->prev) {
		rculist__report(&s, elem,
				"prev is NULL: the node is on no list (never added, or deleted with a _init delete?)");
		return;
	}
	if (bad_link(&s, elem, "prev", elem->prev, hint))
		return;
	if (elem->prev == elem) /* cds_hlist_add_fake(): a list of its own */
		return;
	if (elem->next && poisoned(elem->next)) {
		bad_link(&s, elem, "next", elem->next, hint);
		return;
	}
	if (mismatch(&s, elem, "prev->next", elem->prev->next, elem, hint))
		return;
	if (elem->next)
		mismatch(&s, elem, "next->prev", elem->next->prev, elem,
			 "corrupted list?");
}

static int check_hlist(const struct rculist__site *s,
		       const struct cds_hlist_head *head)
{
	const struct cds_hlist_node *prev = head_node(head);
	const struct cds_hlist_node *pos = head->next, *mark = NULL;
	unsigned long steps = 1, power = 1, lam = 0;
	struct rculist__ptrbuf b1, b2, b3;

	/* Elements are numbered from 1, as in walk_list(). */
	for (; pos; prev = pos, pos = pos->next, steps++) {
		if (poisoned(pos)) {
			rculist__report(s, head,
					"element #%lu is %s, the poison of a deleted node (corrupted list?)",
					steps, rculist__ptrstr(&b1, pos));
			return 0;
		}
		if (pos->prev != prev) {
			rculist__report(s, head,
					"element #%lu (%s)->prev is %s, expected %s (corrupted next or prev?)",
					steps, rculist__ptrstr(&b1, pos),
					rculist__ptrstr(&b2, pos->prev),
					rculist__ptrstr(&b3, prev));
			return 0;
		}
		if (pos == mark) {
			rculist__report(s, head,
					"cycle of %lu nodes (corrupted list?)",
					lam + 1);
			return 0;
		}
		if (++lam == power) {
			mark = pos;
			power *= 2;
			lam = 0;
		}
	}
	return 1;
}

int rculist__hlist_check_at(const struct cds_hlist_head *head, const char *file,
			    int line)
{
	struct rculist__site s = { "rculist_hlist_check", file, line };

	return check_hlist(&s, head);
}

#undef rculist_hlist_check
int rculist_hlist_check(const struct cds_hlist_head *head)
{
	return rculist__hlist_check_at(head, NULL, 0);
}

/* ------------------------------------------------- bit-locked hlists */

/* A link of a bit-locked list, the head's lock bit cleared. */
static const struct cds_hlist_bl_node *bl_link(const struct cds_hlist_bl_node *link)
{
	return (const struct cds_hlist_bl_node *)((uintptr_t)link & ~(uintptr_t)1);
}

void rculist__debug_check_bllocked(const struct cds_hlist_bl_head *head)
{
	struct rculist__site s = rculist__current_site("cds_hlist_bl_add_head");

	if (!((uintptr_t)__atomic_load_n(&head->first, __ATOMIC_RELAXED) & 1))
		rculist__report(&s, head,
				"the list is not locked (take cds_hlist_bl_lock() first)");
}

void rculist__debug_check_bladd(const struct cds_hlist_bl_node *newp,
				struct cds_hlist_bl_node *const *pprev,
				const struct cds_hlist_bl_node *next)
{
	struct rculist__site s = rculist__current_site("cds_hlist_bl_add");

	if (bad_link(&s, newp, "pprev", pprev,
		     "inserting beside a node that is on no list?"))
		return;
	if (next && poisoned(next)) {
		bad_link(&s, newp, "next", next,
			 "inserting beside a deleted node?");
		return;
	}
	if (newp == next || (const void *)pprev == (const void *)&newp->next) {
		rculist__report(&s, newp,
				"node is already on the list, next to the insertion point (double add?)");
		return;
	}
	if (mismatch(&s, newp, "*pprev",
		     bl_link(__atomic_load_n(pprev, __ATOMIC_RELAXED)), next,
		     "corrupted list?"))
		return;
	if (next)
		mismatch(&s, newp, "next->pprev", next->pprev, pprev,
			 "corrupted list?");
}

void rculist__debug_check_bldel(const struct cds_hlist_bl_node *elem)
{
	struct rculist__site s = rculist__current_site("cds_hlist_bl_del");
	const char *hint = unlinked_hint(&s);

	if (!elem->pprev) {
		rculist__report(&s, elem,
				"pprev is NULL: the node is on no list (never added, or deleted with cds_hlist_bl_del_init()?)");
		return;
	}
	if (bad_link(&s, elem, "pprev", elem->pprev, hint))
		return;
	if (elem->next && poisoned(elem->next)) {
		bad_link(&s, elem, "next", elem->next, hint);
		return;
	}
	if (mismatch(&s, elem, "*pprev",
		     bl_link(__atomic_load_n(elem->pprev, __ATOMIC_RELAXED)),
		     elem, hint))
		return;
	if (elem->next)
		mismatch(&s, elem, "next->pprev", elem->next->pprev,
			 &elem->next, "corrupted list?");
}

/* ---------------------------------------------------------- readers */

/*
 * Whether the calling thread is inside a read-side critical section of
 * the flavour-neutral contract: one opened through the checking wrappers
 * (counted in every flavour), or, under memb and bp, one the flavour
 * itself sees (a lock taken in a file compiled without RCULIST_DEBUG).
 * Under qsbr a section is an empty bracket: only the count tells, so a
 * program checked under qsbr is checked against the contract memb and bp
 * enforce.
 */
static int in_read_section(void)
{
	return rculist__debug_depth > 0 || rculist__reading();
}

/*
 * <rculist/rhashtable.h>'s debug checks: one report of @op on @elem, at
 * the call site its debug-mode wrapper recorded if any (the inserts').
 */
void rculist__debug_report(const char *op, const void *elem, const char *what)
{
	struct rculist__site s = rculist__current_site(op);

	rculist__report(&s, elem, "%s", what);
}

/*
 * A removal from a cds_rhashtable or cds_rhltable of an object in none of
 * its bucket tables.  A chain link is never NULL (a chain ends in a nulls
 * marker), so a NULL next (an object zeroed or initialised and never
 * inserted) or the poison of RCULIST_POISON_NEXT means never inserted;
 * any other next was left by an insert: the object was removed already,
 * or is in another table.
 */
void rculist__rht_debug_absent(const char *op, const char *file, int line,
			       const void *obj, const void *next)
{
	struct rculist__site s = { op, file, line };
	struct rculist__ptrbuf b;

	if (!next || poisoned(next))
		rculist__report(&s, obj,
				"the object is not in the table: its next is %s, "
				"it was never inserted (-ENOENT)",
				rculist__ptrstr(&b, next));
	else
		rculist__report(&s, obj,
				"the object is not in the table: its next is %s, "
				"it was removed already (removed twice?) or is in "
				"another table (-ENOENT)",
				rculist__ptrstr(&b, next));
}

/* Report @s if the thread is not registered (memb, qsbr); 1 if so. */
static int unregistered(const struct rculist__site *s, const char *fix)
{
	if (rculist__flavor_registered())
		return 0;
	rculist__report(s, NULL, "thread is not registered with RCU (%s)", fix);
	return 1;
}

static const char not_reading[] =
	"not inside a read-side critical section (call rculist_read_lock() first)";

/* @outside: the report of a reader outside any section. */
static void check_reader(const struct rculist__site *s, const char *outside)
{
	if (unregistered(s, "call rculist_register_thread() first"))
		return;
	if (!in_read_section())
		rculist__report(s, NULL, "%s", outside);
	else if (!rculist_read_ongoing()) /* qsbr */
		rculist__report(s, NULL,
				"thread is offline inside rculist_read_lock() (call rculist_thread_online() first)");
}

void rculist__debug_check_reader(void)
{
	struct rculist__site s =
		rculist__current_site("RCU iterator or accessor");

	check_reader(&s, not_reading);
	/* The record was pushed for this check alone: drop it. */
	rculist__debug_leave();
}

/*
 * An iterator given a condition (the kernel's lockdep_is_held() idiom:
 * an updater walking under the list's lock): the walk is right when
 * @cond is true, and otherwise only inside a section.
 */
void rculist__debug_check_reader_if(int cond)
{
	struct rculist__site s =
		rculist__current_site("RCU iterator or accessor");

	if (!cond)
		check_reader(&s,
			     "not inside a read-side critical section, and the "
			     "condition is false (hold the lock it names, or call "
			     "rculist_read_lock() first)");
	rculist__debug_leave();
}

void rculist__debug_reader_at(const char *op, const char *file, int line)
{
	struct rculist__site s = { op, file, line };

	check_reader(&s, not_reading);
}

/*
 * A quiescent or offline call, which must not be made inside a read-side
 * critical section: qsbr ends the section; the others ignore the call,
 * but the program would not be correct under qsbr.
 */
static int inside_reader(const struct rculist__site *s)
{
	if (!in_read_section())
		return 0;
	if (rculist__flavor_has_sections())
		rculist__report(s, NULL,
				"called inside a read-side critical section (a no-op under %s, but qsbr would end the section while it reads)",
				rculist_flavor_name());
	else
		rculist__report(s, NULL,
				"called inside a read-side critical section (it ends the section while the caller reads)");
	return 1;
}

/*
 * A blocking call: the check itself is the library's, made with or
 * without debug mode (rculist__check_not_reading(), core/gp.c); the
 * wrappers record the call site it reports.
 */
void rculist__debug_blocking_at(const char *op, const char *file, int line)
{
	rculist__debug_enter(op, file, line);
	rculist__check_not_reading(op);
	rculist__debug_leave();
}

void rculist__debug_read_lock(const char *file, int line)
{
	struct rculist__site s = { "rculist_read_lock", file, line };

	unregistered(&s, "call rculist_register_thread() first");
	rculist__debug_depth++;
	rculist_read_lock();
}

void rculist__debug_read_unlock(const char *file, int line)
{
	struct rculist__site s = { "rculist_read_unlock", file, line };
	int matched;

	if (unregistered(&s, "call rculist_register_thread() first"))
		return;
	if (rculist__flavor_has_sections())
		matched = rculist_read_ongoing();
	else
		matched = rculist__debug_depth > 0;
	if (!matched) {
		/* Not passed on: it would corrupt the flavour's nesting count. */
		rculist__report(&s, NULL,
				"no matching rculist_read_lock() (unbalanced unlock?)");
		return;
	}
	if (rculist__debug_depth > 0)
		rculist__debug_depth--;
	rculist__tsan_reader_exit();
	rculist_read_unlock();
}

void rculist__debug_quiescent_state(const char *file, int line)
{
	struct rculist__site s = { "rculist_quiescent_state", file, line };

	if (unregistered(&s, "call rculist_register_thread() first") ||
	    inside_reader(&s))
		return;
	rculist__tsan_reader_exit();
	rculist_quiescent_state();
}

void rculist__debug_thread_offline(const char *file, int line)
{
	struct rculist__site s = { "rculist_thread_offline", file, line };

	if (unregistered(&s, "call rculist_register_thread() first") ||
	    inside_reader(&s))
		return;
	rculist__tsan_reader_exit();
	rculist_thread_offline();
}

void rculist__debug_synchronize_rcu(const char *file, int line)
{
	rculist__debug_enter("rculist_synchronize_rcu", file, line);
	rculist_synchronize_rcu();
	rculist__debug_leave();
}

void rculist__debug_rcu_barrier(const char *file, int line)
{
	rculist__debug_enter("rculist_rcu_barrier", file, line);
	rculist_rcu_barrier();
	rculist__debug_leave();
}

void rculist__debug_cond_synchronize_rcu(struct rculist_gp_cookie cookie,
					 const char *file, int line)
{
	rculist__debug_enter("rculist_cond_synchronize_rcu", file, line);
	rculist_cond_synchronize_rcu(cookie);
	rculist__debug_leave();
}
