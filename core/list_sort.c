// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/list_sort.c - cds_list_sort(): a stable merge sort of a circular
 * list, without allocation and without recursion.
 *
 * The sort is top-down merge sort, run by a loop over an explicit stack
 * instead of by recursion: each frame sorts the next n elements of the
 * input as the sort of its first n/2 and of the n - n/2 after them,
 * merged.  Splitting in halves keeps every merge balanced, which is
 * what bounds the comparisons by n*ceil(log2 n) - 2^ceil(log2 n) + 1;
 * the halves shrink to one element after ceil(log2 n) levels, so the
 * stack needs one frame per bit of a size_t, plus the root.
 *
 * While sorting, runs are NULL-terminated chains of next links; prev is
 * rebuilt once, when the whole list is merged.
 */
#include <limits.h>
#include <stddef.h>

#include <rculist.h>

/* Merge the sorted chains @a (earlier in the input) and @b: on a tie @a's
 * element goes first, which makes the sort stable. */
static struct cds_list_head *merge(void *priv, cds_list_cmp_func_t cmp,
				   struct cds_list_head *a,
				   struct cds_list_head *b)
{
	struct cds_list_head *first = NULL, **link = &first;

	for (;;) {
		if (cmp(priv, a, b) <= 0) {
			*link = a;
			link = &a->next;
			a = a->next;
			if (!a) {
				*link = b;
				return first;
			}
		} else {
			*link = b;
			link = &b->next;
			b = b->next;
			if (!b) {
				*link = a;
				return first;
			}
		}
	}
}

struct frame {
	size_t n;		    /* elements this frame sorts */
	struct cds_list_head *left; /* its first half, once sorted */
};

/* One frame per level of halving (at most the bits of a size_t) and the root. */
#define MAX_FRAMES (sizeof(size_t) * CHAR_BIT + 2)

void cds_list_sort(void *priv, struct cds_list_head *head, cds_list_cmp_func_t cmp)
{
	struct frame stack[MAX_FRAMES];
	struct cds_list_head *input, *run = NULL, *prev, *pos;
	size_t n = 0, depth = 0;

	for (pos = head->next; pos != head; pos = pos->next)
		n++;
	if (n < 2)
		return;

	head->prev->next = NULL;
	input = head->next;
	stack[depth++] = (struct frame){ n, NULL };
	while (depth) {
		struct frame *f = &stack[depth - 1];

		if (!run) {
			/* Going down: take one element, or sort the first half. */
			if (f->n == 1) {
				run = input;
				input = input->next;
				run->next = NULL;
				depth--;
			} else {
				stack[depth++] = (struct frame){ f->n / 2, NULL };
			}
		} else if (!f->left) {
			/* First half sorted: sort the second. */
			f->left = run;
			run = NULL;
			stack[depth++] = (struct frame){ f->n - f->n / 2, NULL };
		} else {
			/* Both halves sorted: merge them and return upwards. */
			run = merge(priv, cmp, f->left, run);
			depth--;
		}
	}

	/* The prev links, and the circle through the head. */
	prev = head;
	for (pos = run; pos; pos = pos->next) {
		pos->prev = prev;
		prev->next = pos;
		prev = pos;
	}
	prev->next = head;
	head->prev = prev;
}
