// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/typecheck/const.c - code written against liburcu 0.15's list
 * headers that reads lists through const pointers compiles unchanged
 * against rculist, with -Wcast-qual -Werror, as C and as C++
 * (make check-typecheck).  liburcu 0.15 takes const for
 * cds_list_replace()'s old and for cds_list_empty(), and its iterators
 * and container_of accept const heads, const cursors and const links;
 * rculist takes const wherever an operation only reads.
 */
#include <rculist.h>

struct item {
	int key;
	struct cds_list_head link;
	struct cds_hlist_node hnode;
};

/* A walk by the loop given after the cursor @c: its keys summed. */
#define SUM(c, ...) __VA_ARGS__ sum += (c)->key
/* A walk by the loop given: its elements counted. */
#define COUNT(...) __VA_ARGS__ sum++

long c_list(const struct cds_list_head *ch, struct cds_list_head *h,
	    const struct cds_list_head *old, struct cds_list_head *newp);
long c_hlist(const struct cds_hlist_head *chh, const struct cds_hlist_node *cn);

long c_list(const struct cds_list_head *ch, struct cds_list_head *h,
	    const struct cds_list_head *old, struct cds_list_head *newp)
{
	const struct item *cp, *cn;
	struct item *p, *n;
	struct cds_list_head *pos, *tmp;
	long sum = 0;

	/* The operations 0.15 declares const. */
	cds_list_replace(old, newp);
	sum += cds_list_empty(ch);
	/* Predicates: all read only. */
	sum += cds_list_empty_careful(ch) + cds_list_is_singular(ch);
	sum += cds_list_is_first(old, ch) + cds_list_is_last(old, ch);
	sum += cds_list_is_head(old, ch) + (long)cds_list_count_nodes(ch);
	/* container_of of a const link, into a const or a plain element. */
	cp = cds_list_entry(ch->next, const struct item, link);
	p = cds_list_entry(ch->next, struct item, link);
	cp = cds_list_first_entry(ch, const struct item, link);
	p = cds_list_first_entry(ch, struct item, link);
	cp = cds_list_last_entry(ch, struct item, link);
	cp = cds_list_first_entry_or_null(ch, const struct item, link);
	cp = cds_list_next_entry(cp, link);
	cp = cds_list_prev_entry(cp, link);
	sum += cds_list_entry_is_head(cp, ch, link);
	/* Iterators over a const head, with plain and const cursors. */
	COUNT(cds_list_for_each(pos, ch));
	COUNT(cds_list_for_each_prev(pos, ch));
	COUNT(cds_list_for_each_safe(pos, tmp, ch));
	COUNT(cds_list_for_each_prev_safe(pos, tmp, ch));
	SUM(cp, cds_list_for_each_entry(cp, ch, link));
	SUM(p, cds_list_for_each_entry(p, ch, link));
	SUM(cp, cds_list_for_each_entry_reverse(cp, ch, link));
	SUM(cp, cds_list_for_each_entry_safe(cp, cn, ch, link));
	SUM(p, cds_list_for_each_entry_safe(p, n, ch, link));
	SUM(cp, cds_list_for_each_entry_safe_from(cp, cn, ch, link));
	SUM(cp, cds_list_for_each_entry_continue(cp, ch, link));
	SUM(cp, cds_list_for_each_entry_from(cp, ch, link));
	SUM(cp, cds_list_for_each_entry_continue_reverse(cp, ch, link));
	SUM(cp, cds_list_for_each_entry_from_reverse(cp, ch, link));
	SUM(cp, cds_list_for_each_entry_safe_reverse(cp, cn, ch, link));
	SUM(cp, cds_list_for_each_entry_safe_continue(cp, cn, ch, link));

	rculist_read_lock();
	COUNT(cds_list_for_each_rcu(pos, ch));
	SUM(cp, cds_list_for_each_entry_rcu(cp, ch, link));
	SUM(p, cds_list_for_each_entry_rcu(p, ch, link));
	SUM(cp, cds_list_for_each_entry_reverse_rcu(cp, ch, link));
	SUM(cp, cds_list_for_each_entry_continue_rcu(cp, ch, link));
	SUM(cp, cds_list_for_each_entry_from_rcu(cp, ch, link));
	cp = cds_list_entry_rcu(ch->next, const struct item, link);
	cp = cds_list_first_or_null_rcu(ch, const struct item, link);
	cp = cds_list_next_or_null_rcu(ch, &cp->link, const struct item, link);
	rculist_read_unlock();
	cds_list_replace_rcu(old, newp);
	(void)h;
	return sum + cp->key + p->key;
}

long c_hlist(const struct cds_hlist_head *chh, const struct cds_hlist_node *cn)
{
	const struct item *ce, *cf;
	struct item *e, *f;
	struct cds_hlist_node *pos, *tmp;
	long sum = 0;

	sum += cds_hlist_empty(chh) + cds_hlist_unhashed(cn);
	sum += cds_hlist_unhashed_lockless(cn) + cds_hlist_fake(cn);
	sum += cds_hlist_is_singular_node(cn, chh);
	ce = cds_hlist_entry(cn, const struct item, hnode);
	SUM(ce, cds_hlist_for_each_entry_continue(ce, hnode));
	SUM(ce, cds_hlist_for_each_entry_from(ce, hnode));
	ce = cds_hlist_entry(cn, const struct item, hnode);
	e = cds_hlist_entry(cn, struct item, hnode);
	ce = cds_hlist_entry_safe(chh->next, const struct item, hnode);
	COUNT(cds_hlist_for_each(pos, chh));
	COUNT(cds_hlist_for_each_safe(pos, tmp, chh));
	SUM(ce, cds_hlist_for_each_entry(ce, pos, chh, hnode));
	SUM(e, cds_hlist_for_each_entry(e, pos, chh, hnode));
	SUM(ce, cds_hlist_for_each_entry_safe(ce, pos, tmp, chh, hnode));
	SUM(ce, cds_hlist_for_each_entry_2(ce, chh, hnode));
	SUM(ce, cds_hlist_for_each_entry_safe_2(ce, cf, chh, hnode));
	SUM(e, cds_hlist_for_each_entry_safe_2(e, f, chh, hnode));

	rculist_read_lock();
	COUNT(cds_hlist_for_each_rcu(pos, chh));
	SUM(ce, cds_hlist_for_each_entry_rcu(ce, pos, chh, hnode));
	SUM(ce, cds_hlist_for_each_entry_rcu_2(ce, chh, hnode));
	ce = cds_hlist_entry(cn, const struct item, hnode);
	SUM(ce, cds_hlist_for_each_entry_continue_rcu(ce, hnode));
	SUM(ce, cds_hlist_for_each_entry_from_rcu(ce, hnode));
	rculist_read_unlock();
	return sum + (e ? e->key : 0);
}
