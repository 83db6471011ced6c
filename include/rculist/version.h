/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rculist/version.h - the one place the version is written. */
#ifndef RCULIST_VERSION_H
#define RCULIST_VERSION_H

#define RCULIST_VERSION_MAJOR	1
#define RCULIST_VERSION_MINOR	0
#define RCULIST_VERSION_PATCH	0

#endif /* RCULIST_VERSION_H */
