// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/inline/calls.c - the read side of the default link makes no call.
 *
 * Compiled once (flavour-neutral), linked with each -lrculist-<flavour>.
 * The program defines rculist_read_lock(), rculist_read_unlock() and
 * rculist_quiescent_state() itself, counting, and forwards to the
 * library's (dlsym(RTLD_NEXT)): the inline wrappers of
 * <rculist/read_side.h> reach these only on their slow paths.  It checks:
 *  - the library described its read side as inline (the kind expected for
 *    the flavour, given liburcu's use of sys_membarrier);
 *  - nested sections through the wrappers are seen by the library
 *    (rculist_read_ongoing()), in the main thread and a new one, and make
 *    no call but bp's first section of a thread (which registers it);
 *  - qsbr: rculist_quiescent_state() calls the library only while a
 *    grace period waits for the thread (another thread's), not after;
 *  - memb and mb: a grace period that waits for a reader (its futex) is
 *    woken by the reader's inline unlock (bounded wait: "no progress");
 *  - x86-64: every dispatch site of this program (section rculist_jump)
 *    was patched by its constructor to the flavour's label (where the
 *    label follows, 5 prefixes of its instruction or a 5-byte nop, else
 *    a jmp to it; mb to memb's code, its
 *    counter stores, section rculist_xchg, made exchanges), or, with
 *    RCULIST_JUMP=off, is still the jmp to its slow path, the checks
 *    above then passing through the slow paths; each quiescent-state
 *    site (section rculist_qs) holds qsbr's check under qsbr, a jmp past
 *    it under the other flavours.
 * Prints "calls <flavour> ok (N sites patched|as compiled)".
 */
#define _GNU_SOURCE
#include <rculist.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#undef rculist_read_lock
#undef rculist_read_unlock
#undef rculist_quiescent_state

static unsigned long lock_calls, unlock_calls, qs_calls;

static void (*next_fn(const char *name))(void)
{
	void (*fn)(void) = NULL;
	void *sym = dlsym(RTLD_NEXT, name);

	if (!sym) {
		fprintf(stderr, "calls: no %s after this program\n", name);
		exit(1);
	}
	memcpy(&fn, &sym, sizeof(fn));
	return fn;
}

/* name(): counted in counter, then forwarded to the library's name(). */
#define COUNTED_CALL(name, counter)                                \
	void name(void)                                            \
	{                                                          \
		static void (*fn)(void);                           \
                                                                   \
		__atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED); \
		if (!fn)                                           \
			fn = next_fn(#name);                       \
		fn();                                              \
	}

COUNTED_CALL(rculist_read_lock, lock_calls)
COUNTED_CALL(rculist_read_unlock, unlock_calls)
COUNTED_CALL(rculist_quiescent_state, qs_calls)

/* Back to the inline wrappers for the rest of the file. */
#define rculist_read_lock	rculist__read_lock_wrap
#define rculist_read_unlock	rculist__read_unlock_wrap
#define rculist_quiescent_state rculist__quiescent_state_wrap

#define ROUNDS 1000

static int failed;

#define CHECK(cond, ...)                                                      \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "calls %s: ", rculist_flavor_name()); \
			fprintf(stderr, __VA_ARGS__);                         \
			fputc('\n', stderr);                                  \
			failed = 1;                                           \
		}                                                             \
	} while (0)

/* Nested sections through the wrappers, seen by the library. */
static void sections(const char *who)
{
	int qsbr = !strcmp(rculist_flavor_name(), "qsbr");

	for (int i = 0; i < ROUNDS; i++) {
		rculist_read_lock();
		rculist_read_lock();
		CHECK(rculist_read_ongoing(), "%s: not in a nested section", who);
		rculist_read_unlock();
		CHECK(rculist_read_ongoing(), "%s: not in the outer section",
		      who);
		rculist_read_unlock();
		CHECK(qsbr == !!rculist_read_ongoing(),
		      "%s: read_ongoing %d after the section", who,
		      rculist_read_ongoing());
	}
}

static void *reader_thread(void *arg)
{
	unsigned long before = lock_calls;
	int bp = !strcmp(rculist_flavor_name(), "bp");

	(void)arg;
	rculist_register_thread();
	sections("new thread");
	/* bp: the first section registers the thread, through the library. */
	CHECK(lock_calls - before == (unsigned long)bp,
	      "new thread: %lu calls of rculist_read_lock", lock_calls - before);
	rculist_unregister_thread();
	return NULL;
}

/* A reader holds a section while a grace period waits for it. */
static int in_section, release;

static void *holder(void *arg)
{
	(void)arg;
	rculist_register_thread();
	rculist_read_lock();
	__atomic_store_n(&in_section, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&release, __ATOMIC_ACQUIRE))
		usleep(1000);
	rculist_read_unlock(); /* must wake the waiting grace period */
	rculist_unregister_thread();
	return NULL;
}

static int gp_done;

static void *waiter(void *arg)
{
	(void)arg;
	rculist_synchronize_rcu();
	__atomic_store_n(&gp_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void wake_up(void)
{
	pthread_t h, w;
	int ms;

	pthread_create(&h, NULL, holder, NULL);
	while (!__atomic_load_n(&in_section, __ATOMIC_ACQUIRE))
		usleep(1000);
	pthread_create(&w, NULL, waiter, NULL);
	/* Long enough for liburcu to stop spinning and wait on its futex. */
	usleep(200 * 1000);
	CHECK(!__atomic_load_n(&gp_done, __ATOMIC_ACQUIRE),
	      "a grace period ended inside a read-side section");
	__atomic_store_n(&release, 1, __ATOMIC_RELEASE);
	for (ms = 0; ms < 5000; ms++) {
		if (__atomic_load_n(&gp_done, __ATOMIC_ACQUIRE))
			break;
		usleep(1000);
	}
	if (ms == 5000) {
		fprintf(stderr,
			"calls %s: no progress: the grace period was "
			"not woken by the reader's unlock in 5 s\n",
			rculist_flavor_name());
		exit(1);
	}
	pthread_join(h, NULL);
	pthread_join(w, NULL);
}

/*
 * qsbr: a grace period another thread waits for, which this (online)
 * thread's quiescent states end: each a call while the grace-period
 * counter differs from the thread's, none once they agree (as liburcu's
 * inline code: a grace period the thread waited for itself, going
 * offline and online, leaves them equal).  The other flavours: no call.
 */
static void gp_by_another(const char *f)
{
	int qsbr = !strcmp(f, "qsbr");
	pthread_t w;
	int ms;

	gp_done = 0;
	qs_calls = 0;
	pthread_create(&w, NULL, waiter, NULL);
	for (ms = 0; ms < 5000; ms++) {
		rculist_quiescent_state();
		if (__atomic_load_n(&gp_done, __ATOMIC_ACQUIRE))
			break;
		usleep(1000);
	}
	if (ms == 5000) {
		fprintf(stderr,
			"calls %s: no progress: a grace period did not end "
			"in 5 s of quiescent states\n",
			f);
		exit(1);
	}
	pthread_join(w, NULL);
	gp_done = 0; /* for wake_up() */
	CHECK(qsbr ? qs_calls >= 1 && qs_calls <= (unsigned long)ms + 1 :
		     qs_calls == 0,
	      "%lu calls of rculist_quiescent_state during a grace period",
	      qs_calls);
	qs_calls = 0;
	rculist_quiescent_state();
	rculist_quiescent_state();
	CHECK(qs_calls == 0,
	      "%lu calls of rculist_quiescent_state after a grace period "
	      "the thread announced",
	      qs_calls);
}

#if RCULIST__RS_PATCH
static const unsigned char nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
/* Or, before a plain instruction, 5 of its prefixes (CS overrides). */
static const unsigned char prefixes5[5] = { 0x2e, 0x2e, 0x2e, 0x2e, 0x2e };

/*
 * The padding gcc and clang emit (GNU as's no-op table), longest first:
 * 0x66 prefixes before the 10-byte form, then each form alone.
 */
static size_t padding_at(const unsigned char *p)
{
	static const unsigned char forms[][10] = {
		{ 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0 },
		{ 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0 },
		{ 0x0f, 0x1f, 0x80, 0, 0, 0, 0 },
		{ 0x66, 0x0f, 0x1f, 0x44, 0, 0 },
		{ 0x0f, 0x1f, 0x44, 0, 0 },
		{ 0x0f, 0x1f, 0x40, 0 },
		{ 0x0f, 0x1f, 0 },
		{ 0x66, 0x90 },
		{ 0x90 },
	};
	static const size_t len[] = { 10, 8, 7, 6, 5, 4, 3, 2, 1 };
	size_t pre = 0;

	while (p[pre] == 0x66 && p[pre + 1] == 0x66)
		pre++;
	for (size_t i = 0; i < sizeof(len) / sizeof(len[0]); i++)
		if (!memcmp(p + pre, forms[i], len[i]))
			return pre + len[i];
	return 0;
}

/*
 * Where a site goes (the next instruction past a nop, or its jmp's
 * target), if it was patched: NULL otherwise.
 */
static const unsigned char *site_dest(const unsigned char *site)
{
	int rel;

	if (!memcmp(site, nop5, 5) || !memcmp(site, prefixes5, 5))
		return site + 5;
	if (site[0] != 0xe9)
		return NULL;
	memcpy(&rel, site + 1, sizeof(rel));
	return site + 5 + rel;
}

/*
 * Whether dest is label, or reached from it through padding and
 * unconditional jumps only (the patch may go past them).
 */
static int reaches(const unsigned char *label, const unsigned char *dest)
{
	for (int hops = 0; hops < 16 && label != dest; hops++) {
		size_t n = padding_at(label);
		int rel;

		if (n) {
			label += n;
		} else if (label[0] == 0xeb) {
			label += 2 + (signed char)label[1];
		} else if (label[0] == 0xe9) {
			memcpy(&rel, label + 1, sizeof(rel));
			label += 5 + rel;
		} else {
			return 0;
		}
	}
	return label == dest;
}

#define AT(field) ((const unsigned char *)((intptr_t) & (field) + (field)))

/*
 * Sites written by hand, each before one instruction, their labels all
 * that instruction (as C's lock and unlock have qsbr's) and their slow
 * path a jmp back to it: the patch makes the site 5 prefixes of the
 * instruction where it is a plain one of at most 10 bytes, else a nop
 * (an 11-byte store, a 0x66 or %fs prefix of its own, another site), and
 * each function returns what it computes, patched or not.  f(p, k): p
 * points to 4 words, k a number.
 */
#define PFX_ENTRY(l)                                                     \
	"\t.pushsection rculist_jump, \"a?\"\n\t.balign 4\n\t.long " l   \
	"1b - ., " l "9f - ., " l "2b - ., " l "2b - ., " l "2b - ., " l \
	"2b - .\n"                                                       \
	"\t.popsection\n"
#define PFX_SITE(l) \
	l "1:\t.byte 0xe9\n\t.long " l "9f - (" l "1b + 5)\n" l "2:\n"
/* name: before, then a site, then code (its slow path past the end). */
#define PFX_CASE2(name, before, code)                                         \
	__asm__("\t.text\n\t.p2align 4\n\t.type " #name ", @function\n" #name \
		":\n" before "\n" PFX_SITE("88") code                         \
		"\n" PFX_ENTRY("88") "889:\tjmp 882b\n\t.size " #name         \
				     ", . - " #name "\n")
#define PFX_CASE(name, code) PFX_CASE2(name, "", code)
typedef unsigned long pfx_fn(const unsigned long *p, unsigned long k);
pfx_fn pfx_load, pfx_sib, pfx_movabs, pfx_store11, pfx_cmp, pfx_ret, pfx_two,
	pfx_66, pfx_fs, pfx_call, pfx_jcc32, pfx_movzx, pfx_imm8, pfx_push,
	pfx_moffs, pfx_pad;
unsigned long pfx_word;
unsigned long pfx_helper(unsigned long k);
unsigned long pfx_helper(unsigned long k)
{
	return k * 3;
}
PFX_CASE(pfx_load, "\tmovq 8(%rdi), %rax\n\tret");
PFX_CASE(pfx_sib, "\tleaq 0x12345678(%rdi,%rsi,8), %rax\n\tret");
PFX_CASE(pfx_movabs,
	 "\tmovabsq $0x1122334455667788, %rax\n\taddq %rsi, %rax\n\tret");
PFX_CASE(pfx_store11, "\tmovq $0x1234567, pfx_word(%rip)\n"
		      "\tmovq pfx_word(%rip), %rax\n\tret");
PFX_CASE(pfx_cmp, "\tcmpq %rsi, 16(%rdi)\n\tsete %al\n\tmovzbl %al, %eax\n\tret");
PFX_CASE2(pfx_ret, "\tmovq %rsi, %rax\n\tnegq %rax", "\tret");
/* The first site's slow path jumps to the second (its next instruction). */
PFX_CASE(pfx_two, PFX_SITE("87") "\tmovq 24(%rdi), %rax\n\tret\n" PFX_ENTRY(
			  "87") "879:\tjmp 872b");
PFX_CASE(pfx_66, "\tmovw $0x4242, %ax\n\tmovzwl %ax, %eax\n\tret");
PFX_CASE(pfx_fs,
	 "\tmovq %fs:0, %rax\n\tsubq %fs:0, %rax\n\taddq %rsi, %rax\n\tret");
PFX_CASE2(pfx_call, "\tpushq %rbx\n\tmovq %rsi, %rdi",
	  "\tcall pfx_helper\n\tpopq %rbx\n\tret");
PFX_CASE2(pfx_jcc32, "\ttestq %rsi, %rsi\n\tmovq $7, %rax",
	  "\tjne 2f\n\t.skip 200, 0x90\n\tmovq $9, %rax\n2:\tret");
PFX_CASE(pfx_movzx, "\tmovzbl 1(%rdi), %eax\n\tret");
PFX_CASE2(pfx_imm8, "\tmovq %rsi, %rax", "\taddq $0x7f, %rax\n\tret");
PFX_CASE(pfx_push, "\tpushq %rsi\n\tpopq %rax\n\tret");
/*
 * A load from an absolute address into %rax (48 a1, 8 bytes of address),
 * as qsbr's patched quiescent-state check begins: from a page prefixes()
 * maps there.
 */
#define PFX_MOFFS_PAGE	0x5ca1ab1e000
#define PFX_STR(x)	#x
#define PFX_ADDR_STR(x) PFX_STR(x)
PFX_CASE(pfx_moffs,
	 "\tmovabsq " PFX_ADDR_STR(PFX_MOFFS_PAGE) "+8, %rax\n"
						   "\taddq %rsi, %rax\n\tret");
/*
 * A site whose label is padding (a 5-byte and a 7-byte nop, as compilers
 * align with) away from the site: the patch jumps past the padding, to
 * the load.
 */
__asm__("\t.text\n\t.p2align 4\n\t.type pfx_pad, @function\npfx_pad:\n" PFX_SITE(
	"88") "\tud2\n"
	      "883:\t.byte 0x0f, 0x1f, 0x44, 0, 0, 0x0f, 0x1f, 0x80, 0, 0, 0, 0\n"
	      "\tmovq 8(%rdi), %rax\n\tret\n"
	      "\t.pushsection rculist_jump, \"a?\"\n\t.balign 4\n"
	      "\t.long 881b - ., 889f - ., 883b - ., 883b - ., 883b - ., 883b - .\n"
	      "\t.popsection\n"
	      "889:\tjmp 883b\n\t.size pfx_pad, . - pfx_pad\n");

/* The first site of fn: its entry's site is the first that lies in it. */
static const unsigned char *pfx_sites_in(pfx_fn *fn, const unsigned char **second)
{
	const unsigned char *lo = (const unsigned char *)(uintptr_t)fn,
			    *first = NULL;

	*second = NULL;
	for (const struct rculist__jump_site *s = __start_rculist_jump;
	     s < __stop_rculist_jump; s++) {
		const unsigned char *site = AT(s->site);

		if (site < lo || site >= lo + 512)
			continue;
		if (!first || site < first) {
			*second = first;
			first = site;
		} else if (!*second || site < *second) {
			*second = site;
		}
	}
	return first;
}

static void prefixes(void)
{
	static const unsigned long words[4] = { 11, 22, 33, 44 };
	/* Its function, k, what it returns, whether its site is prefixes. */
	const struct {
		const char *name;
		pfx_fn *fn;
		unsigned long k, want;
		int prefixed;
	} cases[] = {
		{ "load", pfx_load, 0, 22, 1 },
		{ "sib+disp32", pfx_sib, 3,
		  (unsigned long)(uintptr_t)words + 0x12345678 + 24, 1 },
		{ "movabs (10 bytes)", pfx_movabs, 1, 0x1122334455667789UL, 1 },
		{ "store of 11 bytes", pfx_store11, 0, 0x1234567, 0 },
		{ "cmp", pfx_cmp, 33, 1, 1 },
		{ "ret", pfx_ret, 5, (unsigned long)-5L, 1 },
		{ "0x66 prefix", pfx_66, 0, 0x4242, 0 },
		{ "%fs prefix", pfx_fs, 6, 6, 0 },
		{ "call", pfx_call, 7, 21, 1 },
		{ "jne rel32", pfx_jcc32, 1, 7, 1 },
		{ "movzx", pfx_movzx, 0, 0, 1 },
		{ "add imm8", pfx_imm8, 1, 0x80, 1 },
		{ "push", pfx_push, 99, 99, 1 },
		{ "movabs from moffs64", pfx_moffs, 2, 0x1236, 1 },
	};
	const char *mode = getenv("RCULIST_JUMP");
	int off = mode && strstr(mode, "off");
	const unsigned char *site, *second;
	unsigned long *page =
		mmap((void *)(uintptr_t)PFX_MOFFS_PAGE, 4096,
		     PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	CHECK(page == (unsigned long *)(uintptr_t)PFX_MOFFS_PAGE,
	      "mmap() of a page at %#lx for the moffs case: %p",
	      (unsigned long)PFX_MOFFS_PAGE, (void *)page);
	page[1] = 0x1234;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned long got = cases[i].fn(words, cases[i].k);

		CHECK(got == cases[i].want,
		      "site before %s: returned %#lx, not %#lx", cases[i].name,
		      got, cases[i].want);
		site = pfx_sites_in(cases[i].fn, &second);
		CHECK(site &&
			      site[0] == (off		    ? 0xe9 :
					  cases[i].prefixed ? 0x2e :
							      0x0f) &&
			      (off || !cases[i].prefixed ||
			       !memcmp(site, prefixes5, sizeof(prefixes5))) &&
			      (off || cases[i].prefixed ||
			       !memcmp(site, nop5, sizeof(nop5))),
		      "site before %s: %02x %02x %02x %02x %02x", cases[i].name,
		      site ? site[0] : 0, site ? site[1] : 0, site ? site[2] : 0,
		      site ? site[3] : 0, site ? site[4] : 0);
	}
	/* A site to padding: a jmp past it, to the load (48 8b 47 08). */
	CHECK(pfx_pad(words, 0) == 22, "padding: returned %lu, not 22",
	      pfx_pad(words, 0));
	site = pfx_sites_in(pfx_pad, &second);
	CHECK(site && (off ? site[0] == 0xe9 :
			     site[0] == 0xe9 && !memcmp(site_dest(site),
							"\x48\x8b\x47\x08", 4)),
	      "padding: the site goes to %p",
	      site ? (const void *)site_dest(site) : NULL);
	/* A site before a site: a nop; the second one prefixes. */
	CHECK(pfx_two(words, 0) == 44, "two sites: returned %lu, not 44",
	      pfx_two(words, 0));
	site = pfx_sites_in(pfx_two, &second);
	CHECK(site && second == site + 5 &&
		      (off ? site[0] == 0xe9 && second[0] == 0xe9 :
			     !memcmp(site, nop5, 5) &&
				       !memcmp(second, prefixes5, 5)),
	      "two sites: %02x.. and %02x..", site ? site[0] : 0,
	      second ? second[0] : 0);
}

/* Every site of this program as the loaded flavour's patch leaves it. */
static const char *sites(const char *f)
{
	static char out[64];
	const char *mode = getenv("RCULIST_JUMP");
	int off = mode && strstr(mode, "off");
	size_t n = (size_t)(__stop_rculist_jump - __start_rculist_jump);

	CHECK(n >= 6, "%zu dispatch sites in section rculist_jump", n);
	for (const struct rculist__jump_site *s = __start_rculist_jump;
	     s < __stop_rculist_jump; s++) {
		const unsigned char *site = AT(s->site);
		const unsigned char *want = off		       ? AT(s->slow) :
					    !strcmp(f, "memb") ? AT(s->memb) :
					    !strcmp(f, "bp")   ? AT(s->bp) :
					    !strcmp(f, "mb")   ? AT(s->memb) :
								 AT(s->qsbr);
		const unsigned char *dest = site_dest(site);

		CHECK(dest && (off ? dest == want : reaches(want, dest)),
		      "site %p (%02x %02x %02x %02x %02x) does not go to %p",
		      (const void *)site, site[0], site[1], site[2], site[3],
		      site[4], (const void *)want);
	}
	/*
	 * The counter stores: exchanges under mb once patched (its sites go
	 * to memb's code), movs otherwise.
	 */
	CHECK(__stop_rculist_xchg - __start_rculist_xchg >= 4,
	      "%zu counter stores in section rculist_xchg",
	      (size_t)(__stop_rculist_xchg - __start_rculist_xchg));
	for (const int *x = __start_rculist_xchg; x < __stop_rculist_xchg; x++) {
		const unsigned char *st = AT(*x);
		unsigned char op = !off && !strcmp(f, "mb") ? 0x87 : 0x89;

		CHECK(st[0] == 0x64 && (st[1] & 0xf8) == 0x48 && st[2] == op,
		      "store %p (%02x %02x %02x) is not %02x", (const void *)st,
		      st[0], st[1], st[2], op);
	}
	/*
	 * The quiescent states: qsbr's check written in (the grace-period
	 * counter's address, the reader counter's offset from %fs), a jmp
	 * past it under the other flavours.
	 */
	CHECK(__stop_rculist_qs - __start_rculist_qs >= 3,
	      "%zu quiescent-state sites in section rculist_qs",
	      (size_t)(__stop_rculist_qs - __start_rculist_qs));
	for (const struct rculist__qs_site *q = __start_rculist_qs;
	     q < __stop_rculist_qs; q++) {
		const unsigned char *site = AT(q->site);
		const unsigned char *dest = site_dest(site);
		uint64_t gp = (uintptr_t)rculist__read_side_v2.gp;
		int32_t tls = (int32_t)rculist__read_side_v2.reader;
		unsigned char check[RCULIST__RS_QS_LEN] = { 0x48, 0xa1 };

		memcpy(check + 2, &gp, sizeof(gp));
		memcpy(check + 10, "\x64\x48\x3b\x04\x25", 5);
		memcpy(check + 15, &tls, sizeof(tls));
		CHECK(off		 ? dest == AT(q->slow) :
		      !strcmp(f, "qsbr") ? !memcmp(site, check, sizeof(check)) :
					   dest == AT(q->end),
		      "quiescent-state site %p (%02x %02x %02x %02x %02x) is "
		      "not %s",
		      (const void *)site, site[0], site[1], site[2], site[3],
		      site[4],
		      off		 ? "its jmp to the slow path" :
		      !strcmp(f, "qsbr") ? "qsbr's check" :
					   "a jmp past the check");
	}
	prefixes();
	snprintf(out, sizeof(out), " (%zu sites, %zu stores, %zu qs %s)", n,
		 (size_t)(__stop_rculist_xchg - __start_rculist_xchg),
		 (size_t)(__stop_rculist_qs - __start_rculist_qs),
		 off ? "as compiled" : "patched");
	return out;
}
#else
static const char *sites(const char *f)
{
	(void)f;
	return "";
}
#endif

int main(void)
{
	const char *f = rculist_flavor_name();
	unsigned long want = !strcmp(f, "memb") ? RCULIST__RS_MEMB :
			     !strcmp(f, "bp")	? RCULIST__RS_BP :
			     !strcmp(f, "mb")	? RCULIST__RS_FENCED :
						  RCULIST__RS_QSBR;
	pthread_t t;

	CHECK(rculist__read_side_v2.kind == want,
	      "the library describes its read side as kind %lu, not %lu",
	      rculist__read_side_v2.kind, want);
	rculist_register_thread();
	sections("main thread");
	CHECK(lock_calls <= 1 && unlock_calls == 0,
	      "main thread: %lu calls of rculist_read_lock, %lu of "
	      "rculist_read_unlock",
	      lock_calls, unlock_calls);
	pthread_create(&t, NULL, reader_thread, NULL);
	pthread_join(t, NULL);
	CHECK(unlock_calls == 0, "%lu calls of rculist_read_unlock",
	      unlock_calls);

	/* qsbr: a call only when a grace period began since the last one. */
	qs_calls = 0;
	for (int i = 0; i < ROUNDS; i++)
		rculist_quiescent_state();
	CHECK(qs_calls <= 1, "%lu calls of rculist_quiescent_state", qs_calls);
	gp_by_another(f);

	rculist_thread_offline();
	if (strcmp(f, "qsbr") != 0)
		wake_up();
	rculist_thread_online();
	rculist_unregister_thread();
	if (failed)
		return 1;
	printf("calls %s ok%s\n", f, sites(f));
	if (failed)
		return 1;
	return 0;
}
