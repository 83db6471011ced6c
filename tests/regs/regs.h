/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/regs/regs.h - what the cases (cases.c, cases.cc) and the harness
 * (harness.c) share.
 *
 * A case runs one of the inline read side's slow paths inside a body
 * (body.h): a function that holds many values (integers, pointers,
 * doubles, vectors, an array on its stack) across it and returns which of
 * them changed.  The harness runs the cases where each path is taken and
 * reports.
 */
#ifndef REGS_H
#define REGS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The body's inputs: volatile, so that each value is read once before. */
#define REGS_NL 14 /* longs */
#define REGS_NP 4  /* pointers */
#define REGS_ND 16 /* doubles */
#define REGS_NV 2  /* vectors of 16 bytes (2 longs) */
#define REGS_NW 2  /* vectors of 32 bytes (4 doubles) */
#define REGS_NA 8  /* longs of an array on the stack */
#define REGS_NK 5  /* longs in the registers a callee preserves */
extern volatile long regs_in_l[REGS_NL];
extern void *volatile regs_in_p[REGS_NP];
extern volatile double regs_in_d[REGS_ND];

/* The bits of a body's result: value i of each kind changed. */
#define REGS_BIT_L 0
#define REGS_BIT_P (REGS_BIT_L + REGS_NL)
#define REGS_BIT_D (REGS_BIT_P + REGS_NP)
#define REGS_BIT_V (REGS_BIT_D + REGS_ND)
#define REGS_BIT_W (REGS_BIT_V + REGS_NV)
#define REGS_BIT_A (REGS_BIT_W + REGS_NW)
#define REGS_BIT_K (REGS_BIT_A + REGS_NA)
#define REGS_BITS  (REGS_BIT_K + REGS_NK)

/* What the cases give the harness (cases.c, cases.cc). */
extern const char regs_variant[]; /* "C", "C++", and what it was built with */
extern const int regs_needs_avx2;
/* Defines the two above in the cases of language lang ("C", "C++"). */
#ifndef REGS_BUILD
#define REGS_BUILD "?"
#endif
#ifdef __AVX2__
#define REGS_AVX2 1
#else
#define REGS_AVX2 0
#endif
#define REGS_CASES(lang)                                  \
	const char regs_variant[] = lang ", " REGS_BUILD; \
	const int regs_needs_avx2 = REGS_AVX2
/* How many times the threads' cases run. */
#define REGS_ROUNDS 3
void regs_cases_preinit(void); /* before any constructor (kind CALL, checked) */
void regs_cases_ctor(void);    /* before the program's sites are patched */
void regs_cases_main(void);    /* the threads' cases */

/* What the harness gives the program (main.c): its start and its main(). */
void regs_preinit(void);
int regs_main(void);

/* What the harness gives the cases (harness.c). */
/* when: where the path was taken; op: what took it. */
void regs_check(const char *when, const char *op, unsigned long long bad);
void regs_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
unsigned long regs_kind(void);
int regs_flavor_is(const char *name);
/* Whether the program's own constructors ran (its sites are patched). */
extern int regs_ctors_done;
/*
 * Runs fn in a new thread and waits for it (bounded: a thread that does
 * not end within the harness's limit fails the run).
 */
void regs_in_thread(const char *what, void (*fn)(void));
/*
 * Runs fn in new threads until one woke a grace period (in
 * regs_check_waking()), a few times at most; fails the run if none did.
 */
void regs_until_woken(const char *what, void (*fn)(void));
/*
 * While the caller holds up a grace period (a section open, or a qsbr
 * thread online): starts one in another thread (rculist_synchronize_rcu()),
 * waits until it sleeps on the futex (fails the run if it never does),
 * runs body (regs_check(when, op, body())), notes whether body woke it
 * (a futex wake through syscall(), the canary's count) and waits for it
 * to return.
 */
void regs_check_waking(const char *when, const char *op,
		       unsigned long long (*body)(void));

#ifdef __cplusplus
}
#endif
#endif /* REGS_H */
