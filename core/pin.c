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
 * dlclose() then runs its destructors but leaves its code mapped, and a
 * later dlopen() finds it loaded, with its state.
 *
 * In a program linked statically, or in the main executable, there is
 * nothing to pin and dlopen() simply finds nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "internal.h"

__attribute__((constructor)) void rculist__pin_init(void)
{
	Dl_info info;
	void *self;

	if (!dladdr((const void *)rculist__pin_init, &info) || !info.dli_fname)
		return;
	self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
	if (self)
		dlclose(self); /* drops the count just taken; NODELETE stays */
}
