// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libplugin - a shared library that embeds rculist's bulletproof flavour.
 *
 * The registry is an RCU list.  Readers are whatever threads the host
 * calls plugin_lookup() from, threads the plugin did not create and never
 * registers, and the plugin's own SIGUSR1 handler, which may interrupt a
 * lookup or an update in progress.  Only the bp flavour allows that: its
 * readers register themselves on first use, and its read side takes no
 * lock.  Updates are serialised by a mutex, never taken by readers, and
 * removed entries are freed after a grace period (rculist_free_rcu()).
 *
 * Build: cc -shared -fPIC plugin.c $(pkg-config --cflags --libs rculist-bp)
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <rculist.h>

#include "plugin.h"

#define PLUGIN_EXPORT __attribute__((visibility("default")))

struct entry {
	char name[24];
	int value;
	int check; /* ~value: a freed or torn entry fails it */
	struct cds_list_head link;
	struct rcu_head rcu;
};

static CDS_LIST_HEAD(registry);
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t watchdog_runs, watchdog_failures;

/* The reader: usable from any thread, and from a signal handler. */
static int lookup(const char *name)
{
	struct entry *e;
	int value = -1;

	rculist_read_lock();
	cds_list_for_each_entry_rcu(e, &registry, link) {
		if (strcmp(e->name, name) == 0) {
			value = e->check == ~e->value ? e->value : -2;
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

/* "config" is always registered: the watchdog checks it is found. */
static void watchdog(int sig)
{
	(void)sig;
	watchdog_runs++;
	if (lookup("config") < 0)
		watchdog_failures++;
}

static struct entry *entry_new(const char *name, int value)
{
	struct entry *e = calloc(1, sizeof(*e));

	if (!e)
		abort();
	strncpy(e->name, name, sizeof(e->name) - 1);
	e->value = value;
	e->check = ~value;
	return e;
}

PLUGIN_EXPORT void plugin_set(const char *name, int value)
{
	struct entry *e, *fresh = entry_new(name, value);

	pthread_mutex_lock(&registry_lock);
	cds_list_for_each_entry(e, &registry, link) {
		if (strcmp(e->name, name) == 0) {
			cds_list_replace_rcu(&e->link, &fresh->link);
			rculist_free_rcu(e, rcu);
			pthread_mutex_unlock(&registry_lock);
			return;
		}
	}
	cds_list_add_tail_rcu(&fresh->link, &registry);
	pthread_mutex_unlock(&registry_lock);
}

PLUGIN_EXPORT int plugin_remove(const char *name)
{
	struct entry *e;
	int ret = -1;

	pthread_mutex_lock(&registry_lock);
	cds_list_for_each_entry(e, &registry, link) {
		if (strcmp(e->name, name) == 0) {
			cds_list_del_rcu(&e->link);
			rculist_free_rcu(e, rcu);
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&registry_lock);
	return ret;
}

PLUGIN_EXPORT int plugin_start(void)
{
	struct sigaction sa;

	plugin_set("config", 1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = watchdog;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGUSR1, &sa, NULL);
}

PLUGIN_EXPORT unsigned long plugin_watchdog_runs(void)
{
	return (unsigned long)watchdog_runs;
}

PLUGIN_EXPORT unsigned long plugin_watchdog_failures(void)
{
	return (unsigned long)watchdog_failures;
}

PLUGIN_EXPORT void plugin_stop(void)
{
	struct entry *e, *tmp;

	signal(SIGUSR1, SIG_IGN);
	pthread_mutex_lock(&registry_lock);
	cds_list_for_each_entry_safe(e, tmp, &registry, link) {
		cds_list_del_rcu(&e->link);
		rculist_free_rcu(e, rcu);
	}
	pthread_mutex_unlock(&registry_lock);
	rculist_rcu_barrier();
}
