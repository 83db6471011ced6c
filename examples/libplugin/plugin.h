/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * plugin.h - the interface of libplugin, a library whose host knows
 * nothing of RCU.  Every function may be called from any thread, whether
 * or not the plugin has seen it before; plugin_lookup() also from a
 * signal handler.
 */
#ifndef PLUGIN_H
#define PLUGIN_H

/* Fill the registry and install the plugin's SIGUSR1 watchdog. */
int plugin_start(void);
/* Add @name, or replace its value if it is there (serialised inside). */
void plugin_set(const char *name, int value);
/* Remove @name; 0 if it was there, -1 if not. */
int plugin_remove(const char *name);
/* @name's value, or -1 if absent.  Async-signal-safe, lock-free. */
int plugin_lookup(const char *name);
/* Lookups the watchdog made from signal handlers, and those that failed. */
unsigned long plugin_watchdog_runs(void);
unsigned long plugin_watchdog_failures(void);
/* Empty the registry and wait until its memory is freed. */
void plugin_stop(void);

#endif /* PLUGIN_H */
