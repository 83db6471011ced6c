// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/cxx/p2545.cc - the examples of P2545 (section 4) and of the
 * standard's [saferecl.rcu], with std:: read as rculist::.  The papers'
 * text was not at hand: written afresh from their description (a name
 * read under a region while another thread replaces it and frees the old
 * one after rcu_synchronize(), or retires it; an rcu_obj_base object
 * retired; the standard's one-line scoped_lock), each then run with
 * threads so that the reads and the frees overlap.  It uses nothing but
 * <rculist/rcu.hpp> and the standard's names (no rculist_ call, no
 * registration): make check-adopt builds it against the installed
 * library, with pkg-config and with CMake, under every flavour.
 */
#include <rculist/rcu.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using rculist::rcu_default_domain;
using rculist::rcu_domain;

// Section 4, first example: a name read often, set rarely.
std::atomic<std::string *> name(new std::string("initial"));
std::atomic<long> names_read(0);

// Called often and in parallel.
void print_name(std::ostream &out)
{
	std::scoped_lock rdlock(rculist::rcu_default_domain());
	auto n = name.load(std::memory_order_acquire);
	out << *n << '\n';
	names_read++;
}

// Called rarely: free after a grace period.
void set_name(std::string s)
{
	std::string *newstr = new std::string(s);
	std::string *oldstr = name.exchange(newstr, std::memory_order_acq_rel);
	rculist::rcu_synchronize();
	delete oldstr;
}

// The same, retiring the old string instead of waiting.
void set_name_retire(std::string s)
{
	std::string *newstr = new std::string(s);
	std::string *oldstr = name.exchange(newstr, std::memory_order_acq_rel);
	rculist::rcu_retire(oldstr);
}

// Section 4, second example: an object that derives from rcu_obj_base.
struct Foo : rculist::rcu_obj_base<Foo> {
	int a;
	int b;
	Foo(int a0, int b0) : a(a0), b(b0)
	{
	}
};
std::atomic<Foo *> foo_ptr(new Foo(1, 2));

int read_foo()
{
	std::scoped_lock l(rculist::rcu_default_domain());
	Foo *p = foo_ptr.load(std::memory_order_acquire);
	return p->a + p->b;
}

void update_foo(int a, int b)
{
	Foo *newp = new Foo(a, b);
	Foo *oldp = foo_ptr.exchange(newp, std::memory_order_acq_rel);
	oldp->retire();
}

int main()
{
	// [saferecl.rcu.domain.general], Example 1.
	{
		std::scoped_lock<rcu_domain> rlock(rcu_default_domain());
	}

	std::atomic<bool> stop(false);
	std::atomic<long> bad(0);
	std::vector<std::thread> readers;
	for (int i = 0; i < 2; i++)
		readers.emplace_back([&] {
			while (!stop) {
				std::ostringstream out;
				print_name(out);
				if (out.str().compare(0, 4, "name") != 0 &&
				    out.str() != "initial\n")
					bad++;
				int s = read_foo();
				if (s % 3 != 0 && s != 3)
					bad++;
			}
		});
	for (int i = 0; i < 200; i++) {
		if (i % 2)
			set_name("name" + std::to_string(i));
		else
			set_name_retire("name" + std::to_string(i));
		update_foo(i, 2 * i); // a + b == 3i
	}
	stop = true;
	for (auto &t : readers)
		t.join();
	rculist::rcu_barrier();
	print_name(std::cout);
	std::cout << "P2545 examples: " << names_read << " names read, sum "
		  << read_foo() << ", " << bad << " bad reads\n";
	delete name.load();
	delete foo_ptr.load();
	return bad ? 1 : 0;
}
