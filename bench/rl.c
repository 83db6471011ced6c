// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/rl.c - the rculist side: one flavour-neutral object, compiled
 * once and linked with every flavour library.  Compiled again with
 * -DRCULIST_INLINE_<FLAVOR> it is the inlined read side of that flavour
 * (<rculist/inline.h>), side "rculist-inline".  Compiled with -flto and
 * -DBENCH_RL_LTO, and linked with -flto against a flavour's archive, it is
 * side "rculist-lto": the flavour still chosen by the archive linked, the
 * read side inlined by the link (static binary only).
 */
#include <rculist.h>

#include "bench.h"

/* <rculist/inline.h> defines it, whichever flavour it inlines. */
#ifdef RCULIST_INLINE_H
#define SIDE_SYM  bench_side_rli
#define SIDE_NAME "rculist-inline"
#elif defined(BENCH_RL_LTO)
#define SIDE_SYM  bench_side_rlto
#define SIDE_NAME "rculist-lto"
#else
#define SIDE_SYM  bench_side_rl
#define SIDE_NAME "rculist"
#endif

/* clang-format off */
#define side_lock(d)		rculist_read_lock()
#define side_unlock(d)		rculist_read_unlock()
#define side_qs()		rculist_quiescent_state()
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

/* The functions, not their inline mapping: these go in a table. */
static void rl_register(void)
{
	rculist_register_thread();
}

static void rl_unregister(void)
{
	rculist_unregister_thread();
}

static void rl_qs(void)
{
	rculist_quiescent_state();
}

#define SIDE_RCU      1
#define SIDE_UPDATES  1
#define SIDE_OPS      1
#define SIDE_INIT     rl_register
#define SIDE_FINI     rl_unregister
#define SIDE_QS_FN    rl_qs
#define SIDE_CALL_RCU rculist_call_rcu
#define SIDE_SYNC     rculist_synchronize_rcu
#define SIDE_BARRIER  rculist_rcu_barrier

#include "side.h"
