/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/read_side.h - the read side on the default link, inline.
 *
 * The flavour is still chosen when linking: one object file works with
 * each of the four libraries.  Each library describes its liburcu read
 * side in struct rculist__read_side_v2 (filled when it is loaded, before
 * the program's code runs), and the wrappers below do liburcu's fast path
 * inline from that description, with no call:
 *  - memb (with sys_membarrier): the thread's reader counter in liburcu's
 *    thread-local reader, at a fixed offset from the thread pointer (the
 *    library reaches it initial-exec: it is in the static TLS block);
 *    nothing to fence; on unlock, a waiting grace period is woken through
 *    the library (a call, only while one waits);
 *  - bp: the same counter, reached through liburcu's thread-local pointer
 *    to the thread's registry slot; a thread's first section calls the
 *    library, which registers it;
 *  - mb (and memb without sys_membarrier): memb's code with liburcu's
 *    full memory barriers;
 *  - qsbr: lock and unlock do nothing; rculist_quiescent_state() calls
 *    the library only when the grace-period counter differs from the
 *    thread's reader counter (liburcu's, found as memb's is), as
 *    liburcu's inline code does.
 * On x86-64 the flavour's code is picked by sites patched when the
 * module is loaded (RCULIST__RS_SITE below, core/jump.h); elsewhere by
 * comparisons of the kind.  Until the library has filled the description
 * (kind CALL), the wrappers call the library.  The library checks at
 * build time (against liburcu's headers) and at load time (against
 * liburcu's own out-of-line read side) the layout this code relies on,
 * and stops the program with a message when it differs.
 *
 * The functions stay exported (ABI; their addresses, and the debug
 * mode's checking wrappers, use them); the names below are object-like
 * macros, as in <rculist/inline.h>, so that &rculist_read_lock works.
 *
 * Included by <rculist/runtime.h> unless -DRCULIST_INLINE_<FLAVOUR>; do
 * not include it directly.  Debug mode (<rculist/debug_api.h>) replaces
 * these names by its checking wrappers, which call the library.
 */
#ifndef RCULIST_READ_SIDE_H
#define RCULIST_READ_SIDE_H

/*
 * Inline where the thread pointer is known to the compiler and the
 * description is read in assembly (below); ThreadSanitizer sees the
 * library's calls instead.  So does a program that defines RCULIST_LTO
 * because it is linked with -flto against librculist-<flavour>.a: there
 * the library's own read side (liburcu's code, no dispatch) is inlined at
 * link time.
 */
#if (defined(__x86_64__) || defined(__aarch64__)) && \
	!defined(__SANITIZE_THREAD__) && !defined(RCULIST_LTO)
#define RCULIST__RS_INLINE 1
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#undef RCULIST__RS_INLINE
#endif
#endif
#endif
#ifndef RCULIST__RS_INLINE
#define RCULIST__RS_INLINE 0
#endif

/*
 * What the program's read side does (rculist__read_side_v2.kind).  The
 * values are ABI: programs compiled against earlier headers tell four
 * cases apart with one comparison with QSBR (equal, unsigned below,
 * signed above, negative).
 */
#define RCULIST__RS_BP	   1UL	  /* the counter through the registry slot */
#define RCULIST__RS_QSBR   2UL	  /* nothing: quiescent states instead */
#define RCULIST__RS_MEMB   3UL	  /* the thread's counter, no barrier */
#define RCULIST__RS_FENCED (~0UL) /* MEMB with full memory barriers (mb) */
#define RCULIST__RS_CALL   (~1UL) /* call the library */

/* liburcu's reader counter: nesting count in its low half-word. */
#define RCULIST__RS_NEST ((1UL << (sizeof(unsigned long) * 4)) - 1)

RCULIST__BEGIN_DECLS
/*
 * Internal ABI, exported by every flavour library (core/bind.h).  The
 * name carries its version: a program compiled against another layout
 * does not link, or does not load, against this one.  Programs reach it
 * by a copy relocation or through the GOT; the library fills its own and
 * the program's copy when it is loaded (kind last), and nothing changes
 * it afterwards (bp's kind may still go from CALL to BP once, on a
 * thread's first section, in a program linked statically).
 */
struct rculist__read_side_v2 {
	unsigned long kind;	    /* RCULIST__RS_* */
	long reader;		    /* memb, mb, qsbr: liburcu's reader
				     * counter; bp: liburcu's pointer to the
				     * thread's registry slot (its counter
				     * first): offset from the thread
				     * pointer */
	const unsigned long *gp;    /* liburcu's grace-period counter,
				     * followed by its futex (an int at
				     * gp + 1), -1 while a grace period
				     * waits for readers */
	const unsigned long *qs_gp; /* qsbr: the grace-period counter (read
				     * by programs compiled against earlier
				     * headers only) */
	const void *owner;	    /* the library's own copy */
};
extern const struct rculist__read_side_v2 rculist__read_side_v2;
/*
 * What programs compiled against rculist 1.0's <rculist/read_side.h> read
 * instead (whether lock and unlock call the library; qsbr's counter):
 * still exported for them, read by nothing here.
 */
struct rculist__read_side {
	int lock_calls;
	const unsigned long *qs_gp;
};
extern const struct rculist__read_side rculist__read_side;
/*
 * qsbr: the calling thread's reader counter as the library last stored
 * it (0 offline or unregistered); 0 in every thread under the other
 * flavours.  What programs compiled against earlier headers compare
 * qs_gp with: still kept for them, read by nothing here.
 */
extern __thread unsigned long rculist__qs_ctr
	__attribute__((tls_model("initial-exec")));
/* Wakes the grace period waiting on the futex (a library call). */
void rculist__read_side_wake(void);
RCULIST__END_DECLS

/*
 * A word of the description.  Read in assembly that depends on nothing:
 * the compiler loads it once where it likes (out of a loop, into a
 * register) and keeps it across the barriers of the read side, as it
 * does liburcu's own initial-exec offsets.  It does not change once the
 * program runs.  RCULIST__RS_WORD_HERE() reads it where it is written
 * (volatile): for a path off a loop's way, so that the compiler spends
 * no register of the loop on it (gcc hoists each read in assembly as a
 * value of its own, and only as many as registers allow).
 */
#define RCULIST__RS_OFF(field) offsetof(struct rculist__read_side_v2, field)
#if RCULIST__RS_INLINE && defined(__x86_64__) && defined(__PIC__) && \
	!defined(__PIE__)
#define RCULIST__RS_WORD_AS(field, q)                                          \
	__extension__({                                                        \
		unsigned long rs_w_;                                           \
		__asm__ q("movq rculist__read_side_v2@GOTPCREL(%%rip), %0\n\t" \
			  "movq %c1(%0), %0"                                   \
			  : "=r"(rs_w_)                                        \
			  : "i"(RCULIST__RS_OFF(field)));                      \
		rs_w_;                                                         \
	})
#elif RCULIST__RS_INLINE && defined(__x86_64__)
#define RCULIST__RS_WORD_AS(field, q)                                 \
	__extension__({                                               \
		unsigned long rs_w_;                                  \
		__asm__ q("movq rculist__read_side_v2+%c1(%%rip), %0" \
			  : "=r"(rs_w_)                               \
			  : "i"(RCULIST__RS_OFF(field)));             \
		rs_w_;                                                \
	})
#elif RCULIST__RS_INLINE
#define RCULIST__RS_WORD_AS(field, q)                                         \
	__extension__({                                                       \
		unsigned long rs_w_;                                          \
		__asm__ q("adrp %0, :got:rculist__read_side_v2\n\t"           \
			  "ldr %0, [%0, :got_lo12:rculist__read_side_v2]\n\t" \
			  "ldr %0, [%0, %1]"                                  \
			  : "=r"(rs_w_)                                       \
			  : "i"(RCULIST__RS_OFF(field)));                     \
		rs_w_;                                                        \
	})
#else
#define RCULIST__RS_WORD_AS(field, q) ((unsigned long)RCULIST__RS_CALL)
#endif
#define RCULIST__RS_WORD(field)	     RCULIST__RS_WORD_AS(field, )
#define RCULIST__RS_WORD_HERE(field) RCULIST__RS_WORD_AS(field, __volatile__)
#define RCULIST__RS_KIND()	     RCULIST__RS_WORD(kind)
#define RCULIST__RS_GP()	     ((const volatile unsigned long *)RCULIST__RS_WORD(gp))

/*
 * The calling thread's word at offset off in the static TLS block.  On
 * x86-64 read and written in assembly, %fs relative, so that C and C++
 * compile the same instructions (C++ has no __seg_fs); elsewhere from
 * the thread pointer.
 */
#define RCULIST__RS_TLS(off)                                             \
	((volatile unsigned long *)((char *)__builtin_thread_pointer() + \
				    (long)(off)))
#if RCULIST__RS_INLINE && defined(__x86_64__)
#define RCULIST__RS_ASM 1
static inline __attribute__((always_inline)) unsigned long
rculist__rs_get(unsigned long off)
{
	unsigned long v;

	__asm__ __volatile__("movq %%fs:(%1), %0" : "=r"(v) : "r"(off));
	return v;
}
static inline __attribute__((always_inline)) void
rculist__rs_put(unsigned long off, unsigned long v)
{
	__asm__ __volatile__("movq %0, %%fs:(%1)" ::"r"(v), "r"(off));
}
#else
#define RCULIST__RS_ASM		0
#define rculist__rs_get(off)	(*RCULIST__RS_TLS(off))
#define rculist__rs_put(off, v) (*RCULIST__RS_TLS(off) = (v))
#endif
/* Whether the thread's word at offset off differs from v. */
#if RCULIST__RS_ASM
static inline __attribute__((always_inline)) int
rculist__rs_differs(unsigned long off, unsigned long v)
{
	int ne;

	__asm__ __volatile__("cmpq %%fs:(%2), %1"
			     : "=@ccnz"(ne)
			     : "r"(v), "r"(off));
	return ne;
}
#else
#define rculist__rs_differs(off, v) (*RCULIST__RS_TLS(off) != (v))
#endif
#define RCULIST__RS_BARRIER() __asm__ __volatile__("" ::: "memory")

/*
 * memb and mb: whether liburcu registered the thread whose reader is at
 * off (its reader's registered bit, in the byte RCULIST__RS_REG_OFF past
 * the counter: after the registry node, aligned to liburcu's cache line,
 * and the thread id).  The library checks the place when it is built and
 * when it is loaded.  A thread not registered takes the library's lock.
 */
#if defined(__x86_64__)
#define RCULIST__RS_REG_OFF 152 /* CAA_CACHE_LINE_SIZE 128 */
#else
#define RCULIST__RS_REG_OFF 88 /* CAA_CACHE_LINE_SIZE 64 */
#endif
#if RCULIST__RS_ASM
static inline __attribute__((always_inline)) int
rculist__rs_registered(unsigned long off)
{
	int unreg;

	__asm__ __volatile__("testb $1, %%fs:%c1(%2)"
			     : "=@ccz"(unreg)
			     : "i"(RCULIST__RS_REG_OFF), "r"(off));
	return !unreg;
}
#else
#define rculist__rs_registered(off)                                                \
	(*((volatile unsigned char *)RCULIST__RS_TLS(off) + RCULIST__RS_REG_OFF) & \
	 1)
#endif

/*
 * Store v to the thread's counter at offset off with full memory
 * barriers before and after (x86: one exchange, itself a full barrier).
 */
static inline __attribute__((always_inline)) void
rculist__rs_fenced_store(unsigned long off, unsigned long v)
{
#if RCULIST__RS_ASM
	__asm__ __volatile__("xchgq %0, %%fs:(%1)"
			     : "+r"(v)
			     : "r"(off)
			     : "memory");
#else
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	*RCULIST__RS_TLS(off) = v;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/*
 * memb's store to the thread's counter at offset off (v may change).  On
 * x86-64 it is patched when the module is loaded, as the dispatch sites
 * are (core/jump.h): a mov (opcode 0x89) under memb, an exchange (0x87,
 * the same length, a full memory barrier before and after) when the
 * flavour's barriers are needed (mb, memb without sys_membarrier), so
 * that mb runs memb's code with nothing more than the exchange: where
 * liburcu has a store and a fence, one instruction.  Its entry in section
 * rculist_xchg (an offset from the entry) names the instruction.  The
 * sites of a kind FENCED go to memb's label only once every store of
 * their module is an exchange; else to the fenced label below.
 */
#if RCULIST__RS_ASM
#define RCULIST__RS_STORE(off, v)                                    \
	__asm__ __volatile__("882:\tmovq %0, %%fs:(%1)\n"            \
			     "\t.pushsection rculist_xchg, \"a?\"\n" \
			     "\t.balign 4\n"                         \
			     "\t.long 882b - .\n"                    \
			     "\t.popsection"                         \
			     : "+r"(v)                               \
			     : "r"(off)                              \
			     : "memory")
#else
#define RCULIST__RS_STORE(off, v) rculist__rs_put(off, v)
#endif

/*
 * A call of the library on a rare path: RCULIST__RS_PCALL(fn) calls
 * void fn(void).  Where sites are patched, the call is made from
 * inline assembly through rculist__rs_preserve_v1 (core/preserve.c),
 * which keeps every general register and the caller's red zone: to the
 * compiler the function holding a section then calls nothing, and pays
 * for no stack frame, no saved register, on the path every section
 * takes.  The vector and x87 registers are the call's clobbers (the
 * library's code may use them), those the compiler has (none with
 * -mgeneral-regs-only); with AVX-512, its registers too.
 * Elsewhere, plain calls.  (Sites are patched where this is inline:
 * RCULIST__RS_PATCH below.)
 */
#if RCULIST__RS_INLINE && defined(__x86_64__)
RCULIST__BEGIN_DECLS
/* Internal ABI: reached from the sites' assembly alone. */
void rculist__rs_preserve_v1(void);
RCULIST__END_DECLS
/* Each list only where the compiler may keep values there. */
#if !defined(_SOFT_FLOAT)
#define RCULIST__RS_X87 \
	, "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)"
#else
#define RCULIST__RS_X87
#endif
#if defined(__SSE__)
#define RCULIST__RS_XMM                                                      \
	, "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",    \
		"xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", \
		"xmm15"
#else
#define RCULIST__RS_XMM
#endif
#if defined(__AVX512F__)
#define RCULIST__RS_ZMM                                                        \
	, "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22",       \
		"xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", \
		"xmm30", "xmm31", "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"
#else
#define RCULIST__RS_ZMM
#endif
#define RCULIST__RS_PCALL_ASM                               \
	"leaq -128(%%rsp), %%rsp\n\t"                       \
	"call *rculist__rs_preserve_v1@GOTPCREL(%%rip)\n\t" \
	"leaq 128(%%rsp), %%rsp"
#define RCULIST__RS_PCALL_CLOBBERS \
	"memory", "cc" RCULIST__RS_X87 RCULIST__RS_XMM RCULIST__RS_ZMM
/*
 * RCULIST__RS_PCALL_AS(fn, text): the call with text (an assembler
 * comment, or "") after it, so that a call can be given a text of its
 * own: the compiler merges identical calls of paths that end alike, and
 * may then lay out one path's fast code after the merged call, a taken
 * jump away.
 */
#define RCULIST__RS_PCALL_AS(fn, text)                            \
	__asm__ __volatile__(RCULIST__RS_PCALL_ASM text ::"a"(fn) \
			     : RCULIST__RS_PCALL_CLOBBERS)
#else
#define RCULIST__RS_PCALL_AS(fn, text) (fn)()
#endif
#define RCULIST__RS_PCALL(fn) RCULIST__RS_PCALL_AS(fn, "")

/*
 * liburcu's lock of memb and mb on the thread's counter (at offset off):
 * a new outermost section takes the grace-period counter, a nested one
 * counts one more; an outermost one in a thread liburcu has not
 * registered calls first() instead (the library's lock; C++: which
 * registers the thread first).
 */
static inline __attribute__((always_inline)) void
rculist__rs_lock(unsigned long off, unsigned long gpw, int fence,
		 void (*first)(void))
{
	unsigned long tmp = rculist__rs_get(off), gp;

	RCULIST__RS_BARRIER();
	if (__builtin_expect(!(tmp & RCULIST__RS_NEST), 1)) {
		if (__builtin_expect(!rculist__rs_registered(off), 0)) {
			RCULIST__RS_PCALL(first);
			return;
		}
		gp = *(const volatile unsigned long *)gpw;
		if (fence)
			rculist__rs_fenced_store(off, gp);
		else
			RCULIST__RS_STORE(off, gp);
	} else {
		rculist__rs_put(off, tmp + 1);
	}
	RCULIST__RS_BARRIER();
}

/* bp's: the same on the counter of the thread's registry slot. */
static inline void rculist__rs_lock_bp(volatile unsigned long *ctr,
				       unsigned long gpw)
{
	unsigned long tmp = *ctr;

	RCULIST__RS_BARRIER();
	if (__builtin_expect(!(tmp & RCULIST__RS_NEST), 1))
		*ctr = *(const volatile unsigned long *)gpw;
	else
		*ctr = tmp + 1;
	RCULIST__RS_BARRIER();
}

/*
 * bp's registry slot, its counter first (null: not registered yet), off
 * the description's word reader.
 */
#define RCULIST__RS_BP_SLOT(off) \
	((volatile unsigned long *)rculist__rs_get(off))

/*
 * A dispatch site: goes to label memb, qsbr, bp or fenced (mb) by the
 * kind, or to slow, which tests the kind at run time (RCULIST__RS_SLOW)
 * and calls the library while it says CALL.
 *
 * On x86-64 a site is one instruction, patched when its module is loaded
 * (core/jump.h, as the kernel's jump labels): the 5-byte jmp to slow it
 * is compiled as becomes a jmp to the flavour's label, or, where that
 * label is the next instruction, no instruction at all (5 prefixes of
 * that instruction, or a 5-byte nop where it takes none).  C's lock and
 * unlock are written with qsbr's label next (qsbr does nothing there),
 * so that under qsbr a section runs nothing of the read side's, as
 * liburcu's; the other flavours jump to their code, out of the way, and
 * back.  Its entry in section
 * rculist_jump (relative offsets, no relocation at load time; "?": in the
 * group of the function, so that the entries of a C++ inline function's
 * discarded copies are discarded with it) names the site and its labels.
 * An unpatched site is correct, only slower: patching happens in the
 * module's constructor (rculist__jump_module() below), before its code
 * runs in another thread; a site that ran before (another constructor)
 * ran the slow path.  Elsewhere (arm64, ThreadSanitizer, LTO builds) a
 * site is the slow path: comparisons of the kind.
 */
#if RCULIST__RS_INLINE && defined(__x86_64__)
#define RCULIST__RS_PATCH 1
#define RCULIST__RS_SITE(memb, qsbr, bp, fenced, slow)                        \
	__asm__ goto("881:\t.byte 0xe9\n\t.long %l[" #slow "] - (881b + 5)\n" \
		     "\t.pushsection rculist_jump, \"a?\"\n"                  \
		     "\t.balign 4\n"                                          \
		     "\t.long 881b - ., %l[" #slow "] - ., %l[" #memb         \
		     "] - ., %l[" #qsbr "] - ., %l[" #bp "] - ., %l[" #fenced \
		     "] - .\n"                                                \
		     "\t.popsection" ::                                       \
			     :                                                \
		     : memb, qsbr, bp, fenced, slow)
#else
#define RCULIST__RS_PATCH			       0
#define RCULIST__RS_SITE(memb, qsbr, bp, fenced, slow) goto slow
#endif

/*
 * C++'s site (<rculist/rcu.hpp>'s lock() and unlock(), x86-64): a site
 * like C's (a 5-byte jmp to slow, where the flavour's code is then the
 * next instruction, memb's as in C), and a stub out of line (subsection
 * 1 of the function's section): 5 bytes of a jmp to slow, 4 bytes of
 * room and the byte imm, then "jg done", "jl nested" and "jmp outer".
 * Its entry in section rculist_cxx names the site, slow, the stub, the
 * stub's end past its 10 bytes, and the other flavours' labels.  Under
 * memb, bp and mb the patch writes the site as rculist__jump_patch_v2()
 * does a site (a nop where memb's code follows: a C++ section costs what
 * C's does, in instructions and in time); under qsbr the comparison of
 * liburcu's reader counter with imm into the stub (cmpq $imm,
 * %fs:offset, its 9 first bytes) and the site's jmp to it, so that the
 * thread's counter sends it past (above imm), to nested (below) or to
 * outer (equal): two instructions more than C's site where it goes past,
 * no word read.
 */
#if RCULIST__RS_PATCH
#define RCULIST__RS_CXX_LEN 10 /* cmpq $imm8, %fs:disp32 */
#define RCULIST__RS_CXX_SITE(imm, memb, bp, fenced, slow, done, nested, outer)   \
	__asm__ goto("885:\t.byte 0xe9\n\t.long %l[" #slow "] - (885b + 5)\n"    \
		     "\t.subsection 1\n"                                         \
		     "887:\t.byte 0xe9\n\t.long %l[" #slow "] - (887b + 5)\n"    \
		     "\t.skip 4, 0xcc\n"                                         \
		     "\t.byte " #imm "\n"                                        \
		     "886:\tjg %l[" #done "]\n"                                  \
		     "\tjl %l[" #nested "]\n"                                    \
		     "\tjmp %l[" #outer "]\n"                                    \
		     "\t.subsection 0\n"                                         \
		     "\t.pushsection rculist_cxx, \"a?\"\n"                      \
		     "\t.balign 4\n"                                             \
		     "\t.long 885b - ., %l[" #slow "] - ., 887b - ., 886b - ., " \
		     "%l[" #memb "] - ., %l[" #bp "] - ., %l[" #fenced "] - .\n" \
		     "\t.popsection" ::                                          \
			     : "cc"                                              \
		     : memb, bp, fenced, slow, done, nested, outer)
#endif

/*
 * The slow path is cold where sites are patched: out of the way of the
 * flavour's code (gcc; clang has no label attributes).  Elsewhere it is
 * the read side.
 */
#if RCULIST__RS_PATCH && defined(__GNUC__) && !defined(__clang__)
#define RCULIST__RS_COLD __attribute__((cold))
#define RCULIST__RS_HOT	 __attribute__((hot))
#else
#define RCULIST__RS_COLD
#define RCULIST__RS_HOT
#endif

/* What a site's slow path does: the kind tested, the library called. */
#define RCULIST__RS_SLOW(memb, qsbr, bp, fenced, call) \
	do {                                           \
		unsigned long k_ = RCULIST__RS_KIND(); \
		if (k_ == RCULIST__RS_QSBR)            \
			goto qsbr;                     \
		if (k_ == RCULIST__RS_BP)              \
			goto bp;                       \
		if (k_ == RCULIST__RS_MEMB)            \
			goto memb;                     \
		if (k_ == RCULIST__RS_FENCED)          \
			goto fenced;                   \
		call;                                  \
	} while (0)

#if RCULIST__RS_PATCH
RCULIST__BEGIN_DECLS
/*
 * A site's entry in section rculist_jump: each field the offset of an
 * address from the field itself (internal ABI, core/jump.c).
 */
struct rculist__jump_site {
	int site, slow, memb, qsbr, bp, fenced;
};
/*
 * Patches the sites of one module (executable, shared object) to the
 * loaded flavour's labels, and its counter stores (section rculist_xchg,
 * RCULIST__RS_STORE()) to exchanges where the flavour needs barriers;
 * idempotent, the sites it does not know left alone.  Exported by every
 * flavour library; named weakly, so that a program including <rculist.h>
 * for the lists alone links without it.
 */
void rculist__jump_patch_v2(const struct rculist__jump_site *start,
			    const struct rculist__jump_site *stop,
			    const int *xchg_start, const int *xchg_stop)
	__attribute__((weak));
/*
 * A quiescent state's site (RCULIST__RS_QS_SITE() below): its entry in
 * section rculist_qs, the offsets of the site, its slow path and the end
 * of its check.
 */
struct rculist__qs_site {
	int site, slow, end;
};
/*
 * Patches the quiescent-state sites of one module: under qsbr to the
 * check itself (the grace-period counter's address and the reader
 * counter's offset written in), under the other flavours to a jmp past
 * it; as rculist__jump_patch_v2() otherwise (exported, named weakly: a
 * library without it leaves the sites to their slow paths).
 */
void rculist__jump_patch_qs_v1(const struct rculist__qs_site *start,
			       const struct rculist__qs_site *stop)
	__attribute__((weak));
/*
 * A C++ site's entry in section rculist_cxx (RCULIST__RS_CXX_SITE()):
 * the offsets of the site, its slow path, its stub, the end of the
 * stub's room and the labels of memb, bp and mb.
 */
struct rculist__cxx_site {
	int site, slow, stub, end, memb, bp, fenced;
};
/*
 * Patches the C++ sites of one module: under qsbr to the comparison of
 * the thread's reader counter (its offset written in), under the other
 * flavours as rculist__jump_patch_v2() patches a site, the module's
 * counter stores (xchg_start..xchg_stop) made exchanges first under mb.
 * Its sites given too (start..stop), so that no jump is threaded into
 * one left as compiled.  Exported, named weakly: a library without it
 * leaves the C++ sites to their slow paths.
 */
void rculist__jump_patch_cxx_v1(const struct rculist__cxx_site *cstart,
				const struct rculist__cxx_site *cstop,
				const struct rculist__jump_site *start,
				const struct rculist__jump_site *stop,
				const int *xchg_start, const int *xchg_stop)
	__attribute__((weak));
/* The linker's bounds of this module's sections (hidden: its own). */
extern const struct rculist__cxx_site __start_rculist_cxx[]
	__attribute__((weak, visibility("hidden")));
extern const struct rculist__cxx_site __stop_rculist_cxx[]
	__attribute__((weak, visibility("hidden")));
extern const struct rculist__qs_site __start_rculist_qs[]
	__attribute__((weak, visibility("hidden")));
extern const struct rculist__qs_site __stop_rculist_qs[]
	__attribute__((weak, visibility("hidden")));
extern const struct rculist__jump_site __start_rculist_jump[]
	__attribute__((weak, visibility("hidden")));
extern const struct rculist__jump_site __stop_rculist_jump[]
	__attribute__((weak, visibility("hidden")));
extern const int __start_rculist_xchg[]
	__attribute__((weak, visibility("hidden")));
extern const int __stop_rculist_xchg[]
	__attribute__((weak, visibility("hidden")));
/*
 * One per module (weak and hidden: the linker keeps one of the copies
 * every file including this header defines), run when the module is
 * loaded: after the constructors of the libraries it depends on, and, in
 * a static program, before or after the library's own (the patching
 * function then fills the description first).
 */
#ifndef RCULIST__LIBRARY /* the library's own: core/jump.c */
/*
 * Each file's constructor list names it: the first call patches, the
 * others see the module's one flag.
 */
extern int rculist__jump_done __attribute__((weak, visibility("hidden")));
int rculist__jump_done;
void rculist__jump_module(void)
	__attribute__((constructor, weak, visibility("hidden")));
void rculist__jump_module(void)
{
	if (rculist__jump_patch_v2 && !rculist__jump_done) {
		rculist__jump_done = 1;
		/*
		 * The quiescent states first: a site that goes to one (a
		 * label followed by it) may then jump past it too.
		 */
		if (rculist__jump_patch_qs_v1)
			rculist__jump_patch_qs_v1(__start_rculist_qs,
						  __stop_rculist_qs);
		/* Then C++'s, before the sites that may jump to one. */
		if (rculist__jump_patch_cxx_v1)
			rculist__jump_patch_cxx_v1(__start_rculist_cxx,
						   __stop_rculist_cxx,
						   __start_rculist_jump,
						   __stop_rculist_jump,
						   __start_rculist_xchg,
						   __stop_rculist_xchg);
		rculist__jump_patch_v2(__start_rculist_jump, __stop_rculist_jump,
				       __start_rculist_xchg, __stop_rculist_xchg);
	}
}
#endif
RCULIST__END_DECLS
#endif

/*
 * What C++'s qsbr hooks are told of the thread's reader counter: nothing
 * (they read it), that it is the outermost region's (lock: 0, offline;
 * unlock: the region's mark), or a nested region's (RCULIST__RS_CXX_SITE()).
 */
#define RCULIST__RS_CXX_ANY    0
#define RCULIST__RS_CXX_OUTER  1
#define RCULIST__RS_CXX_NESTED 2

/*
 * The lock, for C and C++ (<rculist/rcu.hpp>): first() is what a thread
 * rculist has not seen registered (bp: whose registry slot is null) calls
 * instead, qsbr() what qsbr does (C: nothing; C++: given the words,
 * where sites are patched reached only in a thread whose reader counter
 * is not positive: RCULIST__RS_CXX_SITE()).
 * other() (C++, where sites are patched) runs the paths a patched site
 * does not take, out of line: the slow path (before the patch) and mb's
 * fenced code (a store left unpatched), so that the compiler's inliner
 * sees the inline code small enough to inline std::scoped_lock's.
 */
static inline __attribute__((always_inline)) void rculist__rs_read_lock(
	void (*first)(void),
	void (*qsbr_lock)(unsigned long off, unsigned long gpw, int known),
	void (*other)(void)) RCULIST_NO_RCU_ANALYSIS
{
	volatile unsigned long *ctr;
	unsigned long off = RCULIST__RS_WORD(reader), gpw = RCULIST__RS_WORD(gp);

	if (qsbr_lock) { /* C++: qsbr's code out of the way of the others' */
#if RCULIST__RS_PATCH
		/*
		 * qsbr: a thread online (the C API's) has nothing to do; one
		 * offline goes online, one in a region nests.
		 */
		RCULIST__RS_CXX_SITE(0, memb, bp, fenced, slow, done, nested,
				     outer);
#else
		RCULIST__RS_SITE(memb, qsbr_hook, bp, fenced, slow);
#endif
	} else {
		/* qsbr's label next: no instruction once patched. */
		RCULIST__RS_SITE(memb, qsbr, bp, fenced, slow);
qsbr:
		if (qsbr_lock)
			goto qsbr_hook;
		return;
	}
memb:
	RCULIST__RS_HOT;
	rculist__rs_lock(off, gpw, 0, first);
	return;
bp:
	ctr = RCULIST__RS_BP_SLOT(off);
	if (__builtin_expect(ctr != 0, 1))
		rculist__rs_lock_bp(ctr, gpw);
	else /* registers the thread; not merged with memb's call */
		RCULIST__RS_PCALL_AS(first, " # bp");
	return;
fenced:
	if (RCULIST__RS_PATCH && other) {
		RCULIST__RS_PCALL(other);
		return;
	}
	rculist__rs_lock(off, gpw, 1, first);
	return;
slow:
	RCULIST__RS_COLD;
	if (RCULIST__RS_PATCH && other) {
		RCULIST__RS_PCALL(other);
		return;
	}
	RCULIST__RS_SLOW(memb, qsbr, bp, fenced,
			 RCULIST__RS_PCALL(rculist_read_lock));
	return;
qsbr_hook:
	RCULIST__RS_COLD;
	qsbr_lock(off, gpw, RCULIST__RS_CXX_ANY);
	return;
#if RCULIST__RS_PATCH /* C++'s site's labels */
outer:
	qsbr_lock(off, gpw, RCULIST__RS_CXX_OUTER);
	return;
nested:
	RCULIST__RS_COLD;
	qsbr_lock(off, gpw, RCULIST__RS_CXX_NESTED);
done:;
#endif
}

/*
 * Declared to clang's thread-safety analysis as the library's calls: the
 * tests of the kind would otherwise hide the section from it.
 */
static inline __attribute__((always_inline)) void
rculist__read_lock_wrap(void) RCULIST_ACQUIRES_RCU RCULIST_NO_RCU_ANALYSIS
{
	rculist__rs_read_lock(rculist_read_lock, 0, 0);
}

/*
 * memb and mb: a grace period waits on the futex after its counter.  Read
 * once, after a barrier: not volatile, so that the compiler compares it in
 * memory, as liburcu's code does.
 */
#define RCULIST__RS_GP_WAITS(gpw) \
	__builtin_expect(*(const int *)((gpw) + sizeof(unsigned long)) == -1, 0)

/*
 * The unlock, for C and C++: qsbr() what qsbr does (C: nothing), other()
 * as the lock's.
 */
static inline __attribute__((always_inline)) void rculist__rs_read_unlock(
	void (*qsbr_unlock)(unsigned long off, unsigned long gpw, int known),
	void (*other)(void)) RCULIST_NO_RCU_ANALYSIS
{
	/*
	 * The reader's word before the site, as the lock reads it (in a
	 * loop the compiler loads the two once, out of it); the grace
	 * period's where it is used: not loaded on qsbr's path in a function
	 * of its own (memb's label hot, so that a loop still hoists it).
	 */
	unsigned long off = RCULIST__RS_WORD(reader), gpw, tmp, nv;
	volatile unsigned long *ctr;

	if (qsbr_unlock) {
#if RCULIST__RS_PATCH
		RCULIST__RS_CXX_SITE(0xff, memb, bp, fenced, slow, done, nested,
				     outer);
		/*
		 * bp's code next, memb's a jump away: gcc then copies the
		 * code after the section into bp's path, and a C++ section
		 * costs no more than C's under any of the three (memb's
		 * lock still follows its site).
		 */
		goto bp;
#else
		RCULIST__RS_SITE(memb, qsbr_hook, bp, fenced, slow);
#endif
	} else {
		/* As the lock's: qsbr's label next. */
		RCULIST__RS_SITE(memb, qsbr, bp, fenced, slow);
qsbr:
		if (qsbr_unlock)
			goto qsbr_hook;
		return;
	}
memb:
	RCULIST__RS_HOT;
	/*
	 * With sys_membarrier the barriers are the compiler's only; the
	 * futex is read first, the nesting tested only while a grace
	 * period waits.  mb (patched): the store is an exchange, the full
	 * barriers liburcu puts around the outermost unlock's store, before
	 * the futex is read.
	 */
	gpw = RCULIST__RS_WORD(gp);
	tmp = rculist__rs_get(off);
	RCULIST__RS_BARRIER();
	nv = tmp - 1;
	RCULIST__RS_STORE(off, nv);
	RCULIST__RS_BARRIER();
	if (RCULIST__RS_GP_WAITS(gpw) && (tmp & RCULIST__RS_NEST) == 1)
		RCULIST__RS_PCALL(rculist__read_side_wake);
	return;
bp:
	/* Not null: the section's lock registered the thread. */
	ctr = RCULIST__RS_BP_SLOT(off);
	tmp = *ctr;
	RCULIST__RS_BARRIER();
	*ctr = tmp - 1;
	RCULIST__RS_BARRIER();
	return;
fenced:
	if (RCULIST__RS_PATCH && other) {
		RCULIST__RS_PCALL(other);
		return;
	}
	gpw = RCULIST__RS_WORD_HERE(gp);
	tmp = rculist__rs_get(off);
	if ((tmp & RCULIST__RS_NEST) == 1) {
		rculist__rs_fenced_store(off, tmp - 1);
		if (RCULIST__RS_GP_WAITS(gpw))
			RCULIST__RS_PCALL(rculist__read_side_wake);
	} else {
		rculist__rs_put(off, tmp - 1);
	}
	RCULIST__RS_BARRIER();
	return;
slow:
	RCULIST__RS_COLD;
	if (RCULIST__RS_PATCH && other) {
		RCULIST__RS_PCALL(other);
		return;
	}
	RCULIST__RS_SLOW(memb, qsbr, bp, fenced,
			 RCULIST__RS_PCALL(rculist_read_unlock));
	return;
qsbr_hook:
	RCULIST__RS_COLD;
	qsbr_unlock(off, RCULIST__RS_WORD_HERE(gp), RCULIST__RS_CXX_ANY);
	return;
#if RCULIST__RS_PATCH /* C++'s site's labels */
outer:
	qsbr_unlock(off, RCULIST__RS_WORD_HERE(gp), RCULIST__RS_CXX_OUTER);
	return;
nested:
	RCULIST__RS_COLD;
	qsbr_unlock(off, 0, RCULIST__RS_CXX_NESTED);
done:;
#endif
}

static inline __attribute__((always_inline)) void
rculist__read_unlock_wrap(void) RCULIST_RELEASES_RCU RCULIST_NO_RCU_ANALYSIS
{
	rculist__rs_read_unlock(0, 0);
}

/*
 * liburcu's qsbr fast path: nothing to announce while the thread's
 * reader counter (liburcu's, at the description's offset: 0 offline or
 * unregistered) equals the grace-period counter (relaxed load: the
 * library's call does the ordering when it stores).  Only qsbr has
 * quiescent states: the other flavours go past (and call the library,
 * which does nothing, until it is loaded).
 *
 * On x86-64 the check is its own site (RCULIST__RS_QS_SITE()): compiled
 * as a 5-byte jmp to the slow path and room for the check, then a jne to
 * the library's call; when its module is loaded, qsbr's patch writes
 * the check in place of the jmp (the grace-period counter loaded from
 * its absolute address into %rax, compared with the reader counter at
 * its offset from %fs: liburcu's three instructions, no register held
 * across a loop), the other flavours' a jmp past the jne (one
 * instruction, as their patched sites).  Its entry in section rculist_qs
 * names the site, its slow path and its end.
 */
#if RCULIST__RS_PATCH
#define RCULIST__RS_QS_LEN 19 /* movabs moffs64, %rax; cmp %fs:disp32, %rax */
#define RCULIST__RS_QS_SITE(differs, slow)                                    \
	__asm__ goto("883:\t.byte 0xe9\n\t.long %l[" #slow "] - (883b + 5)\n" \
		     "\t.skip 14, 0xcc\n"                                     \
		     "\tjne %l[" #differs "]\n"                               \
		     "884:\n"                                                 \
		     "\t.pushsection rculist_qs, \"a?\"\n"                    \
		     "\t.balign 4\n"                                          \
		     "\t.long 883b - ., %l[" #slow "] - ., 884b - .\n"        \
		     "\t.popsection" ::                                       \
			     : "rax", "cc"                                    \
		     : differs, slow)
#endif

static inline __attribute__((always_inline)) void
rculist__quiescent_state_wrap(void) RCULIST_EXCLUDES_RCU
{
	unsigned long k;

#if RCULIST__RS_PATCH
	RCULIST__RS_QS_SITE(differs, slow);
	return;
differs:
	RCULIST__RS_COLD;
	RCULIST__RS_PCALL(rculist_quiescent_state);
	return;
slow:
	RCULIST__RS_COLD;
#endif
	k = RCULIST__RS_KIND();
	if (k == RCULIST__RS_QSBR) {
		if (rculist__rs_differs(RCULIST__RS_WORD(reader),
					*RCULIST__RS_GP()))
			RCULIST__RS_PCALL(rculist_quiescent_state);
	} else if (k != RCULIST__RS_MEMB && k != RCULIST__RS_BP &&
		   k != RCULIST__RS_FENCED) {
		RCULIST__RS_PCALL(rculist_quiescent_state);
	}
}

#define rculist_read_lock	rculist__read_lock_wrap
#define rculist_read_unlock	rculist__read_unlock_wrap
#define rculist_quiescent_state rculist__quiescent_state_wrap

#endif /* RCULIST_READ_SIDE_H */
