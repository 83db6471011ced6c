// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/reclaim.c - rculist_free_rcu() and rculist_rcu_barrier().
 *
 * liburcu's call_rcu() uses both words of a struct rcu_head, so the
 * offset of the rcu_head in the block to free cannot travel with it.
 * Instead, blocks wait in batches: a block queued by rculist_free_rcu()
 * reuses its own rcu_head as {link, offset} in the open batch.  One batch
 * at a time is in flight: its first block's rcu_head carries it through
 * rculist_call_rcu(), the rest of its blocks and the carrier's offset
 * are kept here.  When a batch's grace period ends its blocks are freed
 * and the open batch, if any, is sent; so the blocks of a batch were all
 * queued before its grace period began, and a flood of frees costs one
 * grace period per batch rather than one callback per block.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include <rculist.h>

#include "internal.h"

/* A queued block's rcu_head, reused while the block waits. */
struct pending {
	struct pending *next;
	size_t offset;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct pending *open_batch;  /* queued, not yet sent (LIFO) */
static struct pending *flight_rest; /* in flight, but for the carrier */
static size_t flight_carrier_offset;
static int in_flight;

static void *block_of(void *head, size_t offset)
{
	return (char *)head - offset;
}

static void free_batch(struct rcu_head *carrier);

/* Send the open batch on its grace period.  Called with the lock held. */
static void send_open_batch(void)
{
	struct pending *carrier = open_batch;

	open_batch = NULL;
	flight_rest = carrier->next;
	flight_carrier_offset = carrier->offset;
	in_flight = 1;
	rculist_call_rcu((struct rcu_head *)(void *)carrier, free_batch);
}

static void free_batch(struct rcu_head *carrier)
{
	struct pending *rest, *next;
	size_t carrier_offset;

	pthread_mutex_lock(&lock);
	rest = flight_rest;
	carrier_offset = flight_carrier_offset;
	flight_rest = NULL;
	pthread_mutex_unlock(&lock);

	free(block_of(carrier, carrier_offset));
	for (; rest; rest = next) {
		next = rest->next;
		free(block_of(rest, rest->offset));
	}

	/*
	 * The batch counts as in flight until its blocks are freed:
	 * rculist_rcu_barrier() may look as soon as the flavour's barrier
	 * callback, queued just before this one, has run.
	 */
	pthread_mutex_lock(&lock);
	in_flight = 0;
	if (open_batch)
		send_open_batch();
	pthread_mutex_unlock(&lock);
}

void rculist__free_rcu(struct rcu_head *head, size_t offset)
{
	struct pending *p = (struct pending *)(void *)head;

	p->offset = offset;
	pthread_mutex_lock(&lock);
	p->next = open_batch;
	open_batch = p;
	if (!in_flight)
		send_open_batch();
	pthread_mutex_unlock(&lock);
}

void rculist_rcu_barrier(void)
{
	int idle;

	/*
	 * A batch callback may send the next batch: wait until nothing is
	 * queued or in flight after the flavour's barrier returns.
	 */
	do {
		rculist__flavor_barrier();
		pthread_mutex_lock(&lock);
		idle = !in_flight && !open_batch;
		pthread_mutex_unlock(&lock);
	} while (!idle);
}

/*
 * fork(): the child must not inherit the lock held by a thread that did
 * not follow it.  Taken after the flavour has paused its call_rcu threads
 * (so no batch callback holds or waits for it), released in both.
 */
void rculist__reclaim_before_fork(void)
{
	pthread_mutex_lock(&lock);
}

void rculist__reclaim_after_fork(void)
{
	pthread_mutex_unlock(&lock);
}
