// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/regs/unwind.c - a debugger or profiler walking the stack from
 * inside the read side's rare call sees the caller's frames.
 *
 * The program interposes pthread_mutex_lock(), which the library (and
 * liburcu) reach when they register a thread: armed around a section's
 * lock, it walks the stack with backtrace() (the unwinder, through the
 * CFI of every frame, rculist__rs_preserve_v1's included) and looks for
 * the function holding the section and the thread's start function.
 * Compiled as C: bp's first section in a new thread (the library
 * registers it).  Compiled as C++: a new thread's first
 * std::scoped_lock on rcu_default_domain(), which registers it under
 * every flavour.  Linked with -rdynamic (dladdr() names the functions).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <rculist.h>
#ifdef __cplusplus
#include <mutex>

#include <rculist/rcu.hpp>
#define EXTERN_C extern "C"
#else
#define EXTERN_C
#endif

static __thread int armed;
static int walks, seen_section, seen_thread;

EXTERN_C int pthread_mutex_lock(pthread_mutex_t *m)
{
	static int (*real)(pthread_mutex_t *);
	void *ips[64];
	int n;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_mutex_lock");
	if (armed) {
		armed = 0; /* backtrace() may lock */
		walks++;
		n = backtrace(ips, 64);
		for (int i = 0; i < n; i++) {
			Dl_info in;

			if (!dladdr(ips[i], &in) || !in.dli_sname)
				continue;
			if (!strcmp(in.dli_sname, "unwind_section"))
				seen_section = 1;
			if (!strcmp(in.dli_sname, "unwind_thread"))
				seen_thread = 1;
		}
	}
	return real(m);
}

EXTERN_C __attribute__((noinline)) void unwind_section(void)
{
	armed = 1;
#ifdef __cplusplus
	{
		std::scoped_lock lk(rculist::rcu_default_domain());
		armed = 0;
	}
#else
	rculist_read_lock();
	armed = 0;
	rculist_read_unlock();
#endif
}

EXTERN_C __attribute__((noinline)) void *unwind_thread(void *arg)
{
	(void)arg;
	unwind_section();
	return NULL;
}

int main(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, unwind_thread, NULL) ||
	    pthread_join(t, NULL))
		return 2;
	if (!walks) {
		fprintf(stderr, "unwind: the section's first lock locked no "
				"mutex: nothing walked the stack\n");
		return 1;
	}
	if (!seen_section || !seen_thread) {
		fprintf(stderr,
			"unwind: from inside the library's call the stack walk "
			"did not reach %s\n",
			!seen_section ? "unwind_section()" : "unwind_thread()");
		return 1;
	}
	return 0;
}
