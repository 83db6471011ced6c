// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/locks.c - the baselines: an unsynchronised walk (the limit; no
 * updater may run), pthread_rwlock and pthread_mutex.  BENCH_LOCK picks
 * one: 0 none, 1 rwlock, 2 mutex.  Compiled once.
 */
#include <rculist.h>

#include "bench.h"

#if BENCH_LOCK == 0
/*
 * Each lookup reads the list afresh, as a lookup in a program does
 * (between two, the program calls functions that may change it): an
 * empty asm that the compiler must assume reads and writes memory, no
 * instruction.  Without it the compiler loaded head->next once for all
 * the lookups of a run, one load less per lookup than any side that
 * synchronises, and charged that load (about 1 ns) to every read side.
 */
#define SIDE_SYM	bench_side_plain
#define SIDE_NAME	"plain"
#define SIDE_UPDATES	0
#define side_lock(d)	__asm__ __volatile__("" ::: "memory")
#define side_unlock(d)	__asm__ __volatile__("" ::: "memory")
#define side_wlock(d)	((void)(d))
#define side_wunlock(d) ((void)(d))
#elif BENCH_LOCK == 1
#define SIDE_SYM	bench_side_rwlock
#define SIDE_NAME	"rwlock"
#define SIDE_UPDATES	1
#define side_lock(d)	pthread_rwlock_rdlock(&(d)->rwlock)
#define side_unlock(d)	pthread_rwlock_unlock(&(d)->rwlock)
#define side_wlock(d)	pthread_rwlock_wrlock(&(d)->rwlock)
#define side_wunlock(d) pthread_rwlock_unlock(&(d)->rwlock)
#else
#define SIDE_SYM	bench_side_mutex
#define SIDE_NAME	"mutex"
#define SIDE_UPDATES	1
#define side_lock(d)	pthread_mutex_lock(&(d)->mutex)
#define side_unlock(d)	pthread_mutex_unlock(&(d)->mutex)
#define side_wlock(d)	pthread_mutex_lock(&(d)->mutex)
#define side_wunlock(d) pthread_mutex_unlock(&(d)->mutex)
#endif

#define side_qs()		  ((void)0)
#define SIDE_FOR_EACH(pos, head)  cds_list_for_each_entry(pos, head, node)
#define SIDE_HFOR_EACH(pos, head) cds_hlist_for_each_entry_2(pos, head, hnode)
#define SIDE_LIST_REPLACE	  cds_list_replace
#define SIDE_HLIST_ADD		  cds_hlist_add_head
#define SIDE_HLIST_DEL		  cds_hlist_del

#define SIDE_RCU      0
#define SIDE_OPS      0
#define SIDE_INIT     NULL
#define SIDE_FINI     NULL
#define SIDE_QS_FN    NULL
#define SIDE_CALL_RCU NULL
#define SIDE_SYNC     NULL
#define SIDE_BARRIER  NULL

#include "side.h"
