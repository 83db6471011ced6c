/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/regs/body.h - a body: included once per slow path, with
 * REGS_BODY the function's name and REGS_OP the statement that takes the
 * path.
 *
 * The function reads its inputs (volatile) once, keeps REGS_BITS values
 * derived from them (more than the registers hold: some live on its
 * stack, below the stack pointer where it calls nothing), runs REGS_OP,
 * then reads the inputs again and compares: bit i of its result says that
 * value i changed (regs.h).  It calls nothing but what REGS_OP calls, so
 * that a read side which hides its calls leaves it a leaf function.
 */
#ifndef REGS_BODY_H /* once: the values, their checks */
#define REGS_BODY_H
typedef long regs_v2 __attribute__((vector_size(16)));
typedef double regs_v4 __attribute__((vector_size(32)));
#ifdef __cplusplus
#define REGS_VEC(type, ...) (type{ __VA_ARGS__ })
#else
#define REGS_VEC(type, ...) ((type){ __VA_ARGS__ })
#endif

/* clang-format off */
#define REGS_EACH_L(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13)
#define REGS_EACH_P(X) X(0) X(1) X(2) X(3)
#define REGS_EACH_D(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) \
	X(14) X(15)
/* clang-format on */
#define REGS_EACH_V(X) X(0) X(1)

/* Each value from its input by one operation (no contraction to differ). */
#define REGS_L(i) (regs_in_l[i] * (2 * (i) + 3))
#define REGS_P(i) ((char *)regs_in_p[i] + 8 * (i) + 8)
#define REGS_D(i) (regs_in_d[i] * (1.25 + (i)))
#define REGS_V(i) \
	(REGS_VEC(regs_v2, regs_in_l[i], regs_in_l[(i) + 7]) * (i + 5))
#define REGS_W(i)                                            \
	(REGS_VEC(regs_v4, regs_in_d[i], regs_in_d[(i) + 4], \
		  regs_in_d[(i) + 8], regs_in_d[(i) + 12]) + \
	 0.5)
#define REGS_A(i) (regs_in_l[(i) % REGS_NL] ^ (0x5a5a5a5aL + (i)))
#define REGS_K(i) (regs_in_l[(i) + 3] + 0x1000 * ((i) + 1))

/*
 * Values asked for in the registers a callee must preserve (x86-64: rbx,
 * r12-r15; rbp may be the frame pointer): where the read side calls the
 * library as a function, the compiler keeps its other values in
 * registers a callee may change, saved around the call on its rare path,
 * and would leave these registers untested.  Named at an empty asm before
 * and after the path, so that the compiler has each in its register
 * there.
 */
#if defined(__x86_64__)
#define REGS_EACH_K(X) \
	X(0, "rbx") X(1, "r12") X(2, "r13") X(3, "r14") X(4, "r15")
#else
#define REGS_EACH_K(X)
#endif
#define REGS_DECL_K(i, reg) register long k##i __asm__(reg) = REGS_K(i);
#define REGS_HOLD_K(i, reg) __asm__ __volatile__("" : "+r"(k##i));
#define REGS_TEST_K(i, reg) \
	bad |= (unsigned long long)(k##i != REGS_K(i)) << (REGS_BIT_K + (i));

#define REGS_DECL_L(i) long l##i = REGS_L(i);
#define REGS_DECL_P(i) char *p##i = REGS_P(i);
#define REGS_DECL_D(i) double d##i = REGS_D(i);
#define REGS_DECL_V(i)            \
	regs_v2 v##i = REGS_V(i); \
	regs_v4 w##i = REGS_W(i);
#define REGS_TEST_L(i) \
	bad |= (unsigned long long)(l##i != REGS_L(i)) << (REGS_BIT_L + (i));
#define REGS_TEST_P(i) \
	bad |= (unsigned long long)(p##i != REGS_P(i)) << (REGS_BIT_P + (i));
#define REGS_TEST_D(i) \
	bad |= (unsigned long long)(d##i != REGS_D(i)) << (REGS_BIT_D + (i));
#define REGS_TEST_V(i)                                           \
	{                                                        \
		regs_v2 e_ = REGS_V(i);                          \
		regs_v4 f_ = REGS_W(i);                          \
		bad |= (unsigned long long)((v##i[0] != e_[0]) | \
					    (v##i[1] != e_[1]))  \
		       << (REGS_BIT_V + (i));                    \
		bad |= (unsigned long long)((w##i[0] != f_[0]) | \
					    (w##i[1] != f_[1]) | \
					    (w##i[2] != f_[2]) | \
					    (w##i[3] != f_[3]))  \
		       << (REGS_BIT_W + (i));                    \
	}

#endif

__attribute__((noinline)) static unsigned long long REGS_BODY(void)
{
	REGS_EACH_L(REGS_DECL_L)
	REGS_EACH_P(REGS_DECL_P)
	REGS_EACH_D(REGS_DECL_D)
	REGS_EACH_V(REGS_DECL_V)
	REGS_EACH_K(REGS_DECL_K)
	unsigned long long bad = 0;
	long a[REGS_NA];
	int i;

	for (i = 0; i < REGS_NA; i++)
		a[i] = REGS_A(i);
	/* The array stays in memory, on this function's stack. */
	__asm__ __volatile__("" ::"r"(a) : "memory");

	REGS_EACH_K(REGS_HOLD_K)
	REGS_OP;
	REGS_EACH_K(REGS_HOLD_K)

	REGS_EACH_L(REGS_TEST_L)
	REGS_EACH_P(REGS_TEST_P)
	REGS_EACH_D(REGS_TEST_D)
	REGS_EACH_V(REGS_TEST_V)
	REGS_EACH_K(REGS_TEST_K)
	for (i = 0; i < REGS_NA; i++)
		bad |= (unsigned long long)(a[i] != REGS_A(i))
		       << (REGS_BIT_A + i);
	return bad;
}

#undef REGS_BODY
#undef REGS_OP
