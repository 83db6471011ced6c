// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * host - a program that knows nothing of RCU, driving libplugin.
 *
 * Built two ways from this one source:
 *   host_linked   linked with -lplugin (and so, at start-up, with
 *                 librculist-bp and liburcu-bp)
 *   host_dlopen   -DHOST_DLOPEN: links neither, and loads libplugin.so
 *                 with dlopen() after its threads are running, so that
 *                 liburcu's thread-local reader state is set up late.
 *
 * Its threads (which the plugin never registers) look names up while
 * the main thread updates the registry and sends the threads SIGUSR1,
 * whose handler, installed by the plugin, reads the registry too.
 *
 *   usage: host_linked | host_dlopen path/to/libplugin.so
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef HOST_DLOPEN
#include <dlfcn.h>
#include <string.h>
#endif

#include "plugin.h"

#ifdef HOST_DLOPEN
static struct {
	int (*start)(void);
	void (*set)(const char *name, int value);
	int (*remove)(const char *name);
	int (*lookup)(const char *name);
	unsigned long (*runs)(void);
	unsigned long (*failures)(void);
	void (*stop)(void);
} plugin;

static void *need(void *lib, const char *name)
{
	void *sym = dlsym(lib, name);

	if (!sym) {
		fprintf(stderr, "host: %s\n", dlerror());
		exit(1);
	}
	return sym;
}

#define BIND(field, name)                                           \
	do {                                                        \
		void *sym_ = need(lib, name);                       \
		memcpy(&plugin.field, &sym_, sizeof(plugin.field)); \
	} while (0)

static void load_plugin(const char *path)
{
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		fprintf(stderr, "host: dlopen: %s\n", dlerror());
		exit(1);
	}
	BIND(start, "plugin_start");
	BIND(set, "plugin_set");
	BIND(remove, "plugin_remove");
	BIND(lookup, "plugin_lookup");
	BIND(runs, "plugin_watchdog_runs");
	BIND(failures, "plugin_watchdog_failures");
	BIND(stop, "plugin_stop");
}
#define HOW "dlopen()ed late"
#else
static const struct {
	int (*start)(void);
	void (*set)(const char *name, int value);
	int (*remove)(const char *name);
	int (*lookup)(const char *name);
	unsigned long (*runs)(void);
	unsigned long (*failures)(void);
	void (*stop)(void);
	/* clang-format off */
} plugin = {
	plugin_start, plugin_set, plugin_remove, plugin_lookup,
	plugin_watchdog_runs, plugin_watchdog_failures, plugin_stop,
};
/* clang-format on */
#define HOW "linked"
#endif

#define NTHREADS 2

static atomic_int loaded, stop;
static atomic_ulong lookups, misses;

static void *worker(void *arg)
{
	(void)arg;
	while (!atomic_load(&loaded))
		; /* started before the plugin is there */
	while (!atomic_load(&stop)) {
		if (plugin.lookup("config") < 0)
			atomic_fetch_add(&misses, 1);
		plugin.lookup("volatile"); /* may or may not be there */
		atomic_fetch_add(&lookups, 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tids[NTHREADS];
	int i, round;

	for (i = 0; i < NTHREADS; i++)
		pthread_create(&tids[i], NULL, worker, NULL);
#ifdef HOST_DLOPEN
	if (argc < 2) {
		fprintf(stderr, "usage: %s path/to/libplugin.so\n", argv[0]);
		return 2;
	}
	load_plugin(argv[1]);
#else
	(void)argc;
	(void)argv;
#endif
	if (plugin.start())
		return 1;
	atomic_store(&loaded, 1);

	/* At least 2000 rounds, and until the threads have looked up. */
	for (round = 0; round < 2000 || atomic_load(&lookups) < 1000; round++) {
		plugin.set("config", round);
		if (round % 2)
			plugin.remove("volatile");
		else
			plugin.set("volatile", round);
		if (round % 10 == 0) {
			for (i = 0; i < NTHREADS; i++)
				pthread_kill(tids[i], SIGUSR1);
			raise(SIGUSR1);
		}
	}
	atomic_store(&stop, 1);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(tids[i], NULL);
	plugin.stop();

	printf("host (plugin %s): %lu lookups from %d unregistered threads, "
	       "%lu missed; %lu watchdog lookups from signal handlers, %lu "
	       "failed\n",
	       HOW, atomic_load(&lookups), NTHREADS, atomic_load(&misses),
	       plugin.runs(), plugin.failures());
	return atomic_load(&misses) || plugin.failures() || !plugin.runs() ||
	       !atomic_load(&lookups);
}
