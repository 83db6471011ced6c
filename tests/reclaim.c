// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/reclaim.c - rculist_free_rcu(), rculist_call_rcu() and
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
#include <unistd.h>

#include "conc.h"

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
