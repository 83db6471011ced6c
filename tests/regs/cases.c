// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/regs/cases.c - the C read side's slow paths, each inside a body
 * (body.h) that checks what it holds survives:
 *  - before the library's constructor (kind CALL): lock, unlock and
 *    quiescent state call the library;
 *  - before the program's sites are patched: their slow paths test the
 *    kind (qsbr: the quiescent state of a thread whose counter differs
 *    calls the library);
 *  - a new thread's first section: bp's lock registers it; memb's and
 *    mb's, in a thread liburcu has not registered, call the library's
 *    lock (outside the contract, which wants threads registered first,
 *    but neither refused nor stopped);
 *  - memb and mb: the outermost unlock while a grace period waits on the
 *    futex wakes it through the library; qsbr: the quiescent state of a
 *    thread a grace period waits for calls the library, which wakes it.
 * REGS_BUILD names the compiler and flags (the Makefile's).
 */
#include <rculist.h>

#include "regs.h"

#define REGS_BODY body_lock
#define REGS_OP	  rculist_read_lock()
#include "body.h"
#define REGS_BODY body_unlock
#define REGS_OP	  rculist_read_unlock()
#include "body.h"
#define REGS_BODY body_qs
#define REGS_OP	  rculist_quiescent_state()
#include "body.h"

REGS_CASES("C");

static void lock_unlock_qs(const char *when)
{
	regs_check(when, "rculist_read_lock()", body_lock());
	regs_check(when, "rculist_read_unlock()", body_unlock());
	regs_check(when, "rculist_quiescent_state()", body_qs());
	/*
	 * qsbr: the quiescent state of this thread, not registered, made it
	 * look online to liburcu: offline again, as it was.
	 */
	rculist_thread_offline();
}

void regs_cases_preinit(void)
{
	lock_unlock_qs("before the library's constructor (kind CALL)");
}

void regs_cases_ctor(void)
{
	lock_unlock_qs("before the program's sites are patched");
}

static void first_section(void)
{
	const char *when = "a new thread's first section";

	regs_check(when, "rculist_read_lock()", body_lock());
	regs_check(when, "rculist_read_unlock()", body_unlock());
}

/* memb, mb: the outermost unlock wakes the grace period waiting for it. */
static void unlock_wakes(void)
{
	rculist_register_thread();
	rculist_read_lock();
	regs_check_waking("the outermost unlock while a grace period waits",
			  "rculist_read_unlock()", body_unlock);
	rculist_unregister_thread();
}

/* qsbr: the quiescent state a grace period waits for calls the library. */
static void qs_wakes(void)
{
	rculist_register_thread();
	regs_check_waking("a quiescent state a grace period waits for",
			  "rculist_quiescent_state()", body_qs);
	rculist_unregister_thread();
}

void regs_cases_main(void)
{
	int i;

	for (i = 0; i < REGS_ROUNDS; i++) {
		regs_in_thread("a new thread's first section", first_section);
		if (regs_flavor_is("memb") || regs_flavor_is("mb"))
			regs_until_woken("the outermost unlock while a grace period waits",
					 unlock_wakes);
		if (regs_flavor_is("qsbr"))
			regs_until_woken("a quiescent state a grace period waits for",
					 qs_wakes);
	}
}
