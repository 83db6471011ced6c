/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * <rculist.h> - RCU-protected intrusive lists, on any liburcu flavour.
 *
 *   struct cds_list_head                circular doubly linked lists
 *   struct cds_hlist_head/_node         linear lists, one-pointer heads
 *
 * Plain operations (the caller owns the list) and _rcu operations (RCU
 * readers may walk the list concurrently), the names and arguments of
 * liburcu's list API.  The flavour is chosen when linking:
 * -lrculist-memb, -lrculist-qsbr or -lrculist-bp (see rculist(7)).
 */
#ifndef RCULIST_H
#define RCULIST_H

#include "rculist/urcu_compat.h"
#include "rculist/version.h"
#include "rculist/compiler.h"
#include "rculist/types.h"
#include "rculist/debug.h"
#include "rculist/runtime.h"
#include "rculist/list.h"
#include "rculist/list_rcu.h"
#include "rculist/hlist.h"
#include "rculist/hlist_rcu.h"

#endif /* RCULIST_H */
