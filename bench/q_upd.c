// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/q_upd.c - update-side microbenchmarks.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <valgrind/callgrind.h>

#include <rculist.h>

#include "harness.h"

/* ------------------------------------------------- update-side section */

const char *const op_names[OP_COUNT] = {
	[OP_LIST_ADD] = "list_add_rcu",
	[OP_LIST_DEL] = "list_del_rcu",
	[OP_LIST_REPLACE] = "list_replace_rcu",
	[OP_HLIST_ADD] = "hlist_add_head_rcu",
	[OP_HLIST_DEL] = "hlist_del_rcu",
};

/*
 * Put the pool in the state operation @op starts from, for a run of @n
 * operations (n <= UPD_CHUNK): the deletions' and replacements' first @n
 * elements on the list, the rest of the pool on none.
 */
void upd_prepare(enum bench_op op, struct elem **v, unsigned long n,
		 struct cds_list_head *head, struct cds_hlist_head *hhead)
{
	CDS_INIT_LIST_HEAD(head);
	hhead->next = NULL;
	for (unsigned long i = 0; i < 2 * UPD_CHUNK; i++) {
		CDS_INIT_LIST_HEAD(&v[i]->node);
		v[i]->hnode.next = v[i]->hnode.prev = NULL;
	}
	if (op == OP_LIST_DEL || op == OP_LIST_REPLACE)
		for (unsigned long i = 0; i < n; i++)
			cds_list_add(&v[i]->node, head);
	if (op == OP_HLIST_DEL)
		for (unsigned long i = 0; i < n; i++)
			cds_hlist_add_head(&v[i]->hnode, hhead);
}

void *upd_head(enum bench_op op, struct cds_list_head *head,
	       struct cds_hlist_head *hhead)
{
	return op == OP_HLIST_ADD || op == OP_HLIST_DEL ? (void *)hhead :
							  (void *)head;
}

static void section_upd(void)
{
	const struct bench_side *sides[] = { &bench_side_rl, &bench_side_urcu };
	struct elem *v[2 * UPD_CHUNK];
	struct cds_list_head head;
	struct cds_hlist_head hhead;

	for (unsigned long i = 0; i < 2 * UPD_CHUNK; i++)
		v[i] = elem_new(i);
	for (int rep = 0; rep < reps; rep++) {
		for (int op = 0; op < OP_COUNT; op++) {
			for (int i = 0; i < 2; i++) {
				bench_op_fn fn = sides[i]->op[op];
				double spent = 0, t0 = now(), t;
				unsigned long n = 0;
				struct noise nz;
				double other;
				int dist;

				progress("upd %-18s %-8s run %d of %d",
					 op_names[op], sides[i]->name, rep + 1,
					 reps);
				noise_start(&nz, 1);
				do {
					upd_prepare(op, v, UPD_CHUNK, &head,
						    &hhead);
					t = now();
					fn(v, UPD_CHUNK,
					   upd_head(op, &head, &hhead));
					spent += now() - t;
					n += UPD_CHUNK;
				} while (now() - t0 < 0.02 * scale);
				other = noise_end(&nz, &dist);
				record("upd", op_names[op], sides[i]->name,
				       "ns/op", spent * 1e9 / (double)n, other,
				       dist);
			}
		}
	}
	for (unsigned long i = 0; i < 2 * UPD_CHUNK; i++)
		free(v[i]);
	progress_done();
}

static void print_upd_table(void)
{
	printf("\nupd: update-side operations, ns/op: median [min-max], x urcu\n"
	       "     " NOISE_LINE "\n");
	for (int op = 0; op < OP_COUNT; op++) {
		struct stat u = stat_get("upd", op_names[op], "urcu", "ns/op");
		struct stat r = stat_get("upd", op_names[op], "rculist", "ns/op");
		char a[32], b[32];

		if (!r.n)
			continue;
		snprintf(a, sizeof(a), "[%.2f-%.2f]", r.min, r.max);
		snprintf(b, sizeof(b), "[%.2f-%.2f]", u.min, u.max);
		printf("%-20s rculist %6.2f%s %15s  urcu %6.2f%s %15s  %5.2fx\n",
		       op_names[op], r.med, r.noisy ? "!" : " ", a, u.med,
		       u.noisy ? "!" : " ", b, r.med / u.med);
	}
}

static void run_upd_section(void)
{
	section_upd();
	print_upd_table();
}
BENCH_SECTION("upd", run_upd_section)
