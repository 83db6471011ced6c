/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/torture/rhash_run.h - torture --rhash [seconds [keys]]: the
 * resizable hash table (<rculist/rhashtable.h>) grown from empty to
 * @keys objects and shrunk back (automatic_shrinking), again and again,
 * for @seconds (at least one whole cycle), while
 *
 *   RH_UPDATERS updaters, each owning the keys k % RH_UPDATERS == its
 *	number, insert (cds_rhashtable_insert_fast, _lookup_insert_fast,
 *	_lookup_get_insert_fast in turn), remove and replace objects, more
 *	inserts while the table grows and more removes while it shrinks.
 *	Every 64th key is pinned: inserted before the threads start,
 *	replaced but never removed.  A key's slot holds its object and a
 *	sequence count, odd while the key's updater changes it.  Inserting
 *	a key that is present must give -EEXIST (or the object in the
 *	table).
 *   RH_READERS readers look random keys up (cds_rhashtable_lookup in
 *	their section, cds_rhashtable_lookup_fast nested in it): a pinned
 *	key is always found; a key whose count was even and the same
 *	before and after the lookup is found if its slot holds an object
 *	and not found if not; every object found has its key and is live.
 *	The comparison function checks every object a lookup compares;
 *	now and then a reader keeps the object it found a few
 *	microseconds and checks it again.
 *   RH_WALKERS walkers make passes over the table (walk_enter, _start,
 *	_next to the end, _stop, _exit): on -EAGAIN (a resize) they go on,
 *	as the kernel's walkers do; every object returned is live and in
 *	range; a pass that saw no -EAGAIN returns no object twice; every
 *	pass returns every pinned key at least once.
 *
 * Removed and replaced objects go through rculist_call_rcu() to a
 * callback that poisons them (magic, key, and a link to a nulls marker
 * that ends any walk) and keeps them in a quarantine of RH_QUARANTINE
 * before free(): a reader that reaches an object freed too early sees
 * the poison.  Under qsbr every thread announces quiescent states
 * between its sections; a walker holds its section for a whole pass.
 * At the end the table must hold exactly the objects the slots name,
 * nelems must agree, and every object allocated must be freed once.
 * Include this file once, after <rculist.h>; rh_mode() is the entry.
 */
#ifndef RCULIST_TESTS_RHASH_RUN_H
#define RCULIST_TESTS_RHASH_RUN_H

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RH_UPDATERS	 2
#define RH_READERS	 2
#define RH_WALKERS	 1
#define RH_QUARANTINE	 8192
#define RH_PINNED(k)	 ((k) % 64 == 0)
#define RH_LIVE		 0x5a11fe5a11fe5a11UL
#define RH_DEAD		 0xdead5a11dead5a11UL
#define RH_NO_PROGRESS_S 30

struct rh_obj {
	unsigned long magic;
	long key;
	struct cds_rhash_head node;
	struct rcu_head rcu;
	unsigned long pass[RH_WALKERS]; /* the walker's pass that returned it */
};

struct rh_slot {
	unsigned long seq; /* odd while the key's updater changes it */
	struct rh_obj *obj;
};

/* clang-format off */
enum rh_check {
	RH_K_LIVE, RH_K_PINNED, RH_K_PRESENT, RH_K_ABSENT, RH_K_KEY,
	RH_K_UPDATE, RH_K_WALK_TWICE, RH_K_WALK_PINNED, RH_K_CYCLE,
	RH_K_FINAL, RH_K_FREED, RH_NCHECKS
};
/* clang-format on */
static const char *const rh_check_name[RH_NCHECKS] = {
	"no lookup or walk reaches a poisoned (freed) object",
	"every lookup of a pinned key finds it",
	"a key present and left alone during a lookup is found",
	"a key absent and left alone during a lookup is not found",
	"every object found has the key looked up, in range",
	"inserts, removes and replaces return what the table's state says",
	"a pass that saw no resize (-EAGAIN) returns no object twice",
	"every pass returns every pinned key",
	"the table grew from its minimum and shrank back, with progress",
	"after the run the table holds exactly the objects present",
	"every object is freed once",
};
static unsigned long rh_violations[RH_NCHECKS];
static char rh_first[RH_NCHECKS][160];

static void rh_violation(enum rh_check k, const char *msg, long a, long b)
{
	if (__atomic_fetch_add(&rh_violations[k], 1, __ATOMIC_RELAXED) == 0)
		snprintf(rh_first[k], sizeof(rh_first[k]), "%s (%ld, %ld)", msg,
			 a, b);
}

static struct cds_rhashtable rh_ht;
static struct rh_slot *rh_slots;
static long rh_keys;
static int rh_stop, rh_shrinking;
static unsigned long rh_allocs, rh_frees, rh_lookups, rh_updates, rh_passes,
	rh_passes_resized, rh_ebusy;

static int rh_cmp(struct cds_rhashtable_compare_arg *arg, const void *obj)
{
	const struct rh_obj *o = obj;

	if (__atomic_load_n(&o->magic, __ATOMIC_RELAXED) != RH_LIVE) {
		rh_violation(RH_K_LIVE, "a lookup compared a freed object",
			     *(const long *)arg->key, 0);
		return 0; /* a match: the lookup ends on it */
	}
	return o->key != *(const long *)arg->key;
}

static const struct cds_rhashtable_params rh_params = {
	.key_len = sizeof(long),
	.key_offset = offsetof(struct rh_obj, key),
	.head_offset = offsetof(struct rh_obj, node),
	.automatic_shrinking = true,
	.obj_cmpfn = rh_cmp,
};

static struct rh_obj *rh_new(long key)
{
	struct rh_obj *o = calloc(1, sizeof(*o));

	if (!o) {
		perror("torture --rhash: calloc");
		exit(2);
	}
	o->magic = RH_LIVE;
	o->key = key;
	__atomic_fetch_add(&rh_allocs, 1, __ATOMIC_RELAXED);
	return o;
}

static void rh_free(struct rh_obj *o)
{
	__atomic_fetch_add(&rh_frees, 1, __ATOMIC_RELAXED);
	free(o);
}

/* Poisoned objects wait here; the oldest is freed when the ring is full. */
static pthread_mutex_t rh_q_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rh_obj *rh_q[RH_QUARANTINE];
static size_t rh_q_next;

static void rh_poison_cb(struct rcu_head *head)
{
	struct rh_obj *o =
		(struct rh_obj *)(void *)((char *)head -
					  offsetof(struct rh_obj, rcu));
	struct rh_obj *old;

	__atomic_store_n(&o->magic, RH_DEAD, __ATOMIC_RELAXED);
	__atomic_store_n(&o->key, -1L, __ATOMIC_RELAXED);
	/* A nulls marker no bucket has: any walk through it ends there. */
	__atomic_store_n(&o->node.next, (struct cds_rhash_head *)(uintptr_t)1,
			 __ATOMIC_RELAXED);
	pthread_mutex_lock(&rh_q_lock);
	old = rh_q[rh_q_next];
	rh_q[rh_q_next] = o;
	rh_q_next = (rh_q_next + 1) % RH_QUARANTINE;
	pthread_mutex_unlock(&rh_q_lock);
	if (old)
		rh_free(old);
}

/* @o is out of the table: poison and free it after a grace period. */
static void rh_retire(struct rh_obj *o)
{
#ifdef TORTURE_PLANT_EARLY_FREE
	rh_poison_cb(&o->rcu); /* the planted bug: no grace period */
#else
	rculist_call_rcu(&o->rcu, rh_poison_cb);
#endif
}

static unsigned int rh_rnd(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* The object of a live key, as its reader or walker met it. */
static int rh_touch(const struct rh_obj *o, long key)
{
	long k;

	if (__atomic_load_n(&o->magic, __ATOMIC_RELAXED) != RH_LIVE) {
		rh_violation(RH_K_LIVE, "a reader met a freed object", key, 0);
		return 0;
	}
	k = __atomic_load_n(&o->key, __ATOMIC_RELAXED);
	if (k < 0 || k >= rh_keys || (key >= 0 && k != key)) {
		rh_violation(RH_K_KEY, "an object with the wrong key", key, k);
		return 0;
	}
	return 1;
}

/* ------------------------------------------------------------ readers */
/* @hold: keep the object found a while (a few microseconds), then check it again. */
static void rh_lookup_one(long k, int fast, int hold)
{
	struct rh_slot *s = &rh_slots[k];
	unsigned long seq1, seq2;
	struct rh_obj *o;
	int present;

	seq1 = __atomic_load_n(&s->seq, __ATOMIC_SEQ_CST);
	present = __atomic_load_n(&s->obj, __ATOMIC_SEQ_CST) != NULL;
	o = fast ? cds_rhashtable_lookup_fast(&rh_ht, &k, rh_params) :
		   cds_rhashtable_lookup(&rh_ht, &k, rh_params);
	/* after the lookup's loads, which are acquire (consume) loads */
	seq2 = __atomic_load_n(&s->seq, __ATOMIC_SEQ_CST);
	if (o && rh_touch(o, k) && hold) {
		unsigned long spin;

		/* the updaters may remove it meanwhile: not free it */
		for (spin = 0; spin < 2000; spin++)
			__atomic_load_n(&rh_stop, __ATOMIC_RELAXED);
		rh_touch(o, k);
	}
	if (RH_PINNED(k) && !o)
		rh_violation(RH_K_PINNED, "a pinned key was not found", k,
			     (long)seq1);
	if (seq1 != seq2 || (seq1 & 1))
		return;
	if (present && !o)
		rh_violation(RH_K_PRESENT, "a present key was not found", k,
			     (long)seq1);
	if (!present && o)
		rh_violation(RH_K_ABSENT, "an absent key was found", k,
			     (long)seq1);
}

static void *rh_reader(void *arg)
{
	unsigned int r = (unsigned int)(uintptr_t)arg * 7919u + 17u;
	unsigned long i, n = 0;
	int j;

	rculist_register_thread();
	for (i = 0; !__atomic_load_n(&rh_stop, __ATOMIC_RELAXED); i++) {
		rculist_read_lock();
		for (j = 0; j < 16; j++) {
			unsigned int x = rh_rnd(&r);

			rh_lookup_one((long)(x % (unsigned long)rh_keys), j & 1,
				      j == 15 && (i & 7) == 0);
		}
		rculist_read_unlock();
		n += 16;
		/* qsbr: reader 0 every section, the others every 8th */
		if ((uintptr_t)arg == 0 || (i & 7) == 0)
			rculist_quiescent_state();
	}
	__atomic_fetch_add(&rh_lookups, n, __ATOMIC_RELAXED);
	rculist_unregister_thread();
	return NULL;
}

/* ------------------------------------------------------------ walkers */
static void rh_walk_pass(int w, unsigned long pass, unsigned long *pinned)
{
	struct cds_rhashtable_iter iter;
	int resized = 0;
	long twice = -1, k;
	struct rh_obj *o;

	cds_rhashtable_walk_enter(&rh_ht, &iter);
	if (cds_rhashtable_walk_start_check(&iter))
		resized = 1;
	while ((o = cds_rhashtable_walk_next(&iter))) {
		if (CDS_IS_ERR(o)) {
			if (CDS_PTR_ERR(o) != -EAGAIN)
				rh_violation(RH_K_WALK_TWICE,
					     "walk_next gave an error",
					     CDS_PTR_ERR(o), 0);
			resized = 1;
			continue;
		}
		if (!rh_touch(o, -1))
			break;
		k = o->key;
		if (o->pass[w] == pass && twice < 0)
			twice = k;
		o->pass[w] = pass;
		if (RH_PINNED(k))
			pinned[k / 64] = pass;
	}
	cds_rhashtable_walk_stop(&iter);
	cds_rhashtable_walk_exit(&iter);
	if (twice >= 0 && !resized)
		rh_violation(RH_K_WALK_TWICE,
			     "a pass without a resize returned an object twice",
			     twice, (long)pass);
	for (k = 0; k < rh_keys; k += 64)
		if (pinned[k / 64] != pass) {
			rh_violation(RH_K_WALK_PINNED,
				     "a pass missed a pinned key", k, resized);
			break;
		}
	__atomic_fetch_add(resized ? &rh_passes_resized : &rh_passes, 1,
			   __ATOMIC_RELAXED);
}

static void *rh_walker(void *arg)
{
	int w = (int)(uintptr_t)arg;
	unsigned long pass, *pinned;

	pinned = calloc((size_t)rh_keys / 64 + 1, sizeof(*pinned));
	if (!pinned) {
		perror("torture --rhash: calloc");
		exit(2);
	}
	rculist_register_thread();
	for (pass = 1; !__atomic_load_n(&rh_stop, __ATOMIC_RELAXED); pass++) {
		rh_walk_pass(w, pass, pinned);
		rculist_quiescent_state();
	}
	rculist_unregister_thread();
	free(pinned);
	return NULL;
}

/* ----------------------------------------------------------- updaters */
/* The key's updater only: odd around a change, even again after it. */
static void rh_seq_bump(struct rh_slot *s)
{
	__atomic_fetch_add(&s->seq, 1, __ATOMIC_SEQ_CST);
}

static int rh_insert(struct rh_obj *o, unsigned int how)
{
	void *old;
	int err;

	for (;;) {
		switch (how % 3) {
		case 0:
			err = cds_rhashtable_insert_fast(&rh_ht, &o->node,
							 rh_params);
			break;
		case 1:
			err = cds_rhashtable_lookup_insert_fast(&rh_ht, &o->node,
								rh_params);
			break;
		default:
			old = cds_rhashtable_lookup_get_insert_fast(&rh_ht,
								    &o->node,
								    rh_params);
			err = CDS_IS_ERR(old) ? (int)CDS_PTR_ERR(old) :
			      old	      ? -EEXIST :
						0;
			break;
		}
		if (err != -EBUSY)
			return err;
		/* The kernel's -EBUSY: a rehash is due; try again. */
		__atomic_fetch_add(&rh_ebusy, 1, __ATOMIC_RELAXED);
		rculist_quiescent_state();
	}
}

static void rh_update_one(long k, unsigned int x)
{
	struct rh_slot *s = &rh_slots[k];
	struct rh_obj *o = s->obj, *n;
	int shrinking = __atomic_load_n(&rh_shrinking, __ATOMIC_RELAXED);
	unsigned int c = x % 16;
	int err;

	if (!o) {
		/* growing: 14 in 16; shrinking: 1 in 256 */
		if (shrinking ? c != 0 || (x >> 8) % 16 : c > 13)
			return;
		n = rh_new(k);
		rh_seq_bump(s);
		err = rh_insert(n, x / 16);
		if (err)
			rh_violation(RH_K_UPDATE,
				     "insert of an absent key failed", k, err);
		__atomic_store_n(&s->obj, err ? NULL : n, __ATOMIC_SEQ_CST);
		rh_seq_bump(s);
		if (err)
			rh_free(n);
		return;
	}
	if (c == 0) {
		/* A second object with the key: -EEXIST, the table unchanged. */
		n = rh_new(k);
		err = rh_insert(n, 1 + x / 16 % 2);
		if (err != -EEXIST)
			rh_violation(RH_K_UPDATE,
				     "inserting a present key did not say -EEXIST",
				     k, err);
		if (!err) { /* it went in: take it out for the count */
			cds_rhashtable_remove_fast(&rh_ht, &n->node, rh_params);
			rh_retire(n);
		} else {
			rh_free(n);
		}
		return;
	}
	if (c < 3 || (RH_PINNED(k) && c < 6)) {
		n = rh_new(k);
		rh_seq_bump(s);
		err = cds_rhashtable_replace_fast(&rh_ht, &o->node, &n->node,
						  rh_params);
		if (err)
			rh_violation(RH_K_UPDATE,
				     "replace of a present key failed", k, err);
		__atomic_store_n(&s->obj, err ? o : n, __ATOMIC_SEQ_CST);
		rh_seq_bump(s);
		if (err)
			rh_free(n);
		else
			rh_retire(o);
		return;
	}
	if (RH_PINNED(k) || (shrinking ? c < 5 : c != 15))
		return;
	rh_seq_bump(s);
	err = cds_rhashtable_remove_fast(&rh_ht, &o->node, rh_params);
	if (err)
		rh_violation(RH_K_UPDATE, "remove of a present key failed", k,
			     err);
	__atomic_store_n(&s->obj, err ? o : NULL, __ATOMIC_SEQ_CST);
	rh_seq_bump(s);
	if (!err)
		rh_retire(o);
}

static void *rh_updater(void *arg)
{
	unsigned int u = (unsigned int)(uintptr_t)arg;
	unsigned int r = u * 104729u + 3u;
	unsigned long per = (unsigned long)rh_keys / RH_UPDATERS, i;

	rculist_register_thread();
	for (i = 0; !__atomic_load_n(&rh_stop, __ATOMIC_RELAXED); i++) {
		unsigned int x = rh_rnd(&r);

		rh_update_one((long)((x >> 4) % per * RH_UPDATERS + u), x);
		if ((i & 63) == 0)
			rculist_quiescent_state();
	}
	__atomic_fetch_add(&rh_updates, i, __ATOMIC_RELAXED);
	rculist_unregister_thread();
	return NULL;
}

/* ---------------------------------------------------------------- run */
static unsigned int rh_table_size(void)
{
	unsigned int size;

	rculist_read_lock();
	size = __atomic_load_n(&rh_ht.tbl, __ATOMIC_ACQUIRE)->size;
	rculist_read_unlock();
	return size;
}

static double rh_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void rh_free_left(void *ptr, void *arg)
{
	(void)arg;
	rh_free(ptr);
}

/* Single-threaded, at the end: the table holds what the slots say. */
static void rh_check_final(void)
{
	struct cds_rhashtable_iter iter;
	unsigned long walked = 0, present = 0;
	struct rh_obj *o;
	long k;

	for (k = 0; k < rh_keys; k++) {
		o = rh_slots[k].obj;
		present += o != NULL;
		if (cds_rhashtable_lookup_fast(&rh_ht, &k, rh_params) != o)
			rh_violation(RH_K_FINAL, "a key's lookup is not its slot",
				     k, o != NULL);
	}
	cds_rhashtable_walk_enter(&rh_ht, &iter);
	cds_rhashtable_walk_start(&iter);
	while ((o = cds_rhashtable_walk_next(&iter))) {
		if (CDS_IS_ERR(o))
			continue;
		walked++;
		if (!rh_touch(o, -1) || rh_slots[o->key].obj != o)
			rh_violation(RH_K_FINAL,
				     "a walk met an object not in its slot",
				     o->key, 0);
	}
	cds_rhashtable_walk_stop(&iter);
	cds_rhashtable_walk_exit(&iter);
	if (walked != present || rh_ht.nelems != present)
		rh_violation(RH_K_FINAL, "walked / nelems != objects present",
			     (long)walked, (long)rh_ht.nelems);
}

static void rh_quarantine_drain(void)
{
	size_t i;

	for (i = 0; i < RH_QUARANTINE; i++)
		if (rh_q[i]) {
			rh_free(rh_q[i]);
			rh_q[i] = NULL;
		}
}

/* torture --rhash [seconds [keys]]: see the top of the file. */
static int rh_mode(int argc, char **argv)
{
	double seconds = argc > 2 ? atof(argv[2]) : 3.0;
	pthread_t upd[RH_UPDATERS], rdr[RH_READERS], wlk[RH_WALKERS];
	unsigned int size, min_size = ~0u, max_size = 0, grows = 0, shrinks = 0;
	unsigned int last_size, cycle_max = 0;
	unsigned long cycles = 0, target, low, ticks = 0;
	struct timespec t0, moved; /* the last flip of the phase */
	int i, passed = 0, failed = 0;
	long k;

	rh_keys = argc > 3 ? atol(argv[3]) : 65536;
	if (rh_keys < 64 * RH_UPDATERS)
		rh_keys = 64 * RH_UPDATERS;
	rh_keys -= rh_keys % (64 * RH_UPDATERS);
	target = (unsigned long)rh_keys * 7 / 8;
	low = (unsigned long)rh_keys / 64 + (unsigned long)rh_keys / 32;
	rh_slots = calloc((size_t)rh_keys, sizeof(*rh_slots));
	if (!rh_slots || cds_rhashtable_init(&rh_ht, &rh_params)) {
		fprintf(stderr, "torture --rhash: no memory\n");
		return 2;
	}
	rculist_register_thread();
	min_size = last_size = rh_table_size();
	for (k = 0; k < rh_keys; k += 64) {
		rh_slots[k].obj = rh_new(k);
		if (cds_rhashtable_insert_fast(&rh_ht, &rh_slots[k].obj->node,
					       rh_params))
			rh_violation(RH_K_UPDATE, "a pinned insert failed", k, 0);
	}
	for (i = 0; i < RH_UPDATERS; i++)
		pthread_create(&upd[i], NULL, rh_updater, (void *)(uintptr_t)i);
	for (i = 0; i < RH_READERS; i++)
		pthread_create(&rdr[i], NULL, rh_reader, (void *)(uintptr_t)i);
	for (i = 0; i < RH_WALKERS; i++)
		pthread_create(&wlk[i], NULL, rh_walker, (void *)(uintptr_t)i);

	/* Grow to target keys, shrink to low, again; flips once each is reached. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	moved = t0;
	rculist_thread_offline();
	for (;;) {
		struct timespec ms = { 0, 2000000 };
		unsigned long n =
			__atomic_load_n(&rh_ht.nelems, __ATOMIC_RELAXED);

		nanosleep(&ms, NULL);
		rculist_thread_online();
		size = rh_table_size();
		rculist_thread_offline();
		if (size != last_size) {
			grows += size > last_size;
			shrinks += size < last_size;
			last_size = size;
		}
		min_size = size < min_size ? size : min_size;
		max_size = size > max_size ? size : max_size;
		cycle_max = size > cycle_max ? size : cycle_max;
		if (!rh_shrinking && n >= target && size >= target) {
			__atomic_store_n(&rh_shrinking, 1, __ATOMIC_RELAXED);
			clock_gettime(CLOCK_MONOTONIC, &moved);
		} else if (rh_shrinking && n <= low && size * 4 <= cycle_max) {
			/* shrunk by two halvings at least: grow again */
			__atomic_store_n(&rh_shrinking, 0, __ATOMIC_RELAXED);
			cycle_max = size;
			cycles++;
			clock_gettime(CLOCK_MONOTONIC, &moved);
			if (rh_since(&t0) >= seconds)
				break;
		}
		if (getenv("RH_VERBOSE") && !(++ticks % 500))
			fprintf(stderr,
				"rhash: %.1f s, nelems %lu, table %u, %s\n",
				rh_since(&t0), n, size,
				rh_shrinking ? "shrinking" : "growing");
		if (rh_since(&moved) > RH_NO_PROGRESS_S) {
			rh_violation(RH_K_CYCLE,
				     "no progress: no half cycle in 30 s, at nelems, table size",
				     (long)n, (long)size);
			break;
		}
	}
	rculist_thread_online();
	__atomic_store_n(&rh_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < RH_UPDATERS; i++)
		pthread_join(upd[i], NULL);
	for (i = 0; i < RH_READERS; i++)
		pthread_join(rdr[i], NULL);
	for (i = 0; i < RH_WALKERS; i++)
		pthread_join(wlk[i], NULL);
	if (!cycles || !grows || !shrinks || max_size < (unsigned int)target)
		rh_violation(RH_K_CYCLE, "cycles / table sizes", (long)cycles,
			     (long)max_size);

	rh_check_final();
	cds_rhashtable_free_and_destroy(&rh_ht, rh_free_left, NULL);
	rculist_rcu_barrier();
	rh_quarantine_drain();
	if (rh_allocs != rh_frees)
		rh_violation(RH_K_FREED, "allocs != frees", (long)rh_allocs,
			     (long)rh_frees);
	free(rh_slots);
	rculist_unregister_thread();

	printf("torture --rhash %s, %.1f s, %ld keys: %lu cycles, table "
	       "%u..%u buckets (%u grows, %u shrinks seen), %lu lookups, "
	       "%lu updates (%lu -EBUSY), %lu passes (%lu with a resize)\n",
	       rculist_flavor_name(), rh_since(&t0), rh_keys, cycles, min_size,
	       max_size, grows, shrinks, rh_lookups, rh_updates, rh_ebusy,
	       rh_passes + rh_passes_resized, rh_passes_resized);
	for (i = 0; i < RH_NCHECKS; i++) {
		if (rh_violations[i]) {
			failed++;
			printf("  FAIL %s: %lu violations, first: %s\n",
			       rh_check_name[i], rh_violations[i], rh_first[i]);
		} else {
			passed++;
			printf("  ok   %s\n", rh_check_name[i]);
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

#endif /* RCULIST_TESTS_RHASH_RUN_H */
