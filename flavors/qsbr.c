// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * qsbr: quiescent-state-based reclamation.  Read-side critical sections
 * cost nothing; registered readers announce quiescent states, and go
 * offline around blocking calls.
 */
#include <rculist.h>

#define _LGPL_SOURCE
#include <urcu/urcu-qsbr.h>

#define RCULIST__FLAVOR	   qsbr
#define RCULIST__URCU(fn)  urcu_qsbr_##fn
#define RCULIST__QSBR	   1
#define RCULIST__REGISTERS 1

#include "../core/bind.h"
