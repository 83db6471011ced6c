/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/unit/section.h - open and close a read-side critical section that
 * the library's own checks can see, in both builds of the suites.
 *
 * memb, bp and mb see their sections themselves.  Under qsbr only a
 * section opened by debug mode's rculist_read_lock() is counted, which
 * without RCULIST_DEBUG stands for a lock taken in a file compiled in
 * debug mode (rculist__debug_read_lock() is what that file calls).
 */
#ifndef RCULIST_TESTS_SECTION_H
#define RCULIST_TESTS_SECTION_H

#include <string.h>

#include <rculist.h>

static inline int flavor_is(const char *name)
{
	return strcmp(rculist_flavor_name(), name) == 0;
}

/*
 * SECTION_STEP(lock) / SECTION_STEP(unlock): one step of a read-side
 * section.  qsbr outside debug mode has no section of its own: the debug
 * tracker's stands in for it there.
 */
#ifndef RCULIST_DEBUG
#define SECTION_STEP(step)                                              \
	do {                                                            \
		if (flavor_is("qsbr"))                                  \
			rculist__debug_read_##step(__FILE__, __LINE__); \
		else                                                    \
			rculist_read_##step();                          \
	} while (0)
#else
#define SECTION_STEP(step) rculist_read_##step()
#endif

static inline void enter_section(void) RCULIST_ACQUIRES_RCU
{
	SECTION_STEP(lock);
}

static inline void leave_section(void) RCULIST_RELEASES_RCU
{
	SECTION_STEP(unlock);
}

#endif /* RCULIST_TESTS_SECTION_H */
