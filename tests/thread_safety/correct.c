/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/thread_safety/correct.c - correct uses that clang -Wthread-safety
 * must accept without a warning: every _rcu iterator and accessor inside
 * a section, the same iterators given a condition by an updater holding
 * its lock, and the annotations for a program's own functions.  Compiled
 * as C (gnu11, c99 -pedantic), as C++, in debug mode and with each
 * flavour's read side inlined (tests/thread_safety/thread_safety.mk);
 * never run.
 */
#include <pthread.h>
#include <stddef.h>

#include <rculist.h>

struct item {
	int key;
	struct cds_list_head link;
	struct cds_hlist_node hnode;
	struct cds_hlist_nulls_node nnode;
	struct rcu_head rcu;
};

static CDS_LIST_HEAD(list);
static CDS_LIST_HEAD(spare);
static struct cds_hlist_head hlist;
static struct cds_hlist_nulls_head nulls;
static pthread_mutex_t update_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t update_owner;

/* The kernel's lockdep_is_held(), for the walks below. */
static int update_lock_held(void)
{
	return pthread_equal(update_owner, pthread_self());
}

/* A reader: every _rcu iterator and accessor inside one section. */
int reader(void)
{
	struct item *it, *first;
	struct cds_list_head *pos;
	struct cds_hlist_node *hpos;
	struct cds_hlist_nulls_node *npos;
	int sum = 0;

	rculist_read_lock();
	cds_list_for_each_rcu(pos, &list)
		sum++;
	cds_list_for_each_entry_rcu(it, &list, link)
		sum += it->key;
	cds_list_for_each_entry_reverse_rcu(it, &list, link)
		sum += it->key;
	first = cds_list_first_or_null_rcu(&list, struct item, link);
	if (first) {
		it = first;
		cds_list_for_each_entry_continue_rcu(it, &list, link)
			sum += it->key;
		it = cds_list_next_or_null_rcu(&list, &first->link, struct item,
					       link);
		if (it)
			cds_list_for_each_entry_from_rcu(it, &list, link)
				sum += it->key;
		it = cds_list_entry_rcu(first->link.next, struct item, link);
		(void)it;
	}
	cds_hlist_for_each_rcu(hpos, &hlist)
		sum++;
	cds_hlist_for_each_entry_rcu(it, hpos, &hlist, hnode)
		sum += it->key;
	cds_hlist_for_each_entry_rcu_2(it, &hlist, hnode)
		if (it->key == 1)
			break;
	if (it) {
		cds_hlist_for_each_entry_continue_rcu(it, hnode)
			sum += it->key;
	}
	cds_hlist_nulls_for_each_entry_rcu(it, npos, &nulls, nnode)
		sum += it->key;
	rculist_read_unlock();
	return sum;
}

/*
 * An updater: the same walks under the update lock, each saying so with
 * its condition, the kernel's way; no read-side section.
 */
int updater(void)
{
	struct item *it;
	struct cds_list_head *pos;
	struct cds_hlist_node *hpos;
	struct cds_hlist_nulls_node *npos;
	int sum = 0;

	pthread_mutex_lock(&update_lock);
	update_owner = pthread_self();
	cds_list_for_each_rcu(pos, &list, update_lock_held())
		sum++;
	cds_list_for_each_entry_rcu(it, &list, link, update_lock_held())
		sum += it->key;
	cds_list_for_each_entry_reverse_rcu(it, &list, link, update_lock_held())
		sum += it->key;
	if (!cds_list_empty(&list)) {
		it = cds_list_first_entry(&list, struct item, link);
		cds_list_for_each_entry_continue_rcu(it, &list, link,
						     update_lock_held())
			sum += it->key;
		it = cds_list_first_entry(&list, struct item, link);
		cds_list_for_each_entry_from_rcu(it, &list, link,
						 update_lock_held())
			sum += it->key;
	}
	cds_hlist_for_each_rcu(hpos, &hlist, update_lock_held())
		sum++;
	cds_hlist_for_each_entry_rcu(it, hpos, &hlist, hnode, update_lock_held())
		sum += it->key;
	cds_hlist_for_each_entry_rcu_2(it, &hlist, hnode, update_lock_held())
		if (it->key == 1)
			break;
	if (it) {
		cds_hlist_for_each_entry_continue_rcu(it, hnode,
						      update_lock_held())
			sum += it->key;
	}
	it = hlist.next ? cds_hlist_entry(hlist.next, struct item, hnode) : NULL;
	cds_hlist_for_each_entry_from_rcu(it, hnode, update_lock_held())
		sum += it->key;
	cds_hlist_nulls_for_each_entry_rcu(it, npos, &nulls, nnode,
					   update_lock_held())
		sum += it->key;
	update_owner = (pthread_t)0;
	pthread_mutex_unlock(&update_lock);
	return sum;
}

/* Removal: unlink under the lock, wait outside any section, free. */
void remove_first(void)
{
	struct item *it = NULL;

	pthread_mutex_lock(&update_lock);
	if (!cds_list_empty(&list)) {
		it = cds_list_first_entry(&list, struct item, link);
		cds_list_del_rcu(&it->link);
	}
	cds_list_splice_tail_init_rcu(&spare, &list);
	pthread_mutex_unlock(&update_lock);
	rculist_synchronize_rcu();
	rculist_cond_synchronize_rcu(rculist_get_state_synchronize_rcu());
	if (it)
		rculist_free_rcu(it, rcu);
	rculist_rcu_barrier();
	rculist_quiescent_state();
}

/* A lookup called inside its caller's section. */
static struct item *lookup(int key) RCULIST_REQUIRES_RCU
{
	struct item *it;

	cds_list_for_each_entry_rcu(it, &list, link)
		if (it->key == key)
			return it;
	return NULL;
}

/* A lookup that returns inside the section it opens ... */
static struct item *get(int key) RCULIST_ACQUIRES_RCU
{
	rculist_read_lock();
	return lookup(key);
}

/* ... and its release. */
static void put(struct item *it) RCULIST_RELEASES_RCU
{
	(void)it;
	rculist_read_unlock();
}

/* A function that waits for grace periods. */
static void drain(void) RCULIST_EXCLUDES_RCU
{
	rculist_synchronize_rcu();
}

int lookups(void)
{
	struct item *it;
	int key;

	rculist_read_lock();
	it = lookup(1);
	key = it ? it->key : -1;
	rculist_read_unlock();

	it = get(2);
	if (it)
		key += it->key;
	put(it);
	drain();
	return key;
}

/*
 * Nested sections in one function: clang 14 cannot count them (it has no
 * reentrant capabilities), so such a function opts out; debug mode still
 * checks it at run time.
 */
int nested(void) RCULIST_NO_RCU_ANALYSIS
{
	int n;

	rculist_read_lock();
	rculist_read_lock();
	n = lookup(3) != NULL;
	rculist_read_unlock();
	n += lookup(4) != NULL;
	rculist_read_unlock();
	return n;
}

/* <rculist/rhashtable.h>: the bucket walks of a reader and of a lock holder. */
struct robj {
	int key;
	struct cds_rhash_head node;
	struct cds_rhlist_head list;
};

int rht_walks(struct cds_rhashtable *ht, struct cds_rhltable *hlt)
{
	struct cds_bucket_table *tbl;
	struct cds_rhash_head *pos, *next;
	struct cds_rhlist_head *lpos, *l;
	struct robj *o;
	unsigned int i;
	int key = 1, sum = 0;

	rculist_read_lock();
	tbl = cds_rht_dereference_rcu(ht->tbl, ht);
	for (i = 0; i < tbl->size; i++) {
		struct cds_rhash_lock_head **bkt = cds_rht_bucket_var(tbl, i);
		unsigned long flags;

		cds_rht_for_each_rcu(pos, tbl, i)
			sum++;
		cds_rht_for_each_rcu_from(pos, cds_rht_ptr_rcu(bkt), tbl, i)
			sum++;
		cds_rht_for_each_entry_rcu(o, pos, tbl, i, node)
			sum += o->key;
		cds_rht_for_each_entry_rcu_from(o, pos, cds_rht_ptr_rcu(bkt),
						tbl, i, node)
			sum += o->key;
		flags = cds_rht_lock(tbl, bkt);
		cds_rht_for_each(pos, tbl, i)
			sum++;
		cds_rht_for_each_from(pos, cds_rht_ptr(bkt, tbl, i), tbl, i)
			sum++;
		cds_rht_for_each_entry(o, pos, tbl, i, node)
			sum += o->key;
		cds_rht_for_each_entry_from(o, pos, cds_rht_ptr(bkt, tbl, i),
					    tbl, i, node)
			sum += o->key;
		cds_rht_for_each_entry_safe(o, pos, next, tbl, i, node)
			sum += o->key;
		cds_rht_unlock(tbl, bkt, flags);
	}
	l = cds_rhltable_lookup(hlt, &key, ht->p);
	cds_rhl_for_each_rcu(lpos, l)
		sum++;
	cds_rhl_for_each_entry_rcu(o, lpos, l, list)
		sum += o->key;
	rculist_read_unlock();
	return sum;
}
