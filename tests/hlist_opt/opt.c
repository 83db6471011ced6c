// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/hlist_opt/opt.c - the hlist iterators and operations under
 * optimisers that exploit undefined behaviour.
 *
 * Built by tests/hlist_opt/hlist_opt.mk with gcc and clang at -O2 and -O3 (and
 * UBSan, which aborts on the first report), then run.  It walks lists
 * whose node is not the first member of the element, so that an
 * iterator computing container_of() on the NULL at the end of a chain
 * would form a pointer below NULL: the kind of expression from which
 * compilers have concluded "the cursor is never NULL" and dropped the
 * end test.  Every walk checks the keys it saw, their number, and the
 * final value of its cursor.
 *
 * The list entry iterators (struct cds_list_head) run to their end too,
 * and from where they end: the entry computed from a static head, smaller
 * than an element, whose link they must reach without a member access
 * (the UBSan object-size check reports one).
 *
 * It also checks the operations whose prev may lead to the head: a head
 * and a node are different structure types, so a store through one must
 * not be reordered with a load through the other (strict aliasing).
 *
 * Exit status 0 when everything held; 1 and a line per failure otherwise.
 */
#include <stdio.h>
#include <stdlib.h>

#include <rculist.h>

#define NOINLINE __attribute__((noinline))

struct elem {
	long pad[3]; /* the node is NOT at offset 0 */
	int key;
	struct cds_hlist_node node;
	struct cds_hlist_nulls_node nnode;
};

#define MAXN 8

static int failures;

#define CHECK(cond, ...)                                                \
	do {                                                            \
		if (!(cond)) {                                          \
			fprintf(stderr, "hlist_opt: %s:%d: ", __FILE__, \
				__LINE__);                              \
			fprintf(stderr, __VA_ARGS__);                   \
			fputc('\n', stderr);                            \
			failures++;                                     \
		}                                                       \
	} while (0)

/* The keys a walk saw. */
struct seen {
	int n;
	int key[MAXN + 1];
};

static void saw(struct seen *s, int key)
{
	if (s->n <= MAXN)
		s->key[s->n] = key;
	s->n++;
}

/*
 * Assert that @s is the keys 1, 2, ..., @n (@down: @n, ..., 2, 1), none
 * if @n is 0, seen by walk @what of a list of @len.
 */
static void expect(const struct seen *s, int n, int down, const char *what,
		   int len)
{
	int i, want;

	CHECK(s->n == n, "%s, list of %d: visited %d, expected %d", what, len,
	      s->n, n);
	for (i = 0; i < s->n && i < n && i <= MAXN; i++) {
		want = down ? n - i : i + 1;
		CHECK(s->key[i] == want,
		      "%s, list of %d: [%d] is %d, expected %d", what, len, i,
		      s->key[i], want);
	}
}

/* ----------------------------------------------------------- the walks
 * Each is a separate, non-inlined function of an opaque head, so that
 * the compiler optimises the loop itself and not a known list. */

static NOINLINE void walk_for_each(struct cds_hlist_head *h, struct seen *s)
{
	struct cds_hlist_node *pos;

	cds_hlist_for_each(pos, h)
		saw(s, cds_hlist_entry(pos, struct elem, node)->key);
	CHECK(pos == NULL, "for_each: cursor not NULL at the end");
}

static NOINLINE void walk_for_each_safe(struct cds_hlist_head *h, struct seen *s)
{
	struct cds_hlist_node *pos, *p;

	cds_hlist_for_each_safe(pos, p, h)
		saw(s, cds_hlist_entry(pos, struct elem, node)->key);
	CHECK(pos == NULL, "for_each_safe: cursor not NULL at the end");
}

static NOINLINE void walk_for_each_rcu(struct cds_hlist_head *h, struct seen *s)
{
	struct cds_hlist_node *pos;

	cds_hlist_for_each_rcu(pos, h)
		saw(s, cds_hlist_entry(pos, struct elem, node)->key);
	CHECK(pos == NULL, "for_each_rcu: cursor not NULL at the end");
}

static NOINLINE void walk_entry(struct cds_hlist_head *h, struct seen *s)
{
	struct elem *e;
	struct cds_hlist_node *pos;

	cds_hlist_for_each_entry(e, pos, h, node)
		saw(s, e->key);
	CHECK(pos == NULL, "for_each_entry: cursor not NULL at the end");
}

static NOINLINE void walk_entry_2(struct cds_hlist_head *h, struct seen *s)
{
	struct elem *e;

	cds_hlist_for_each_entry_2(e, h, node)
		saw(s, e->key);
	CHECK(e == NULL, "for_each_entry_2: entry not NULL at the end");
}

static NOINLINE void walk_entry_safe(struct cds_hlist_head *h, struct seen *s)
{
	struct elem *e;
	struct cds_hlist_node *pos, *p;

	cds_hlist_for_each_entry_safe(e, pos, p, h, node)
		saw(s, e->key);
	CHECK(pos == NULL, "for_each_entry_safe: cursor not NULL at the end");
}

static NOINLINE void walk_entry_safe_2(struct cds_hlist_head *h, struct seen *s)
{
	struct elem *e, *n;

	cds_hlist_for_each_entry_safe_2(e, n, h, node)
		saw(s, e->key);
	CHECK(e == NULL, "for_each_entry_safe_2: entry not NULL at the end");
}

static NOINLINE void walk_entry_rcu(struct cds_hlist_head *h, struct seen *s)
{
	struct elem *e;
	struct cds_hlist_node *pos;

	cds_hlist_for_each_entry_rcu(e, pos, h, node)
		saw(s, e->key);
	CHECK(pos == NULL, "for_each_entry_rcu: cursor not NULL at the end");
}

static NOINLINE void walk_entry_rcu_2(struct cds_hlist_head *h, struct seen *s)
{
	struct elem *e;

	cds_hlist_for_each_entry_rcu_2(e, h, node)
		saw(s, e->key);
	CHECK(e == NULL, "for_each_entry_rcu_2: entry not NULL at the end");
}

/* The first element with cds_hlist_entry_safe(), then the rest. */
static NOINLINE void walk_continue(struct cds_hlist_head *h, struct seen *s)
{
	struct elem *e = cds_hlist_entry_safe(h->next, struct elem, node);

	if (!e)
		return;
	saw(s, e->key);
	cds_hlist_for_each_entry_continue(e, node)
		saw(s, e->key);
	CHECK(e == NULL, "for_each_entry_continue: entry not NULL at the end");
}

static NOINLINE void walk_continue_rcu(struct cds_hlist_head *h, struct seen *s)
{
	struct elem *e =
		cds_hlist_entry_safe(rculist__deref(h->next), struct elem, node);

	if (!e)
		return;
	saw(s, e->key);
	cds_hlist_for_each_entry_continue_rcu(e, node)
		saw(s, e->key);
	CHECK(e == NULL,
	      "for_each_entry_continue_rcu: entry not NULL at the end");
}

static NOINLINE void walk_from(struct cds_hlist_head *h, struct seen *s)
{
	struct elem *e = cds_hlist_entry_safe(h->next, struct elem, node);

	cds_hlist_for_each_entry_from(e, node)
		saw(s, e->key);
	CHECK(e == NULL, "for_each_entry_from: entry not NULL at the end");
}

static NOINLINE void walk_from_rcu(struct cds_hlist_head *h, struct seen *s)
{
	struct elem *e =
		cds_hlist_entry_safe(rculist__deref(h->next), struct elem, node);

	cds_hlist_for_each_entry_from_rcu(e, node)
		saw(s, e->key);
	CHECK(e == NULL, "for_each_entry_from_rcu: entry not NULL at the end");
}

/* A nulls list ends with an odd marker, never NULL: the walk must stop
 * there and leave the marker (of value 7 here) in the cursor. */
static NOINLINE void walk_nulls(struct cds_hlist_nulls_head *h, struct seen *s)
{
	struct elem *e;
	struct cds_hlist_nulls_node *pos;

	cds_hlist_nulls_for_each_entry(e, pos, h, nnode)
		saw(s, e->key);
	CHECK(cds_is_a_nulls(pos) && cds_get_nulls_value(pos) == 7,
	      "nulls_for_each_entry: cursor is not the end marker 7");
}

static NOINLINE void walk_nulls_rcu(struct cds_hlist_nulls_head *h,
				    struct seen *s)
{
	struct elem *e;
	struct cds_hlist_nulls_node *pos;

	cds_hlist_nulls_for_each_entry_rcu(e, pos, h, nnode)
		saw(s, e->key);
	CHECK(cds_is_a_nulls(pos) && cds_get_nulls_value(pos) == 7,
	      "nulls_for_each_entry_rcu: cursor is not the end marker 7");
}

/* The first element with a break, and what the cursor holds after it. */
static NOINLINE int break_at_2(struct cds_hlist_head *h)
{
	struct elem *e;

	cds_hlist_for_each_entry_rcu_2(e, h, node)
		if (e->key == 2)
			break;
	return e ? e->key : 0;
}

#ifdef HLIST_OPT_NAIVE
/*
 * The check of the check: an iterator in liburcu 0.13's style, which
 * computes container_of() on the NULL that ends the list and tests the
 * member's address.  Built with -DHLIST_OPT_NAIVE and UBSan, this program
 * must fail (tests/hlist_opt/hlist_opt.mk expects it to).
 */
#define naive_for_each_entry_2(entry, head, member)                        \
	for ((entry) = cds_hlist_entry((head)->next, struct elem, member); \
	     &(entry)->member != NULL;                                     \
	     (entry) = cds_hlist_entry((entry)->member.next, struct elem,  \
				       member))

static NOINLINE void walk_naive(struct cds_hlist_head *h, struct seen *s)
{
	struct elem *e;

	naive_for_each_entry_2(e, h, node)
		saw(s, e->key);
}
#endif

typedef void walk_fn(struct cds_hlist_head *h, struct seen *s);

static const struct {
	const char *name;
	walk_fn *fn;
	int rcu;
} walks[] = {
	{ "for_each", walk_for_each, 0 },
	{ "for_each_safe", walk_for_each_safe, 0 },
	{ "for_each_rcu", walk_for_each_rcu, 1 },
	{ "for_each_entry", walk_entry, 0 },
	{ "for_each_entry_2", walk_entry_2, 0 },
	{ "for_each_entry_safe", walk_entry_safe, 0 },
	{ "for_each_entry_safe_2", walk_entry_safe_2, 0 },
	{ "for_each_entry_rcu", walk_entry_rcu, 1 },
	{ "for_each_entry_rcu_2", walk_entry_rcu_2, 1 },
	{ "for_each_entry_continue", walk_continue, 0 },
	{ "for_each_entry_continue_rcu", walk_continue_rcu, 1 },
	{ "for_each_entry_from", walk_from, 0 },
	{ "for_each_entry_from_rcu", walk_from_rcu, 1 },
#ifdef HLIST_OPT_NAIVE
	{ "naive container_of(NULL)", walk_naive, 0 },
#endif
};

static void check_walks(int len)
{
	struct elem *el = calloc(MAXN, sizeof(*el));
	struct cds_hlist_head h;
	struct cds_hlist_nulls_head nh;
	struct seen s;
	size_t w;
	int i;

	if (!el) {
		perror("calloc");
		exit(2);
	}
	CDS_INIT_HLIST_HEAD(&h);
	CDS_INIT_HLIST_NULLS_HEAD(&nh, 7);
	for (i = len; i >= 1; i--) {
		el[i - 1].key = i;
		cds_hlist_add_head(&el[i - 1].node, &h);
		cds_hlist_nulls_add_head(&el[i - 1].nnode, &nh);
	}
	for (w = 0; w < sizeof(walks) / sizeof(walks[0]); w++) {
		s.n = 0;
		if (walks[w].rcu)
			rculist_read_lock();
		walks[w].fn(&h, &s);
		if (walks[w].rcu)
			rculist_read_unlock();
		expect(&s, len, 0, walks[w].name, len);
	}
	s.n = 0;
	walk_nulls(&nh, &s);
	expect(&s, len, 0, "nulls_for_each_entry", len);
	s.n = 0;
	rculist_read_lock();
	walk_nulls_rcu(&nh, &s);
	rculist_read_unlock();
	expect(&s, len, 0, "nulls_for_each_entry_rcu", len);

	rculist_read_lock();
	i = break_at_2(&h);
	rculist_read_unlock();
	CHECK(i == (len >= 2 ? 2 : 0), "break at key 2, list of %d: got %d",
	      len, i);
	free(el);
}

/* ---------------------------------------------- head/node aliasing
 * Each function changes the head's next through an operation that only
 * has a node pointer, then reads it back through the head. */

static NOINLINE struct cds_hlist_node *del_only(struct cds_hlist_head *h,
						struct elem *a)
{
	CDS_INIT_HLIST_HEAD(h);
	cds_hlist_add_head(&a->node, h);
	cds_hlist_del(&a->node);
	return h->next; /* NULL */
}

static NOINLINE struct cds_hlist_node *
add_before_first(struct cds_hlist_head *h, struct elem *a, struct elem *b)
{
	CDS_INIT_HLIST_HEAD(h);
	cds_hlist_add_head(&b->node, h);
	cds_hlist_add_before(&a->node, &b->node);
	return h->next; /* a */
}

static NOINLINE struct cds_hlist_node *
add_before_rcu_first(struct cds_hlist_head *h, struct elem *a, struct elem *b)
{
	CDS_INIT_HLIST_HEAD(h);
	cds_hlist_add_head(&b->node, h);
	cds_hlist_add_before_rcu(&a->node, &b->node);
	return h->next; /* a */
}

static NOINLINE struct cds_hlist_node *del_rcu_only(struct cds_hlist_head *h,
						    struct elem *a)
{
	CDS_INIT_HLIST_HEAD(h);
	cds_hlist_add_head(&a->node, h);
	cds_hlist_del_rcu(&a->node);
	return h->next; /* NULL */
}

static NOINLINE struct cds_hlist_node *del_init_only(struct cds_hlist_head *h,
						     struct elem *a)
{
	CDS_INIT_HLIST_HEAD(h);
	cds_hlist_add_head(&a->node, h);
	cds_hlist_del_init_rcu(&a->node);
	return h->next; /* NULL */
}

static NOINLINE struct cds_hlist_node *
replace_first(struct cds_hlist_head *h, struct elem *a, struct elem *b)
{
	CDS_INIT_HLIST_HEAD(h);
	cds_hlist_add_head(&a->node, h);
	cds_hlist_replace_rcu(&a->node, &b->node);
	return h->next; /* b */
}

static NOINLINE struct cds_hlist_node *add_tail_empty(struct cds_hlist_head *h,
						      struct elem *a)
{
	CDS_INIT_HLIST_HEAD(h);
	cds_hlist_add_tail_rcu(&a->node, h);
	return h->next; /* a */
}

static NOINLINE struct cds_hlist_nulls_node *
nulls_del_only(struct cds_hlist_nulls_head *h, struct elem *a)
{
	CDS_INIT_HLIST_NULLS_HEAD(h, 3);
	cds_hlist_nulls_add_head(&a->nnode, h);
	cds_hlist_nulls_del(&a->nnode);
	return h->next; /* the marker 3 */
}

static NOINLINE struct cds_hlist_nulls_node *
nulls_del_rcu_only(struct cds_hlist_nulls_head *h, struct elem *a)
{
	CDS_INIT_HLIST_NULLS_HEAD(h, 3);
	cds_hlist_nulls_add_head_rcu(&a->nnode, h);
	cds_hlist_nulls_del_init_rcu(&a->nnode);
	return h->next; /* the marker 3 */
}

static NOINLINE struct cds_hlist_nulls_node *
nulls_add_tail_empty(struct cds_hlist_nulls_head *h, struct elem *a)
{
	CDS_INIT_HLIST_NULLS_HEAD(h, 3);
	cds_hlist_nulls_add_tail_rcu(&a->nnode, h);
	return h->next; /* a */
}

static void check_aliasing(void)
{
	struct cds_hlist_head h;
	struct cds_hlist_nulls_head nh;
	struct elem a, b;
	struct cds_hlist_nulls_node *m;

	CHECK(del_only(&h, &a) == NULL, "del of the only node: head->next stale");
	CHECK(add_before_first(&h, &a, &b) == &a.node,
	      "add_before the first node: head->next stale");
	CHECK(add_before_rcu_first(&h, &a, &b) == &a.node,
	      "add_before_rcu the first node: head->next stale");
	CHECK(del_rcu_only(&h, &a) == NULL,
	      "del_rcu of the only node: head->next stale");
	CHECK(del_init_only(&h, &a) == NULL,
	      "del_init_rcu of the only node: head->next stale");
	CHECK(replace_first(&h, &a, &b) == &b.node,
	      "replace_rcu of the first node: head->next stale");
	CHECK(add_tail_empty(&h, &a) == &a.node,
	      "add_tail_rcu on empty: head->next stale");
	m = nulls_del_only(&nh, &a);
	CHECK(cds_is_a_nulls(m) && cds_get_nulls_value(m) == 3,
	      "nulls_del of the only node: head->next stale");
	m = nulls_del_rcu_only(&nh, &a);
	CHECK(cds_is_a_nulls(m) && cds_get_nulls_value(m) == 3,
	      "nulls_del_init_rcu of the only node: head->next stale");
	CHECK(nulls_add_tail_empty(&nh, &a) == &a.nnode,
	      "nulls_add_tail_rcu on empty: head->next stale");
}

/* ------------------------------------------- list entries at the head */
/*
 * An entry iterator of a struct cds_list_head list ends with its cursor
 * at the entry computed from the head, which is no object of the
 * element's type.  Here the head is a static of 16 bytes and an element
 * is larger, so a member access through that cursor is what clang's
 * UBSan (its object-size check) reports: cds_list_entry_is_head(),
 * cds_list_next_entry() and cds_list_prev_entry() on it, and the
 * iterators that start from it (_from, _continue, _safe_from,
 * _safe_continue, their _rcu forms, after cds_list_prepare_entry(NULL)),
 * must reach its link without one.  The head is named directly in each
 * walk, so that the compiler sees the object's size.
 */
/*
 * gcc 12's -Warray-bounds (in -Wall at -O2) takes the walks from the
 * head's entry of a static head for accesses before the head, with these
 * headers as with liburcu's and the kernel's macros: a false report,
 * left out here so that the walks build with -Werror.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif

struct item {
	long pad[6];
	int key;
	struct cds_list_head link; /* not at offset 0 either */
};

static CDS_LIST_HEAD(lhead);

#define AT_HEAD(pos) cds_list_entry_is_head(pos, &lhead, link)

#ifdef LIST_END_NAIVE
/*
 * The check of the check: cds_list_for_each_entry_continue() as written
 * before, the cursor's link reached by a member access ("pos->member.next",
 * as the kernel's list_for_each_entry_continue() does).  Built with
 * -DLIST_END_NAIVE and clang's UBSan, this program must fail (hlist_opt.mk;
 * gcc's UBSan does not see the head's size there).
 */
#define naive_for_each_entry_continue(pos)                                \
	for ((pos) = cds_list_entry((pos)->link.next, struct item, link); \
	     &(pos)->link != &lhead;                                      \
	     (pos) = cds_list_entry((pos)->link.next, struct item, link))
#endif

/* Every entry walk of a list of @len (keys 1..@len), to its end. */
static NOINLINE void list_walks(struct seen *s, int len)
{
	struct item *pos, *n, *start;
	const char *what;

#define LIST_WALK(name, n_, down, ...)           \
	do {                                     \
		what = name;                     \
		s->n = 0;                        \
		__VA_ARGS__                      \
		saw(s, pos->key);                \
		expect(s, n_, down, what, len);  \
		CHECK(AT_HEAD(pos),              \
		      "%s: cursor not at the "   \
		      "head's entry at the end", \
		      what);                     \
	} while (0)
	LIST_WALK("list for_each_entry", len, 0,
		  cds_list_for_each_entry(pos, &lhead, link));
	start = pos;
	LIST_WALK("list for_each_entry_reverse", len, 1,
		  cds_list_for_each_entry_reverse(pos, &lhead, link));
	LIST_WALK("list for_each_entry_from the head", 0, 0, pos = start;
		  cds_list_for_each_entry_from(pos, &lhead, link));
	LIST_WALK("list for_each_entry_from_reverse the head", 0, 0, pos = start;
		  cds_list_for_each_entry_from_reverse(pos, &lhead, link));
	LIST_WALK("list for_each_entry_continue from the head", len, 0,
		  pos = start;
		  cds_list_for_each_entry_continue(pos, &lhead, link));
	LIST_WALK("list for_each_entry_continue_reverse from the head", len, 1,
		  pos = start;
		  cds_list_for_each_entry_continue_reverse(pos, &lhead, link));
	LIST_WALK("list continue from cds_list_entry(head)", len, 0,
		  pos = cds_list_entry(&lhead, struct item, link);
		  cds_list_for_each_entry_continue(pos, &lhead, link));
	LIST_WALK("list continue after prepare_entry(NULL)", len, 0,
		  pos = cds_list_prepare_entry((struct item *)NULL, &lhead, link);
		  cds_list_for_each_entry_continue(pos, &lhead, link));
	LIST_WALK("list for_each_entry_safe", len, 0,
		  cds_list_for_each_entry_safe(pos, n, &lhead, link));
	LIST_WALK("list for_each_entry_safe_reverse", len, 1,
		  cds_list_for_each_entry_safe_reverse(pos, n, &lhead, link));
	LIST_WALK("list for_each_entry_safe_from the head", 0, 0, pos = start;
		  cds_list_for_each_entry_safe_from(pos, n, &lhead, link));
	LIST_WALK("list for_each_entry_safe_continue from the head", len, 0,
		  pos = start;
		  cds_list_for_each_entry_safe_continue(pos, n, &lhead, link));
#ifdef LIST_END_NAIVE
	LIST_WALK("naive continue from the head", len, 0,
		  pos = cds_list_entry(&lhead, struct item, link);
		  naive_for_each_entry_continue(pos));
#endif
	rculist_read_lock();
	LIST_WALK("list for_each_entry_rcu", len, 0,
		  cds_list_for_each_entry_rcu(pos, &lhead, link));
	LIST_WALK("list for_each_entry_from_rcu the head", 0, 0, pos = start;
		  cds_list_for_each_entry_from_rcu(pos, &lhead, link));
	LIST_WALK("list for_each_entry_continue_rcu from the head", len, 0,
		  pos = start;
		  cds_list_for_each_entry_continue_rcu(pos, &lhead, link));
	rculist_read_unlock();
#undef LIST_WALK
	pos = start;
	n = cds_list_next_entry(pos, link);
	CHECK(len ? n->key == 1 : AT_HEAD(n),
	      "list next_entry of the head's entry: not the first");
	n = cds_list_prev_entry(pos, link);
	CHECK(len ? n->key == len : AT_HEAD(n),
	      "list prev_entry of the head's entry: not the last");
}

static void check_list_end(int len)
{
	struct item *it = calloc(MAXN, sizeof(*it));
	struct seen s;
	int i;

	CHECK(it != NULL, "out of memory");
	if (!it)
		return;
	CDS_INIT_LIST_HEAD(&lhead);
	for (i = 0; i < len; i++) {
		it[i].key = i + 1;
		cds_list_add_tail(&it[i].link, &lhead);
	}
	list_walks(&s, len);
	CDS_INIT_LIST_HEAD(&lhead);
	free(it);
}

int main(void)
{
	int len;

	rculist_register_thread();
	for (len = 0; len <= 5; len++)
		check_walks(len);
	for (len = 0; len <= 3; len++)
		check_list_end(len);
	check_aliasing();
	rculist_unregister_thread();
	if (failures) {
		fprintf(stderr, "hlist_opt: %d failures\n", failures);
		return 1;
	}
	return 0;
}
