// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/reclaim.c - rculist_free_rcu(), rculist_call_rcu() and
 * rculist_rcu_barrier(), with a leak check that can fail.
 *
 * The leak check is glibc's own count of bytes in allocated chunks,
 * mallinfo2().uordblks, summed over every arena.  A test takes it once
 * the machinery is warm (call_rcu's worker thread started, the threads'
 * arenas created), frees 10^5 blocks through rculist_free_rcu(), calls
 * rculist_rcu_barrier() and requires the count back within LEAK_SLACK of
 * where it was; chunks that sit in a thread's tcache count as allocated,
 * which the slack covers.  leak_check_sees_a_leak shows that the check
 * fails when blocks are not freed.
 */
#include <malloc.h>
#include <sys/wait.h>
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#include <unistd.h>

#include "conc.h"
#include "forks.h"
#include "../torture/limit_run.h"

TestSuite(reclaim, .timeout = 30);

#define CANARY	   0x5ca1ab1ec0ffee00UL
#define LEAK_SLACK (32 * 1024L)
#define NBLOCKS	   100000
#define ROUND	   1000

/* The rcu_head first ... */
struct blk_head_first {
	struct rcu_head rcu;
	unsigned long canary;
	char data[64];
};

/* ... and at a non-zero offset, between other fields. */
struct blk_head_inside {
	unsigned long canary;
	char data[40];
	struct rcu_head rcu;
	char tail[24];
};

/*
 * Whether glibc's allocator serves malloc(): valgrind and ASan replace
 * it, and mallinfo2() then weighs nothing.  A test that needs the weight
 * to move (require_glibc_heap()) skips itself there; their own leak
 * checks cover the same frees.
 */
static int heap_is_glibcs(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return 0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return 0;
#endif
#endif
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
	if (RUNNING_ON_VALGRIND)
		return 0;
#endif
#endif
	return 1;
}

static void require_glibc_heap(void)
{
	if (!heap_is_glibcs())
		cr_skip_test("mallinfo2() cannot weigh the heap: glibc's "
			     "allocator is replaced (valgrind, ASan)");
}

static long in_use(void)
{
	return (long)mallinfo2().uordblks;
}

static void *blk_alloc(size_t size)
{
	unsigned long *p = malloc(size);

	cr_assert_not_null(p);
	memset(p, 0x11, size);
	return p;
}

/* Queue @n blocks of each layout for rculist_free_rcu(). */
static void free_rcu_blocks(long n)
{
	struct blk_head_first *a;
	struct blk_head_inside *b;
	long i;

	for (i = 0; i < n; i++) {
		a = blk_alloc(sizeof(*a));
		a->canary = CANARY;
		rculist_free_rcu(a, rcu);
		b = blk_alloc(sizeof(*b));
		b->canary = CANARY;
		rculist_free_rcu(b, rcu);
	}
}

/* Start call_rcu's worker and settle malloc's caches before a baseline. */
static long warm_baseline(void)
{
	free_rcu_blocks(ROUND);
	rculist_rcu_barrier();
	return in_use();
}

static void check_no_leak(long baseline, const char *what)
{
	long delta;

	rculist_rcu_barrier();
	delta = in_use() - baseline;
	cr_log_info("%s: %ld bytes above the baseline after the barrier", what,
		    delta);
	cr_assert_leq(delta, LEAK_SLACK,
		      "%s: %ld bytes still allocated after rculist_rcu_barrier()",
		      what, delta);
}

Test(reclaim, offsetof_rcu_head_is_what_the_test_means)
{
	cr_assert_eq(offsetof(struct blk_head_first, rcu), 0);
	cr_assert_gt(offsetof(struct blk_head_inside, rcu), 0);
}

/* 10^5 blocks of each layout, freed after grace periods: none is left. */
Test(reclaim, free_rcu_frees_every_block)
{
	long baseline = warm_baseline(), peak = 0, i;

	require_glibc_heap();
	for (i = 0; i < NBLOCKS / ROUND; i++) {
		free_rcu_blocks(ROUND);
		if (in_use() - baseline > peak)
			peak = in_use() - baseline;
	}
	/* The count does see the blocks while they wait. */
	cr_assert_gt(peak, LEAK_SLACK, "peak %ld bytes", peak);
	check_no_leak(baseline, "10^5 x 2 blocks");
}

/*
 * The checker itself: keep ROUND of the blocks instead of freeing them,
 * and check_no_leak()'s condition must fail by about their size.
 */
Test(reclaim, leak_check_sees_a_leak)
{
	static struct blk_head_inside *kept[ROUND];
	long baseline = warm_baseline(), delta, i;

	require_glibc_heap();
	free_rcu_blocks(NBLOCKS / 10);
	for (i = 0; i < ROUND; i++)
		kept[i] = blk_alloc(sizeof(*kept[i]));
	free_rcu_blocks(NBLOCKS / 10);
	rculist_rcu_barrier();
	delta = in_use() - baseline;
	cr_log_info("%d blocks kept: %ld bytes above the baseline", ROUND, delta);
	cr_assert_gt(delta, LEAK_SLACK, "a leak of %d blocks went unseen: %ld",
		     ROUND, delta);
	cr_assert_geq(delta, (long)(ROUND * sizeof(*kept[0])),
		      "%ld bytes for %d blocks of %zu", delta, ROUND,
		      sizeof(*kept[0]));
	for (i = 0; i < ROUND; i++)
		rculist_free_rcu(kept[i], rcu);
	check_no_leak(baseline, "after freeing the kept blocks");
}

/* Several threads queue frees at once. */
#define NTHREADS 4

static void *free_rcu_thread(void *arg)
{
	free_rcu_blocks((long)(intptr_t)arg);
	return NULL;
}

static void run_threads(long blocks_each)
{
	pthread_t tid[NTHREADS];
	int i;

	for (i = 0; i < NTHREADS; i++)
		cr_assert_eq(pthread_create(&tid[i], NULL, free_rcu_thread,
					    (void *)(intptr_t)blocks_each),
			     0);
	for (i = 0; i < NTHREADS; i++)
		cr_assert_eq(pthread_join(tid[i], NULL), 0);
}

Test(reclaim, free_rcu_from_several_threads)
{
	long baseline;

	/* The first run creates the threads' arenas; measure the second. */
	run_threads(ROUND);
	rculist_rcu_barrier();
	baseline = in_use();
	run_threads(NBLOCKS / NTHREADS / 2);
	check_no_leak(baseline, "4 threads");
}

/*
 * A reader holds a block across rculist_free_rcu(): the block is not
 * freed while the reader's section lasts (its contents stay intact and
 * it is still counted), and is freed after.
 */
#define BIG (64 * 1024)

static struct {
	unsigned char *block;
	int stage; /* 1: reader in its section; 2: may leave */
	int intact;
} hold;

static int block_intact(const unsigned char *b)
{
	size_t i;

	for (i = 0; i < BIG; i++)
		if (b[i] != 0x5a)
			return 0;
	return 1;
}

static void *holding_reader(void *arg)
{
	(void)arg;
	rculist_register_thread();
	rculist_read_lock();
	__atomic_store_n(&hold.stage, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&hold.stage, __ATOMIC_ACQUIRE) != 2)
		usleep(1000);
	hold.intact = block_intact(hold.block);
	rculist_read_unlock();
	rculist_quiescent_state();
	rculist_unregister_thread();
	return NULL;
}

struct big_blk {
	struct rcu_head rcu;
	unsigned char data[BIG];
};

Test(reclaim, free_rcu_waits_for_a_reader)
{
	struct big_blk *b;
	pthread_t tid;
	long baseline = warm_baseline();

	require_glibc_heap();
	b = blk_alloc(sizeof(*b));
	memset(b->data, 0x5a, BIG);
	hold.block = b->data;
	cr_assert_eq(pthread_create(&tid, NULL, holding_reader, NULL), 0);
	while (!__atomic_load_n(&hold.stage, __ATOMIC_ACQUIRE))
		usleep(1000);

	rculist_free_rcu(b, rcu);
	usleep(50 * 1000);
	cr_assert_geq(in_use() - baseline, BIG,
		      "the block was freed while a reader held it");
	__atomic_store_n(&hold.stage, 2, __ATOMIC_RELEASE);
	cr_assert_eq(pthread_join(tid, NULL), 0);
	cr_assert(hold.intact, "the reader saw its block overwritten");
	check_no_leak(baseline, "big block");
}

/* rculist_free_rcu() inside a read-side critical section. */
static void *free_inside_section(void *arg)
{
	(void)arg;
	rculist_register_thread();
	rculist_read_lock();
	free_rcu_blocks(NBLOCKS / 10);
	rculist_read_unlock();
	rculist_quiescent_state();
	rculist_unregister_thread();
	return NULL;
}

Test(reclaim, free_rcu_inside_a_read_side_section)
{
	pthread_t tid;
	long baseline = warm_baseline();

	cr_assert_eq(pthread_create(&tid, NULL, free_inside_section, NULL), 0);
	cr_assert_eq(pthread_join(tid, NULL), 0);
	check_no_leak(baseline, "inside a section");
}

/*
 * A barrier that starts while a batch waits for its grace period: the
 * flavour's barrier callback then runs just before the next batch's, and
 * rculist_rcu_barrier() must still wait until that batch's blocks are
 * freed, not only until its callback has started.
 */
static int barrier_started;

static void *reader_until_barrier(void *arg)
{
	(void)arg;
	rculist_register_thread();
	rculist_read_lock();
	__atomic_store_n(&hold.stage, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&barrier_started, __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(20 * 1000); /* the barrier queues its callback meanwhile */
	rculist_read_unlock();
	rculist_quiescent_state();
	rculist_unregister_thread();
	return NULL;
}

Test(reclaim, rcu_barrier_waits_for_a_batch_being_freed)
{
	pthread_t tid;
	long baseline = warm_baseline();

	cr_assert_eq(pthread_create(&tid, NULL, reader_until_barrier, NULL), 0);
	while (!__atomic_load_n(&hold.stage, __ATOMIC_ACQUIRE))
		usleep(1000);
	/*
	 * One batch in flight, held up by the reader; the rest wait, many
	 * enough that freeing them takes milliseconds.
	 */
	free_rcu_blocks(NBLOCKS);
	__atomic_store_n(&barrier_started, 1, __ATOMIC_RELEASE);
	check_no_leak(baseline, "barrier during a grace period");
	cr_assert_eq(pthread_join(tid, NULL), 0);
}

/*
 * rculist_rcu_barrier() waits for every callback queued before it, by
 * any thread, slow ones included, and for rculist_free_rcu() blocks
 * queued among them.
 */
#define NCALLS 5000

struct counted {
	struct rcu_head rcu;
	long slow;
};

static unsigned long callbacks_run;

static void count_and_free(struct rcu_head *head)
{
	struct counted *c = (struct counted *)(void *)head;

	if (c->slow)
		usleep(2000);
	free(c);
	__atomic_fetch_add(&callbacks_run, 1, __ATOMIC_RELAXED);
}

static void *queue_callbacks(void *arg)
{
	struct counted *c;
	long i;

	(void)arg;
	for (i = 0; i < NCALLS; i++) {
		c = blk_alloc(sizeof(*c));
		c->slow = i == NCALLS - 1;
		rculist_call_rcu(&c->rcu, count_and_free);
		if (i % 8 == 0)
			free_rcu_blocks(1);
	}
	return NULL;
}

Test(reclaim, rcu_barrier_runs_every_callback)
{
	pthread_t tid[2];
	long baseline = warm_baseline();
	int i;

	for (i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&tid[i], NULL, queue_callbacks, NULL),
			     0);
	for (i = 0; i < 2; i++)
		cr_assert_eq(pthread_join(tid[i], NULL), 0);
	rculist_rcu_barrier();
	cr_assert_eq(__atomic_load_n(&callbacks_run, __ATOMIC_RELAXED),
		     2 * NCALLS, "%lu of %d callbacks run", callbacks_run,
		     2 * NCALLS);
	check_no_leak(baseline, "callbacks and frees");
}

/*
 * ------------------------------------------------------------------
 * Per-thread batches (core/reclaim.c): each thread's blocks wait in its
 * own open batch, then in batch slots handed to call_rcu.
 */
static struct rculist__reclaim_stats reclaim_stats(void)
{
	struct rculist__reclaim_stats st;

	rculist__reclaim_get_stats(&st, 0);
	return st;
}

/* Free @n small blocks through rculist_free_rcu(). */
static void free_rcu_small(long n)
{
	struct blk_head_first *a;
	long i;

	for (i = 0; i < n; i++) {
		a = blk_alloc(sizeof(*a));
		a->canary = CANARY;
		rculist_free_rcu(a, rcu);
	}
}

/* Wait, within @ms milliseconds, until @cond() holds; returns it. */
static int wait_until(int (*cond)(void), long ms)
{
	const struct timespec tick = { 0, 1000000 };
	long i;

	for (i = 0; i < ms && !cond(); i++)
		nanosleep(&tick, NULL);
	return cond();
}

/*
 * A reader holds a block while its updater frees it and then enough
 * others for several batches to be handed off and their slots reused:
 * the held block survives every hand-off until the reader leaves.
 */
struct held {
	unsigned long magic;
	long key;
	struct rcu_head rcu;
	unsigned char data[BIG];
};

#define HELD_MAGIC 0x4e1dUL

static struct {
	struct held *block; /* what the reader reads */
	int stage;	    /* 1: reader holds it; 2: may leave */
	int intact, timed_out;
} across;

static int held_intact(const struct held *h)
{
	size_t i;

	if (h->magic != HELD_MAGIC || h->key != 42)
		return 0;
	for (i = 0; i < BIG; i++)
		if (h->data[i] != 0x5a)
			return 0;
	return 1;
}

static int across_may_leave(void)
{
	return __atomic_load_n(&across.stage, __ATOMIC_ACQUIRE) == 2;
}

static int across_holding(void)
{
	return __atomic_load_n(&across.stage, __ATOMIC_ACQUIRE) >= 1;
}

static void *reader_across_hand_offs(void *arg)
{
	struct held *h;

	(void)arg;
	rculist_register_thread();
	rculist_read_lock();
	h = rculist__deref(across.block);
	__atomic_store_n(&across.stage, 1, __ATOMIC_RELEASE);
	across.timed_out = !wait_until(across_may_leave, 10000);
	across.intact = held_intact(h);
	rculist_read_unlock();
	rculist_quiescent_state();
	rculist_unregister_thread();
	return NULL;
}

Test(reclaim, free_rcu_block_survives_later_hand_offs)
{
	struct rculist__reclaim_stats st = reclaim_stats();
	long baseline = warm_baseline();
	struct held *h = blk_alloc(sizeof(*h));
	pthread_t tid;

	require_glibc_heap();
	h->magic = HELD_MAGIC;
	h->key = 42;
	memset(h->data, 0x5a, BIG);
	rculist__publish(across.block, h);
	cr_assert_eq(pthread_create(&tid, NULL, reader_across_hand_offs, NULL),
		     0);
	cr_assert(wait_until(across_holding, 10000), "the reader never started");

	/* Unpublish, free it, then 4 batches more: 3 hand-offs at least. */
	rculist__publish(across.block, NULL);
	rculist_free_rcu(h, rcu);
	free_rcu_small(4 * (long)st.batch);
	cr_assert_geq(in_use() - baseline, BIG,
		      "the held block was freed while its reader held it");

	__atomic_store_n(&across.stage, 2, __ATOMIC_RELEASE);
	cr_assert_eq(pthread_join(tid, NULL), 0);
	cr_assert_not(across.timed_out);
	cr_assert(across.intact, "the reader saw its block freed or overwritten");
	check_no_leak(baseline, "held block and 4 batches");
}

/*
 * Two updaters replace elements of a shared list flat out and retire the
 * old ones (rculist_free_rcu() and rculist_call_rcu() in turn); two
 * readers walk it and check every element they reach: its magic, its key
 * and payload, and that they do not change while held (free() writes
 * glibc's own links over the first words, a reused block gets a new
 * key).  The run of tests/torture/limit_run.h, with no limit and its
 * stalled reader let go at once; the list is checked whole at the end.
 */
Test(reclaim, concurrent_updaters_free_while_readers_check, .timeout = 60)
{
	long baseline = warm_baseline();
	struct lr_result r;
	char why[256];

	cr_assert_eq(lr_run(0, 0.0, 0, 1.0, &r), 0);
	cr_log_info("%lu retired, %lu walks", r.retired, r.walks);
	cr_assert_not(lr_verdict(&r, 0, 0, why, sizeof(why)), "%s", why);
	cr_assert_gt(r.retired, 1000);
	check_no_leak(baseline, "2 updaters for 1 s");
}

/*
 * rculist_rcu_barrier() frees the blocks waiting in another thread's
 * batch: a thread frees a batch less one block (the first handed off at
 * once if nothing of its is in flight, the others left open), and idles; the barrier, from this thread, must
 * have freed every one of them when it returns.  Repeated, as the
 * library's own sweep of an idle thread's batch frees them too, some
 * grace periods later.
 */
#define OTHER_ROUNDS 30

static struct {
	int round; /* set by the test: free one round */
	int done;  /* set by the thread: round freed */
	long per_round;
} other;

static int other_round_done(void)
{
	return __atomic_load_n(&other.done, __ATOMIC_ACQUIRE) ==
	       __atomic_load_n(&other.round, __ATOMIC_RELAXED);
}

static int other_round_started(void)
{
	return __atomic_load_n(&other.round, __ATOMIC_ACQUIRE) >
	       __atomic_load_n(&other.done, __ATOMIC_RELAXED);
}

static void *other_batch_thread(void *arg)
{
	int r;

	(void)arg;
	for (r = 1; r <= OTHER_ROUNDS; r++) {
		if (!wait_until(other_round_started, 10000))
			break;
		free_rcu_small(other.per_round);
		__atomic_store_n(&other.done, r, __ATOMIC_RELEASE);
	}
	return NULL;
}

Test(reclaim, rcu_barrier_frees_another_threads_batch)
{
	long baseline = warm_baseline();
	unsigned long before, after;
	pthread_t tid;
	int r;

	other.per_round = (long)reclaim_stats().batch - 1;
	cr_assert_eq(pthread_create(&tid, NULL, other_batch_thread, NULL), 0);
	for (r = 1; r <= OTHER_ROUNDS; r++) {
		before = reclaim_stats().freed;
		__atomic_store_n(&other.round, r, __ATOMIC_RELEASE);
		cr_assert(wait_until(other_round_done, 10000), "round %d", r);
		rculist_rcu_barrier();
		after = reclaim_stats().freed;
		cr_assert_eq(after - before, (unsigned long)other.per_round,
			     "round %d: the barrier returned with %ld of %ld blocks "
			     "of another thread not freed",
			     r, other.per_round - (long)(after - before),
			     other.per_round);
	}
	cr_assert_eq(pthread_join(tid, NULL), 0);
	check_no_leak(baseline, "another thread's batches");
}

/*
 * A thread that exits with blocks in its open batch hands them off: they
 * are freed without a barrier (the thread's state is swept once nothing
 * of it is in flight), and the barrier finds nothing left.
 */
static long exit_blocks;

static void *free_then_exit(void *arg)
{
	(void)arg;
	free_rcu_small(exit_blocks);
	return NULL;
}

static unsigned long exit_target;

static int exit_blocks_freed(void)
{
	return reclaim_stats().freed >= exit_target;
}

Test(reclaim, thread_exit_hands_off_its_open_batch)
{
	long baseline = warm_baseline();
	pthread_t tid;
	int i;

	/* One block handed off at once, the others left in the open batch. */
	exit_blocks = (long)reclaim_stats().batch / 2;
	for (i = 0; i < 5; i++) {
		exit_target = reclaim_stats().freed + (unsigned long)exit_blocks;
		cr_assert_eq(pthread_create(&tid, NULL, free_then_exit, NULL), 0);
		cr_assert_eq(pthread_join(tid, NULL), 0);
		cr_assert(wait_until(exit_blocks_freed, 10000),
			  "exit %d: %lu of %ld blocks of an exited thread freed",
			  i,
			  reclaim_stats().freed -
				  (exit_target - (unsigned long)exit_blocks),
			  exit_blocks);
	}
	check_no_leak(baseline, "exited threads");
}

/*
 * fork() while other threads make their first rculist_free_rcu() calls
 * (each a new thread, so each takes the registry lock for a state) and
 * hand batches to call_rcu: the child can free and run a barrier, and
 * neither side deadlocks (core/fork.c holds the flavour's locks, then
 * the registry lock, and rculist holds no lock across a liburcu call).
 */
#define FORKS_PER     5	 /* one fork per five of test_forks(): 200 at most */
#define FORKS_VG      20 /* under memcheck: each child takes about 1 s */
#define FORK_SPAWNERS 2

static int fork_stop;

static void *first_free_then_exit(void *arg)
{
	(void)arg;
	free_rcu_small(3);
	return NULL;
}

static void *spawn_first_freers(void *arg)
{
	pthread_t tid;

	(void)arg;
	while (!__atomic_load_n(&fork_stop, __ATOMIC_ACQUIRE)) {
		if (pthread_create(&tid, NULL, first_free_then_exit, NULL))
			continue;
		pthread_join(tid, NULL);
	}
	return NULL;
}

Test(reclaim, fork_during_first_frees, .timeout = 120)
{
	pthread_t tid[FORK_SPAWNERS];
	long baseline = warm_baseline();
	int i, status, bad = 0, last = 0;
	int forks = heap_is_glibcs() ? test_forks() / FORKS_PER : FORKS_VG;
	pid_t pid;

	for (i = 0; i < FORK_SPAWNERS; i++)
		cr_assert_eq(pthread_create(&tid[i], NULL, spawn_first_freers,
					    NULL),
			     0);
	for (i = 0; i < forks; i++) {
		pid = fork();
		cr_assert_neq(pid, -1);
		if (!pid) {
			/*
			 * The child: free, wait for its blocks, exit 0; 10 s
			 * at most.  (A batch that another thread was handing
			 * off at the fork is lost to the child: not counted.)
			 */
			unsigned long before = reclaim_stats().freed;
			long n = 2 * (long)reclaim_stats().batch;

			alarm(10);
			free_rcu_small(n);
			rculist_rcu_barrier();
			_exit(reclaim_stats().freed - before >= (unsigned long)n ?
				      0 :
				      3);
		}
		cr_assert_eq(waitpid(pid, &status, 0), pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			bad++;
			last = status;
		}
	}
	__atomic_store_n(&fork_stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < FORK_SPAWNERS; i++)
		cr_assert_eq(pthread_join(tid[i], NULL), 0);
	cr_assert_eq(bad, 0, "%d of %d children failed (last status %#x)", bad,
		     forks, last);
	check_no_leak(baseline, "threads that freed across forks");
}

/*
 * A thread that queues blocks and then goes idle, neither freeing again
 * nor exiting, with no barrier anywhere: its open batch is still sent
 * and freed within a bound (the last callback of its state sends a probe
 * round; the probe finds no hand-off and sweeps the open batch).  The
 * bound is generous (IDLE_BOUND_MS): the sweep takes a few grace periods
 * and liburcu's call_rcu thread sleeps 10 ms between batches.
 */
#define IDLE_BOUND_MS 10000
#define IDLE_ROUNDS   3

static struct {
	long blocks;
	int queued, leave;
} idle;

static int idle_queued(void)
{
	return __atomic_load_n(&idle.queued, __ATOMIC_ACQUIRE);
}

static int idle_may_leave(void)
{
	return __atomic_load_n(&idle.leave, __ATOMIC_ACQUIRE);
}

static void *queue_then_idle(void *arg)
{
	(void)arg;
	free_rcu_small(idle.blocks);
	__atomic_store_n(&idle.queued, 1, __ATOMIC_RELEASE);
	/* Idle: no rculist call until told to leave. */
	while (!wait_until(idle_may_leave, 1000))
		;
	return NULL;
}

static unsigned long idle_target;

static int idle_blocks_freed(void)
{
	return reclaim_stats().freed >= idle_target;
}

Test(reclaim, idle_threads_open_batch_freed_without_a_barrier)
{
	long baseline = warm_baseline();
	unsigned long before;
	pthread_t tid;
	int r;

	/* One block handed off at once, the rest left in the open batch. */
	idle.blocks = (long)reclaim_stats().batch / 2;
	for (r = 0; r < IDLE_ROUNDS; r++) {
		idle.queued = idle.leave = 0;
		before = reclaim_stats().freed;
		idle_target = before + (unsigned long)idle.blocks;
		cr_assert_eq(pthread_create(&tid, NULL, queue_then_idle, NULL),
			     0);
		cr_assert(wait_until(idle_queued, IDLE_BOUND_MS),
			  "round %d: no progress: the thread did not queue its "
			  "blocks within %d ms",
			  r, IDLE_BOUND_MS);
		cr_assert(wait_until(idle_blocks_freed, IDLE_BOUND_MS),
			  "round %d: no progress: %lu of %ld blocks of an idle "
			  "thread freed after %d ms, no barrier called",
			  r, reclaim_stats().freed - before, idle.blocks,
			  IDLE_BOUND_MS);
		__atomic_store_n(&idle.leave, 1, __ATOMIC_RELEASE);
		cr_assert_eq(pthread_join(tid, NULL), 0);
	}
	check_no_leak(baseline, "idle threads");
}

/*
 * rculist_rcu_barrier() against a thread that frees flat out (a hand-off
 * every batch, each freeing the thread's DONE slots, racing the
 * barrier's own claims; every other barrier with spilled batches, freed
 * by their callbacks, see rculist__reclaim_set_spill(); every other pair
 * of barriers with no polled slot, rculist__reclaim_set_local()): every
 * block it had queued when the barrier was called is freed when it
 * returns.  (Two such threads on 2 CPUs made each barrier take 200 ms
 * and caught the planted early return less often than one.)  Each
 * thread counts its calls that returned; the library counts the blocks
 * freed (rculist__reclaim_get_stats(), after each batch's frees), and
 * only these threads queue meanwhile.
 */
#define FLAT_BARRIERS 300
#define FLAT_SECONDS  8 /* fewer barriers if they take longer */
#define FLAT_THREADS  1

static struct {
	unsigned long returned[FLAT_THREADS];
	int stop;
} flat;

static void *free_flat_out(void *arg)
{
	unsigned long *returned = arg;
	struct blk_head_first *a;

	while (!__atomic_load_n(&flat.stop, __ATOMIC_ACQUIRE)) {
		a = malloc(sizeof(*a));
		if (!a)
			abort();
		a->canary = CANARY;
		rculist_free_rcu(a, rcu);
		__atomic_store_n(returned, *returned + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

Test(reclaim, rcu_barrier_frees_every_block_queued_before_it, .timeout = 60)
{
	long baseline = warm_baseline();
	unsigned long base, queued, freed;
	pthread_t tid[FLAT_THREADS];
	struct timespec t0, t1;
	int i, t, early = 0;
	unsigned long spill = rculist__reclaim_set_spill(0);
	unsigned long local = rculist__reclaim_set_local(0);

	base = reclaim_stats().freed;
	for (t = 0; t < FLAT_THREADS; t++)
		cr_assert_eq(pthread_create(&tid[t], NULL, free_flat_out,
					    &flat.returned[t]),
			     0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < FLAT_BARRIERS; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (t1.tv_sec - t0.tv_sec >= FLAT_SECONDS)
			break;
		/*
		 * Every other barrier with no batch spilled: the thread then
		 * frees all its DONE batches itself, racing the barrier's
		 * claims (spilled, the callbacks free most of them).
		 */
		rculist__reclaim_set_spill(i % 2 ? spill : 0);
		/*
		 * Every other pair with no polled slot: every batch goes
		 * through call_rcu and its DONE slots; with them, the
		 * barrier races the thread's filling of polled slots.
		 */
		rculist__reclaim_set_local(i % 4 < 2 ? 0 : local);
		queued = 0;
		for (t = 0; t < FLAT_THREADS; t++)
			queued += __atomic_load_n(&flat.returned[t],
						  __ATOMIC_ACQUIRE);
		rculist_rcu_barrier();
		freed = reclaim_stats().freed - base;
		if (freed < queued) {
			cr_log_error("barrier %d returned with %lu of the %lu "
				     "blocks queued before it not freed",
				     i, queued - freed, queued);
			early++;
		}
	}
	__atomic_store_n(&flat.stop, 1, __ATOMIC_RELEASE);
	for (t = 0; t < FLAT_THREADS; t++)
		cr_assert_eq(pthread_join(tid[t], NULL), 0);
	rculist__reclaim_set_spill(spill);
	rculist__reclaim_set_local(local);
	cr_log_info("%d barriers", i);
	cr_assert_eq(early, 0,
		     "%d of %d barriers returned before a block queued before "
		     "them was freed",
		     early, i);
	check_no_leak(baseline, "a thread freeing flat out");
}
