// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/debug/zero_cost.c - every operation, accessor and iterator of
 * <rculist.h>, each in a function of its own, for tests/debug/zero_cost.sh
 * to compare the object code built with the shipped headers against the
 * same built with headers whose debug hooks are deleted.  Compiled, never
 * run.
 */
#include <rculist.h>

struct obj {
	int key;
	struct cds_list_head link;
	struct cds_hlist_node node;
	struct cds_hlist_bl_node bl;
};

typedef struct cds_list_head L;
typedef struct cds_hlist_node N;
typedef struct cds_hlist_head H;
typedef struct cds_hlist_bl_node BN;
typedef struct cds_hlist_bl_head BH;

/* One line per function, a table: clang-format would unfold it. */
/* clang-format off */
/* Plain list operations. */
void z_init(L *h) { CDS_INIT_LIST_HEAD(h); }
void z_add(L *n, L *h) { cds_list_add(n, h); }
void z_add_tail(L *n, L *h) { cds_list_add_tail(n, h); }
void z__add(L *n, L *p, L *x) { __cds_list_add(n, p, x); }
void z_del(L *e) { cds_list_del(e); }
void z__del(L *p, L *x) { __cds_list_del(p, x); }
void z__del_entry(L *e) { __cds_list_del_entry(e); }
void z_del_init(L *e) { cds_list_del_init(e); }
int z_empty(const L *h) { return cds_list_empty(h); }
int z_empty_careful(const L *h) { return cds_list_empty_careful(h); }
int z_is_singular(const L *h) { return cds_list_is_singular(h); }
int z_is_first(const L *e, const L *h) { return cds_list_is_first(e, h); }
int z_is_last(const L *e, const L *h) { return cds_list_is_last(e, h); }
int z_is_head(const L *e, const L *h) { return cds_list_is_head(e, h); }
size_t z_count(const L *h) { return cds_list_count_nodes(h); }
void z_replace(L *o, L *n) { cds_list_replace(o, n); }
void z_replace_init(L *o, L *n) { cds_list_replace_init(o, n); }
void z_swap(L *a, L *b) { cds_list_swap(a, b); }
void z_move(L *e, L *h) { cds_list_move(e, h); }
void z_move_tail(L *e, L *h) { cds_list_move_tail(e, h); }
void z_bulk(L *h, L *f, L *l) { cds_list_bulk_move_tail(h, f, l); }
void z_splice(L *a, L *h) { cds_list_splice(a, h); }
void z_splice_tail(L *a, L *h) { cds_list_splice_tail(a, h); }
void z_splice_init(L *a, L *h) { cds_list_splice_init(a, h); }
void z_splice_tail_init(L *a, L *h) { cds_list_splice_tail_init(a, h); }
void z_cut_position(L *l, L *h, L *e) { cds_list_cut_position(l, h, e); }
void z_cut_before(L *l, L *h, L *e) { cds_list_cut_before(l, h, e); }
void z_rotate_left(L *h) { cds_list_rotate_left(h); }
void z_rotate_to_front(L *e, L *h) { cds_list_rotate_to_front(e, h); }
struct obj *z_first(L *h) { return cds_list_first_entry(h, struct obj, link); }
struct obj *z_last(L *h) { return cds_list_last_entry(h, struct obj, link); }
struct obj *z_first_or_null(L *h) { return cds_list_first_entry_or_null(h, struct obj, link); }
struct obj *z_next(struct obj *o) { return cds_list_next_entry(o, link); }
struct obj *z_prev(struct obj *o) { return cds_list_prev_entry(o, link); }
int z_entry_is_head(const struct obj *o, const L *h) { return cds_list_entry_is_head(o, h, link); }

/* Plain list iterators. */
long z_for_each(L *h) { L *p; long s = 0; cds_list_for_each(p, h) s += (long)p; return s; }
long z_for_each_prev(L *h) { L *p; long s = 0; cds_list_for_each_prev(p, h) s += (long)p; return s; }
long z_for_each_continue(L *h, L *p) { long s = 0; cds_list_for_each_continue(p, h) s += (long)p; return s; }
long z_for_each_safe(L *h) { L *p, *n; long s = 0; cds_list_for_each_safe(p, n, h) s += (long)p; return s; }
long z_for_each_prev_safe(L *h) { L *p, *n; long s = 0; cds_list_for_each_prev_safe(p, n, h) s += (long)p; return s; }
long z_fe_entry(L *h) { struct obj *o; long s = 0; cds_list_for_each_entry(o, h, link) s += o->key; return s; }
long z_fe_entry_reverse(L *h) { struct obj *o; long s = 0; cds_list_for_each_entry_reverse(o, h, link) s += o->key; return s; }
long z_fe_entry_continue(L *h, struct obj *o) { long s = 0; cds_list_for_each_entry_continue(o, h, link) s += o->key; return s; }
long z_fe_entry_continue_reverse(L *h, struct obj *o) { long s = 0; cds_list_for_each_entry_continue_reverse(o, h, link) s += o->key; return s; }
long z_fe_entry_from(L *h, struct obj *o) { long s = 0; cds_list_for_each_entry_from(o, h, link) s += o->key; return s; }
long z_fe_entry_from_reverse(L *h, struct obj *o) { long s = 0; cds_list_for_each_entry_from_reverse(o, h, link) s += o->key; return s; }
long z_fe_entry_safe(L *h) { struct obj *o, *n; long s = 0; cds_list_for_each_entry_safe(o, n, h, link) s += o->key; return s; }
long z_fe_entry_safe_reverse(L *h) { struct obj *o, *n; long s = 0; cds_list_for_each_entry_safe_reverse(o, n, h, link) s += o->key; return s; }
long z_fe_entry_safe_from(L *h, struct obj *o) { struct obj *n; long s = 0; cds_list_for_each_entry_safe_from(o, n, h, link) s += o->key; return s; }
long z_fe_entry_safe_continue(L *h, struct obj *o) { struct obj *n; long s = 0; cds_list_for_each_entry_safe_continue(o, n, h, link) s += o->key; return s; }

/* RCU list operations, accessors and iterators. */
void z_init_rcu(L *h) { CDS_INIT_LIST_HEAD_RCU(h); }
void z_add_rcu(L *n, L *h) { cds_list_add_rcu(n, h); }
void z_add_tail_rcu(L *n, L *h) { cds_list_add_tail_rcu(n, h); }
void z_del_rcu(L *e) { cds_list_del_rcu(e); }
void z_replace_rcu(L *o, L *n) { cds_list_replace_rcu(o, n); }
void z_splice_init_rcu(L *l, L *h) { cds_list_splice_init_rcu(l, h); }
void z_splice_tail_init_rcu(L *l, L *h) { cds_list_splice_tail_init_rcu(l, h); }
struct obj *z_entry_rcu(L *h) { return cds_list_entry_rcu(h->next, struct obj, link); }
struct obj *z_first_or_null_rcu(L *h) { return cds_list_first_or_null_rcu(h, struct obj, link); }
struct obj *z_next_or_null_rcu(L *h, L *p) { return cds_list_next_or_null_rcu(h, p, struct obj, link); }
long z_for_each_rcu(L *h) { L *p; long s = 0; cds_list_for_each_rcu(p, h) s += (long)p; return s; }
long z_fe_entry_rcu(L *h) { struct obj *o; long s = 0; cds_list_for_each_entry_rcu(o, h, link) s += o->key; return s; }
long z_fe_entry_reverse_rcu(L *h) { struct obj *o; long s = 0; cds_list_for_each_entry_reverse_rcu(o, h, link) s += o->key; return s; }
long z_fe_entry_continue_rcu(L *h, struct obj *o) { long s = 0; cds_list_for_each_entry_continue_rcu(o, h, link) s += o->key; return s; }
long z_fe_entry_from_rcu(L *h, struct obj *o) { long s = 0; cds_list_for_each_entry_from_rcu(o, h, link) s += o->key; return s; }
/* The iterators given a condition (an updater's walk under its lock). */
int z_lock_held(void);
long z_for_each_rcu_cond(L *h) { L *p; long s = 0; cds_list_for_each_rcu(p, h, z_lock_held()) s += (long)p; return s; }
long z_fe_entry_rcu_cond(L *h) { struct obj *o; long s = 0; cds_list_for_each_entry_rcu(o, h, link, z_lock_held()) s += o->key; return s; }
long z_fe_entry_reverse_rcu_cond(L *h) { struct obj *o; long s = 0; cds_list_for_each_entry_reverse_rcu(o, h, link, z_lock_held()) s += o->key; return s; }
long z_fe_entry_continue_rcu_cond(L *h, struct obj *o) { long s = 0; cds_list_for_each_entry_continue_rcu(o, h, link, z_lock_held()) s += o->key; return s; }
long z_fe_entry_from_rcu_cond(L *h, struct obj *o) { long s = 0; cds_list_for_each_entry_from_rcu(o, h, link, z_lock_held()) s += o->key; return s; }

/* Plain hlist operations and iterators. */
void z_hinit(H *h) { CDS_INIT_HLIST_HEAD(h); }
void z_hinit_node(N *n) { CDS_INIT_HLIST_NODE(n); }
int z_hunhashed(const N *n) { return cds_hlist_unhashed(n); }
int z_hempty(const H *h) { return cds_hlist_empty(h); }
int z_hunhashed_lockless(const N *n) { return cds_hlist_unhashed_lockless(n); }
int z_hfake(const N *n) { return cds_hlist_fake(n); }
void z_hadd_fake(N *n) { cds_hlist_add_fake(n); }
int z_his_singular_node(const N *n, const H *h) { return cds_hlist_is_singular_node(n, h); }
void z_hadd_head(N *n, H *h) { cds_hlist_add_head(n, h); }
void z__hdel(N *e) { __cds_hlist_del(e); }
void z_hdel(N *e) { cds_hlist_del(e); }
void z_hdel_init(N *e) { cds_hlist_del_init(e); }
void z_hadd_before(N *n, N *x) { cds_hlist_add_before(n, x); }
void z_hadd_behind(N *n, N *p) { cds_hlist_add_behind(n, p); }
void z_hmove_list(H *o, H *n) { cds_hlist_move_list(o, n); }
struct obj *z_hentry_safe(N *n) { return cds_hlist_entry_safe(n, struct obj, node); }
long z_hfor_each(H *h) { N *p; long s = 0; cds_hlist_for_each(p, h) s += (long)p; return s; }
long z_hfor_each_safe(H *h) { N *p, *n; long s = 0; cds_hlist_for_each_safe(p, n, h) s += (long)p; return s; }
long z_hfe_entry(H *h) { struct obj *o; N *p; long s = 0; cds_hlist_for_each_entry(o, p, h, node) s += o->key; return s; }
long z_hfe_entry_safe(H *h) { struct obj *o; N *p, *n; long s = 0; cds_hlist_for_each_entry_safe(o, p, n, h, node) s += o->key; return s; }
long z_hfe_entry_2(H *h) { struct obj *o; long s = 0; cds_hlist_for_each_entry_2(o, h, node) s += o->key; return s; }
long z_hfe_entry_safe_2(H *h) { struct obj *o, *e; long s = 0; cds_hlist_for_each_entry_safe_2(o, e, h, node) s += o->key; return s; }
long z_hfe_entry_continue(struct obj *o) { long s = 0; cds_hlist_for_each_entry_continue(o, node) s += o->key; return s; }
long z_hfe_entry_from(struct obj *o) { long s = 0; cds_hlist_for_each_entry_from(o, node) s += o->key; return s; }

/* RCU hlist operations and iterators. */
void z_hadd_head_rcu(N *n, H *h) { cds_hlist_add_head_rcu(n, h); }
void z_hadd_before_rcu(N *n, N *x) { cds_hlist_add_before_rcu(n, x); }
void z_hadd_behind_rcu(N *n, N *p) { cds_hlist_add_behind_rcu(n, p); }
void z_hadd_tail_rcu(N *n, H *h) { cds_hlist_add_tail_rcu(n, h); }
void z_hdel_rcu(N *e) { cds_hlist_del_rcu(e); }
void z_hdel_init_rcu(N *e) { cds_hlist_del_init_rcu(e); }
void z_hreplace_rcu(N *o, N *n) { cds_hlist_replace_rcu(o, n); }
long z_hfor_each_rcu(H *h) { N *p; long s = 0; cds_hlist_for_each_rcu(p, h) s += (long)p; return s; }
long z_hfe_entry_rcu(H *h) { struct obj *o; N *p; long s = 0; cds_hlist_for_each_entry_rcu(o, p, h, node) s += o->key; return s; }
long z_hfe_entry_rcu_2(H *h) { struct obj *o; long s = 0; cds_hlist_for_each_entry_rcu_2(o, h, node) s += o->key; return s; }
long z_hfe_entry_continue_rcu(struct obj *o) { long s = 0; cds_hlist_for_each_entry_continue_rcu(o, node) s += o->key; return s; }
long z_hfe_entry_from_rcu(struct obj *o) { long s = 0; cds_hlist_for_each_entry_from_rcu(o, node) s += o->key; return s; }
long z_hfor_each_rcu_cond(H *h) { N *p; long s = 0; cds_hlist_for_each_rcu(p, h, z_lock_held()) s += (long)p; return s; }
long z_hfe_entry_rcu_cond(H *h) { struct obj *o; N *p; long s = 0; cds_hlist_for_each_entry_rcu(o, p, h, node, z_lock_held()) s += o->key; return s; }
long z_hfe_entry_rcu_2_cond(H *h) { struct obj *o; long s = 0; cds_hlist_for_each_entry_rcu_2(o, h, node, z_lock_held()) s += o->key; return s; }
long z_hfe_entry_continue_rcu_cond(struct obj *o) { long s = 0; cds_hlist_for_each_entry_continue_rcu(o, node, z_lock_held()) s += o->key; return s; }
long z_hfe_entry_from_rcu_cond(struct obj *o) { long s = 0; cds_hlist_for_each_entry_from_rcu(o, node, z_lock_held()) s += o->key; return s; }

/* The kernel's newer names that carry hooks. */
void z_del_init_careful(L *e) { cds_list_del_init_careful(e); }
void z_splice_rcu(L *l, L *h) { cds_list_splice_rcu(l, h); }
void z_bidir_del_rcu(L *e) { cds_list_bidir_del_rcu(e); }

/* Bit-locked lists. */
void z_bl_lock(BH *h) { cds_hlist_bl_lock(h); }
void z_bl_unlock(BH *h) { cds_hlist_bl_unlock(h); }
void z_bl_add_head(BN *n, BH *h) { cds_hlist_bl_add_head(n, h); }
void z_bl_add_before(BN *n, BN *x) { cds_hlist_bl_add_before(n, x); }
void z_bl_add_behind(BN *n, BN *p) { cds_hlist_bl_add_behind(n, p); }
void z_bl_del(BN *e) { cds_hlist_bl_del(e); }
void z_bl_del_init(BN *e) { cds_hlist_bl_del_init(e); }
void z_bl_add_head_rcu(BN *n, BH *h) { cds_hlist_bl_add_head_rcu(n, h); }
void z_bl_del_rcu(BN *e) { cds_hlist_bl_del_rcu(e); }
long z_bl_fe_entry(BH *h) { struct obj *o; BN *p; long s = 0; cds_hlist_bl_for_each_entry(o, p, h, bl) s += o->key; return s; }
long z_bl_fe_entry_safe(BH *h) { struct obj *o; BN *p, *n; long s = 0; cds_hlist_bl_for_each_entry_safe(o, p, n, h, bl) s += o->key; return s; }
long z_bl_fe_entry_rcu(BH *h) { struct obj *o; BN *p; long s = 0; cds_hlist_bl_for_each_entry_rcu(o, p, h, bl) s += o->key; return s; }
long z_bl_fe_entry_rcu_cond(BH *h) { struct obj *o; BN *p; long s = 0; cds_hlist_bl_for_each_entry_rcu(o, p, h, bl, z_lock_held()) s += o->key; return s; }
/* Hash tables: the hlist operations on one bucket. */
typedef H T[16];
void z_hash_init(T *t) { cds_hash_init(*t); }
int z_hash_empty(T *t) { return cds_hash_empty(*t); }
void z_hash_add(T *t, N *n, int k) { cds_hash_add(*t, n, k); }
void z_hash_add_rcu(T *t, N *n, long k) { cds_hash_add_rcu(*t, n, k); }
void z_hash_del(N *n) { cds_hash_del(n); }
void z_hash_del_rcu(N *n) { cds_hash_del_rcu(n); }
long z_hash_fe(T *t) { struct obj *o; long s = 0; int b; cds_hash_for_each(*t, b, o, node) s += o->key; return s; }
long z_hash_fe_safe(T *t) { struct obj *o; N *n; long s = 0; int b; cds_hash_for_each_safe(*t, b, n, o, node) s += o->key; return s; }
long z_hash_fe_rcu(T *t) { struct obj *o; long s = 0; int b; cds_hash_for_each_rcu(*t, b, o, node) s += o->key; return s; }
long z_hash_fep(T *t, int k) { struct obj *o; long s = 0; cds_hash_for_each_possible(*t, o, node, k) s += o->key; return s; }
long z_hash_fep_safe(T *t, int k) { struct obj *o; N *n; long s = 0; cds_hash_for_each_possible_safe(*t, o, n, node, k) s += o->key; return s; }
long z_hash_fep_rcu(T *t, int k) { struct obj *o; long s = 0; cds_hash_for_each_possible_rcu(*t, o, node, k) s += o->key; return s; }
/* clang-format on */
