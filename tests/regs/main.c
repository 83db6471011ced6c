// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/regs/main.c - the program: the harness started from its
 * .preinit_array (run before any shared object's constructor; only an
 * executable's is run), then its main().
 */
#include "regs.h"

__attribute__((section(".preinit_array"),
	       used)) static void (*const preinit)(void) = regs_preinit;

int main(void)
{
	return regs_main();
}
