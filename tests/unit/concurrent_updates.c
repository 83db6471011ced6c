// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/concurrent_updates.c - one concurrent test per _rcu update
 * operation, with readers that check that every node they reach was
 * complete when it was published.
 *
 * The operations (every _rcu update in <rculist/list_rcu.h>,
 * <rculist/hlist_rcu.h> and <rculist/nulls.h>; there is no _rcu move):
 *   circular: cds_list_add_rcu, _add_tail_rcu, _del_rcu, _replace_rcu,
 *             _splice_init_rcu, _splice_tail_init_rcu
 *   hlist:    cds_hlist_add_head_rcu, _add_before_rcu, _add_behind_rcu,
 *             _add_tail_rcu, _del_rcu, _del_init_rcu, _replace_rcu
 *   nulls:    cds_hlist_nulls_add_head_rcu, _add_tail_rcu, _del_rcu,
 *             _del_init_rcu
 * and rculist_free_rcu(), the reclamation the library does itself.
 *
 * Each test repeats its operation at random places of a short list for
 * a bounded time, against three kinds of reader:
 *
 *  - Two reader threads (tests/unit/conc.h) walking with the library's _rcu
 *    iterators, forwards and, on circular lists, backwards.  Every node
 *    is checked: magic, key, payload, and the links the updater writes
 *    before publishing it (next, and prev on circular lists).  A fresh
 *    node's links point at cu_fresh until the updater sets them, so a
 *    link read too early leads there and says so.  Readers also hold a
 *    node for a while (until the updater has made CU_HOLD_UPDATES
 *    updates, or 2 ms) and check it again afterwards: a node reclaimed
 *    while a reader still holds it is poisoned (conc.h), or freed (its
 *    first words overwritten by malloc), or reused (another key).
 *
 *  - An instant reader: a timer interrupts the updater thread every few
 *    microseconds, at whatever instruction it is running, and a signal
 *    handler walks the lists as they stand at that instant, both ways,
 *    checking the same things.  A thread on another core reads a link
 *    published a few nanoseconds before the updater initialises the node
 *    only by luck (on x86 the two stores leave the store buffer back to
 *    back); an interrupt lands between them in a fixed fraction of the
 *    samples, so a store done in the wrong program order (publish, then
 *    initialise) is seen in every run.  The handler takes no read lock
 *    and needs none: it runs on the only thread that frees or unlinks,
 *    which is stopped while it walks, and it only starts from the heads.
 *
 *  Orderings that only a weakly ordered machine shows (a release made
 *  relaxed) are for make check-memory-order, not for this file.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <unistd.h>

#include "conc.h"

/* glibc 2.36 names the field of SIGEV_THREAD_ID only in its private union. */
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

TestSuite(conc_updates, .timeout = 30);

#define CU_FRESH	 0xf7e5f7e5f7e5UL
#define CU_MAXLEN	 12   /* list length the updater keeps to */
#define CU_BOUND	 4096 /* longer than any list the updater keeps */
#define CU_SPLICE_MAX	 4    /* the most nodes one update links (a splice) */
#define CU_HOLD_UPDATES	 16
#define CU_HOLD_SECS	 0.002
#define CU_MARKER	 5    /* end marker value of the nulls list */
#define CU_INSTANT_USECS 50   /* the instant reader's period */
#define CU_MIN_SAMPLES	 100  /* instant reader samples a test needs */
#define CU_SAMPLE_SECS	 20.0 /* the longest a test waits for them */

/* The element: tests/unit/conc.h's, and a nulls link. */
struct cu_elem {
	struct conc_elem c;
	struct cds_hlist_nulls_node nnode;
};

/*
 * Where the links of a node not yet initialised by the updater lead.  Its
 * own links lead to itself (or end), so a reader that comes here stops
 * at once.
 */
static struct cu_elem cu_fresh = {
	.c = {
		.magic = CU_FRESH,
		.key = -1,
		.link = { &cu_fresh.c.link, &cu_fresh.c.link },
		.hnode = { .next = NULL, .prev = NULL },
	},
	.nnode = { (struct cds_hlist_nulls_node *)(uintptr_t)((0xbadUL << 1) | 1),
		   NULL },
};

static long cu_serial; /* keys: every element gets its own */

static struct cu_elem *cu_new(void)
{
	struct cu_elem *e = malloc(sizeof(*e));

	cr_assert_not_null(e);
	e->c.magic = CONC_ALIVE;
	e->c.key = cu_serial++;
	memset(e->c.payload, CONC_PAYLOAD_BYTE, sizeof(e->c.payload));
	e->c.link.next = e->c.link.prev = &cu_fresh.c.link;
	e->c.hnode.next = e->c.hnode.prev = &cu_fresh.c.hnode;
	e->nnode.next = e->nnode.prev = &cu_fresh.nnode;
	return e;
}

#define cu_of_link(l)  cds_list_entry(l, struct cu_elem, c.link)
#define cu_of_hnode(n) cds_hlist_entry(n, struct cu_elem, c.hnode)
#define cu_of_nnode(n) cds_hlist_nulls_entry(n, struct cu_elem, nnode)

/* ------------------------------------------------------ what is checked */

/*
 * The checks of one node, shared by the reader threads and the instant
 * reader; @why gets the first violation.  Returns 0 if the walk must stop.
 */
struct cu_seen {
	unsigned long violations;
	char why[200];
};

static void cu_bad(struct cu_seen *s, const char *what, const struct cu_elem *e,
		   unsigned long magic)
{
	const char *p;
	size_t n = 0;

	if (s->violations++)
		return;
	/* No stdio: this runs in a signal handler too. */
	for (p = what; *p && n < sizeof(s->why) - 40; p++)
		s->why[n++] = *p;
	for (p = " (magic 0x"; *p; p++)
		s->why[n++] = *p;
	for (int sh = 44; sh >= 0; sh -= 4)
		s->why[n++] = "0123456789abcdef"[(magic >> sh) & 15];
	s->why[n++] = ')';
	s->why[n] = 0;
	(void)e;
}

static int cu_check_node(struct cu_seen *s, const struct cu_elem *e)
{
	unsigned long magic = __atomic_load_n(&e->c.magic, __ATOMIC_RELAXED);

	if (magic == CU_FRESH) {
		cu_bad(s,
		       "followed a link the updater had not set yet "
		       "(published before initialised)",
		       e, magic);
		return 0;
	}
	if (magic == CONC_DEAD) {
		cu_bad(s, "reached a poisoned (reclaimed) node", e, magic);
		return 0;
	}
	if (magic != CONC_ALIVE) {
		cu_bad(s, "reached a freed, foreign or corrupt node", e, magic);
		return 0;
	}
	if (e->c.payload[0] != CONC_PAYLOAD_BYTE ||
	    e->c.payload[sizeof(e->c.payload) - 1] != CONC_PAYLOAD_BYTE) {
		cu_bad(s, "payload overwritten", e, magic);
		return 0;
	}
	return 1;
}

/* A link read from a live node must not still be the fresh one. */
static int cu_check_link(struct cu_seen *s, const struct cu_elem *e,
			 const void *link, const void *fresh)
{
	if (link != fresh)
		return 1;
	cu_bad(s,
	       "a published node's link was not set yet "
	       "(published before initialised)",
	       e, CU_FRESH);
	return 0;
}

/* ---------------------------------------------------------- the lists */

enum cu_kind { CU_LIST, CU_HLIST, CU_NULLS };

/* The lists of one test and the updater's view of them. */
static struct cu_state {
	enum cu_kind kind;
	struct cu_elem head, src; /* circular heads; src for splices */
	struct cds_hlist_head hhead;
	struct cds_hlist_nulls_head nhead;
	struct cu_elem *on[CU_MAXLEN * 2 + 8]; /* the elements of the list */
	long len;
	struct cu_elem *src_on[CU_SPLICE_MAX];
	long src_len;
	struct conc_reclaimer rc;
	int free_rcu; /* retire with rculist_free_rcu() */
	uint64_t rnd;
	unsigned long ops; /* the operation under test, done */
	void (*op)(struct cu_state *s, uint32_t how);
} cu;

static void cu_retire(struct cu_elem *e)
{
	if (cu.free_rcu) {
		cu.rc.retired++;
		rculist_free_rcu(e, c.rcu);
		return;
	}
	/*
	 * conc_poison() leaves the nulls link alone: a reader on a reclaimed
	 * node sees its magic first.
	 */
	conc_retire(&cu.rc, &e->c);
}

/* Forget on[i]; the caller has unlinked it. */
static struct cu_elem *cu_take(long i)
{
	struct cu_elem *e = cu.on[i];

	cu.on[i] = cu.on[--cu.len];
	return e;
}

static struct cu_elem *cu_pick(uint32_t how)
{
	return cu.len ? cu.on[how % cu.len] : NULL;
}

/* ------------------------------------------------------ reader threads */

/* The reader threads, and what each saw (a handler cannot use stdio). */
static struct conc_reader cu_r[2];
static struct cu_seen cu_rseen[2];

/*
 * Hold @e: stand on it until the updater has made CU_HOLD_UPDATES updates
 * (or CU_HOLD_SECS), then check it is still the node it was.
 */
static void cu_hold(struct conc_reader *r, struct cu_seen *s,
		    const struct cu_elem *e, long n)
{
	long key = __atomic_load_n(&e->c.key, __ATOMIC_RELAXED);
	double until;

	if (n != r->pause_at)
		return;
	until = conc_now() + CU_HOLD_SECS;
	while (__atomic_load_n(&conc_updates, __ATOMIC_RELAXED) <
		       r->seq + CU_HOLD_UPDATES &&
	       conc_now() < until)
		sched_yield();
	if (cu_check_node(s, e) &&
	    __atomic_load_n(&e->c.key, __ATOMIC_RELAXED) != key)
		cu_bad(s,
		       "a held node was reused as another element (freed "
		       "before the reader left)",
		       e, CONC_ALIVE);
}

static void cu_walk_too_long(struct cu_seen *s)
{
	cu_bad(s, "a walk does not end at its head", NULL, 0);
}

/*
 * Whether reader @r's walk, at its @n-th node, has gone further than any
 * walk can.  Each node a walk reaches was on the list when the walk began
 * (fewer than CU_BOUND) or was linked since, by an update that counts
 * itself in conc_updates and links at most CU_SPLICE_MAX nodes; and no
 * walk reaches a node twice (nodes are never linked again, and a splice
 * waits for the readers of its source).  A walk round a cycle passes that
 * bound once the updater stops or waits for this reader.  A fixed bound
 * is not enough: under qemu-user an updater adding ahead of a slow reader
 * made 130,000 updates during one walk of 4,097 nodes, on a correct list.
 */
static int cu_walk_ran_past(const struct conc_reader *r, long n)
{
	unsigned long since;

	if (n <= CU_BOUND)
		return 0;
	since = __atomic_load_n(&conc_updates, __ATOMIC_RELAXED) - r->seq;
	return (unsigned long)(n - CU_BOUND) > since * CU_SPLICE_MAX;
}

/*
 * A reader thread at its @n-th node @e, whose links @l1 and @l2 (NULL: no
 * second one) must not be @fresh: check, count, maybe hold.  Returns 0 if
 * the walk must stop.
 */
static int cu_visit(struct conc_reader *r, struct cu_seen *s,
		    const struct cu_elem *e, const void *l1, const void *l2,
		    const void *fresh, long *n)
{
	if (!cu_check_node(s, e) || !cu_check_link(s, e, l1, fresh) ||
	    (l2 && !cu_check_link(s, e, l2, fresh)))
		return 0;
	if (cu_walk_ran_past(r, ++*n)) {
		cu_walk_too_long(s);
		return 0;
	}
	cu_hold(r, s, e, *n);
	return 1;
}

static void cu_walk_list(struct conc_reader *r, struct cu_seen *s,
			 struct cu_elem *head, int backward) RCULIST_REQUIRES_RCU
{
	const void *fresh = &cu_fresh.c.link;
	struct cu_elem *e;
	long n = 0;

	if (backward) {
		cds_list_for_each_entry_reverse_rcu(e, &head->c.link, c.link)
			if (!cu_visit(r, s, e, rculist__load_once(e->c.link.prev),
				      NULL, fresh, &n))
				break;
	} else {
		cds_list_for_each_entry_rcu(e, &head->c.link, c.link)
			if (!cu_visit(r, s, e, rculist__load_once(e->c.link.next),
				      rculist__load_once(e->c.link.prev), fresh,
				      &n))
				break;
	}
	r->elems += n;
}

static void cu_walk_hlist(struct conc_reader *r,
			  struct cu_seen *s) RCULIST_REQUIRES_RCU
{
	const void *fresh = &cu_fresh.c.hnode;
	struct cds_hlist_node *pos;
	struct cu_elem *e;
	long n = 0;

	/* Alternately the 4- and the 2-argument iterator. */
	if (r->walks & 2) {
		cds_hlist_for_each_entry_rcu(e, pos, &cu.hhead, c.hnode)
			if (!cu_visit(r, s, e, rculist__load_once(e->c.hnode.next),
				      NULL, fresh, &n))
				break;
	} else {
		cds_hlist_for_each_entry_rcu_2(e, &cu.hhead, c.hnode)
			if (!cu_visit(r, s, e, rculist__load_once(e->c.hnode.next),
				      NULL, fresh, &n))
				break;
	}
	r->elems += n;
}

static void cu_walk_nulls(struct conc_reader *r,
			  struct cu_seen *s) RCULIST_REQUIRES_RCU
{
	struct cds_hlist_nulls_node *pos;
	struct cu_elem *e;
	long n = 0;

	cds_hlist_nulls_for_each_entry_rcu(e, pos, &cu.nhead, nnode)
		if (!cu_visit(r, s, e, rculist__load_once(e->nnode.next), NULL,
			      &cu_fresh.nnode, &n))
			goto out;
	/* Nothing is recycled here: a walk ends at its own list's marker. */
	if (cds_get_nulls_value(pos) != CU_MARKER)
		cu_bad(s, "a nulls walk ended at another list's marker", NULL,
		       cds_get_nulls_value(pos));
out:
	r->elems += n;
}

static void cu_walk(struct conc_reader *r) RCULIST_REQUIRES_RCU
{
	struct cu_seen *seen = &cu_rseen[r - cu_r];
	int backward = (int)((r->walks + r->param) & 1);

	switch (cu.kind) {
	case CU_LIST:
		/* Splice tests: every other pair of walks is of src. */
		cu_walk_list(r, seen, (r->walks & 2) ? &cu.src : &cu.head,
			     backward);
		break;
	case CU_HLIST:
		cu_walk_hlist(r, seen);
		break;
	case CU_NULLS:
		cu_walk_nulls(r, seen);
		break;
	}
}

/* ------------------------------------------------------ instant reader */

static struct {
	timer_t timer;
	volatile sig_atomic_t on;
	unsigned long samples, traps;
	struct cu_seen seen;
} cu_instant;

static void cu_instant_list(const struct cu_elem *head, int backward)
{
	const struct cds_list_head *h = &head->c.link, *pos;
	const struct cu_elem *e;
	long n = 0;

	for (pos = backward ? h->prev : h->next; pos != h;
	     pos = backward ? pos->prev : pos->next) {
		e = cu_of_link(pos);
		if (!cu_check_node(&cu_instant.seen, e) ||
		    !cu_check_link(&cu_instant.seen, e, e->c.link.next,
				   &cu_fresh.c.link) ||
		    !cu_check_link(&cu_instant.seen, e, e->c.link.prev,
				   &cu_fresh.c.link))
			return;
		if (++n > CU_BOUND) {
			cu_walk_too_long(&cu_instant.seen);
			return;
		}
	}
}

static void cu_instant_handler(int sig)
{
	const struct cds_hlist_nulls_node *np;
	const struct cds_hlist_node *hp;
	long n = 0;

	(void)sig;
	if (!cu_instant.on)
		return;
	cu_instant.samples++;
	switch (cu.kind) {
	case CU_LIST:
		cu_instant_list(&cu.head, 0);
		cu_instant_list(&cu.head, 1);
		cu_instant_list(&cu.src, 0);
		cu_instant_list(&cu.src, 1);
		break;
	case CU_HLIST:
		for (hp = cu.hhead.next; hp; hp = hp->next) {
			if (!cu_check_node(&cu_instant.seen, cu_of_hnode(hp)) ||
			    !cu_check_link(&cu_instant.seen, cu_of_hnode(hp),
					   hp->next, &cu_fresh.c.hnode))
				return;
			if (++n > CU_BOUND) {
				cu_walk_too_long(&cu_instant.seen);
				return;
			}
		}
		break;
	case CU_NULLS:
		for (np = cu.nhead.next; !cds_is_a_nulls(np); np = np->next) {
			if (!cu_check_node(&cu_instant.seen, cu_of_nnode(np)) ||
			    !cu_check_link(&cu_instant.seen, cu_of_nnode(np),
					   np->next, &cu_fresh.nnode))
				return;
			if (++n > CU_BOUND) {
				cu_walk_too_long(&cu_instant.seen);
				return;
			}
		}
		if (cds_get_nulls_value(np) != CU_MARKER)
			cu_bad(&cu_instant.seen,
			       "a nulls list ends at another marker", NULL,
			       cds_get_nulls_value(np));
		break;
	}
}

/*
 * How the instant reader gets to run.  On x86-64 the updater single-steps
 * the library call of every CU_TRACE_EVERY-th operation: with the trap
 * flag set, each instruction raises SIGTRAP, so the handler sees the
 * lists between every two instructions of the operation and a wrong
 * program order is caught the first time the operation runs.  Elsewhere,
 * or where the trap flag is not honoured (valgrind), a timer interrupts
 * the updater every CU_INSTANT_USECS and the handler samples the lists at
 * whatever instruction it stopped: the same check, caught with a
 * probability per operation instead of certainly.
 */
#define CU_TRACE_EVERY 4

#if defined(__x86_64__)
/* Set or clear EFLAGS.TF, stepping over the red zone that push would hit. */
static inline void cu_trap_flag(int on)
{
	if (on)
		__asm__ volatile("lea -128(%%rsp), %%rsp\n\t"
				 "pushfq\n\t"
				 "orq $0x100, (%%rsp)\n\t"
				 "popfq\n\t"
				 "lea 128(%%rsp), %%rsp" ::
					 : "memory", "cc");
	else
		__asm__ volatile("lea -128(%%rsp), %%rsp\n\t"
				 "pushfq\n\t"
				 "andq $~0x100, (%%rsp)\n\t"
				 "popfq\n\t"
				 "lea 128(%%rsp), %%rsp" ::
					 : "memory", "cc");
}
#define CU_CAN_STEP 1
#else
static inline void cu_trap_flag(int on)
{
	(void)on;
}
#define CU_CAN_STEP 0
#endif

static int cu_stepping;		/* 1: trap flag, 0: timer */
static unsigned long cu_traced; /* operations single-stepped */

/* Run the library call @stmt with the instant reader after each instruction. */
#define CU_TRACED(stmt)                                   \
	do {                                              \
		int on_ = cu_stepping && cu_instant.on && \
			  cu.ops % CU_TRACE_EVERY == 0;   \
		if (on_)                                  \
			cu_trap_flag(1);                  \
		stmt;                                     \
		if (on_) {                                \
			cu_trap_flag(0);                  \
			cu_traced++;                      \
		}                                         \
	} while (0)

static void cu_trap_handler(int sig)
{
	(void)sig;
	cu_instant.traps++;
	cu_instant_handler(sig);
}

/* Whether single-stepping works here: step over a few instructions. */
static int cu_can_step(void)
{
	unsigned long before = cu_instant.traps;

	if (!CU_CAN_STEP)
		return 0;
	cu_trap_flag(1);
	__asm__ volatile("nop\n\tnop\n\tnop" ::: "memory");
	cu_trap_flag(0);
	return cu_instant.traps - before >= 3;
}

/* Start the instant reader on the calling thread (the updater). */
static void cu_instant_start(int may_step)
{
	struct sigaction sa = { .sa_handler = cu_trap_handler,
				.sa_flags = SA_RESTART };
	struct sigevent sev = { .sigev_notify = SIGEV_THREAD_ID,
				.sigev_signo = SIGUSR2 };
	struct itimerspec its = {
		.it_value = { 0, CU_INSTANT_USECS * 1000 },
		.it_interval = { 0, CU_INSTANT_USECS * 1000 },
	};

	sigemptyset(&sa.sa_mask);
	cr_assert_eq(sigaction(SIGTRAP, &sa, NULL), 0);
	cu_stepping = may_step && cu_can_step();
	cu_instant.samples = 0;
	cu_instant.on = 1;
	if (cu_stepping)
		return;
	if (may_step)
		cr_log_info(
			"instant reader: no single-stepping here, timer samples");
	sa.sa_handler = cu_instant_handler;
	cr_assert_eq(sigaction(SIGUSR2, &sa, NULL), 0);
	sev.sigev_notify_thread_id = gettid();
	cr_assert_eq(timer_create(CLOCK_MONOTONIC, &sev, &cu_instant.timer), 0);
	cr_assert_eq(timer_settime(cu_instant.timer, 0, &its, NULL), 0);
}

static void cu_instant_stop(void)
{
	cu_instant.on = 0;
	if (!cu_stepping)
		cr_assert_eq(timer_delete(cu_instant.timer), 0);
	cr_log_info("instant reader: %lu samples, %s (%lu operations stepped)",
		    cu_instant.samples,
		    cu_stepping ? "one per instruction" : "timer", cu_traced);
	cr_assert_eq(cu_instant.seen.violations, 0,
		     "instant reader: %lu violations in %lu samples; first: %s",
		     cu_instant.seen.violations, cu_instant.samples,
		     cu_instant.seen.why);
	cr_assert_geq(cu_instant.samples, CU_MIN_SAMPLES,
		      "instant reader: only %lu samples", cu_instant.samples);
	if (cu_stepping)
		cr_assert_gt(cu_traced, 10, "only %lu operations stepped",
			     cu_traced);
}

/* -------------------------------------------------------- the updater */

/* Link @e at a random place of the list, with an _rcu add. */
static void cu_add_somewhere(struct cu_elem *e, uint32_t how)
{
	struct cu_elem *at = cu_pick(how >> 4);

	switch (cu.kind) {
	case CU_LIST:
		if (how & 1)
			CU_TRACED(cds_list_add_rcu(&e->c.link,
						   at && (how & 2) ?
							   &at->c.link :
							   &cu.head.c.link));
		else
			CU_TRACED(cds_list_add_tail_rcu(&e->c.link,
							at && (how & 2) ?
								&at->c.link :
								&cu.head.c.link));
		break;
	case CU_HLIST:
		if (at && (how & 1))
			CU_TRACED(cds_hlist_add_behind_rcu(&e->c.hnode,
							   &at->c.hnode));
		else
			CU_TRACED(cds_hlist_add_head_rcu(&e->c.hnode, &cu.hhead));
		break;
	case CU_NULLS:
		if (how & 1)
			CU_TRACED(cds_hlist_nulls_add_tail_rcu(&e->nnode,
							       &cu.nhead));
		else
			CU_TRACED(cds_hlist_nulls_add_head_rcu(&e->nnode,
							       &cu.nhead));
		break;
	}
	cu.on[cu.len++] = e;
}

/* Unlink a random element with an _rcu delete, and retire it. */
static void cu_del_somewhere(uint32_t how)
{
	struct cu_elem *e = cu_take(how % cu.len);

	switch (cu.kind) {
	case CU_LIST:
		CU_TRACED(cds_list_del_rcu(&e->c.link));
		break;
	case CU_HLIST:
		CU_TRACED(cds_hlist_del_rcu(&e->c.hnode));
		break;
	case CU_NULLS:
		CU_TRACED(cds_hlist_nulls_del_rcu(&e->nnode));
		break;
	}
	conc_updated();
	cu_retire(e);
}

/*
 * One step: the operation under test, then whatever keeps the list
 * between CU_MAXLEN / 2 and CU_MAXLEN long.
 */
static void cu_step(void *arg)
{
	uint32_t how = conc_rand(&cu.rnd);

	(void)arg;
	cu.op(&cu, how >> 8);
	conc_updated();
	while (cu.len > CU_MAXLEN)
		cu_del_somewhere(conc_rand(&cu.rnd));
	while (cu.len < CU_MAXLEN / 2) {
		cu_add_somewhere(cu_new(), conc_rand(&cu.rnd));
		conc_updated();
	}
	cu.ops++;
}

/* Walk the final list with the plain iterators, check it, free it. */
static void cu_check_and_free(void)
{
	long n = 0, i;
	struct cu_elem *e, *t;

	switch (cu.kind) {
	case CU_LIST: {
		struct cds_list_head *pos, *prev = &cu.head.c.link;

		CHECK_EMPTY(&cu.src.c.link);
		cds_list_for_each(pos, &cu.head.c.link) {
			cr_assert_eq(pos->prev, prev,
				     "prev of node %ld is wrong", n);
			cr_assert_eq(cu_of_link(pos)->c.magic, CONC_ALIVE);
			prev = pos;
			cr_assert_leq(++n, cu.len,
				      "list longer than the updater's");
		}
		cr_assert_eq(cu.head.c.link.prev, prev);
		cds_list_for_each_entry_safe(e, t, &cu.head.c.link, c.link)
			free(e);
		break;
	}
	case CU_HLIST: {
		struct cds_hlist_node *pos,
			*prev = (struct cds_hlist_node *)(void *)&cu.hhead;

		for (pos = cu.hhead.next; pos; pos = pos->next) {
			cr_assert_eq(pos->prev, prev,
				     "prev of node %ld is wrong", n);
			cr_assert_eq(cu_of_hnode(pos)->c.magic, CONC_ALIVE);
			prev = pos;
			cr_assert_leq(++n, cu.len,
				      "list longer than the updater's");
		}
		break;
	}
	case CU_NULLS: {
		struct cds_hlist_nulls_node *pos,
			*prev = (struct cds_hlist_nulls_node *)(void *)&cu.nhead;

		for (pos = cu.nhead.next; !cds_is_a_nulls(pos); pos = pos->next) {
			cr_assert_eq(pos->prev, prev,
				     "prev of node %ld is wrong", n);
			cr_assert_eq(cu_of_nnode(pos)->c.magic, CONC_ALIVE);
			prev = pos;
			cr_assert_leq(++n, cu.len,
				      "list longer than the updater's");
		}
		cr_assert_eq(cds_get_nulls_value(pos), CU_MARKER);
		break;
	}
	}
	cr_assert_eq(n, cu.len, "the list holds %ld nodes, the updater %ld", n,
		     cu.len);
	if (cu.kind != CU_LIST)
		for (i = 0; i < cu.len; i++)
			free(cu.on[i]);
}

/*
 * Go on updating until the instant reader has its samples.  A timer tick
 * that finds the updater with signals blocked waits for it, and ticks
 * pending together are one: the splices wait for a grace period in every
 * step, and bp's synchronize_rcu() blocks every signal while it polls in
 * 10 ms steps, so there a loaded machine gives one sample per step.
 */
static unsigned long cu_until_sampled(void)
{
	double start = conc_now();
	unsigned long steps = 0;

	while (__atomic_load_n(&cu_instant.samples, __ATOMIC_RELAXED) <
		       CU_MIN_SAMPLES &&
	       conc_now() - start < CU_SAMPLE_SECS) {
		cu_step(NULL);
		steps++;
	}
	return steps;
}

/* cu_run() flags: retire through rculist_free_rcu(); sample with the timer. */
#define CU_FREE_RCU 1
#define CU_TIMER    2

static void cu_run(enum cu_kind kind,
		   void (*op)(struct cu_state *s, uint32_t how), int flags)
{
	int free_rcu = flags & CU_FREE_RCU;
	unsigned long steps;
	size_t i;

	memset(&cu, 0, sizeof(cu));
	cu.kind = kind;
	cu.op = op;
	cu.free_rcu = free_rcu;
	/* The updater never waits: the instant reader samples updates. */
	cu.rc.mode = CONC_CALL_RCU;
	cu.rnd = 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid();
	conc_head_init(&cu.head.c);
	conc_head_init(&cu.src.c);
	CDS_INIT_HLIST_HEAD(&cu.hhead);
	CDS_INIT_HLIST_NULLS_HEAD(&cu.nhead, CU_MARKER);
	/* free() fills a freed node (beyond the words malloc keeps there). */
	mallopt(M_PERTURB, CONC_POISON_BYTE);
	while (cu.len < CU_MAXLEN / 2 + 2)
		cu_add_somewhere(cu_new(), conc_rand(&cu.rnd));

	for (i = 0; i < 2; i++) {
		cu_r[i].walk = cu_walk;
		cu_r[i].param = (long)i; /* one starts forwards, one backwards */
		cu_r[i].pause_every = 2; /* every other walk holds a node */
	}
	conc_readers_start(cu_r, 2);
	cu_instant_start(!(flags & CU_TIMER));
	steps = conc_update_for(conc_secs(), 50, cu_r, 2, cu_step, NULL);
	steps += cu_until_sampled();
	cu_instant_stop();
	conc_readers_stop(cu_r, 2);
	for (i = 0; i < 2; i++)
		cr_assert_eq(cu_rseen[i].violations, 0,
			     "reader %zu: %lu violations in %lu walks; first: %s",
			     i, cu_rseen[i].violations, cu_r[i].walks,
			     cu_rseen[i].why);
	if (free_rcu)
		rculist_rcu_barrier();
	else
		conc_reclaim_finish(&cu.rc);
	cr_log_info("%lu steps", steps);
	cr_assert_gt(steps, 10, "only %lu updates", steps);
	cr_assert_eq(cu.ops, steps);
	cu_check_and_free();
}

/*
 * The tests.  Each adding one is written with CU_ADD_TEST: a fresh node
 * n, a random element at (NULL on an empty list) and the random bits how
 * are at hand for the call; each replacing one with CU_REPLACE_TEST.
 */
/* clang-format off */
#define CU_ADD_TEST(name, kind, call)					\
	static void op_##name(struct cu_state *s, uint32_t how)		\
	{								\
		struct cu_elem *n = cu_new(), *at = cu_pick(how >> 1);	\
									\
		(void)at;						\
		CU_TRACED(call);					\
		s->on[s->len++] = n;					\
	}								\
	Test(conc_updates, name)					\
	{								\
		cu_run(kind, op_##name, 0);				\
	}

/* Put a fresh node n where the random element old is, and retire old. */
#define CU_REPLACE_OP(name, call)					\
	static void op_##name(struct cu_state *s, uint32_t how)		\
	{								\
		long i = how % s->len;					\
		struct cu_elem *old = s->on[i], *n = cu_new();		\
									\
		CU_TRACED(call);					\
		s->on[i] = n;						\
		cu_retire(old);						\
	}
/* clang-format on */

/* ------------------------------------------------------ circular lists */

/* before: [h] <-> a <-> b    after: [h] <-> n <-> a <-> b  (or after a) */
CU_ADD_TEST(list_add_rcu, CU_LIST,
	    cds_list_add_rcu(&n->c.link,
			     at && (how & 1) ? &at->c.link : &s->head.c.link))

/* before: [h] <-> a <-> b    after: [h] <-> a <-> b <-> n  (or before a) */
CU_ADD_TEST(list_add_tail_rcu, CU_LIST,
	    cds_list_add_tail_rcu(&n->c.link, at && (how & 1) ? &at->c.link :
								&s->head.c.link))

/* before: [h] <-> a <-> b    after: [h] <-> b  (a retired) */
static void op_del(struct cu_state *s, uint32_t how)
{
	if (s->len)
		cu_del_somewhere(how);
}

Test(conc_updates, list_del_rcu)
{
	cu_run(CU_LIST, op_del, 0);
}

/* before: [h] <-> a <-> b    after: [h] <-> n <-> b  (a retired) */
CU_REPLACE_OP(list_replace, cds_list_replace_rcu(&old->c.link, &n->c.link))

Test(conc_updates, list_replace_rcu)
{
	cu_run(CU_LIST, op_list_replace, 0);
}

/*
 * Fresh nodes are published into src one by one (cds_list_add_tail_rcu),
 * readers walk both lists, then src is spliced into the list at its head
 * or after one of its elements.
 *
 * before: [src] <-> x <-> y   [h] <-> a    after: [src]   [h] <-> x <-> y <-> a
 */
static void op_splice(struct cu_state *s, uint32_t how, int tail)
{
	long i, n = 1 + how % CU_SPLICE_MAX;
	struct cu_elem *e, *at = cu_pick(how >> 3);
	struct cds_list_head *where = at && (how & 4) ? &at->c.link :
							&s->head.c.link;

	for (i = 0; i < n; i++) {
		e = cu_new();
		CU_TRACED(cds_list_add_tail_rcu(&e->c.link, &s->src.c.link));
		s->src_on[s->src_len++] = e;
		conc_updated();
	}
	sched_yield(); /* let readers into src */
	/*
	 * Not single-stepped: the grace period inside may block every signal
	 * (bp's does), and a trap while SIGTRAP is blocked kills the process.
	 * The timer samples instead (CU_TIMER).
	 */
	if (tail)
		cds_list_splice_tail_init_rcu(&s->src.c.link, where);
	else
		cds_list_splice_init_rcu(&s->src.c.link, where);
	while (s->src_len)
		s->on[s->len++] = s->src_on[--s->src_len];
}

static void op_splice_init(struct cu_state *s, uint32_t how)
{
	op_splice(s, how, 0);
}

static void op_splice_tail_init(struct cu_state *s, uint32_t how)
{
	op_splice(s, how, 1);
}

Test(conc_updates, list_splice_init_rcu)
{
	cu_run(CU_LIST, op_splice_init, CU_TIMER);
}

Test(conc_updates, list_splice_tail_init_rcu)
{
	cu_run(CU_LIST, op_splice_tail_init, CU_TIMER);
}

/*
 * rculist_free_rcu(): removed nodes are given to the library, which frees
 * them after a grace period; readers hold nodes across many updates and
 * check them again, so a node freed while held (malloc's words and
 * M_PERTURB's fill where the magic was, or another element's key) is seen.
 */
Test(conc_updates, list_del_rcu_free_rcu)
{
	cu_run(CU_LIST, op_del, CU_FREE_RCU);
}

Test(conc_updates, list_replace_rcu_free_rcu)
{
	cu_run(CU_LIST, op_list_replace, CU_FREE_RCU);
}

/* --------------------------------------------------------------- hlist */

/* before: [h] -> a           after: [h] -> n <-> a */
CU_ADD_TEST(hlist_add_head_rcu, CU_HLIST,
	    cds_hlist_add_head_rcu(&n->c.hnode, &s->hhead))

/* before: [h] -> a <-> at    after: [h] -> a <-> n <-> at */
CU_ADD_TEST(hlist_add_before_rcu, CU_HLIST,
	    cds_hlist_add_before_rcu(&n->c.hnode, &at->c.hnode))

/* before: [h] -> at <-> b    after: [h] -> at <-> n <-> b */
CU_ADD_TEST(hlist_add_behind_rcu, CU_HLIST,
	    cds_hlist_add_behind_rcu(&n->c.hnode, &at->c.hnode))

/* before: [h] -> a           after: [h] -> a <-> n */
CU_ADD_TEST(hlist_add_tail_rcu, CU_HLIST,
	    cds_hlist_add_tail_rcu(&n->c.hnode, &s->hhead))

Test(conc_updates, hlist_del_rcu)
{
	cu_run(CU_HLIST, op_del, 0);
}

/*
 * Remove a random element with @del_init, which must leave it unhashed
 * and do nothing to it the second time; then retire it.
 */
#define CU_DEL_INIT(s, how, del_init, unhashed, member)         \
	do {                                                    \
		struct cu_elem *e_ = cu_take((how) % (s)->len); \
                                                                \
		CU_TRACED(del_init(&e_->member));               \
		cr_assert(unhashed(&e_->member));               \
		CU_TRACED(del_init(&e_->member));               \
		cr_assert(unhashed(&e_->member));               \
		conc_updated();                                 \
		cu_retire(e_);                                  \
	} while (0)

/* before: [h] -> a <-> b     after: [h] -> b  (a unhashed, then retired) */
static void op_hlist_del_init(struct cu_state *s, uint32_t how)
{
	CU_DEL_INIT(s, how, cds_hlist_del_init_rcu, cds_hlist_unhashed, c.hnode);
}

Test(conc_updates, hlist_del_init_rcu)
{
	cu_run(CU_HLIST, op_hlist_del_init, 0);
}

/* before: [h] -> a <-> b     after: [h] -> n <-> b  (a retired) */
CU_REPLACE_OP(hlist_replace, cds_hlist_replace_rcu(&old->c.hnode, &n->c.hnode))

Test(conc_updates, hlist_replace_rcu)
{
	cu_run(CU_HLIST, op_hlist_replace, 0);
}

/* --------------------------------------------------------------- nulls */

/* before: [h] -> a -> |5|    after: [h] -> n <-> a -> |5| */
CU_ADD_TEST(nulls_add_head_rcu, CU_NULLS,
	    cds_hlist_nulls_add_head_rcu(&n->nnode, &s->nhead))

/* before: [h] -> a -> |5|    after: [h] -> a <-> n -> |5| */
CU_ADD_TEST(nulls_add_tail_rcu, CU_NULLS,
	    cds_hlist_nulls_add_tail_rcu(&n->nnode, &s->nhead))

Test(conc_updates, nulls_del_rcu)
{
	cu_run(CU_NULLS, op_del, 0);
}

/* before: [h] -> a <-> b -> |5|   after: [h] -> b -> |5|  (a unhashed) */
static void op_nulls_del_init(struct cu_state *s, uint32_t how)
{
	CU_DEL_INIT(s, how, cds_hlist_nulls_del_init_rcu,
		    cds_hlist_nulls_unhashed, nnode);
}

Test(conc_updates, nulls_del_init_rcu)
{
	cu_run(CU_NULLS, op_nulls_del_init, 0);
}
