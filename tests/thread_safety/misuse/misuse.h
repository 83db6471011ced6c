/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/thread_safety/misuse/misuse.h - what every misuse file shares.
 *
 * Each misuse file holds one mistake, on the line marked MISUSE, and
 * names the warning clang -Wthread-safety must give there in its
 * "expect:" line (tests/thread_safety/run.sh).  The files are compiled,
 * never run.
 */
#ifndef RCULIST_TESTS_MISUSE_H
#define RCULIST_TESTS_MISUSE_H

#include <rculist.h>

struct item {
	int key;
	struct cds_list_head link;
	struct cds_hlist_node hnode;
	struct cds_hlist_nulls_node nnode;
};

extern struct cds_list_head list, other;
extern struct cds_hlist_head hlist;
extern struct cds_hlist_nulls_head nulls;

#endif /* RCULIST_TESTS_MISUSE_H */
