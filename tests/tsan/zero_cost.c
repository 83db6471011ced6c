// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/tsan/zero_cost.c - every call <rculist/tsan.h> reroutes under
 * -fsanitize=thread, for tests/tsan/zero_cost.sh to compare the object
 * code with and without that header's block.
 */
#include <stdlib.h>

#include <rculist.h>

struct z_obj {
	int v;
	struct rcu_head rcu;
};

static void z_cb(struct rcu_head *head)
{
	free(rculist__container_of(head, struct z_obj, rcu));
}

void z_read_side(void);
int z_poll(struct rculist_gp_cookie c);
void z_defer(struct z_obj *a, struct z_obj *b);
void *z_addresses(int i);

void z_read_side(void)
{
	rculist_read_lock();
	rculist_read_unlock();
	rculist_quiescent_state();
	rculist_thread_offline();
	rculist_thread_online();
}

int z_poll(struct rculist_gp_cookie c)
{
	return rculist_poll_state_synchronize_rcu(c);
}

void z_defer(struct z_obj *a, struct z_obj *b)
{
	rculist_free_rcu(a, rcu);
	rculist_call_rcu(&b->rcu, z_cb);
}

/* The names still denote functions whose address may be taken. */
void *z_addresses(int i)
{
	void (*f[])(void) = { rculist_read_lock, rculist_read_unlock,
			      rculist_quiescent_state, rculist_thread_offline };

	return (void *)(size_t)f[i & 3];
}
