// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/exit/exit.cc - exit.c's check through <rculist/rcu.hpp> alone (no
 * registration; the one C call, rculist_flavor_name(), names the flavour
 * in the line it prints): the main thread reads a shared value
 * in a std::scoped_lock region (its first region registers it), replaces
 * it REPLACES times, retiring each old one with rcu_retire() (so that
 * liburcu's call_rcu thread runs with batches queued), reads again,
 * prints one line, keeps working for LINGER_MS, then leaves main():
 *   return        main() returns, no other thread;
 *   exit-reading  std::exit(0) while a detached thread still reads the
 *                 value in and out of regions, checking that what it
 *                 reads was not deleted (a deleted value is poisoned).
 * Under qsbr a thread that only C++ uses is online only inside its
 * regions, so the main thread holds no grace period up here: the check
 * is that every flavour still exits promptly with deleters pending.
 */
#include <rculist/rcu.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

namespace {
constexpr int replaces = 64;
constexpr int poisoned = -1;
constexpr auto linger = std::chrono::milliseconds(20);
constexpr auto progress_bound = std::chrono::seconds(30);

struct value {
	int v;
	explicit value(int v0) : v(v0)
	{
	}
	~value()
	{
		reinterpret_cast<std::atomic<int> *>(&v)
			->store(poisoned, std::memory_order_relaxed);
	}
};

std::atomic<value *> current(new value(0));
std::atomic<unsigned long> reads(0);

[[noreturn]] void fail(const char *what)
{
	std::fprintf(stderr, "exit test, C++: %s\n", what);
	std::exit(2);
}

int read_value()
{
	std::scoped_lock region(rculist::rcu_default_domain());
	int v = current.load(std::memory_order_acquire)->v;

	if (v < 0 || v > replaces)
		fail("a reader met a deleted value");
	return v;
}

void reader()
{
	for (;;) {
		read_value();
		reads.fetch_add(1, std::memory_order_release);
	}
}
} // namespace

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	bool reading = !std::strcmp(mode, "exit-reading");

	if (!reading && std::strcmp(mode, "return")) {
		std::fprintf(stderr, "usage: %s return|exit-reading\n", argv[0]);
		return 2;
	}
	if (read_value() != 0)
		fail("the first value is not 0");
	if (reading) {
		std::thread(reader).detach();
		auto end = std::chrono::steady_clock::now() + progress_bound;
		while (!reads.load(std::memory_order_acquire)) {
			if (std::chrono::steady_clock::now() > end)
				fail("no progress: the reader made no first read");
			std::this_thread::sleep_for(std::chrono::milliseconds(1));
		}
	}
	for (int i = 1; i <= replaces; i++)
		rculist::rcu_retire(current.exchange(new value(i),
						     std::memory_order_acq_rel));
	if (read_value() != replaces)
		fail("the last value is not the last one stored");
	std::printf("%s %s: %d replaced, each old value retired\n",
		    rculist_flavor_name(), mode, replaces);
	std::fflush(stdout);
	std::this_thread::sleep_for(linger);
	if (!reading)
		return 0;
	std::exit(0);
}
