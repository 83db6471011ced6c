// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core/preserve.c - the call the inline read side makes on its rare paths.
 *
 * On x86-64 the read side's slow paths (a site run before its module is
 * patched, bp's first section, memb's unlock waking a waiting grace
 * period, qsbr's quiescent state that calls the library, C++'s hooks)
 * call the library from inline assembly (RCULIST__RS_PCALL() in
 * <rculist/read_side.h>), so that the compiler sees the function holding
 * the section as one that calls nothing: no stack frame, no register
 * saved, no value moved to a callee-saved register for the call's sake.
 * What a call costs is paid here, on the rare path, instead of on every
 * section.
 *
 * The site steps past the caller's red zone (the 128 bytes below its
 * stack pointer a function that calls nothing may use), puts the function
 * to call in %rax and its arguments, if any, where the ABI has them, and
 * calls rculist__rs_preserve_v1 through the GOT.  This keeps every
 * general register (the arguments and %rax included) and the stack as
 * they were, aligns the stack for the callee and calls it.  The vector
 * and x87 registers are the site's clobbers.  Its unwind information
 * gives the caller's stack pointer as it was before the site stepped
 * past the red zone, so that a debugger or a profiler walking the stack
 * from inside the call sees the caller's frame whole.  Call and return
 * are paired (shadow stacks), and the entry is a branch target (IBT).
 */
#include "internal.h"

#if defined(__x86_64__)
__asm__("\t.text\n"
	"\t.globl rculist__rs_preserve_v1\n"
	"\t.type rculist__rs_preserve_v1, @function\n"
	"\t.p2align 4\n"
	"rculist__rs_preserve_v1:\n"
	"\t.cfi_startproc\n"
	/* The caller's %rsp: the return address and the red zone above. */
	"\t.cfi_def_cfa_offset 136\n"
	"\t.cfi_offset %rip, -136\n"
	"\tendbr64\n"
	"\tpushq %rbp\n"
	"\t.cfi_adjust_cfa_offset 8\n"
	"\t.cfi_offset %rbp, -144\n"
	"\tmovq %rsp, %rbp\n"
	"\t.cfi_def_cfa_register %rbp\n"
	"\tpushq %rax\n"
	"\tpushq %rcx\n"
	"\tpushq %rdx\n"
	"\tpushq %rsi\n"
	"\tpushq %rdi\n"
	"\tpushq %r8\n"
	"\tpushq %r9\n"
	"\tpushq %r10\n"
	"\tpushq %r11\n"
	"\tandq $-16, %rsp\n"
	"\tcall *%rax\n"
	"\tleaq -72(%rbp), %rsp\n"
	"\tpopq %r11\n"
	"\tpopq %r10\n"
	"\tpopq %r9\n"
	"\tpopq %r8\n"
	"\tpopq %rdi\n"
	"\tpopq %rsi\n"
	"\tpopq %rdx\n"
	"\tpopq %rcx\n"
	"\tpopq %rax\n"
	"\tpopq %rbp\n"
	"\t.cfi_def_cfa %rsp, 136\n"
	"\t.cfi_restore %rbp\n"
	"\tret\n"
	"\t.cfi_endproc\n"
	"\t.size rculist__rs_preserve_v1, . - rculist__rs_preserve_v1\n");
#endif
