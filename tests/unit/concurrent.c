// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/concurrent.c - RCU readers walking lists while an updater changes
 * them, under whichever flavour the suite is linked with.
 *
 * Each test runs two reader threads (tests/unit/conc.h) against one updater,
 * the test's own thread, which holds a mutex while it updates and retires
 * what it removes through a grace period before poisoning it.  Readers
 * check every element they reach: alive (never poisoned, never a foreign
 * head), key in range, keys strictly ordered where the list is kept
 * sorted (so no element is seen twice), and that the walk ends.  The test
 * asserts that each reader walked, overlapped updates, and saw nothing
 * wrong, then checks the final lists whole, both ways.
 */
#include <limits.h>
#include <sched.h>

#include "conc.h"

TestSuite(concurrent, .timeout = 30);

/* ------------------------------------------------ a sorted circular list */

#define NKEYS 64

/*
 * Keys 0..NKEYS-1, each present at most once, kept in increasing order.
 * Every link readers can load was, when stored, the link to a neighbour
 * in that order, so a forward walk sees strictly increasing keys and a
 * backward walk strictly decreasing ones, however updates interleave.
 */
struct sorted {
	struct conc_elem head;
	struct conc_elem *present[NKEYS];
	pthread_mutex_t lock;
	struct conc_reclaimer rc;
	uint64_t rnd;
	int replace_only;
	unsigned long adds, add_tails, dels, replaces;
};

static void walk_forward(struct conc_reader *r) RCULIST_REQUIRES_RCU
{
	struct conc_elem *head = r->arg, *e;
	long last = -1, n = 0;

	cds_list_for_each_entry_rcu(e, &head->link, link) {
		if (!conc_check_elem(r, e, NKEYS))
			break;
		if (e->key <= last) {
			conc_violation(r, "forward walk %lu: key %ld after %ld",
				       r->walks, e->key, last);
			break;
		}
		last = e->key;
		conc_pause_point(r, n++);
	}
	if (r->param && n != r->param && !r->violations)
		conc_violation(r, "forward walk %lu saw %ld elements, not %ld",
			       r->walks, n, r->param);
	r->elems += n;
}

static void walk_backward(struct conc_reader *r) RCULIST_REQUIRES_RCU
{
	struct conc_elem *head = r->arg, *e;
	long last = NKEYS, n = 0;

	cds_list_for_each_entry_reverse_rcu(e, &head->link, link) {
		if (!conc_check_elem(r, e, NKEYS))
			break;
		if (e->key >= last) {
			conc_violation(r, "backward walk %lu: key %ld before %ld",
				       r->walks, e->key, last);
			break;
		}
		last = e->key;
		conc_pause_point(r, n++);
	}
	if (r->param && n != r->param && !r->violations)
		conc_violation(r, "backward walk %lu saw %ld elements, not %ld",
			       r->walks, n, r->param);
	r->elems += n;
}

static struct conc_elem *sorted_neighbour(struct sorted *s, long k, int dir)
{
	for (k += dir; k >= 0 && k < NKEYS; k += dir)
		if (s->present[k])
			return s->present[k];
	return NULL;
}

/*
 * One update on a random key: an absent key is inserted after its
 * predecessor (cds_list_add_rcu) or before its successor
 * (cds_list_add_tail_rcu), the head standing in for a missing neighbour;
 * a present key is deleted or replaced by a fresh element.
 */
static void sorted_step(void *arg)
{
	struct sorted *s = arg;
	uint32_t how = conc_rand(&s->rnd);
	long k = how % NKEYS;
	struct conc_elem *old, *n = NULL, *nb;

	how /= NKEYS;
	pthread_mutex_lock(&s->lock);
	old = s->present[k];
	if (!old && !s->replace_only) {
		n = conc_elem_new(k);
		if (how & 1) {
			nb = sorted_neighbour(s, k, -1);
			cds_list_add_rcu(&n->link,
					 nb ? &nb->link : &s->head.link);
			s->adds++;
		} else {
			nb = sorted_neighbour(s, k, +1);
			cds_list_add_tail_rcu(&n->link,
					      nb ? &nb->link : &s->head.link);
			s->add_tails++;
		}
		s->present[k] = n;
	} else if (old && !s->replace_only && (how & 2)) {
		cds_list_del_rcu(&old->link);
		s->present[k] = NULL;
		s->dels++;
	} else if (old) {
		n = conc_elem_new(k);
		cds_list_replace_rcu(&old->link, &n->link);
		s->present[k] = n;
		s->replaces++;
	}
	pthread_mutex_unlock(&s->lock);
	conc_updated();
	if (old)
		conc_retire(&s->rc, old);
}

/* The final list is present[] in order, every link agreeing both ways. */
static void sorted_check_and_free(struct sorted *s)
{
	struct cds_list_head *prev = &s->head.link, *pos;
	struct conc_elem *e;
	long k;

	for (k = 0; k < NKEYS; k++) {
		if (!s->present[k])
			continue;
		pos = prev->next;
		cr_assert_eq(pos, &s->present[k]->link,
			     "forward: key %ld not where expected", k);
		cr_assert_eq(pos->prev, prev, "key %ld: prev is wrong", k);
		prev = pos;
	}
	cr_assert_eq(prev->next, &s->head.link, "list longer than present[]");
	cr_assert_eq(s->head.link.prev, prev, "head->prev is not the last");
	while (!cds_list_empty(&s->head.link)) {
		e = cds_list_first_entry(&s->head.link, struct conc_elem, link);
		cds_list_del(&e->link);
		free(e);
	}
}

static void sorted_run(enum conc_mode mode, void (*walk)(struct conc_reader *r),
		       int replace_only)
{
	static struct sorted s;
	struct conc_reader r[2] = {
		{ .walk = walk, .arg = &s.head },
		{ .walk = walk, .arg = &s.head },
	};
	unsigned long steps;
	long k;

	conc_head_init(&s.head);
	pthread_mutex_init(&s.lock, NULL);
	s.rc.mode = mode;
	s.rnd = 0x9e3779b97f4a7c15ULL;
	s.replace_only = replace_only;
	for (k = 0; k < NKEYS; k += replace_only ? 1 : 2) {
		s.present[k] = conc_elem_new(k);
		cds_list_add_tail(&s.present[k]->link, &s.head.link);
	}
	if (replace_only) {
		r[0].param = r[1].param = NKEYS;
		/* One reader walks each way: both must see all NKEYS. */
		r[1].walk = walk == walk_forward ? walk_backward : walk_forward;
	}

	conc_readers_start(r, 2);
	steps = conc_update_for(conc_secs(), 20, r, 2, sorted_step, &s);
	conc_readers_stop(r, 2);
	conc_reclaim_finish(&s.rc);

	cr_assert_gt(steps, 100, "only %lu updates", steps);
	if (replace_only) {
		cr_assert_eq(s.replaces, steps);
	} else {
		cr_assert_gt(s.adds, 0);
		cr_assert_gt(s.add_tails, 0);
		cr_assert_gt(s.dels, 0);
		cr_assert_gt(s.replaces, 0);
	}
	cr_assert_eq(s.rc.retired, s.dels + s.replaces);
	sorted_check_and_free(&s);
}

/* Forward readers; add/add_tail/del/replace; synchronize_rcu, poison. */
Test(concurrent, forward_readers_synchronize_rcu)
{
	sorted_run(CONC_SYNC, walk_forward, 0);
}

/* The same; removed elements go through call_rcu; the barrier runs all. */
Test(concurrent, forward_readers_call_rcu)
{
	sorted_run(CONC_CALL_RCU, walk_forward, 0);
}

/* Backward readers (cds_list_for_each_entry_reverse_rcu), same updates. */
Test(concurrent, backward_readers_synchronize_rcu)
{
	sorted_run(CONC_SYNC, walk_backward, 0);
}

Test(concurrent, backward_readers_call_rcu)
{
	sorted_run(CONC_CALL_RCU, walk_backward, 0);
}

/*
 * Replace only: the list always holds exactly NKEYS elements, so every
 * walk, forwards or backwards, sees exactly NKEYS keys 0..NKEYS-1.
 */
Test(concurrent, replace_only_walks_see_every_key)
{
	sorted_run(CONC_SYNC, walk_forward, 1);
}

/* ------------------------------------------------------------- splices */

#define SPLICE_DST_MAX 48
#define SPLICE_BOUND   4096 /* a walk longer than this never ends */

/*
 * Batches of fresh elements are built privately, published into src
 * (one by one with cds_list_add_tail_rcu, or all at once with
 * cds_list_splice_tail_init_rcu), then src is spliced into dst at its
 * head or its tail; dst is trimmed with cds_list_del_rcu.  Readers
 * alternate between the two lists; a reader of either must end at its
 * own head: reaching the other head is a violation (CONC_HEAD magic).
 */
struct splicer {
	struct conc_elem src, dst;
	pthread_mutex_t lock;
	struct conc_reclaimer rc;
	uint64_t rnd;
	long next_key;
	long dst_len;
	unsigned long splices, splices_tail, published_at_once;
};

static void walk_src_or_dst(struct conc_reader *r) RCULIST_REQUIRES_RCU
{
	struct splicer *s = r->arg;
	struct conc_elem *head = ((r->walks + r->param) & 1) ? &s->dst : &s->src,
			 *e;
	long n = 0;

	cds_list_for_each_entry_rcu(e, &head->link, link) {
		if (!conc_check_elem(r, e, LONG_MAX))
			break;
		if (++n > SPLICE_BOUND) {
			conc_violation(r, "walk %lu of %s does not end",
				       r->walks, head == &s->src ? "src" : "dst");
			break;
		}
		conc_pause_point(r, n);
	}
	r->elems += n;
}

static void splice_step(void *arg)
{
	struct splicer *s = arg;
	uint32_t how = conc_rand(&s->rnd);
	long i, n = 1 + how % 8;
	struct conc_elem *e, *tmp;
	CDS_LIST_HEAD(batch);

	for (i = 0; i < n; i++) {
		e = conc_elem_new(s->next_key++);
		cds_list_add_tail(&e->link, &batch);
	}

	pthread_mutex_lock(&s->lock);
	if (how & 8) {
		/* Nobody reads batch: the grace period is spent for nothing. */
		cds_list_splice_tail_init_rcu(&batch, &s->src.link);
		s->published_at_once++;
	} else {
		cds_list_for_each_entry_safe(e, tmp, &batch, link) {
			cds_list_del(&e->link);
			cds_list_add_tail_rcu(&e->link, &s->src.link);
			conc_updated();
		}
	}
	conc_updated();
	pthread_mutex_unlock(&s->lock);

	sched_yield(); /* let readers into src */

	pthread_mutex_lock(&s->lock);
	if (how & 16) {
		cds_list_splice_tail_init_rcu(&s->src.link, &s->dst.link);
		s->splices_tail++;
	} else {
		cds_list_splice_init_rcu(&s->src.link, &s->dst.link);
		s->splices++;
	}
	s->dst_len += n;
	conc_updated();
	pthread_mutex_unlock(&s->lock);

	while (s->dst_len > SPLICE_DST_MAX) {
		pthread_mutex_lock(&s->lock);
		e = (how & 32) ? cds_list_first_entry(&s->dst.link,
						      struct conc_elem, link) :
				 cds_list_last_entry(&s->dst.link,
						     struct conc_elem, link);
		cds_list_del_rcu(&e->link);
		s->dst_len--;
		conc_updated();
		pthread_mutex_unlock(&s->lock);
		conc_retire(&s->rc, e);
	}
}

Test(concurrent, splice_init_rcu_readers_of_both_lists_end_at_their_head)
{
	static struct splicer s;
	struct conc_reader r[2] = {
		{ .walk = walk_src_or_dst, .arg = &s },
		{ .walk = walk_src_or_dst, .arg = &s },
	};
	struct conc_elem *e;
	long n = 0, last_key = -1;

	conc_head_init(&s.src);
	conc_head_init(&s.dst);
	pthread_mutex_init(&s.lock, NULL);
	s.rc.mode = CONC_SYNC;
	s.rnd = 0x2545f4914f6cdd1dULL;
	/* Start the second reader on the other list. */
	r[1].param = 1;

	conc_readers_start(r, 2);
	conc_update_for(conc_secs(), 20, r, 2, splice_step, &s);
	conc_readers_stop(r, 2);
	conc_reclaim_finish(&s.rc);

	cr_assert_gt(s.splices, 0);
	cr_assert_gt(s.splices_tail, 0);
	cr_assert_gt(s.published_at_once, 0);
	/* after: [src] empty; [dst] holds dst_len distinct live elements. */
	CHECK_EMPTY(&s.src.link);
	cds_list_for_each_entry(e, &s.dst.link, link) {
		cr_assert_eq(e->magic, CONC_ALIVE);
		cr_assert_eq(e->link.next->prev, &e->link);
		cr_assert_eq(e->link.prev->next, &e->link);
		cr_assert_neq(e->key, last_key);
		last_key = e->key;
		n++;
	}
	cr_assert_eq(n, s.dst_len);
	cr_assert_eq(cds_list_count_nodes(&s.dst.link), (size_t)n);
	while (!cds_list_empty(&s.dst.link)) {
		e = cds_list_first_entry(&s.dst.link, struct conc_elem, link);
		cds_list_del(&e->link);
		free(e);
	}
}

/* --------------------------------------------------------------- hlist */

#define NBUCKETS 4
#define HKEYS	 64

/*
 * A hash table of NBUCKETS chains, key k in chain k % NBUCKETS, each chain
 * sorted; readers look at one chain per walk, alternating the 2-argument
 * and the 4-argument iterator.
 */
struct htable {
	struct cds_hlist_head bucket[NBUCKETS];
	struct conc_elem *present[HKEYS];
	pthread_mutex_t lock;
	struct conc_reclaimer rc;
	uint64_t rnd;
	unsigned long add_heads, add_befores, add_behinds, dels, replaces;
};

static void hwalk_check(struct conc_reader *r, const struct conc_elem *e,
			long b, long *last, long *n)
{
	if (*n < 0)
		return;
	if (!conc_check_elem(r, e, HKEYS)) {
		*n = -1;
		return;
	}
	if (e->key % NBUCKETS != b || e->key <= *last) {
		conc_violation(r, "chain %ld walk %lu: key %ld after %ld", b,
			       r->walks, e->key, *last);
		*n = -1;
		return;
	}
	*last = e->key;
	conc_pause_point(r, (*n)++);
}

static void walk_chain(struct conc_reader *r) RCULIST_REQUIRES_RCU
{
	struct htable *t = r->arg;
	long b = (long)((r->walks / 2 + r->param) % NBUCKETS), last = -1, n = 0;
	struct cds_hlist_head *head = &t->bucket[b];
	struct cds_hlist_node *pos;
	struct conc_elem *e;

	if (r->walks & 1) {
		cds_hlist_for_each_entry_rcu_2(e, head, hnode) {
			hwalk_check(r, e, b, &last, &n);
			if (n < 0)
				break;
		}
	} else {
		cds_hlist_for_each_entry_rcu(e, pos, head, hnode) {
			hwalk_check(r, e, b, &last, &n);
			if (n < 0)
				break;
		}
	}
	if (n > 0)
		r->elems += n;
}

static struct conc_elem *chain_neighbour(struct htable *t, long k, long dir)
{
	for (k += dir * NBUCKETS; k >= 0 && k < HKEYS; k += dir * NBUCKETS)
		if (t->present[k])
			return t->present[k];
	return NULL;
}

static void hlist_step(void *arg)
{
	struct htable *t = arg;
	uint32_t how = conc_rand(&t->rnd);
	long k = how % HKEYS;
	struct conc_elem *old, *n, *pred, *succ;

	how /= HKEYS;
	pthread_mutex_lock(&t->lock);
	old = t->present[k];
	if (!old) {
		n = conc_elem_new(k);
		pred = chain_neighbour(t, k, -1);
		succ = chain_neighbour(t, k, +1);
		if (succ && (!pred || (how & 1))) {
			cds_hlist_add_before_rcu(&n->hnode, &succ->hnode);
			t->add_befores++;
		} else if (pred) {
			cds_hlist_add_behind_rcu(&n->hnode, &pred->hnode);
			t->add_behinds++;
		} else {
			cds_hlist_add_head_rcu(&n->hnode,
					       &t->bucket[k % NBUCKETS]);
			t->add_heads++;
		}
		t->present[k] = n;
	} else if (how & 2) {
		cds_hlist_del_rcu(&old->hnode);
		t->present[k] = NULL;
		t->dels++;
	} else {
		n = conc_elem_new(k);
		cds_hlist_replace_rcu(&old->hnode, &n->hnode);
		t->present[k] = n;
		t->replaces++;
	}
	pthread_mutex_unlock(&t->lock);
	conc_updated();
	if (old)
		conc_retire(&t->rc, old);
}

Test(concurrent, hlist_readers_both_iterators)
{
	static struct htable t;
	struct conc_reader r[2] = {
		{ .walk = walk_chain, .arg = &t },
		{ .walk = walk_chain, .arg = &t },
	};
	struct cds_hlist_node *prev;
	struct conc_elem *e;
	long b, k;

	for (b = 0; b < NBUCKETS; b++)
		CDS_INIT_HLIST_HEAD(&t.bucket[b]);
	pthread_mutex_init(&t.lock, NULL);
	t.rc.mode = CONC_CALL_RCU;
	t.rnd = 0x853c49e6748fea9bULL;
	r[1].param = 1;

	conc_readers_start(r, 2);
	conc_update_for(conc_secs(), 20, r, 2, hlist_step, &t);
	conc_readers_stop(r, 2);
	conc_reclaim_finish(&t.rc);

	cr_assert_gt(t.add_befores, 0);
	cr_assert_gt(t.add_behinds, 0);
	cr_assert_gt(t.add_heads, 0);
	cr_assert_gt(t.dels, 0);
	cr_assert_gt(t.replaces, 0);
	/* after: each chain is present[] of its residue, in order. */
	for (b = 0; b < NBUCKETS; b++) {
		prev = (struct cds_hlist_node *)(void *)&t.bucket[b];
		for (k = b; k < HKEYS; k += NBUCKETS) {
			if (!t.present[k])
				continue;
			cr_assert_eq(prev->next, &t.present[k]->hnode,
				     "chain %ld: key %ld not where expected", b,
				     k);
			cr_assert_eq(t.present[k]->hnode.prev, prev);
			prev = prev->next;
		}
		cr_assert_null(prev->next, "chain %ld longer than present[]", b);
	}
	for (k = 0; k < HKEYS; k++) {
		e = t.present[k];
		if (e) {
			cds_hlist_del(&e->hnode);
			free(e);
		}
	}
	for (b = 0; b < NBUCKETS; b++)
		cr_assert(cds_hlist_empty(&t.bucket[b]));
}
