// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/tsan_api.c - what <rculist/tsan.h> routes a program's calls to
 * when it is compiled with -fsanitize=thread: each tells core/tsan.c
 * what happened (a reader leaves its section, a block is handed over),
 * then makes the call.  The top of the library: called by programs only.
 */
#include <stdlib.h>

#include <rculist.h>

#include "internal.h"

/* The program's side, called only by code built with -fsanitize=thread. */
void rculist__tsan_read_unlock(void)
{
	rculist__tsan_reader_exit();
	rculist_read_unlock();
}

void rculist__tsan_quiescent_state(void)
{
	rculist__tsan_reader_exit();
	rculist_quiescent_state();
}

void rculist__tsan_thread_offline(void)
{
	rculist__tsan_reader_exit();
	rculist_thread_offline();
}

int rculist__tsan_poll_state_synchronize_rcu(struct rculist_gp_cookie cookie)
{
	int done = rculist_poll_state_synchronize_rcu(cookie);

	if (done)
		rculist__tsan_gp_ended();
	return done;
}

/*
 * What the updater wrote into the block before handing it over is
 * ordered before its free, which may run in another thread (a sweep on
 * the call_rcu thread, a barrier): a release on the block's own rcu_head,
 * acquired by rculist__tsan_before_free().
 */
void rculist__tsan_free_rcu(struct rcu_head *head, size_t offset)
{
	rculist__tsan_handover(head);
	rculist__free_rcu(head, offset);
}

/* The call_rcu trampoline. */
struct tramp {
	struct rcu_head rcu;
	struct rcu_head *head;
	void (*func)(struct rcu_head *head);
};

static void tramp_run(struct rcu_head *rcu)
{
	struct tramp *t = rculist__container_of(rcu, struct tramp, rcu);

	rculist__tsan_takeover(t);
	t->func(t->head);
	rculist__tsan_callback_done();
	free(t);
}

/*
 * What the caller wrote before the call is ordered before the callback
 * (a release on the record, acquired by the trampoline); the record is
 * the only allocation, freed by the trampoline.  Out of memory, the
 * callback is queued as it is (ThreadSanitizer may then report it).
 */
void rculist__tsan_call_rcu(struct rcu_head *head,
			    void (*func)(struct rcu_head *head))
{
	struct tramp *t = rculist__tsan_present() ? malloc(sizeof(*t)) : NULL;

	if (!t) {
		rculist_call_rcu(head, func);
		return;
	}
	t->head = head;
	t->func = func;
	rculist__tsan_handover(t);
	rculist_call_rcu(&t->rcu, tramp_run);
}
