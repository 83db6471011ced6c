// SPDX-License-Identifier: LGPL-2.1-or-later
/* A liburcu list header before <rculist.h>: the build must stop with our #error. */
#include <urcu/list.h>
#include <rculist.h>

int main(void)
{
	return 0;
}
