/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rculist/version.h - the one place the version is written. */
#ifndef RCULIST_VERSION_H
#define RCULIST_VERSION_H

/**
 * RCULIST_VERSION_MAJOR - the major version of the headers
 *
 * Changes when the ABI does (it is part of the libraries' soname and of
 * their symbol version nodes).  rculist_version() gives the library's
 * own version at run time.
 *
 * Context: a compile-time constant.
 */
#define RCULIST_VERSION_MAJOR	1
/**
 * RCULIST_VERSION_MINOR - the minor version of the headers
 *
 * Context: a compile-time constant.
 */
#define RCULIST_VERSION_MINOR	0
/**
 * RCULIST_VERSION_PATCH - the patch level of the headers
 *
 * Context: a compile-time constant.
 */
#define RCULIST_VERSION_PATCH	0

#endif /* RCULIST_VERSION_H */
