/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A walk of a cds_rhltable key's objects after the lookup's section ended. */
/* expect: calling function '[a-z_]*' requires holding RCU read-side section 'rculist_rcu' */
#include "misuse.h"

struct lobj {
	int key;
	struct cds_rhlist_head list;
};

static const struct cds_rhashtable_params lparams = {
	.key_len = sizeof(int),
	.key_offset = offsetof(struct lobj, key),
	.head_offset = offsetof(struct lobj, list),
};

int count(struct cds_rhltable *hlt, int key)
{
	struct cds_rhlist_head *l, *pos;
	int n = 0;

	rculist_read_lock();
	l = cds_rhltable_lookup(hlt, &key, lparams);
	rculist_read_unlock();
	cds_rhl_for_each_rcu(pos, l) /* MISUSE */
		n++;
	return n;
}
