// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/report.c - how the library reports a misuse: one line on stderr,
 * "rculist: OP(ELEM) at FILE:LINE: DETAIL", then the error handler
 * (rculist_set_error_handler(), abort() by default); the call sites that
 * debug mode's wrappers record; and what the library can tell of the
 * caller's own read-side critical section.  A watcher: its callers hand
 * it what to report; it calls only the flavour adapter below it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rculist.h>

#include "internal.h"

/*
 * The sites recorded by the wrappers, innermost last.  A wrapped call in
 * the argument of another pushes and pops its own, so the outer one is
 * still there when its operation runs.  Beyond the last slot the depth
 * is still counted, and checks report no call site.
 */
#define SITE_DEPTH 8
static __thread struct rculist__site sites[SITE_DEPTH];
static __thread unsigned int site_depth;

/* Read-side critical sections entered through the checking wrappers. */
__thread unsigned long rculist__debug_depth;

void rculist__debug_enter(const char *op, const char *file, int line)
{
	if (site_depth < SITE_DEPTH) {
		sites[site_depth].op = op;
		sites[site_depth].file = file;
		sites[site_depth].line = line;
	}
	site_depth++;
}

void rculist__debug_leave(void)
{
	if (site_depth > 0)
		site_depth--;
}

/* The innermost recorded site, or one naming only @fallback. */
struct rculist__site rculist__current_site(const char *fallback)
{
	struct rculist__site none = { fallback, NULL, 0 };

	if (site_depth == 0 || site_depth > SITE_DEPTH)
		return none;
	return sites[site_depth - 1];
}

/* ------------------------------------------------------------ reports */

static rculist_error_handler *error_handler;

static void default_handler(const struct rculist_error *err)
{
	(void)err;
	abort();
}

rculist_error_handler *rculist_set_error_handler(rculist_error_handler *handler)
{
	return __atomic_exchange_n(&error_handler, handler, __ATOMIC_ACQ_REL);
}

const char *rculist__ptrstr(struct rculist__ptrbuf *b, const void *p)
{
	if (!p)
		return "NULL";
	snprintf(b->s, sizeof(b->s), "0x%" PRIxPTR, (uintptr_t)p);
	return b->s;
}

/*
 * "rculist: OP(ELEM) at FILE:LINE: DETAIL" on stderr, in one write, then
 * the handler.  @elem NULL prints "OP()".
 */
void rculist__report(const struct rculist__site *s, const void *elem,
		     const char *fmt, ...)
{
	char msg[512], where[256];
	struct rculist__ptrbuf eb;
	struct rculist_error err;
	rculist_error_handler *handler;
	va_list ap;
	int n;

	if (s->file)
		snprintf(where, sizeof(where), " at %s:%d", s->file, s->line);
	else
		where[0] = '\0';
	if (!elem && !s->file) /* a check reached without a wrapper */
		n = snprintf(msg, sizeof(msg), "rculist: %s: ", s->op);
	else
		n = snprintf(msg, sizeof(msg), "rculist: %s(%s)%s: ", s->op,
			     elem ? rculist__ptrstr(&eb, elem) : "", where);
	if (n < 0)
		n = 0;
	if ((size_t)n < sizeof(msg)) {
		va_start(ap, fmt);
		vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	fprintf(stderr, "%s\n", msg);

	/*
	 * Forget every recorded site: the handler may longjmp() out of the
	 * reported call, whose record would otherwise stay behind.
	 */
	site_depth = 0;

	err.message = msg;
	err.op = s->op;
	err.file = s->file;
	err.line = s->line;
	err.elem = elem;
	handler = __atomic_load_n(&error_handler, __ATOMIC_ACQUIRE);
	(handler ? handler : default_handler)(&err);
}

int rculist__reading(void)
{
	if (rculist__flavor_has_sections())
		return rculist_read_ongoing();
	return rculist__debug_depth > 0;
}

/*
 * A call that waits (for a grace period, or for callbacks that wait for
 * one) made inside the caller's own section cannot wait: memb, bp and mb
 * would deadlock, qsbr would end the section while the caller reads.  It
 * cannot return either, as if it had waited: the caller would then free
 * what a reader may still hold.  So after the report, if the handler
 * returns, abort().
 */
void rculist__report_reading(const char *op, const char *why)
{
	struct rculist__site s = rculist__current_site(op);

	/* The call site, if a debug-mode wrapper of @op recorded it. */
	if (strcmp(s.op, op) != 0) {
		s.op = op;
		s.file = NULL;
		s.line = 0;
	}
	rculist__report(&s, NULL,
			"called inside a read-side critical section (%s)", why);
	fprintf(stderr,
		"rculist: %s: the error handler returned, but the call cannot wait here nor return without a grace period: abort()\n",
		op);
	abort();
}
