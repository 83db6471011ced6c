// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/hash32/hash32.c - the hashes of <rculist/hashtable.h> where long
 * has 32 bits, whose cds_hash_64() is the kernel's 32-bit one: the low
 * half xor the high half times CDS_GOLDEN_RATIO_32, through cds_hash_32().
 * No 32-bit C library is installed here, so the file is only compiled
 * (clang, i386, freestanding, -O2): every comparison folds, and a wrong
 * value leaves a trap in the code, which hash32.mk looks for.  The
 * values were worked out with python3 (see tests/unit/hashtable.c).
 */
#include <rculist/hashtable.h>

#ifndef WRONG
#define WRONG 0
#endif

#define EXPECT(got, want)                 \
	do {                              \
		if ((got) != (want))      \
			__builtin_trap(); \
	} while (0)

void hash32_check(void);
void hash32_check(void)
{
	EXPECT(sizeof(long), 4);
	EXPECT(cds_hash_64(1, 32), 0x61c88647u);
	EXPECT(cds_hash_64(0xdeadbeef, 10), 0x1b7u);
	EXPECT(cds_hash_64(1ULL << 32, 16), 0xe35eu);
	EXPECT(cds_hash_64(1ULL << 32, 32), 0xe35e67b1u + WRONG);
	EXPECT(cds_hash_64(0x0123456789abcdefULL, 31), 0x36612979u);
	EXPECT(cds_hash_64(0xffffffffffffffffULL, 32), 0x8195e16au);
	/* hash_long is hash_32, and so is hash_min of a long key */
	EXPECT(cds_hash_long(0xdeadbeef, 10), 0x1b7u);
	EXPECT(cds_hash_min(0xdeadbeefUL, 10), 0x1b7u);
	EXPECT(cds_hash_32(0xffffffff, 32), 0x9e3779b9u);
}
