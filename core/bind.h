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
 *
 * and includes this file.  Nothing below names a flavour.
 */
#ifndef RCULIST_CORE_BIND_H
#define RCULIST_CORE_BIND_H

#include "internal.h"

#define RCULIST__STR2(x)	#x
#define RCULIST__STR(x)		RCULIST__STR2(x)

const char *rculist_flavor_name(void)
{
	return RCULIST__STR(RCULIST__FLAVOR);
}

void rculist_register_thread(void)
{
#if RCULIST__REGISTERS
	RCULIST__URCU(register_thread)();
	rculist__thread_exit_arm();
#endif
}

void rculist__flavor_unregister(void)
{
#if RCULIST__REGISTERS
	RCULIST__URCU(unregister_thread)();
#endif
}

void rculist_unregister_thread(void)
{
#if RCULIST__REGISTERS
	rculist__thread_exit_disarm();
	rculist__flavor_unregister();
#endif
}

void rculist_read_lock(void)
{
	RCULIST__URCU(read_lock)();
}

void rculist_read_unlock(void)
{
	RCULIST__URCU(read_unlock)();
}

int rculist_read_ongoing(void)
{
	return RCULIST__URCU(read_ongoing)();
}

void rculist_quiescent_state(void)
{
#if RCULIST__QSBR
	RCULIST__URCU(quiescent_state)();
#endif
}

void rculist_thread_offline(void)
{
#if RCULIST__QSBR
	RCULIST__URCU(thread_offline)();
#endif
}

void rculist_thread_online(void)
{
#if RCULIST__QSBR
	RCULIST__URCU(thread_online)();
#endif
}

void rculist_synchronize_rcu(void)
{
	RCULIST__URCU(synchronize_rcu)();
}

void rculist_call_rcu(struct rcu_head *head,
		      void (*func)(struct rcu_head *head))
{
	RCULIST__URCU(call_rcu)(head, func);
}

void rculist__flavor_barrier(void)
{
	RCULIST__URCU(barrier)();
}

#endif /* RCULIST_CORE_BIND_H */
