// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/urcu.c - liburcu's own side, compiled per flavour
 * (-DBENCH_FLAVOR=memb|qsbr|bp): its inline read side and list macros
 * under _LGPL_SOURCE ("urcu"), or with -DBENCH_URCU_LIB its read side
 * called through its shared library ("urcu-lib"; rcu_dereference stays
 * inline through URCU_INLINE_SMALL_FUNCTIONS, so only the read side
 * differs).  liburcu's list headers cannot share a translation unit
 * with <rculist.h>: this file sees only liburcu's.
 */
#ifdef BENCH_URCU_LIB
#define URCU_INLINE_SMALL_FUNCTIONS
#define SIDE_SYM  bench_side_urcu_lib
#define SIDE_NAME "urcu-lib"
#define SIDE_OPS  0
#else
#define _LGPL_SOURCE
#define SIDE_SYM  bench_side_urcu
#define SIDE_NAME "urcu"
#define SIDE_OPS  1
#endif

#define BENCH_CAT2(a, b) a##b
#define BENCH_CAT(a, b)	 BENCH_CAT2(a, b)
#define URCU(fn)	 BENCH_CAT(BENCH_CAT(urcu_, BENCH_FLAVOR), _##fn)

/* bench.mk passes -DBENCH_HEADER='<urcu/urcu-memb.h>' -DBENCH_FLAVOR_memb */
#include BENCH_HEADER
#include <urcu/rculist.h>
#include <urcu/rcuhlist.h>

#include "bench.h"

/* liburcu's container_of casts away const (clang -Wcast-qual): theirs. */
#pragma GCC diagnostic ignored "-Wcast-qual"

#if defined(BENCH_FLAVOR_qsbr)
#define side_qs()	URCU(quiescent_state)()
#define BENCH_REGISTERS 1
#elif defined(BENCH_FLAVOR_bp)
#define side_qs()	((void)0)
#define BENCH_REGISTERS 0
#else
#define side_qs()	((void)0)
#define BENCH_REGISTERS 1
#endif

/* clang-format off */
#define side_lock(d)		URCU(read_lock)()
#define side_unlock(d)		URCU(read_unlock)()
#define side_wlock(d)		pthread_mutex_lock(&(d)->upd_lock)
#define side_wunlock(d)		pthread_mutex_unlock(&(d)->upd_lock)
#define SIDE_FOR_EACH(pos, head)	cds_list_for_each_entry_rcu(pos, head, node)
#define SIDE_HFOR_EACH(pos, head)	cds_hlist_for_each_entry_rcu_2(pos, head, hnode)
#define SIDE_LIST_ADD		cds_list_add_rcu
#define SIDE_LIST_DEL		cds_list_del_rcu
#define SIDE_LIST_REPLACE	cds_list_replace_rcu
#define SIDE_HLIST_ADD		cds_hlist_add_head_rcu
#define SIDE_HLIST_DEL		cds_hlist_del_rcu
/* clang-format on */

static void side_register(void)
{
#if BENCH_REGISTERS
	URCU(register_thread)();
#endif
}

static void side_unregister(void)
{
#if BENCH_REGISTERS
	URCU(unregister_thread)();
#endif
}

static void side_quiescent(void)
{
	side_qs();
}

static void side_call_rcu(struct rcu_head *head, void (*fn)(struct rcu_head *))
{
	URCU(call_rcu)(head, fn);
}

static void side_synchronize(void)
{
	URCU(synchronize_rcu)();
}

static void side_barrier(void)
{
	URCU(barrier)();
}

#define SIDE_RCU      1
#define SIDE_UPDATES  1
#define SIDE_INIT     side_register
#define SIDE_FINI     side_unregister
#define SIDE_QS_FN    side_quiescent
#define SIDE_CALL_RCU side_call_rcu
#define SIDE_SYNC     side_synchronize
#define SIDE_BARRIER  side_barrier

#include "side.h"
