/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * core/jump.h - the inline read side's dispatch sites, patched when their
 * module is loaded, as the kernel patches its jump labels.
 *
 * Each site of <rculist/read_side.h> is compiled as a 5-byte jmp to its
 * slow path (which tests the kind at run time: correct under every
 * flavour) and has an entry in the module's section rculist_jump naming
 * its labels.  Once the library has filled the read side's description,
 * rculist__jump_patch_v2() rewrites each site of one module to what the
 * kind says: where the flavour's code is the next instruction, 5 prefixes
 * of that instruction (code_to() below: no instruction of its own) or a
 * 5-byte nop, else a jmp to it (past the no-ops the compiler padded the
 * label with, and on through its unconditional jumps: the same code, fewer
 * instructions).  A kind of CALL (the library's read side called) leaves
 * the sites as they are.  Under a kind of FENCED (mb, memb without
 * sys_membarrier) the module's counter stores (section rculist_xchg) are
 * made exchanges first, one byte each, and the sites then go to memb's
 * code, which with exchanges has liburcu mb's barriers; if a store is not
 * the instruction expected, to the separate fenced code.  The
 * quiescent-state sites (section rculist_qs, rculist__jump_patch_qs_v1(),
 * patched first) get qsbr's check itself written in, with the
 * grace-period counter's address and the reader counter's offset as
 * constants, or a jmp past it under the other flavours.  C++'s sites
 * (section rculist_cxx, rculist__jump_patch_cxx_v1(), patched before the
 * others) get, under qsbr, the comparison of the reader counter with an
 * immediate (its offset a constant), under the other flavours a jmp to
 * their label.
 *
 * The text is made writable for the time of the patch (mprotect() to
 * read-write-execute, then back to read-execute); where the system
 * refuses writable code (a W^X policy), the bytes are written through
 * /proc/self/mem; if that fails too, the sites stay unpatched: correct,
 * a few instructions slower.  RCULIST_JUMP, a list of words: "verbose"
 * prints one line per module (its sites, how many were patched, how),
 * "off" leaves every site unpatched, "mem" skips mprotect().
 *
 * Each module's constructor calls it (<rculist/read_side.h>'s
 * rculist__jump_module(), this library's below): before the module's
 * code runs in another thread, so that no thread executes a site while
 * its bytes change.  A patched page is private to the process (copy on
 * write) and stays patched across fork().
 *
 * Part of the flavour adapter (included by core/bind.h, in the object
 * that defines rculist_read_lock()): a static program whose code has
 * sites calls the library's read side from their slow paths, and so
 * links this in; a program that includes <rculist.h> without linking the
 * library names it weakly (rculist__jump_module()).  Calls nothing in
 * core/.
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#if RCULIST__RS_PATCH
/* <dlfcn.h>'s Dl_info and dladdr(), declared only to _GNU_SOURCE. */
struct rculist__dl_info {
	const char *dli_fname;
	void *dli_fbase;
	const char *dli_sname;
	void *dli_saddr;
};
extern int dladdr(const void *addr, struct rculist__dl_info *info);

#define JMP_LEN	  5
#define MOV_STORE 0x89 /* mov r64 to r/m64, after a REX.W prefix */
#define XCHG	  0x87 /* xchg r/m64 with r64: the same operands */

static const unsigned char nop5[JMP_LEN] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

/* The address a field of an entry names: an offset from the field. */
static unsigned char *at(const int *field)
{
	return (unsigned char *)((uintptr_t)field + (intptr_t)*field);
}

/*
 * The length of a ModRM operand (ModRM, SIB, displacement) at p, 64-bit
 * addressing.
 */
static size_t modrm_len(const unsigned char *p)
{
	unsigned int mod = p[0] >> 6, rm = p[0] & 7;
	size_t n = 1;

	if (mod == 3)
		return n;
	if (rm == 4) {
		n++; /* SIB */
		if (mod == 0 && (p[1] & 7) == 5)
			return n + 4; /* no base: disp32 */
	}
	if (mod == 1)
		return n + 1;
	if (mod == 2 || (mod == 0 && rm == 5))
		return n + 4; /* disp32, or %rip-relative */
	return n;
}

/*
 * The length of the no-op at code (the forms compilers pad with: 0x90,
 * nopw/nopl with 0x66 and 0x2e prefixes), or 0.
 */
static size_t nop_len(const unsigned char *code)
{
	const unsigned char *p = code;

	while ((*p == 0x66 || *p == 0x2e) && p - code < 8)
		p++;
	if (*p == 0x90)
		return (size_t)(p - code) + 1;
	if (p[0] != 0x0f || p[1] != 0x1f || (p[2] >> 3 & 7) != 0)
		return 0;
	return (size_t)(p + 2 - code) + modrm_len(p + 2);
}

/*
 * The module's C++ sites (section rculist_cxx), while
 * rculist__jump_patch_cxx_v1() patches them: sites too, for thread_to().
 */
static const struct rculist__cxx_site *cxx_start, *cxx_stop;

/* Whether code is a site of the table or a C++ site (its bytes change). */
static int is_site(const struct rculist__jump_site *start,
		   const struct rculist__jump_site *stop,
		   const unsigned char *code)
{
	const struct rculist__jump_site *s;

	for (s = start; s < stop; s++)
		if (at(&s->site) == code)
			return 1;
	for (const struct rculist__cxx_site *c = cxx_start; c < cxx_stop; c++)
		if (at(&c->site) == code)
			return 1;
	return 0;
}

/*
 * Where a jump to label may go instead, doing the same: past the padding
 * no-ops the compiler put there (an aligned loop next), and on through
 * the compiler's own unconditional jumps (not a site), a few at most.
 * A quiescent-state site is patched before (rculist__jump_patch_qs_v1()):
 * its jmp past the check (memb, bp, mb) is threaded through as the
 * compiler's, its check (qsbr) is not a jump; one left as compiled goes
 * to its slow path, which tests the kind: correct, slower.
 */
static const unsigned char *thread_to(const struct rculist__jump_site *start,
				      const struct rculist__jump_site *stop,
				      const unsigned char *label)
{
	for (int hops = 0; hops < 16; hops++) {
		size_t n = nop_len(label);
		int32_t rel;

		if (n) {
			label += n;
		} else if (label[0] == 0xeb) {
			label += 2 + (int8_t)label[1];
		} else if (label[0] == 0xe9 && !is_site(start, stop, label)) {
			memcpy(&rel, label + 1, sizeof(rel));
			label += 5 + rel;
		} else {
			break;
		}
	}
	return label;
}

/*
 * The length of the instruction at p if it is one of the plain forms a
 * compiler puts after a site (an optional REX, then a move, an ALU
 * operation, a lea, a push or pop, a conditional jump, a short jmp, a
 * call, a ret: no legacy prefix, no segment override), or 0; also a
 * move between rAX and an absolute address (0xa0-0xa3, 8 bytes of
 * address), which a quiescent state's check begins with once patched
 * (qsbr; patched before the sites, so that a site right before one sees
 * it final).  Not a site's jmp (0xe9).
 */
static size_t plain_len(const unsigned char *p)
{
	const unsigned char *q = p;
	unsigned int op;
	int w = 0;

	if ((*q & 0xf0) == 0x40)
		w = *q++ & 8; /* REX */
	op = *q++;
	if ((op < 0x40 && (op & 7) < 4) || (op >= 0x84 && op <= 0x8b) ||
	    op == 0x8d || op == 0x63)
		return (size_t)(q - p) + modrm_len(q); /* ALU, mov, lea */
	if (op == 0x80 || op == 0x83 || op == 0xc6)
		return (size_t)(q - p) + modrm_len(q) + 1;
	if (op == 0x81 || op == 0xc7)
		return (size_t)(q - p) + modrm_len(q) + 4;
	if (op >= 0xb8 && op <= 0xbf)
		return (size_t)(q - p) + (w ? 8 : 4);
	if ((op >= 0x50 && op <= 0x5f) || op == 0xc3)
		return (size_t)(q - p);
	if ((op >= 0x70 && op <= 0x7f) || op == 0xeb)
		return (size_t)(q - p) + 1;
	if (op == 0xe8)
		return (size_t)(q - p) + 4;
	if (op >= 0xa0 && op <= 0xa3)
		return (size_t)(q - p) + 8; /* moffs64 */
	if (op != 0x0f)
		return 0;
	op = *q++;
	if (op >= 0x80 && op <= 0x8f)
		return (size_t)(q - p) + 4; /* jcc rel32 */
	if ((op >= 0x40 && op <= 0x4f) || (op >= 0x90 && op <= 0x9f) ||
	    op == 0xaf || op == 0xb6 || op == 0xb7 || op == 0xbe || op == 0xbf)
		return (size_t)(q - p) + modrm_len(q); /* cmov, set, movzx */
	return 0;
}

#define PREFIX_CS 0x2e /* a segment override: ignored in 64-bit mode */
#define INSN_MAX  15

/*
 * The 5 bytes that go from site to target.  Where the target is the next
 * instruction, they are prefixes of it, no instruction of their own (an
 * override of CS, which 64-bit code ignores, on a plain instruction of
 * at most 10 bytes: INSN_MAX in all), or else a 5-byte nop.  Five CS
 * overrides are what GNU as itself puts on an instruction at most when
 * it pads code that way (-malign-branch-prefix-size, 5 by default).
 * That next instruction's bytes are final: the compiler's, or a
 * quiescent state's check (patched before the sites: under qsbr its
 * movabs, which is how a C unlock followed by rculist_quiescent_state()
 * runs none of the site's).  A site's jmp and a counter store, which
 * may still change, begin with 0xe9 and %fs and take the nop.
 */
static void code_to(unsigned char *code, const unsigned char *site,
		    const unsigned char *target)
{
	int32_t rel;
	size_t n;

	if (target == site + JMP_LEN) {
		n = plain_len(target);
		if (n && n <= INSN_MAX - JMP_LEN)
			memset(code, PREFIX_CS, JMP_LEN);
		else
			memcpy(code, nop5, JMP_LEN);
		return;
	}
	rel = (int32_t)(target - (site + JMP_LEN));
	code[0] = 0xe9;
	memcpy(code + 1, &rel, sizeof(rel));
}

/*
 * The flavour's label in an entry, or NULL (leave the site).  FENCED runs
 * memb's code once the module's stores are exchanges (xchg).
 */
static const int *label_of(const struct rculist__jump_site *s,
			   unsigned long kind, int xchg)
{
	switch (kind) {
	case RCULIST__RS_MEMB:
		return &s->memb;
	case RCULIST__RS_QSBR:
		return &s->qsbr;
	case RCULIST__RS_BP:
		return &s->bp;
	case RCULIST__RS_FENCED:
		return xchg ? &s->memb : &s->fenced;
	default:
		return NULL;
	}
}

/*
 * The opcode byte of a counter store (RCULIST__RS_STORE(): movq %reg,
 * %fs:(%reg), a REX.W prefix before the opcode), or NULL if the bytes
 * there are not such a store.
 */
static unsigned char *store_opcode(const int *entry)
{
	unsigned char *p = at(entry);

	if (p[0] != 0x64 || (p[1] & 0xf8) != 0x48 ||
	    (p[2] != MOV_STORE && p[2] != XCHG))
		return NULL;
	return p + 2;
}

/* One change of code: through memory made writable, or /proc/self/mem. */
static int put(int fd, unsigned char *at_code, const unsigned char *code,
	       size_t len)
{
	if (fd < 0) {
		memcpy(at_code, code, len);
		return 1;
	}
	return pwrite(fd, code, len, (off_t)(uintptr_t)at_code) == (ssize_t)len;
}

/*
 * Turn every store of the table into an exchange; whether all of them
 * are one now.
 */
static int patch_stores(const int *start, const int *stop, int fd)
{
	static const unsigned char xchg = XCHG;
	int all = 1;

	for (const int *e = start; e < stop; e++) {
		unsigned char *op = store_opcode(e);

		if (!op || (*op != XCHG && !put(fd, op, &xchg, 1)))
			all = 0;
	}
	return all;
}

enum how { HOW_NONE, HOW_DONE, HOW_MPROTECT, HOW_MEM };

/* Whether the words of RCULIST_JUMP include word. */
static int has(const char *mode, const char *word)
{
	size_t n = strlen(word);

	for (; mode && *mode; mode += strcspn(mode, ", ")) {
		mode += strspn(mode, ", ");
		if (!strncmp(mode, word, n) && strchr(", ", mode[n]))
			return 1;
	}
	return 0;
}

/* Whether a site still holds its jmp to the slow path. */
static int as_compiled(const struct rculist__jump_site *s)
{
	unsigned char orig[JMP_LEN];

	code_to(orig, at(&s->site), at(&s->slow));
	return !memcmp(at(&s->site), orig, JMP_LEN);
}

/* Write every site still as compiled; the count written. */
static size_t patch_all(const struct rculist__jump_site *start,
			const struct rculist__jump_site *stop,
			unsigned long kind, int xchg, int fd)
{
	const struct rculist__jump_site *s;
	unsigned char code[JMP_LEN];
	size_t n = 0;

	for (s = start; s < stop; s++) {
		unsigned char *site = at(&s->site);

		if (!as_compiled(s))
			continue; /* patched already (another module's call) */
		code_to(code, site,
			thread_to(start, stop, at(label_of(s, kind, xchg))));
		n += put(fd, site, code, JMP_LEN);
	}
	return n;
}

/* Widen lo..hi to hold code..code+len. */
static void cover(uintptr_t *lo, uintptr_t *hi, const unsigned char *code,
		  size_t len)
{
	uintptr_t a = (uintptr_t)code;

	*lo = a < *lo ? a : *lo;
	*hi = a + len > *hi ? a + len : *hi;
}

/*
 * Patch the stores (FENCED: to exchanges), then the sites, which go to
 * memb's code only if every store is an exchange; the sites written.
 */
static size_t patch_module(const struct rculist__jump_site *start,
			   const struct rculist__jump_site *stop,
			   const int *xstart, const int *xstop,
			   unsigned long kind, int fd)
{
	int xchg = kind == RCULIST__RS_FENCED && patch_stores(xstart, xstop, fd);

	return patch_all(start, stop, kind, xchg, fd);
}

/* What a patch writes, once the code can be written (fd: as put()). */
struct patch_job {
	size_t (*write)(const struct patch_job *job, int fd);
	const void *start, *stop, *xstart, *xstop;
	unsigned long kind;
};

/*
 * Run job on the pages lo..hi (the bytes it writes; hi 0: none left as
 * compiled) unless mode says off or can (the kind has code to write) is
 * 0: made writable for its time, or through /proc/self/mem; the count it
 * wrote in *n, and how.
 */
static enum how patch_pages(uintptr_t lo, uintptr_t hi, const char *mode,
			    int can, const struct patch_job *job, size_t *n)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	int fd;

	lo &= ~(page - 1);
	hi = (hi + page - 1) & ~(page - 1);
	*n = 0;
	if (!hi)
		return HOW_DONE; /* by an earlier call */
	if (!can || has(mode, "off"))
		return HOW_NONE;
	if (!has(mode, "mem") &&
	    !mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE | PROT_EXEC)) {
		*n = job->write(job, -1);
		mprotect((void *)lo, hi - lo, PROT_READ | PROT_EXEC);
		return HOW_MPROTECT;
	}
	if ((fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC)) >= 0) {
		*n = job->write(job, fd);
		close(fd);
		return HOW_MEM;
	}
	return HOW_NONE;
}

static const char *how_name(enum how how)
{
	return how == HOW_MPROTECT ? "mprotect" :
	       how == HOW_MEM	   ? "/proc/self/mem" :
	       how == HOW_DONE	   ? "all patched before" :
				     "left as compiled";
}

/* The file of the module holding p, for RCULIST_JUMP=verbose. */
static const char *module_name(const void *p)
{
	struct rculist__dl_info info;

	return dladdr(p, &info) && info.dli_fname && *info.dli_fname ?
		       info.dli_fname :
		       "the program";
}

/* The kind to patch to: the description filled first. */
static unsigned long patch_kind(void)
{
	rculist__flavor_read_side_init();
	return rculist__flavor_read_side_kind();
}

/*
 * Widen lo..hi (hi 0: no site left as compiled) to hold the job's
 * counter stores where the kind makes them exchanges.
 */
static void cover_stores(uintptr_t *lo, uintptr_t *hi, const struct patch_job *job)
{
	if (*hi && job->kind == RCULIST__RS_FENCED)
		for (const int *e = job->xstart, *stop = job->xstop; e < stop; e++)
			cover(lo, hi, at(e), 3);
}

/* RCULIST_JUMP=verbose's line for one section of a module. */
static void report(const char *mode, const char *what, const void *start,
		   size_t sites, size_t n, enum how how)
{
	if (has(mode, "verbose"))
		fprintf(stderr,
			"rculist: %s of %s: %zu sites, %zu patched (%s)\n",
			what, module_name(start), sites, n, how_name(how));
}

static size_t write_sites(const struct patch_job *job, int fd)
{
	return patch_module(job->start, job->stop, job->xstart, job->xstop,
			    job->kind, fd);
}

void rculist__jump_patch_v2(const struct rculist__jump_site *start,
			    const struct rculist__jump_site *stop,
			    const int *xstart, const int *xstop)
{
	const char *mode = getenv("RCULIST_JUMP");
	const struct rculist__jump_site *s;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	struct patch_job job = { write_sites, start, stop, xstart, xstop, 0 };
	enum how how;
	size_t n;

	if (!start || start >= stop)
		return;
	if (!xstart || xstart > xstop)
		job.xstart = job.xstop = xstart = xstop = NULL;
	job.kind = patch_kind();
	for (s = start; s < stop; s++)
		if (as_compiled(s))
			cover(&lo, &hi, at(&s->site), JMP_LEN);
	cover_stores(&lo, &hi, &job);
	how = patch_pages(lo, hi, mode, label_of(start, job.kind, 0) != NULL,
			  &job, &n);
	if (has(mode, "verbose"))
		fprintf(stderr,
			"rculist: read side of %s: %zu sites, %zu patched "
			"(%s), %zu stores\n",
			module_name(start), (size_t)(stop - start), n,
			how_name(how), (size_t)(xstop - xstart));
}

/*
 * Quiescent-state sites (section rculist_qs, <rculist/read_side.h>'s
 * RCULIST__RS_QS_SITE()): a jmp to the slow path and room after it, up
 * to the jne the compiler assembled.  qsbr's check in their place:
 * movabs of the grace-period counter's absolute address into %rax
 * (REX.W A1), cmp of the reader counter at its offset from %fs with %rax
 * (FS, REX.W 3B, ModRM rax/SIB, SIB: no base, no index: disp32).
 */
static int qs_check(unsigned char *code, const struct rculist__read_side_v2 *d)
{
	uint64_t gp = (uintptr_t)d->gp;
	int32_t off = (int32_t)d->reader;
	static const unsigned char cmp[] = { 0x64, 0x48, 0x3b, 0x04, 0x25 };

	if ((long)off != d->reader || !d->gp)
		return 0;
	code[0] = 0x48;
	code[1] = 0xa1;
	memcpy(code + 2, &gp, sizeof(gp));
	memcpy(code + 10, cmp, sizeof(cmp));
	memcpy(code + 15, &off, sizeof(off));
	return 1;
}

/*
 * What a quiescent-state site becomes under kind, in code (its length),
 * or 0: left as compiled.
 */
static size_t qs_code(unsigned char *code, const struct rculist__qs_site *s,
		      unsigned long kind)
{
	switch (kind) {
	case RCULIST__RS_QSBR:
		return qs_check(code, &rculist__rs_own) ? RCULIST__RS_QS_LEN : 0;
	case RCULIST__RS_MEMB:
	case RCULIST__RS_BP:
	case RCULIST__RS_FENCED:
		code_to(code, at(&s->site), at(&s->end));
		return JMP_LEN;
	default:
		return 0;
	}
}

/* Whether a quiescent-state site still holds its jmp to the slow path. */
static int qs_as_compiled(const struct rculist__qs_site *s)
{
	unsigned char orig[JMP_LEN];

	code_to(orig, at(&s->site), at(&s->slow));
	return at(&s->end) - at(&s->site) >= RCULIST__RS_QS_LEN &&
	       !memcmp(at(&s->site), orig, JMP_LEN);
}

static size_t qs_patch_all(const struct patch_job *job, int fd)
{
	const struct rculist__qs_site *stop = job->stop;
	unsigned char code[RCULIST__RS_QS_LEN];
	size_t n = 0, len;

	for (const struct rculist__qs_site *s = job->start; s < stop; s++)
		if (qs_as_compiled(s) && (len = qs_code(code, s, job->kind)))
			n += put(fd, at(&s->site), code, len);
	return n;
}

void rculist__jump_patch_qs_v1(const struct rculist__qs_site *start,
			       const struct rculist__qs_site *stop)
{
	const char *mode = getenv("RCULIST_JUMP");
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	unsigned char code[RCULIST__RS_QS_LEN];
	struct patch_job job = { qs_patch_all, start, stop, NULL, NULL, 0 };
	enum how how;
	size_t n;

	if (!start || start >= stop)
		return;
	job.kind = patch_kind();
	for (const struct rculist__qs_site *s = start; s < stop; s++)
		if (qs_as_compiled(s))
			cover(&lo, &hi, at(&s->site), RCULIST__RS_QS_LEN);
	how = patch_pages(lo, hi, mode, qs_code(code, start, job.kind) != 0,
			  &job, &n);
	report(mode, "quiescent states", start, (size_t)(stop - start), n, how);
}

/*
 * C++ sites (section rculist_cxx, <rculist/read_side.h>'s
 * RCULIST__RS_CXX_SITE()): a site, and a stub out of line (a jmp to the
 * slow path, 4 bytes of room and the byte of an immediate, then the
 * compiler's jcc and jmp).  Under qsbr the comparison of the reader
 * counter with that immediate goes into the stub (FS, REX.W 83 /7 ib,
 * ModRM/SIB: no base, no index: disp32, the immediate left as compiled)
 * and the site becomes a jmp to the stub; under the other flavours the
 * site goes to the flavour's label, as a site does, the stub untouched.
 * Returns the length of the stub's code (0: none, or the stub left).
 */
static size_t cxx_stub_code(unsigned char *code, unsigned long kind)
{
	static const unsigned char cmp[] = { 0x64, 0x48, 0x83, 0x3c, 0x25 };
	int32_t off = (int32_t)rculist__rs_own.reader;

	if (kind != RCULIST__RS_QSBR || (long)off != rculist__rs_own.reader)
		return 0;
	memcpy(code, cmp, sizeof(cmp));
	memcpy(code + 5, &off, sizeof(off));
	return RCULIST__RS_CXX_LEN - 1; /* the immediate as compiled */
}

/* The site's 5 bytes, or 0 (leave it as compiled). */
static size_t cxx_site_code(unsigned char *code,
			    const struct rculist__cxx_site *s,
			    const struct rculist__jump_site *start,
			    const struct rculist__jump_site *stop,
			    unsigned long kind, int xchg)
{
	const int *label;

	switch (kind) {
	case RCULIST__RS_QSBR:
		code_to(code, at(&s->site), at(&s->stub));
		return JMP_LEN;
	case RCULIST__RS_MEMB:
		label = &s->memb;
		break;
	case RCULIST__RS_BP:
		label = &s->bp;
		break;
	case RCULIST__RS_FENCED:
		label = xchg ? &s->memb : &s->fenced;
		break;
	default:
		return 0;
	}
	code_to(code, at(&s->site), thread_to(start, stop, at(label)));
	return JMP_LEN;
}

/* Whether the flavour's patch of the C++ sites can be written. */
static int cxx_can(unsigned long kind)
{
	unsigned char code[RCULIST__RS_CXX_LEN];

	return kind == RCULIST__RS_MEMB || kind == RCULIST__RS_BP ||
	       kind == RCULIST__RS_FENCED || cxx_stub_code(code, kind);
}

/* Whether a C++ site and its stub still hold their jmps to the slow path. */
static int cxx_as_compiled(const struct rculist__cxx_site *s)
{
	unsigned char orig[JMP_LEN], stub[JMP_LEN];

	code_to(orig, at(&s->site), at(&s->slow));
	code_to(stub, at(&s->stub), at(&s->slow));
	return at(&s->end) - at(&s->stub) == RCULIST__RS_CXX_LEN &&
	       !memcmp(at(&s->site), orig, JMP_LEN) &&
	       !memcmp(at(&s->stub), stub, JMP_LEN);
}

static size_t cxx_patch_all(const struct patch_job *job, int fd)
{
	int xchg = job->kind == RCULIST__RS_FENCED &&
		   patch_stores(job->xstart, job->xstop, fd);
	unsigned char code[RCULIST__RS_CXX_LEN], site[JMP_LEN];
	size_t n = 0, len;

	for (const struct rculist__cxx_site *s = cxx_start; s < cxx_stop; s++) {
		if (!cxx_as_compiled(s) ||
		    !cxx_site_code(site, s, job->start, job->stop, job->kind,
				   xchg))
			continue;
		/* The stub first: the site then goes to a comparison. */
		if ((len = cxx_stub_code(code, job->kind)) &&
		    !put(fd, at(&s->stub), code, len))
			continue;
		n += put(fd, at(&s->site), site, JMP_LEN);
	}
	return n;
}

void rculist__jump_patch_cxx_v1(const struct rculist__cxx_site *cstart,
				const struct rculist__cxx_site *cstop,
				const struct rculist__jump_site *start,
				const struct rculist__jump_site *stop,
				const int *xstart, const int *xstop)
{
	const char *mode = getenv("RCULIST_JUMP");
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	struct patch_job job = { cxx_patch_all, start, stop, xstart, xstop, 0 };
	enum how how;
	size_t n;

	if (!cstart || cstart >= cstop)
		return;
	if (!start || start > stop)
		job.start = job.stop = NULL;
	if (!xstart || xstart > xstop)
		job.xstart = job.xstop = NULL;
	job.kind = patch_kind();
	for (const struct rculist__cxx_site *s = cstart; s < cstop; s++)
		if (cxx_as_compiled(s)) {
			cover(&lo, &hi, at(&s->site), JMP_LEN);
			cover(&lo, &hi, at(&s->stub), RCULIST__RS_CXX_LEN);
		}
	cover_stores(&lo, &hi, &job);
	cxx_start = cstart;
	cxx_stop = cstop;
	how = patch_pages(lo, hi, mode, cxx_can(job.kind), &job, &n);
	cxx_start = cxx_stop = NULL;
	report(mode, "C++ sites", cstart, (size_t)(cstop - cstart), n, how);
}

/* This library's own sites (its static archive's: the program's). */
__attribute__((constructor)) static void jump_library(void)
{
	rculist__jump_patch_qs_v1(__start_rculist_qs, __stop_rculist_qs);
	rculist__jump_patch_cxx_v1(__start_rculist_cxx, __stop_rculist_cxx,
				   __start_rculist_jump, __stop_rculist_jump,
				   __start_rculist_xchg, __stop_rculist_xchg);
	rculist__jump_patch_v2(__start_rculist_jump, __stop_rculist_jump,
			       __start_rculist_xchg, __stop_rculist_xchg);
}
#endif
