/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/urcu_shadow.h - <rculist.h> after a liburcu flavour header.
 *
 * Under _LGPL_SOURCE, liburcu's flavour headers include <urcu/list.h>
 * (their reader registry embeds a struct cds_list_head).  Its structure
 * is ours, field for field, so rculist uses it as it stands; its
 * functions and macros take the names rculist defines, so those are
 * renamed here before rculist defines its own: from here on, every
 * cds_list_* name in the program means rculist's.  liburcu's versions
 * stay behind as unused static functions.
 */
#ifndef RCULIST_URCU_SHADOW_H
#define RCULIST_URCU_SHADOW_H

#define RCULIST__HAVE_CDS_LIST_HEAD 1

#undef CDS_LIST_HEAD
#undef CDS_LIST_HEAD_INIT
#undef CDS_INIT_LIST_HEAD
#undef cds_list_entry
#undef cds_list_first_entry
#undef cds_list_for_each
#undef cds_list_for_each_safe
#undef cds_list_for_each_prev
#undef cds_list_for_each_prev_safe
#undef cds_list_for_each_entry
#undef cds_list_for_each_entry_reverse
#undef cds_list_for_each_entry_safe
#undef cds_list_for_each_entry_safe_from

#define CDS_INIT_LIST_HEAD	rculist__shadow_CDS_INIT_LIST_HEAD
#define cds_list_add		rculist__shadow_cds_list_add
#define cds_list_add_tail	rculist__shadow_cds_list_add_tail
#define __cds_list_del		rculist__shadow___cds_list_del
#define cds_list_del		rculist__shadow_cds_list_del
#define cds_list_del_init	rculist__shadow_cds_list_del_init
#define cds_list_move		rculist__shadow_cds_list_move
#define cds_list_replace	rculist__shadow_cds_list_replace
#define cds_list_splice		rculist__shadow_cds_list_splice
#define cds_list_empty		rculist__shadow_cds_list_empty
#define cds_list_replace_init	rculist__shadow_cds_list_replace_init

#endif /* RCULIST_URCU_SHADOW_H */
