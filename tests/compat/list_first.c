// SPDX-License-Identifier: LGPL-2.1-or-later
/* A liburcu list header (ORDER_LIST_H) before <rculist.h>: one #error. */
#include ORDER_LIST_H
#include <rculist.h>

int main(void)
{
	return 0;
}
