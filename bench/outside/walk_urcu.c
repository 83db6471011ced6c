/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/outside/walk_urcu.c - bench/outside/walk.h with liburcu's own
 * inline code (_LGPL_SOURCE), one flavour per build: -DWALK_MEMB,
 * -DWALK_QSBR, -DWALK_BP or -DWALK_MB.
 */
#define _LGPL_SOURCE
#if defined(WALK_MEMB)
#include <urcu/urcu-memb.h>
#define LOCK()	     urcu_memb_read_lock()
#define UNLOCK()     urcu_memb_read_unlock()
#define REGISTER()   urcu_memb_register_thread()
#define UNREGISTER() urcu_memb_unregister_thread()
#elif defined(WALK_QSBR)
#include <urcu/urcu-qsbr.h>
#define LOCK()	     urcu_qsbr_read_lock()
#define UNLOCK()     urcu_qsbr_read_unlock()
#define QS()	     urcu_qsbr_quiescent_state()
#define REGISTER()   urcu_qsbr_register_thread()
#define UNREGISTER() urcu_qsbr_unregister_thread()
#elif defined(WALK_BP)
#include <urcu/urcu-bp.h>
#define LOCK()	     urcu_bp_read_lock()
#define UNLOCK()     urcu_bp_read_unlock()
#define REGISTER()   ((void)0)
#define UNREGISTER() ((void)0)
#elif defined(WALK_MB)
#include <urcu/urcu-mb.h>
#define LOCK()	     urcu_mb_read_lock()
#define UNLOCK()     urcu_mb_read_unlock()
#define REGISTER()   urcu_mb_register_thread()
#define UNREGISTER() urcu_mb_unregister_thread()
#else
#error "walk_urcu.c: define WALK_MEMB, WALK_QSBR, WALK_BP or WALK_MB"
#endif
#ifndef QS
#define QS() ((void)0) /* no quiescent states but qsbr's */
#endif
#include <urcu/rculist.h>
#include <urcu/rcuhlist.h>

#include "walk.h"
