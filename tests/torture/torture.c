// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/torture/torture.c - rcutorture for the list operations.
 *
 * One source, linked once per flavour (build/torture/<flavour>/torture).
 * For a few seconds, readers walk shared lists while updaters change
 * them, and every element a reader touches is checked:
 *
 *   ring      a circular list of RING_LEN elements with keys 0..RING_LEN-1
 *             that only sees cds_list_replace_rcu(): every forward walk,
 *             every backward walk, every _continue_rcu/_from_rcu walk sees
 *             exactly its length, keys in order.
 *   lists[]   circular lists that see add_rcu, add_tail_rcu, del_rcu,
 *             replace_rcu, splice_init_rcu of one into another, and moves
 *             between them (del_rcu, grace period, add_rcu).  Readers
 *             walk them both ways: no key twice in one walk.
 *   buckets[] hlists that see add_head_rcu, add_before_rcu,
 *             add_behind_rcu, del_rcu and replace_rcu.  Readers look keys
 *             up with cds_hlist_for_each_entry_rcu_2: every element is in
 *             the bucket its key hashes to, no key twice.
 *   htab      a hash table (<rculist/hashtable.h>) of 2^HTAB_BITS buckets,
 *             a lock per bucket, keys 0..HTAB_KEYS-1 each present at most
 *             once: updaters cds_hash_add_rcu() a missing key or
 *             cds_hash_del_rcu() a present one.  The pinned keys (every
 *             16th) are never deleted.  Readers look keys up with
 *             cds_hash_for_each_possible_rcu() and walk the whole table
 *             with cds_hash_for_each_rcu(): every element in its key's
 *             bucket, no key twice, every pinned key found.
 *   blb[]     bit-locked lists (when <rculist/hlist_bl.h> is there): the
 *             updaters take each bucket's bit lock to add_head_rcu and
 *             del_rcu; readers walk with cds_hlist_bl_for_each_entry_rcu:
 *             never a link with the lock bit, every element in its key's
 *             bucket, no key twice.
 *   nulls[]   nulls lists (when <rculist/nulls.h> is there) over a pool
 *             of type-stable elements moved between buckets with no grace
 *             period (del_rcu, new key, add_head/tail_rcu).  Readers look
 *             up keys, restart when a walk ends at another bucket's
 *             marker, and re-check the key of a match.
 *
 * Removed elements are freed after a grace period by one of three paths
 * (rculist_call_rcu() with a callback, rculist_free_rcu(),
 * rculist_synchronize_rcu() then free()); the first and the last poison
 * the element first.  A reader that meets a poisoned element, a walk that
 * does not end, a wrong count or a repeated key is a violation.  At the
 * end every list must be well formed and every allocation accounted for.
 *
 * Flavour specifics: qsbr readers announce quiescent states at different
 * rates and go offline around a sleep; bp also reads from a thread that
 * never registers and from a signal handler; memb and qsbr run threads
 * that exit registered, then need a grace period to complete.  Every
 * flavour forks during the run (bp with readers active, memb and qsbr
 * with readers parked outside read-side sections, the rule for those
 * flavours): the child reads, updates and waits for a grace period.
 *
 * Usage: torture [seconds]   (default 3).  Exit 0 if no violation.
 *
 * Stall mode, torture --stall [seconds [limit]] (default 15 s, 100000):
 * one reader stays inside its section for the whole time while two
 * updaters replace and retire 256-byte elements flat out under
 * rculist_reclaim_set_limit(limit) (tests/torture/limit_run.h): what
 * waits must stay within the limit and a small batch per thread, RSS
 * must grow by 64 MiB at most, callers must have been throttled, and
 * once the reader leaves every element must be freed exactly once, none
 * while a reader could reach it.  One line of figures, then the verdict.
 * Planted bugs, for proving the checkers can fail (see torture.mk):
 *   -DTORTURE_PLANT_EARLY_FREE  free removed elements at once, with no
 *                               grace period.
 *   -DTORTURE_PLANT_LEAK        forget to free some elements.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>

#include "limit_run.h"
#include "rhash_run.h"

#define RING_LEN    32
#define NLISTS	    3
#define NBUCKETS    8
#define LIST_TARGET 24	   /* updaters grow lists towards this length */
#define WALK_LIMIT  100000 /* more steps than this: the walk is a loop */

#define MAGIC_LIVE   0x11fe11fe11fe11feUL
#define MAGIC_POISON 0xdeaddeaddeaddeadUL

struct elem {
	unsigned long magic;
	long key;
	struct cds_list_head link;
	struct cds_hlist_node hnode;
	struct rcu_head rcu;
#ifdef RCULIST_NULLS_H
	struct cds_hlist_nulls_node nnode; /* type-stable pool only */
#endif
#ifdef RCULIST_HLIST_BL_H
	struct cds_hlist_bl_node blnode;
#endif
};

/* A poisoned element's links lead here, and a reader stops here. */
static struct elem poison_trap = {
	.magic = MAGIC_POISON,
	.link = { &poison_trap.link, &poison_trap.link },
	.hnode = { .next = NULL, .prev = &poison_trap.hnode },
};

static struct cds_list_head ring = CDS_LIST_HEAD_INIT(ring);
static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;

static struct cds_list_head lists[NLISTS];
static pthread_mutex_t list_lock[NLISTS];

static struct cds_hlist_head buckets[NBUCKETS];
static pthread_mutex_t bucket_lock[NBUCKETS];

#define HTAB_BITS      4
#define HTAB_KEYS      256
#define HTAB_PINNED(k) ((k) % 16 == 0)
static CDS_DEFINE_HASHTABLE(htab, HTAB_BITS);
static pthread_mutex_t htab_lock[1 << HTAB_BITS];
#ifdef RCULIST_HLIST_BL_H
#define BL_BUCKETS 4
static struct cds_hlist_bl_head blb[BL_BUCKETS]; /* each its own lock */
#endif

#ifdef RCULIST_NULLS_H
#define NULLS_BUCKETS 4
#define NULLS_POOL    48
static struct cds_hlist_nulls_head nulls[NULLS_BUCKETS];
static struct elem *nulls_pool[NULLS_POOL];
static pthread_mutex_t nulls_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

/* Flags polled by the threads: atomics (plain or volatile, a data race). */
static int stop;
#define STOPPED() __atomic_load_n(&stop, __ATOMIC_RELAXED)
static long next_key = RING_LEN; /* under the locks' serialisation: atomic */

/* ------------------------------------------------------------ counters */
/* clang-format off */
enum counter {
	C_READS, C_WALK_STEPS, C_UPDATES, C_GRACE_PERIODS, C_CALLBACKS,
	C_FREE_RCU, C_ALLOCS, C_FREES, C_SIGNAL_READS, C_FORKS, C_EXITED,
	C_QS, C_OFFLINE, C_NULLS_RESTARTS, C_HASH_LOOKUPS, C_HASH_WALKS,
	NCOUNTERS
};
/* clang-format on */
/* clang-format off */
static const char *const counter_name[NCOUNTERS] = {
	"reads", "walk steps", "updates", "grace periods", "callbacks",
	"free_rcu", "allocs", "frees", "signal reads", "forks",
	"threads exited registered", "quiescent states", "offline sleeps",
	"nulls restarts", "hash lookups", "hash table walks",
};
/* clang-format on */
static unsigned long counters[NCOUNTERS];

static void count(enum counter c, unsigned long n)
{
	__atomic_fetch_add(&counters[c], n, __ATOMIC_RELAXED);
}

/* The invariants; each fails on its first violation. */
/* clang-format off */
enum check {
	K_POISON, K_RING_FORWARD, K_RING_BACKWARD, K_RING_CONTINUE,
	K_NO_DUP, K_TERMINATES, K_BUCKET, K_SIGNAL, K_FORK_CHILD,
	K_EXIT_REGISTERED, K_FINAL_SHAPE, K_ALL_FREED, K_NULLS, K_HASH,
	NCHECKS
};
/* clang-format on */
static const char *const check_name[NCHECKS] = {
	"no reader sees a poisoned element",
	"forward walk of the replace-only ring sees exactly its length",
	"backward walk of the ring sees exactly its length",
	"_continue_rcu/_from_rcu walks of the ring see the rest of it",
	"no key seen twice in one walk",
	"every walk terminates",
	"every hlist element is in its key's bucket",
	"reads from a signal handler (bp)",
	"a forked child reads, updates and completes a grace period",
	"a grace period completes after threads exit registered",
	"after the run every list is well formed",
	"every allocation is freed",
	"nulls lookups find the key they look for, or restart",
	"hash walks: each key in its bucket, every pinned key found",
};
static unsigned long violations[NCHECKS];
static char first_violation[NCHECKS][160];

/* Record a violation; async-signal-safe but for the message. */
static void violation(enum check k, const char *msg, long a, long b)
{
	if (__atomic_fetch_add(&violations[k], 1, __ATOMIC_RELAXED) == 0)
		snprintf(first_violation[k], sizeof(first_violation[k]),
			 "%s (%ld, %ld)", msg, a, b);
}

/* --------------------------------------------------- elements, freeing */
static struct elem *elem_new(long key)
{
	struct elem *e = malloc(sizeof(*e));

	if (!e) {
		perror("torture: malloc");
		exit(2);
	}
	e->magic = MAGIC_LIVE;
	e->key = key;
	CDS_INIT_LIST_HEAD(&e->link);
	CDS_INIT_HLIST_NODE(&e->hnode);
	count(C_ALLOCS, 1);
	return e;
}

static long new_key(void)
{
	return __atomic_fetch_add(&next_key, 1, __ATOMIC_RELAXED);
}

static void poison_and_free(struct elem *e)
{
	e->magic = MAGIC_POISON;
	e->key = -1;
	e->link.next = e->link.prev = &poison_trap.link;
	e->hnode.next = &poison_trap.hnode;
#ifdef RCULIST_HLIST_BL_H
	e->blnode.next = &poison_trap.blnode;
#endif
	count(C_FREES, 1);
	free(e);
}

static void free_cb(struct rcu_head *head)
{
	count(C_CALLBACKS, 1);
	poison_and_free((struct elem *)(void *)((char *)head -
						offsetof(struct elem, rcu)));
}

/* @e is unlinked: free it after a grace period, one of three ways. */
static void retire(struct elem *e, unsigned int how)
{
#ifdef TORTURE_PLANT_LEAK
	if (how % 3 == 1 && (e->key & 7) == 0)
		return;
#endif
#ifdef TORTURE_PLANT_EARLY_FREE
	/* the planted bug: no grace period at all */
	(void)how;
	free_cb(&e->rcu);
	return;
#endif
	switch (how % 3) {
	case 0:
		rculist_call_rcu(&e->rcu, free_cb);
		break;
	case 1:
		count(C_FREE_RCU, 1);
		rculist_free_rcu(e, rcu);
		break;
	default:
		rculist_synchronize_rcu();
		count(C_GRACE_PERIODS, 1);
		poison_and_free(e);
		break;
	}
}

/* ------------------------------------------------------------- readers */
/* Check one element a reader touched; 0 if poisoned. */
static int touch(const struct elem *e)
{
	if (__atomic_load_n(&e->magic, __ATOMIC_RELAXED) != MAGIC_LIVE) {
		violation(K_POISON, "poisoned element", e->key, 0);
		return 0;
	}
	return 1;
}

/* Keys seen in the current walk: an open-addressed set, stamped per walk. */
#define SEEN_SLOTS 4096
struct seen {
	unsigned long walk;
	unsigned long stamp[SEEN_SLOTS];
	long key[SEEN_SLOTS];
};

static void seen_reset(struct seen *s)
{
	s->walk++;
}

/* 0 if @key was already seen in this walk (or too many keys were). */
static int seen_add(struct seen *s, long key)
{
	unsigned long i = (unsigned long)key * 2654435761UL % SEEN_SLOTS;
	unsigned long probes;

	for (probes = 0; probes < SEEN_SLOTS; probes++, i = (i + 1) % SEEN_SLOTS) {
		if (s->stamp[i] != s->walk) {
			s->stamp[i] = s->walk;
			s->key[i] = key;
			return 1;
		}
		if (s->key[i] == key)
			return 0;
	}
	return 0;
}

static void walk_ring_forward(void)
{
	struct elem *e;
	long n = 0;

	cds_list_for_each_entry_rcu(e, &ring, link) {
		if (!touch(e))
			return;
		if (e->key != n)
			violation(K_RING_FORWARD, "key out of place", e->key, n);
		if (++n > WALK_LIMIT) {
			violation(K_TERMINATES, "ring forward", n, 0);
			return;
		}
	}
	count(C_WALK_STEPS, (unsigned long)n);
	if (n != RING_LEN)
		violation(K_RING_FORWARD, "ring length", n, RING_LEN);
}

static void walk_ring_backward(void)
{
	struct elem *e;
	long n = 0;

	cds_list_for_each_entry_reverse_rcu(e, &ring, link) {
		if (!touch(e))
			return;
		if (e->key != RING_LEN - 1 - n)
			violation(K_RING_BACKWARD, "key out of place", e->key, n);
		if (++n > WALK_LIMIT) {
			violation(K_TERMINATES, "ring backward", n, 0);
			return;
		}
	}
	count(C_WALK_STEPS, (unsigned long)n);
	if (n != RING_LEN)
		violation(K_RING_BACKWARD, "ring length", n, RING_LEN);
}

/* Walk to key @stop_at, then on with _continue_rcu, or again with _from_rcu. */
static void walk_ring_split(long stop_at, int from)
{
	struct elem *e;
	long n = 0;

	cds_list_for_each_entry_rcu(e, &ring, link) {
		if (!touch(e))
			return;
		if (e->key == stop_at)
			break;
		if (++n > WALK_LIMIT) {
			violation(K_TERMINATES, "ring split", n, 0);
			return;
		}
	}
	if (&e->link == &ring) {
		violation(K_RING_CONTINUE, "key not found", stop_at, n);
		return;
	}
	if (from) {
		cds_list_for_each_entry_from_rcu(e, &ring, link) {
			if (!touch(e))
				return;
			if (e->key != n)
				violation(K_RING_CONTINUE, "from: key", e->key,
					  n);
			n++;
		}
	} else {
		n++;
		cds_list_for_each_entry_continue_rcu(e, &ring, link) {
			if (!touch(e))
				return;
			if (e->key != n)
				violation(K_RING_CONTINUE, "continue: key",
					  e->key, n);
			n++;
		}
	}
	count(C_WALK_STEPS, (unsigned long)n);
	if (n != RING_LEN)
		violation(K_RING_CONTINUE, "ring length", n, RING_LEN);
}

static void walk_list(struct seen *s, struct cds_list_head *head, int backward)
{
	struct elem *e;
	long n = 0;

	seen_reset(s);
	if (backward) {
		cds_list_for_each_entry_reverse_rcu(e, head, link) {
			if (!touch(e))
				return;
			if (!seen_add(s, e->key))
				violation(K_NO_DUP, "list backward", e->key, n);
			if (++n > WALK_LIMIT) {
				violation(K_TERMINATES, "list backward", n, 0);
				return;
			}
		}
	} else {
		cds_list_for_each_entry_rcu(e, head, link) {
			if (!touch(e))
				return;
			if (!seen_add(s, e->key))
				violation(K_NO_DUP, "list forward", e->key, n);
			if (++n > WALK_LIMIT) {
				violation(K_TERMINATES, "list forward", n, 0);
				return;
			}
		}
	}
	count(C_WALK_STEPS, (unsigned long)n);
}

static void walk_bucket(struct seen *s, unsigned int b, long lookup)
{
	struct elem *e;
	long n = 0;

	seen_reset(s);
	cds_hlist_for_each_entry_rcu_2(e, &buckets[b], hnode) {
		if (!touch(e))
			return;
		if ((unsigned long)e->key % NBUCKETS != b)
			violation(K_BUCKET, "key in bucket", e->key, b);
		if (!seen_add(s, e->key))
			violation(K_NO_DUP, "hlist", e->key, n);
		if (e->key == lookup)
			break;
		if (++n > WALK_LIMIT) {
			violation(K_TERMINATES, "hlist", n, 0);
			return;
		}
	}
	count(C_WALK_STEPS, (unsigned long)n);
}

/* Check @e met in a walk of htab bucket @b; 0 if the walk must stop. */
static int htab_touch(struct seen *s, const struct elem *e, uint32_t b, long n)
{
	if (!touch(e))
		return 0;
	if (cds_hash_min(e->key, HTAB_BITS) != b)
		violation(K_HASH, "key in bucket", e->key, (long)b);
	if (!seen_add(s, e->key))
		violation(K_NO_DUP, "hash table", e->key, n);
	if (n > WALK_LIMIT) {
		violation(K_TERMINATES, "hash table", n, 0);
		return 0;
	}
	return 1;
}

/* Look @key up: its whole bucket; a pinned key must be there. */
static void walk_htab(struct seen *s, long key)
{
	uint32_t b = cds_hash_min(key, HTAB_BITS);
	struct elem *e;
	long n = 0;
	int found = 0;

	seen_reset(s);
	cds_hash_for_each_possible_rcu(htab, e, hnode, key) {
		if (!htab_touch(s, e, b, n++))
			return;
		found |= e->key == key;
		/* now and then stand on an element, for updaters to act around it */
		if (n == 2 && s->walk % 4 == 0)
			sched_yield();
	}
	if (HTAB_PINNED(key) && !found)
		violation(K_HASH, "pinned key not found", key, (long)b);
	count(C_HASH_LOOKUPS, 1);
	count(C_WALK_STEPS, (unsigned long)n);
}

/* Walk the whole table: every pinned key, each key once, in its bucket. */
static void walk_htab_all(struct seen *s)
{
	struct elem *e;
	long n = 0, pinned = 0;
	int bkt;

	seen_reset(s);
	cds_hash_for_each_rcu(htab, bkt, e, hnode) {
		if (!htab_touch(s, e, (uint32_t)bkt, n++))
			return;
		pinned += HTAB_PINNED(e->key);
	}
	if (pinned != HTAB_KEYS / 16)
		violation(K_HASH, "pinned keys in a table walk", pinned,
			  HTAB_KEYS / 16);
	count(C_HASH_WALKS, 1);
	count(C_WALK_STEPS, (unsigned long)n);
}

#ifdef RCULIST_HLIST_BL_H
/* A bit-locked bucket: never the lock bit, keys in their bucket, no dup. */
static void walk_bl(struct seen *s, unsigned int b, long lookup)
{
	struct cds_hlist_bl_node *pos;
	struct elem *e;
	long n = 0;

	seen_reset(s);
	cds_hlist_bl_for_each_entry_rcu(e, pos, &blb[b], blnode) {
		if ((uintptr_t)pos & 1) {
			violation(K_BUCKET, "bl link with the lock bit",
				  (long)b, n);
			return;
		}
		if (!touch(e))
			return;
		if ((unsigned long)e->key % BL_BUCKETS != b)
			violation(K_BUCKET, "bl key in bucket", e->key, b);
		if (!seen_add(s, e->key))
			violation(K_NO_DUP, "bl", e->key, n);
		if (e->key == lookup)
			break;
		if (++n > WALK_LIMIT) {
			violation(K_TERMINATES, "bl", n, 0);
			return;
		}
	}
	count(C_WALK_STEPS, (unsigned long)n);
}
#endif

#ifdef RCULIST_NULLS_H
/* Look up the key of a random pool element; restart on a foreign marker. */
static void walk_nulls(unsigned int x)
{
	struct elem *e, *want = nulls_pool[x % NULLS_POOL];
	struct cds_hlist_nulls_node *pos;
	long key = __atomic_load_n(&want->key, __ATOMIC_RELAXED);
	unsigned long b = (unsigned long)key % NULLS_BUCKETS;
	long n = 0, restarts = 0;

again:
	cds_hlist_nulls_for_each_entry_rcu(e, pos, &nulls[b], nnode) {
		if (!touch(e))
			return;
		if (__atomic_load_n(&e->key, __ATOMIC_RELAXED) == key)
			break;
		if (++n > WALK_LIMIT) {
			violation(K_TERMINATES, "nulls", n, 0);
			return;
		}
	}
	if (cds_is_a_nulls(pos) && cds_get_nulls_value(pos) != b) {
		count(C_NULLS_RESTARTS, 1);
		if (++restarts > WALK_LIMIT) {
			violation(K_TERMINATES, "nulls restarts", restarts, 0);
			return;
		}
		goto again;
	}
	if (!cds_is_a_nulls(pos) && (unsigned long)key % NULLS_BUCKETS != b)
		violation(K_NULLS, "match in a wrong bucket", key, (long)b);
	count(C_WALK_STEPS, (unsigned long)n);
}
#endif

static unsigned int rnd(unsigned int *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

/* One read-side critical section's worth of work. */
static void read_once(struct seen *s, unsigned int *r)
{
	unsigned int x = rnd(r);

	rculist_read_lock();
	if (x % 9 == 8) {
		if (x / 9 % 32 == 0)
			walk_htab_all(s);
		else
			walk_htab(s, (long)(x / 9 / 32 % HTAB_KEYS));
		rculist_read_unlock();
		count(C_READS, 1);
		return;
	}
#ifdef RCULIST_HLIST_BL_H
	if (x % 8 == 6) {
		walk_bl(s, x / 8 % BL_BUCKETS, (long)(x / 8 / BL_BUCKETS % 512));
		rculist_read_unlock();
		count(C_READS, 1);
		return;
	}
#endif
#ifdef RCULIST_NULLS_H
	if (x % 8 == 7) {
		walk_nulls(x / 8);
		rculist_read_unlock();
		count(C_READS, 1);
		return;
	}
#endif
	switch (x % 7) {
	case 0:
		walk_ring_forward();
		break;
	case 1:
		walk_ring_backward();
		break;
	case 2:
		walk_ring_split((long)(x / 7 % RING_LEN), x / 7 / RING_LEN % 2);
		break;
	case 3:
	case 4:
		walk_list(s, &lists[x / 7 % NLISTS], x % 7 == 4);
		break;
	default:
		walk_bucket(s, x / 7 % NBUCKETS, (long)(x / 7 / NBUCKETS % 512));
		break;
	}
	rculist_read_unlock();
	count(C_READS, 1);
}

static int is_flavor(const char *name)
{
	return strcmp(rculist_flavor_name(), name) == 0;
}

/*
 * memb, qsbr: registered readers and the updaters park here, outside any
 * read-side section and any grace period, while main forks.
 */
static int park;
static int parked, parkers;

static void park_if_asked(int registered)
{
	if (!__atomic_load_n(&park, __ATOMIC_RELAXED))
		return;
	if (registered)
		rculist_thread_offline();
	__atomic_fetch_add(&parked, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&park, __ATOMIC_RELAXED) && !STOPPED())
		usleep(100);
	__atomic_fetch_sub(&parked, 1, __ATOMIC_SEQ_CST);
	if (registered)
		rculist_thread_online();
}

struct reader_arg {
	int id;
	int registers; /* 0: a bp thread that never registers */
};

static void *reader(void *p)
{
	const struct reader_arg *a = p;
	static __thread struct seen s;
	unsigned int r = (unsigned int)a->id * 7919u + 1;
	unsigned long i;
	/* qsbr: reader i announces a quiescent state every 2^i sections */
	unsigned long qs_mask = (1UL << (a->id % 6)) - 1;

	if (a->registers)
		rculist_register_thread();
	for (i = 0; !STOPPED(); i++) {
		read_once(&s, &r);
		if ((i & qs_mask) == 0) {
			rculist_quiescent_state();
			count(C_QS, 1);
		}
		if (a->id == 0 && (i & 255) == 0) {
			struct timespec ts = { 0, 50000 };

			/* a blocking call: offline around it (qsbr) */
			rculist_thread_offline();
			nanosleep(&ts, NULL);
			rculist_thread_online();
			count(C_OFFLINE, 1);
		}
		if (a->registers)
			park_if_asked(1);
	}
	if (a->registers)
		rculist_unregister_thread();
	return NULL;
}

/* ------------------------------------------------------------ updaters */
static struct elem *nth_entry(struct cds_list_head *head, unsigned int n)
{
	struct elem *e;

	cds_list_for_each_entry(e, head, link)
		if (n-- == 0)
			return e;
	return NULL;
}

static void update_ring(unsigned int x)
{
	struct elem *old, *newe;

	pthread_mutex_lock(&ring_lock);
	old = nth_entry(&ring, x % RING_LEN);
	newe = elem_new(old->key);
	cds_list_replace_rcu(&old->link, &newe->link);
	pthread_mutex_unlock(&ring_lock);
	retire(old, x / RING_LEN);
	count(C_UPDATES, 1);
}

static void update_list(unsigned int x)
{
	unsigned int l = x % NLISTS, op = x / NLISTS % 8;
	struct cds_list_head *head = &lists[l];
	struct elem *e = NULL, *newe;
	size_t len;

	pthread_mutex_lock(&list_lock[l]);
	len = cds_list_count_nodes(head);
	if (len < LIST_TARGET / 2 || (op < 3 && len < LIST_TARGET)) {
		newe = elem_new(new_key());
		if (op & 1)
			cds_list_add_tail_rcu(&newe->link, head);
		else
			cds_list_add_rcu(&newe->link, head);
	} else if (op < 6 && len) {
		e = nth_entry(head, x / 64 % len);
		if (op == 5) {
			newe = elem_new(e->key);
			cds_list_replace_rcu(&e->link, &newe->link);
		} else {
			cds_list_del_rcu(&e->link);
		}
	} else if (op == 6 && len) {
		/* move: delete, grace period, add to the next list */
		unsigned int to = (l + 1) % NLISTS;

		e = nth_entry(head, x / 64 % len);
		cds_list_del_rcu(&e->link);
		pthread_mutex_unlock(&list_lock[l]);
		rculist_synchronize_rcu();
		count(C_GRACE_PERIODS, 1);
		pthread_mutex_lock(&list_lock[to]);
		cds_list_add_rcu(&e->link, &lists[to]);
		pthread_mutex_unlock(&list_lock[to]);
		count(C_UPDATES, 1);
		return;
	} else if (op == 7) {
		/* splice this list into the next; both locks, in order */
		unsigned int to = (l + 1) % NLISTS;
		unsigned int lo = l < to ? l : to, hi = l < to ? to : l;

		pthread_mutex_unlock(&list_lock[l]);
		pthread_mutex_lock(&list_lock[lo]);
		pthread_mutex_lock(&list_lock[hi]);
		/* keep lists short: splice only into a short list */
		if (cds_list_count_nodes(&lists[to]) >= LIST_TARGET / 2)
			;
		else if ((x >> 20) & 1)
			cds_list_splice_init_rcu(&lists[l], &lists[to]);
		else
			cds_list_splice_tail_init_rcu(&lists[l], &lists[to]);
		pthread_mutex_unlock(&list_lock[hi]);
		pthread_mutex_unlock(&list_lock[lo]);
		count(C_GRACE_PERIODS, 1);
		count(C_UPDATES, 1);
		return;
	}
	pthread_mutex_unlock(&list_lock[l]);
	if (e)
		retire(e, x >> 12);
	count(C_UPDATES, 1);
}

static struct elem *bucket_nth(unsigned int b, unsigned int n, size_t *len)
{
	struct elem *e, *found = NULL;

	*len = 0;
	cds_hlist_for_each_entry_2(e, &buckets[b], hnode)
		if ((*len)++ == n)
			found = e;
	return found;
}

static void update_bucket(unsigned int x)
{
	unsigned int b = x % NBUCKETS, op = x / NBUCKETS % 6;
	struct elem *e, *newe = NULL, *old = NULL;
	size_t len;

	pthread_mutex_lock(&bucket_lock[b]);
	e = bucket_nth(b, x / 64 % 16, &len);
	if (len < 4 || (op < 3 && len < 16)) {
		newe = elem_new(new_key() * NBUCKETS + (long)b);
		if (op == 1 && e)
			cds_hlist_add_before_rcu(&newe->hnode, &e->hnode);
		else if (op == 2 && e)
			cds_hlist_add_behind_rcu(&newe->hnode, &e->hnode);
		else
			cds_hlist_add_head_rcu(&newe->hnode, &buckets[b]);
	} else if (e && op == 3) {
		newe = elem_new(e->key);
		cds_hlist_replace_rcu(&e->hnode, &newe->hnode);
		old = e;
	} else if (e) {
		cds_hlist_del_rcu(&e->hnode);
		old = e;
	}
	pthread_mutex_unlock(&bucket_lock[b]);
	if (old)
		retire(old, x >> 13);
	count(C_UPDATES, 1);
}

/* Add a missing key, or delete a present one (never a pinned key). */
static void update_htab(unsigned int x)
{
	long key = (long)(x % HTAB_KEYS);
	struct elem *e, *old = NULL;
	uint32_t b;

	if (HTAB_PINNED(key))
		key++;
	b = cds_hash_min(key, HTAB_BITS);
	pthread_mutex_lock(&htab_lock[b]);
	cds_hash_for_each_possible(htab, e, hnode, key)
		if (e->key == key)
			break;
	if (e) {
		cds_hash_del_rcu(&e->hnode);
		if (cds_hash_hashed(&e->hnode))
			violation(K_HASH, "hashed after cds_hash_del_rcu", key,
				  0);
		old = e;
	} else {
		e = elem_new(key);
		cds_hash_add_rcu(htab, &e->hnode, key);
	}
	pthread_mutex_unlock(&htab_lock[b]);
	if (old)
		retire(old, x / HTAB_KEYS);
	count(C_UPDATES, 1);
}

#ifdef RCULIST_HLIST_BL_H
/* Under the bucket's bit lock: add a new element, or delete the n-th. */
static void update_bl(unsigned int x)
{
	unsigned int b = x % BL_BUCKETS, want = x / BL_BUCKETS % 16;
	struct cds_hlist_bl_node *pos;
	struct elem *e, *nth = NULL, *old = NULL;
	unsigned int len = 0;

	cds_hlist_bl_lock(&blb[b]);
	cds_hlist_bl_for_each_entry(e, pos, &blb[b], blnode)
		if (len++ == want)
			nth = e;
	if (len < 4 || (!nth && len < 16)) {
		e = elem_new(new_key() * BL_BUCKETS + (long)b);
		cds_hlist_bl_add_head_rcu(&e->blnode, &blb[b]);
	} else if (nth) {
		cds_hlist_bl_del_rcu(&nth->blnode);
		old = nth;
	}
	cds_hlist_bl_unlock(&blb[b]);
	if (old)
		retire(old, x >> 13);
	count(C_UPDATES, 1);
}
#endif

#ifdef RCULIST_NULLS_H
/* Recycle a pool element at once: off its bucket, new key, onto another. */
static void update_nulls(unsigned int x)
{
	struct elem *e = nulls_pool[x % NULLS_POOL];
	long key = new_key() * NULLS_BUCKETS +
		   (long)(x / NULLS_POOL % NULLS_BUCKETS);

	pthread_mutex_lock(&nulls_lock);
	cds_hlist_nulls_del_rcu(&e->nnode);
	__atomic_store_n(&e->key, key, __ATOMIC_RELAXED);
	if (x & (1u << 20))
		cds_hlist_nulls_add_tail_rcu(
			&e->nnode, &nulls[(unsigned long)key % NULLS_BUCKETS]);
	else
		cds_hlist_nulls_add_head_rcu(
			&e->nnode, &nulls[(unsigned long)key % NULLS_BUCKETS]);
	pthread_mutex_unlock(&nulls_lock);
	count(C_UPDATES, 1);
}
#endif

static void *updater(void *p)
{
	unsigned int r = (unsigned int)(uintptr_t)p * 104729u + 3;

	while (!STOPPED()) {
		unsigned int x = rnd(&r);

		park_if_asked(0);
		if (x % 5 == 4) {
			update_htab(x / 5);
			continue;
		}
#ifdef RCULIST_HLIST_BL_H
		if (x % 8 == 6) {
			update_bl(x / 8);
			continue;
		}
#endif
#ifdef RCULIST_NULLS_H
		if (x % 4 == 3) {
			update_nulls(x / 4);
			continue;
		}
#endif
		switch (x % 3) {
		case 0:
			update_ring(x / 3);
			break;
		case 1:
			update_list(x / 3);
			break;
		default:
			update_bucket(x / 3);
			break;
		}
	}
	return NULL;
}

/* --------------------------------------------- bp: signal-handler reads */
static pthread_t sig_thread;

static void on_sigusr1(int sig)
{
	int saved = errno;

	(void)sig;
	rculist_read_lock();
	{
		struct elem *e;
		long n = 0;

		cds_list_for_each_entry_rcu(e, &ring, link) {
			if (e->magic != MAGIC_LIVE || e->key != n ||
			    ++n > WALK_LIMIT)
				break;
		}
		if (n != RING_LEN)
			violation(K_SIGNAL, "ring walk in a signal handler", n,
				  0);
	}
	rculist_read_unlock();
	count(C_SIGNAL_READS, 1);
	errno = saved;
}

static void *signalled(void *p)
{
	(void)p;
	while (!STOPPED())
		pause();
	return NULL;
}

static void *signaller(void *p)
{
	(void)p;
	while (!STOPPED()) {
		pthread_kill(sig_thread, SIGUSR1);
		usleep(200);
	}
	return NULL;
}

/* ------------------------------------------ memb, qsbr: exit registered */
static void *exit_registered(void *p)
{
	unsigned int r = (unsigned int)(uintptr_t)p;
	struct seen *s = malloc(sizeof(*s));

	if (!s)
		return NULL;
	memset(s, 0, sizeof(*s));
	rculist_register_thread();
	read_once(s, &r);
	free(s);
	/* exits registered (qsbr: online, no quiescent state announced) */
	return NULL;
}

static void on_alarm(int sig)
{
	static const char msg[] =
		"torture: a grace period did not complete in time (hang)\n";

	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(3);
}

static void exit_registered_round(unsigned int round)
{
	pthread_t t[2];
	int i;

	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, exit_registered,
			       (void *)(uintptr_t)(round * 2 + (unsigned int)i +
						   1));
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	count(C_EXITED, 2);
	alarm(20);
	rculist_synchronize_rcu(); /* would wait for the dead threads */
	alarm(0);
	count(C_GRACE_PERIODS, 1);
}

/* ---------------------------------------------------------------- fork */
static void lock_all(void)
{
	int i;

	pthread_mutex_lock(&ring_lock);
#ifdef RCULIST_NULLS_H
	pthread_mutex_lock(&nulls_lock);
#endif
	for (i = 0; i < NLISTS; i++)
		pthread_mutex_lock(&list_lock[i]);
	for (i = 0; i < NBUCKETS; i++)
		pthread_mutex_lock(&bucket_lock[i]);
	for (i = 0; i < 1 << HTAB_BITS; i++)
		pthread_mutex_lock(&htab_lock[i]);
#ifdef RCULIST_HLIST_BL_H
	for (i = 0; i < BL_BUCKETS; i++)
		cds_hlist_bl_lock(&blb[i]);
#endif
}

static void unlock_all(void)
{
	int i;

#ifdef RCULIST_HLIST_BL_H
	for (i = BL_BUCKETS; i-- > 0;)
		cds_hlist_bl_unlock(&blb[i]);
#endif
	for (i = 1 << HTAB_BITS; i-- > 0;)
		pthread_mutex_unlock(&htab_lock[i]);
	for (i = NBUCKETS; i-- > 0;)
		pthread_mutex_unlock(&bucket_lock[i]);
	for (i = NLISTS; i-- > 0;)
		pthread_mutex_unlock(&list_lock[i]);
#ifdef RCULIST_NULLS_H
	pthread_mutex_unlock(&nulls_lock);
#endif
	pthread_mutex_unlock(&ring_lock);
}

static int child_callbacks;

static void child_cb(struct rcu_head *head)
{
	__atomic_fetch_add(&child_callbacks, 1, __ATOMIC_RELAXED);
	poison_and_free((struct elem *)(void *)((char *)head -
						offsetof(struct elem, rcu)));
}

/* In the child: read, update, wait for grace periods.  Exit status. */
static int child_work(void)
{
	struct seen *s = calloc(1, sizeof(*s));
	unsigned int r = 42, i;

	if (!s)
		return 2;
	alarm(20);
	rculist_register_thread();
	for (i = 0; i < 200; i++) {
		read_once(s, &r);
		rculist_quiescent_state();
	}
	for (i = 0; i < 20; i++) {
		struct elem *old = nth_entry(&ring, i),
			    *newe = elem_new(old->key);

		cds_list_replace_rcu(&old->link, &newe->link);
		if (i & 1) {
			rculist_call_rcu(&old->rcu, child_cb);
		} else {
			rculist_synchronize_rcu();
			poison_and_free(old);
		}
		read_once(s, &r);
		rculist_quiescent_state();
	}
	rculist_unregister_thread();
	rculist_rcu_barrier();
	free(s);
	if (child_callbacks != 10)
		return 1;
	for (i = 0; i < NCHECKS; i++)
		if (violations[i])
			return 1;
	return 0;
}

/*
 * The child's verdict comes back through a pipe, written before it
 * exits: under valgrind its exit status is memcheck's (99 when the leak
 * check at its _exit() counts the parent's blocks it inherited, held only
 * by threads that did not follow it), not the child's own.
 */
static void fork_round(void)
{
	int status, registers = !is_flavor("bp"), verdict = -1, fd[2];
	unsigned char v;
	pid_t pid;

	if (pipe(fd)) {
		violation(K_FORK_CHILD, "pipe failed", errno, 0);
		return;
	}

	if (registers) {
		/* memb, qsbr: never fork while another thread reads */
		__atomic_store_n(&park, 1, __ATOMIC_RELAXED);
		while (__atomic_load_n(&parked, __ATOMIC_SEQ_CST) < parkers)
			usleep(100);
	}
	lock_all(); /* no list is mid-update in the child */
	pid = fork();
	if (pid == 0) {
		v = (unsigned char)child_work();
		close(fd[0]);
		if (write(fd[1], &v, 1) != 1)
			_exit(3);
		_exit(v);
	}
	unlock_all();
	__atomic_store_n(&park, 0, __ATOMIC_RELAXED);
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		violation(K_FORK_CHILD, "fork failed", errno, 0);
		return;
	}
	count(C_FORKS, 1);
	if (read(fd[0], &v, 1) == 1)
		verdict = v;
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || verdict != 0)
		violation(K_FORK_CHILD, "child status", status, verdict);
}

/* ---------------------------------------------------------------- main */
static void check_final_shape(void)
{
	struct cds_list_head *heads[NLISTS + 1];
	struct cds_hlist_node *prev;
	struct elem *e;
	long n;
	int i;

	heads[NLISTS] = &ring;
	for (i = 0; i < NLISTS; i++)
		heads[i] = &lists[i];
	for (i = 0; i <= NLISTS; i++) {
		struct cds_list_head *pos = heads[i];

		n = 0;
		do {
			if (pos->next->prev != pos || pos->prev->next != pos)
				violation(K_FINAL_SHAPE, "list links", i, n);
			pos = pos->next;
		} while (pos != heads[i] && ++n < WALK_LIMIT);
	}
	n = 0;
	cds_list_for_each_entry(e, &ring, link)
		if (e->magic != MAGIC_LIVE || e->key != n++)
			violation(K_FINAL_SHAPE, "ring key", e->key, n - 1);
	if (n != RING_LEN)
		violation(K_FINAL_SHAPE, "ring length", n, RING_LEN);
#ifdef RCULIST_NULLS_H
	n = 0;
	for (i = 0; i < NULLS_BUCKETS; i++) {
		struct cds_hlist_nulls_node *pos;

		cds_hlist_nulls_for_each_entry(e, pos, &nulls[i], nnode) {
			n++;
			if ((unsigned long)e->key % NULLS_BUCKETS !=
			    (unsigned long)i)
				violation(K_FINAL_SHAPE, "nulls key", i, e->key);
		}
		if (cds_get_nulls_value(pos) != (unsigned long)i)
			violation(K_FINAL_SHAPE, "nulls marker", i, 0);
	}
	if (n != NULLS_POOL)
		violation(K_FINAL_SHAPE, "nulls pool size", n, NULLS_POOL);
#endif
	for (i = 0; i < NBUCKETS; i++) {
		prev = (struct cds_hlist_node *)(void *)&buckets[i];
		cds_hlist_for_each_entry_2(e, &buckets[i], hnode) {
			if (e->hnode.prev != prev || e->magic != MAGIC_LIVE)
				violation(K_FINAL_SHAPE, "hlist links", i,
					  e->key);
			prev = &e->hnode;
		}
	}
	n = 0;
	for (i = 0; i < 1 << HTAB_BITS; i++) {
		prev = (struct cds_hlist_node *)(void *)&htab[i];
		cds_hlist_for_each_entry_2(e, &htab[i], hnode) {
			if (e->hnode.prev != prev || e->magic != MAGIC_LIVE ||
			    cds_hash_min(e->key, HTAB_BITS) != (uint32_t)i)
				violation(K_FINAL_SHAPE, "hash table bucket", i,
					  e->key);
			n += HTAB_PINNED(e->key);
			prev = &e->hnode;
		}
	}
	if (n != HTAB_KEYS / 16)
		violation(K_FINAL_SHAPE, "pinned keys left", n, HTAB_KEYS / 16);
#ifdef RCULIST_HLIST_BL_H
	for (i = 0; i < BL_BUCKETS; i++) {
		struct cds_hlist_bl_node **pprev = &blb[i].first, *pos;

		if (cds_hlist_bl_is_locked(&blb[i]))
			violation(K_FINAL_SHAPE, "bl bucket left locked", i, 0);
		cds_hlist_bl_for_each_entry(e, pos, &blb[i], blnode) {
			if (pos->pprev != pprev || e->magic != MAGIC_LIVE ||
			    (unsigned long)e->key % BL_BUCKETS != (unsigned long)i)
				violation(K_FINAL_SHAPE, "bl links", i, e->key);
			pprev = &pos->next;
		}
	}
#endif
}

static void free_all(void)
{
	struct elem *e, *n;
	struct cds_hlist_node *pos, *p;
	int i;

	cds_list_for_each_entry_safe(e, n, &ring, link)
		poison_and_free(e);
	for (i = 0; i < NLISTS; i++)
		cds_list_for_each_entry_safe(e, n, &lists[i], link)
			poison_and_free(e);
	for (i = 0; i < NBUCKETS; i++)
		cds_hlist_for_each_entry_safe(e, pos, p, &buckets[i], hnode)
			poison_and_free(e);
	cds_hash_for_each_safe(htab, i, p, e, hnode) {
		cds_hash_del(&e->hnode);
		poison_and_free(e);
	}
#ifdef RCULIST_HLIST_BL_H
	for (i = 0; i < BL_BUCKETS; i++) {
		struct cds_hlist_bl_node *blpos, *blp;

		cds_hlist_bl_for_each_entry_safe(e, blpos, blp, &blb[i], blnode)
			poison_and_free(e);
	}
#endif
#ifdef RCULIST_NULLS_H
	for (i = 0; i < NULLS_POOL; i++)
		poison_and_free(nulls_pool[i]);
#endif
}

/* torture --stall [seconds [limit]]: see the top of the file. */
static int stall_mode(int argc, char **argv)
{
	double seconds = argc > 2 ? atof(argv[2]) : 15.0;
	unsigned long limit = argc > 3 ? strtoul(argv[3], NULL, 10) : 100000;
	struct lr_result r;
	char why[256];
	int bad;

	if (lr_run(limit, seconds, 0, 1.0, &r)) {
		perror("torture: pthread_create");
		return 2;
	}
	bad = lr_verdict(&r, limit, limit ? 64 * 1024 : 0, why, sizeof(why));
	printf("torture --stall %s, %.1f s, limit %lu: peak %lu blocks, "
	       "throttled %lu, RSS +%ld KiB (peak), +%ld KiB after the drain, "
	       "oldest %lu ms, %lu retired (%lu once the reader left), "
	       "%lu checked walks\n",
	       rculist_flavor_name(), seconds, limit, r.during.peak,
	       r.during.throttled - r.before.throttled,
	       r.rss_peak_kb - r.rss_before_kb, r.rss_after_kb - r.rss_before_kb,
	       r.during.oldest_ms, r.retired, r.after_release, r.walks);
	printf(bad ? "  FAIL %s\n" :
		     "  ok   bounded, every element freed once, none early\n",
	       why);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3.0;
	int bp = is_flavor("bp"), nreaders = 3, nupdaters = 2;
	pthread_t readers[4], updaters[2], sigt = 0, sigr = 0;
	struct reader_arg args[4];
	struct timespec start, now;
	unsigned int round = 0;
	int i, passed = 0, failed = 0;

	if (argc > 1 && !strcmp(argv[1], "--stall"))
		return stall_mode(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "--rhash"))
		return rh_mode(argc, argv);
	signal(SIGALRM, on_alarm);
	for (i = 0; i < NLISTS; i++) {
		CDS_INIT_LIST_HEAD(&lists[i]);
		pthread_mutex_init(&list_lock[i], NULL);
	}
	for (i = 0; i < NBUCKETS; i++) {
		CDS_INIT_HLIST_HEAD(&buckets[i]);
		pthread_mutex_init(&bucket_lock[i], NULL);
	}
	for (i = 0; i < 1 << HTAB_BITS; i++)
		pthread_mutex_init(&htab_lock[i], NULL);
	for (i = 0; i < HTAB_KEYS; i += 16)
		cds_hash_add(htab, &elem_new(i)->hnode, (long)i);
	for (i = 0; i < RING_LEN; i++)
		cds_list_add_tail(&elem_new(i)->link, &ring);
#ifdef RCULIST_HLIST_BL_H
	for (i = 0; i < BL_BUCKETS; i++)
		CDS_INIT_HLIST_BL_HEAD(&blb[i]);
#endif
#ifdef RCULIST_NULLS_H
	for (i = 0; i < NULLS_BUCKETS; i++)
		CDS_INIT_HLIST_NULLS_HEAD(&nulls[i], (unsigned long)i);
	for (i = 0; i < NULLS_POOL; i++) {
		nulls_pool[i] =
			elem_new(new_key() * NULLS_BUCKETS + i % NULLS_BUCKETS);
		cds_hlist_nulls_add_head(&nulls_pool[i]->nnode,
					 &nulls[i % NULLS_BUCKETS]);
	}
#endif

	if (bp) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sigusr1;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESTART;
		sigaction(SIGUSR1, &sa, NULL);
		nreaders = 4; /* the fourth never registers */
	}
	for (i = 0; i < nreaders; i++) {
		args[i] = (struct reader_arg){ i, !(bp && i == 3) };
		pthread_create(&readers[i], NULL, reader, &args[i]);
	}
	parkers = nreaders + nupdaters;
	for (i = 0; i < nupdaters; i++)
		pthread_create(&updaters[i], NULL, updater, (void *)(uintptr_t)i);
	if (bp) {
		pthread_create(&sigr, NULL, signalled, NULL);
		sig_thread = sigr;
		pthread_create(&sigt, NULL, signaller, NULL);
	}

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		usleep(100000);
		round++;
		if (!bp)
			exit_registered_round(round);
		if (round % 10 == 5)
			fork_round();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((double)(now.tv_sec - start.tv_sec) +
			 (double)(now.tv_nsec - start.tv_nsec) / 1e9 <
		 seconds);
	if (round < 5)
		fork_round();

	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	alarm(60);
	for (i = 0; i < nupdaters; i++)
		pthread_join(updaters[i], NULL);
	for (i = 0; i < nreaders; i++)
		pthread_join(readers[i], NULL);
	if (bp) {
		pthread_join(sigt, NULL);
		pthread_kill(sigr, SIGUSR1);
		pthread_join(sigr, NULL);
	}
	rculist_rcu_barrier();
	alarm(0);

	check_final_shape();
	free_all();
	if (counters[C_ALLOCS] != counters[C_FREES] + counters[C_FREE_RCU])
		violation(K_ALL_FREED, "allocs != frees + free_rcu",
			  (long)counters[C_ALLOCS],
			  (long)(counters[C_FREES] + counters[C_FREE_RCU]));

	printf("torture %s, %.1f s:", rculist_flavor_name(), seconds);
	for (i = 0; i < NCOUNTERS; i++)
		printf("%s %lu %s", i ? "," : "", counters[i], counter_name[i]);
	printf("\n");
	for (i = 0; i < NCHECKS; i++) {
		int skipped = (i == K_SIGNAL && !bp) ||
			      (i == K_EXIT_REGISTERED && bp);
#ifndef RCULIST_NULLS_H
		skipped |= i == K_NULLS;
#endif

		if (skipped)
			continue;
		if (violations[i]) {
			failed++;
			printf("  FAIL %s: %lu violations, first: %s\n",
			       check_name[i], violations[i], first_violation[i]);
		} else {
			passed++;
			printf("  ok   %s\n", check_name[i]);
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
