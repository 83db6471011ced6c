// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bp: bulletproof.  No registration: a thread registers itself on its
 * first read-side critical section, so the read side works in threads a
 * library does not own and in signal handlers.
 */
#include <rculist.h>

#define _LGPL_SOURCE
#include <urcu/urcu-bp.h>

#define RCULIST__FLAVOR	    bp
#define RCULIST__URCU(fn)   urcu_bp_##fn
#define RCULIST__QSBR	    0
#define RCULIST__REGISTERS  0
#define RCULIST__MEMBARRIER 1
#define RCULIST__FORK_HOOKS 1

#include "../core/bind.h"
