// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/unit/mutation_removed_rcu.c - a reader standing on an element
 * that an updater removes or replaces with an _rcu operation goes on to
 * the rest of the list, as every _rcu operation's contract promises
 * (the removed element's links stay valid until a grace period has
 * passed); the list the updater leaves is checked whole.
 *
 * One thread: the updater's call runs between two steps of the reader's
 * walk, inside the reader's section.  Each walk is bounded (WALK_MAX), so
 * that a removed element pointing at itself fails the test instead of
 * hanging it.  Written for planted bugs that re-initialise or clear the
 * removed element's next (tests/mutants/planted/).
 */
#include "check.h"

TestSuite(mutation_removed_rcu, .timeout = 10);

#define WALK_MAX 8

/* What the updater does to the element the reader stands on. */
enum update { DEL, DEL_INIT, REPLACE, REPLACE_INIT };

/* The keys a walk met, at most WALK_MAX. */
struct seen {
	int key[WALK_MAX];
	size_t n;
};

/* Record @key; the walk must not go on for ever. */
static void see(struct seen *s, int key)
{
	cr_assert_lt(s->n, (size_t)WALK_MAX,
		     "the walk went on past %d elements (a removed element "
		     "leads back to itself?)",
		     WALK_MAX);
	s->key[s->n++] = key;
}

#define CHECK_SEEN(s, ...) check_seen(s, KEYS(__VA_ARGS__), #s)

static void check_seen(const struct seen *s, const int *keys, size_t n,
		       const char *where)
{
	cr_assert_eq(s->n, n, "%s: the reader met %zu elements, expected %zu",
		     where, s->n, n);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(s->key[i], keys[i], "%s: [%zu] is %d, expected %d",
			     where, i, s->key[i], keys[i]);
}

/* ----------------------------------------------------- circular lists */

static struct item it[4]; /* 'a', 'b', 'c', and 'x' the replacement */
static struct cds_list_head h;

#define LIT(ch) (&it[(ch) == 'x' ? 3 : (ch) - 'a'])

/* [h] <-> a <-> b <-> c */
static void list_setup(void)
{
	memset(it, 0xa5, sizeof(it));
	for (int i = 0; i < 4; i++)
		it[i].key = i < 3 ? 'a' + i : 'x';
	CDS_INIT_LIST_HEAD(&h);
	for (int ch = 'a'; ch <= 'c'; ch++)
		cds_list_add_tail_rcu(&LIT(ch)->link, &h);
}

static void list_update(enum update u)
{
	if (u == DEL)
		cds_list_del_rcu(&LIT('b')->link);
	else
		cds_list_replace_rcu(&LIT('b')->link, &LIT('x')->link);
}

/*
 * before: [h] <-> a <-> b <-> c, a reader on b
 * after:  [h] <-> a <-> c (DEL) or a <-> x <-> c (REPLACE); the reader
 *	   goes on from b to c (forwards) or to a (backwards)
 */
static void list_case(enum update u, int backwards)
{
	struct seen s = { .n = 0 };
	struct item *pos;

	list_setup();
	reader_begin();
	if (backwards) {
		cds_list_for_each_entry_reverse_rcu(pos, &h, link) {
			see(&s, pos->key);
			if (pos->key == 'b')
				list_update(u);
		}
		CHECK_SEEN(&s, 'c', 'b', 'a');
	} else {
		cds_list_for_each_entry_rcu(pos, &h, link) {
			see(&s, pos->key);
			if (pos->key == 'b')
				list_update(u);
		}
		CHECK_SEEN(&s, 'a', 'b', 'c');
	}
	reader_end();
	if (u == DEL)
		CHECK_LIST(&h, 'a', 'c');
	else
		CHECK_LIST(&h, 'a', 'x', 'c');
}

Test(mutation_removed_rcu, list_del_rcu_reader_goes_on_forwards)
{
	list_case(DEL, 0);
}

Test(mutation_removed_rcu, list_del_rcu_reader_goes_on_backwards)
{
	list_case(DEL, 1);
}

Test(mutation_removed_rcu, list_replace_rcu_reader_goes_on_forwards)
{
	list_case(REPLACE, 0);
}

Test(mutation_removed_rcu, list_replace_rcu_reader_goes_on_backwards)
{
	list_case(REPLACE, 1);
}

/* ------------------------------------------------------------- hlists */

static struct cds_hlist_head hh;

/* [hh] -> 1 <-> 2 <-> 3, and 9 the replacement, unhashed */
static void hlist_setup(void)
{
	memset(it, 0xa5, sizeof(it));
	for (int i = 0; i < 4; i++)
		it[i].key = i < 3 ? i + 1 : 9;
	CDS_INIT_HLIST_HEAD(&hh);
	for (int i = 3; i-- > 0;)
		cds_hlist_add_head_rcu(&it[i].hnode, &hh);
	CDS_INIT_HLIST_NODE(&it[3].hnode);
}

/*
 * before: [hh] -> 1 <-> 2 <-> 3, a reader on 2
 * after:  [hh] -> 1 <-> 3 (2 unhashed for DEL_INIT) or 1 <-> 9 <-> 3;
 *	   the reader goes on from 2 to 3
 */
static void hlist_case(enum update u)
{
	struct seen s = { .n = 0 };
	struct item *pos;

	hlist_setup();
	reader_begin();
	cds_hlist_for_each_entry_rcu_2(pos, &hh, hnode) {
		see(&s, pos->key);
		if (pos->key != 2)
			continue;
		if (u == DEL_INIT)
			cds_hlist_del_init_rcu(&pos->hnode);
		else
			cds_hlist_replace_rcu(&pos->hnode, &it[3].hnode);
	}
	reader_end();
	CHECK_SEEN(&s, 1, 2, 3);
	if (u == DEL_INIT) {
		CHECK_HLIST(&hh, 1, 3);
		cr_assert(cds_hlist_unhashed(&it[1].hnode));
	} else {
		CHECK_HLIST(&hh, 1, 9, 3);
	}
}

Test(mutation_removed_rcu, hlist_del_init_rcu_reader_goes_on)
{
	hlist_case(DEL_INIT);
}

Test(mutation_removed_rcu, hlist_replace_rcu_reader_goes_on)
{
	hlist_case(REPLACE);
}

/* ------------------------------------------------------- nulls hlists */

#define NULLS_VALUE 7UL

struct nitem {
	int key;
	struct cds_hlist_nulls_node node;
};

static struct nitem nit[4];
static struct cds_hlist_nulls_head nh;

/* Assert that @nh holds exactly @keys, every prev right, ending in NULLS_VALUE. */
static void check_nulls(const int *keys, size_t n, const char *where)
{
	struct cds_hlist_nulls_node *prev = (void *)&nh, *pos = nh.next;

	for (size_t i = 0; i < n; i++) {
		cr_assert(!cds_is_a_nulls(pos), "%s: ends after %zu of %zu",
			  where, i, n);
		cr_assert_eq(pos->prev, prev, "%s: [%zu]->prev is wrong", where,
			     i);
		cr_assert_eq(cds_hlist_nulls_entry(pos, struct nitem, node)->key,
			     keys[i], "%s: [%zu] is not %d", where, i, keys[i]);
		prev = pos;
		pos = pos->next;
	}
	cr_assert(cds_is_a_nulls(pos), "%s: longer than %zu", where, n);
	cr_assert_eq(cds_get_nulls_value(pos), NULLS_VALUE,
		     "%s: the end marker's value is %lu", where,
		     cds_get_nulls_value(pos));
}

#define CHECK_NULLS(...) check_nulls(KEYS(__VA_ARGS__), "nh")

/* [nh] -> 1 <-> 2 <-> 3 -> marker 7, and 9 the replacement */
static void nulls_setup(void)
{
	memset(nit, 0xa5, sizeof(nit));
	for (int i = 0; i < 4; i++)
		nit[i].key = i < 3 ? i + 1 : 9;
	CDS_INIT_HLIST_NULLS_HEAD(&nh, NULLS_VALUE);
	for (int i = 3; i-- > 0;)
		cds_hlist_nulls_add_head_rcu(&nit[i].node, &nh);
}

static void nulls_update(struct cds_hlist_nulls_node *node, enum update u)
{
	switch (u) {
	case DEL:
		cds_hlist_nulls_del_rcu(node);
		break;
	case DEL_INIT:
		cds_hlist_nulls_del_init_rcu(node);
		break;
	case REPLACE:
		cds_hlist_nulls_replace_rcu(node, &nit[3].node);
		break;
	case REPLACE_INIT:
		cds_hlist_nulls_replace_init_rcu(node, &nit[3].node);
		break;
	}
}

/*
 * before: [nh] -> 1 <-> 2 <-> 3 -> (7), a reader on 2
 * after:  [nh] -> 1 <-> 3 -> (7) or 1 <-> 9 <-> 3 -> (7); the reader
 *	   goes on from 2 to 3 and ends on the marker of value 7
 */
static void nulls_case(enum update u)
{
	struct seen s = { .n = 0 };
	struct cds_hlist_nulls_node *pos;
	struct nitem *e;

	nulls_setup();
	reader_begin();
	cds_hlist_nulls_for_each_entry_rcu(e, pos, &nh, node) {
		see(&s, e->key);
		if (e->key == 2)
			nulls_update(&e->node, u);
	}
	reader_end();
	CHECK_SEEN(&s, 1, 2, 3);
	cr_assert_eq(cds_get_nulls_value(pos), NULLS_VALUE);
	if (u == DEL || u == DEL_INIT)
		CHECK_NULLS(1, 3);
	else
		CHECK_NULLS(1, 9, 3);
	if (u == DEL_INIT || u == REPLACE_INIT)
		cr_assert(cds_hlist_nulls_unhashed(&nit[1].node));
}

Test(mutation_removed_rcu, nulls_del_rcu_reader_goes_on)
{
	nulls_case(DEL);
}

Test(mutation_removed_rcu, nulls_del_init_rcu_reader_goes_on)
{
	nulls_case(DEL_INIT);
}

Test(mutation_removed_rcu, nulls_replace_rcu_reader_goes_on)
{
	nulls_case(REPLACE);
}

Test(mutation_removed_rcu, nulls_replace_init_rcu_reader_goes_on)
{
	nulls_case(REPLACE_INIT);
}
