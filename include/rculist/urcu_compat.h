/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/urcu_compat.h - living beside liburcu's own headers.
 *
 * <rculist.h> includes <urcu/call-rcu.h> for struct rcu_head.  A liburcu
 * flavour header included later (say <urcu/urcu-qsbr.h>) maps call_rcu
 * and its siblings to urcu_qsbr_call_rcu ... and includes
 * <urcu/call-rcu.h> to declare them; its include guard now skips that.
 * So the mapped prototypes of every flavour are declared here, exactly as
 * liburcu declares them, and programs may include <rculist.h> and any
 * liburcu flavour header in either order.
 */
#ifndef RCULIST_URCU_COMPAT_H
#define RCULIST_URCU_COMPAT_H

#include <pthread.h>
#include <urcu/call-rcu.h>

#include "compiler.h"

#define RCULIST__URCU_CALL_RCU_API(p)					\
	void p##_call_rcu(struct rcu_head *head,			\
			  void (*func)(struct rcu_head *head));		\
	struct call_rcu_data *p##_create_call_rcu_data(unsigned long flags, \
						       int cpu_affinity); \
	void p##_call_rcu_data_free(struct call_rcu_data *crdp);	\
	struct call_rcu_data *p##_get_default_call_rcu_data(void);	\
	struct call_rcu_data *p##_get_cpu_call_rcu_data(int cpu);	\
	struct call_rcu_data *p##_get_thread_call_rcu_data(void);	\
	struct call_rcu_data *p##_get_call_rcu_data(void);		\
	pthread_t p##_get_call_rcu_thread(struct call_rcu_data *crdp);	\
	void p##_set_thread_call_rcu_data(struct call_rcu_data *crdp);	\
	int p##_set_cpu_call_rcu_data(int cpu, struct call_rcu_data *crdp); \
	int p##_create_all_cpu_call_rcu_data(unsigned long flags);	\
	void p##_free_all_cpu_call_rcu_data(void);			\
	void p##_call_rcu_before_fork(void);				\
	void p##_call_rcu_after_fork_parent(void);			\
	void p##_call_rcu_after_fork_child(void);			\
	void p##_barrier(void);

RCULIST__BEGIN_DECLS
RCULIST__URCU_CALL_RCU_API(urcu_memb)
RCULIST__URCU_CALL_RCU_API(urcu_qsbr)
RCULIST__URCU_CALL_RCU_API(urcu_bp)
RCULIST__URCU_CALL_RCU_API(urcu_mb)
RCULIST__URCU_CALL_RCU_API(urcu_signal)
RCULIST__END_DECLS

#undef RCULIST__URCU_CALL_RCU_API

/*
 * liburcu's list headers define the same names as rculist; <rculist.h>
 * refuses to follow them (with one #error) and this header defines their include
 * guards, so that they are harmless no-ops after it.
 */
#define _CDS_LIST_H 1
#define _KCOMPAT_HLIST_H 1
#define _URCU_RCULIST_H 1
#define _URCU_RCUHLIST_H 1

#endif /* RCULIST_URCU_COMPAT_H */
