// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/tsan/correct.c - a correct rculist program in which
 * ThreadSanitizer must find nothing to report, with what the torture
 * test leaves out: polled grace periods (a cookie from
 * rculist_get_state_synchronize_rcu() waited for with
 * rculist_cond_synchronize_rcu(), one from
 * rculist_start_poll_synchronize_rcu() polled until satisfied), the
 * accessors (cds_list_first_or_null_rcu(), cds_list_next_or_null_rcu())
 * and the iterators it does not use (cds_list_for_each_rcu(),
 * cds_hlist_for_each_rcu(), the 4-argument cds_hlist_for_each_entry_rcu(),
 * the hlist _continue_rcu and _from_rcu walks), cds_hlist_add_tail_rcu()
 * and cds_hlist_del_init_rcu(), readers that exit registered, and a
 * qsbr reader's offline stretches.  tests/tsan/tsan.mk also builds it
 * with -DRCULIST_DEBUG and with -DRCULIST_INLINE_<FLAVOUR>.
 *
 *   correct [rounds]
 *
 * READERS threads walk a circular list and an hlist in read-side
 * sections, reading every field of every element and checking that none
 * is poisoned; UPDATERS threads, under one mutex, add, delete and
 * replace elements and free what they removed, each round by another
 * of: rculist_synchronize_rcu() then free(), rculist_call_rcu(),
 * rculist_free_rcu(), a cookie and rculist_cond_synchronize_rcu(), a
 * polled cookie.  An element is poisoned (plain stores) just before its
 * free: ThreadSanitizer sees those stores race with a reader unless the
 * grace period is told.  Exit status 0 when every check passed.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>

#define READERS	 3
#define UPDATERS 2
#define NKEYS	 16
#define WAIT_S	 60
#define MAGIC	 0x5eed
#define POISON	 0xdead

struct item {
	int key;
	int magic;
	struct cds_list_head node;
	struct cds_hlist_node hnode;
	struct rcu_head rcu;
};

static CDS_LIST_HEAD(list);
static struct cds_hlist_head hash;
static pthread_mutex_t update_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned long walks[READERS];
static int stop, failed;
static long allocs, frees, freed_rcu;

#define LOAD(x)	    __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define ADD(x, v)   __atomic_add_fetch(&(x), (v), __ATOMIC_RELAXED)

static void fail(const char *what, long a)
{
	fprintf(stderr, "correct: %s (%ld)\n", what, a);
	STORE(failed, 1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct item *item_new(int key)
{
	struct item *it = malloc(sizeof(*it));

	if (!it) {
		fprintf(stderr, "correct: out of memory\n");
		exit(2);
	}
	it->key = key;
	it->magic = MAGIC;
	ADD(allocs, 1);
	return it;
}

static void item_free(struct item *it)
{
	it->magic = POISON;
	it->key = -1;
	free(it);
	ADD(frees, 1);
}

static void item_free_cb(struct rcu_head *head)
{
	item_free(rculist__container_of(head, struct item, rcu));
}

static void seen(const struct item *it)
{
	if (it->magic != MAGIC || it->key < 0 || it->key >= NKEYS)
		fail("a reader saw a poisoned element", it->key);
}

/* One section: every walk the torture test does not make. */
static void read_once(void)
{
	struct cds_list_head *pos;
	struct cds_hlist_node *hpos;
	struct item *it, *mid = NULL;
	int n = 0;

	rculist_read_lock();
	cds_list_for_each_rcu(pos, &list)
		seen(cds_list_entry_rcu(pos, struct item, node));
	for (it = cds_list_first_or_null_rcu(&list, struct item, node); it;
	     it = cds_list_next_or_null_rcu(&list, &it->node, struct item, node)) {
		seen(it);
		if (n++ == 2)
			mid = it;
	}
	if (mid) {
		cds_list_for_each_entry_continue_rcu(mid, &list, node)
			seen(mid);
	}
	cds_hlist_for_each_rcu(hpos, &hash)
		seen(cds_hlist_entry(hpos, struct item, hnode));
	mid = NULL;
	n = 0;
	cds_hlist_for_each_entry_rcu(it, hpos, &hash, hnode) {
		seen(it);
		if (n++ == 1)
			mid = it;
	}
	if (mid) {
		it = mid;
		cds_hlist_for_each_entry_from_rcu(it, hnode)
			seen(it);
		cds_hlist_for_each_entry_continue_rcu(mid, hnode)
			seen(mid);
	}
	rculist_read_unlock();
}

static void *reader(void *arg)
{
	int id = (int)(long)arg;
	unsigned long i;

	rculist_register_thread();
	for (i = 0; !LOAD(stop); i++) {
		read_once();
		rculist_quiescent_state();
		if (i % 64 == 63) {
			/* qsbr: offline around a blocking call */
			rculist_thread_offline();
			usleep(50);
			rculist_thread_online();
		}
		ADD(walks[id], 1);
	}
	/* Reader 0 unregisters; the others exit registered. */
	if (id == 0)
		rculist_unregister_thread();
	return NULL;
}

/* Polled cookies, waited for later by their updater. */
struct deferred {
	struct item *it;
	struct rculist_gp_cookie cookie;
	int polled; /* 1: start_poll's cookie, polled; 0: cond_synchronize */
};

static void release(struct item *it, int how, struct deferred *d)
{
	switch (how) {
	case 0:
		rculist_synchronize_rcu();
		item_free(it);
		break;
	case 1:
		rculist_call_rcu(&it->rcu, item_free_cb);
		break;
	case 2:
		rculist_free_rcu(it, rcu);
		ADD(freed_rcu, 1);
		break;
	case 3:
		d->it = it;
		d->cookie = rculist_get_state_synchronize_rcu();
		d->polled = 0;
		break;
	default:
		d->it = it;
		d->cookie = rculist_start_poll_synchronize_rcu();
		d->polled = 1;
		break;
	}
}

static void wait_deferred(struct deferred *d)
{
	double end = now() + WAIT_S;

	if (!d->it)
		return;
	if (d->polled) {
		while (!rculist_poll_state_synchronize_rcu(d->cookie)) {
			if (now() > end) {
				fail("a polled cookie never satisfied", 0);
				return;
			}
			usleep(1000);
		}
	} else {
		rculist_cond_synchronize_rcu(d->cookie);
	}
	item_free(d->it);
	d->it = NULL;
}

static struct item *find(int key)
{
	struct item *it;

	cds_list_for_each_entry(it, &list, node)
		if (it->key == key)
			return it;
	return NULL;
}

static void *updater(void *arg)
{
	long rounds = (long)arg, r;
	struct deferred d = { NULL, { 0 }, 0 };
	struct item *it, *old;
	unsigned int seed = (unsigned int)(size_t)&d;
	int key, how, removed;

	for (r = 0; r < rounds; r++) {
		key = (int)(rand_r(&seed) % NKEYS);
		how = (int)(r % 5);
		old = NULL;
		removed = 0;
		pthread_mutex_lock(&update_lock);
		it = find(key);
		if (!it) {
			it = item_new(key);
			if (key & 1) {
				cds_list_add_rcu(&it->node, &list);
				cds_hlist_add_head_rcu(&it->hnode, &hash);
			} else {
				cds_list_add_tail_rcu(&it->node, &list);
				cds_hlist_add_tail_rcu(&it->hnode, &hash);
			}
		} else if (r & 2) {
			cds_list_del_rcu(&it->node);
			if (key & 1)
				cds_hlist_del_rcu(&it->hnode);
			else
				cds_hlist_del_init_rcu(&it->hnode);
			old = it;
			removed = 1;
		} else {
			struct item *nw = item_new(key);

			cds_list_replace_rcu(&it->node, &nw->node);
			cds_hlist_replace_rcu(&it->hnode, &nw->hnode);
			old = it;
			removed = 1;
		}
		pthread_mutex_unlock(&update_lock);
		if (removed) {
			wait_deferred(&d);
			release(old, how, &d);
		}
	}
	wait_deferred(&d);
	return NULL;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 400;
	pthread_t r[READERS], u[UPDATERS];
	struct item *it, *n;
	unsigned long min;
	double end;
	long i;

	CDS_INIT_HLIST_HEAD(&hash);
	for (i = 0; i < NKEYS; i += 2) {
		it = item_new((int)i);
		cds_list_add_tail_rcu(&it->node, &list);
		cds_hlist_add_head_rcu(&it->hnode, &hash);
	}
	for (i = 0; i < READERS; i++)
		if (pthread_create(&r[i], NULL, reader, (void *)i))
			return 2;
	for (i = 0; i < UPDATERS; i++)
		if (pthread_create(&u[i], NULL, updater, (void *)rounds))
			return 2;
	for (i = 0; i < UPDATERS; i++)
		pthread_join(u[i], NULL);
	/* Every reader walked while the updaters ran, and walks on. */
	end = now() + WAIT_S;
	do {
		min = LOAD(walks[0]);
		for (i = 1; i < READERS; i++)
			if (LOAD(walks[i]) < min)
				min = LOAD(walks[i]);
		if (now() > end) {
			fail("a reader made no progress", (long)min);
			break;
		}
		usleep(1000);
	} while (min < 20);
	STORE(stop, 1);
	for (i = 0; i < READERS; i++)
		pthread_join(r[i], NULL);
	rculist_rcu_barrier();
	cds_list_for_each_entry_safe(it, n, &list, node) {
		cds_list_del(&it->node);
		item_free(it);
	}
	if (LOAD(allocs) != LOAD(frees) + LOAD(freed_rcu))
		fail("allocations and frees differ", LOAD(allocs) - LOAD(frees));
	printf("correct %s: %ld rounds, %lu walks by the slowest reader, %ld allocs, %ld frees, %ld free_rcu: %s\n",
	       rculist_flavor_name(), rounds, min, LOAD(allocs), LOAD(frees),
	       LOAD(freed_rcu), LOAD(failed) ? "FAIL" : "ok");
	return LOAD(failed) ? 1 : 0;
}
