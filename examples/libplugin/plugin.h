/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * plugin.h - the interface of libplugin, a library that embeds rculist and
 * is loaded into hosts it knows nothing about: hosts that use another
 * rculist flavour, liburcu directly, or no RCU at all, and that may
 * dlopen() and dlclose() it again and again.
 *
 * Every function may be called from any thread; plugin_lookup() of a bp
 * plugin also from a thread the plugin never saw and from a signal
 * handler.
 */
#ifndef PLUGIN_H
#define PLUGIN_H

/* What one plugin_run() saw. */
struct plugin_stats {
	unsigned long reads;	    /* entries checked by the readers */
	unsigned long signal_reads; /* lookups from the SIGUSR1 handler */
	unsigned long retired;	    /* entries removed, freed after a GP */
	unsigned long poisoned;	    /* reads of a retired entry: must be 0 */
	unsigned long misses;	    /* "config" not found: must be 0 */
};

/* The flavour the plugin's rculist calls reach: rculist_flavor_name(). */
const char *plugin_flavor(void);
/* The flavour the plugin was built for (the -lrculist-<f> it linked). */
const char *plugin_built_for(void);
/* How it has rculist: "librculist-bp.so", or "librculist-bp.a embedded". */
const char *plugin_linkage(void);
/*
 * Fill the registry, start the plugin's own reader threads (under bp they
 * never register), update the registry @rounds times from the calling
 * thread, retiring entries through rculist_call_rcu() and
 * rculist_free_rcu(), signal the readers (bp), then stop and join them.
 * Retired entries stay queued for their grace period when it returns.
 * 0 on success; the counts go to @st.
 */
int plugin_run(unsigned long rounds, struct plugin_stats *st);
/* @name's value, or -1 if absent.  bp: async-signal-safe, any thread. */
int plugin_lookup(const char *name);

#endif /* PLUGIN_H */
