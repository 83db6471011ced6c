// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/rhashtable.c - the slow paths of <rculist/rhashtable.h>: tables
 * allocated, inserts during a rehash, the rehash thread, walkers, and
 * the end of a table.  Flavour-neutral: it calls the rculist_* runtime
 * (read sections, grace periods) and core/thread.c, never a flavour.
 *
 * The rehash thread ("rculist-rhash").  One thread serves every table,
 * started by the first resize asked for; it sleeps on a condition
 * variable when no table needs it.  It is not an RCU reader (it reads
 * the tables under their mutex, which excludes the only other thread
 * that frees one, cds_rhashtable_free_and_destroy()), so it never holds
 * up a qsbr grace period; it waits for grace periods itself.  Detached,
 * every signal blocked: exit() does not wait for it (a destructor waits
 * 1 s at most for the rehash step in progress, and then none starts).
 *
 * fork(): the thread runs each job holding run_lock; the prepare handler
 * takes run_lock and then work_lock (an online qsbr caller goes offline
 * meanwhile: the job may wait for a grace period), so a child never
 * inherits a table mutex or a bucket lock held by a thread it does not
 * have.  The prepare handler also waits for the cds_rhashtable_walk_enter()
 * calls that are finishing a resize (rehash_finish()), for the same
 * reason.  The child starts a thread of its own if a table is queued.
 * The handlers are installed with the first thread, and run before
 * core/fork.c's (prepare handlers run in reverse order of installation):
 * run_lock comes before every other rculist lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rculist/list.h>
#include <rculist/rhashtable.h>

#include "internal.h"

/*
 * ThreadSanitizer.  A program built with -fsanitize=thread sees its own
 * accesses (the inline lookups, inserts and removals of
 * <rculist/rhashtable.h>) but none of this file's, which is not built
 * for it: the rehash thread's moves, the slow inserts and the walkers
 * would all look unordered with the readers and updaters.  So this file
 * tells it, through the weak references of core/tsan.c's kind (null
 * unless a ThreadSanitizer runtime is in the process): a release on the
 * word before each store that publishes (a bucket, a link, a table) or
 * unlocks a bucket, an acquire on the word after each load that
 * follows a link and after each bucket lock taken, and the grace
 * period's acquire before an old table is freed.  The inline code's
 * release stores and acquire (consume) loads pair with them.
 */
void __tsan_acquire(void *addr) __attribute__((weak));
void __tsan_release(void *addr) __attribute__((weak));

static void tsan_acquire(const void *addr)
{
	if (rculist__tsan_present())
		__tsan_acquire((void *)(uintptr_t)addr);
}

static void tsan_release(const void *addr)
{
	if (rculist__tsan_present())
		__tsan_release((void *)(uintptr_t)addr);
}

/*
 * The end of a section this file holds for the program (a walk, a slow
 * insert, whose comparison function is the program's): the release
 * <rculist/tsan.h> makes in a program's own rculist_read_unlock().
 */
static void section_end(void)
{
	rculist__tsan_reader_exit();
	rculist_read_unlock();
}

/* rculist__deref(p), acquired. */
#define rht_deref(p)                                      \
	({                                                \
		__typeof__(p) rht_v_ = rculist__deref(p); \
		tsan_acquire(&(p));                       \
		rht_v_;                                   \
	})
#define rht_publish(p, v)               \
	do {                            \
		tsan_release(&(p));     \
		rculist__publish(p, v); \
	} while (0)

static struct cds_rhash_head *bkt_first(struct cds_rhash_lock_head *const *bkt)
{
	struct cds_rhash_head *p = rculist__rht_ptr_rcu(bkt);

	tsan_acquire(bkt);
	return p;
}

static void bkt_lock(struct cds_rhash_lock_head **bkt)
{
	rculist__rht_lock(bkt);
	tsan_acquire(bkt);
}

static void bkt_unlock(struct cds_rhash_lock_head **bkt)
{
	tsan_release(bkt);
	rculist__rht_unlock(bkt);
}

static void bkt_assign_unlock(struct cds_rhash_lock_head **bkt,
			      struct cds_rhash_head *obj)
{
	tsan_release(bkt);
	rculist__rht_assign_unlock(bkt, obj);
}

static void bkt_assign_locked(struct cds_rhash_lock_head **bkt,
			      struct cds_rhash_head *obj)
{
	tsan_release(bkt);
	rculist__rht_assign_locked(bkt, obj);
}

#define HASH_MIN_SIZE	  4U
#define HASH_DEFAULT_SIZE 64U
#define RHT_ELASTICITY	  16

static void *(*table_calloc)(size_t nmemb, size_t size) = calloc;

void rculist__rht_set_calloc(void *(*fn)(size_t nmemb, size_t size))
{
	__atomic_store_n(&table_calloc, fn ? fn : calloc, __ATOMIC_RELAXED);
}

static void (*rehash_hook)(unsigned int slot, unsigned int size);

static int (*thread_start)(void *(*fn)(void *),
			   const char *name) = rculist__thread_start;

void rculist__rht_set_thread_start(int (*fn)(void *(*start)(void *),
					     const char *name))
{
	__atomic_store_n(&thread_start, fn ? fn : rculist__thread_start,
			 __ATOMIC_RELAXED);
}

void rculist__rht_set_rehash_hook(void (*fn)(unsigned int slot, unsigned int size))
{
	__atomic_store_n(&rehash_hook, fn, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------ tables */

static uint64_t rnd_state;

/* A seed per table (splitmix64 of a counter started from the clock). */
static uint32_t table_seed(void)
{
	uint64_t z;

	if (!__atomic_load_n(&rnd_state, __ATOMIC_RELAXED)) {
		struct timespec t;

		clock_gettime(CLOCK_MONOTONIC, &t);
		z = (uint64_t)t.tv_nsec ^ ((uint64_t)t.tv_sec << 32) ^
		    ((uint64_t)getpid() << 16);
		uint64_t zero = 0;
		__atomic_compare_exchange_n(&rnd_state, &zero, z | 1, 0,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	}
	z = __atomic_add_fetch(&rnd_state, 0x9E3779B97F4A7C15ULL,
			       __ATOMIC_RELAXED);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return (uint32_t)(z ^ (z >> 31));
}

/*
 * Behind a table's last bucket, in the same block: what frees the table
 * after a grace period (struct cds_bucket_table, the kernel's layout,
 * has no room for it).
 */
struct table_tail {
	struct rcu_head rcu;
	struct cds_bucket_table *tbl;
};

static struct table_tail *table_tail(struct cds_bucket_table *tbl)
{
	return (struct table_tail *)(void *)&tbl->buckets[tbl->size];
}

static struct cds_bucket_table *table_alloc(unsigned int size)
{
	struct cds_bucket_table *tbl;

	tbl = __atomic_load_n(&table_calloc, __ATOMIC_RELAXED)(
		1, sizeof(*tbl) + (size_t)size * sizeof(void *) +
			   sizeof(struct table_tail));
	if (!tbl)
		return NULL;
	tbl->size = size;
	tbl->hash_rnd = table_seed();
	CDS_INIT_LIST_HEAD(&tbl->walkers);
	table_tail(tbl)->tbl = tbl;
	return tbl;
}

static void table_free_cb(struct rcu_head *head)
{
	rculist__tsan_gp_ended(); /* the readers of the table are gone */
	free(rculist__container_of(head, struct table_tail, rcu)->tbl);
}

static struct cds_bucket_table *last_table(struct cds_bucket_table *tbl)
{
	struct cds_bucket_table *next;

	while ((next = rht_deref(tbl->future_tbl)))
		tbl = next;
	return tbl;
}

static unsigned int roundup_pow2(unsigned long n)
{
	unsigned long s = 1;

	while (s < n)
		s <<= 1;
	return (unsigned int)s;
}

static unsigned int rounddown_pow2(unsigned int n)
{
	unsigned int s = 1;

	while (s <= n / 2)
		s <<= 1;
	return s;
}

static int table_init(struct cds_rhashtable *ht,
		      const struct cds_rhashtable_params *params, bool rhlist)
{
	unsigned int size;

	if ((!params->key_len && !params->obj_hashfn) ||
	    (params->obj_hashfn && !params->obj_cmpfn))
		return -EINVAL;
	memset(ht, 0, sizeof(*ht));
	ht->p = *params;
	ht->rhlist = rhlist;
	if (params->min_size)
		ht->p.min_size = (uint16_t)roundup_pow2(params->min_size);
	/* At most 2^31 objects, so that nelems never overflows. */
	ht->max_elems = 1U << 31;
	if (params->max_size) {
		ht->p.max_size = rounddown_pow2(params->max_size);
		if (ht->p.max_size < ht->max_elems / 2)
			ht->max_elems = ht->p.max_size * 2;
	}
	if (ht->p.min_size < HASH_MIN_SIZE)
		ht->p.min_size = HASH_MIN_SIZE;
	if (params->nelem_hint)
		size = roundup_pow2((unsigned long)params->nelem_hint * 4 / 3);
	else
		size = HASH_DEFAULT_SIZE;
	if (size < ht->p.min_size)
		size = ht->p.min_size;
	if (ht->p.max_size && size > ht->p.max_size)
		size = ht->p.max_size;
	ht->key_len = ht->p.key_len;
	ht->tbl = table_alloc(size);
	if (!ht->tbl)
		return -ENOMEM;
	pthread_mutex_init(&ht->mutex, NULL);
	pthread_mutex_init(&ht->lock, NULL);
	return 0;
}

int cds_rhashtable_init(struct cds_rhashtable *ht,
			const struct cds_rhashtable_params *params)
{
	return table_init(ht, params, false);
}

int cds_rhltable_init(struct cds_rhltable *hlt,
		      const struct cds_rhashtable_params *params)
{
	return table_init(&hlt->ht, params, true);
}

/* ------------------------------------------------------------ rehash */

/*
 * Step 1: link the new table from the last one.  From then on inserts
 * go to it (the fast path sees future_tbl under its bucket lock and
 * takes the slow path), and lookups walk it after the old one.
 * -EEXIST if another table is linked already.
 */
static int rehash_attach(struct cds_bucket_table *old_tbl,
			 struct cds_bucket_table *new_tbl)
{
	struct cds_bucket_table *none = NULL;

	tsan_release(&old_tbl->future_tbl);
	if (!__atomic_compare_exchange_n(&old_tbl->future_tbl, &none, new_tbl,
					 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		return -EEXIST;
	return 0;
}

/*
 * Step 2: move the last object of a locked old bucket to the head of its
 * bucket in the newest table, under that bucket's lock too.  The object
 * is published there first (its next now leads into the new chain),
 * then unlinked from the old chain: a lookup finds it in one of the two
 * at every moment.  A reader standing on it walks on into the new chain,
 * ends on that chain's marker, not its own bucket's, and walks its
 * bucket again.  -ENOENT once the old bucket is empty.
 */
static int rehash_one(struct cds_rhashtable *ht, struct cds_bucket_table *old_tbl,
		      struct cds_rhash_lock_head **old_bkt)
{
	struct cds_bucket_table *new_tbl = last_table(old_tbl);
	struct cds_rhash_head *entry, *next = NULL, **pprev = NULL;
	struct cds_rhash_lock_head **new_bkt;

	entry = cds_rht_ptr_exclusive(old_bkt);
	if (cds_rht_is_a_nulls(entry))
		return -ENOENT;
	while (!cds_rht_is_a_nulls(next = entry->next)) {
		pprev = &entry->next;
		entry = next;
	}
	new_bkt =
		&new_tbl->buckets[rculist__rht_head_hash(ht, new_tbl, entry, ht->p)];
	bkt_lock(new_bkt);
	/*
	 * Published, not just stored: a reader standing on @entry in the old
	 * chain follows this link into the new bucket, whose objects it
	 * reaches through no other edge (ThreadSanitizer reported a walker's
	 * read of an object against its allocation without it).
	 */
	rht_publish(entry->next, cds_rht_ptr_exclusive(new_bkt));
	bkt_assign_unlock(new_bkt, entry);
	if (pprev)
		rht_publish(*pprev, next);
	else
		bkt_assign_locked(old_bkt, next);
	return 0;
}

static void rehash_chain(struct cds_rhashtable *ht,
			 struct cds_bucket_table *old_tbl, unsigned int i)
{
	struct cds_rhash_lock_head **bkt = &old_tbl->buckets[i];

	bkt_lock(bkt);
	while (!rehash_one(ht, old_tbl, bkt))
		;
	bkt_unlock(bkt);
}

/*
 * Step 3: every bucket moved, publish the new table, tell the stopped
 * walkers of the old one that it is gone (their next start returns
 * -EAGAIN), and free it once the readers that may still walk it have
 * left their sections.  -EAGAIN if yet another table is linked (the
 * inserts outran this rehash): the thread goes on with it.
 *
 * The free is deferred (rculist_call_rcu(), as the kernel's call_rcu()):
 * the thread never waits for a grace period between two steps.  Waiting
 * there (rculist_synchronize_rcu()) held every later step of a growth up
 * behind the readers: under qsbr behind any online thread that announced
 * no quiescent state, under bp behind 10 ms polls, so a table filled
 * fast was still being rehashed table after table long after the
 * inserts, its lookups walking three tables, and a walk started then
 * overlapped a move (the kernel's test_rhashtable counted the objects
 * the walker met twice, before and after its -EAGAIN).
 */
static int rehash_table(struct cds_rhashtable *ht)
{
	struct cds_bucket_table *old_tbl = ht->tbl,
				*new_tbl = rht_deref(old_tbl->future_tbl);
	struct cds_rhashtable_walker *walker;
	unsigned int i;

	if (!new_tbl)
		return 0;
	for (i = 0; i < old_tbl->size; i++) {
		void (*hook)(unsigned int, unsigned int) =
			__atomic_load_n(&rehash_hook, __ATOMIC_RELAXED);

		rehash_chain(ht, old_tbl, i);
		if (hook)
			hook(i, old_tbl->size);
	}
	rht_publish(ht->tbl, new_tbl);
	pthread_mutex_lock(&ht->lock);
	cds_list_for_each_entry(walker, &old_tbl->walkers, list)
		walker->tbl = NULL;
	old_tbl->dying = 1;
	pthread_mutex_unlock(&ht->lock);
	rculist_call_rcu(&table_tail(old_tbl)->rcu, table_free_cb);
	return rculist__load_once(new_tbl->future_tbl) ? -EAGAIN : 0;
}

static int rehash_alloc(struct cds_bucket_table *old_tbl, unsigned int size)
{
	struct cds_bucket_table *new_tbl = table_alloc(size);
	int err;

	if (!new_tbl)
		return -ENOMEM;
	err = rehash_attach(old_tbl, new_tbl);
	if (err)
		free(new_tbl);
	return err;
}

/* A table sized for 150% of the objects, no smaller than min_size. */
static int rehash_shrink(struct cds_rhashtable *ht)
{
	struct cds_bucket_table *old_tbl = ht->tbl;
	unsigned int nelems = rculist__load_once(ht->nelems);
	unsigned int size =
		nelems ? roundup_pow2((unsigned long)nelems * 3 / 2) : 0;

	if (size < ht->p.min_size)
		size = ht->p.min_size;
	if (old_tbl->size <= size)
		return 0;
	if (rculist__load_once(old_tbl->future_tbl))
		return -EEXIST;
	return rehash_alloc(old_tbl, size);
}

/*
 * One step of a resize, under @ht's mutex (the kernel's deferred
 * worker): grow or shrink the newest table if its load asks for it, and
 * move the oldest table into its future one.  Non-zero to go on: -EAGAIN
 * (another table is linked), -EEXIST (one was linked already; this step
 * moved it), -ENOMEM (no table to be had).
 */
static int rehash_step(struct cds_rhashtable *ht)
{
	struct cds_bucket_table *tbl = last_table(ht->tbl);
	int err = 0;

	if (rculist__rht_grow_above_75(ht, tbl))
		err = rehash_alloc(tbl, tbl->size * 2);
	else if (ht->p.automatic_shrinking &&
		 rculist__rht_shrink_below_30(ht, tbl))
		err = rehash_shrink(ht);
	if (!err || err == -EEXIST) {
		int nerr = rehash_table(ht);

		err = err ? err : nerr;
	}
	return err;
}

/* One job of the rehash thread on @ht: non-zero to be queued again. */
static int rehash_work(struct cds_rhashtable *ht)
{
	int err;

	pthread_mutex_lock(&ht->mutex);
	err = rehash_step(ht);
	pthread_mutex_unlock(&ht->mutex);
	return err;
}

/* ------------------------------------------------------- the thread */

enum { WORK_IDLE, WORK_QUEUED, WORK_RUNNING, WORK_RUNNING_AGAIN };

static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t work_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_cond = PTHREAD_COND_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static struct cds_rhashtable *work_queue;
static int worker_started, worker_stopped;
static int helpers, fork_pending; /* rehash_finish(): under work_lock */
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void *worker_main(void *arg)
{
	(void)arg;
	for (;;) {
		struct cds_rhashtable *ht;
		int err;

		pthread_mutex_lock(&work_lock);
		while (!work_queue)
			pthread_cond_wait(&work_cond, &work_lock);
		pthread_mutex_unlock(&work_lock);

		pthread_mutex_lock(&run_lock);
		if (__atomic_load_n(&worker_stopped, __ATOMIC_RELAXED)) {
			pthread_mutex_unlock(&run_lock);
			for (;;)
				pause(); /* every signal blocked: for good */
		}
		pthread_mutex_lock(&work_lock);
		ht = work_queue;
		if (!ht) { /* cds_rhashtable_destroy() took it back */
			pthread_mutex_unlock(&work_lock);
			pthread_mutex_unlock(&run_lock);
			continue;
		}
		work_queue = ht->work_next;
		__atomic_store_n(&ht->work_state, WORK_RUNNING, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&work_lock);

		err = rehash_work(ht);
		if (err == -ENOMEM) {
			struct timespec ms = { 0, 1000000 };

			nanosleep(&ms, NULL); /* malloc may have memory again soon */
		}

		pthread_mutex_lock(&work_lock);
		if (err || ht->work_state == WORK_RUNNING_AGAIN) {
			ht->work_next = work_queue;
			work_queue = ht;
			__atomic_store_n(&ht->work_state, WORK_QUEUED,
					 __ATOMIC_RELAXED);
		} else {
			__atomic_store_n(&ht->work_state, WORK_IDLE,
					 __ATOMIC_RELAXED);
		}
		pthread_cond_broadcast(&done_cond);
		pthread_mutex_unlock(&work_lock);
		pthread_mutex_unlock(&run_lock);
	}
	return NULL;
}

/* An online qsbr thread goes offline around a wait for the rehash thread. */
static int go_offline(void)
{
	int online = rculist_read_ongoing();

	if (online)
		rculist_thread_offline();
	return online;
}

static void before_fork(void)
{
	int online = go_offline();

	pthread_mutex_lock(&run_lock);
	pthread_mutex_lock(&work_lock);
	fork_pending = 1;
	while (helpers)
		pthread_cond_wait(&done_cond, &work_lock);
	if (online)
		rculist_thread_online();
}

static void after_fork_parent(void)
{
	fork_pending = 0;
	pthread_mutex_unlock(&work_lock);
	pthread_mutex_unlock(&run_lock);
}

static void worker_start_locked(void);

/* The child: the thread did not follow; its condition waits are gone. */
static void after_fork_child(void)
{
	pthread_cond_init(&work_cond, NULL);
	pthread_cond_init(&done_cond, NULL);
	worker_started = 0;
	fork_pending = 0;
	helpers = 0;
	if (work_queue && !worker_stopped)
		worker_start_locked();
	pthread_mutex_unlock(&work_lock);
	pthread_mutex_unlock(&run_lock);
}

static void atfork_install(void)
{
	(void)pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

/* With work_lock held: start the thread if there is none. */
static void worker_start_locked(void)
{
	if (worker_started)
		return;
	pthread_once(&atfork_once, atfork_install);
	/* On failure the next resize asked for tries again. */
	if (!__atomic_load_n(&thread_start, __ATOMIC_RELAXED)(worker_main,
							      "rculist-rhash"))
		__atomic_store_n(&worker_started, 1, __ATOMIC_RELAXED);
}

/*
 * Queue @ht for the thread, as the kernel's schedule_work(): once, however
 * many callers ask before it runs; asked while it runs, it runs again.
 * The fast paths call it on every insert above 75% load: when the job is
 * queued already, and a thread is there to run it, it returns without
 * the lock.  Without a thread (its start failed) each ask tries again:
 * the job queued by the ask that failed would otherwise wait for ever.
 */
void rculist__rht_schedule(struct cds_rhashtable *ht)
{
	int s = __atomic_load_n(&ht->work_state, __ATOMIC_RELAXED);

	if ((s == WORK_QUEUED || s == WORK_RUNNING_AGAIN) &&
	    __atomic_load_n(&worker_started, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&work_lock);
	if (ht->work_state == WORK_IDLE) {
		ht->work_next = work_queue;
		work_queue = ht;
		__atomic_store_n(&ht->work_state, WORK_QUEUED, __ATOMIC_RELAXED);
		pthread_cond_signal(&work_cond);
	} else if (ht->work_state == WORK_RUNNING) {
		__atomic_store_n(&ht->work_state, WORK_RUNNING_AGAIN,
				 __ATOMIC_RELAXED);
	}
	worker_start_locked();
	pthread_mutex_unlock(&work_lock);
}

/* The kernel's cancel_work_sync(): @ht unqueued, its job in progress ended. */
static void work_cancel(struct cds_rhashtable *ht)
{
	int online = go_offline();
	struct cds_rhashtable **pp;

	pthread_mutex_lock(&work_lock);
	for (pp = &work_queue; *pp; pp = &(*pp)->work_next)
		if (*pp == ht) {
			*pp = ht->work_next;
			break;
		}
	while (ht->work_state == WORK_RUNNING ||
	       ht->work_state == WORK_RUNNING_AGAIN)
		pthread_cond_wait(&done_cond, &work_lock);
	/* A job that failed was queued again by the thread: take it back. */
	for (pp = &work_queue; *pp; pp = &(*pp)->work_next)
		if (*pp == ht) {
			*pp = ht->work_next;
			break;
		}
	ht->work_state = WORK_IDLE;
	pthread_mutex_unlock(&work_lock);
	if (online)
		rculist_thread_online();
}

/*
 * What cds_rhashtable_walk_enter() does first: finish the resize that
 * is pending or in progress on @ht, in the calling thread, so that a
 * walk entered while no updater runs sees one table.  The steps are the
 * thread's (rehash_step(), under the table's mutex), repeated until one
 * changes nothing; on -ENOMEM the thread is left to try again later.
 * Only a resize asked for (the job queued or running) or linked: a
 * table whose load would ask for one but that no update has asked about
 * is left as it is (one sized by nelem_hint ahead of its inserts is not
 * shrunk by a walk, as the kernel's walk_enter() resizes nothing).
 *
 * No deadlock, whatever section the caller is in: the locks it waits
 * for (the table's mutex; bucket locks, under it) are held only by
 * rehash steps, which never wait for a grace period (old tables are
 * freed by rculist_call_rcu(), which never blocks), and by updaters
 * between two stores.  It never waits for a fork() either: a helper
 * counts itself in under work_lock and steps aside (helps no more) once
 * a fork is pending; the prepare handler waits until the helpers are
 * out, so that no child inherits a table's mutex or bucket lock held by
 * a thread it does not have.  A helper inside a read-side section (or
 * online under qsbr) holds grace periods up while it waits and moves,
 * as a long section would.
 */
static void rehash_finish(struct cds_rhashtable *ht)
{
	int asked, pending;

	pthread_once(&atfork_once, atfork_install);
	pthread_mutex_lock(&work_lock);
	if (fork_pending) {
		pthread_mutex_unlock(&work_lock);
		return;
	}
	asked = ht->work_state != WORK_IDLE;
	helpers++;
	pthread_mutex_unlock(&work_lock);

	pthread_mutex_lock(&ht->mutex);
	/* Under the mutex ht->tbl stays: only a step (or the end) frees it. */
	pending = asked || rculist__load_once(ht->tbl->future_tbl);
	while (pending) {
		struct cds_bucket_table *tbl = ht->tbl;
		int err = rehash_step(ht);

		pending = err == -EAGAIN || (err != -ENOMEM && ht->tbl != tbl);
	}
	pthread_mutex_unlock(&ht->mutex);

	pthread_mutex_lock(&work_lock);
	if (!--helpers)
		pthread_cond_broadcast(&done_cond);
	pthread_mutex_unlock(&work_lock);
}

/* At exit: no job starts once it has run; the one in progress gets 1 s. */
__attribute__((destructor)) static void rhash_exit(void)
{
	struct timespec t;

	if (!__atomic_load_n(&worker_started, __ATOMIC_RELAXED))
		return;
	__atomic_store_n(&worker_stopped, 1, __ATOMIC_RELAXED);
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec++;
	if (!pthread_mutex_timedlock(&run_lock, &t))
		pthread_mutex_unlock(&run_lock);
}

/* ------------------------------------------------------- slow inserts */

/*
 * Under @tbl's locked bucket: the object with @key (NULL if none, or
 * with @obj added to its key's list in a cds_rhltable);
 * CDS_ERR_PTR(-ENOENT) if the key is absent, (-EAGAIN) if the chain is
 * too long.
 */
static void *lookup_one(struct cds_rhashtable *ht,
			struct cds_rhash_lock_head **bkt, const void *key,
			struct cds_rhash_head *obj)
{
	struct cds_rhashtable_compare_arg arg = { ht, key };
	struct cds_rhash_head *head, **pprev = NULL;
	int elasticity = RHT_ELASTICITY;

	for (head = cds_rht_ptr_exclusive(bkt); !cds_rht_is_a_nulls(head);
	     head = head->next) {
		struct cds_rhlist_head *list, *plist;

		elasticity--;
		if (!key || rculist__rht_cmp(&arg, head, ht->p)) {
			pprev = &head->next;
			continue;
		}
		if (!ht->rhlist)
			return cds_rht_obj(ht, head);
		list = rculist__container_of(obj, struct cds_rhlist_head, rhead);
		plist = rculist__container_of(head, struct cds_rhlist_head,
					      rhead);
		list->next = plist;
		obj->next = head->next;
		if (pprev)
			rht_publish(*pprev, obj);
		else
			bkt_assign_locked(bkt, obj);
		return NULL;
	}
	return CDS_ERR_PTR(elasticity <= 0 ? -EAGAIN : -ENOENT);
}

/*
 * After lookup_one() gave @data: the next table to try, NULL once
 * inserted, or an error pointer (-EEXIST: @data is the duplicate).
 */
static void *insert_one(struct cds_rhashtable *ht,
			struct cds_rhash_lock_head **bkt,
			struct cds_bucket_table *tbl,
			struct cds_rhash_head *obj, void *data)
{
	struct cds_bucket_table *new_tbl;

	if (!CDS_IS_ERR_OR_NULL(data))
		return CDS_ERR_PTR(-EEXIST);
	if (CDS_PTR_ERR(data) != -EAGAIN && CDS_PTR_ERR(data) != -ENOENT)
		return data; /* NULL: added to a key's list */
	new_tbl = rht_deref(tbl->future_tbl);
	if (new_tbl)
		return new_tbl;
	if (CDS_PTR_ERR(data) != -ENOENT)
		return data;
	if (rculist__rht_grow_above_max(ht))
		return CDS_ERR_PTR(-E2BIG);
	if (rculist__rht_grow_above_100(ht, tbl))
		return CDS_ERR_PTR(-EAGAIN);
	obj->next = cds_rht_ptr_exclusive(bkt);
	if (ht->rhlist)
		rculist__container_of(obj, struct cds_rhlist_head, rhead)->next =
			NULL;
	bkt_assign_locked(bkt, obj);
	__atomic_add_fetch(&ht->nelems, 1, __ATOMIC_RELAXED);
	if (rculist__rht_grow_above_75(ht, tbl))
		rculist__rht_schedule(ht);
	return NULL;
}

/*
 * The table is full or a chain too long, and no rehash is linked: the
 * inserter allocates the next table itself (twice the size above 75%
 * load, the same size with a new seed for a long chain) and links it.
 * On failure the thread is asked to try.
 */
static int insert_rehash(struct cds_rhashtable *ht, struct cds_bucket_table *tbl)
{
	struct cds_bucket_table *old_tbl = rht_deref(ht->tbl), *new_tbl;
	unsigned int size = tbl->size;
	int err = -EBUSY;

	if (rculist__rht_grow_above_75(ht, tbl))
		size *= 2;
	else if (old_tbl != tbl) /* one same-size rehash at a time */
		goto fail;
	err = -ENOMEM;
	new_tbl = table_alloc(size);
	if (!new_tbl)
		goto fail;
	err = rehash_attach(tbl, new_tbl);
	if (err) {
		free(new_tbl);
		if (err == -EEXIST)
			err = 0;
	} else {
		rculist__rht_schedule(ht);
	}
	return err;
fail:
	/* Another inserter linked a table: go on with it. */
	if (rculist__load_once(tbl->future_tbl))
		return 0;
	if (err == -ENOMEM)
		rculist__rht_schedule(ht);
	return err;
}

/*
 * Step 4, an insert during a rehash: look for @key in each table, under
 * each bucket's lock in turn (a rehash moves objects under the old
 * bucket's lock, so an object is seen in one of them), and insert into
 * the newest table.
 */
static void *try_insert(struct cds_rhashtable *ht, const void *key,
			struct cds_rhash_head *obj)
{
	struct cds_bucket_table *new_tbl, *tbl;
	void *data;

	new_tbl = rht_deref(ht->tbl);
	do {
		struct cds_rhash_lock_head **bkt;

		tbl = new_tbl;
		bkt = &tbl->buckets[rculist__rht_head_hash(ht, tbl, obj, ht->p)];
		bkt_lock(bkt);
		data = lookup_one(ht, bkt, key, obj);
		new_tbl = insert_one(ht, bkt, tbl, obj, data);
		if (CDS_PTR_ERR(new_tbl) != -EEXIST)
			data = new_tbl;
		bkt_unlock(bkt);
	} while (!CDS_IS_ERR_OR_NULL(new_tbl));
	if (CDS_PTR_ERR(data) == -EAGAIN) {
		int err = insert_rehash(ht, tbl);

		data = CDS_ERR_PTR(err ? err : -EAGAIN);
	}
	return data;
}

void *cds_rhashtable_insert_slow(struct cds_rhashtable *ht, const void *key,
				 struct cds_rhash_head *obj)
{
	void *data;

	do {
		rculist_read_lock();
		data = try_insert(ht, key, obj);
		section_end();
	} while (CDS_PTR_ERR(data) == -EAGAIN);
	return data;
}

/* ------------------------------------------------------------ walkers */

void cds_rhashtable_walk_enter(struct cds_rhashtable *ht,
			       struct cds_rhashtable_iter *iter)
{
	rehash_finish(ht);
	iter->ht = ht;
	iter->p = NULL;
	iter->list = NULL;
	iter->slot = 0;
	iter->skip = 0;
	iter->end_of_table = false;
	pthread_mutex_lock(&ht->lock);
	iter->walker.tbl = ht->tbl;
	cds_list_add(&iter->walker.list, &iter->walker.tbl->walkers);
	pthread_mutex_unlock(&ht->lock);
}

void cds_rhashtable_walk_exit(struct cds_rhashtable_iter *iter)
{
	pthread_mutex_lock(&iter->ht->lock);
	if (iter->walker.tbl)
		cds_list_del(&iter->walker.list);
	pthread_mutex_unlock(&iter->ht->lock);
}

int cds_rhashtable_walk_start_check(struct cds_rhashtable_iter *iter)
{
	struct cds_rhashtable *ht = iter->ht;
	bool rhlist = ht->rhlist;

	rculist_read_lock();
	pthread_mutex_lock(&ht->lock);
	if (iter->walker.tbl)
		cds_list_del(&iter->walker.list);
	pthread_mutex_unlock(&ht->lock);
	if (iter->end_of_table)
		return 0;
	if (!iter->walker.tbl) {
		/* The table was freed: start again from the new one's first bucket. */
		iter->walker.tbl = rht_deref(ht->tbl);
		iter->slot = 0;
		iter->skip = 0;
		iter->p = NULL;
		return -EAGAIN;
	}
	if (iter->p) {
		/* Is the object returned last still there?  Then count again. */
		struct cds_rhash_lock_head **bkt =
			&iter->walker.tbl->buckets[iter->slot];
		struct cds_rhash_head *p;
		unsigned int skip = 0;

		for (p = bkt_first(bkt); !cds_rht_is_a_nulls(p);
		     p = rht_deref(p->next)) {
			struct cds_rhlist_head *list =
				rculist__container_of(p, struct cds_rhlist_head,
						      rhead);

			if (!rhlist) {
				skip++;
				if (p == iter->p) {
					iter->skip = skip;
					return 0;
				}
				continue;
			}
			for (; list; list = rht_deref(list->next)) {
				skip++;
				if (list == iter->list) {
					iter->p = p;
					iter->skip = skip;
					return 0;
				}
			}
		}
		iter->p = NULL;
	}
	return 0;
}

/* The next object from (slot, skip) on, or the move to a future table. */
/* The walker stands on @p (of @list in an rhltable): its object. */
static void *walk_emit(struct cds_rhashtable_iter *iter,
		       struct cds_rhash_head *p, struct cds_rhlist_head *list)
{
	iter->skip++;
	iter->p = p;
	iter->list = list;
	return cds_rht_obj(iter->ht, iter->ht->rhlist ? &list->rhead : p);
}

static void *walk_find_next(struct cds_rhashtable_iter *iter)
{
	struct cds_bucket_table *tbl = iter->walker.tbl;
	struct cds_rhlist_head *list = iter->list;
	struct cds_rhashtable *ht = iter->ht;
	struct cds_rhash_head *p;
	bool rhlist = ht->rhlist;

	if (!tbl)
		return NULL;
	for (; iter->slot < tbl->size; iter->slot++) {
		unsigned int skip = iter->skip;

		for (p = bkt_first(&tbl->buckets[iter->slot]);
		     !cds_rht_is_a_nulls(p); p = rht_deref(p->next)) {
			if (rhlist) {
				list = rculist__container_of(p,
							     struct cds_rhlist_head,
							     rhead);
				do {
					if (!skip)
						goto next;
					skip--;
					list = rht_deref(list->next);
				} while (list);
				continue;
			}
			if (!skip)
				break;
			skip--;
		}
next:
		if (!cds_rht_is_a_nulls(p))
			return walk_emit(iter, p, list);
		iter->skip = 0;
	}
	iter->p = NULL;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	iter->walker.tbl = rht_deref(tbl->future_tbl);
	if (iter->walker.tbl) {
		iter->slot = 0;
		iter->skip = 0;
		return CDS_ERR_PTR(-EAGAIN);
	}
	iter->end_of_table = true;
	return NULL;
}

void *cds_rhashtable_walk_next(struct cds_rhashtable_iter *iter)
{
	struct cds_rhlist_head *list = iter->list;
	struct cds_rhashtable *ht = iter->ht;
	struct cds_rhash_head *p = iter->p;
	bool rhlist = ht->rhlist;

	if (p) {
		if (!rhlist || !(list = rht_deref(list->next))) {
			p = rht_deref(p->next);
			list = rculist__container_of(p, struct cds_rhlist_head,
						     rhead);
		}
		if (!cds_rht_is_a_nulls(p))
			return walk_emit(iter, p, list);
		/* The end of this bucket: on to the next one. */
		iter->skip = 0;
		iter->slot++;
	}
	return walk_find_next(iter);
}

void *cds_rhashtable_walk_peek(struct cds_rhashtable_iter *iter)
{
	struct cds_rhlist_head *list = iter->list;
	struct cds_rhashtable *ht = iter->ht;
	struct cds_rhash_head *p = iter->p;

	if (p)
		return cds_rht_obj(ht, ht->rhlist ? &list->rhead : p);
	/* skip counts the object found last: find it again. */
	if (iter->skip)
		iter->skip--;
	return walk_find_next(iter);
}

void cds_rhashtable_walk_stop(struct cds_rhashtable_iter *iter)
{
	struct cds_bucket_table *tbl = iter->walker.tbl;

	if (tbl) {
		struct cds_rhashtable *ht = iter->ht;

		pthread_mutex_lock(&ht->lock);
		if (tbl->dying) /* freed after the grace period this section holds up */
			iter->walker.tbl = NULL;
		else
			cds_list_add(&iter->walker.list, &tbl->walkers);
		pthread_mutex_unlock(&ht->lock);
	}
	section_end();
}

/* --------------------------------------------------------------- end */

void cds_rhashtable_free_and_destroy(struct cds_rhashtable *ht,
				     void (*free_fn)(void *ptr, void *arg),
				     void *arg)
{
	struct cds_bucket_table *tbl, *next_tbl;
	unsigned int i;

	work_cancel(ht);
	pthread_mutex_lock(&ht->mutex);
	for (tbl = ht->tbl; tbl; tbl = next_tbl) {
		for (i = 0; free_fn && i < tbl->size; i++) {
			struct cds_rhash_head *pos, *next;

			for (pos = cds_rht_ptr_exclusive(&tbl->buckets[i]);
			     !cds_rht_is_a_nulls(pos); pos = next) {
				struct cds_rhlist_head *list, *lnext;

				next = pos->next;
				if (!ht->rhlist) {
					free_fn(cds_rht_obj(ht, pos), arg);
					continue;
				}
				list = rculist__container_of(pos,
							     struct cds_rhlist_head,
							     rhead);
				for (; list; list = lnext) {
					lnext = list->next;
					free_fn(cds_rht_obj(ht, &list->rhead),
						arg);
				}
			}
		}
		next_tbl = tbl->future_tbl;
		free(tbl);
	}
	ht->tbl = NULL;
	pthread_mutex_unlock(&ht->mutex);
	pthread_mutex_destroy(&ht->mutex);
	pthread_mutex_destroy(&ht->lock);
}

void cds_rhashtable_destroy(struct cds_rhashtable *ht)
{
	cds_rhashtable_free_and_destroy(ht, NULL, NULL);
}

void cds_rhltable_free_and_destroy(struct cds_rhltable *hlt,
				   void (*free_fn)(void *ptr, void *arg),
				   void *arg)
{
	cds_rhashtable_free_and_destroy(&hlt->ht, free_fn, arg);
}

void cds_rhltable_destroy(struct cds_rhltable *hlt)
{
	cds_rhashtable_free_and_destroy(&hlt->ht, NULL, NULL);
}
