/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/types.h - the list structures.
 *
 * Layouts and field names are those of liburcu's <urcu/list.h> and
 * <urcu/hlist.h>, so that objects can be handed between rculist code and
 * code written against liburcu's own list headers.
 */
#ifndef RCULIST_TYPES_H
#define RCULIST_TYPES_H

/**
 * struct cds_list_head - a circular doubly linked list: its head, and the link in each element
 *
 * The same structure is the head and the link embedded in every
 * element; an empty list is a head whose next and prev point to itself
 * (CDS_LIST_HEAD(), CDS_INIT_LIST_HEAD()).  Layout and field names are
 * liburcu's, so lists pass between rculist code and code written against
 * liburcu's <urcu/list.h>.
 *
 * Context: the fields are written by the list's updaters only, through
 * the cds_list_* operations; RCU readers load them with the _rcu
 * iterators and accessors.
 */
#ifndef RCULIST__HAVE_CDS_LIST_HEAD	/* else liburcu's, the same */
struct cds_list_head {
	struct cds_list_head *next, *prev;
};
#endif

/*
 * The anonymous unions below are C11 (and GNU C99): __extension__ keeps
 * -std=c99 -pedantic quiet about them, and about a structure whose only
 * member is one.
 */
#define RCULIST__EXTENSION __extension__

/**
 * struct cds_hlist_head - the one-pointer head of a linear list (a hash bucket)
 *
 * next is the first node, NULL when the list is empty.  first is the
 * same field under the kernel's name (struct hlist_head): an anonymous
 * union, so that code written for either reads it; the layout is
 * liburcu's.
 *
 * Context: written by the list's updaters only; RCU readers load next
 * with the _rcu iterators.
 */
RCULIST__EXTENSION struct cds_hlist_head {
	__extension__ union {
		struct cds_hlist_node *next;
		struct cds_hlist_node *first;
	};
};

/**
 * struct cds_hlist_node - the link embedded in each element of a linear list
 *
 * The list ends with a NULL next.  prev points to the previous node, or
 * to the head (whose only field, next, sits where a node's next does); a
 * NULL prev marks a node that is on no list (cds_hlist_unhashed()).
 * Since next is the first field of both, prev is also the address of the
 * previous next field: pprev, the kernel's name and type for it (struct
 * hlist_node), is the same field in an anonymous union (pprev ==
 * &head->first for the first node, &prev_node->next for the others,
 * &node->next for a node made a list of its own by cds_hlist_add_fake()).
 *
 * Context: written by the list's updaters only; RCU readers follow next
 * and never prev.
 */
struct cds_hlist_node {
	struct cds_hlist_node *next;
	__extension__ union {
		struct cds_hlist_node *prev;
		struct cds_hlist_node **pprev;
	};
};

#endif /* RCULIST_TYPES_H */
