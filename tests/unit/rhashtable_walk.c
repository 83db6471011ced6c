// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/rhashtable_walk.c - cds_rhashtable_walk_enter() finishes
 * the resize in progress, so that a walk entered after inserts that grew
 * the table, with no updater running, returns every object exactly once
 * and no -EAGAIN (the kernel's lib/test_rhashtable.c counts on it): from
 * outside and from inside a read-side critical section, and with fork()
 * racing the walk_enter() that finishes the resize (the child inherits
 * no lock held by a thread it does not have).
 *
 * The rehash is slowed down by rculist__rht_set_rehash_hook(): the
 * rehash thread stops in its first table until the test has seen the
 * resize under way, then sleeps every 64 buckets, so walk_enter() is
 * entered while the thread is still moving objects.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "rhl_obj.h"

#include <rculist/rhashtable.h>

TestSuite(rhashtable_walk, .timeout = 60);

struct wobj {
	int key;
	struct cds_rhash_head node;
};

static const struct cds_rhashtable_params wparams = {
	.key_len = sizeof(int),
	.key_offset = offsetof(struct wobj, key),
	.head_offset = offsetof(struct wobj, node),
};

/* ------------------------------------------------ the slow rehash */

static pthread_t test_thread;
static int hook_held, hook_reached;

static void pause_us(long us)
{
	struct timespec t = { 0, us * 1000 };

	nanosleep(&t, NULL);
}

/*
 * In the rehash thread (not the test's, which finishes the resize in
 * walk_enter()): wait while hook_held, then sleep 200 us every 64
 * buckets.
 */
static void slow_rehash(unsigned int slot, unsigned int size)
{
	(void)size;
	if (pthread_equal(pthread_self(), test_thread))
		return;
	__atomic_store_n(&hook_reached, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&hook_held, __ATOMIC_ACQUIRE))
		pause_us(100);
	if ((slot & 63) == 63)
		pause_us(200);
}

static void slow_init(void)
{
	rculist_register_thread();
	test_thread = pthread_self();
	__atomic_store_n(&hook_held, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&hook_reached, 0, __ATOMIC_RELEASE);
	rculist__rht_set_rehash_hook(slow_rehash);
}

/* The rehash thread stopped in its hook: a resize is under way. */
static void wait_hook_reached(void)
{
	int i;

	for (i = 0; !__atomic_load_n(&hook_reached, __ATOMIC_ACQUIRE); i++) {
		cr_assert_lt(i, 10000,
			     "no progress: the rehash thread never moved a bucket");
		rculist_thread_offline();
		pause_us(1000);
		rculist_thread_online();
	}
}

/* Inside a read-side section: whether @ht's table has a future one. */
static int resizing(struct cds_rhashtable *ht)
{
	struct cds_bucket_table *tbl;
	int busy;

	rculist_read_lock();
	tbl = cds_rht_dereference_rcu(ht->tbl, ht);
	busy = cds_rht_dereference_rcu(tbl->future_tbl, ht) != NULL;
	rculist_read_unlock();
	return busy;
}

/* ------------------------------------------------------- one walk */

struct walk_result {
	int objects, again, twice, bad_key, start_err;
};

/*
 * A whole walk of @ht, entered inside a read-side section if @inside
 * (the walk's own section nested in it: not for the analysis): what it
 * returned (keys 0..n-1 expected, @seen cleared by the caller).
 */
static int wobj_index(void *obj)
{
	return ((struct wobj *)obj)->key;
}

static void walk_all_by(struct cds_rhashtable *ht, int (*index)(void *obj),
			int n, unsigned char *seen, int inside,
			struct walk_result *r) RCULIST_NO_RCU_ANALYSIS
{
	struct cds_rhashtable_iter iter;
	void *o;

	memset(r, 0, sizeof(*r));
	if (inside)
		rculist_read_lock();
	cds_rhashtable_walk_enter(ht, &iter);
	r->start_err = cds_rhashtable_walk_start_check(&iter);
	while ((o = cds_rhashtable_walk_next(&iter))) {
		int k;

		if (CDS_IS_ERR(o)) {
			r->again++;
			continue;
		}
		k = index(o);
		if (k < 0 || k >= n) {
			r->bad_key++;
			continue;
		}
		if (seen[k]++)
			r->twice++;
		r->objects++;
	}
	cds_rhashtable_walk_stop(&iter);
	if (inside)
		rculist_read_unlock();
	cds_rhashtable_walk_exit(&iter);
}

static void walk_all(struct cds_rhashtable *ht, int n, unsigned char *seen,
		     int inside, struct walk_result *r)
{
	walk_all_by(ht, wobj_index, n, seen, inside, r);
}

/* The whole result: one table, every one of the @n objects once. */
static void assert_one_pass(const struct walk_result *r, int n,
			    const unsigned char *seen)
{
	int i;

	cr_assert_eq(r->start_err, 0);
	cr_assert_eq(r->again, 0, "the walk met %d resizes", r->again);
	cr_assert_eq(r->bad_key, 0);
	cr_assert_eq(r->twice, 0, "%d objects twice", r->twice);
	cr_assert_eq(r->objects, n);
	for (i = 0; i < n; i++)
		cr_assert_eq(seen[i], 1, "object %d seen %d times", i, seen[i]);
}

/*
 * N objects inserted into a table of 64 buckets (the thread grows it to
 * 16384 through several tables); the thread held in its first move,
 * then let go, slowly; walk_enter() at once: one table, every object
 * once, no -EAGAIN; and the table left sized for its objects.
 */
static void walk_after_growth(int inside)
{
	enum { N = 10000 };
	static struct wobj o[N];
	static unsigned char seen[N];
	static struct cds_rhashtable ht;
	struct cds_bucket_table *tbl;
	struct walk_result r;
	int i;

	cr_assert_eq(cds_rhashtable_init(&ht, &wparams), 0);
	for (i = 0; i < N; i++) {
		o[i].key = i;
		cr_assert_eq(cds_rhashtable_insert_fast(&ht, &o[i].node, wparams),
			     0);
	}
	wait_hook_reached();
	cr_assert(resizing(&ht), "no resize under way after the inserts");
	__atomic_store_n(&hook_held, 0, __ATOMIC_RELEASE);
	walk_all(&ht, N, seen, inside, &r);
	assert_one_pass(&r, N, seen);
	/* No resize left to do: no future table, load at most 75%. */
	cr_assert_not(resizing(&ht));
	tbl = ht.tbl;
	cr_assert_geq(tbl->size / 4 * 3, N, "%u buckets for %d objects",
		      tbl->size, N);
	cds_rhashtable_destroy(&ht);
	rculist__rht_set_rehash_hook(NULL);
}

Test(rhashtable_walk, entered_after_growth_sees_every_object_once,
     .init = slow_init)
{
	walk_after_growth(0);
}

/*
 * The same, walk_enter() called inside a read-side critical section (as
 * the kernel allows): it waits for the thread's step and finishes the
 * resize there, without deadlock (no rehash step waits for a grace
 * period).
 */
Test(rhashtable_walk, entered_inside_a_section_during_a_rehash, .init = slow_init)
{
	walk_after_growth(1);
}

/* --------------------------------------------------------- rhltable */

static const struct cds_rhashtable_params lwparams = {
	.key_len = sizeof(int),
	.key_offset = offsetof(struct lobj, key),
	.head_offset = offsetof(struct lobj, list),
};

static int lwobj_index(void *obj)
{
	return ((struct lobj *)obj)->id;
}

/*
 * cds_rhltable_walk_enter(): the same for a table with duplicate keys
 * (3 objects per key, 2000 keys: grown from 64 buckets to 4096); the
 * walk returns each duplicate once.
 */
Test(rhashtable_walk, rhltable_entered_after_growth_sees_every_object_once,
     .init = slow_init)
{
	enum { N = 6000 };
	static struct lobj o[N];
	static unsigned char seen[N];
	static struct cds_rhltable hlt;
	struct cds_rhashtable_iter iter;
	struct walk_result r;
	int i;

	cr_assert_eq(cds_rhltable_init(&hlt, &lwparams), 0);
	for (i = 0; i < N; i++) {
		o[i].key = i / 3;
		o[i].id = i;
		cr_assert_eq(cds_rhltable_insert(&hlt, &o[i].list, lwparams), 0);
	}
	wait_hook_reached();
	cr_assert(resizing(&hlt.ht), "no resize under way after the inserts");
	__atomic_store_n(&hook_held, 0, __ATOMIC_RELEASE);
	/* Entered through the rhltable's own call; walked as the others. */
	cds_rhltable_walk_enter(&hlt, &iter);
	cds_rhashtable_walk_exit(&iter);
	cr_assert_not(resizing(&hlt.ht));
	walk_all_by(&hlt.ht, lwobj_index, N, seen, 0, &r);
	assert_one_pass(&r, N, seen);
	cds_rhltable_destroy(&hlt);
	rculist__rht_set_rehash_hook(NULL);
}

/* ------------------------------------------------------------ fork */

enum { FN = 4096 };
static struct wobj fo[FN];
static unsigned char f_seen[FN];
static struct cds_rhashtable f_ht;
static int f_go, f_done, f_stop;
static struct walk_result f_result;

/* Each round: a walk of f_ht, whose walk_enter() finishes its resize. */
static void *fork_walker(void *arg)
{
	int round;

	(void)arg;
	rculist_register_thread();
	for (round = 1;; round++) {
		while (__atomic_load_n(&f_go, __ATOMIC_ACQUIRE) < round &&
		       !__atomic_load_n(&f_stop, __ATOMIC_ACQUIRE)) {
			rculist_thread_offline();
			pause_us(100);
			rculist_thread_online();
		}
		if (__atomic_load_n(&f_stop, __ATOMIC_ACQUIRE))
			break;
		memset(f_seen, 0, sizeof(f_seen));
		walk_all(&f_ht, FN, f_seen, 0, &f_result);
		__atomic_store_n(&f_done, round, __ATOMIC_RELEASE);
	}
	rculist_unregister_thread();
	return NULL;
}

/*
 * The child of a fork that raced a walk_enter() finishing a resize in
 * another thread: its own walk_enter() must not find the table's mutex
 * held by a thread it does not have.  Exit status 0 if its walk saw one
 * table and every object once.
 */
static void fork_child(int fd)
{
	static unsigned char seen[FN];
	struct walk_result r;
	char ok;

	walk_all(&f_ht, FN, seen, 0, &r);
	ok = !r.start_err && !r.again && !r.twice && !r.bad_key &&
	     r.objects == FN;
	if (write(fd, &ok, 1) != 1)
		_exit(2);
	_exit(0);
}

/*
 * fork() while another thread's walk_enter() finishes a resize (under
 * the table's mutex, moving buckets): the fork waits for it, so the
 * child walks the table and finds every object, where it would hang
 * on the mutex if the fork had not waited.  Rounds of: a fresh table
 * grown by FN inserts, the rehash thread held, the walker started, the
 * rehash let go, a fork 0-2 ms later.
 */
Test(rhashtable_walk, fork_while_walk_enter_finishes_a_resize, .init = slow_init)
{
	enum { ROUNDS = 12 };
	pthread_t w;
	int round, i;

	cr_assert_eq(pthread_create(&w, NULL, fork_walker, NULL), 0);
	for (round = 1; round <= ROUNDS; round++) {
		struct pollfd pfd;
		char verdict = 0;
		pid_t pid;
		int fd[2], st, k;

		cr_assert_eq(cds_rhashtable_init(&f_ht, &wparams), 0);
		__atomic_store_n(&hook_held, 1, __ATOMIC_RELEASE);
		__atomic_store_n(&hook_reached, 0, __ATOMIC_RELEASE);
		for (i = 0; i < FN; i++) {
			fo[i].key = i;
			cr_assert_eq(cds_rhashtable_insert_fast(&f_ht, &fo[i].node,
								wparams),
				     0);
		}
		wait_hook_reached();
		__atomic_store_n(&f_go, round, __ATOMIC_RELEASE);
		pause_us(200);
		__atomic_store_n(&hook_held, 0, __ATOMIC_RELEASE);
		pause_us((round % 5) * 500);
		cr_assert_eq(pipe(fd), 0);
		rculist_thread_offline();
		pid = fork();
		rculist_thread_online();
		cr_assert_geq(pid, 0);
		if (pid == 0) {
			close(fd[0]);
			fork_child(fd[1]);
		}
		close(fd[1]);
		pfd.fd = fd[0];
		pfd.events = POLLIN;
		rculist_thread_offline();
		k = poll(&pfd, 1, 10000);
		rculist_thread_online();
		if (k != 1)
			kill(pid, SIGKILL);
		cr_assert_eq(k, 1, "no progress: round %d, the child's walk hung",
			     round);
		cr_assert_eq(read(fd[0], &verdict, 1), 1);
		close(fd[0]);
		cr_assert_eq(waitpid(pid, &st, 0), pid);
		cr_assert_eq(verdict, 1, "round %d: the child's walk was wrong",
			     round);
		for (i = 0; __atomic_load_n(&f_done, __ATOMIC_ACQUIRE) < round;
		     i++) {
			cr_assert_lt(i, 10000,
				     "no progress: round %d, the walker", round);
			rculist_thread_offline();
			pause_us(1000);
			rculist_thread_online();
		}
		/* Its walk_enter() may have stood aside for the fork: at least once. */
		cr_assert_eq(f_result.start_err, 0);
		cr_assert_eq(f_result.bad_key, 0);
		for (i = 0; i < FN; i++)
			cr_assert_geq(f_seen[i], 1, "round %d: key %d missed",
				      round, i);
		cds_rhashtable_destroy(&f_ht);
	}
	__atomic_store_n(&f_stop, 1, __ATOMIC_RELEASE);
	rculist_thread_offline();
	pthread_join(w, NULL);
	rculist_thread_online();
	rculist__rht_set_rehash_hook(NULL);
}
