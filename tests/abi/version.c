// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/abi/version.c - print the header's version and the library's,
 * "header=X.Y.Z library=X.Y.Z flavor=F", for abi.mk to compare.
 */
#include <stdio.h>

#include <rculist.h>

int main(void)
{
	printf("header=%d.%d.%d library=%s flavor=%s\n", RCULIST_VERSION_MAJOR,
	       RCULIST_VERSION_MINOR, RCULIST_VERSION_PATCH, rculist_version(),
	       rculist_flavor_name());
	return 0;
}
