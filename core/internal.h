/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * core/internal.h - what the flavour-agnostic core needs from a flavour.
 *
 * core/ calls these hidden hooks; each flavors/<name>.c defines them (via
 * core/bind.h).  Nothing here names a flavour.
 */
#ifndef RCULIST_CORE_INTERNAL_H
#define RCULIST_CORE_INTERNAL_H

#define RCULIST__HIDDEN	__attribute__((visibility("hidden")))

/* Unregister the calling thread from the flavour (memb, qsbr). */
RCULIST__HIDDEN void rculist__flavor_unregister(void);
/* The flavour's own rcu_barrier(): wait for queued callbacks. */
RCULIST__HIDDEN void rculist__flavor_barrier(void);

/* core/thread.c: unregister a thread that exits still registered. */
RCULIST__HIDDEN void rculist__thread_exit_arm(void);
RCULIST__HIDDEN void rculist__thread_exit_disarm(void);

#endif /* RCULIST_CORE_INTERNAL_H */
