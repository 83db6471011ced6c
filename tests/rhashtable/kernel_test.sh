#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/rhashtable/kernel_test.sh - the Linux kernel's own rhashtable test
# (lib/test_rhashtable.c) run against the installed rculist, every flavour.
#
#   tests/rhashtable/kernel_test.sh KERNEL [FLAVOUR...]
#
# KERNEL is a kernel source tree or its lib/test_rhashtable.c.  Nothing of
# the kernel is in rculist (the test is GPL-2.0): this script maps it
# mechanically in a scratch directory (mktemp, or $KTEST_DIR) and never
# writes into the source tree:
#   - rhashtable names to cds_ (rhash_head, rhashtable*, rhltable*,
#     rhlist_head, bucket_table, rht_*, rhl_*), IS_ERR/PTR_ERR/ERR_PTR to
#     CDS_, the kernel's #includes to one shim header written here;
#   - test_walk_enter_from() (rhashtable_walk_enter_from(), after v6.12,
#     not in rculist) is cut out with its call, when the file has it.
# The shim (below, ours) maps kthreads to pthreads registered with
# rculist, pr_*/printk/WARN to stdio (a warning or error counts as a
# failure), rcu_read_lock() and cond_resched() to rculist's read side and
# quiescent state, wait queues to polling offline.  rculist is built and
# installed (make install) into $work/prefix and found with pkg-config,
# as a user's program finds it.  Prints each flavour's last line
# ("<flavour>: returned R, F failures") and exits non-zero if any
# flavour failed.  KTEST_CC (default cc), KTEST_KEEP=1 keeps $work.
# KTEST_SLOW_REHASH_US=N: every rehash sleeps N us each 256 buckets it
# moves (rculist__rht_set_rehash_hook(), from the shim), so that the
# test's walks start while the rehash thread is still moving objects.
set -eu

if [ $# -lt 1 ]; then
	echo "usage: $0 KERNEL-TREE|test_rhashtable.c [flavour...]" >&2
	exit 2
fi
src=$1
shift
[ -d "$src" ] && src=$src/lib/test_rhashtable.c
[ -f "$src" ] || { echo "$0: no $src" >&2; exit 2; }
flavours=${*:-memb qsbr bp mb}
top=$(cd "$(dirname "$0")/../.." && pwd)
work=${KTEST_DIR:-$(mktemp -d /tmp/rculist-ktest.XXXXXX)}
cc=${KTEST_CC:-cc}
mkdir -p "$work"
[ "${KTEST_KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

echo "== kernel_test: $src, mapped in $work"
[ -n "${KTEST_SLOW_REHASH_US:-}" ] &&
	echo "   a rehash sleeps $KTEST_SLOW_REHASH_US us every 256 buckets (KTEST_SLOW_REHASH_US)"
make -C "$top" --no-print-directory install PREFIX="$work/prefix" \
	GEN_B="$work/gen" >"$work/install.log" 2>&1 ||
	{ tail -20 "$work/install.log" >&2; exit 1; }

# The mapping: names, error pointers, includes; nothing else is touched.
sed -E \
	-e '1i #include "shim.h"' \
	-e '/^#include </d' \
	-e 's/\b(rhashtable|rhltable|rhash_head|rhlist_head|bucket_table|rht_|rhl_)/cds_\1/g' \
	-e 's/\b(IS_ERR|PTR_ERR|ERR_PTR|IS_ERR_OR_NULL)\(/CDS_\1(/g' \
	"$src" >"$work/mapped.c"
if grep -q 'walk_enter_from' "$work/mapped.c"; then
	echo "   test_walk_enter_from() cut out (rhashtable_walk_enter_from() is after v6.12)"
	sed -i -E \
		-e '/^static int __init test_walk_enter_from\(void\)$/,/^}$/d' \
		-e '/pr_info\("Testing walk_enter_from/,/;$/d' \
		"$work/mapped.c"
fi

cat >"$work/shim.h" <<'EOF'
/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rculist's shim for the kernel's test_rhashtable.c (written by kernel_test.sh) */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rculist.h>

typedef uint32_t u32;
typedef int64_t s64;
typedef uint64_t u64;
static int kfail;
#define __init
#define __exit
#define module_param(a, b, c)
#define MODULE_PARM_DESC(a, b)
#define MODULE_LICENSE(a)
#define MODULE_DESCRIPTION(a)
#define KERN_ERR ""
#define printk(...) printf(__VA_ARGS__)
#define pr_info(...) printf(__VA_ARGS__)
#define pr_warn(...) (kfail++, printf("WARN: " __VA_ARGS__))
#define pr_err(...) (kfail++, printf("ERR: " __VA_ARGS__))
#define WARN(c, ...) ({ int c_ = !!(c); if (c_) { kfail++; printf("WARN: " __VA_ARGS__); printf("\n"); } c_; })
#define WARN_ON(c) WARN(c, "%s", #c)
#define BUG_ON(c) do { if (c) { printf("BUG: %s\n", #c); abort(); } } while (0)
#define min(a, b) ((a) < (b) ? (a) : (b))
#define container_of(p, t, m) ((t *)((char *)(p) - offsetof(t, m)))
#define array_size(a, b) ((size_t)(a) * (size_t)(b))
#define array3_size(a, b, c) ((size_t)(a) * (size_t)(b) * (size_t)(c))
#define vzalloc(n) calloc(1, (n))
#define vfree free
#define kmalloc(n, f) malloc(n)
#define kmalloc_obj(x) malloc(sizeof(x))
#define kfree free
#define GFP_KERNEL 0
#define BITS_TO_LONGS(n) (((n) + 63) / 64)
static inline void set_bit(unsigned i, unsigned long *m) { m[i / 64] |= 1UL << (i % 64); }
static inline void clear_bit(unsigned i, unsigned long *m) { m[i / 64] &= ~(1UL << (i % 64)); }
static inline int test_bit(unsigned i, const unsigned long *m) { return !!(m[i / 64] & (1UL << (i % 64))); }
static inline int test_and_set_bit(unsigned i, unsigned long *m) { int o = test_bit(i, m); set_bit(i, m); return o; }
static __thread uint64_t krnd = 88172645463325252ULL;
static inline u32 get_random_u32(void) { krnd ^= krnd << 13; krnd ^= krnd >> 7; krnd ^= krnd << 17; return (u32)krnd; }
static inline u32 get_random_u32_below(u32 n) { return (u32)(((u64)get_random_u32() * n) >> 32); }
#define prandom_u32 get_random_u32
#define prandom_u32_max get_random_u32_below
/* A kernel thread that may sleep here announces a quiescent state (qsbr). */
#define cond_resched() rculist_quiescent_state()
#define cond_resched_rcu() do { } while (0)
#define rcu_read_lock() rculist_read_lock()
#define rcu_read_unlock() rculist_read_unlock()
static inline s64 ktime_get_ns(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (s64)t.tv_sec * 1000000000 + t.tv_nsec; }
static inline unsigned long roundup_pow_of_two(unsigned long n) { unsigned long s = 1; while (s < n) s <<= 1; return s; }
#define do_div(a, b) ((a) /= (b))
#define mutex_lock pthread_mutex_lock
#define mutex_unlock pthread_mutex_unlock
static inline u32 jhash(const void *k, u32 len, u32 seed) { return rculist__rht_hash(k, len, seed); }
typedef int atomic_t;
#define atomic_read(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define atomic_set(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
#define atomic_dec(p) __atomic_sub_fetch((p), 1, __ATOMIC_SEQ_CST)
#define atomic_dec_and_test(p) (__atomic_sub_fetch((p), 1, __ATOMIC_SEQ_CST) == 0)
/* Wait queues: polling, offline (qsbr) while waiting. */
struct wait_queue_head { int unused; };
#define DECLARE_WAIT_QUEUE_HEAD(n) struct wait_queue_head n
#define wake_up(w) ((void)(w))
#define wake_up_all(w) ((void)(w))
#define wait_event_interruptible(w, cond) ({ rculist_thread_offline(); while (!(cond)) usleep(100); rculist_thread_online(); 0; })
/* kthreads: pthreads registered with rculist. */
struct task_struct { pthread_t t; int (*fn)(void *); void *data; int stop, ret; };
static __thread struct task_struct *current_task;
static void *kthread_main(void *a)
{
	struct task_struct *k = a;

	current_task = k;
	rculist_register_thread();
	k->ret = k->fn(k->data);
	rculist_unregister_thread();
	return NULL;
}
static inline struct task_struct *kthread_run(int (*fn)(void *), void *data, const char *fmt, ...)
{
	struct task_struct *k = calloc(1, sizeof(*k));

	(void)fmt;
	if (!k)
		return CDS_ERR_PTR(-12);
	k->fn = fn;
	k->data = data;
	if (pthread_create(&k->t, NULL, kthread_main, k)) {
		free(k);
		return CDS_ERR_PTR(-11);
	}
	return k;
}
static inline int kthread_should_stop(void) { return __atomic_load_n(&current_task->stop, __ATOMIC_ACQUIRE); }
static inline int kthread_stop(struct task_struct *k)
{
	int r;

	__atomic_store_n(&k->stop, 1, __ATOMIC_RELEASE);
	rculist_thread_offline();
	pthread_join(k->t, NULL);
	rculist_thread_online();
	r = k->ret;
	free(k);
	return r;
}
#define TASK_INTERRUPTIBLE 1
#define set_current_state(s) ((void)(s))
#define schedule() do { rculist_thread_offline(); usleep(1000); rculist_thread_online(); } while (0)
#define module_init(f) \
	int main(void) \
	{ \
		int r; \
		rculist_register_thread(); \
		r = f(); \
		rculist_unregister_thread(); \
		printf("%s: returned %d, %d failures\n", rculist_flavor_name(), r, kfail); \
		return r || kfail; \
	}
#define module_exit(f)
/* KTEST_SLOW_REHASH_US=N: a rehash sleeps N us every 256 buckets it moves. */
static unsigned int ktest_slow_us;
static void ktest_slow(unsigned int slot, unsigned int size)
{
	if ((slot & 255) == 255 || slot + 1 == size)
		usleep(ktest_slow_us);
}
__attribute__((constructor)) static void ktest_slow_init(void)
{
	const char *s = getenv("KTEST_SLOW_REHASH_US");

	if (s && (ktest_slow_us = (unsigned int)atoi(s)))
		rculist__rht_set_rehash_hook(ktest_slow);
}
EOF

pc="$work/prefix/lib/pkgconfig"
bad=0
for f in $flavours; do
	PKG_CONFIG_PATH=$pc $cc -O2 -g -w -I"$work" "$work/mapped.c" \
		-o "$work/test-$f" $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs rculist-$f) \
		-Wl,-rpath,"$work/prefix/lib" -lpthread
	st=0
	timeout 600 "$work/test-$f" >"$work/out-$f.txt" 2>&1 || st=$?
	jumps=$(grep -c 'Info: encountered resize' "$work/out-$f.txt" || true)
	echo "   $(tail -1 "$work/out-$f.txt") (status $st; walks met $jumps resizes)"
	if [ $st != 0 ]; then
		bad=1
		grep -E -B1 '^(WARN|ERR|BUG)' "$work/out-$f.txt" | head -10 | sed 's/^/     /'
		# The kernel's walker rewinds on -EAGAIN: a walk that met a
		# resize counts again what it had seen before (kernel too).
		n=$(awk '/Total count mismatch/ { if (j) n++ }
			/Traversal complete/ { j = $0 ~ /table-jumps=0$/ ? 0 : 1 }
			END { print n + 0 }' "$work/out-$f.txt")
		echo "     ($n of the failures: a count mismatch of a walk that met a resize)"
	fi
done
[ $bad = 0 ] && echo "== kernel_test: passed under $flavours"
exit $bad
