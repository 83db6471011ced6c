// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/memorder/ops.c - every _rcu update operation, iterator and
 * accessor of <rculist/list_rcu.h>, <rculist/hlist_rcu.h>,
 * <rculist/nulls.h>, <rculist/hlist_bl.h> and <rculist/hashtable.h> in a
 * function of its own, compiled for aarch64 (never run) so that tests/memorder/check.py can read the ordering of each
 * publication and each reader load in the generated code.
 *
 * Each function is preceded by its expectations, one per line, in a
 * comment the checker reads:
 *
 *   expect: release ADDR = VALUE   some store of VALUE to ADDR is a
 *                                  release (stlr, or a plain store with a
 *                                  dmb ish between it and every earlier
 *                                  store), and no store of VALUE to ADDR
 *                                  is anything weaker
 *   expect: releases N             at least N release stores in all
 *   expect: acquire N              at least N link loads, and every link
 *                                  load (a 64-bit load not from the
 *                                  stack) is an acquire (ldar, ldapr)
 *   expect: acquire ADDR           every load of ADDR is an acquire (a
 *                                  lockless test whose other loads may be
 *                                  plain)
 *   expect: acquire-rmw            an acquire read-modify-write (a lock)
 *   expect: plain                  an update that publishes nothing: its
 *                                  stores need no ordering (a check that
 *                                  it makes some store at all)
 *
 * ADDR and VALUE are C-like expressions over the function's parameters:
 * `x->next` / `x->prev` is the pointer loaded from offset 0 / 8 of x (the
 * layout of every link structure), `*` any base (a node found by a loop).
 * Readers sum the elements' int keys: the key loads are 32-bit, so every
 * 64-bit load a reader makes is the load of a link.
 *
 * A function is named t_<operation>; check.py fails when an _rcu name of
 * those headers has no function here, so a new operation cannot go
 * unchecked.
 */
#include <rculist.h>

struct elem {
	int key;
	struct cds_list_head node;
};

struct helem {
	int key;
	struct cds_hlist_node node;
};

struct nelem {
	int key;
	struct cds_hlist_nulls_node node;
};

struct blelem {
	int key;
	struct cds_hlist_bl_node node;
};

/* ------------------------------------------------ circular: updates */

/* expect: plain */
void t_CDS_INIT_LIST_HEAD_RCU(struct cds_list_head *list)
{
	CDS_INIT_LIST_HEAD_RCU(list);
}

/* expect: release prev->next = newp
 * expect: release next->prev = newp
 * expect: releases 2 */
void t___cds_list_add_rcu(struct cds_list_head *newp,
			  struct cds_list_head *prev, struct cds_list_head *next)
{
	__cds_list_add_rcu(newp, prev, next);
}

/* expect: release head->next = newp
 * expect: release head->next->prev = newp
 * expect: releases 2 */
void t_cds_list_add_rcu(struct cds_list_head *newp, struct cds_list_head *head)
{
	cds_list_add_rcu(newp, head);
}

/* expect: release head->prev->next = newp
 * expect: release head->prev = newp
 * expect: releases 2 */
void t_cds_list_add_tail_rcu(struct cds_list_head *newp,
			     struct cds_list_head *head)
{
	cds_list_add_tail_rcu(newp, head);
}

/* expect: release elem->prev->next = elem->next
 * expect: release elem->next->prev = elem->prev
 * expect: releases 2 */
void t_cds_list_del_rcu(struct cds_list_head *elem)
{
	cds_list_del_rcu(elem);
}

/* expect: release old->prev->next = newp
 * expect: release old->next->prev = newp
 * expect: releases 2 */
void t_cds_list_replace_rcu(struct cds_list_head *old, struct cds_list_head *newp)
{
	cds_list_replace_rcu(old, newp);
}

/* expect: release head->next = list->next
 * expect: release head->next->prev = list->prev
 * expect: releases 2 */
void t_cds_list_splice_init_rcu(struct cds_list_head *list,
				struct cds_list_head *head)
{
	/* The public form, less its misuse check (a call that would make the
	 * checker lose track of the registers): the same stores. */
	__cds_list_splice_init_rcu(list, head, head->next);
}

/* expect: release head->prev->next = list->next
 * expect: release head->prev = list->prev
 * expect: releases 2 */
void t_cds_list_splice_tail_init_rcu(struct cds_list_head *list,
				     struct cds_list_head *head)
{
	__cds_list_splice_init_rcu(list, head->prev, head); /* as above */
}

/* expect: release elem->prev->next = elem->next
 * expect: release elem->next->prev = elem->prev
 * expect: releases 2 */
void t_cds_list_bidir_del_rcu(struct cds_list_head *elem)
{
	cds_list_bidir_del_rcu(elem);
}

/* expect: release head->next = list->next
 * expect: release head->next->prev = list->prev
 * expect: releases 2 */
void t_cds_list_splice_rcu(struct cds_list_head *list, struct cds_list_head *head)
{
	cds_list_splice_rcu(list, head);
}

/* ------------------------------------- circular: readers, accessors */

/* expect: acquire 1 */
int t_cds_list_entry_rcu(struct cds_list_head *head)
{
	return cds_list_entry_rcu(head->next, struct elem, node)->key;
}

/* expect: acquire 1 */
int t_cds_list_first_or_null_rcu(struct cds_list_head *head)
{
	struct elem *e = cds_list_first_or_null_rcu(head, struct elem, node);

	return e ? e->key : -1;
}

/* expect: acquire 1 */
int t_cds_list_next_or_null_rcu(struct cds_list_head *head, struct elem *pos)
{
	struct elem *e =
		cds_list_next_or_null_rcu(head, &pos->node, struct elem, node);

	return e ? e->key : -1;
}

/* expect: acquire 1 */
int t_cds_list_next_rcu(struct cds_list_head *pos)
{
	struct cds_list_head *n = rculist__deref(cds_list_next_rcu(pos));

	return cds_list_entry(n, struct elem, node)->key;
}

/* expect: acquire 1 */
int t_cds_list_tail_rcu(struct cds_list_head *head)
{
	struct cds_list_head *n = rculist__deref(cds_list_tail_rcu(head));

	return cds_list_entry(n, struct elem, node)->key;
}

/* expect: acquire 1 */
int t_cds_list_bidir_prev_rcu(struct cds_list_head *pos)
{
	struct cds_list_head *n = rculist__deref(cds_list_bidir_prev_rcu(pos));

	return cds_list_entry(n, struct elem, node)->key;
}

/* expect: acquire 2 */
int t_cds_list_for_each_rcu(struct cds_list_head *head)
{
	struct cds_list_head *pos;
	int sum = 0;

	cds_list_for_each_rcu(pos, head)
		sum += cds_list_entry(pos, struct elem, node)->key;
	return sum;
}

/* expect: acquire 2 */
int t_cds_list_for_each_entry_rcu(struct cds_list_head *head)
{
	struct elem *e;
	int sum = 0;

	cds_list_for_each_entry_rcu(e, head, node)
		sum += e->key;
	return sum;
}

/* expect: acquire 2 */
int t_cds_list_for_each_entry_reverse_rcu(struct cds_list_head *head)
{
	struct elem *e;
	int sum = 0;

	cds_list_for_each_entry_reverse_rcu(e, head, node)
		sum += e->key;
	return sum;
}

/* expect: acquire 2 */
int t_cds_list_for_each_entry_continue_rcu(struct cds_list_head *head,
					   struct elem *e)
{
	int sum = 0;

	cds_list_for_each_entry_continue_rcu(e, head, node)
		sum += e->key;
	return sum;
}

/* expect: acquire 1 */
int t_cds_list_for_each_entry_from_rcu(struct cds_list_head *head, struct elem *e)
{
	int sum = 0;

	cds_list_for_each_entry_from_rcu(e, head, node)
		sum += e->key;
	return sum;
}

/* ---------------------------------------------------- hlist: updates */

/* expect: release head->next = newp
 * expect: releases 1 */
void t_cds_hlist_add_head_rcu(struct cds_hlist_node *newp,
			      struct cds_hlist_head *head)
{
	cds_hlist_add_head_rcu(newp, head);
}

/* expect: release next->prev->next = n
 * expect: releases 1 */
void t_cds_hlist_add_before_rcu(struct cds_hlist_node *n,
				struct cds_hlist_node *next)
{
	cds_hlist_add_before_rcu(n, next);
}

/* expect: release prev->next = n
 * expect: releases 1 */
void t_cds_hlist_add_behind_rcu(struct cds_hlist_node *n,
				struct cds_hlist_node *prev)
{
	cds_hlist_add_behind_rcu(n, prev);
}

/* expect: release *->next = n
 * expect: releases 1 */
void t_cds_hlist_add_tail_rcu(struct cds_hlist_node *n,
			      struct cds_hlist_head *head)
{
	cds_hlist_add_tail_rcu(n, head);
}

/* expect: release elem->prev->next = elem->next
 * expect: releases 1 */
void t_cds_hlist_del_rcu(struct cds_hlist_node *elem)
{
	cds_hlist_del_rcu(elem);
}

/* expect: release elem->prev->next = elem->next
 * expect: releases 1 */
void t_cds_hlist_del_init_rcu(struct cds_hlist_node *elem)
{
	cds_hlist_del_init_rcu(elem);
}

/* expect: release old->prev->next = newn
 * expect: releases 1 */
void t_cds_hlist_replace_rcu(struct cds_hlist_node *old,
			     struct cds_hlist_node *newn)
{
	cds_hlist_replace_rcu(old, newn);
}

/* expect: release left->next = right->next
 * expect: release right->next = left->next
 * expect: releases 2 */
void t_cds_hlists_swap_heads_rcu(struct cds_hlist_head *left,
				 struct cds_hlist_head *right)
{
	cds_hlists_swap_heads_rcu(left, right);
}

/* The lvalue accessors, used as the kernel's callers use them. */

/* expect: release old->prev->next = newn
 * expect: releases 1 */
void t_cds_hlist_pprev_rcu(struct cds_hlist_node *old, struct cds_hlist_node *newn)
{
	rculist__publish(cds_hlist_pprev_rcu(old), newn);
}

/* ---------------------------------------------------- hlist: readers */

/* expect: acquire 2 */
int t_cds_hlist_for_each_rcu(struct cds_hlist_head *head)
{
	struct cds_hlist_node *pos;
	int sum = 0;

	cds_hlist_for_each_rcu(pos, head)
		sum += cds_hlist_entry(pos, struct helem, node)->key;
	return sum;
}

/* expect: acquire 2 */
int t_cds_hlist_for_each_entry_rcu(struct cds_hlist_head *head)
{
	struct cds_hlist_node *pos;
	struct helem *e;
	int sum = 0;

	cds_hlist_for_each_entry_rcu(e, pos, head, node)
		sum += e->key;
	return sum;
}

/* expect: acquire 2 */
int t_cds_hlist_for_each_entry_rcu_2(struct cds_hlist_head *head)
{
	struct helem *e;
	int sum = 0;

	cds_hlist_for_each_entry_rcu_2(e, head, node)
		sum += e->key;
	return sum;
}

/* expect: acquire 1 */
int t_cds_hlist_for_each_entry_continue_rcu(struct helem *e)
{
	int sum = 0;

	cds_hlist_for_each_entry_continue_rcu(e, node)
		sum += e->key;
	return sum;
}

/* expect: acquire 1 */
int t_cds_hlist_for_each_entry_from_rcu(struct helem *e)
{
	int sum = 0;

	cds_hlist_for_each_entry_from_rcu(e, node)
		sum += e->key;
	return sum;
}

/* expect: acquire 1 */
int t_cds_hlist_first_rcu(struct cds_hlist_head *head)
{
	struct cds_hlist_node *n = rculist__deref(cds_hlist_first_rcu(head));

	return n ? cds_hlist_entry(n, struct helem, node)->key : -1;
}

/* expect: acquire 1 */
int t_cds_hlist_next_rcu(struct cds_hlist_node *pos)
{
	struct cds_hlist_node *n = rculist__deref(cds_hlist_next_rcu(pos));

	return n ? cds_hlist_entry(n, struct helem, node)->key : -1;
}

/* ----------------------------------------------- hash tables (hlists) */

/* A table is passed as a pointer to the array, which *t is again. */
typedef struct cds_hlist_head mo_table[16];

/* expect: release *->next = n
 * expect: releases 1 */
void t_cds_hash_add_rcu(mo_table *t, struct cds_hlist_node *n, unsigned int key)
{
	cds_hash_add_rcu(*t, n, key);
}

/* expect: release elem->prev->next = elem->next
 * expect: releases 1 */
void t_cds_hash_del_rcu(struct cds_hlist_node *elem)
{
	cds_hash_del_rcu(elem);
}

/* expect: acquire 2 */
int t_cds_hash_for_each_possible_rcu(mo_table *t, unsigned int key)
{
	struct helem *e;
	int sum = 0;

	cds_hash_for_each_possible_rcu(*t, e, node, key)
		sum += e->key;
	return sum;
}

/* expect: acquire 2 */
int t_cds_hash_for_each_possible_rcu_notrace(mo_table *t, unsigned int key)
{
	struct helem *e;
	int sum = 0;

	/* ^=: code of its own, not folded into the function above */
	cds_hash_for_each_possible_rcu_notrace(*t, e, node, key)
		sum ^= e->key;
	return sum;
}

/* expect: acquire 2 */
int t_cds_hash_for_each_rcu(mo_table *t)
{
	struct helem *e;
	int sum = 0, bkt;

	cds_hash_for_each_rcu(*t, bkt, e, node)
		sum += e->key;
	return sum;
}

/* ---------------------------------------------------- nulls: updates */

/* expect: release n->next = head->next
 * expect: release head->next = n
 * expect: releases 2 */
void t_cds_hlist_nulls_add_head_rcu(struct cds_hlist_nulls_node *n,
				    struct cds_hlist_nulls_head *head)
{
	cds_hlist_nulls_add_head_rcu(n, head);
}

/* expect: release *->next = n
 * expect: releases 1 */
void t_cds_hlist_nulls_add_tail_rcu(struct cds_hlist_nulls_node *n,
				    struct cds_hlist_nulls_head *head)
{
	cds_hlist_nulls_add_tail_rcu(n, head);
}

/* expect: release n->prev->next = n->next
 * expect: releases 1 */
void t_cds_hlist_nulls_del_rcu(struct cds_hlist_nulls_node *n)
{
	cds_hlist_nulls_del_rcu(n);
}

/* expect: release n->prev->next = n->next
 * expect: releases 1 */
void t_cds_hlist_nulls_del_init_rcu(struct cds_hlist_nulls_node *n)
{
	cds_hlist_nulls_del_init_rcu(n);
}

/* expect: release n->next = old->next
 * expect: release old->prev->next = n
 * expect: releases 2 */
void t_cds_hlist_nulls_replace_rcu(struct cds_hlist_nulls_node *old,
				   struct cds_hlist_nulls_node *n)
{
	cds_hlist_nulls_replace_rcu(old, n);
}

/* expect: release n->next = old->next
 * expect: release old->prev->next = n
 * expect: releases 2 */
void t_cds_hlist_nulls_replace_init_rcu(struct cds_hlist_nulls_node *old,
					struct cds_hlist_nulls_node *n)
{
	cds_hlist_nulls_replace_init_rcu(old, n);
}

/* expect: release old->prev->next = n
 * expect: releases 1 */
void t_cds_hlist_nulls_pprev_rcu(struct cds_hlist_nulls_node *old,
				 struct cds_hlist_nulls_node *n)
{
	rculist__publish(cds_hlist_nulls_pprev_rcu(old), n);
}

/* ---------------------------------------------------- nulls: readers */

/* expect: acquire 2 */
int t_cds_hlist_nulls_for_each_entry_rcu(struct cds_hlist_nulls_head *head)
{
	struct cds_hlist_nulls_node *pos;
	struct nelem *e;
	int sum = 0;

	cds_hlist_nulls_for_each_entry_rcu(e, pos, head, node)
		sum += e->key;
	return sum;
}

/* expect: acquire 1 */
int t_cds_hlist_nulls_first_rcu(struct cds_hlist_nulls_head *head)
{
	struct cds_hlist_nulls_node *n =
		rculist__deref(cds_hlist_nulls_first_rcu(head));

	if (cds_is_a_nulls(n))
		return -1;
	return cds_hlist_nulls_entry(n, struct nelem, node)->key;
}

/* expect: acquire 1 */
int t_cds_hlist_nulls_next_rcu(struct cds_hlist_nulls_node *pos)
{
	struct cds_hlist_nulls_node *n =
		rculist__deref(cds_hlist_nulls_next_rcu(pos));

	if (cds_is_a_nulls(n))
		return -1;
	return cds_hlist_nulls_entry(n, struct nelem, node)->key;
}

/*
 * A waiter that finds its entry removed (cds_list_empty_careful()) sees
 * the remover's writes: elem->next is written last, a release store.
 */

/* expect: releases 1 */
void t_cds_list_del_init_careful(struct cds_list_head *elem)
{
	cds_list_del_init_careful(elem);
}

/* The waiter's side: the load of next that sees it empty is an acquire. */

/* expect: acquire head->next */
int t_cds_list_empty_careful(const struct cds_list_head *head)
{
	return cds_list_empty_careful(head);
}

/* ------------------------------------------------ bit-locked: updates */

/* The value published carries the head's lock bit: the checker reads it as ?. */

/* expect: release head->next = ?
 * expect: releases 1 */
void t_cds_hlist_bl_add_head_rcu(struct cds_hlist_bl_node *n,
				 struct cds_hlist_bl_head *head)
{
	cds_hlist_bl_add_head_rcu(n, head);
}

/* expect: release n->prev->next = ?
 * expect: releases 1 */
void t_cds_hlist_bl_del_rcu(struct cds_hlist_bl_node *n)
{
	cds_hlist_bl_del_rcu(n);
}

/* The lock takes the bit with an acquire compare-and-swap. */

/* expect: acquire-rmw */
void t_cds_hlist_bl_lock(struct cds_hlist_bl_head *head)
{
	cds_hlist_bl_lock(head);
}

/* The unlock publishes the section's writes with the head's word. */

/* expect: releases 1 */
void t_cds_hlist_bl_unlock(struct cds_hlist_bl_head *head)
{
	cds_hlist_bl_unlock(head);
}

/* ------------------------------------------------ bit-locked: readers */

/* expect: acquire 1 */
int t_cds_hlist_bl_first_rcu(struct cds_hlist_bl_head *head)
{
	struct cds_hlist_bl_node *n = cds_hlist_bl_first_rcu(head);

	return n ? cds_hlist_bl_entry(n, struct blelem, node)->key : -1;
}

/* expect: acquire 2 */
int t_cds_hlist_bl_for_each_entry_rcu(struct cds_hlist_bl_head *head)
{
	struct cds_hlist_bl_node *pos;
	struct blelem *e;
	int sum = 0;

	cds_hlist_bl_for_each_entry_rcu(e, pos, head, node)
		sum += e->key;
	return sum;
}
