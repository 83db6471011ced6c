// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/list_sort.c - cds_list_sort(): order, stability, the whole
 * shape of the result, the number of comparisons against the bound of a
 * balanced merge sort, no allocation, no recursion.
 */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

TestSuite(list_sort, .timeout = 30);

struct sel {
	unsigned int guard1;
	struct cds_list_head link;
	unsigned int guard2;
	int value;
	unsigned int serial; /* input position */
};

#define GUARD1 0x5eed1234u
#define GUARD2 0x0badf00du

struct sort_ctx {
	struct sel *el;
	size_t n;
	unsigned long calls;
	uintptr_t stack_low, stack_high; /* addresses of cmp's frame */
	int bad;			 /* a comparison of a stranger */
};

static int cmp_value(void *priv, const struct cds_list_head *a,
		     const struct cds_list_head *b)
{
	struct sort_ctx *c = priv;
	const struct sel *x = cds_list_entry(a, struct sel, link);
	const struct sel *y = cds_list_entry(b, struct sel, link);
	uintptr_t here = (uintptr_t)&here;

	c->calls++;
	if (!c->stack_low || here < c->stack_low)
		c->stack_low = here;
	if (here > c->stack_high)
		c->stack_high = here;
	if (x->serial >= c->n || &c->el[x->serial] != x || y->serial >= c->n ||
	    &c->el[y->serial] != y || x->guard1 != GUARD1 || x->guard2 != GUARD2 ||
	    y->guard1 != GUARD1 || y->guard2 != GUARD2 || a == b)
		c->bad = 1;
	return (x->value > y->value) - (x->value < y->value);
}

static uint64_t rnd_state;

static uint32_t rnd(void)
{
	rnd_state = rnd_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(rnd_state >> 33);
}

/* [h] <-> el[0] <-> ... <-> el[n-1], values from @value(i). */
static struct sel *build(struct cds_list_head *h, size_t n,
			 int (*value)(size_t i, size_t n))
{
	struct sel *el = calloc(n ? n : 1, sizeof(*el));
	size_t i;

	cr_assert_not_null(el);
	CDS_INIT_LIST_HEAD(h);
	for (i = 0; i < n; i++) {
		el[i].guard1 = GUARD1;
		el[i].guard2 = GUARD2;
		el[i].serial = (unsigned int)i;
		el[i].value = value(i, n);
		cds_list_add_tail(&el[i].link, h);
	}
	return el;
}

/*
 * Every element once, in both directions, values non-decreasing, equal
 * values in input order: the whole shape of a stable sort's result.
 */
static void check_sorted(const struct cds_list_head *h, const struct sel *el,
			 size_t n, const char *what)
{
	const struct cds_list_head *pos = h;
	unsigned char *seen = calloc(n ? n : 1, 1);
	const struct sel *prev = NULL, *cur;
	size_t i;

	cr_assert_not_null(seen);
	for (i = 0; i < n; i++) {
		cr_assert_eq(pos->next->prev, pos, "%s n=%zu: [%zu] next->prev",
			     what, n, i);
		pos = pos->next;
		cr_assert_neq(pos, h, "%s n=%zu: list ends after %zu", what, n,
			      i);
		cur = cds_list_entry(pos, struct sel, link);
		cr_assert(cur >= el && cur < el + n,
			  "%s: a stranger in the list", what);
		cr_assert_eq(seen[cur - el], 0, "%s n=%zu: element %zu twice",
			     what, n, (size_t)(cur - el));
		seen[cur - el] = 1;
		if (prev) {
			cr_assert_leq(prev->value, cur->value,
				      "%s n=%zu: not sorted at %zu", what, n, i);
			if (prev->value == cur->value)
				cr_assert_lt(prev->serial, cur->serial,
					     "%s n=%zu: equal values reordered at %zu",
					     what, n, i);
		}
		prev = cur;
	}
	cr_assert_eq(pos->next, h, "%s n=%zu: list longer than n", what, n);
	cr_assert_eq(h->prev, pos, "%s n=%zu: head->prev is not the last", what,
		     n);
	free(seen);
}

/* ceil(log2 n), n >= 1 */
static unsigned int clog2(size_t n)
{
	unsigned int k = 0;

	while (((size_t)1 << k) < n)
		k++;
	return k;
}

/*
 * The worst case of a balanced (top-down) merge sort, which halves every
 * run: n*ceil(log2 n) - 2^ceil(log2 n) + 1.  The kernel's list_sort()
 * documents its count as n*log2(n) - K*n for a K near 1; this bound is
 * of that form, and below n*log2(n) - 0.91*n.
 */
static unsigned long bound(size_t n)
{
	unsigned int k = clog2(n);

	return n < 2 ? 0 : n * k - ((size_t)1 << k) + 1;
}

static int v_random_dups(size_t i, size_t n)
{
	(void)i;
	return (int)(rnd() % (n / 3 + 1));
}
static int v_random(size_t i, size_t n)
{
	(void)i;
	(void)n;
	return (int)(rnd() >> 1);
}
static int v_ascending(size_t i, size_t n)
{
	(void)n;
	return (int)i;
}
static int v_descending(size_t i, size_t n)
{
	return (int)(n - i);
}
static int v_equal(size_t i, size_t n)
{
	(void)i;
	(void)n;
	return 7;
}
static int v_sawtooth(size_t i, size_t n)
{
	(void)n;
	return (int)(i % 5);
}

static const struct {
	const char *name;
	int (*value)(size_t i, size_t n);
} inputs[] = {
	{ "random with equal keys", v_random_dups },
	{ "random", v_random },
	{ "ascending", v_ascending },
	{ "descending", v_descending },
	{ "all equal", v_equal },
	{ "sawtooth", v_sawtooth },
};

static void sort_one(size_t n, size_t in)
{
	struct cds_list_head h;
	struct sort_ctx c = { 0 };
	struct sel *el = build(&h, n, inputs[in].value);

	c.el = el;
	c.n = n;
	cds_list_sort(&c, &h, cmp_value);
	cr_assert_eq(c.bad, 0, "%s n=%zu: cmp got an element not of the list",
		     inputs[in].name, n);
	check_sorted(&h, el, n, inputs[in].name);
	cr_assert_leq(c.calls, bound(n), "%s n=%zu: %lu comparisons, bound %lu",
		      inputs[in].name, n, c.calls, bound(n));
	free(el);
}

/* before: [h]   after: [h]; before: [h] <-> a   after: [h] <-> a */
Test(list_sort, empty_and_single)
{
	struct cds_list_head h;
	struct sort_ctx c = { 0 };
	struct sel *el = build(&h, 0, v_random);

	c.el = el;
	cds_list_sort(&c, &h, cmp_value);
	CHECK_EMPTY(&h);
	cr_assert_eq(c.calls, 0);
	free(el);

	el = build(&h, 1, v_random);
	c.el = el;
	c.n = 1;
	cds_list_sort(&c, &h, cmp_value);
	cr_assert_eq(h.next, &el[0].link);
	cr_assert_eq(h.prev, &el[0].link);
	cr_assert_eq(el[0].link.next, &h);
	cr_assert_eq(el[0].link.prev, &h);
	cr_assert_eq(c.calls, 0);
	free(el);
}

/* Every length up to 300, every kind of input, bound on comparisons. */
Test(list_sort, lengths_to_300_all_inputs)
{
	size_t n, in;

	rnd_state = 1;
	for (in = 0; in < sizeof(inputs) / sizeof(inputs[0]); in++)
		for (n = 0; n <= 300; n++)
			sort_one(n, in);
}

/* Lengths whose bit patterns take every split: powers of two and neighbours. */
Test(list_sort, lengths_around_powers_of_two)
{
	unsigned int k;
	size_t in;
	int d;

	rnd_state = 2;
	for (k = 9; k <= 14; k++)
		for (d = -1; d <= 1; d++)
			for (in = 0; in < sizeof(inputs) / sizeof(inputs[0]); in++)
				sort_one(((size_t)1 << k) + (size_t)(long)d, in);
}

/*
 * A sorted input of 2^k elements: each merge of two halves stops when the
 * first half runs out, after half as many comparisons as elements: (n/2)*k
 * in all, exactly.
 */
Test(list_sort, ascending_power_of_two_count_exact)
{
	struct cds_list_head h;
	struct sort_ctx c = { 0 };
	size_t n = (size_t)1 << 12;
	struct sel *el = build(&h, n, v_ascending);

	c.el = el;
	c.n = n;
	cds_list_sort(&c, &h, cmp_value);
	check_sorted(&h, el, n, "ascending");
	cr_assert_eq(c.calls, (unsigned long)(n / 2 * 12), "%lu comparisons",
		     c.calls);
	free(el);
}

/*
 * cmp(priv, a, b) > 0 puts a after b, whatever the sign convention of
 * the values: a comparison that reverses the order sorts descending,
 * equal elements still in input order.
 */
static int cmp_reverse(void *priv, const struct cds_list_head *a,
		       const struct cds_list_head *b)
{
	return -cmp_value(priv, a, b);
}

Test(list_sort, reversed_comparison_sorts_descending_stably)
{
	struct cds_list_head h, *pos;
	struct sort_ctx c = { 0 };
	size_t n = 1000;
	const struct sel *prev = NULL, *cur;
	struct sel *el;

	rnd_state = 3;
	el = build(&h, n, v_random_dups);
	c.el = el;
	c.n = n;
	cds_list_sort(&c, &h, cmp_reverse);
	cr_assert_eq(c.bad, 0);
	cr_assert_eq(cds_list_count_nodes(&h), n);
	cr_assert(rculist_list_check(&h));
	cds_list_for_each(pos, &h) {
		cur = cds_list_entry(pos, struct sel, link);
		if (prev) {
			cr_assert_geq(prev->value, cur->value);
			if (prev->value == cur->value)
				cr_assert_lt(prev->serial, cur->serial);
		}
		prev = cur;
	}
	free(el);
}

/*
 * No recursion: the comparison's frame sits at the same depth for 2
 * elements and for 2^17 (a recursive sort would go 17 frames deeper).
 * No allocation: glibc's count of bytes in use does not move.
 */
Test(list_sort, no_recursion_no_allocation)
{
	struct cds_list_head h;
	struct sort_ctx small = { 0 }, big = { 0 };
	size_t n = (size_t)1 << 17;
	struct sel *el2, *eln;
	struct mallinfo2 before, after;

	rnd_state = 4;
	el2 = build(&h, 2, v_descending);
	small.el = el2;
	small.n = 2;
	cds_list_sort(&small, &h, cmp_value);
	free(el2);

	eln = build(&h, n, v_random);
	big.el = eln;
	big.n = n;
	before = mallinfo2();
	cds_list_sort(&big, &h, cmp_value);
	after = mallinfo2();
	check_sorted(&h, eln, n, "big");
	cr_assert_eq(after.uordblks, before.uordblks,
		     "bytes in use %zu before the sort, %zu after",
		     before.uordblks, after.uordblks);
	cr_assert_eq(after.hblkhd, before.hblkhd);
	cr_assert_eq(big.stack_low, small.stack_low,
		     "cmp's frame at %#lx for 2 elements, %#lx (lowest) for %zu",
		     (unsigned long)small.stack_low,
		     (unsigned long)big.stack_low, n);
	cr_assert_eq(big.stack_high, big.stack_low);
	free(eln);
}
