// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * host - a program that drives libplugin while running its own RCU, of
 * another kind, or none.  One source, built per kind of host:
 *
 *   -DHOST_RCULIST -DHOST_FLAVOR='"memb"'  linked with -lrculist-memb (or
 *                  any flavour), its own readers and updater on rculist
 *   -DHOST_URCU_MEMB   liburcu-memb used directly, no rculist
 *   (neither)          no RCU at all
 *
 * and two ways:
 *   linked         the plugin linked at start-up (-lplugin-bp)
 *   -DHOST_DLOPEN  the plugin dlopen()ed, run and dlclose()d CYCLES times
 *
 * The host's own readers check every element they reach against poison,
 * as the plugin's do; while a bp plugin runs, a thread of the host that
 * the plugin never saw calls plugin_lookup() too.  The host checks that
 * the plugin's rculist calls reach the flavour it was built for, and that
 * its own reach its own.  One line of counts; exit status 0 only if
 * nothing was poisoned, nothing missed, and every flavour was right.
 *
 *   usage: host [CYCLES [ROUNDS]]                     (linked)
 *          host path/to/libplugin.so [CYCLES [ROUNDS]] (-DHOST_DLOPEN)
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef HOST_DLOPEN
#include <dlfcn.h>
#endif

#include "plugin.h"

#if defined(HOST_RCULIST)
#include <rculist.h>
#define HOST_KIND	 "rculist-" HOST_FLAVOR
#define host_register	 rculist_register_thread
#define host_unregister	 rculist_unregister_thread
#define host_read_lock	 rculist_read_lock
#define host_read_unlock rculist_read_unlock
#define host_quiescent	 rculist_quiescent_state
#define host_synchronize rculist_synchronize_rcu
#define host_flavor_ok() (strcmp(rculist_flavor_name(), HOST_FLAVOR) == 0)
#elif defined(HOST_URCU_MEMB)
#include <urcu/urcu-memb.h>
#include <urcu/rculist.h>
/*
 * liburcu's caa_container_of() casts its const pointer to char *; clang
 * reports that at every expansion in this file, its system header or not.
 */
#pragma GCC diagnostic ignored "-Wcast-qual"
#define HOST_KIND	 "liburcu-memb"
#define host_register	 urcu_memb_register_thread
#define host_unregister	 urcu_memb_unregister_thread
#define host_read_lock	 urcu_memb_read_lock
#define host_read_unlock urcu_memb_read_unlock
#define host_quiescent() ((void)0)
#define host_synchronize urcu_memb_synchronize_rcu
#define host_flavor_ok() 1
#else
#define HOST_KIND "no RCU"
#endif

#if defined(HOST_RCULIST) || defined(HOST_URCU_MEMB)
#define HOST_HAS_RCU 1
#else
#define HOST_HAS_RCU 0
#endif

/*
 * fork() with the plugin loaded: memb and qsbr forbid it while another
 * thread is inside a read-side section, which the host's own readers
 * always are; so only hosts with no RCU, or bp, fork.
 */
#if !HOST_HAS_RCU
#define host_may_fork() 1
#elif defined(HOST_RCULIST)
#define host_may_fork() (strcmp(HOST_FLAVOR, "bp") == 0)
#else
#define host_may_fork() 0
#endif

static struct {
	const char *(*flavor)(void);
	const char *(*built_for)(void);
	const char *(*linkage)(void);
	int (*run)(unsigned long rounds, struct plugin_stats *st);
	int (*lookup)(const char *name);
} plugin;

#ifdef HOST_DLOPEN
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

static void *load_plugin(const char *path)
{
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		fprintf(stderr, "host: dlopen: %s\n", dlerror());
		exit(1);
	}
	BIND(flavor, "plugin_flavor");
	BIND(built_for, "plugin_built_for");
	BIND(linkage, "plugin_linkage");
	BIND(run, "plugin_run");
	BIND(lookup, "plugin_lookup");
	return lib;
}
#define HOW "dlopen()ed"
#else
static void *load_plugin(const char *path)
{
	(void)path;
	plugin.flavor = plugin_flavor;
	plugin.built_for = plugin_built_for;
	plugin.linkage = plugin_linkage;
	plugin.run = plugin_run;
	plugin.lookup = plugin_lookup;
	return NULL;
}
#define HOW "linked"
#endif

/* ------------------------------------------------ the host's own RCU */
#define LIVE  0x0badcafe0badcafeUL
#define NHOST 8

static atomic_ulong host_reads, host_retired, host_poisoned;

#if HOST_HAS_RCU
static atomic_int host_stop;

struct item {
	unsigned long magic;
	struct cds_list_head link;
};

static CDS_LIST_HEAD(host_list);

static struct item *item_new(void)
{
	struct item *it = malloc(sizeof(*it));

	if (!it)
		abort();
	it->magic = LIVE;
	return it;
}

static void *host_reader(void *arg)
{
	(void)arg;
	host_register();
	while (!atomic_load(&host_stop)) {
		struct item *it;
		unsigned long n = 0;

		host_read_lock();
		cds_list_for_each_entry_rcu(it, &host_list, link) {
			if (it->magic != LIVE)
				atomic_fetch_add(&host_poisoned, 1);
			n++;
		}
		host_read_unlock();
		host_quiescent();
		atomic_fetch_add(&host_reads, n);
	}
	host_unregister();
	return NULL;
}

/* Replace an item, wait for a grace period, poison and free the old. */
static void *host_updater(void *arg)
{
	unsigned long round = 0;

	(void)arg;
	while (!atomic_load(&host_stop)) {
		struct item *old, *fresh = item_new();
		unsigned long skip = round++ % NHOST;

		cds_list_for_each_entry(old, &host_list, link)
			if (!skip--)
				break;
		cds_list_replace_rcu(&old->link, &fresh->link);
		host_synchronize();
		old->magic = 0xdeadUL;
		free(old);
		atomic_fetch_add(&host_retired, 1);
	}
	return NULL;
}

static pthread_t host_threads[2];

static void host_start(void)
{
	for (int i = 0; i < NHOST; i++)
		cds_list_add_tail_rcu(&item_new()->link, &host_list);
	if (pthread_create(&host_threads[0], NULL, host_reader, NULL) ||
	    pthread_create(&host_threads[1], NULL, host_updater, NULL))
		exit(1);
}

/*
 * Stop the host's threads once each has made progress: the reader a read,
 * the updater a grace period.  On a loaded machine (or under ASan) they
 * may not have had a turn while the plugin ran: wait for them, up to
 * PROGRESS_MS; a side with none by then shows as 0 on the host's line.
 */
#define PROGRESS_MS 60000

static void host_end(void)
{
	struct item *it, *tmp;
	struct timespec ts = { 0, 1000000L };
	long waited;

	for (waited = 0; waited < PROGRESS_MS; waited++) {
		if (atomic_load(&host_reads) && atomic_load(&host_retired))
			break;
		nanosleep(&ts, NULL);
	}
	atomic_store(&host_stop, 1);
	pthread_join(host_threads[0], NULL);
	pthread_join(host_threads[1], NULL);
	cds_list_for_each_entry_safe(it, tmp, &host_list, link) {
		cds_list_del(&it->link);
		free(it);
	}
}
#else
#define host_flavor_ok() 1
static void host_start(void)
{
}

static void host_end(void)
{
}
#endif

/*
 * The child runs the plugin once more (and the host's own grace period):
 * 0 if that went right, within 20 s.  A child stuck in liburcu's fork
 * hooks blocks every signal: it is killed with SIGKILL.  Its verdict
 * comes through a pipe: under valgrind its exit status is memcheck's
 * (99 when the leak check at its exit counts blocks held by the host's
 * threads, which did not follow the fork).
 */
static int fork_and_run(void)
{
	struct plugin_stats st;
	unsigned char v = 1;
	int status, i, fd[2];
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		int bad = plugin.run(50, &st) || st.poisoned || st.misses;
#if HOST_HAS_RCU
		host_synchronize();
#endif
		v = (unsigned char)bad;
		close(fd[0]);
		if (write(fd[1], &v, 1) != 1)
			_exit(1);
		_exit(bad);
	}
	close(fd[1]);
	for (i = 0; i < 2000; i++) {
		struct timespec ts = { 0, 10 * 1000000L };

		if (waitpid(pid, &status, WNOHANG) == pid) {
			int ok = WIFEXITED(status) && read(fd[0], &v, 1) == 1 &&
				 v == 0;

			close(fd[0]);
			return ok ? 0 : -1;
		}
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(fd[0]);
	fprintf(stderr, "host: the child of fork() hung\n");
	return -1;
}

/* ------------------------------- a thread the plugin has never seen */
static atomic_int foreign_stop;
static atomic_ulong foreign_lookups, foreign_bad;

/* "config" may be missing only until plugin_run() has first added it. */
static void *foreign(void *arg)
{
	int seen = 0;

	(void)arg;
	while (!atomic_load(&foreign_stop)) {
		int v = plugin.lookup("config");

		if (v == -2 || (v == -1 && seen))
			atomic_fetch_add(&foreign_bad, 1);
		seen |= v >= 0;
		atomic_fetch_add(&foreign_lookups, 1);
	}
	return NULL;
}

/* Append @reason to the list @why (of WHY_MAX bytes). */
#define WHY_MAX 400
static void why_add(char *why, const char *reason)
{
	size_t n = strlen(why);

	snprintf(why + n, WHY_MAX - n, "%s%s", n ? "; " : "", reason);
}

int main(int argc, char **argv)
{
	char why[WHY_MAX];
	unsigned long cycles, rounds, c, wrong_flavor = 0, failed_runs = 0;
	unsigned long forks = 0, failed_forks = 0;
	struct plugin_stats sum = { 0 }, st;
	const char *path = NULL;
	/* copied: the plugin unloads */
	char seen[16] = "?", built[16] = "?", linkage[40] = "?";
	int arg = 1;

#ifdef HOST_DLOPEN
	if (argc < 2) {
		fprintf(stderr,
			"usage: %s path/to/libplugin.so [CYCLES [ROUNDS]]\n",
			argv[0]);
		return 2;
	}
	path = argv[arg++];
#endif
	cycles = argc > arg ? strtoul(argv[arg], NULL, 0) : 1;
	rounds = argc > arg + 1 ? strtoul(argv[arg + 1], NULL, 0) : 2000;

	host_start();
	for (c = 0; c < cycles; c++) {
		void *lib = load_plugin(path);
		pthread_t tid;
		int bp;

		snprintf(seen, sizeof(seen), "%s", plugin.flavor());
		snprintf(built, sizeof(built), "%s", plugin.built_for());
		snprintf(linkage, sizeof(linkage), "%s", plugin.linkage());
		if (strcmp(seen, built) != 0)
			wrong_flavor++;
		bp = strcmp(built, "bp") == 0;
		atomic_store(&foreign_stop, 0);
		if (bp && pthread_create(&tid, NULL, foreign, NULL))
			return 1;
		if (plugin.run(rounds, &st))
			failed_runs++;
		if (bp) {
			atomic_store(&foreign_stop, 1);
			pthread_join(tid, NULL);
		}
		sum.reads += st.reads;
		sum.signal_reads += st.signal_reads;
		sum.retired += st.retired;
		sum.poisoned += st.poisoned;
		sum.misses += st.misses;
		if (host_may_fork() && (c == 0 || c + 1 == cycles)) {
			forks++;
			failed_forks += fork_and_run() != 0;
		}
#ifdef HOST_DLOPEN
		if (dlclose(lib)) {
			fprintf(stderr, "host: dlclose: %s\n", dlerror());
			return 1;
		}
#else
		(void)lib;
#endif
	}
	host_end();

	/* Why it fails, on its line: each reason that holds. */
	why[0] = 0;
	if (wrong_flavor)
		why_add(why, "plugin on the wrong flavour");
	if (failed_runs)
		why_add(why, "a plugin run failed (its readers made no read?)");
	if (failed_forks)
		why_add(why, "a child of fork() failed");
	if (sum.poisoned || atomic_load(&host_poisoned))
		why_add(why, "a reader saw a poisoned entry");
	if (sum.misses)
		why_add(why, "a lookup missed");
	if (atomic_load(&foreign_bad))
		why_add(why, "a foreign lookup went wrong");
	if (!host_flavor_ok())
		why_add(why, "host on the wrong flavour");
	if (HOST_HAS_RCU && !atomic_load(&host_reads))
		why_add(why, "the host's reader made no read in 60 s");
	if (HOST_HAS_RCU && !atomic_load(&host_retired))
		why_add(why, "the host's updater retired nothing in 60 s");
	printf("host %-14s plugin %s (%s) %s x%lu: its calls reach %s; %lu reads, "
	       "%lu from signal handlers, %lu foreign lookups (%lu bad), "
	       "%lu retired, %lu poisoned, %lu missed; host: %lu reads, "
	       "%lu retired, %lu poisoned; %lu forks, %lu failed%s%s\n",
	       HOST_KIND, built, linkage, HOW, cycles, seen, sum.reads,
	       sum.signal_reads, atomic_load(&foreign_lookups),
	       atomic_load(&foreign_bad), sum.retired, sum.poisoned, sum.misses,
	       atomic_load(&host_reads), atomic_load(&host_retired),
	       atomic_load(&host_poisoned), forks, failed_forks,
	       why[0] ? ": FAILED: " : "", why);
	return why[0] != 0;
}
