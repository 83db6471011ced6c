// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * route_table - one source, three programs: link it with -lrculist-memb,
 * -lrculist-qsbr or -lrculist-bp and it runs unchanged.
 *
 * Reader threads look up destinations in a routing table (longest
 * prefix match over a list kept most-specific first) while a writer
 * reloads the table again and again: each reload replaces every route
 * with a fresh copy carrying the new generation, and adds or drops one
 * extra route.  Old routes are freed after a grace period.  A reader
 * checks each route it meets against the checksum the writer stored in
 * it: a route freed too early, or half-initialised, would fail it.
 *
 * The program is written against the flavour-neutral calls: it
 * registers its readers, brackets lookups with rculist_read_lock/unlock
 * and announces quiescent states between them, which is all that memb
 * and bp need, and what qsbr requires.
 *
 *   usage: route_table [readers [reloads]]
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <rculist.h>

struct route {
	uint32_t prefix;  /* network byte order not needed here */
	unsigned int len; /* prefix length, 0..32 */
	uint32_t nexthop;
	unsigned long generation;
	uint32_t check; /* prefix ^ len ^ nexthop ^ generation */
	struct cds_list_head link;
	struct rcu_head rcu;
};

#define NROUTES 16

static CDS_LIST_HEAD(routes); /* most specific first */
static pthread_mutex_t routes_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int stop, ready;

static uint32_t route_check(const struct route *r)
{
	return r->prefix ^ r->len ^ r->nexthop ^ (uint32_t)r->generation;
}

static struct route *route_new(uint32_t prefix, unsigned int len,
			       unsigned long generation)
{
	struct route *r = malloc(sizeof(*r));

	if (!r)
		abort();
	r->prefix = prefix;
	r->len = len;
	r->nexthop = (uint32_t)(0x0a000000u + generation * 256 + len);
	r->generation = generation;
	r->check = route_check(r);
	return r;
}

static uint32_t mask_of(unsigned int len)
{
	return len ? ~(uint32_t)0 << (32 - len) : 0;
}

/* Insert @r before the first route less specific than it (writer). */
static void route_insert(struct route *r)
{
	struct route *pos;

	cds_list_for_each_entry(pos, &routes, link)
		if (pos->len < r->len)
			break;
	/* Adding before pos == adding after pos's predecessor. */
	cds_list_add_rcu(&r->link, pos->link.prev);
}

/*
 * Reload: replace every route by a copy of the new generation, then add
 * or drop the extra /28.  Readers see each route old or new, never
 * neither, and never a freed one.
 */
static void reload(unsigned long generation)
{
	struct route *r, *tmp, *fresh;
	uint32_t extra = 0xc0a80110; /* 192.168.1.16/28 */

	pthread_mutex_lock(&routes_lock);
	cds_list_for_each_entry_safe(r, tmp, &routes, link) {
		fresh = route_new(r->prefix, r->len, generation);
		cds_list_replace_rcu(&r->link, &fresh->link);
		rculist_free_rcu(r, rcu);
	}
	if (generation % 2) {
		route_insert(route_new(extra, 28, generation));
	} else {
		cds_list_for_each_entry(r, &routes, link) {
			if (r->prefix == extra && r->len == 28) {
				cds_list_del_rcu(&r->link);
				rculist_free_rcu(r, rcu);
				break;
			}
		}
	}
	pthread_mutex_unlock(&routes_lock);
}

struct reader_stats {
	unsigned long lookups, misses, bad;
};

/* Longest prefix match for @dst: the first route that covers it. */
static int lookup(uint32_t dst, uint32_t *nexthop, unsigned long *bad)
{
	struct route *r;
	int found = 0;

	rculist_read_lock();
	cds_list_for_each_entry_rcu(r, &routes, link) {
		if (r->check != route_check(r))
			++*bad;
		if ((dst & mask_of(r->len)) == r->prefix) {
			*nexthop = r->nexthop;
			found = 1;
			break;
		}
	}
	rculist_read_unlock();
	return found;
}

static void *reader(void *arg)
{
	struct reader_stats *st = arg;
	uint32_t dst = 0x12345678, nexthop;

	rculist_register_thread();
	atomic_fetch_add(&ready, 1);
	while (!stop) {
		dst = dst * 1103515245u + 12345u;
		if (!lookup(dst, &nexthop, &st->bad))
			st->misses++;
		st->lookups++;
		rculist_quiescent_state();
	}
	rculist_unregister_thread();
	return NULL;
}

int main(int argc, char **argv)
{
	int nreaders = argc > 1 ? atoi(argv[1]) : 2;
	unsigned long reloads = argc > 2 ? strtoul(argv[2], NULL, 0) : 200;
	struct reader_stats *stats;
	pthread_t *tids;
	unsigned long gen, lookups = 0, misses = 0, bad = 0;
	struct route *r, *tmp;
	uint32_t nexthop = 0;
	int i;

	if (nreaders < 1)
		nreaders = 1;
	stats = calloc((size_t)nreaders, sizeof(*stats));
	tids = calloc((size_t)nreaders, sizeof(*tids));
	if (!stats || !tids)
		return 1;

	/* 10.i.0.0/16 for i < NROUTES - 2, 192.168.0.0/16, and a default. */
	pthread_mutex_lock(&routes_lock);
	for (i = 0; i < NROUTES - 2; i++)
		route_insert(route_new(0x0a000000u | (uint32_t)i << 16, 16, 0));
	route_insert(route_new(0xc0a80000u, 16, 0));
	route_insert(route_new(0, 0, 0));
	pthread_mutex_unlock(&routes_lock);

	for (i = 0; i < nreaders; i++)
		pthread_create(&tids[i], NULL, reader, &stats[i]);
	while (atomic_load(&ready) < nreaders)
		sched_yield(); /* reload under the readers' feet */
	for (gen = 1; gen <= reloads; gen++)
		reload(gen);
	stop = 1;
	for (i = 0; i < nreaders; i++) {
		pthread_join(tids[i], NULL);
		lookups += stats[i].lookups;
		misses += stats[i].misses;
		bad += stats[i].bad;
	}

	/* The final table: a lookup of 192.168.1.20 finds the right route. */
	rculist_register_thread();
	lookup(0xc0a80114, &nexthop, &bad);
	rculist_unregister_thread();

	pthread_mutex_lock(&routes_lock);
	cds_list_for_each_entry_safe(r, tmp, &routes, link) {
		cds_list_del_rcu(&r->link);
		rculist_free_rcu(r, rcu);
	}
	pthread_mutex_unlock(&routes_lock);
	rculist_rcu_barrier();

	printf("route_table [%s]: %d readers, %lu lookups (%lu misses), "
	       "%lu reloads, 192.168.1.20 via %u.%u.%u.%u, %lu bad routes seen\n",
	       rculist_flavor_name(), nreaders, lookups, misses, reloads,
	       nexthop >> 24, nexthop >> 16 & 255, nexthop >> 8 & 255,
	       nexthop & 255, bad);
	free(stats);
	free(tids);
	/* Misses are impossible: the default route covers everything. */
	return bad || misses ? 1 : 0;
}
