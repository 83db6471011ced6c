// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * qsbr_server - a low-latency event loop on the QSBR flavour.
 *
 * Worker threads take requests from a pipe and look the request's
 * session up in an RCU hash table, while an updater thread keeps
 * replacing sessions.  Under QSBR a reader pays nothing to read: a
 * worker is "online" while it handles requests and tells RCU when it
 * holds no reference (rculist_quiescent_state(), once per request); it
 * goes offline around the blocking read(), so an idle worker never
 * holds up a grace period.  rculist_read_lock()/unlock() are still
 * called, so the same code is correct when linked with another flavour,
 * but under QSBR they are empty functions.
 *
 * The program shows it: on x86-64 it counts, by single-stepping with
 * the trap flag, the instructions a call of rculist_read_lock() and of
 * rculist_read_unlock() executes, and compares them with a call of an
 * empty function.
 *
 *   usage: qsbr_server [workers [requests]]
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rculist.h>

#define NBUCKETS  64
#define NSESSIONS 256

struct session {
	uint32_t id;
	uint32_t value;
	uint32_t check; /* id ^ value: a freed session fails it */
	struct cds_hlist_node node;
	struct rcu_head rcu;
};

static struct cds_hlist_head table[NBUCKETS];
static int requests[2]; /* the pipe: main writes ids, workers read */
static atomic_int stop_updater;
static atomic_ulong updates;

struct worker {
	pthread_t tid;
	unsigned long served, found, bad;
};

/* Look @id up (reader).  Returns its value, or 0 if absent. */
static uint32_t lookup(uint32_t id, unsigned long *bad)
{
	struct session *s;
	uint32_t value = 0;

	rculist_read_lock();
	cds_hlist_for_each_entry_rcu_2(s, &table[id % NBUCKETS], node) {
		if (s->id == id) {
			if (s->check != (s->id ^ s->value))
				++*bad;
			value = s->value;
			break;
		}
	}
	rculist_read_unlock();
	return value;
}

static void *worker(void *arg)
{
	struct worker *w = arg;
	uint32_t id;

	rculist_register_thread();
	for (;;) {
		ssize_t n;

		/* Blocking: go offline, grace periods need not wait for us. */
		rculist_thread_offline();
		n = read(requests[0], &id, sizeof(id));
		rculist_thread_online();
		if (n != (ssize_t)sizeof(id) || id == 0)
			break;
		if (lookup(id, &w->bad))
			w->found++;
		w->served++;
		/* Between requests: no reference held. */
		rculist_quiescent_state();
	}
	rculist_unregister_thread();
	return NULL;
}

static struct session *session_new(uint32_t id, uint32_t value)
{
	struct session *s = malloc(sizeof(*s));

	if (!s)
		abort();
	s->id = id;
	s->value = value;
	s->check = id ^ value;
	return s;
}

/* The single updater: replace sessions, free the old ones in batches. */
static void *updater(void *arg)
{
	struct session *old[16];
	uint32_t value = 1000;
	unsigned int i, n = 0;

	(void)arg;
	while (!atomic_load(&stop_updater)) {
		uint32_t id = 1 + value % NSESSIONS;
		struct session *s, *fresh;

		cds_hlist_for_each_entry_2(s, &table[id % NBUCKETS], node)
			if (s->id == id)
				break;
		fresh = session_new(id, ++value);
		cds_hlist_replace_rcu(&s->node, &fresh->node);
		old[n++] = s;
		atomic_fetch_add(&updates, 1);
		if (n == 16) {
			rculist_synchronize_rcu();
			for (i = 0; i < n; i++)
				free(old[i]);
			n = 0;
		}
	}
	rculist_synchronize_rcu();
	for (i = 0; i < n; i++)
		free(old[i]);
	return NULL;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/*
 * Count the instructions a call of @fn executes, call and return
 * included: set the trap flag, so that the CPU raises SIGTRAP after
 * every instruction, and count the signals.  The fixed cost of turning
 * the flag on and off is the same for every @fn, so compare counts.
 */
static volatile sig_atomic_t steps;

static void on_trap(int sig)
{
	(void)sig;
	steps++;
}

static long count_instructions(void (*fn)(void))
{
	struct sigaction sa, prev;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_trap;
	sigaction(SIGTRAP, &sa, &prev);
	fn(); /* warm up: bind the symbol, fault the page in */
	steps = 0;
	/* clang-format off */
	__asm__ volatile("pushfq\n\torq $0x100, (%%rsp)\n\tpopfq" ::: "memory", "cc");
	fn();
	__asm__ volatile("pushfq\n\tandq $~0x100, (%%rsp)\n\tpopfq" ::: "memory", "cc");
	/* clang-format on */
	sigaction(SIGTRAP, &prev, NULL);
	return steps;
}

static __attribute__((noinline)) void empty(void)
{
	__asm__ volatile("" ::: "memory");
}

static void one_lookup(void)
{
	unsigned long bad = 0;

	lookup(7, &bad);
}

/*
 * The function itself, as the library defines it: in a program built
 * without -fPIE, &rculist_read_lock is a PLT stub, one jump more.
 */
static void (*library_function(const char *name))(void)
{
	void *sym = dlsym(RTLD_DEFAULT, name);
	void (*fn)(void);

	if (!sym)
		abort();
	memcpy(&fn, &sym, sizeof(fn));
	return fn;
}

static void report_read_side(void)
{
	long base = count_instructions(empty);
	long lock = count_instructions(library_function("rculist_read_lock"));
	long unlock = count_instructions(library_function("rculist_read_unlock"));

	printf("read side [%s]: a call of rculist_read_lock() executes %ld "
	       "instructions, rculist_read_unlock() %ld, an empty function %ld: "
	       "%s\n",
	       rculist_flavor_name(), lock, unlock, base,
	       lock == base && unlock == base ?
		       "no read-side instructions, only the calls" :
		       "the read side executes instructions");
	printf("read side [%s]: one lookup, hash and bucket walk included, "
	       "executes %ld instructions\n",
	       rculist_flavor_name(), count_instructions(one_lookup) - base);
}
#else
static void report_read_side(void)
{
	printf("read side [%s]: instruction count not measured on this "
	       "architecture\n",
	       rculist_flavor_name());
}
#endif

int main(int argc, char **argv)
{
	int nworkers = argc > 1 ? atoi(argv[1]) : 2;
	unsigned long nrequests = argc > 2 ? strtoul(argv[2], NULL, 0) : 20000;
	unsigned long served = 0, found = 0, bad = 0, i;
	struct worker *w;
	pthread_t upd;
	uint32_t id;
	int k;

	if (nworkers < 1)
		nworkers = 1;
	w = calloc((size_t)nworkers, sizeof(*w));
	if (!w || pipe(requests))
		return 1;
	for (k = 0; k < NBUCKETS; k++)
		CDS_INIT_HLIST_HEAD(&table[k]);
	for (id = 1; id <= NSESSIONS; id++) {
		struct session *s = session_new(id, id);

		cds_hlist_add_head_rcu(&s->node, &table[id % NBUCKETS]);
	}

	/* The main thread measures the read side as a registered reader. */
	rculist_register_thread();
	report_read_side();
	rculist_unregister_thread();

	for (k = 0; k < nworkers; k++)
		pthread_create(&w[k].tid, NULL, worker, &w[k]);
	pthread_create(&upd, NULL, updater, NULL);
	for (i = 0; i < nrequests; i++) {
		id = (uint32_t)(1 + i * 7919 % NSESSIONS);
		if (write(requests[1], &id, sizeof(id)) != (ssize_t)sizeof(id))
			return 1;
	}
	id = 0;
	for (k = 0; k < nworkers; k++)
		if (write(requests[1], &id, sizeof(id)) != (ssize_t)sizeof(id))
			return 1;
	for (k = 0; k < nworkers; k++) {
		pthread_join(w[k].tid, NULL);
		served += w[k].served;
		found += w[k].found;
		bad += w[k].bad;
	}
	atomic_store(&stop_updater, 1);
	pthread_join(upd, NULL);

	for (k = 0; k < NBUCKETS; k++) {
		struct session *s, *next;

		cds_hlist_for_each_entry_safe_2(s, next, &table[k], node) {
			cds_hlist_del(&s->node);
			free(s);
		}
	}
	printf("qsbr_server [%s]: %d workers served %lu requests "
	       "(%lu found, %lu bad) during %lu session updates\n",
	       rculist_flavor_name(), nworkers, served, found, bad,
	       atomic_load(&updates));
	free(w);
	return served == nrequests && found == nrequests && bad == 0 ? 0 : 1;
}
