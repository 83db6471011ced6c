/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An unlock with no lock. */
/* expect: releasing RCU read-side section 'rculist_rcu' that was not held */
#include "misuse.h"

void leave(void)
{
	rculist_read_unlock(); /* MISUSE */
}
