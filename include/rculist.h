/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * <rculist.h> - RCU-protected intrusive lists, on any liburcu flavour.
 *
 *   struct cds_list_head                circular doubly linked lists
 *   struct cds_hlist_head/_node         linear lists, one-pointer heads
 *   struct cds_hlist_nulls_head/_node   linear lists ending in a marker
 *   struct cds_hlist_bl_head/_node      linear lists whose head is a bit lock
 *   cds_list_sort()                     a stable merge sort (a library call)
 *   CDS_DEFINE_HASHTABLE(), cds_hash_*  fixed-size tables of hlists, the
 *                                       kernel's <linux/hashtable.h>
 *
 * Plain operations (the caller owns the list) and _rcu operations (RCU
 * readers may walk the list concurrently), the names and arguments of
 * liburcu's list API.  The flavour is chosen when linking:
 * -lrculist-memb, -lrculist-qsbr, -lrculist-bp or -lrculist-mb (see
 * rculist(7)).
 */
#ifndef RCULIST_H
#define RCULIST_H

/*
 * liburcu's list headers define the names rculist defines: included
 * before <rculist.h> they stop the build here.  One exception: liburcu's
 * flavour headers under _LGPL_SOURCE include <urcu/list.h> for its
 * structure alone, and rculist then takes over its names
 * (rculist/urcu_shadow.h).
 */
#if defined(_URCU_MEMB_STATIC_H) || defined(_URCU_QSBR_STATIC_H) || \
	defined(_URCU_BP_STATIC_H) || defined(_URCU_MB_STATIC_H) || \
	defined(_URCU_SIGNAL_STATIC_H)
#define RCULIST__AFTER_URCU_FLAVOR 1
#endif
#if defined(_KCOMPAT_HLIST_H) || defined(_URCU_RCULIST_H) || \
	defined(_URCU_RCUHLIST_H) || \
	(defined(_CDS_LIST_H) && !defined(RCULIST__AFTER_URCU_FLAVOR))
#error "rculist: a liburcu list header (<urcu/list.h>, <urcu/hlist.h>, <urcu/rculist.h>, <urcu/rcuhlist.h> or <urcu/cds.h>) came before <rculist.h>: include <rculist.h> first"
#else

#ifdef _CDS_LIST_H
#include "rculist/urcu_shadow.h"
#endif

#include "rculist/urcu_compat.h"
#include "rculist/version.h"
#include "rculist/compiler.h"
#include "rculist/types.h"
#include "rculist/debug.h"
#include "rculist/runtime.h"
#include "rculist/dq.h"
#include "rculist/list.h"
#include "rculist/list_rcu.h"
#include "rculist/hlist.h"
#include "rculist/hlist_rcu.h"
#include "rculist/nulls.h"
#include "rculist/hlist_bl.h"
#include "rculist/list_sort.h"
#include "rculist/hashtable.h"
#include "rculist/debug_api.h"
/* After debug_api.h: its inline fast paths use the debug-mode read side. */
#include "rculist/rhashtable.h"

#endif /* liburcu's list headers not included first */
#endif /* RCULIST_H */
