// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/cxx/concurrent.cc - <rculist/rcu.hpp> linked with one flavour
 * and run (make check-cxx-rcu), threads that never register:
 *   shape      the typed updates and range-for walks, plain and _rcu,
 *              list and hlist, both directions of the list checked;
 *   shared     a list that C code (shared.c) and C++ both walk and add to;
 *   alloc      rcu_obj_base::retire() allocates nothing; rcu_retire()
 *              allocates once, and when it cannot it throws
 *              std::bad_alloc and schedules nothing;
 *   idle       qsbr: a thread idle outside its regions, never announcing
 *              a quiescent state, does not hold up rcu_synchronize();
 *   c-managed  a thread registered by the C API uses rcu_domain inside
 *              its C section;
 *   nesting    a thread only C++ registered is in a section exactly while
 *              it holds its outermost region, however deep it nests;
 *   sites      x86-64: each C++ site as the patch left it (qsbr: the
 *              comparison of the reader counter; RCULIST_JUMP=off: as
 *              compiled);
 *   c-offline  a thread the C API registered: online, its regions leave
 *              it online; offline, as a thread only C++ registered, and
 *              offline again after its regions, holding nothing up;
 *   exit       threads that locked and exited hold nothing up;
 *   readers    readers walking a list and an hlist in range-for while
 *              updaters replace elements and retire the old ones through
 *              rcu_obj_base::retire() and rcu_retire(): each deleter
 *              poisons its object and keeps it in a quarantine, and every
 *              reader checks every element it meets (and the list's
 *              order, which replacement keeps); rcu_barrier() then runs
 *              every deleter.
 * Waits are bounded: a watchdog reports the step that made no progress.
 */
#include <rculist/rcu.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include <unistd.h>

#include "shared.h"

namespace {
const char *step = "start";
#define CHECK(cond)                                                            \
	((cond) ? (void)0 :                                                    \
		  (std::fprintf(stderr, "concurrent.cc:%d [%s, %s]: %s\n",     \
				__LINE__, rculist_flavor_name(), step, #cond), \
		   std::exit(1)))

/* The watchdog: a step that outlives its alarm() made no progress. */
void on_alarm(int)
{
	static const char msg[] = "concurrent.cc: no progress in step ";
	(void)!write(2, msg, sizeof(msg) - 1);
	(void)!write(2, step, std::strlen(step));
	(void)!write(2, "\n", 1);
	_exit(1);
}
} // namespace

/* Allocation accounting: every operator new is counted; one may be refused. */
static std::atomic<long> news(0);
static std::atomic<bool> refuse_next(false);
[[gnu::noinline]] void *operator new(std::size_t n)
{
	if (refuse_next.exchange(false))
		throw std::bad_alloc();
	news++;
	if (void *p = std::malloc(n ? n : 1))
		return p;
	throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void *p) noexcept
{
	std::free(p);
}
[[gnu::noinline]] void operator delete(void *p, std::size_t) noexcept
{
	std::free(p);
}

namespace {
enum : unsigned { LIVE = 0x1157e, DEAD = 0xdead };
struct route;

/*
 * The deleter: poisons the object and keeps it (the last QUARANTINE
 * objects stay poisoned, not freed), so a reader that still reaches it
 * sees the poison.
 */
std::atomic<long> deleted(0);
std::mutex quarantine_lock;
std::deque<route *> quarantine;
const std::size_t QUARANTINE = 4096;
struct poison_delete {
	void operator()(route *r) const noexcept;
};

struct route : rculist::rcu_obj_base<route, poison_delete> {
	long key;
	unsigned magic = LIVE;
	struct cds_list_head node;
	struct cds_hlist_node hnode;
	explicit route(long k) : key(k)
	{
	}
};

void poison_delete::operator()(route *r) const noexcept
{
	r->magic = DEAD;
	r->key = -1;
	deleted++;
	std::lock_guard<std::mutex> g(quarantine_lock);
	quarantine.push_back(r);
	if (quarantine.size() > QUARANTINE) {
		delete quarantine.front();
		quarantine.pop_front();
	}
}

/* The list's shape, both directions: the keys in order, prev links right. */
long signature(struct cds_list_head &h)
{
	long sig = 0;
	struct cds_list_head *prev = &h;

	for (route &r : rculist::entries<&route::node>(h)) {
		CHECK(r.node.prev == prev);
		prev = &r.node;
		sig = sig * 10 + r.key;
	}
	CHECK(h.prev == prev);
	return sig;
}

void test_shape()
{
	step = "shape";
	CDS_LIST_HEAD(h);
	CDS_HLIST_HEAD(hh);
	route *r[4];

	for (long i = 0; i < 4; i++)
		r[i] = new route(i + 1);
	/* before: [h]   after: [h] -> 1 -> 2 -> 3 */
	rculist::list_add_tail<&route::node>(*r[1], h);
	rculist::list_add<&route::node>(*r[0], h);
	rculist::list_add_tail_rcu<&route::node>(*r[2], h);
	CHECK(signature(h) == 123);
	/* before: [h] -> 1 -> 2 -> 3   after: [h] -> 1 -> 4 -> 3 */
	rculist::list_replace_rcu<&route::node>(*r[1], *r[3]);
	CHECK(signature(h) == 143);
	/* before: [h] -> 1 -> 4 -> 3   after: [h] -> 2 -> 1 -> 3 */
	rculist::list_del_rcu<&route::node>(*r[3]);
	rculist::list_add_rcu<&route::node>(*r[1], h);
	CHECK(signature(h) == 213);
	{
		std::scoped_lock lk(rculist::rcu_default_domain());
		long sig = 0, n = 0;

		for (route &x : rculist::rcu_entries<&route::node>(h))
			sig = sig * 10 + x.key;
		CHECK(sig == 213);
		for (auto it = rculist::rcu_entries<&route::node>(h).begin();
		     it != rculist::rcu_entries<&route::node>(h).end(); it++)
			n += it->key;
		CHECK(n == 6);
	}
	/* the updater's walk deletes the element it stands on */
	for (route &x : rculist::entries<&route::node>(h))
		if (x.key == 1)
			rculist::list_del<&route::node>(x);
	CHECK(signature(h) == 23);

	/* hlist: before: [hh]   after: [hh] -> 3 -> 2 -> 1, then 4 for 2, 3 deleted */
	for (long i = 0; i < 3; i++)
		rculist::hlist_add_head_rcu<&route::hnode>(*r[i], hh);
	rculist::hlist_replace_rcu<&route::hnode>(*r[1], *r[3]);
	rculist::hlist_del_rcu<&route::hnode>(*r[2]);
	{
		std::lock_guard<rculist::rcu_domain> lk(
			rculist::rcu_default_domain());
		long sig = 0;

		for (route &x : rculist::rcu_entries<&route::hnode>(hh))
			sig = sig * 10 + x.key;
		CHECK(sig == 41);
	}
	long sig = 0;
	for (route &x : rculist::entries<&route::hnode>(hh)) {
		/* each element is the first, its predecessors deleted */
		CHECK(hh.next == &x.hnode &&
		      x.hnode.prev == (struct cds_hlist_node *)&hh);
		sig = sig * 10 + x.key;
		rculist::hlist_del<&route::hnode>(x); /* the walk survives it */
	}
	CHECK(sig == 41 && hh.next == nullptr);
	for (route *x : r)
		delete x;
}

void test_shared()
{
	step = "shared";
	CDS_LIST_HEAD(h);
	CDS_HLIST_HEAD(hh);
	croute c[4];

	for (long i = 0; i < 3; i++) {
		c[i].key = i + 1;
		c_add(&h, &hh, &c[i]);
	}
	{
		std::scoped_lock lk(rculist::rcu_default_domain());
		long sig = 0, hsig = 0;

		for (croute &x : rculist::rcu_entries<&croute::node>(h))
			sig = sig * 10 + x.key;
		for (croute &x : rculist::rcu_entries<&croute::hnode>(hh))
			hsig = hsig * 10 + x.key;
		CHECK(sig == 123 && hsig == 321);
	}
	c[3].key = 4;
	rculist::list_add_rcu<&croute::node>(c[3], h);
	rculist::hlist_add_head_rcu<&croute::hnode>(c[3], hh);
	CHECK(c_signature(&h) == 4123 && c_hsignature(&hh) == 4321);
	CHECK(h.prev == &c[2].node && c[0].node.prev == &c[3].node);
}

void test_alloc()
{
	step = "alloc";
	route *a = new route(1), *b = new route(2);
	long before = deleted, n0 = news;

	a->retire();
	CHECK(news == n0);
	rculist::rcu_retire(b, poison_delete());
	CHECK(news == n0 + 1);
	route *c = new route(3);
	n0 = news;
	refuse_next = true;
	bool threw = false;
	try {
		rculist::rcu_retire(c, poison_delete());
	} catch (const std::bad_alloc &) {
		threw = true;
	}
	CHECK(threw && news == n0);
	rculist::rcu_barrier();
	CHECK(deleted == before + 2 && c->magic == LIVE);
	delete c;
	/* the default deleter, through both paths */
	struct plain : rculist::rcu_obj_base<plain> {
		int v[4];
	};
	(new plain)->retire();
	rculist::rcu_retire(new int(5));
	rculist::rcu_barrier();
}

/* qsbr: a thread that locked once and idles holds no grace period up. */
void test_idle()
{
	step = "idle";
	std::mutex m;
	std::condition_variable cv;
	bool locked = false, release = false;
	std::thread idler([&] {
		{
			std::scoped_lock lk(rculist::rcu_default_domain());
		}
		std::unique_lock<std::mutex> g(m);
		locked = true;
		cv.notify_all();
		cv.wait(g, [&] { return release; });
	});
	{
		std::unique_lock<std::mutex> g(m);
		cv.wait(g, [&] { return locked; });
	}
	rculist::rcu_synchronize(); /* bounded by the watchdog */
	rculist::rcu_synchronize();
	{
		std::lock_guard<std::mutex> g(m);
		release = true;
	}
	cv.notify_all();
	idler.join();
}

/*
 * Regions nested by hand inside a C section (clang 14's analysis has no
 * reentrant capabilities: RCULIST_NO_RCU_ANALYSIS, as the C tests do).
 */
void nested_regions(struct cds_list_head &h) RCULIST_NO_RCU_ANALYSIS
{
	for (int i = 0; i < 3; i++) {
		rculist::rcu_domain &dom = rculist::rcu_default_domain();
		dom.lock();
		CHECK(dom.try_lock());
		long n = 0;
		for (route &x : rculist::rcu_entries<&route::node>(h))
			n += x.key;
		CHECK(n == 7);
		dom.unlock();
		dom.unlock();
	}
}

void nested_in_c_section(struct cds_list_head &h)
{
	rculist_read_lock();
	nested_regions(h);
	rculist_read_unlock();
}

/*
 * A thread the C API registered, using rcu_domain inside its C section,
 * or outside any (its first lock registers nothing more).
 */
void test_c_registered(bool c_section)
{
	step = c_section ? "c-managed" : "c-registered";
	CDS_LIST_HEAD(h);
	route r(7);
	rculist::list_add_rcu<&route::node>(r, h);
	std::thread t([&] {
		rculist_register_thread();
		if (c_section)
			nested_in_c_section(h);
		else
			nested_regions(h);
		rculist_quiescent_state();
		rculist_unregister_thread();
	});
	t.join();
	rculist::rcu_synchronize();
}

/*
 * A thread only C++ registered, nesting regions: inside the outermost the
 * flavour sees a section (qsbr: the thread online) however deep the
 * nesting went and came back, outside it none (qsbr: offline).
 */
void nest_regions() RCULIST_NO_RCU_ANALYSIS
{
	rculist::rcu_domain &dom = rculist::rcu_default_domain();

	for (int i = 0; i < 3; i++) {
		dom.lock();
		CHECK(rculist_read_ongoing());
		for (int depth = 0; depth <= i; depth++)
			dom.lock();
		for (int depth = 0; depth <= i; depth++)
			dom.unlock();
		CHECK(rculist_read_ongoing());
		dom.unlock();
		CHECK(!rculist_read_ongoing());
	}
}

void test_nesting()
{
	step = "nesting";
	std::thread(nest_regions).join();
	rculist::rcu_synchronize();
}

/*
 * A thread the C API registered: online (qsbr), its regions change
 * nothing, its own quiescent states covering them; taken offline, each
 * outermost region is a section (nest_regions()) and the thread offline
 * after it, holding no grace period up while it idles.
 */
void test_c_offline()
{
	step = "c-offline";
	const bool qsbr = std::strcmp(rculist_flavor_name(), "qsbr") == 0;
	std::mutex m;
	std::condition_variable cv;
	bool idle = false, release = false;
	std::thread t([&] {
		rculist_register_thread();
		CHECK((rculist_read_ongoing() != 0) == qsbr);
		{
			std::scoped_lock lk(rculist::rcu_default_domain());
			CHECK(rculist_read_ongoing());
		}
		CHECK((rculist_read_ongoing() != 0) == qsbr);
		rculist_thread_offline();
		nest_regions();
		std::unique_lock<std::mutex> g(m);
		idle = true;
		cv.notify_all();
		cv.wait(g, [&] { return release; });
		g.unlock();
		rculist_thread_online();
		rculist_unregister_thread();
	});
	{
		std::unique_lock<std::mutex> g(m);
		cv.wait(g, [&] { return idle; });
	}
	rculist::rcu_synchronize(); /* bounded by the watchdog */
	rculist::rcu_synchronize();
	{
		std::lock_guard<std::mutex> g(m);
		release = true;
	}
	cv.notify_all();
	t.join();
}

#if RCULIST__CXX_INLINE && RCULIST__RS_PATCH
/*
 * Every C++ site of this program (section rculist_cxx) as the loaded
 * flavour's patch leaves it: under qsbr a jmp to its stub, which holds
 * the comparison of the thread's reader counter (cmpq $0 or $-1,
 * %fs:offset, the description's offset); under the other flavours a jump
 * elsewhere than its slow path (a jmp, or a nop where the label follows),
 * the stub left; with RCULIST_JUMP=off both still the jmp to the slow
 * path, the steps above then run through it.
 */
void test_sites()
{
	step = "sites";
	static const unsigned char cmp[] = { 0x64, 0x48, 0x83, 0x3c, 0x25 };
	static const unsigned char nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	static const unsigned char prefixes5[] = { 0x2e, 0x2e, 0x2e, 0x2e, 0x2e };
	const char *mode = std::getenv("RCULIST_JUMP");
	const bool off = mode && std::strstr(mode, "off");
	const bool qsbr = std::strcmp(rculist_flavor_name(), "qsbr") == 0;
	auto at = [](const int &field) {
		return reinterpret_cast<const unsigned char *>(
			reinterpret_cast<intptr_t>(&field) + field);
	};

	/* lock() and unlock(), inline and out of line (the slow paths'). */
	CHECK(__stop_rculist_cxx - __start_rculist_cxx >= 4);
	for (const rculist__cxx_site *s = __start_rculist_cxx;
	     s < __stop_rculist_cxx; s++) {
		const unsigned char *site = at(s->site), *stub = at(s->stub);
		auto jmp_to = [](const unsigned char *code,
				 const unsigned char *to) {
			int rel;

			std::memcpy(&rel, code + 1, sizeof(rel));
			return code[0] == 0xe9 && code + 5 + rel == to;
		};
		int disp;

		std::memcpy(&disp, stub + 5, sizeof(disp));
		CHECK(at(s->end) == stub + RCULIST__RS_CXX_LEN);
		if (off)
			CHECK(jmp_to(site, at(s->slow)) &&
			      jmp_to(stub, at(s->slow)));
		else if (qsbr)
			CHECK(jmp_to(site, stub) &&
			      !std::memcmp(stub, cmp, sizeof(cmp)) &&
			      disp == rculist__read_side_v2.reader &&
			      (stub[9] == 0 || stub[9] == 0xff));
		else
			CHECK(!jmp_to(site, at(s->slow)) && !jmp_to(site, stub) &&
			      (site[0] == 0xe9 ||
			       !std::memcmp(site, nop5, sizeof(nop5)) ||
			       !std::memcmp(site, prefixes5, sizeof(prefixes5))) &&
			      jmp_to(stub, at(s->slow)));
	}
}
#else
void test_sites()
{
}
#endif

/* Threads that locked and exited: the library's exit hook unregistered them. */
void test_exit()
{
	step = "exit";
	for (int i = 0; i < 4; i++)
		std::thread([] {
			std::scoped_lock lk(rculist::rcu_default_domain());
		}).join();
	rculist::rcu_synchronize();
}

const long N = 8;
CDS_LIST_HEAD(routes);
CDS_HLIST_HEAD(hroutes);
std::mutex update_lock;
std::atomic<bool> stop(false);
std::atomic<long> walks(0), retired(0);

void reader(bool holds)
{
	rculist::rcu_domain &dom = rculist::rcu_default_domain();

	for (unsigned long w = 0; !stop.load(std::memory_order_relaxed); w++) {
		std::scoped_lock lk(dom);
		route *held = nullptr;
		long i = 0;

		for (route &r : rculist::rcu_entries<&route::node>(routes)) {
			CHECK(r.magic == LIVE && r.key == i);
			held = &r;
			i++;
		}
		CHECK(i == N);
		/*
		 * One reader now and then holds an element for 25 ms: long enough for the
		 * updaters to replace it and for a deleter that did not wait
		 * for this region to run (liburcu's call_rcu thread runs its
		 * batches about every 10 ms).
		 */
		if (holds && w % 128 == 0) {
			std::this_thread::sleep_for(std::chrono::milliseconds(25));
			CHECK(held->magic == LIVE);
		}
		std::unique_lock<rculist::rcu_domain> nested(dom);
		for (route &r : rculist::rcu_entries<&route::hnode>(hroutes))
			CHECK(r.magic == LIVE && r.key >= 0 && r.key < N);
		nested.unlock();
		walks++;
	}
}

void updater(unsigned seed)
{
	long n = 0;

	while (!stop.load(std::memory_order_relaxed)) {
		seed = seed * 1103515245 + 12345;
		long key = (seed >> 8) % N;
		route *fresh = new route(key), *old = nullptr;
		{
			std::lock_guard<std::mutex> g(update_lock);
			for (route &r : rculist::entries<&route::node>(routes))
				if (r.key == key)
					old = &r;
			CHECK(old != nullptr);
			rculist::list_replace_rcu<&route::node>(*old, *fresh);
			rculist::hlist_replace_rcu<&route::hnode>(*old, *fresh);
		}
		if (n++ & 1)
			old->retire();
		else
			rculist::rcu_retire(old, poison_delete());
		retired++;
	}
}

void test_readers(double secs)
{
	step = "readers";
	for (long i = 0; i < N; i++) {
		route *r = new route(i);
		rculist::list_add_tail_rcu<&route::node>(*r, routes);
		rculist::hlist_add_head_rcu<&route::hnode>(*r, hroutes);
	}
	long deleted0 = deleted;
	std::vector<std::thread> t;
	for (int i = 0; i < 2; i++)
		t.emplace_back(reader, i == 0);
	for (unsigned i = 0; i < 2; i++)
		t.emplace_back(updater, 17 + i);
	auto end = std::chrono::steady_clock::now() +
		   std::chrono::duration<double>(secs);
	while (std::chrono::steady_clock::now() < end || walks < 100 ||
	       retired < 100)
		std::this_thread::sleep_for(std::chrono::milliseconds(10));
	stop = true;
	for (auto &x : t)
		x.join();
	for (route &r : rculist::entries<&route::node>(routes)) {
		rculist::list_del_rcu<&route::node>(r);
		rculist::hlist_del_rcu<&route::hnode>(r);
		r.retire();
		retired++;
	}
	rculist::rcu_barrier();
	CHECK(deleted - deleted0 == retired);
	std::printf("%-4s %ld walks, %ld retired (half through rcu_obj_base, half rcu_retire), "
		    "every deleter run, no poisoned element seen\n",
		    rculist_flavor_name(), walks.load(), retired.load());
}
} // namespace

int main()
{
	const char *s = std::getenv("RCULIST_TEST_CONC_SECS");
	double secs = s ? std::atof(s) : 0.4;

	std::signal(SIGALRM, on_alarm);
	alarm(60);
	test_shape();
	test_shared();
	test_alloc();
	test_sites();
	alarm(10); /* a grace period takes microseconds here */
	test_idle();
	alarm(60);
	test_c_registered(true);
	test_c_registered(false);
	test_nesting();
	alarm(10);
	test_c_offline();
	alarm(60);
	test_exit();
	test_readers(secs);
	std::lock_guard<std::mutex> g(quarantine_lock);
	for (route *r : quarantine) {
		CHECK(r->magic == DEAD);
		delete r;
	}
	return 0;
}
