// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/concurrent_bl.c - bit-locked lists under concurrent readers:
 * two readers walk buckets with cds_hlist_bl_for_each_entry_rcu() while
 * two updaters, each holding the bucket's bit lock, add with
 * cds_hlist_bl_add_head_rcu() and delete with cds_hlist_bl_del_rcu(), and
 * free what they delete after a grace period (one through
 * rculist_call_rcu(), the other through rculist_synchronize_rcu()),
 * poisoning it first (conc.h).
 *
 * A reader checks every element it reaches: alive, in its key's bucket,
 * no key twice in one walk (an element leaves and a new one with its key
 * comes back at the head, behind the walk), and never a link with the
 * lock bit.  The updaters check that the lock excludes: a flag per
 * bucket, set and cleared under the lock, is never found set.  At the end
 * each bucket holds exactly the elements the updaters think are there,
 * every pprev leading back, unlocked.
 */
#include "conc.h"

TestSuite(concurrent_bl, .timeout = 30);

#define BL_BUCKETS 4
#define BL_KEYS	   64

struct bltable {
	struct cds_hlist_bl_head bucket[BL_BUCKETS];
	struct conc_elem *present[BL_KEYS]; /* under the bucket's lock */
	int inside[BL_BUCKETS];		    /* set while a holder works */
	unsigned long lock_violations;
};

struct blupdater {
	struct bltable *t;
	struct conc_reclaimer rc;
	uint64_t rnd;
	unsigned long adds, dels;
	pthread_t tid;
};

static int bl_stop;

static void walk_bl(struct conc_reader *r) RCULIST_REQUIRES_RCU
{
	struct bltable *t = r->arg;
	long b = (long)((r->walks + (unsigned long)r->param) % BL_BUCKETS), n = 0;
	unsigned char seen[BL_KEYS] = { 0 };
	struct cds_hlist_bl_node *pos;
	struct conc_elem *e;

	cds_hlist_bl_for_each_entry_rcu(e, pos, &t->bucket[b], blnode) {
		if ((uintptr_t)pos & 1) {
			conc_violation(r,
				       "walk %lu: a link with the lock bit, %p",
				       r->walks, (void *)pos);
			return;
		}
		if (!conc_check_elem(r, e, BL_KEYS))
			return;
		if (e->key % BL_BUCKETS != b) {
			conc_violation(r, "walk %lu: key %ld in bucket %ld",
				       r->walks, e->key, b);
			return;
		}
		if (seen[e->key]++) {
			conc_violation(r, "walk %lu: key %ld twice in bucket %ld",
				       r->walks, e->key, b);
			return;
		}
		conc_pause_point(r, n++);
	}
	r->elems += (unsigned long)n;
}

static void bl_step(void *arg)
{
	struct blupdater *u = arg;
	struct bltable *t = u->t;
	long k = (long)(conc_rand(&u->rnd) % BL_KEYS), b = k % BL_BUCKETS;
	struct conc_elem *old, *n;

	cds_hlist_bl_lock(&t->bucket[b]);
	if (__atomic_exchange_n(&t->inside[b], 1, __ATOMIC_RELAXED))
		__atomic_fetch_add(&t->lock_violations, 1, __ATOMIC_RELAXED);
	old = t->present[k];
	if (!old) {
		n = conc_elem_new(k);
		cds_hlist_bl_add_head_rcu(&n->blnode, &t->bucket[b]);
		t->present[k] = n;
		u->adds++;
	} else {
		cds_hlist_bl_del_rcu(&old->blnode);
		t->present[k] = NULL;
		u->dels++;
	}
	__atomic_store_n(&t->inside[b], 0, __ATOMIC_RELAXED);
	cds_hlist_bl_unlock(&t->bucket[b]);
	conc_updated();
	if (old)
		conc_retire(&u->rc, old);
}

static void *bl_updater_main(void *arg)
{
	while (!__atomic_load_n(&bl_stop, __ATOMIC_ACQUIRE))
		bl_step(arg);
	return NULL;
}

Test(concurrent_bl, readers_walk_while_lock_holders_add_del_free)
{
	static struct bltable t;
	struct conc_reader r[2] = {
		{ .walk = walk_bl, .arg = &t },
		{ .walk = walk_bl, .arg = &t, .param = 1 },
	};
	struct blupdater u[2] = {
		{ .t = &t,
		  .rc = { .mode = CONC_CALL_RCU },
		  .rnd = 0x853c49e6748fea9bULL },
		{ .t = &t,
		  .rc = { .mode = CONC_SYNC },
		  .rnd = 0xda3e39cb94b95bdbULL },
	};
	struct cds_hlist_bl_node *const *pprev;
	struct cds_hlist_bl_node *pos;
	struct conc_elem *e;
	long b, k, found;

	for (b = 0; b < BL_BUCKETS; b++)
		CDS_INIT_HLIST_BL_HEAD(&t.bucket[b]);
	conc_readers_start(r, 2);
	cr_assert_eq(pthread_create(&u[1].tid, NULL, bl_updater_main, &u[1]), 0);
	conc_update_for(conc_secs(), 20, r, 2, bl_step, &u[0]);
	__atomic_store_n(&bl_stop, 1, __ATOMIC_RELEASE);
	cr_assert_eq(pthread_join(u[1].tid, NULL), 0);
	conc_readers_stop(r, 2);

	/* Both updaters' frees: every retired element poisoned, then freed. */
	conc_flush(&u[1].rc);
	rculist_rcu_barrier();
	cr_assert_eq(__atomic_load_n(&conc_callbacks_run, __ATOMIC_RELAXED),
		     u[0].rc.retired);
	cr_assert_eq(conc_quarantine.poisoned, u[0].rc.retired + u[1].rc.retired,
		     "%lu poisoned, %lu + %lu retired",
		     conc_quarantine.poisoned, u[0].rc.retired, u[1].rc.retired);
	conc_quarantine_drain();

	cr_assert_eq(t.lock_violations, 0,
		     "%lu times a lock holder found another inside",
		     t.lock_violations);
	cr_log_info("updaters: %lu+%lu adds, %lu+%lu dels", u[0].adds,
		    u[1].adds, u[0].dels, u[1].dels);
	cr_assert_gt(u[0].adds, 0);
	cr_assert_gt(u[0].dels, 0);
	cr_assert_gt(u[1].adds, 0);
	cr_assert_gt(u[1].dels, 0);

	/* after: each bucket holds exactly its present[] keys, pprev sound. */
	for (b = 0; b < BL_BUCKETS; b++) {
		cr_assert_not(cds_hlist_bl_is_locked(&t.bucket[b]),
			      "bucket %ld left locked", b);
		found = 0;
		pprev = &t.bucket[b].first;
		cds_hlist_bl_for_each_entry(e, pos, &t.bucket[b], blnode) {
			cr_assert_eq(pos->pprev, pprev, "bucket %ld: pprev", b);
			cr_assert_eq(e->magic, CONC_ALIVE);
			cr_assert_eq(e->key % BL_BUCKETS, b);
			cr_assert_eq(t.present[e->key], e,
				     "bucket %ld: key %ld not the present one",
				     b, e->key);
			pprev = &pos->next;
			found++;
		}
		for (k = b; k < BL_KEYS; k += BL_BUCKETS)
			found -= t.present[k] != NULL;
		cr_assert_eq(found, 0, "bucket %ld: %ld more nodes than present",
			     b, found);
	}
	for (k = 0; k < BL_KEYS; k++) {
		e = t.present[k];
		if (e) {
			cds_hlist_bl_lock(&t.bucket[k % BL_BUCKETS]);
			cds_hlist_bl_del(&e->blnode);
			cds_hlist_bl_unlock(&t.bucket[k % BL_BUCKETS]);
			free(e);
		}
	}
	for (b = 0; b < BL_BUCKETS; b++)
		cr_assert(cds_hlist_bl_empty(&t.bucket[b]));
}
