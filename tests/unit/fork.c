// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/fork.c - fork() while other threads free through RCU.
 *
 * core/fork.c's handlers take liburcu's locks (call_rcu_mutex; bp's
 * grace-period and registry locks), then rculist's, in that one order;
 * rculist holds none of its locks across a call into liburcu.  A fork()
 * racing a thread's first-ever rculist_free_rcu() (whose call_rcu takes
 * call_rcu_mutex to create the worker) must not deadlock, and a child
 * forked while callbacks call free() (liburcu's README warns about its
 * call_rcu fork hooks and glibc's allocator) must be able to free, wait
 * for a grace period and exit.  So must a child forked while other
 * threads are inside rculist_call_rcu(): liburcu links a callback into
 * its queue with two stores, and a fork between them leaves the child a
 * queue its call_rcu thread waits on for ever (core/fork.c's gate).
 * Every child is waited for with a bound.
 */
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "forks.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * A child's verdict comes back through a pipe, written just before it
 * exits: under valgrind its exit status is memcheck's (99 when the leak
 * check at its _exit() counts blocks that threads which did not follow
 * the fork held in their registers: a malloc() not yet handed to
 * rculist_free_rcu(), say), not the child's own.
 */
struct child {
	pid_t pid;
	int fd;	    /* the read end of its verdict pipe */
	int number; /* which fork it was */
};

/* In a child: send @v to the parent and exit with it. */
static void child_exit(int fd, int v)
{
	unsigned char c = (unsigned char)v;

	if (write(fd, &c, 1) != 1)
		_exit(3);
	_exit(v);
}

/* Fork a child that runs @fn and reports what it returns (pid -1: none). */
static struct child child_start(int (*fn)(void), int number)
{
	struct child c = { .pid = -1, .fd = -1, .number = number };
	int fd[2];

	if (pipe(fd))
		return c;
	c.pid = fork();
	if (c.pid == 0) {
		close(fd[0]);
		child_exit(fd[1], fn());
	}
	close(fd[1]);
	c.fd = fd[0];
	return c;
}

/*
 * Wait for @c up to @ms: its verdict (what it sent), -1 if it hung (it
 * is killed), 128 if it died without sending one, -2 if it was never
 * forked.
 */
static int child_wait(struct child *c, long ms)
{
	unsigned char v;
	int status, r = -1;
	long waited;

	if (c->pid < 0) {
		if (c->fd >= 0)
			close(c->fd);
		return -2;
	}
	for (waited = 0; waited < ms; waited++) {
		if (waitpid(c->pid, &status, WNOHANG) == c->pid) {
			r = read(c->fd, &v, 1) == 1 ? v : 128;
			break;
		}
		sleep_ms(1);
	}
	if (r == -1) {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, &status, 0);
	}
	close(c->fd);
	return r;
}

/* In a child: free one block through RCU, wait for it; 0. */
static int child_frees(void)
{
	struct item *p = malloc(sizeof(*p));

	if (!p)
		return 2;
	rculist_free_rcu(p, rcu);
	rculist_rcu_barrier();
	return 0;
}

/*
 * Fork @forks children, each running @child, FORK_INFLIGHT of them at a
 * time: a child spends most of its life asleep, waiting for liburcu's
 * call_rcu thread (about 25 ms), and the parent's threads would spin
 * meanwhile; with several children in flight the same forks cost a
 * fraction of the time.  Each must send 0 within 10 s of being waited for.
 */
#define FORK_INFLIGHT 16

static void fork_children(int forks, int (*child)(void))
{
	struct child c[FORK_INFLIGHT];
	int i, k, st;

	for (i = 0; i < forks + FORK_INFLIGHT; i++) {
		k = i % FORK_INFLIGHT;
		if (i >= FORK_INFLIGHT) {
			st = child_wait(&c[k], 10000);
			cr_assert_eq(st, 0,
				     "fork %d of %d: child verdict %d (-1: hung, killed after 10 s; -2: fork failed; 2: out of memory; 5: its callback never ran; 128: died)",
				     c[k].number, forks, st);
		}
		if (i < forks)
			c[k] = child_start(child, i);
	}
}

static int stop;

/* Frees through RCU until told to stop: callbacks call free(). */
static void *freer(void *arg)
{
	long n = 0;

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		struct item *p = malloc(sizeof(*p));

		if (p)
			rculist_free_rcu(p, rcu);
		if (++n % 64 == 0)
			sleep_ms(0);
	}
	return NULL;
}

/*
 * In a fresh process: two threads make the process's first
 * rculist_free_rcu() calls while the main thread forks three grandchildren
 * at once; each frees and waits.  0, or the failing step.
 */
static int first_free_race(void)
{
	struct child c[3];
	pthread_t t[2];
	int i, bad = 0;

	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, freer, NULL))
			return 3;
	for (i = 0; i < 3; i++)
		c[i] = child_start(child_frees, i);
	for (i = 0; i < 3; i++)
		if (child_wait(&c[i], 10000) != 0)
			bad = 4;
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	rculist_rcu_barrier();
	return bad;
}

/*
 * thousands_of_forks_while_callbacks_free forks test_forks() times
 * (tests/unit/forks.h); fork_during_first_free_rcu_does_not_deadlock
 * makes one race of first_free_race() per ten of them, and
 * forks_while_threads_call_rcu one fork per ten.
 */
Test(fork, fork_during_first_free_rcu_does_not_deadlock, .timeout = 120)
{
	int i, races = test_forks() / 10;

	for (i = 0; i < races; i++) {
		struct child c = child_start(first_free_race, i);
		int st = child_wait(&c, 20000);

		cr_assert_eq(st, 0,
			     "race %d: verdict %d (-1: hung, killed after 20 s; -2: fork failed; 3: no thread; 4: a grandchild failed; 128: died)",
			     i, st);
	}
}

Test(fork, thousands_of_forks_while_callbacks_free, .timeout = 120)
{
	pthread_t t;
	int forks = test_forks();

	cr_assert_eq(pthread_create(&t, NULL, freer, NULL), 0);
	fork_children(forks, child_frees);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	rculist_rcu_barrier();
}

/*
 * Threads call rculist_call_rcu() flat out (up to OUTSTANDING callbacks
 * not yet run) while the main thread forks; each child queues a callback
 * of its own and waits for it with rculist_rcu_barrier().  Without
 * core/fork.c's gate, about one of these forks in 60 split an enqueue
 * and the child's barrier never returned (7 of 12 runs of 50 forks
 * failed, across the four flavours).
 */
#define CALLERS	    2
#define OUTSTANDING 100000

static long outstanding;

struct flagged {
	struct rcu_head rcu;
	int called;
};

static void free_head(struct rcu_head *head)
{
	free(head);
	__atomic_sub_fetch(&outstanding, 1, __ATOMIC_RELAXED);
}

static void set_called(struct rcu_head *head)
{
	struct flagged *f =
		(struct flagged *)(void *)((char *)head -
					   offsetof(struct flagged, rcu));

	f->called = 1;
}

static void *caller(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		struct rcu_head *h;

		if (__atomic_load_n(&outstanding, __ATOMIC_RELAXED) >=
			    OUTSTANDING ||
		    !(h = malloc(sizeof(*h)))) {
			sleep_ms(1);
			continue;
		}
		__atomic_add_fetch(&outstanding, 1, __ATOMIC_RELAXED);
		rculist_call_rcu(h, free_head);
	}
	return NULL;
}

/* In a child: one callback of its own, waited for; 0 once it ran. */
static int child_calls_rcu(void)
{
	struct flagged f = { .called = 0 };

	rculist_call_rcu(&f.rcu, set_called);
	rculist_rcu_barrier();
	return f.called ? 0 : 5;
}

Test(fork, forks_while_threads_call_rcu, .timeout = 120)
{
	pthread_t t[CALLERS];
	int i, forks = (test_forks() + 9) / 10;

	for (i = 0; i < CALLERS; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, caller, NULL), 0);
	fork_children(forks, child_calls_rcu);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < CALLERS; i++)
		pthread_join(t[i], NULL);
	rculist_rcu_barrier();
	cr_assert_eq(__atomic_load_n(&outstanding, __ATOMIC_RELAXED), 0,
		     "%ld callbacks of the parent never ran", outstanding);
}
