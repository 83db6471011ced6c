/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/debug.h - the hooks of debug mode (-DRCULIST_DEBUG).
 *
 * Every update operation calls RCULIST__CHECK_* before it writes and
 * RCULIST__POISON_* after it unlinks; every RCU iterator and accessor
 * calls RCULIST__CHECK_READER().  Without RCULIST_DEBUG they expand to
 * nothing that generates code, so the operations compile exactly as if
 * the hooks were not there.
 */
#ifndef RCULIST_DEBUG_H
#define RCULIST_DEBUG_H

#include "compiler.h"
#include "types.h"

#ifndef RCULIST_DEBUG

#define RCULIST__CHECK_ADD(newp, prev, next)	((void)0)
#define RCULIST__CHECK_DEL(elem)		((void)0)
#define RCULIST__CHECK_SPLICE(list, prev, next)	((void)0)
#define RCULIST__POISON_LIST(elem)		((void)0)
#define RCULIST__POISON_LIST_RCU(elem)		((void)0)
#define RCULIST__CHECK_HADD(newp, prev, next)	((void)0)
#define RCULIST__CHECK_HDEL(elem)		((void)0)
#define RCULIST__POISON_HLIST(elem)		((void)0)
#define RCULIST__POISON_HLIST_RCU(elem)		((void)0)
#define RCULIST__CHECK_READER()			((void)0)

#else /* RCULIST_DEBUG */

#error "rculist: debug mode (RCULIST_DEBUG) is not implemented yet"

#endif /* RCULIST_DEBUG */

#endif /* RCULIST_DEBUG_H */
