// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench/cxx_rcu.cc - what <rculist/rcu.hpp> costs beside the C API it
 * wraps, one thread, no other reader.
 *
 *   cxx_rcu instr CALLS OP   run OP CALLS times (for callgrind's
 *                            --toggle-collect=bench_<OP>)
 *
 *   cxx_rcu [CALLS [ROUNDS]] timed, ROUNDS rounds (5): one line per op,
 *                            then one per C++ op over its C one
 *
 *   cxx flavor=<f> op=<op> ns=<median of the rounds' ns per call> calls=<n>
 *   cxx-ratio flavor=<f> op=<op> over=<op> x=<median> min=.. max=.. rounds=<n>
 *
 * op: c_section (rculist_read_lock(); rculist_read_unlock();) and
 * cxx_section (std::scoped_lock lk(rculist::rcu_default_domain());) in
 * the main thread, which the C API registered (rculist_register_thread():
 * under qsbr online, the state in which rculist_read_lock() is legal, so
 * that C++ keeps the thread's own scheme); cxx_own_section, the same
 * region in a thread only the C++ interface registered (qsbr: online and
 * offline around each region, what a thread needing no quiescent states
 * pays; the other flavours: as cxx_section), free_rcu (rculist_free_rcu() of a malloc()ed 64-byte object),
 * obj_retire (rcu_obj_base::retire() of a new 64-byte object, deleted by
 * std::default_delete), rcu_retire (rculist::rcu_retire() of the same,
 * which allocates its node).  A reclamation op's time is the calls and
 * the rcu_barrier() that runs every free, divided by the calls, and
 * includes the allocation of the object (malloc or new, the same
 * allocator).  Wall-clock: on a shared machine, trust
 * make bench-cxx-rcu-instructions (callgrind) more.
 *
 *   cxx flavor=<f> op=<op> instructions=<per call> calls=<n>
 *
 * is what make bench-cxx-rcu-instructions prints from callgrind's
 * counts of each bench_<op>() function.
 */
#include <rculist/rcu.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <chrono>
#include <thread>

namespace {
struct cobj {
	char payload[48];
	struct rcu_head rcu;
};
struct xobj : rculist::rcu_obj_base<xobj> {
	char payload[48];
};
static_assert(sizeof(cobj) == sizeof(xobj), "the same size in both APIs");
} // namespace

/* One function per op, so that callgrind can count it alone. */
extern "C" {
[[gnu::noinline]] void bench_c_section(long n)
{
	for (long i = 0; i < n; i++) {
		rculist_read_lock();
		__asm__ __volatile__("" ::: "memory");
		rculist_read_unlock();
	}
}

[[gnu::noinline]] void bench_cxx_section(long n)
{
	for (long i = 0; i < n; i++) {
		std::scoped_lock lk(rculist::rcu_default_domain());
		__asm__ __volatile__("" ::: "memory");
	}
}

/* Run in a thread of its own: see run_op(). */
[[gnu::noinline]] void bench_cxx_own_section(long n)
{
	for (long i = 0; i < n; i++) {
		std::scoped_lock lk(rculist::rcu_default_domain());
		__asm__ __volatile__("" ::: "memory");
	}
}

[[gnu::noinline]] void bench_free_rcu(long n)
{
	for (long i = 0; i < n; i++) {
		cobj *p = static_cast<cobj *>(std::malloc(sizeof(cobj)));
		if (!p)
			std::abort();
		rculist_free_rcu(p, rcu);
	}
}

[[gnu::noinline]] void bench_obj_retire(long n)
{
	for (long i = 0; i < n; i++)
		(new xobj)->retire();
}

[[gnu::noinline]] void bench_rcu_retire(long n)
{
	for (long i = 0; i < n; i++)
		rculist::rcu_retire(new cobj);
}
}

namespace {
struct op {
	const char *name;
	void (*run)(long);
	bool reclaims;
	bool own_thread; /* in a thread only the C++ interface registers */
};
const op ops[] = {
	{ "c_section", bench_c_section, false, false },
	{ "cxx_section", bench_cxx_section, false, false },
	{ "cxx_own_section", bench_cxx_own_section, false, true },
	{ "free_rcu", bench_free_rcu, true, false },
	{ "obj_retire", bench_obj_retire, true, false },
	{ "rcu_retire", bench_rcu_retire, true, false },
};

/*
 * Rounds (argv[2]): the ns printed per op is the median of the rounds',
 * and each cxx-ratio line the median of the rounds' own ratios (two ops
 * measured a second apart, under the same load), then the lowest and
 * the highest round's.
 */
constexpr int ROUNDS = 5, MAX_ROUNDS = 15;

const struct {
	int a, b; /* ops[a] over ops[b] */
} ratios[] = { { 1, 0 }, { 2, 0 }, { 4, 3 }, { 5, 3 } };

/* Sorts v. */
double median(double *v, int n)
{
	std::sort(v, v + n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * o.run(warm) then o.run(n): in this thread, or in a new one whose first
 * region (in the warm-up, not timed) registers it; the time of the
 * second run in ns.
 */
double run_op(const op &o, long warm, long n)
{
	double ns = 0;
	auto body = [&] {
		o.run(warm);
		if (o.reclaims)
			rculist::rcu_barrier();
		auto t0 = std::chrono::steady_clock::now();
		o.run(n);
		if (o.reclaims)
			rculist::rcu_barrier();
		ns = std::chrono::duration<double, std::nano>(
			     std::chrono::steady_clock::now() - t0)
			     .count();
	};
	if (o.own_thread)
		std::thread(body).join();
	else
		body();
	return ns;
}
} // namespace

int main(int argc, char **argv)
{
	/*
	 * The main thread is the C API's (registered, under qsbr online);
	 * its first regions are not part of any count.
	 */
	rculist_register_thread();
	bench_cxx_section(1);
	bench_c_section(1);
	if (argc == 4 && std::strcmp(argv[1], "instr") == 0) {
		for (const op &o : ops)
			if (std::strcmp(argv[3], o.name) == 0) {
				run_op(o, 1, std::atol(argv[2]));
				return 0;
			}
		std::fprintf(stderr, "cxx_rcu: no op %s\n", argv[3]);
		return 2;
	}
	long calls = argc > 1 ? std::atol(argv[1]) : 1000000;
	int rounds = argc > 2 ? std::atoi(argv[2]) : ROUNDS;
	if (rounds < 1 || rounds > MAX_ROUNDS)
		rounds = ROUNDS;
	constexpr int nops = sizeof(ops) / sizeof(ops[0]);
	static double ns[nops][MAX_ROUNDS];
	for (int r = 0; r < rounds; r++) {
		/* Every op once a round, the order turned each round. */
		for (int k = 0; k < nops; k++) {
			int i = (k + r) % nops;
			/*
			 * Reclamation: 4x CALLS objects, so that the final
			 * barrier (one or more of liburcu's 10 ms call_rcu
			 * naps) weighs a few ns per object, not tens (with
			 * CALLS / 4 the rows were multiples of 40 ns: naps,
			 * not the calls).
			 */
			long n = ops[i].reclaims ? calls * 4 : calls * 10;

			ns[i][r] = run_op(ops[i], n / 10, n) / n;
		}
	}
	for (int i = 0; i < nops; i++) {
		long n = ops[i].reclaims ? calls * 4 : calls * 10;
		double v[MAX_ROUNDS];

		std::copy(ns[i], ns[i] + rounds, v);
		std::printf("cxx flavor=%s op=%s ns=%.2f calls=%ld\n",
			    rculist_flavor_name(), ops[i].name,
			    median(v, rounds), n);
	}
	/* Each C++ op over its C counterpart: the rounds' own ratios. */
	for (const auto &x : ratios) {
		double v[MAX_ROUNDS];

		for (int r = 0; r < rounds; r++)
			v[r] = ns[x.b][r] > 0 ? ns[x.a][r] / ns[x.b][r] : 0;
		double med = median(v, rounds);
		std::printf("cxx-ratio flavor=%s op=%s over=%s x=%.2f min=%.2f "
			    "max=%.2f rounds=%d\n",
			    rculist_flavor_name(), ops[x.a].name, ops[x.b].name,
			    med, v[0], v[rounds - 1], rounds);
	}
	return 0;
}
