// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libplugin - a shared library that embeds rculist, loaded into hosts it
 * knows nothing about.
 *
 * The registry is an RCU list.  Its readers are threads the plugin starts
 * itself and, for a bp plugin, whatever threads the host calls
 * plugin_lookup() from and the plugin's own SIGUSR1 handler, which may
 * interrupt a lookup in progress.  Under bp no reader ever registers:
 * only that flavour allows it.  Built for memb or qsbr, the plugin's
 * readers register (and, qsbr, announce quiescent states), as those
 * flavours require.  Updates are serialised by a mutex no reader takes;
 * removed entries are retired after a grace period, through
 * rculist_call_rcu() (a callback that poisons and frees them) or
 * rculist_free_rcu().  Readers check every entry they reach: a retired
 * entry read too early is "poisoned" (magic overwritten by the callback or
 * by free()).
 *
 * Before it is unloaded a plugin must leave no callback into its own code
 * queued: its destructor calls rculist_rcu_barrier() after its last
 * rculist_call_rcu().  Everything else (liburcu's call_rcu thread, blocks
 * of rculist_free_rcu() still waiting) stays in the flavour library, which
 * stays mapped.  It must also have joined its own threads, and the host
 * must not be inside plugin_lookup() when it calls dlclose().
 *
 * Build: cc -shared -fPIC -DPLUGIN_FLAVOR='"bp"' plugin.c \
 *            $(pkg-config --cflags --libs rculist-bp)
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rculist.h>

#include "plugin.h"

#ifndef PLUGIN_FLAVOR
#define PLUGIN_FLAVOR "bp"
#endif

#define PLUGIN_EXPORT __attribute__((visibility("default")))

#define LIVE	  0x11ce11ce11ce11ceUL
#define DEAD	  0xdeaddeaddeaddeadUL
#define NREADERS  2
#define NVOLATILE 4

struct entry {
	unsigned long magic; /* first: free() overwrites it (tcache link) */
	int value;
	int check; /* ~value: a freed or torn entry fails it */
	char name[24];
	struct cds_list_head link;
	struct rcu_head rcu;
};

static CDS_LIST_HEAD(registry);
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

static atomic_int stop;
static atomic_ulong reads, signal_reads, poisoned, misses, retired;

static int is_bp(void)
{
	return strcmp(PLUGIN_FLAVOR, "bp") == 0;
}

static int intact(const struct entry *e)
{
	return e->magic == LIVE && e->check == ~e->value;
}

/* The reader: @name's value, -1 if absent, -2 if it met a retired entry. */
static int lookup(const char *name)
{
	struct entry *e;
	int value = -1;

	rculist_read_lock();
	cds_list_for_each_entry_rcu(e, &registry, link) {
		if (!intact(e)) {
			value = -2;
			break;
		}
		if (strcmp(e->name, name) == 0) {
			value = e->value;
			break;
		}
	}
	rculist_read_unlock();
	return value;
}

PLUGIN_EXPORT int plugin_lookup(const char *name)
{
	return lookup(name);
}

PLUGIN_EXPORT const char *plugin_flavor(void)
{
	return rculist_flavor_name();
}

PLUGIN_EXPORT const char *plugin_built_for(void)
{
	return PLUGIN_FLAVOR;
}

PLUGIN_EXPORT const char *plugin_linkage(void)
{
#ifdef PLUGIN_EMBEDDED
	return "librculist-" PLUGIN_FLAVOR ".a embedded";
#else
	return "librculist-" PLUGIN_FLAVOR ".so";
#endif
}

static void on_sigusr1(int sig)
{
	int v = lookup("config");

	(void)sig;
	atomic_fetch_add(&signal_reads, 1);
	if (v == -2)
		atomic_fetch_add(&poisoned, 1);
	else if (v < 0)
		atomic_fetch_add(&misses, 1);
}

/*
 * A whole walk, then a second look at the first entry after a pause: an
 * entry retired meanwhile must stay intact until the section ends.
 */
static void *reader(void *arg)
{
	(void)arg;
	if (!is_bp())
		rculist_register_thread();
	while (!atomic_load(&stop)) {
		struct entry *e, *first = NULL;
		unsigned long n = 0;
		int found = 0;

		rculist_read_lock();
		cds_list_for_each_entry_rcu(e, &registry, link) {
			if (!first)
				first = e;
			if (!intact(e))
				atomic_fetch_add(&poisoned, 1);
			else if (strcmp(e->name, "config") == 0)
				found = 1;
			n++;
		}
		for (int spin = 0; spin < 200; spin++)
			__asm__ __volatile__("" ::: "memory");
		if (first && !intact(first))
			atomic_fetch_add(&poisoned, 1);
		rculist_read_unlock();
		rculist_quiescent_state();
		if (!found)
			atomic_fetch_add(&misses, 1);
		atomic_fetch_add(&reads, n);
	}
	if (!is_bp())
		rculist_unregister_thread();
	return NULL;
}

static struct entry *entry_new(const char *name, int value)
{
	struct entry *e = calloc(1, sizeof(*e));

	if (!e)
		abort();
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->value = value;
	e->check = ~value;
	e->magic = LIVE;
	return e;
}

static void poison_and_free(struct rcu_head *head)
{
	struct entry *e = (struct entry *)(void *)((char *)head -
						   offsetof(struct entry, rcu));

	e->magic = DEAD;
	e->check = e->value; /* fails intact() too */
	free(e);
}

/* Retire @e after a grace period, one way or the other. */
static void retire(struct entry *e, unsigned long how)
{
	atomic_fetch_add(&retired, 1);
	if (how & 1)
		rculist_call_rcu(&e->rcu, poison_and_free);
	else
		rculist_free_rcu(e, rcu);
}

static struct entry *find(const char *name)
{
	struct entry *e;

	cds_list_for_each_entry(e, &registry, link)
		if (strcmp(e->name, name) == 0)
			return e;
	return NULL;
}

/* One update round: a new "config", and the volatile entries rotated. */
static void update(unsigned long round)
{
	struct entry *old, *fresh = entry_new("config", (int)(round & 0xffffff));
	char name[24];

	pthread_mutex_lock(&registry_lock);
	old = find("config");
	if (old) {
		cds_list_replace_rcu(&old->link, &fresh->link);
		retire(old, round);
	} else {
		cds_list_add_rcu(&fresh->link, &registry);
	}
	snprintf(name, sizeof(name), "volatile-%lu", round % (2 * NVOLATILE));
	old = find(name);
	if (old) {
		cds_list_del_rcu(&old->link);
		retire(old, round >> 1);
	} else {
		cds_list_add_tail_rcu(&entry_new(name, (int)round)->link,
				      &registry);
	}
	pthread_mutex_unlock(&registry_lock);
}

static void wait_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

PLUGIN_EXPORT int plugin_run(unsigned long rounds, struct plugin_stats *st)
{
	struct sigaction sa, old_sa;
	pthread_t tids[NREADERS];
	unsigned long round;
	int i, started = 0, err = 0;

	atomic_store(&stop, 0);
	atomic_store(&reads, 0);
	atomic_store(&signal_reads, 0);
	atomic_store(&poisoned, 0);
	atomic_store(&misses, 0);
	atomic_store(&retired, 0);
	update(0);
	if (is_bp()) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sigusr1;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGUSR1, &sa, &old_sa))
			return -1;
	}
	for (i = 0; i < NREADERS; i++) {
		if (pthread_create(&tids[i], NULL, reader, NULL)) {
			err = -1;
			break;
		}
		started++;
	}
	/* Until the readers are walking (bounded: 60 s, a loaded machine). */
	for (i = 0; i < 60000 && started && atomic_load(&reads) == 0; i++)
		wait_ms(1);
	for (round = 1; round <= rounds; round++) {
		update(round);
		if (is_bp() && round % 16 == 0)
			for (i = 0; i < started; i++)
				pthread_kill(tids[i], SIGUSR1);
	}
	atomic_store(&stop, 1);
	for (i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	if (is_bp())
		sigaction(SIGUSR1, &old_sa, NULL);
	st->reads = atomic_load(&reads);
	st->signal_reads = atomic_load(&signal_reads);
	st->retired = atomic_load(&retired);
	st->poisoned = atomic_load(&poisoned);
	st->misses = atomic_load(&misses);
	if (!started || !st->reads)
		err = -1;
	return err;
}

/*
 * Unloading: empty the registry, then wait for every callback queued into
 * this plugin's code (poison_and_free) and every block it gave
 * rculist_free_rcu().  The rule for any plugin: rculist_rcu_barrier() in
 * the destructor, after the last rculist_call_rcu().
 */
__attribute__((destructor)) static void plugin_fini(void)
{
	struct entry *e, *tmp;
	unsigned long n = 0;

	pthread_mutex_lock(&registry_lock);
	cds_list_for_each_entry_safe(e, tmp, &registry, link) {
		cds_list_del_rcu(&e->link);
		retire(e, n++);
	}
	pthread_mutex_unlock(&registry_lock);
	rculist_rcu_barrier();
}
