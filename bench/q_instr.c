// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/q_instr.c - fixed work per case between callgrind client requests (make bench-instructions).
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

/* ----------------------------------------------- instruction counts */

/*
 * Fixed work per case between CALLGRIND_ZERO_STATS and a named dump;
 * `make bench-instructions` divides each dump's total by the operation
 * count in its name.  Outside valgrind the requests are no-ops.
 */
static void instr_dump(const char *section, const char *workload,
		       const char *side, unsigned long ops)
{
	char name[128];

	snprintf(name, sizeof(name), "%s/%s/%s/%s/%lu", label, section,
		 workload, side, ops);
	CALLGRIND_DUMP_STATS_AT(name);
}

static void section_instr(void)
{
	const size_t wl[] = { 0, 2, NWORKLOADS - 1 };

	bench_side_rl.thread_init();
	for (size_t w = 0; w < sizeof(wl) / sizeof(wl[0]); w++) {
		struct bench_data d;
		unsigned long n = workloads[wl[w]].nkeys == 1024 ? 2000 : 20000;

		data_init(&d, &workloads[wl[w]]);
		for (size_t i = 0; i < NREAD_SIDES; i++) {
			bench_lookup_fn fn;
			uint64_t x = seed;

			if (!read_sides[i])
				continue;
			fn = lookup_of(read_sides[i], &d);
			sink += fn(&d, 16, &x);
			x = seed;
			CALLGRIND_ZERO_STATS;
			sink += fn(&d, n, &x);
			instr_dump("read", workloads[wl[w]].name,
				   read_sides[i]->name, n);
			/* A quiescent state after every lookup: list8, hash. */
			if (d.buckets)
				fn = read_sides[i]->hash_lookup_qs;
			else if (d.nkeys == 8)
				fn = read_sides[i]->list_lookup_qs;
			else
				continue;
			x = seed;
			sink += fn(&d, 16, &x);
			x = seed;
			CALLGRIND_ZERO_STATS;
			sink += fn(&d, n, &x);
			instr_dump("read", d.buckets ? "hash+qs" : "list8+qs",
				   read_sides[i]->name, n);
		}
		data_fini(&d);
	}
	bench_side_rl.thread_fini();

	{
		const struct bench_side *sides[] = { &bench_side_rl,
						     &bench_side_urcu };
		struct elem *v[2 * UPD_CHUNK];
		struct cds_list_head head;
		struct cds_hlist_head hhead;

		for (unsigned long i = 0; i < 2 * UPD_CHUNK; i++)
			v[i] = elem_new(i);
		/*
		 * Each case twice, runs of UPD_CHUNK and of UPD_CHUNK / 2
		 * operations: bench/instr.sh takes the difference, the
		 * instructions of one more operation (the loop's), so that
		 * the function's setup before its loop (the compiler's
		 * choice, different for each side's code) does not count.
		 */
		for (int op = 0; op < OP_COUNT; op++) {
			for (int i = 0; i < 2; i++) {
				for (int half = 0; half < 2; half++) {
					unsigned long n = UPD_CHUNK >> half;

					CALLGRIND_ZERO_STATS;
					CALLGRIND_TOGGLE_COLLECT;
					for (int k = 0; k < 8; k++) {
						upd_prepare(op, v, n, &head,
							    &hhead);
						CALLGRIND_TOGGLE_COLLECT;
						sides[i]->op[op](v, n,
								 upd_head(op,
									  &head,
									  &hhead));
						CALLGRIND_TOGGLE_COLLECT;
					}
					/* Collection off: the dump's own
					 * formatting (longer for a longer
					 * side name) is not counted. */
					instr_dump(half ? "upd-half" : "upd",
						   op_names[op], sides[i]->name,
						   8 * n);
					CALLGRIND_TOGGLE_COLLECT;
				}
			}
		}
		for (unsigned long i = 0; i < 2 * UPD_CHUNK; i++)
			free(v[i]);
	}
}

BENCH_SECTION("instr", section_instr)
