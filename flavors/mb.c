// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * mb: memory barriers.  Readers must register; each read-side critical
 * section issues a full memory barrier on entry and exit, so grace
 * periods need neither sys_membarrier nor signals.
 */
#include <rculist.h>

#define _LGPL_SOURCE
#include <urcu/urcu-mb.h>

#define RCULIST__FLAVOR	   mb
#define RCULIST__URCU(fn)  urcu_mb_##fn
#define RCULIST__QSBR	   0
#define RCULIST__REGISTERS 1

#include "../core/bind.h"
