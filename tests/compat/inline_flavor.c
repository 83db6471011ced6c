// SPDX-License-Identifier: LGPL-2.1-or-later
/* The inline switch (-DRCULIST_INLINE_<FLAVOR>): links only with its flavour. */
#include <rculist.h>
int main(void)
{
	rculist_register_thread();
	rculist_read_lock();
	rculist_read_unlock();
	rculist_quiescent_state();
	return 0;
}
