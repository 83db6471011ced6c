// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/regs/cases.cc - the C++ read side's slow paths
 * (<rculist/rcu.hpp>: rculist::rcu_domain's lock() and unlock() through
 * std::scoped_lock), each inside a body (body.h):
 *  - before the library's constructor (kind CALL) and before the
 *    program's sites are patched (their out-of-line paths; the main
 *    thread's first region registers it);
 *  - a new thread's first region, which registers it (qsbr: and takes it
 *    offline outside its regions);
 *  - memb, mb and qsbr (a thread only C++ uses, online inside its
 *    regions alone): the outermost unlock while a grace period waits on
 *    the futex wakes it through the library.
 */
#include <mutex>

#include <rculist/rcu.hpp>

#include "regs.h"

#define REGS_BODY body_region
#define REGS_OP \
	std::scoped_lock<rculist::rcu_domain> lk(rculist::rcu_default_domain())
#include "body.h"
#define REGS_BODY body_unlock
#define REGS_OP	  rculist::rcu_default_domain().unlock()
#include "body.h"

REGS_CASES("C++");

void regs_cases_preinit(void)
{
	regs_check("before the library's constructor (kind CALL)", "a region",
		   body_region());
}

void regs_cases_ctor(void)
{
	regs_check("before the program's sites are patched", "a region",
		   body_region());
}

static void first_region(void)
{
	regs_check("a new thread's first region", "a region", body_region());
}

/* memb, mb, qsbr: the outermost unlock wakes the grace period waiting for it. */
static void unlock_wakes(void)
{
	rculist::rcu_domain &dom = rculist::rcu_default_domain();

	{
		std::scoped_lock<rculist::rcu_domain> lk(dom); /* registers */
	}
	dom.lock();
	regs_check_waking("the outermost unlock while a grace period waits",
			  "rcu_domain::unlock()", body_unlock);
}

void regs_cases_main(void)
{
	for (int i = 0; i < REGS_ROUNDS; i++) {
		regs_in_thread("a new thread's first region", first_region);
		if (regs_flavor_is("bp"))
			continue;
		regs_until_woken("the outermost unlock while a grace period waits",
				 unlock_wakes);
	}
}
