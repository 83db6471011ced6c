// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/pin.c - keep the object rculist lives in mapped for good.
 *
 * Threads outlive any dlclose(): liburcu's call_rcu worker, rculist's
 * stall watchdog, a batch of rculist_free_rcu() blocks waiting for its
 * grace period.  Each runs code of the object rculist is linked into and
 * of liburcu.  The shared flavour libraries are linked -z nodelete for
 * that; a plugin that embeds rculist statically (librculist-<f>.a linked
 * into its own .so) is the object itself, so at load time rculist marks
 * that object, and through it its liburcu, RTLD_NODELETE: the plugin's
 * dlclose() then leaves it loaded (glibc runs its destructors at exit,
 * not at dlclose()), and a later dlopen() finds it as it was, with its
 * state.
 *
 * In a program linked statically, or in the main executable, there is
 * nothing to pin and dlopen() simply finds nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include "internal.h"

/*
 * dlopen() is looked up when it is needed, never named: a static link
 * that names it pulls glibc's static dlopen() into the program, with its
 * link-time warning ("Using 'dlopen' in statically linked applications
 * requires at runtime the shared libraries from the glibc version used
 * for linking"), even as a weak reference once an LTO link rescans the
 * archives.  In a static program there is no object to pin and no other
 * copy to find, and the lookup finds nothing; in a dynamically linked one
 * (the shared flavour libraries, a plugin embedding librculist-<f>.a) it
 * finds glibc's.  dlopen() takes its caller's namespace from its return
 * address, which is in this object whether it is called by name or not.
 */
static void *(*find_dlopen(void))(const char *file, int mode)
{
	void *(*fn)(const char *, int) = NULL;
	void *sym = dlsym(RTLD_DEFAULT, "dlopen");

	memcpy(&fn, &sym, sizeof(fn)); /* ISO C: no cast from void * */
	return fn;
}

__attribute__((constructor)) void rculist__pin_init(void)
{
	void *(*open)(const char *file, int mode) = find_dlopen();
	Dl_info info;
	void *self;

	if (!open || !dladdr((const void *)rculist__pin_init, &info) ||
	    !info.dli_fname)
		return;
	self = open(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
	if (self)
		dlclose(self); /* drops the count just taken; NODELETE stays */
}

/*
 * Two copies of one flavour in a process: librculist-<f>.so, and a plugin
 * that embeds librculist-<f>.a.  Each has its own state, but they share
 * liburcu, whose fork hooks must run once per fork(): run twice, the
 * second deadlocks on the locks the first took.  Each copy's handlers ask
 * the shared library, when one is loaded, to pause liburcu (it does so
 * once, for whichever copy asks first: atfork handlers of the copy loaded
 * last run first) before taking their own locks.  Asked at each fork(),
 * since either copy may be loaded later than the other.
 */
struct other_copy {
	const char *soname;
	const void *self;
	const char *path;
};

static int find_other_copy(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct other_copy *q = arg;
	const char *base = strrchr(info->dlpi_name, '/');

	(void)size;
	base = base ? base + 1 : info->dlpi_name;
	if (strcmp(base, q->soname) == 0 &&
	    (const void *)info->dlpi_addr != q->self)
		q->path = info->dlpi_name;
	return q->path != NULL;
}

void *rculist__other_copy(const char *soname, const char *symbol)
{
	void *(*open)(const char *file, int mode) = find_dlopen();
	struct other_copy q = { soname, NULL, NULL };
	void *lib, *sym = NULL;
	Dl_info info;

	if (dladdr((const void *)rculist__other_copy, &info))
		q.self = info.dli_fbase;
	dl_iterate_phdr(find_other_copy, &q);
	if (!q.path || !open)
		return NULL;
	lib = open(q.path, RTLD_LAZY | RTLD_NOLOAD);
	if (lib) {
		sym = dlsym(lib, symbol);
		dlclose(lib); /* linked -z nodelete: it stays */
	}
	return sym;
}
