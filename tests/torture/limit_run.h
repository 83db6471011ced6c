/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/torture/limit_run.h - a reader stuck in its read-side critical
 * section while updaters free flat out, under a limit
 * (rculist_reclaim_set_limit()): the run behind torture's stall mode
 * (torture --stall) and the reclaim_limit unit suite, which check its
 * result.  Include it once, after <rculist.h>.
 *
 * A list of LR_LEN 256-byte elements.  Two updaters, registered with
 * nothing (so outside any section: the limit may make them wait), replace
 * random elements flat out and retire the old ones, alternately with
 * rculist_free_rcu() (glibc's free() writes its own links over the first
 * words) and rculist_call_rcu() with a callback that poisons the element
 * and frees it.  Two checking readers walk the list without end and check
 * every element they reach: its magic, its key and its payload, twice
 * across a sched_yield() for one element a walk (a reused block gets a
 * new key).  One stalled reader takes the first element inside its
 * section, holds it for the stall, then checks it is intact.  The run
 * records the counters (rculist_reclaim_get_stats()) and the process's
 * RSS during the stall, releases the reader, lets the updaters go on,
 * stops everything, runs rculist_rcu_barrier() and records them again.
 * The peak is the run's own (reset through the internal
 * rculist__reclaim_get_stats() as the run starts); a process may run it
 * again.
 */
#ifndef RCULIST_TESTS_LIMIT_RUN_H
#define RCULIST_TESTS_LIMIT_RUN_H

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LR_LEN	    32
#define LR_UPDATERS 2
#define LR_CHECKERS 2
#define LR_LIVE	    0x11fe5a11fe5aUL
#define LR_DEAD	    0xdeadbeefdeadUL
#define LR_POISON   0x6b

struct lr_head {
	unsigned long magic;
	long key;
	struct cds_list_head link;
	struct rcu_head rcu;
};

/* 256 bytes, as the updaters free. */
struct lr_elem {
	struct lr_head h;
	unsigned char payload[256 - sizeof(struct lr_head)];
};

struct lr_result {
	unsigned long retired;	     /* elements handed to free_rcu/call_rcu */
	unsigned long called;	     /* of which through rculist_call_rcu() */
	unsigned long callbacks;     /* callbacks run */
	unsigned long after_release; /* retired after the reader left */
	unsigned long walks, bad;    /* checking readers */
	int checkers_walking;	     /* had walked before the updates began */
	long bad_key;
	unsigned long bad_magic;
	int stalled_ok;	     /* the stalled reader's element was intact */
	int stalled_timeout; /* it was never released */
	long stalled_key;
	int stalled_key_gone; /* its element left the list */
	int shape_ok; /* the final list: LR_LEN live elements, both ways */
	struct rculist_reclaim_stats before, during, after;
	long rss_before_kb, rss_peak_kb, rss_after_kb;
};

static struct {
	struct cds_list_head head;
	pthread_mutex_t lock;
	long next_key;
	int stop, stop_checkers, release, held;
	int walking; /* checking readers that have made a walk */
	double stall_s;
	unsigned long retired[LR_UPDATERS], called[LR_UPDATERS];
	unsigned long callbacks, walks, bad, bad_magic;
	long bad_key;
	int stalled_ok, stalled_timeout;
	long stalled_key;
} lr;

static long lr_rss_kb(void)
{
	long size = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &size, &rss) != 2)
			rss = 0;
		fclose(f);
	}
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

static double lr_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void lr_sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

static struct lr_elem *lr_new(void)
{
	struct lr_elem *e = malloc(sizeof(*e));

	if (!e)
		abort();
	e->h.magic = LR_LIVE;
	e->h.key = __atomic_fetch_add(&lr.next_key, 1, __ATOMIC_RELAXED);
	memset(e->payload, (unsigned char)e->h.key, sizeof(e->payload));
	return e;
}

static int lr_ok(const struct lr_elem *e, long key)
{
	size_t i;

	if (__atomic_load_n(&e->h.magic, __ATOMIC_RELAXED) != LR_LIVE ||
	    __atomic_load_n(&e->h.key, __ATOMIC_RELAXED) != key)
		return 0;
	for (i = 0; i < sizeof(e->payload); i++)
		if (__atomic_load_n(&e->payload[i], __ATOMIC_RELAXED) !=
		    (unsigned char)key)
			return 0;
	return 1;
}

static void lr_poison_free(struct rcu_head *head)
{
	struct lr_elem *e = rculist__container_of(head, struct lr_elem, h.rcu);

	__atomic_store_n(&e->h.magic, LR_DEAD, __ATOMIC_RELAXED);
	e->h.key = -1;
	memset(e->payload, LR_POISON, sizeof(e->payload));
	__atomic_fetch_add(&lr.callbacks, 1, __ATOMIC_RELAXED);
	free(e);
}

static void *lr_checker(void *arg)
{
	struct lr_elem *e;
	unsigned long walks = 0, bad = 0, pick = (uintptr_t)arg;
	long key, n;

	rculist_register_thread();
	while (!__atomic_load_n(&lr.stop_checkers, __ATOMIC_ACQUIRE)) {
		rculist_read_lock();
		n = 0;
		cds_list_for_each_entry_rcu(e, &lr.head, h.link) {
			key = __atomic_load_n(&e->h.key, __ATOMIC_RELAXED);
			if (!lr_ok(e, key) || (n == (long)(pick % LR_LEN) &&
					       (sched_yield(), !lr_ok(e, key)))) {
				if (!bad++) {
					lr.bad_key = key;
					lr.bad_magic = e->h.magic;
				}
				break;
			}
			if (++n > 2 * LR_LEN) {
				bad++;
				break;
			}
		}
		rculist_read_unlock();
		rculist_quiescent_state();
		if (!walks++)
			__atomic_add_fetch(&lr.walking, 1, __ATOMIC_RELEASE);
		pick = pick * 6364136223846793005UL + 1;
	}
	rculist_unregister_thread();
	__atomic_add_fetch(&lr.walks, walks, __ATOMIC_RELAXED);
	__atomic_add_fetch(&lr.bad, bad, __ATOMIC_RELAXED);
	return NULL;
}

static void *lr_stalled(void *arg)
{
	struct lr_elem *e = NULL;
	double give_up = lr_now() + lr.stall_s + 60;

	(void)arg;
	rculist_register_thread();
	rculist_read_lock();
	cds_list_for_each_entry_rcu(e, &lr.head, h.link)
		break;
	lr.stalled_key = e->h.key;
	__atomic_store_n(&lr.held, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&lr.release, __ATOMIC_ACQUIRE) &&
	       lr_now() < give_up)
		lr_sleep_ms(1);
	lr.stalled_timeout = !__atomic_load_n(&lr.release, __ATOMIC_ACQUIRE);
	lr.stalled_ok = lr_ok(e, lr.stalled_key);
	rculist_read_unlock();
	rculist_quiescent_state();
	rculist_unregister_thread();
	return NULL;
}

static void *lr_updater(void *arg)
{
	int id = (int)(uintptr_t)arg;
	unsigned long r = (unsigned long)id * 2654435761UL + 7, i;
	struct lr_elem *old, *e;
	long pos;

	for (i = 0; !__atomic_load_n(&lr.stop, __ATOMIC_ACQUIRE); i++) {
		e = lr_new();
		r = r * 6364136223846793005UL + 1442695040888963407UL;
		pthread_mutex_lock(&lr.lock);
		pos = (long)((r >> 33) % LR_LEN);
		cds_list_for_each_entry(old, &lr.head, h.link)
			if (!pos--)
				break;
		cds_list_replace_rcu(&old->h.link, &e->h.link);
		pthread_mutex_unlock(&lr.lock);
		if (i & 1) {
			rculist_call_rcu(&old->h.rcu, lr_poison_free);
			__atomic_store_n(&lr.called[id], lr.called[id] + 1,
					 __ATOMIC_RELAXED);
		} else {
			rculist_free_rcu(old, h.rcu);
		}
		__atomic_store_n(&lr.retired[id], lr.retired[id] + 1,
				 __ATOMIC_RELAXED);
	}
	return NULL;
}

static unsigned long lr_retired(void)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i < LR_UPDATERS; i++)
		n += __atomic_load_n(&lr.retired[i], __ATOMIC_RELAXED);
	return n;
}

/* The whole list, quiescent: LR_LEN live elements, distinct keys, both ways. */
static int lr_shape_ok(void)
{
	long keys[LR_LEN];
	struct lr_elem *e;
	int n = 0, i, j;

	if (!rculist_list_check(&lr.head))
		return 0;
	cds_list_for_each_entry(e, &lr.head, h.link) {
		if (n == LR_LEN || !lr_ok(e, e->h.key))
			return 0;
		keys[n++] = e->h.key;
	}
	if (n != LR_LEN)
		return 0;
	cds_list_for_each_entry_reverse(e, &lr.head, h.link)
		if (e->h.key != keys[--n])
			return 0;
	for (i = 0; i < LR_LEN; i++)
		for (j = 0; j < i; j++)
			if (keys[i] == keys[j])
				return 0;
	return 1;
}

/*
 * The run: @limit (0: none), the reader stalled @stall_s seconds, and
 * on until @want blocks are pending (60 s more at most: a loaded machine
 * may be slow to queue them), the updaters going on @after_s seconds
 * once it left.  Returns 0, or -1 if a thread could not be created.
 */
static int lr_run(unsigned long limit, double stall_s, unsigned long want,
		  double after_s, struct lr_result *res)
{
	pthread_t chk[LR_CHECKERS], upd[LR_UPDATERS], stalled;
	struct lr_elem *e, *tmp;
	unsigned long at_release;
	double end;
	struct rculist__reclaim_stats internal;
	long rss;
	int i;

	memset(res, 0, sizeof(*res));
	memset(&lr, 0, sizeof(lr));
	pthread_mutex_init(&lr.lock, NULL);
	lr.stall_s = stall_s;
	CDS_INIT_LIST_HEAD(&lr.head);
	for (i = 0; i < LR_LEN; i++)
		cds_list_add_tail(&lr_new()->h.link, &lr.head);
	rculist_rcu_barrier();
	rculist__reclaim_get_stats(&internal, 1); /* the peak, from now */
	rculist_reclaim_get_stats(&res->before);
	res->rss_before_kb = res->rss_peak_kb = lr_rss_kb();
	rculist_reclaim_set_limit(limit);

	for (i = 0; i < LR_CHECKERS; i++)
		if (pthread_create(&chk[i], NULL, lr_checker,
				   (void *)(uintptr_t)(i * 7 + 1)))
			return -1;
	if (pthread_create(&stalled, NULL, lr_stalled, NULL))
		return -1;
	while (!__atomic_load_n(&lr.held, __ATOMIC_ACQUIRE))
		lr_sleep_ms(1);
	/*
	 * The updaters begin once every checking reader has walked (20 s at
	 * most): on a loaded machine flat-out updaters can leave them no turn.
	 */
	for (end = lr_now() + 20;
	     __atomic_load_n(&lr.walking, __ATOMIC_ACQUIRE) < LR_CHECKERS &&
	     lr_now() < end;)
		lr_sleep_ms(1);
	res->checkers_walking = __atomic_load_n(&lr.walking, __ATOMIC_ACQUIRE);
	for (i = 0; i < LR_UPDATERS; i++)
		if (pthread_create(&upd[i], NULL, lr_updater,
				   (void *)(uintptr_t)i))
			return -1;

	for (end = lr_now() + stall_s;;) {
		lr_sleep_ms(10);
		rss = lr_rss_kb();
		if (rss > res->rss_peak_kb)
			res->rss_peak_kb = rss;
		if (lr_now() < end)
			continue;
		rculist_reclaim_get_stats(&res->during);
		if (res->during.pending >= want || lr_now() > end + 60)
			break;
	}
	at_release = lr_retired();
	__atomic_store_n(&lr.release, 1, __ATOMIC_RELEASE);
	pthread_join(stalled, NULL);

	for (end = lr_now() + after_s; lr_now() < end;)
		lr_sleep_ms(10);
	__atomic_store_n(&lr.stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < LR_UPDATERS; i++)
		pthread_join(upd[i], NULL);
	__atomic_store_n(&lr.stop_checkers, 1, __ATOMIC_RELEASE);
	for (i = 0; i < LR_CHECKERS; i++)
		pthread_join(chk[i], NULL);
	rculist_rcu_barrier();
	rculist_reclaim_get_stats(&res->after);
	res->rss_after_kb = lr_rss_kb();
	rculist_reclaim_set_limit(0);

	res->retired = lr_retired();
	res->after_release = res->retired - at_release;
	for (i = 0; i < LR_UPDATERS; i++)
		res->called += lr.called[i];
	res->callbacks = __atomic_load_n(&lr.callbacks, __ATOMIC_RELAXED);
	res->walks = lr.walks;
	res->bad = lr.bad;
	res->bad_key = lr.bad_key;
	res->bad_magic = lr.bad_magic;
	res->stalled_ok = lr.stalled_ok;
	res->stalled_timeout = lr.stalled_timeout;
	res->stalled_key = lr.stalled_key;
	res->stalled_key_gone = 1;
	res->shape_ok = lr_shape_ok();
	cds_list_for_each_entry_safe(e, tmp, &lr.head, h.link) {
		if (e->h.key == lr.stalled_key)
			res->stalled_key_gone = 0;
		cds_list_del(&e->h.link);
		free(e);
	}
	return 0;
}

/*
 * What the run must show, with @limit and @rss_max_kb of RSS growth at
 * most: the first violation as a line in @why (empty if none).  Blocks
 * never pass the limit by more than LR_SLACK: 64 per updater (each
 * checks every 32 blocks, and 32 more may be unpublished).
 */
#define LR_SLACK (64UL * LR_UPDATERS)

static int lr_verdict(const struct lr_result *r, unsigned long limit,
		      long rss_max_kb, char *why, size_t len)
{
	unsigned long freed = r->after.freed - r->before.freed;

	why[0] = '\0';
	if (r->bad)
		snprintf(why, len,
			 "%lu of %lu walks reached a freed element (key %ld, magic %#lx)",
			 r->bad, r->walks, r->bad_key, r->bad_magic);
	else if (!r->walks || r->checkers_walking < LR_CHECKERS)
		snprintf(why, len,
			 "no progress: %d of %d checking readers walked in 20 s (%lu walks in all)",
			 r->checkers_walking, LR_CHECKERS, r->walks);
	else if (!r->shape_ok)
		snprintf(why, len,
			 "the final list is not %d live elements, linked both ways",
			 LR_LEN);
	else if (r->stalled_timeout || !r->stalled_ok || !r->stalled_key_gone)
		snprintf(why, len,
			 "the stalled reader's element %ld: released %d, intact %d, unlinked %d",
			 r->stalled_key, !r->stalled_timeout, r->stalled_ok,
			 r->stalled_key_gone);
	else if (limit && r->during.peak > limit + LR_SLACK)
		snprintf(why, len, "peak %lu blocks, limit %lu (+%lu)",
			 r->during.peak, limit, LR_SLACK);
	else if (limit && r->during.throttled == r->before.throttled)
		snprintf(why, len, "no caller was throttled (pending %lu)",
			 r->during.pending);
	else if (rss_max_kb && r->rss_peak_kb - r->rss_before_kb > rss_max_kb)
		snprintf(why, len, "RSS grew by %ld KiB, at most %ld allowed",
			 r->rss_peak_kb - r->rss_before_kb, rss_max_kb);
	else if (r->after.pending)
		snprintf(why, len, "%lu blocks pending after the barrier",
			 r->after.pending);
	else if (freed != r->retired)
		snprintf(why, len, "%lu blocks freed or run for %lu retired",
			 freed, r->retired);
	else if (r->callbacks != r->called)
		snprintf(why, len, "%lu callbacks run for %lu queued",
			 r->callbacks, r->called);
	else if (!r->after_release)
		snprintf(why, len, "no update after the reader left");
	return why[0] != '\0';
}

#endif /* RCULIST_TESTS_LIMIT_RUN_H */
