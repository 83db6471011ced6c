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

/*
 * A circular, doubly linked list: the same structure serves as the list
 * head and as the link embedded in every element.  An empty list is a
 * head whose next and prev point to itself.
 */
#ifndef RCULIST__HAVE_CDS_LIST_HEAD	/* else liburcu's, the same */
struct cds_list_head {
	struct cds_list_head *next, *prev;
};
#endif

/*
 * A linear, doubly linked list with a one-pointer head, for large hash
 * tables.  The list ends with a NULL next.  An element's prev points to
 * the previous node, or to the head (whose only field, next, sits where
 * a node's next does); NULL prev marks a node that is on no list.
 */
struct cds_hlist_head {
	struct cds_hlist_node *next;
};

struct cds_hlist_node {
	struct cds_hlist_node *next, *prev;
};

#endif /* RCULIST_TYPES_H */
