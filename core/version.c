// SPDX-License-Identifier: LGPL-2.1-or-later
/* core/version.c - the version the library was built as. */
#include <rculist.h>

#define RCULIST__VSTR2(x) #x
#define RCULIST__VSTR(x)  RCULIST__VSTR2(x)

const char *rculist_version(void)
{
	/* clang-format off */
	return RCULIST__VSTR(RCULIST_VERSION_MAJOR) "."
	       RCULIST__VSTR(RCULIST_VERSION_MINOR) "."
	       RCULIST__VSTR(RCULIST_VERSION_PATCH);
	/* clang-format on */
}
