// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * memb: the general-purpose flavour.  Readers must register; a read-side
 * critical section costs a few instructions (sys_membarrier moves the cost
 * of ordering to the updater).
 */
#include <rculist.h>

#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#define RCULIST__FLAVOR	    memb
#define RCULIST__URCU(fn)   urcu_memb_##fn
#define RCULIST__QSBR	    0
#define RCULIST__REGISTERS  1
#define RCULIST__MEMBARRIER 1

#include "../core/bind.h"
