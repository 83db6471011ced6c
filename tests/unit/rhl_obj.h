/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/unit/rhl_obj.h - the object the rhltable tests put in their
 * tables (tests/unit/rhashtable.c, tests/unit/rhashtable_walk.c): an int
 * key, several objects per key told apart by their id.  Each suite has
 * its own parameters (shrinking or not).
 */
#ifndef RCULIST_TESTS_RHL_OBJ_H
#define RCULIST_TESTS_RHL_OBJ_H

#include <rculist.h>

struct lobj {
	int key;
	int id;
	struct cds_rhlist_head list;
};

#endif
