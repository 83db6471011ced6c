// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/poll.c - polled grace periods, under every flavour and every
 * liburcu (0.13 has no start_poll_synchronize_rcu()).
 *
 * The counters, ticket and done, are core/gp.c's: a cookie is a ticket,
 * satisfied once done has passed it.
 *
 * rculist_start_poll_synchronize_rcu() raises wanted, the value done
 * must reach, and wakes the grace-period thread if it sleeps.  The
 * thread, created by the first call (signals blocked, never a reader),
 * runs rculist_synchronize_rcu() while wanted is after done, and sleeps
 * on a futex otherwise: a cookie is satisfied one wake-up and at most two
 * grace periods after start_poll (the one in progress may have taken its
 * ticket before the cookie), where liburcu's call_rcu thread, which
 * sleeps 10 ms between batches, took 10 ms.  Many start_poll calls during
 * one grace period share the next.  The waker and the sleeper each store
 * their side, then load the other's (all sequentially consistent): a
 * caller that raises wanted and then finds the thread awake is seen by
 * it before it sleeps.
 *
 * Waking the thread costs the caller a futex call, and the scheduler's
 * interrupt to the idle CPU the thread slept on: about 15 % of an
 * updater's time in bench/reclaim.c's defer-queue loop (perf), which
 * asked every few tens of microseconds.  So while requests come close
 * together (the last park lasted less than NAPS naps), the thread naps
 * (GP_NAPPING: a futex wait of NAP_NS, its timer slack cut to 1 us) up
 * to NAPS times before it parks, and a caller that finds it napping
 * wakes nobody: the thread looks at wanted at the end of the nap.  Only
 * the lazy requests do that, rculist__poll_request()'s (a large defer
 * queue's enqueues, which ask an eighth of a ring ahead), seen at the
 * end of the nap, NAP_NS later when the thread gets a CPU at once (a
 * loaded machine can make it milliseconds); and only they put the
 * thread to napping.  rculist_start_poll_synchronize_rcu() wakes a
 * napping thread as it wakes a parked one, and stops the napping (its
 * callers, core/reclaim.c's polled slots among them, and bench/poll.c's
 * start_to_satisfied, keep their latency: an urgent request that found
 * the thread napping took 16 us instead of 4, p50).  Requests further
 * apart park the thread at once, as before, and cost a wake-up each.
 *
 * If the thread cannot be created, start_poll falls back to a callback
 * through rculist_call_rcu() (one in flight at most, for all callers),
 * which advances done after its grace period and queues itself again
 * while wanted asks for more.
 *
 * fork(): the thread holds gp_lock across each grace period, and the
 * fork's prepare handler takes it first, before liburcu's locks (so a
 * fork waits for the polled grace period in progress, as liburcu's
 * call_rcu_before_fork() waits for its threads' batches): a child must
 * not inherit liburcu's grace-period lock from a thread it does not
 * have.  The child starts a thread of its own if a cookie waits.
 * Process exit: a destructor stops the thread after the grace period in
 * progress (waiting for it for 1 s at most), so that none is running
 * while liburcu's destructors tear down its registry (bp unmaps it).
 */
#include <linux/futex.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>

#include "internal.h"

/* What done must reach for every cookie of start_poll to be satisfied. */
static unsigned long wanted = RCULIST__SEQ_INIT;

/* The grace-period thread. */
enum { GP_NONE, GP_STARTING, GP_RUNNING };
static int gp_state;
/* futex word: what the thread does, and whether a caller must wake it */
enum { GP_AWAKE, GP_PARKED, GP_NAPPING, GP_WOKEN_LAZY };
static int gp_parked;
#define NAP_NS 50000ULL
#define NAPS   2
static int gp_stopped; /* process exit: start no more grace periods */
static pthread_mutex_t gp_lock = PTHREAD_MUTEX_INITIALIZER;

/* The fallback: a callback through rculist_call_rcu(), and its state. */
static int queued;
static unsigned long carried; /* written by the owner of queued only */
static struct rcu_head poll_head;

#define load(p)	    __atomic_load_n(p, __ATOMIC_SEQ_CST)
#define store(p, v) __atomic_store_n(p, v, __ATOMIC_SEQ_CST)

/* ------------------------------------------------- the grace-period thread */

static long futex(int *word, int op, int val, const struct timespec *t)
{
	return syscall(SYS_futex, word, op, val, t, NULL, 0);
}

static int gp_wanted(void)
{
	return rculist__seq_after(load(&wanted), rculist__gp_done());
}

/*
 * Sleep until wanted is after done.  While lazy requests come close
 * together (the last park, ended by one, lasted less than NAPS naps), in
 * naps of NAP_NS, NAPS at most, then parked: a lazy request finds
 * GP_NAPPING and leaves the thread to see it at the end of its nap.  An
 * urgent request wakes a napping thread as it wakes a parked one, and
 * ends the napping until a lazy request wakes the thread again: so
 * rculist_start_poll_synchronize_rcu()'s callers alone never see a nap.
 */
static void gp_sleep(void)
{
	static const struct timespec nap = { 0, NAP_NS };
	static int napping;
	uint64_t t0;
	int i;

	for (i = 0; napping && i < NAPS; i++) {
		store(&gp_parked, GP_NAPPING);
		if (!gp_wanted())
			futex(&gp_parked, FUTEX_WAIT_PRIVATE, GP_NAPPING, &nap);
		napping = __atomic_exchange_n(&gp_parked, GP_AWAKE,
					      __ATOMIC_SEQ_CST) != GP_AWAKE;
		if (gp_wanted())
			return;
	}
	t0 = rculist__now_ns();
	store(&gp_parked, GP_PARKED);
	while (!gp_wanted() && load(&gp_parked) == GP_PARKED)
		futex(&gp_parked, FUTEX_WAIT_PRIVATE, GP_PARKED, NULL);
	napping = __atomic_exchange_n(&gp_parked, GP_AWAKE, __ATOMIC_SEQ_CST) ==
			  GP_WOKEN_LAZY &&
		  rculist__now_ns() - t0 < NAPS * NAP_NS;
}

static void *gp_main(void *arg)
{
	(void)arg;
	/* Naps of NAP_NS, not NAP_NS plus the default 50 us of slack. */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	for (;;) {
		if (!gp_wanted()) {
			gp_sleep();
			continue;
		}
		pthread_mutex_lock(&gp_lock);
		if (load(&gp_stopped)) {
			pthread_mutex_unlock(&gp_lock);
			for (;;)
				pause(); /* every signal blocked: for good */
		}
		rculist_synchronize_rcu();
		pthread_mutex_unlock(&gp_lock);
	}
	return NULL;
}

static void poll_queue(void);

/*
 * Wake the thread if it is parked, or if @urgent also if it naps (a
 * spurious wake-up costs one check); a lazy wake-up says so.
 */
static void gp_unpark(int urgent)
{
	int st = load(&gp_parked);

	if (st != GP_PARKED && !(urgent && st == GP_NAPPING))
		return;
	st = __atomic_exchange_n(&gp_parked, urgent ? GP_AWAKE : GP_WOKEN_LAZY,
				 __ATOMIC_SEQ_CST);
	if (st == GP_PARKED || st == GP_NAPPING)
		futex(&gp_parked, FUTEX_WAKE_PRIVATE, 1, NULL);
}

/*
 * The first caller creates the thread; while it does, the others count
 * on it.  The new thread may already have run, ended its grace period
 * and parked before the creator marks it running: a caller that raised
 * wanted meanwhile saw GP_STARTING and left the wake-up to the creator,
 * so the creator wakes the thread once it has stored GP_RUNNING (that
 * caller's raise comes before its load of GP_STARTING, so before this
 * store, so before the load of gp_parked that follows it).  If creating
 * fails, the callback takes over what wanted asks, and the next call
 * tries again.
 */
static void gp_start(void)
{
	int none = GP_NONE;

	if (!__atomic_compare_exchange_n(&gp_state, &none, GP_STARTING, 0,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return;
	if (!rculist__thread_start(gp_main, "rculist-gp")) {
		store(&gp_state, GP_RUNNING);
		gp_unpark(1);
		return;
	}
	store(&gp_state, GP_NONE);
	if (!__atomic_exchange_n(&queued, 1, __ATOMIC_SEQ_CST))
		poll_queue();
}

static void gp_wake(int urgent)
{
	if (__builtin_expect(load(&gp_state) != GP_RUNNING, 0)) {
		gp_start();
		return;
	}
	gp_unpark(urgent);
}

/* ------------------------------------------- the fallback, through call_rcu */

static void poll_callback(struct rcu_head *head);

/*
 * Queue the callback; the flag is ours.  Its grace period takes a ticket
 * now, as rculist_synchronize_rcu() does: every cookie taken before is
 * satisfied when it ends, none taken after.
 */
static void poll_queue(void)
{
	carried = rculist__gp_begin() + 1;
	rculist__tsan_handover(&poll_head);
	rculist__call_rcu_gated(&poll_head, poll_callback);
}

static void poll_callback(struct rcu_head *head)
{
	unsigned long reached;

	rculist__tsan_takeover(head);
	reached = carried;
	rculist__gp_end(reached - 1);
	store(&queued, 0);
	if (rculist__seq_after(load(&wanted), reached) &&
	    !__atomic_exchange_n(&queued, 1, __ATOMIC_SEQ_CST))
		poll_queue();
}

/*
 * Whoever raised wanted to where it is has woken the thread, or left it
 * to nap (lazy: a nap ends within NAP_NS), or, while it starts, left the
 * wake-up to its creator (gp_start()).  An urgent request that finds
 * wanted raised already by a lazy one wakes a napping thread all the
 * same.
 */
static void poll_request(unsigned long seq, int urgent)
{
	if (rculist__seq_raise(&wanted, seq + 1))
		gp_wake(urgent);
	else if (urgent && load(&gp_parked) == GP_NAPPING)
		gp_unpark(1);
}

void rculist__poll_request(unsigned long seq)
{
	poll_request(seq, 0);
}

struct rculist_gp_cookie rculist_start_poll_synchronize_rcu(void)
{
	struct rculist_gp_cookie c = rculist_get_state_synchronize_rcu();

	poll_request(c.seq, 1);
	return c;
}

void rculist_cond_synchronize_rcu(struct rculist_gp_cookie cookie)
{
	/* A misplaced call is reported even when the cookie is satisfied. */
	rculist__check_not_reading("rculist_cond_synchronize_rcu");
	if (!rculist_poll_state_synchronize_rcu(cookie))
		rculist_synchronize_rcu();
	else
		rculist__tsan_gp_ended();
}

/* ------------------------------------------------------- fork() and exit */

/*
 * First of the prepare handlers: wait for the grace period in progress.
 * A qsbr caller that is online goes offline meanwhile (the grace period
 * may be waiting for it).
 */
static void poll_before_fork(void)
{
	int online = !rculist__flavor_has_sections() && rculist_read_ongoing();

	if (online)
		rculist_thread_offline();
	pthread_mutex_lock(&gp_lock);
	if (online)
		rculist_thread_online();
}

static void poll_after_fork_parent(void)
{
	pthread_mutex_unlock(&gp_lock);
}

/* Last of the child's handlers, once liburcu's locks are released. */
static void poll_after_fork_child(void)
{
	gp_parked = 0;
	if (gp_state != GP_NONE)
		gp_state = GP_NONE; /* the thread did not follow */
	pthread_mutex_unlock(&gp_lock);
	if (gp_wanted() && !gp_stopped)
		gp_start();
}

__attribute__((constructor)) static void poll_fork_register(void)
{
	static const struct rculist__fork_hooks hooks = {
		poll_before_fork, poll_after_fork_parent, poll_after_fork_child
	};

	rculist__fork_register(RCULIST__FORK_POLL, &hooks);
}

__attribute__((destructor)) static void poll_exit(void)
{
	struct timespec t;

	if (load(&gp_state) == GP_NONE)
		return;
	store(&gp_stopped, 1);
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec++;
	if (!pthread_mutex_timedlock(&gp_lock, &t))
		pthread_mutex_unlock(&gp_lock);
}
