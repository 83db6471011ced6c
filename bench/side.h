/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/side.h - the loops of every side, written once.
 *
 * The including file has included its list header and <bench.h>, and
 * defines:
 *   SIDE_SYM                  the struct bench_side to define
 *   SIDE_NAME                 its name in tables and CSV
 *   side_lock(d), side_unlock(d), side_qs()     around/after one lookup
 *   side_wlock(d), side_wunlock(d)              around one update
 *   SIDE_FOR_EACH(pos, head)  the list iterator (member node)
 *   SIDE_HFOR_EACH(pos, head) the hlist iterator (member hnode)
 *   SIDE_LIST_ADD, SIDE_LIST_DEL, SIDE_LIST_REPLACE, SIDE_HLIST_ADD,
 *   SIDE_HLIST_DEL            the update operations (if SIDE_OPS is 1)
 *   SIDE_RCU, SIDE_UPDATES, SIDE_OPS, SIDE_INIT, SIDE_FINI, SIDE_QS_FN,
 *   SIDE_CALL_RCU, SIDE_SYNC, SIDE_BARRIER     struct fields
 */
#ifndef BENCH_SIDE_H
#define BENCH_SIDE_H

/*
 * A qsbr reader announces a quiescent state once per 1024 lookups, as
 * liburcu's own benchmark does (tests/benchmark/test_urcu_qsbr.c: "QS
 * each 1024 reads"), and as a server does once per pass of its event
 * loop, not once per lookup: a pass of up to BENCH_QS_EVERY lookups,
 * then one.  The lookups measure the read-side section; side_sections()
 * below, the cost section, announces one after every section and so
 * gives what a quiescent state costs by itself.
 */
#define BENCH_QS_EVERY 1024UL

/*
 * List lookups, a quiescent state after each pass of up to @every
 * lookups (always inlined: a constant @every per caller).
 */
static inline __attribute__((always_inline)) unsigned long
side_list_lookups(struct bench_data *d, unsigned long n, uint64_t *rng,
		  unsigned long every)
{
	struct cds_list_head *head = d->head;
	unsigned long nkeys = d->nkeys, sum = 0;
	uint64_t x = *rng;

	while (n) {
		unsigned long pass = n < every ? n : every;

		n -= pass;
		for (unsigned long i = pass; i; i--) {
			unsigned long key = bench_key(&x, nkeys);
			struct elem *e;

			side_lock(d);
			SIDE_FOR_EACH(e, head) {
				if (e->key == key) {
					sum += e->val;
					break;
				}
			}
			side_unlock(d);
		}
		side_qs();
	}
	*rng = x;
	return sum;
}

static unsigned long side_list_lookup(struct bench_data *d, unsigned long n,
				      uint64_t *rng)
{
	return side_list_lookups(d, n, rng, BENCH_QS_EVERY);
}

/*
 * A quiescent state after every lookup in a list (make
 * bench-instructions' row list8+qs): a qsbr server's request loop.
 */
static unsigned long side_list_lookup_qs(struct bench_data *d, unsigned long n,
					 uint64_t *rng)
{
	return side_list_lookups(d, n, rng, 1);
}

/*
 * Hash lookups, a quiescent state after each pass of up to @every
 * lookups (always inlined: a constant @every per caller).
 */
static inline __attribute__((always_inline)) unsigned long
side_hash_lookups(struct bench_data *d, unsigned long n, uint64_t *rng,
		  unsigned long every)
{
	struct cds_hlist_head *buckets = d->buckets;
	unsigned long nkeys = d->nkeys, sum = 0;
	uint64_t x = *rng;

	while (n) {
		unsigned long pass = n < every ? n : every;

		n -= pass;
		for (unsigned long i = pass; i; i--) {
			unsigned long key = bench_key(&x, nkeys);
			struct elem *e;

			side_lock(d);
			SIDE_HFOR_EACH(e, &buckets[key & (BENCH_BUCKETS - 1)]) {
				if (e->key == key) {
					sum += e->val;
					break;
				}
			}
			side_unlock(d);
		}
		side_qs();
	}
	*rng = x;
	return sum;
}

static unsigned long side_hash_lookup(struct bench_data *d, unsigned long n,
				      uint64_t *rng)
{
	return side_hash_lookups(d, n, rng, BENCH_QS_EVERY);
}

/*
 * A quiescent state after every lookup: what a qsbr server that announces
 * one per request pays (make bench-instructions' row hash+qs).
 */
static unsigned long side_hash_lookup_qs(struct bench_data *d, unsigned long n,
					 uint64_t *rng)
{
	return side_hash_lookups(d, n, rng, 1);
}

/* n empty read-side sections: what the read side costs by itself. */
static unsigned long side_sections(struct bench_data *d, unsigned long n,
				   uint64_t *rng)
{
	(void)rng;
	(void)d;
	while (n--) {
		side_lock(d);
		__asm__ __volatile__("" ::: "memory");
		side_unlock(d);
		side_qs();
	}
	return 0;
}

#if SIDE_UPDATES
static void side_list_replace(struct bench_data *d, struct elem *old,
			      struct elem *newe)
{
	side_wlock(d);
	SIDE_LIST_REPLACE(&old->node, &newe->node);
	side_wunlock(d);
}

/* Delete and re-add at the bucket's head: what a hash update does. */
static void side_hash_replace(struct bench_data *d, struct elem *old,
			      struct elem *newe)
{
	side_wlock(d);
	SIDE_HLIST_DEL(&old->hnode);
	SIDE_HLIST_ADD(&newe->hnode,
		       &d->buckets[newe->key & (BENCH_BUCKETS - 1)]);
	side_wunlock(d);
}
#endif

#if SIDE_OPS
static void side_op_list_add(struct elem **v, unsigned long n, void *head)
{
	for (unsigned long i = 0; i < n; i++)
		SIDE_LIST_ADD(&v[i]->node, (struct cds_list_head *)head);
}

static void side_op_list_del(struct elem **v, unsigned long n, void *head)
{
	(void)head;
	for (unsigned long i = 0; i < n; i++)
		SIDE_LIST_DEL(&v[i]->node);
}

static void side_op_list_replace(struct elem **v, unsigned long n, void *head)
{
	(void)head;
	for (unsigned long i = 0; i < n; i++)
		SIDE_LIST_REPLACE(&v[i]->node, &v[n + i]->node);
}

static void side_op_hlist_add(struct elem **v, unsigned long n, void *head)
{
	for (unsigned long i = 0; i < n; i++)
		SIDE_HLIST_ADD(&v[i]->hnode, (struct cds_hlist_head *)head);
}

static void side_op_hlist_del(struct elem **v, unsigned long n, void *head)
{
	(void)head;
	for (unsigned long i = 0; i < n; i++)
		SIDE_HLIST_DEL(&v[i]->hnode);
}
#endif

const struct bench_side SIDE_SYM = {
	.name = SIDE_NAME,
	.rcu = SIDE_RCU,
	.updates = SIDE_UPDATES,
	.thread_init = SIDE_INIT,
	.thread_fini = SIDE_FINI,
	.quiescent = SIDE_QS_FN,
	.list_lookup = side_list_lookup,
	.list_lookup_qs = side_list_lookup_qs,
	.hash_lookup = side_hash_lookup,
	.hash_lookup_qs = side_hash_lookup_qs,
	.sections = side_sections,
#if SIDE_UPDATES
	.list_replace = side_list_replace,
	.hash_replace = side_hash_replace,
#endif
	.call_rcu = SIDE_CALL_RCU,
	.synchronize = SIDE_SYNC,
	.barrier = SIDE_BARRIER,
#if SIDE_OPS
	.op = {
		[OP_LIST_ADD] = side_op_list_add,
		[OP_LIST_DEL] = side_op_list_del,
		[OP_LIST_REPLACE] = side_op_list_replace,
		[OP_HLIST_ADD] = side_op_hlist_add,
		[OP_HLIST_DEL] = side_op_hlist_del,
	},
#endif
};

#endif /* BENCH_SIDE_H */
