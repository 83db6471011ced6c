// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/typecheck/members.c - every *_entry macro and every iterator
 * that takes a member refuses, at compile time, a member that is not the
 * list's node type (make check-typecheck, tests/typecheck/typecheck.mk).
 *
 * Compiled as it stands, every use names the right member, and the file
 * must compile without a warning, as C and as C++.  Each use marked
 * TC_L(name), TC_H(name), TC_N(name), TC_B(name), TC_R(name) or TC_Q(name) is also a case: compiled with
 * -DTC_BAD_name=TC_YES, that use alone names a member of another node
 * type, and the compiler must refuse it, at that line, with the message
 * of the list it belongs to:
 *   TC_L  circular lists, given an hlist node:  member is not a struct cds_list_head
 *   TC_H  hlists, given a circular-list link:   member is not a struct cds_hlist_node
 *   TC_N  nulls lists, given an hlist node:     member is not a struct cds_hlist_nulls_node
 *   TC_B  bit-locked lists, given an hlist node: member is not a struct cds_hlist_bl_node
 *   TC_R  rhashtable buckets, given an hlist node: member is not a struct cds_rhash_head
 *   TC_Q  rhltable keys, given an rhashtable link: member is not a struct cds_rhlist_head
 * (C99 spells the message as an identifier, member_is_not_a_struct_...).
 * One use per line: tests/typecheck/typecheck.mk finds the cases by line.
 */
#include <rculist.h>

struct obj {
	int key;
	struct cds_list_head link;
	struct cds_hlist_node hnode;
	struct cds_hlist_nulls_node nnode;
	struct cds_hlist_bl_node blnode;
	struct cds_rhash_head rnode;
	struct cds_rhlist_head rlist;
};

/*
 * TC_PICK(flag, good, wrong) is @wrong if @flag expands to TC_YES, else
 * @good: TC_YES puts a 1 second in TC_SECOND's arguments, an undefined
 * TC_BAD_name leaves the 0 there.
 */
#define TC_YES		       ~, 1
#define TC_SECOND(a, b, ...)   b
#define TC_IS_YES(...)	       TC_SECOND(__VA_ARGS__, 0, ~)
#define TC_CAT2(a, b)	       a##b
#define TC_CAT(a, b)	       TC_CAT2(a, b)
#define TC_PICK_0(good, wrong) good
#define TC_PICK_1(good, wrong) wrong
#define TC_PICK(flag, good, wrong) \
	TC_CAT(TC_PICK_, TC_IS_YES(flag))(good, wrong)

#define TC_L(name) TC_PICK(TC_BAD_##name, link, hnode)
#define TC_H(name) TC_PICK(TC_BAD_##name, hnode, link)
#define TC_N(name) TC_PICK(TC_BAD_##name, nnode, hnode)
#define TC_B(name) TC_PICK(TC_BAD_##name, blnode, hnode)
#define TC_R(name) TC_PICK(TC_BAD_##name, rnode, hnode)
#define TC_Q(name) TC_PICK(TC_BAD_##name, rlist, rnode)

/* A walk by the loop given after the cursor @c: the keys it visits, summed. */
#define SUM(c, ...) __VA_ARGS__ sum += (c)->key

/* One use per line, however long: clang-format would wrap them. */
/* clang-format off */
long tc_list(struct cds_list_head *h, const struct cds_list_head *ch);
long tc_hlist(struct cds_hlist_head *hh);
long tc_nulls(struct cds_hlist_nulls_head *nh);
long tc_bl(struct cds_hlist_bl_head *bh);
long tc_hash(void);
long tc_rht(struct cds_bucket_table *tbl, struct cds_rhlist_head *l);

long tc_list(struct cds_list_head *h, const struct cds_list_head *ch)
{
	struct obj *p, *n;
	const struct obj *cp;
	long sum = 0;

	p = cds_list_entry(h->next, struct obj, TC_L(list_entry));
	cp = cds_list_entry(ch->next, const struct obj, TC_L(list_entry_const));
	p = cds_list_first_entry(h, struct obj, TC_L(list_first_entry));
	p = cds_list_last_entry(h, struct obj, TC_L(list_last_entry));
	p = cds_list_first_entry_or_null(h, struct obj, TC_L(list_first_entry_or_null));
	p = cds_list_next_entry(p, TC_L(list_next_entry));
	p = cds_list_prev_entry(p, TC_L(list_prev_entry));
	sum += cds_list_entry_is_head(p, h, TC_L(list_entry_is_head));
	SUM(p, cds_list_for_each_entry(p, h, TC_L(list_for_each_entry)));
	SUM(cp, cds_list_for_each_entry(cp, ch, TC_L(list_for_each_entry_const)));
	SUM(p, cds_list_for_each_entry_reverse(p, h, TC_L(list_for_each_entry_reverse)));
	SUM(p, cds_list_for_each_entry_continue(p, h, TC_L(list_for_each_entry_continue)));
	SUM(p, cds_list_for_each_entry_continue_reverse(p, h, TC_L(list_for_each_entry_continue_reverse)));
	SUM(p, cds_list_for_each_entry_from(p, h, TC_L(list_for_each_entry_from)));
	SUM(p, cds_list_for_each_entry_from_reverse(p, h, TC_L(list_for_each_entry_from_reverse)));
	SUM(p, cds_list_for_each_entry_safe(p, n, h, TC_L(list_for_each_entry_safe)));
	SUM(p, cds_list_for_each_entry_safe_reverse(p, n, h, TC_L(list_for_each_entry_safe_reverse)));
	SUM(p, cds_list_for_each_entry_safe_from(p, n, h, TC_L(list_for_each_entry_safe_from)));
	SUM(p, cds_list_for_each_entry_safe_continue(p, n, h, TC_L(list_for_each_entry_safe_continue)));

	rculist_read_lock();
	p = cds_list_entry_rcu(h->next, struct obj, TC_L(list_entry_rcu));
	p = cds_list_first_or_null_rcu(h, struct obj, TC_L(list_first_or_null_rcu));
	p = cds_list_next_or_null_rcu(h, &p->link, struct obj, TC_L(list_next_or_null_rcu));
	SUM(p, cds_list_for_each_entry_rcu(p, h, TC_L(list_for_each_entry_rcu)));
	SUM(cp, cds_list_for_each_entry_rcu(cp, ch, TC_L(list_for_each_entry_rcu_const)));
	SUM(p, cds_list_for_each_entry_reverse_rcu(p, h, TC_L(list_for_each_entry_reverse_rcu)));
	SUM(p, cds_list_for_each_entry_continue_rcu(p, h, TC_L(list_for_each_entry_continue_rcu)));
	SUM(p, cds_list_for_each_entry_from_rcu(p, h, TC_L(list_for_each_entry_from_rcu)));
	rculist_read_unlock();
	return sum + p->key + cp->key;
}

long tc_hlist(struct cds_hlist_head *hh)
{
	struct cds_hlist_node *pos, *tmp;
	struct obj *p, *n;
	long sum = 0;

	p = cds_hlist_entry(hh->next, struct obj, TC_H(hlist_entry));
	p = cds_hlist_entry_safe(hh->next, struct obj, TC_H(hlist_entry_safe));
	SUM(p, cds_hlist_for_each_entry(p, pos, hh, TC_H(hlist_for_each_entry)));
	SUM(p, cds_hlist_for_each_entry_safe(p, pos, tmp, hh, TC_H(hlist_for_each_entry_safe)));
	SUM(p, cds_hlist_for_each_entry_2(p, hh, TC_H(hlist_for_each_entry_2)));
	SUM(p, cds_hlist_for_each_entry_safe_2(p, n, hh, TC_H(hlist_for_each_entry_safe_2)));
	p = cds_hlist_entry(hh->next, struct obj, hnode);
	SUM(p, cds_hlist_for_each_entry_continue(p, TC_H(hlist_for_each_entry_continue)));
	p = cds_hlist_entry(hh->next, struct obj, hnode);
	SUM(p, cds_hlist_for_each_entry_from(p, TC_H(hlist_for_each_entry_from)));

	rculist_read_lock();
	SUM(p, cds_hlist_for_each_entry_rcu(p, pos, hh, TC_H(hlist_for_each_entry_rcu)));
	SUM(p, cds_hlist_for_each_entry_rcu_2(p, hh, TC_H(hlist_for_each_entry_rcu_2)));
	p = cds_hlist_entry(hh->next, struct obj, hnode);
	SUM(p, cds_hlist_for_each_entry_continue_rcu(p, TC_H(hlist_for_each_entry_continue_rcu)));
	p = cds_hlist_entry(hh->next, struct obj, hnode);
	SUM(p, cds_hlist_for_each_entry_from_rcu(p, TC_H(hlist_for_each_entry_from_rcu)));
	rculist_read_unlock();
	return sum;
}

long tc_nulls(struct cds_hlist_nulls_head *nh)
{
	struct cds_hlist_nulls_node *pos;
	struct obj *p;
	long sum = 0;

	p = cds_hlist_nulls_entry(nh->next, struct obj, TC_N(hlist_nulls_entry));
	sum += p->key;
	SUM(p, cds_hlist_nulls_for_each_entry(p, pos, nh, TC_N(hlist_nulls_for_each_entry)));
	rculist_read_lock();
	SUM(p, cds_hlist_nulls_for_each_entry_rcu(p, pos, nh, TC_N(hlist_nulls_for_each_entry_rcu)));
	rculist_read_unlock();
	p = cds_hlist_nulls_entry_safe(nh->next, struct obj, TC_N(hlist_nulls_entry_safe));
	sum += p ? p->key : 0;
	SUM(p, cds_hlist_nulls_for_each_entry_safe(p, pos, nh, TC_N(hlist_nulls_for_each_entry_safe)));
	pos = nh->next;
	SUM(p, cds_hlist_nulls_for_each_entry_from(p, pos, TC_N(hlist_nulls_for_each_entry_from)));
	return sum;
}

long tc_bl(struct cds_hlist_bl_head *bh)
{
	struct cds_hlist_bl_node *pos, *n;
	struct obj *p;
	long sum = 0;

	p = cds_hlist_bl_entry(cds_hlist_bl_first(bh), struct obj, TC_B(hlist_bl_entry));
	sum += p->key;
	SUM(p, cds_hlist_bl_for_each_entry(p, pos, bh, TC_B(hlist_bl_for_each_entry)));
	SUM(p, cds_hlist_bl_for_each_entry_safe(p, pos, n, bh, TC_B(hlist_bl_for_each_entry_safe)));
	rculist_read_lock();
	SUM(p, cds_hlist_bl_for_each_entry_rcu(p, pos, bh, TC_B(hlist_bl_for_each_entry_rcu)));
	rculist_read_unlock();
	return sum;
}

/*
 * The hash table iterators: the whole-table and lookup walks are the
 * hlist iterators above; the _safe walks (a node temporary) and _notrace
 * have loops of their own, each a case.
 */
long tc_hash(void)
{
	static CDS_DEFINE_HASHTABLE(ht, 3);
	struct cds_hlist_node *tmp;
	struct obj *p;
	long sum = 0;
	int bkt;

	cds_hash_for_each(ht, bkt, p, hnode)
		sum += p->key;
	cds_hash_for_each_safe(ht, bkt, tmp, p, hnode)
		sum += p->key;
	cds_hash_for_each_possible(ht, p, hnode, 1)
		sum += p->key;
	cds_hash_for_each_possible_safe(ht, p, tmp, TC_H(hash_for_each_possible_safe), 1)
		sum += p->key;
	rculist_read_lock();
	cds_hash_for_each_rcu(ht, bkt, p, hnode)
		sum += p->key;
	cds_hash_for_each_possible_rcu(ht, p, hnode, 1)
		sum += p->key;
	cds_hash_for_each_possible_rcu_notrace(ht, p, TC_H(hash_for_each_possible_rcu_notrace), 1)
		sum += p->key;
	rculist_read_unlock();
	return sum;
}

/* The bucket iterators of <rculist/rhashtable.h>, and the rhltable's. */
long tc_rht(struct cds_bucket_table *tbl, struct cds_rhlist_head *l)
{
	struct cds_rhash_lock_head **bkt = cds_rht_bucket_var(tbl, 0);
	struct cds_rhash_head *pos, *next;
	struct cds_rhlist_head *lpos;
	struct obj *p;
	unsigned long flags;
	long sum = 0;

	rculist_read_lock();
	flags = cds_rht_lock(tbl, bkt);
	SUM(p, cds_rht_for_each_entry(p, pos, tbl, 0, TC_R(rht_for_each_entry)));
	SUM(p, cds_rht_for_each_entry_from(p, pos, cds_rht_ptr(bkt, tbl, 0), tbl, 0, TC_R(rht_for_each_entry_from)));
	SUM(p, cds_rht_for_each_entry_safe(p, pos, next, tbl, 0, TC_R(rht_for_each_entry_safe)));
	cds_rht_unlock(tbl, bkt, flags);
	SUM(p, cds_rht_for_each_entry_rcu(p, pos, tbl, 0, TC_R(rht_for_each_entry_rcu)));
	SUM(p, cds_rht_for_each_entry_rcu_from(p, pos, cds_rht_ptr_rcu(bkt), tbl, 0, TC_R(rht_for_each_entry_rcu_from)));
	SUM(p, cds_rhl_for_each_entry_rcu(p, lpos, l, TC_Q(rhl_for_each_entry_rcu)));
	rculist_read_unlock();
	return sum;
}
/* clang-format on */
