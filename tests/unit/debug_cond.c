// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/debug_cond.c - the optional last argument of the _rcu
 * iterators, the kernel's lockdep condition, in debug mode.  An updater
 * walking a list under the lock that serialises its updates, outside any
 * read-side section, says so with a condition and is not reported (a
 * lookup shared by readers and updaters, the common hash-table idiom); a
 * false condition outside a section is reported; inside a section the
 * condition does not matter.  Compiled in debug mode in both builds; runs
 * under every flavour.
 */
#ifndef RCULIST_DEBUG
#define RCULIST_DEBUG
#endif
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "debug_expect.h"

TestSuite(debug_cond, .timeout = 30, .init = debug_init);

#define NELEMS 3
#define MAGIC  0x5eedf00dUL
#define POISON 0xdeadUL

struct elem {
	unsigned long magic;
	int key;
	struct cds_list_head link;
	struct cds_hlist_node hnode;
	struct cds_hlist_nulls_node nnode;
};

/* The update lock, which knows its owner: the kernel's lockdep_is_held(). */
static pthread_mutex_t update_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t owner;
static int owned;
static int evals;

static void update_begin(void)
{
	pthread_mutex_lock(&update_lock);
	owner = pthread_self();
	__atomic_store_n(&owned, 1, __ATOMIC_RELAXED);
}

static void update_end(void)
{
	__atomic_store_n(&owned, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&update_lock);
}

static int update_lock_held(void)
{
	__atomic_fetch_add(&evals, 1, __ATOMIC_RELAXED);
	return __atomic_load_n(&owned, __ATOMIC_RELAXED) &&
	       pthread_equal(owner, pthread_self());
}

static struct elem el[NELEMS];
static CDS_LIST_HEAD(h);
static CDS_HLIST_HEAD(hh);
static struct cds_hlist_nulls_head nh;

/* [h] <-> 1 <-> 2 <-> 3   [hh] -> 1 <-> 2 <-> 3   [nh] -> 1 <-> 2 <-> 3 */
static void build(void)
{
	CDS_INIT_HLIST_NULLS_HEAD(&nh, 0);
	for (int i = NELEMS; i-- > 0;) {
		el[i].magic = MAGIC;
		el[i].key = i + 1;
		cds_list_add_rcu(&el[i].link, &h);
		cds_hlist_add_head_rcu(&el[i].hnode, &hh);
		cds_hlist_nulls_add_head_rcu(&el[i].nnode, &nh);
	}
}

#define SIG(sig, e) ((sig) = (sig)*10 + (e)->key)

/* WALK_IS(want, loop, entry): @loop, SIG() of @entry each step, gives @want. */
#define WALK_IS(want, loop, entry)                              \
	do {                                                    \
		long sig = 0;                                   \
		loop SIG(sig, entry);                           \
		cr_assert_eq(sig, want, "%s: %ld", #loop, sig); \
	} while (0)

/*
 * Every _rcu iterator, each given update_lock_held() as its condition;
 * each walk's keys, in order, as digits, checked against the want.
 */
static void walk_all_with_condition(void)
{
	struct cds_list_head *lpos;
	struct cds_hlist_node *hpos;
	struct cds_hlist_nulls_node *npos;
	struct elem *e;

	/* clang-format off */
	WALK_IS(123, cds_list_for_each_rcu(lpos, &h, update_lock_held()), cds_list_entry(lpos, struct elem, link));
	WALK_IS(123, cds_list_for_each_entry_rcu(e, &h, link, update_lock_held()), e);
	WALK_IS(321, cds_list_for_each_entry_reverse_rcu(e, &h, link, update_lock_held()), e);
	e = &el[0];
	WALK_IS(23, cds_list_for_each_entry_continue_rcu(e, &h, link, update_lock_held()), e);
	e = &el[1];
	WALK_IS(23, cds_list_for_each_entry_from_rcu(e, &h, link, update_lock_held()), e);
	WALK_IS(123, cds_hlist_for_each_rcu(hpos, &hh, update_lock_held()), cds_hlist_entry(hpos, struct elem, hnode));
	WALK_IS(123, cds_hlist_for_each_entry_rcu(e, hpos, &hh, hnode, update_lock_held()), e);
	WALK_IS(123, cds_hlist_for_each_entry_rcu_2(e, &hh, hnode, update_lock_held()), e);
	e = &el[0];
	WALK_IS(23, cds_hlist_for_each_entry_continue_rcu(e, hnode, update_lock_held()), e);
	e = &el[1];
	WALK_IS(23, cds_hlist_for_each_entry_from_rcu(e, hnode, update_lock_held()), e);
	WALK_IS(123, cds_hlist_nulls_for_each_entry_rcu(e, npos, &nh, nnode, update_lock_held()), e);
	/* clang-format on */
}

#define NWALKS 11 /* the walks above, each evaluating its condition once */

/* An updater, not even registered, under its lock, outside any section. */
Test(debug_cond, updater_under_its_lock_is_not_reported)
{
	build();
	update_begin();
	walk_all_with_condition();
	update_end();
	cr_assert_eq(reports, 0, "%s", last_report);
	cr_assert_eq(evals, NWALKS);
}

/* Inside a section the walks are right whatever the condition says. */
Test(debug_cond, false_condition_inside_a_section_is_not_reported)
{
	build();
	rculist_register_thread();
	rculist_read_lock();
	walk_all_with_condition();
	rculist_read_unlock();
	rculist_unregister_thread();
	cr_assert_eq(reports, 0, "%s", last_report);
	cr_assert_eq(evals, NWALKS);
}

static const char *cond_false =
	"not inside a read-side critical section, and the condition is false "
	"(hold the lock it names, or call rculist_read_lock() first)";

Test(debug_cond, false_condition_outside_a_section_is_reported, .signal = SIGABRT)
{
	struct elem *e;

	build();
	rculist_register_thread();
	EXPECT_REPORT("cds_list_for_each_entry_rcu", NULL, "%s", cond_false);
	/* clang-format off */
	PROVOKE(cds_list_for_each_entry_rcu(e, &h, link, update_lock_held()) (void)e);
	/* clang-format on */
}

Test(debug_cond, false_condition_on_an_hlist_is_reported, .signal = SIGABRT)
{
	struct cds_hlist_node *pos;
	struct elem *e;

	build();
	rculist_register_thread();
	EXPECT_REPORT("cds_hlist_for_each_entry_rcu", NULL, "%s", cond_false);
	/* clang-format off */
	PROVOKE(cds_hlist_for_each_entry_rcu(e, pos, &hh, hnode, update_lock_held()) (void)e);
	/* clang-format on */
}

Test(debug_cond, false_condition_on_a_nulls_list_is_reported, .signal = SIGABRT)
{
	struct cds_hlist_nulls_node *pos;
	struct elem *e;

	build();
	rculist_register_thread();
	EXPECT_REPORT("cds_hlist_nulls_for_each_entry_rcu", NULL, "%s",
		      cond_false);
	/* clang-format off */
	PROVOKE(cds_hlist_nulls_for_each_entry_rcu(e, pos, &nh, nnode, update_lock_held()) (void)e);
	/* clang-format on */
}

Test(debug_cond, false_condition_in_an_unregistered_thread_is_reported,
     .signal = SIGABRT)
{
	struct elem *e;

	build();
	/* bp registers a thread on its first rculist_read_lock(): never unregistered */
	EXPECT_REPORT("cds_hlist_for_each_entry_rcu_2", NULL, "%s",
		      flavor_is("bp") ?
			      cond_false :
			      "thread is not registered with RCU (call rculist_register_thread() first)");
	/* clang-format off */
	PROVOKE(cds_hlist_for_each_entry_rcu_2(e, &hh, hnode, update_lock_held()) (void)e);
	/* clang-format on */
}

/*
 * The hash-table idiom, concurrently: one lookup, shared by readers
 * (inside sections) and by the updater (under its lock, outside any
 * section), which finds an element, replaces it, waits for a grace
 * period and poisons it (kept, poisoned, until the end, so that malloc
 * cannot hand it out again); readers check every element they reach.
 * Debug mode reports nothing; before the condition existed it stopped
 * the updater at its first lookup.  Without the grace period, readers
 * see poisoned elements (planted: caught in every run here).
 */
#define TABLE_KEYS   64
#define NREADERS     2
#define MIN_LOOKUPS  2000 /* by each reader */
#define MAX_REPLACED 20000

static struct cds_hlist_head bucket;
static int stop;
static unsigned long reader_lookups[NREADERS];
static unsigned long poisoned_seen;

/* Stand on each element a little, to widen the window a bug would open. */
static void linger(void)
{
	for (int i = 0; i < 256; i++)
		__asm__ __volatile__("" ::: "memory");
}

static struct elem *lookup(int key)
{
	struct elem *e;

	cds_hlist_for_each_entry_rcu_2(e, &bucket, hnode, update_lock_held()) {
		linger();
		if (__atomic_load_n(&e->magic, __ATOMIC_RELAXED) != MAGIC)
			__atomic_fetch_add(&poisoned_seen, 1, __ATOMIC_RELAXED);
		if (e->key == key)
			return e;
	}
	return NULL;
}

static void *lookup_reader(void *arg)
{
	unsigned long *n = arg;
	unsigned int seed = (unsigned int)(uintptr_t)arg;

	rculist_register_thread();
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		seed = seed * 1103515245u + 12345u;
		rculist_read_lock();
		/* one key in two is missing: the lookup walks the whole chain */
		(void)lookup((int)((seed >> 8) % (2 * TABLE_KEYS)));
		rculist_read_unlock();
		rculist_quiescent_state();
		__atomic_store_n(n, *n + 1, __ATOMIC_RELAXED);
	}
	rculist_unregister_thread();
	return NULL;
}

static struct elem *new_elem(int key)
{
	struct elem *e = malloc(sizeof(*e));

	cr_assert_not_null(e);
	e->magic = MAGIC;
	e->key = key;
	return e;
}

static struct elem *retired[MAX_REPLACED];

Test(debug_cond, shared_lookup_under_updates_is_not_reported)
{
	pthread_t t[NREADERS];
	unsigned long replaced = 0;
	int key;

	for (key = 0; key < TABLE_KEYS; key++)
		cds_hlist_add_head_rcu(&new_elem(key)->hnode, &bucket);
	for (int i = 0; i < NREADERS; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, lookup_reader,
					    &reader_lookups[i]),
			     0);
	/*
	 * Replace elements until every reader has made MIN_LOOKUPS lookups
	 * (progress, not a number of rounds), at most 20 s.
	 */
	for (time_t end = time(NULL) + 20;
	     time(NULL) < end && replaced < MAX_REPLACED; replaced++) {
		struct elem *old, *e = new_elem((int)(replaced % TABLE_KEYS));
		int done = 1;

		update_begin();
		old = lookup(e->key);
		cr_assert_not_null(old, "key %d lost", e->key);
		cds_hlist_replace_rcu(&old->hnode, &e->hnode);
		update_end();
		rculist_synchronize_rcu();
		__atomic_store_n(&old->magic, POISON, __ATOMIC_RELAXED);
		retired[replaced] = old;
		for (int i = 0; i < NREADERS; i++)
			done &= __atomic_load_n(&reader_lookups[i],
						__ATOMIC_RELAXED) >= MIN_LOOKUPS;
		if (done && replaced >= TABLE_KEYS)
			break;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < NREADERS; i++) {
		pthread_join(t[i], NULL);
		cr_assert_geq(reader_lookups[i], MIN_LOOKUPS,
			      "reader %d made no progress", i);
	}
	cr_assert_eq(reports, 0, "%s", last_report);
	cr_assert_eq(__atomic_load_n(&poisoned_seen, __ATOMIC_RELAXED), 0,
		     "readers reached %lu poisoned elements", poisoned_seen);
	for (unsigned long i = 0; i < replaced && i < MAX_REPLACED; i++)
		free(retired[i]);
	/* the table still holds every key, once */
	update_begin();
	for (key = 0; key < TABLE_KEYS; key++)
		cr_assert_not_null(lookup(key), "key %d", key);
	update_end();
	cr_assert_eq(reports, 0, "%s", last_report);
}
