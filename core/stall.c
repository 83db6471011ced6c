// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/stall.c - the grace-period stall detector.
 *
 * A program that forgets a quiescent state (qsbr), or leaves a read-side
 * critical section open (memb, bp), makes rculist_synchronize_rcu() wait
 * for ever, and liburcu says nothing.  Like the kernel's RCU CPU stall
 * warning, rculist prints one line on stderr when a grace period has been
 * waited for longer than RCULIST_STALL_TIMEOUT_MS milliseconds (read once,
 * at the first grace period; default 10000; 0 turns the detector off),
 * and again each time as long again has passed:
 *
 *   rculist: qsbr grace period stalled for 10001 ms; blocked by tid 4242
 *   (pthread 0x7f...) not quiescent since the grace period began
 *
 * Each rculist_synchronize_rcu() call puts a record on its stack into the
 * list of waits; one watchdog thread, started at the first grace period,
 * sleeps until the oldest wait is due.  The grace periods that batches of
 * rculist_free_rcu() and rculist_call_rcu() wait for inside liburcu's
 * call_rcu thread are watched too: from the first batch on, the watchdog
 * asks core/reclaim.c, through the function it registered with its
 * first batch, for the oldest batch still waiting for its grace period
 * (a lock-free walk), and reports it as one more wait, its line
 * saying "(batches of rculist_free_rcu()/rculist_call_rcu() wait for
 * it)".  So a reader stuck in a section is named even when the program
 * only frees.  To name the blocking threads of
 * flavours with a registry (memb, qsbr), rculist_register_thread() also
 * records the thread here with a pointer to liburcu's per-thread reader
 * state, which the flavour (core/bind.h) knows how to read.  The read
 * side is untouched: the detector costs a grace period two uncontended
 * lock round trips and a clock read, and nothing when it is off.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>

#include "internal.h"

#define STALL_DEFAULT_MS 10000UL

/* A registered reader thread, as the detector knows it. */
struct stall_reader {
	struct cds_list_head link; /* in readers, under lock */
	const void *state;	   /* liburcu's per-thread reader state */
	pthread_t pthread;
	long tid; /* the kernel's thread id */
	int registered;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake; /* CLOCK_MONOTONIC, set up once */
static CDS_LIST_HEAD(readers);
static struct rculist__stall_wait *waits;
static int watchdog_running;
/*
 * When the watchdog wakes next by itself (lock held to read or write):
 * never while it waits for a first wait or batch, else sleep_until.  A
 * new wait due after that needs no signal: the watchdog sees it then.
 */
static int sleep_forever = 1;
static struct timespec sleep_until;
/* Batches are watched (set once, at the first batch; lock for writes). */
static int batches_watched;
static struct rculist__stall_wait batch_wait; /* the oldest batch's */
/* core/reclaim.c's: the oldest batch waiting (registered, set once). */
static int (*oldest_batch)(struct timespec *since);

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static unsigned long timeout_ms;

static __thread struct stall_reader self;

static unsigned long parse_timeout(const char *s)
{
	char *end;
	unsigned long v;

	if (!s || !*s)
		return STALL_DEFAULT_MS;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end)
		return STALL_DEFAULT_MS;
	return v;
}

static void init_wake(void)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&wake, &attr);
	pthread_condattr_destroy(&attr);
}

static void setup(void)
{
	timeout_ms = parse_timeout(getenv("RCULIST_STALL_TIMEOUT_MS"));
	init_wake();
}

static long ms_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000L +
	       (b->tv_nsec - a->tv_nsec) / 1000000L;
}

static struct timespec ms_after(const struct timespec *t, unsigned long ms)
{
	struct timespec r = *t;

	r.tv_sec += (time_t)(ms / 1000);
	r.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (r.tv_nsec >= 1000000000L) {
		r.tv_sec++;
		r.tv_nsec -= 1000000000L;
	}
	return r;
}

static int before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* When @w is next due for a report. */
static struct timespec due(const struct rculist__stall_wait *w)
{
	return ms_after(&w->start, timeout_ms * (w->reports + 1));
}

/* Whether a registered reader holds up the grace period now.  Lock held. */
static int any_blocker(void)
{
	struct stall_reader *r;

	cds_list_for_each_entry(r, &readers, link)
		if (rculist__flavor_reader_blocking(r->state))
			return 1;
	return 0;
}

/*
 * Print the one line for @w, waited for @waited ms.  Lock held.  It
 * always gives a reason: the readers that hold the grace period up, or
 * what the detector knows when it can name none.
 */
/*
 * Print the one line for @w, waited for @waited ms (@batches: the wait
 * of rculist_free_rcu()'s and rculist_call_rcu()'s batches).  Lock held.
 * It always gives a reason: the readers that hold the grace period up,
 * or what the detector knows when it can name none.
 *
 * bp cannot be named.  rculist never sees a bp reader register (bp
 * registers a thread lazily, inside its inline read lock, possibly in a
 * signal handler), and liburcu-bp's own registry (list head and lock
 * static in liburcu-bp) does not hold the blocking readers while a
 * grace period waits for them: urcu_bp_synchronize_rcu() moves every
 * entry onto lists on its own stack until the readers leave.  A walk
 * of the registry from an entry of ours, tried, met only the threads
 * registered since the grace period began, never the stuck reader.
 */
static void report(long waited, int batches)
{
	char line[1024];
	size_t n, cap = sizeof(line) - 2;
	struct stall_reader *r;
	int named = 0;

	n = (size_t)snprintf(
		line, cap, "rculist: %s grace period stalled for %ld ms%s",
		rculist_flavor_name(), waited,
		batches ? " (batches of rculist_free_rcu()/rculist_call_rcu() wait for it)" :
			  "");
	cds_list_for_each_entry(r, &readers, link) {
		if (n >= cap || !rculist__flavor_reader_blocking(r->state))
			continue;
		n += (size_t)snprintf(line + n, cap - n,
				      "%s tid %ld (pthread %#lx)",
				      named++ ? "," : "; blocked by", r->tid,
				      (unsigned long)r->pthread);
	}
	if (named && n < cap)
		n += (size_t)snprintf(
			line + n, cap - n,
			" not quiescent since the grace period began, %ld ms ago",
			waited);
	else if (!rculist__flavor_has_registry() && n < cap)
		n += (size_t)snprintf(
			line + n, cap - n,
			"; blocked by a thread inside a read-side critical section (%s keeps no registry the detector can read: it cannot name the thread)",
			rculist_flavor_name());
	else if (n < cap)
		n += (size_t)snprintf(
			line + n, cap - n,
			"; no thread registered with rculist_register_thread() holds it up now (a reader registered with liburcu directly, or the grace period has not begun)");
	if (n > cap)
		n = cap;
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, n) < 0)
		return; /* nowhere left to say it */
}

/*
 * @w is due at @now or before: report it, unless nobody can be named yet
 * (the waiting thread may not have begun the grace period): then look
 * again soon, for up to one more timeout.  Returns when @w is next due.
 * Lock held.
 */
static struct timespec check_wait(struct rculist__stall_wait *w,
				  const struct timespec *now, int batches)
{
	struct timespec d = due(w), late;

	if (before(now, &d))
		return d;
	late = ms_after(&d, timeout_ms);
	if (rculist__flavor_has_registry() && !any_blocker() && before(now, &late))
		return ms_after(now, 10);
	report(ms_between(&w->start, now), batches);
	w->reports++;
	return due(w);
}

/* The oldest batch waiting for its grace period, as a wait.  Lock held. */
static struct timespec check_batches(const struct timespec *now)
{
	struct timespec since;

	if (!oldest_batch(&since))
		return ms_after(now, timeout_ms);
	/*
	 * Another batch is the oldest now (the last one's grace period
	 * ended): its first report comes at the next whole timeout of its
	 * wait, not at once.  Batches queued together wait for one grace
	 * period, which may have only begun: a report now would name the
	 * readers of the new one.
	 */
	if (since.tv_sec != batch_wait.start.tv_sec ||
	    since.tv_nsec != batch_wait.start.tv_nsec) {
		batch_wait.start = since;
		batch_wait.reports =
			(unsigned long)ms_between(&since, now) / timeout_ms;
	}
	return check_wait(&batch_wait, now, 1);
}

static void *watchdog(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	for (;;) {
		struct rculist__stall_wait *w;
		struct timespec now, next, d;

		sleep_forever = 1;
		while (!waits && !batches_watched)
			pthread_cond_wait(&wake, &lock);
		clock_gettime(CLOCK_MONOTONIC, &now);
		next = ms_after(&now, 3600000UL); /* the earliest below */
		for (w = waits; w; w = w->next) {
			d = check_wait(w, &now, 0);
			if (before(&d, &next))
				next = d;
		}
		if (batches_watched) {
			d = check_batches(&now);
			if (before(&d, &next))
				next = d;
		}
		sleep_forever = 0;
		sleep_until = next;
		pthread_cond_timedwait(&wake, &lock, &next);
	}
	return NULL;
}

/* Start the watchdog, every signal blocked.  Lock held. */
static int start_watchdog(void)
{
	if (rculist__thread_start(watchdog, "rculist-stall"))
		return 0;
	watchdog_running = 1;
	return 1;
}

int rculist__stall_begin(struct rculist__stall_wait *w)
{
	pthread_once(&setup_once, setup);
	if (!timeout_ms)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &w->start);
	w->reports = 0;
	pthread_mutex_lock(&lock);
	if (!watchdog_running && !start_watchdog()) {
		pthread_mutex_unlock(&lock);
		return 0;
	}
	w->next = waits;
	waits = w;
	/*
	 * Wake the watchdog only if it would sleep past @w's first report:
	 * once in a while, not at every grace period (they may come by the
	 * hundred thousand a second).  An older wait is due before @w.
	 */
	if (!w->next) {
		struct timespec d = due(w);

		if (sleep_forever || before(&d, &sleep_until))
			pthread_cond_signal(&wake);
	}
	pthread_mutex_unlock(&lock);
	return 1;
}

/*
 * A batch was handed to call_rcu: from now on the watchdog watches
 * batches too.  One load once that is so.  No rculist lock held.
 */
void rculist__stall_watch_batches(int (*oldest)(struct timespec *since))
{
	if (__atomic_load_n(&batches_watched, __ATOMIC_RELAXED))
		return;
	pthread_once(&setup_once, setup);
	if (!timeout_ms)
		return;
	pthread_mutex_lock(&lock);
	if (!batches_watched && (watchdog_running || start_watchdog())) {
		oldest_batch = oldest;
		__atomic_store_n(&batches_watched, 1, __ATOMIC_RELAXED);
		pthread_cond_signal(&wake);
	}
	pthread_mutex_unlock(&lock);
}

void rculist__stall_end(struct rculist__stall_wait *w)
{
	struct rculist__stall_wait **p;

	pthread_mutex_lock(&lock);
	for (p = &waits; *p; p = &(*p)->next) {
		if (*p == w) {
			*p = w->next;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
}

void rculist__stall_register(const void *reader_state)
{
	pthread_mutex_lock(&lock);
	if (!self.registered) {
		self.state = reader_state;
		self.pthread = pthread_self();
		self.tid = (long)syscall(SYS_gettid);
		self.registered = 1;
		cds_list_add_tail(&self.link, &readers);
	}
	pthread_mutex_unlock(&lock);
}

void rculist__stall_unregister(void)
{
	pthread_mutex_lock(&lock);
	if (self.registered) {
		cds_list_del(&self.link);
		self.registered = 0;
	}
	pthread_mutex_unlock(&lock);
}

/*
 * fork(): the child has no watchdog and, the forking thread not being in
 * a grace period, no waits.  Readers registered by other threads stay
 * listed, as they stay in liburcu's memb and qsbr registries: if one was
 * inside a read-side critical section, the child's grace periods wait for
 * it for ever, and the detector names it.
 */
static void stall_before_fork(void)
{
	pthread_mutex_lock(&lock);
}

static void stall_after_fork_parent(void)
{
	pthread_mutex_unlock(&lock);
}

static void stall_after_fork_child(void)
{
	waits = NULL;
	watchdog_running = 0;
	sleep_forever = 1;
	batches_watched = 0;
	batch_wait.reports = 0;
	if (timeout_ms)
		init_wake();
	pthread_mutex_unlock(&lock);
}

__attribute__((constructor)) static void stall_fork_register(void)
{
	static const struct rculist__fork_hooks hooks = {
		stall_before_fork, stall_after_fork_parent, stall_after_fork_child
	};

	rculist__fork_register(RCULIST__FORK_STALL, &hooks);
}
