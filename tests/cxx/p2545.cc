// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/cxx/p2545.cc - the examples of P2545 and of the standard's
 * [saferecl.rcu], with std:: read as rculist::.  P2545's comparison
 * tables (its RCU column: the intrusive style with rcu_obj_base and
 * retire(), the non-intrusive style with rcu_retire(), the synchronous
 * style with rcu_synchronize() then delete) are below as the paper
 * prints them, their placeholders filled (Data's members, Result, the
 * reader's fn); the standard's only example is its one-line scoped_lock.
 * Two more examples in the same spirit (a name read under a region while
 * another thread replaces it; an rcu_obj_base object retired) come
 * first.  Each is run with threads so that the reads and the frees
 * overlap, and each Data poisons itself when it is deleted, so that a
 * reader that sees a deleted one fails the run.  It uses nothing but
 * <rculist/rcu.hpp> and the standard's names (no rculist_ call, no
 * registration): make check-adopt builds it against the installed
 * library, with pkg-config and with CMake, under every flavour.
 */
#include <rculist/rcu.hpp>

#include <atomic>
#include <chrono>
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

// P2545's comparison tables, the RCU column of each, unchanged but for
// std:: -> rculist:: and the placeholders: Data's members (one Value,
// below), Result.
using Result = int;
constexpr int poisoned = -1;

// Data's one member in each table: an int that its destruction poisons.
struct Value {
	int v;
	explicit Value(int v0) : v(v0)
	{
	}
	~Value()
	{
		v = poisoned;
	}
	operator int() const
	{
		return v;
	}
};

namespace intrusive {
struct Data : rculist::rcu_obj_base<Data> { /* members */
	Value value;
	explicit Data(int v) : value(v)
	{
	}
};

std::atomic<Data *> data_;

template <typename Func>
Result reader_op(Func fn)
{
	std::scoped_lock l(rculist::rcu_default_domain());
	Data *p = data_;
	// fn should not block too long or call
	// rcu_synchronize(), rcu_barrier(), or
	// rcu_retire(), directly or indirectly
	return fn(p);
}

// May be called concurrently with reader_op
void update(Data *newdata)
{
	Data *olddata = data_.exchange(newdata);
	olddata->retire(); // reclaim *olddata when safe
}
} // namespace intrusive

namespace nonintrusive {
struct Data { /* members */
	Value value;
	explicit Data(int v) : value(v)
	{
	}
};

std::atomic<Data *> data_;

template <typename Func>
Result reader_op(Func fn)
{
	std::scoped_lock l(rculist::rcu_default_domain());
	Data *p = data_;
	// fn should not block too long or call
	// rcu_synchronize(), rcu_barrier(), or
	// rcu_retire(), directly or indirectly
	return fn(p);
}

// May be called concurrently with reader_op
void update(Data *newdata)
{
	Data *olddata = data_.exchange(newdata);
	rculist::rcu_retire(olddata); // reclaim *olddata when safe
}
} // namespace nonintrusive

namespace synchronous {
struct Data { /* members */
	Value value;
	explicit Data(int v) : value(v)
	{
	}
};

std::atomic<Data *> data_;

template <typename Func>
Result reader_op(Func fn)
{
	std::scoped_lock l(rculist::rcu_default_domain());
	Data *p = data_;
	// fn should not block too long or call
	// rcu_synchronize(), rcu_barrier(), or
	// rcu_retire(), directly or indirectly
	return fn(p);
}

// May be called concurrently with reader_op
void update(Data *newdata)
{
	Data *olddata = data_.exchange(newdata);
	rculist::rcu_synchronize(); // wait until it's safe
	delete olddata;		    // then reclaim *olddata
}
} // namespace synchronous

/*
 * One table's example under load: two readers call reader_op() with an
 * fn that reads the value twice across a pause (a deleted Data would show
 * poisoned, or change), while this thread updates 300 times, each update
 * overlapping two reads at least; then the last one is deleted after a
 * barrier.  Returns the bad reads.
 */
template <typename Data, typename ReaderOp, typename Update>
long run_table(const char *style, std::atomic<Data *> &data_,
	       ReaderOp reader_op, Update update)
{
	std::atomic<bool> stop(false);
	std::atomic<long> bad(0), reads(0);
	std::vector<std::thread> readers;

	data_ = new Data(0);
	for (int i = 0; i < 2; i++)
		readers.emplace_back([&] {
			while (!stop) {
				Result r = reader_op([](Data *p) {
					int v = p->value;
					std::this_thread::yield();
					return v >= 0 && p->value == v ?
						       v :
						       poisoned;
				});
				if (r == poisoned)
					bad++;
				reads++;
			}
		});
	for (int i = 1; i <= 300; i++) {
		/* Each update overlaps reads: wait for two more. */
		long seen = reads;
		auto until = std::chrono::steady_clock::now() +
			     std::chrono::seconds(10);
		update(new Data(i));
		while (reads < seen + 2 && !bad)
			if (std::chrono::steady_clock::now() > until) {
				std::cout
					<< style
					<< ": no progress of the readers in 10 s\n";
				bad++;
				break;
			} else {
				std::this_thread::yield();
			}
	}
	stop = true;
	for (auto &t : readers)
		t.join();
	rculist::rcu_barrier();
	Result last = reader_op([](Data *p) -> Result { return p->value; });
	delete data_.load();
	std::cout << "P2545 table, " << style << " style: " << reads
		  << " reads, last " << last << ", " << bad << " bad reads\n";
	return bad + (last != 300);
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
	bad += run_table("intrusive", intrusive::data_,
			 intrusive::reader_op<Result (*)(intrusive::Data *)>,
			 intrusive::update);
	bad += run_table("non-intrusive", nonintrusive::data_,
			 nonintrusive::reader_op<Result (*)(nonintrusive::Data *)>,
			 nonintrusive::update);
	bad += run_table("synchronous", synchronous::data_,
			 synchronous::reader_op<Result (*)(synchronous::Data *)>,
			 synchronous::update);
	print_name(std::cout);
	std::cout << "P2545 examples: " << names_read << " names read, sum "
		  << read_foo() << ", " << bad << " bad reads\n";
	delete name.load();
	delete foo_ptr.load();
	return bad ? 1 : 0;
}
