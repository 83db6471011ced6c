// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/regs/harness.c - runs the cases of cases.c or cases.cc where each
 * slow path of the inline read side is taken, and reports which value a
 * body lost.
 *
 * Its first code runs from the program's .preinit_array (main.c): before
 * any shared object's constructor, so before the flavour library has
 * filled the read side's description (kind CALL: every lock, unlock and
 * quiescent state calls the library).  Then, from a constructor of
 * priority 101, before the other constructors of the module the cases
 * are in (the one that patches its sites among them): the sites run their
 * slow paths, which test the kind.  Then main() runs the cases in
 * threads.  The cases and this harness are linked into the program, or
 * built as one shared object (-fPIC: the read side's other addressing)
 * that the program loads.
 *
 * A canary stands where the library's slow paths call out of it: this
 * program's definitions of syscall() (liburcu's futex wake) and
 * pthread_mutex_lock() (its registry), found before the C library's.
 * Each checks that the stack pointer it was called with is aligned to 16
 * bytes, as the ABI requires of every call, and writes garbage into every
 * register a callee may change (x86-64: rax, rcx, rdx, rsi, rdi, r8-r11,
 * xmm0-15 and, with AVX, the upper halves of ymm0-15), then calls the C
 * library's: a read side that hides its calls from the compiler must save
 * all of them.  The futex wakes it sees are counted per thread, so that a
 * case knows that its unlock woke a grace period.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>

#include "regs.h"

/* Bounds on every wait, in seconds: a wait that exceeds one fails the run. */
#define REGS_LIMIT 20

volatile long regs_in_l[REGS_NL] = { 101, -7, 3,  65537, 9,  11, -13,
				     17,  19, 23, -29,	 31, 37, 41 };
static char regs_target[64];
void *volatile regs_in_p[REGS_NP] = { regs_target, regs_target + 8,
				      regs_target + 16, regs_target + 24 };
volatile double regs_in_d[REGS_ND] = { 0.5,   1.5,   -2.25, 3.125, 4.0,	 5.5,
				       6.75,  -7.0,  8.25,  9.5,   10.0, 11.5,
				       12.75, -13.0, 14.5,  15.25 };

static int failures, cases;
/* Calls out of the library the canary saw with the stack misaligned. */
int regs_misaligned __attribute__((visibility("hidden")));
static int skip; /* AVX2 code, a CPU without it */
int regs_ctors_done;

static const char *const kinds[] = { "long",
				     "pointer",
				     "double",
				     "vector(16)",
				     "vector(32)",
				     "stack array",
				     "long in rbx/r12-r15" };
static const int firsts[] = { REGS_BIT_L, REGS_BIT_P, REGS_BIT_D, REGS_BIT_V,
			      REGS_BIT_W, REGS_BIT_A, REGS_BIT_K, REGS_BITS };

void regs_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "check-regs: %s, %s: ", rculist_flavor_name(),
		regs_variant);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
}

void regs_check(const char *when, const char *op, unsigned long long bad)
{
	static int misaligned_seen;
	char names[512] = "";
	size_t n = 0;
	int b, k, m;

	__atomic_add_fetch(&cases, 1, __ATOMIC_RELAXED);
	m = __atomic_load_n(&regs_misaligned, __ATOMIC_RELAXED);
	if (m != misaligned_seen) {
		regs_fail("%s: %s: a call out of the library (since the previous case) had the "
			  "stack misaligned",
			  when, op);
		misaligned_seen = m;
	}
	if (!bad)
		return;
	for (b = 0; b < REGS_BITS && n < sizeof(names) - 40; b++) {
		if (!(bad >> b & 1))
			continue;
		for (k = 0; b >= firsts[k + 1]; k++)
			;
		n += (size_t)snprintf(names + n, sizeof(names) - n, " %s %d",
				      kinds[k], b - firsts[k]);
	}
	regs_fail("%s: values changed across %s:%s", when, op, names);
}

unsigned long regs_kind(void)
{
	return __atomic_load_n(&rculist__read_side_v2.kind, __ATOMIC_ACQUIRE);
}

int regs_flavor_is(const char *name)
{
	return !strcmp(rculist_flavor_name(), name);
}

/* The time limit of a wait that starts now. */
static struct timespec deadline(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += REGS_LIMIT;
	return t;
}

static int past(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return now.tv_sec > t->tv_sec ||
	       (now.tv_sec == t->tv_sec && now.tv_nsec > t->tv_nsec);
}

static void *run_fn(void *fn)
{
	void (*f)(void);

	memcpy(&f, &fn, sizeof(f));
	f();
	return NULL;
}

static void join(pthread_t t, const char *what)
{
	struct timespec end = deadline();
	int err = pthread_timedjoin_np(t, NULL, &end);

	if (err) {
		regs_fail("%s: no progress: the thread did not end within %d s (%s)",
			  what, REGS_LIMIT, strerror(err));
		exit(1);
	}
}

void regs_in_thread(const char *what, void (*fn)(void))
{
	pthread_t t;
	void *arg;
	int err;

	memcpy(&arg, &fn, sizeof(arg));
	err = pthread_create(&t, NULL, run_fn, arg);
	if (err) {
		regs_fail("%s: pthread_create: %s", what, strerror(err));
		return;
	}
	join(t, what);
}

/*
 * How many times a case that wakes a grace period may run before it
 * does: the grace period may wake by itself (a signal) and find the
 * reader gone.
 */
#define REGS_ATTEMPTS 5
static int regs_woke;

void regs_until_woken(const char *what, void (*fn)(void))
{
	int a;

	regs_woke = 0;
	for (a = 0; a < REGS_ATTEMPTS && !regs_woke; a++)
		regs_in_thread(what, fn);
	if (!regs_woke)
		regs_fail("%s: no grace period woken in %d attempts (the path was not taken)",
			  what, REGS_ATTEMPTS);
}

/* The grace period's thread, its id once it runs. */
static pthread_t gp_thread;
static pid_t gp_tid;

static void gp_run(void)
{
	__atomic_store_n(&gp_tid, gettid(), __ATOMIC_RELEASE);
	rculist_synchronize_rcu();
}

static void gp_start(void)
{
	void (*fn)(void) = gp_run;
	void *arg;
	int err;

	memcpy(&arg, &fn, sizeof(arg));
	__atomic_store_n(&gp_tid, 0, __ATOMIC_RELAXED);
	err = pthread_create(&gp_thread, NULL, run_fn, arg);
	if (err) {
		regs_fail("grace period: pthread_create: %s", strerror(err));
		exit(1);
	}
}

/*
 * Whether the grace period's thread sleeps in futex(addr, ...): its
 * system call, as /proc shows it ("202 0x<addr> ..." on x86-64).
 */
static int gp_sleeps_on(const volatile int *addr)
{
	char path[64], buf[128], want[40];
	pid_t tid = __atomic_load_n(&gp_tid, __ATOMIC_ACQUIRE);
	FILE *f;
	int n;

	if (!tid)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return 1; /* not shown here: the futex alone, and the attempts */
	n = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	snprintf(want, sizeof(want), "%d %p ", SYS_futex,
		 (const volatile void *)addr);
	return n && !strncmp(buf, want, strlen(want));
}

/*
 * liburcu's futex, after its grace-period counter, is -1 while a grace
 * period waits for readers; it is reset to 0 by the grace period itself
 * when it sees the readers gone before it sleeps, so that a reader's
 * unlock wakes it only once it sleeps on the futex.
 */
static void gp_blocked(const char *what)
{
	const volatile int *futex =
		(const volatile int *)(rculist__read_side_v2.gp + 1);
	struct timespec end = deadline();

	while (*futex != -1 || !gp_sleeps_on(futex)) {
		if (past(&end)) {
			regs_fail("%s: no progress: the grace period did not sleep on the futex "
				  "within %d s",
				  what, REGS_LIMIT);
			return;
		}
		sched_yield();
	}
}

/* The canary. */
static __thread unsigned long wakes;
int regs_have_avx __attribute__((visibility("hidden")));
static unsigned long canary_calls;

void regs_check_waking(const char *when, const char *op,
		       unsigned long long (*body)(void))
{
	unsigned long w;

	gp_start();
	gp_blocked(when);
	w = wakes;
	regs_check(when, op, body());
	regs_woke = wakes != w;
	join(gp_thread, when);
}

#if defined(__x86_64__)
/*
 * The stack pointer its caller had at the call (8 bytes above the return
 * address) checked to be a multiple of 16, then every register a callee
 * may change overwritten.
 */
void regs_clobber(void) __attribute__((visibility("hidden")));
__asm__(".text\n"
	".p2align 4\n"
	".type regs_clobber, @function\n"
	"regs_clobber:\n"
	"\tleaq 8(%rsp), %rax\n"
	"\ttestb $15, %al\n"
	"\tjz 1f\n"
	"\tlock incl regs_misaligned(%rip)\n"
	"1:\tmovabsq $0x5eedf00d5eedf00d, %rax\n"
	"\tmovq %rax, %rcx\n\tmovq %rax, %rdx\n\tmovq %rax, %rsi\n\tmovq %rax, %rdi\n"
	"\tmovq %rax, %r8\n\tmovq %rax, %r9\n\tmovq %rax, %r10\n\tmovq %rax, %r11\n"
	"\t.irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
	"\tpcmpeqd %xmm\\r, %xmm\\r\n"
	"\t.endr\n"
	"\tcmpl $0, regs_have_avx(%rip)\n"
	"\tje 2f\n"
	"\t.irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
	"\tvinsertf128 $1, %xmm\\r, %ymm\\r, %ymm\\r\n"
	"\t.endr\n"
	"2:\tret\n"
	".size regs_clobber, . - regs_clobber\n");
#else
static void regs_clobber(void)
{
}
#endif

static void canary(void)
{
	__atomic_add_fetch(&canary_calls, 1, __ATOMIC_RELAXED);
	regs_clobber();
}

static long (*real_syscall)(long nr, ...);
static int (*real_mutex_lock)(pthread_mutex_t *m);

static void find_real(void)
{
	void *s = dlsym(RTLD_NEXT, "syscall"),
	     *m = dlsym(RTLD_NEXT, "pthread_mutex_lock");

	if (!s || !m) {
		fprintf(stderr,
			"check-regs: the C library's syscall or pthread_mutex_lock not found\n");
		abort();
	}
	memcpy(&real_syscall, &s, sizeof(s));
	memcpy(&real_mutex_lock, &m, sizeof(m));
}

long syscall(long nr, ...)
{
	long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!real_syscall)
		find_real();
	if (nr == SYS_futex && (a[1] & FUTEX_CMD_MASK) == FUTEX_WAKE)
		wakes++;
	canary();
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	if (!real_mutex_lock)
		find_real();
	canary();
	return real_mutex_lock(m);
}

void regs_preinit(void)
{
	find_real();
	__builtin_cpu_init();
	regs_have_avx = !!__builtin_cpu_supports("avx");
	skip = regs_needs_avx2 && !__builtin_cpu_supports("avx2");
	if (skip)
		return;
	if (regs_kind() != RCULIST__RS_CALL)
		regs_fail("before the library's constructor the kind is %#lx, not CALL",
			  regs_kind());
	regs_cases_preinit();
}
/* Before the program's other constructors: its sites still as compiled. */
__attribute__((constructor(101))) static void before_patch(void)
{
	if (skip)
		return;
	if (regs_ctors_done)
		regs_fail("the constructor of priority 101 ran after the others");
	regs_cases_ctor();
}

__attribute__((constructor)) static void ctors(void)
{
	regs_ctors_done = 1;
}

int regs_main(void)
{
	if (skip) {
		printf("check-regs: %s, %s: skipped: this CPU has no AVX2\n",
		       rculist_flavor_name(), regs_variant);
		return 0;
	}
	regs_cases_main();
	if (regs_misaligned)
		regs_fail("the library's calls out were made %d times with the stack misaligned",
			  regs_misaligned);
	if (failures)
		return 1;
	printf("check-regs: %s, %s: %d cases kept every value (%lu calls out of the library "
	       "checked)\n",
	       rculist_flavor_name(), regs_variant, cases, canary_calls);
	return 0;
}
