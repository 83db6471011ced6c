// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * <rculist/rcu.hpp> - C++26's RCU (<rcu>, [saferecl.rcu], P2545) in
 * namespace rculist, over whichever flavour the program links
 * (-lrculist-memb, -lrculist-qsbr, -lrculist-bp, -lrculist-mb), and typed
 * range-for walks over rculist's C lists.  C++17 or later.
 *
 *   rcu_domain, rcu_default_domain()   regions of RCU protection, through
 *                                      std::scoped_lock / std::unique_lock
 *   rcu_synchronize(), rcu_barrier()   wait for readers, for deleters
 *   rcu_obj_base<T, D>::retire()       delete after a grace period, never
 *                                      allocating
 *   rcu_retire(p, d)                   the same for any pointer (allocates)
 *   rcu_entries<&T::link>(head)        a reader's range-for over a
 *                                      cds_list_head or cds_hlist_head list
 *   entries<&T::link>(head)            the updater's range-for
 *   list_add_rcu<&T::link>(e, head)... typed updates
 *
 * No registration in user code: a thread is registered with the flavour
 * at its first rcu_domain::lock() (memb, mb: at an outermost lock() in a
 * thread liburcu has not registered) and unregistered at thread exit by
 * the library's own exit hook.  Under qsbr a thread that is offline (one
 * only the C++ interface uses) is online only while it holds the domain:
 * outermost lock() goes online, outermost unlock() offline (inline), so
 * it never holds up a grace period outside its regions.  A thread online
 * (the C API registered it and announces its quiescent states) keeps its
 * own scheme; see rculist-cxx(7).
 */
#ifndef RCULIST_RCU_HPP
#define RCULIST_RCU_HPP

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "<rculist/rcu.hpp> needs C++17 or later"
#endif

#include <cstddef>
#include <cstring>
#include <iterator>
#include <memory>
#include <mutex>
#include <new>
#include <type_traits>
#include <utility>

#include "../rculist.h"

namespace rculist {
class rcu_domain;
rcu_domain &rcu_default_domain() noexcept;

namespace detail {
/*
 * The per-thread state of the C++ read side: one word, constant
 * initialised (no guard, no wrapper call), trivially destroyed, its mode
 * in the low byte and, above it, the depth:
 *   mode   unseen      no lock() yet in this thread
 *          calls       memb, bp, mb: lock()/unlock() call the library
 *          qsbr_own    qsbr, registered here: online only while locked
 *          qsbr_c      qsbr, registered by the C API: its own scheme
 *   depth  qsbr_own only: the regions open (nesting)
 * so that one comparison finds a qsbr thread's common cases: a thread
 * the C API registered (qsbr_c), the outermost lock() (qsbr_own) and
 * unlock() (qsbr_own + depth_one) of a thread registered here.  On the
 * default link (RCULIST__CXX_INLINE below) qsbr keeps the region in
 * liburcu's reader counter instead, and this word only says whether the
 * thread was registered (unseen or qsbr_own).
 */
enum : unsigned char { unseen = 0, calls = 1, qsbr_own = 2, qsbr_c = 3 };
constexpr unsigned depth_one = 1u << 8;
struct thread_state {
	unsigned word;
};
inline thread_local thread_state tls __attribute__((tls_model("initial-exec")));

inline unsigned char mode_of(const thread_state &t) noexcept
{
	return static_cast<unsigned char>(t.word);
}

/*
 * The C names: on the default link <rculist/read_side.h>'s inline read
 * side, with -DRCULIST_INLINE_<F> liburcu's, in debug mode the checking
 * calls, under ThreadSanitizer the calls that tell it the region ended.
 */
inline void read_lock() noexcept RCULIST_NO_RCU_ANALYSIS
{
	rculist_read_lock();
}
inline void read_unlock() noexcept RCULIST_NO_RCU_ANALYSIS
{
	rculist_read_unlock();
}

/*
 * A thread's first lock(): register it, unless the C API did.  memb and
 * mb: register (nothing if the C API did: rculist_register_thread() does
 * nothing in a registered thread; a thread inside a C section is).
 * bp registers by itself on its first section; rculist_register_thread()
 * arms the watch of its exit there.  qsbr: a thread online (rculist_read_ongoing())
 * was registered by the C API and announces its own quiescent states;
 * otherwise register and go offline at once.
 */
[[gnu::noinline, gnu::cold]] inline void
first_lock(thread_state &t) noexcept RCULIST_NO_RCU_ANALYSIS
{
	const char *flavor = rculist_flavor_name();

	if (std::strcmp(flavor, "qsbr") != 0) {
		if (!rculist_read_ongoing())
			rculist_register_thread();
		t.word = calls;
	} else if (rculist_read_ongoing()) {
		t.word = qsbr_c;
	} else {
		rculist_register_thread();
		rculist_thread_offline();
		t.word = qsbr_own;
	}
}

[[gnu::noinline]] inline void lock_slow(thread_state &t) noexcept RCULIST_NO_RCU_ANALYSIS
{
	if (mode_of(t) == unseen)
		first_lock(t);
	if (mode_of(t) == calls) {
		read_lock();
		return;
	}
	if (mode_of(t) == qsbr_own &&
	    (t.word += depth_one) == qsbr_own + depth_one)
		rculist_thread_online();
#ifdef RCULIST_DEBUG
	/* qsbr: debug mode's own count of the thread's sections. */
	rculist_read_lock();
#endif
}

[[gnu::noinline]] inline void
unlock_slow(thread_state &t) noexcept RCULIST_NO_RCU_ANALYSIS
{
#ifdef RCULIST_DEBUG
	rculist_read_unlock();
#endif
	if (mode_of(t) == qsbr_own && (t.word -= depth_one) == qsbr_own)
		rculist_thread_offline();
}

/*
 * On the default link (<rculist/read_side.h>'s inline read side, not in
 * debug mode) lock() and unlock() are the C read side's own code, site
 * for site: memb, bp and mb cost what rculist_read_lock() and
 * rculist_read_unlock() cost.  They differ only in what the C code calls
 * in a thread liburcu has not registered (memb, mb: at an outermost lock;
 * bp: whose registry slot is null): lock_first() registers it, then
 * takes the library's lock; and the paths a patched site does not take
 * run out of line (lock_other(), unlock_other()), so that gcc inlines
 * std::scoped_lock's constructor and destructor.  qsbr's site is C++'s
 * own (RCULIST__RS_CXX_SITE()): it jumps to a stub out of line, which
 * compares the thread's reader counter with 0 (lock) or region_outer
 * (unlock) and goes past, to the nested case or to the outermost one,
 * so that a thread the C API keeps online pays the jump, that comparison
 * and its jump, memb's code still follows its site, and a thread offline goes online inline at its
 * outermost lock, offline at its outermost unlock (no library call but
 * the wake of a waiting grace period).
 */
#if defined(RCULIST_READ_SIDE_H) && RCULIST__RS_INLINE && \
	!defined(RCULIST_DEBUG)
#define RCULIST__CXX_INLINE 1
extern "C" void rculist__lib_read_lock() noexcept __asm__("rculist_read_lock");

[[gnu::noinline, gnu::cold]] inline void lock_first() noexcept RCULIST_NO_RCU_ANALYSIS
{
	rculist_register_thread(); /* nothing if registered already */
	rculist__lib_read_lock();
}

/*
 * qsbr: a region is marked in liburcu's own reader counter, so that the
 * C++ site tests the thread with one comparison (RCULIST__RS_CXX_SITE()):
 *   > 0   online: a thread the C API registered (its counter is the
 *         grace-period counter it last saw): nothing to do, its own
 *         quiescent states cover the region;
 *   0     offline, or not registered: the outermost lock() of a thread
 *         C++ uses goes online by storing region_outer (one exchange:
 *         liburcu's full barriers), which no grace-period counter ever
 *         equals, so that every grace period waits for the region to end;
 *   < 0   in a region of such a thread: region_outer less its nesting;
 *         the outermost unlock() stores 0 (an exchange) and wakes a grace
 *         period waiting on the futex.
 * Off the patched site (before the patch, RCULIST_JUMP=off) the same
 * code runs from the site's slow path, the comparison included.
 */
constexpr unsigned long region_outer = ~0UL;

/* A thread's first region offline: register it (unless the C API did). */
[[gnu::noinline, gnu::cold]] inline void qsbr_first() noexcept RCULIST_NO_RCU_ANALYSIS
{
	rculist_register_thread(); /* nothing if registered already */
	rculist_thread_offline();
	tls.word = qsbr_own;
}

/*
 * known: RCULIST__RS_CXX_ANY (the counter read here: a site left as
 * compiled), _OUTER (lock: 0; unlock: region_outer) or _NESTED (below
 * those), as the patched site found it.
 */
[[gnu::always_inline]] inline void
qsbr_lock(unsigned long off, unsigned long gpw,
	  int known) noexcept RCULIST_NO_RCU_ANALYSIS
{
	unsigned long v = known == RCULIST__RS_CXX_OUTER ? 0 :
							   rculist__rs_get(off);

	(void)gpw;
	if (known == RCULIST__RS_CXX_OUTER ||
	    (known == RCULIST__RS_CXX_ANY && v == 0)) {
		thread_state &t = tls;

		if (RCULIST__UNLIKELY(mode_of(t) == unseen))
			RCULIST__RS_PCALL(qsbr_first);
		rculist__rs_fenced_store(off, region_outer);
	} else if (known == RCULIST__RS_CXX_NESTED || static_cast<long>(v) < 0) {
		rculist__rs_put(off, v - 1); /* nested */
	}
}

[[gnu::always_inline]] inline void
qsbr_unlock(unsigned long off, unsigned long gpw,
	    int known) noexcept RCULIST_NO_RCU_ANALYSIS
{
	unsigned long v = known == RCULIST__RS_CXX_OUTER ? region_outer :
							   rculist__rs_get(off);

	if (known != RCULIST__RS_CXX_NESTED && v == region_outer) {
		rculist__rs_fenced_store(off, 0);
		if (RCULIST__RS_GP_WAITS(gpw))
			RCULIST__RS_PCALL(rculist__read_side_wake);
	} else if (known == RCULIST__RS_CXX_NESTED || static_cast<long>(v) < 0) {
		rculist__rs_put(off, v + 1); /* nested */
	}
}

/*
 * The paths a patched site does not take (the slow path, mb's fenced
 * code), out of line: the same lock and unlock, whose own sites lead
 * there inline.
 */
[[gnu::noinline, gnu::cold]] inline void lock_other() noexcept RCULIST_NO_RCU_ANALYSIS
{
	rculist__rs_read_lock(lock_first, qsbr_lock, nullptr);
}

[[gnu::noinline, gnu::cold]] inline void unlock_other() noexcept RCULIST_NO_RCU_ANALYSIS
{
	rculist__rs_read_unlock(qsbr_unlock, nullptr);
}
#else
#define RCULIST__CXX_INLINE 0
#endif

/*
 * Debug mode (-DRCULIST_DEBUG): a reader's walk reports, at the caller's
 * line, a walk outside a region, as the C iterators do.
 */
#ifdef RCULIST_DEBUG
#define RCULIST__CXX_SITE \
	, const char *file = __builtin_FILE(), int line = __builtin_LINE()
#define RCULIST__CXX_CHECK_READER(op) rculist__debug_reader_at(op, file, line)
#else
#define RCULIST__CXX_SITE
#define RCULIST__CXX_CHECK_READER(op) ((void)0)
#endif

/*
 * The link every deferred deleter is queued by: standard layout, the
 * rcu_head first, so the rcu_head's address is the node's.
 */
struct rcu_node {
	struct rcu_head rculist__head;
};

/*
 * Where rcu_obj_base keeps its deleter: an empty one (std::default_delete)
 * as a base, taking no room, so the base is the rcu_head alone.
 */
template <class D, bool Empty = std::is_empty<D>::value && !std::is_final<D>::value>
struct deleter_box : private D {
	D &deleter() noexcept
	{
		return *this;
	}
};
template <class D>
struct deleter_box<D, false> {
	D rculist__deleter;
	D &deleter() noexcept
	{
		return rculist__deleter;
	}
};

/*
 * Queue a retire's deleter: batched with the thread's rculist_free_rcu()
 * blocks, in its polled slots too, so that it may run in this thread at
 * a later retire or free ([saferecl.rcu]: retire may invoke scheduled
 * evaluations).  Under ThreadSanitizer through rculist_call_rcu(), which
 * <rculist/tsan.h> routes through its trampoline.
 */
inline void queue_retire(struct rcu_head *head,
			 void (*func)(struct rcu_head *head)) noexcept
{
#ifdef RCULIST__TSAN
	rculist_call_rcu(head, func);
#else
	rculist__retire_rcu(head, func);
#endif
}

/* rcu_retire()'s allocation: the pointer, its deleter, and the link. */
template <class T, class D>
struct retired : rcu_node {
	T *p;
	D d;
	retired(T *ptr, D &&del) : p(ptr), d(std::move(del))
	{
	}
	static void reclaim(struct rcu_head *head) noexcept
	{
		retired *r = static_cast<retired *>(
			reinterpret_cast<rcu_node *>(head));

		r->d(r->p);
		delete r;
	}
};

/*
 * The element type and link type of a member pointer &T::link, and the
 * element a link belongs to.  The offset of the member is taken in an
 * object whose lifetime never begins (a union member): address arithmetic
 * only, folded to a constant by the optimiser.
 */
template <auto M>
struct member;
template <class T, class L, L T::*M>
struct member<M> {
	using type = T;
	using link = L;
	static std::ptrdiff_t offset() noexcept
	{
		union storage {
			char c;
			T t;
			storage()
			{
			}
			~storage()
			{
			}
		} s;
		return reinterpret_cast<const char *>(&(s.t.*M)) -
		       reinterpret_cast<const char *>(&s.t);
	}
	static T *owner(const L *l) noexcept
	{
		return reinterpret_cast<T *>(
			reinterpret_cast<char *>(const_cast<L *>(l)) - offset());
	}
};

template <auto M, class L>
using require_link =
	std::enable_if_t<std::is_same<typename member<M>::link, L>::value, int>;

/* Load a link: dependency-ordered for a reader, plain for the updater. */
template <bool Rcu, class P>
inline P load_link(P const &link) noexcept
{
	if constexpr (Rcu)
		return rculist__deref(link);
	else
		return link;
}

/*
 * A walk over a cds_list_head list: the cursor is the current link; the
 * end is the head.  The updater's walk (Rcu false) reads each next link
 * before the body runs, so the body may delete the element it is given.
 */
template <auto M, bool Rcu>
class list_range {
	using T = typename member<M>::type;
	struct cds_list_head *head_;

    public:
	class iterator {
		struct cds_list_head *cur_, *next_;
		friend class list_range;
		iterator(struct cds_list_head *cur,
			 struct cds_list_head *next) noexcept
		    : cur_(cur), next_(next)
		{
		}

	    public:
		using iterator_category = std::forward_iterator_tag;
		using value_type = T;
		using difference_type = std::ptrdiff_t;
		using pointer = T *;
		using reference = T &;
		T &operator*() const noexcept
		{
			return *member<M>::owner(cur_);
		}
		T *operator->() const noexcept
		{
			return member<M>::owner(cur_);
		}
		iterator &operator++() noexcept
		{
			if constexpr (Rcu) {
				cur_ = load_link<true>(cur_->next);
			} else {
				cur_ = next_;
				next_ = cur_->next;
			}
			return *this;
		}
		iterator operator++(int) noexcept
		{
			iterator old = *this;
			++*this;
			return old;
		}
		bool operator==(const iterator &o) const noexcept
		{
			return cur_ == o.cur_;
		}
		bool operator!=(const iterator &o) const noexcept
		{
			return cur_ != o.cur_;
		}
	};
	explicit list_range(struct cds_list_head *head) noexcept : head_(head)
	{
	}
	iterator begin() const noexcept
	{
		struct cds_list_head *first = load_link<Rcu>(head_->next);

		return iterator(first, Rcu ? nullptr : first->next);
	}
	iterator end() const noexcept
	{
		return iterator(head_, nullptr);
	}
};

/* A walk over a cds_hlist_head list: the end is NULL. */
template <auto M, bool Rcu>
class hlist_range {
	using T = typename member<M>::type;
	struct cds_hlist_head *head_;

    public:
	class iterator {
		struct cds_hlist_node *cur_, *next_;
		friend class hlist_range;
		explicit iterator(struct cds_hlist_node *cur) noexcept
		    : cur_(cur), next_(Rcu || !cur ? nullptr : cur->next)
		{
		}

	    public:
		using iterator_category = std::forward_iterator_tag;
		using value_type = T;
		using difference_type = std::ptrdiff_t;
		using pointer = T *;
		using reference = T &;
		T &operator*() const noexcept
		{
			return *member<M>::owner(cur_);
		}
		T *operator->() const noexcept
		{
			return member<M>::owner(cur_);
		}
		iterator &operator++() noexcept
		{
			if constexpr (Rcu) {
				cur_ = load_link<true>(cur_->next);
			} else {
				cur_ = next_;
				next_ = cur_ ? cur_->next : nullptr;
			}
			return *this;
		}
		iterator operator++(int) noexcept
		{
			iterator old = *this;
			++*this;
			return old;
		}
		bool operator==(const iterator &o) const noexcept
		{
			return cur_ == o.cur_;
		}
		bool operator!=(const iterator &o) const noexcept
		{
			return cur_ != o.cur_;
		}
	};
	explicit hlist_range(struct cds_hlist_head *head) noexcept : head_(head)
	{
	}
	iterator begin() const noexcept
	{
		return iterator(load_link<Rcu>(head_->next));
	}
	iterator end() const noexcept
	{
		return iterator(nullptr);
	}
};
} // namespace detail

/**
 * rcu_domain - the RCU read side, a BasicLockable whose lock() opens a region of RCU protection
 *
 * Only rcu_default_domain() exists.  lock() and unlock() nest; try_lock()
 * is lock() and returns true, so std::scoped_lock, std::lock_guard and
 * std::unique_lock work on it.  A thread's first lock() registers it
 * (qsbr: online only while it holds the domain).  To clang's
 * thread-safety analysis lock() acquires, and unlock() releases, the same
 * capability as rculist_read_lock() (rculist_rcu): C walks inside a C++
 * region and the walks below inside a C section are both accepted.
 *
 * Context: any thread; no exception; lock() and unlock() in the same
 * thread, nested properly; no rcu_synchronize() or rcu_barrier() inside.
 */
class rcu_domain {
    public:
	rcu_domain(const rcu_domain &) = delete;
	rcu_domain &operator=(const rcu_domain &) = delete;

	void lock() noexcept RCULIST_ACQUIRES_RCU RCULIST_NO_RCU_ANALYSIS
	{
#if RCULIST__CXX_INLINE
		rculist__rs_read_lock(detail::lock_first, detail::qsbr_lock,
				      detail::lock_other);
#else
		detail::thread_state &t = detail::tls;

		if (RCULIST__LIKELY(detail::mode_of(t) == detail::calls))
			detail::read_lock();
		else
			detail::lock_slow(t);
#endif
	}
	bool try_lock() noexcept
		RCULIST__TSA(try_acquire_shared_capability(true, rculist_rcu))
			RCULIST_NO_RCU_ANALYSIS
	{
		lock();
		return true;
	}
	void unlock() noexcept RCULIST_RELEASES_RCU RCULIST_NO_RCU_ANALYSIS
	{
#if RCULIST__CXX_INLINE
		rculist__rs_read_unlock(detail::qsbr_unlock,
					detail::unlock_other);
#else
		detail::thread_state &t = detail::tls;

		if (RCULIST__LIKELY(detail::mode_of(t) == detail::calls))
			detail::read_unlock();
		else
			detail::unlock_slow(t);
#endif
	}

    private:
	constexpr rcu_domain() noexcept = default;
	friend rcu_domain &rcu_default_domain() noexcept;
};

/**
 * rcu_default_domain - the one rcu_domain
 *
 * Context: any thread; the same object every call; constant initialised.
 */
inline rcu_domain &rcu_default_domain() noexcept
{
	static rcu_domain dom;
	return dom;
}

/**
 * rcu_synchronize - wait until every region of RCU protection that began before the call has ended
 *
 * rculist_synchronize_rcu().  Context: outside any region (reported and
 * aborted inside one, as rculist_synchronize_rcu() says); blocks.
 */
inline void
rcu_synchronize(rcu_domain &dom = rcu_default_domain()) noexcept RCULIST_EXCLUDES_RCU
{
	(void)dom;
	rculist_synchronize_rcu();
}

/**
 * rcu_barrier - wait until every deleter retired before the call has run
 *
 * rculist_rcu_barrier(): covers rcu_obj_base::retire(), rcu_retire(),
 * rculist_call_rcu() and rculist_free_rcu() of every thread.  Context:
 * outside any region; not from a deleter; blocks.
 */
inline void
rcu_barrier(rcu_domain &dom = rcu_default_domain()) noexcept RCULIST_EXCLUDES_RCU
{
	(void)dom;
	rculist_rcu_barrier();
}

/**
 * rcu_obj_base - base of an object deleted after a grace period, with no allocation
 *
 * struct route : rculist::rcu_obj_base<route> { ... }: route::retire(d)
 * stores the deleter in the object and queues it by an rcu_head kept in
 * the object too: deleter(this) runs once every region open at the call
 * has ended, batched with the thread's rculist_free_rcu() blocks, in
 * liburcu's call_rcu thread, in rcu_barrier()'s caller, or (most often)
 * in the retiring thread at one of its later retires or frees, inside
 * its region then and holding its locks, as C++26 allows: a deleter must
 * take no lock held across a retire, nor wait for a grace period.  Never
 * allocates, never throws.  D: default constructible, move assignable,
 * deleter(T *) must not throw; an empty D (std::default_delete) takes no
 * room: the base is one struct rcu_head.  Copies and moves copy the deleter only
 * (the rcu_head is scratch space).
 *
 * Context: retire() once per object, from any thread, inside a region
 * too; the object must be unreachable for readers that start after it.
 */
template <class T, class D = std::default_delete<T>>
class rcu_obj_base : private detail::rcu_node, private detail::deleter_box<D> {
    public:
	void retire(D d = D(), rcu_domain &dom = rcu_default_domain()) noexcept
	{
		(void)dom;
		this->deleter() = std::move(d);
		detail::queue_retire(&this->rculist__head,
				     &rcu_obj_base::reclaim);
	}

    protected:
	rcu_obj_base() = default;
	rcu_obj_base(const rcu_obj_base &) = default;
	rcu_obj_base(rcu_obj_base &&) = default;
	rcu_obj_base &operator=(const rcu_obj_base &) = default;
	rcu_obj_base &operator=(rcu_obj_base &&) = default;
	~rcu_obj_base() = default;

    private:
	static void reclaim(struct rcu_head *head) noexcept
	{
		rcu_obj_base *base = static_cast<rcu_obj_base *>(
			reinterpret_cast<detail::rcu_node *>(head));

		base->deleter()(static_cast<T *>(base));
	}
};

/**
 * rcu_retire - delete any object after a grace period
 * @p: the object, unreachable for readers that start after the call
 * @d: called as d(p) once every region open at the call has ended
 *
 * Allocates a small node (the pointer, the deleter, an rcu_head): throws
 * std::bad_alloc if it cannot, and then schedules nothing.  Prefer
 * rcu_obj_base::retire(), which never allocates.  d(p) runs where
 * rcu_obj_base's deleters do (the retiring thread included).
 *
 * Context: any thread, inside a region too; rcu_barrier() waits for it.
 */
template <class T, class D = std::default_delete<T>>
void rcu_retire(T *p, D d = D(), rcu_domain &dom = rcu_default_domain())
{
	static_assert(std::is_move_constructible<D>::value,
		      "rcu_retire: the deleter must be move constructible");
	(void)dom;
	auto *r = new detail::retired<T, D>(p, std::move(d));
	detail::queue_retire(&r->rculist__head, &detail::retired<T, D>::reclaim);
}

/**
 * rcu_entries - a reader's range-for over the elements of a list
 * @head: a struct cds_list_head or cds_hlist_head, possibly shared with C
 *
 * for (route &r : rculist::rcu_entries<&route::node>(routes)): the walk
 * of cds_list_for_each_entry_rcu() (or cds_hlist_for_each_entry_rcu_2()
 * for an hlist), each link loaded once, dependency-ordered.  No copy, no
 * allocation: the range is the head's address.
 *
 * Context: inside a region of RCU protection (clang -Wthread-safety
 * warns outside); updaters may add, delete and replace concurrently.
 */
template <auto M, detail::require_link<M, struct cds_list_head> = 0>
inline detail::list_range<M, true>
rcu_entries(struct cds_list_head &head RCULIST__CXX_SITE) noexcept RCULIST_REQUIRES_RCU
{
	RCULIST__CXX_CHECK_READER("rculist::rcu_entries");
	return detail::list_range<M, true>(&head);
}
template <auto M, detail::require_link<M, struct cds_hlist_node> = 0>
inline detail::hlist_range<M, true>
rcu_entries(struct cds_hlist_head &head RCULIST__CXX_SITE) noexcept RCULIST_REQUIRES_RCU
{
	RCULIST__CXX_CHECK_READER("rculist::rcu_entries");
	return detail::hlist_range<M, true>(&head);
}

/**
 * entries - the updater's range-for over the elements of a list
 * @head: a struct cds_list_head or cds_hlist_head
 *
 * Plain loads; the next link is read before the body runs, so the body
 * may delete (and retire) the element it is given.  Context: the caller
 * owns the list (holds the updaters' lock).
 */
template <auto M, detail::require_link<M, struct cds_list_head> = 0>
inline detail::list_range<M, false> entries(struct cds_list_head &head) noexcept
{
	return detail::list_range<M, false>(&head);
}
template <auto M, detail::require_link<M, struct cds_hlist_node> = 0>
inline detail::hlist_range<M, false> entries(struct cds_hlist_head &head) noexcept
{
	return detail::hlist_range<M, false>(&head);
}

/*
 * Typed updates: the C operation on the element's link &(e.*M).  Context
 * as the C operation's: the updaters' lock held; the _rcu forms let
 * readers walk concurrently, and what they remove is retired, not freed.
 */
#define RCULIST__CXX_OP1(name, linktype, cop)                           \
	template <auto M, detail::require_link<M, struct linktype> = 0> \
	inline void name(typename detail::member<M>::type &e) noexcept  \
	{                                                               \
		cop(&(e.*M));                                           \
	}
#define RCULIST__CXX_OP2(name, linktype, headtype, cop)                 \
	template <auto M, detail::require_link<M, struct linktype> = 0> \
	inline void name(typename detail::member<M>::type &e,           \
			 struct headtype &head) noexcept                \
	{                                                               \
		cop(&(e.*M), &head);                                    \
	}
#define RCULIST__CXX_REPLACE(name, linktype, cop)                       \
	template <auto M, detail::require_link<M, struct linktype> = 0> \
	inline void name(typename detail::member<M>::type &old,         \
			 typename detail::member<M>::type &e) noexcept  \
	{                                                               \
		cop(&(old.*M), &(e.*M));                                \
	}

RCULIST__CXX_OP2(list_add, cds_list_head, cds_list_head, cds_list_add)
RCULIST__CXX_OP2(list_add_tail, cds_list_head, cds_list_head, cds_list_add_tail)
RCULIST__CXX_OP1(list_del, cds_list_head, cds_list_del)
RCULIST__CXX_REPLACE(list_replace, cds_list_head, cds_list_replace)
RCULIST__CXX_OP2(list_add_rcu, cds_list_head, cds_list_head, cds_list_add_rcu)
RCULIST__CXX_OP2(list_add_tail_rcu, cds_list_head, cds_list_head,
		 cds_list_add_tail_rcu)
RCULIST__CXX_OP1(list_del_rcu, cds_list_head, cds_list_del_rcu)
RCULIST__CXX_REPLACE(list_replace_rcu, cds_list_head, cds_list_replace_rcu)
RCULIST__CXX_OP2(hlist_add_head, cds_hlist_node, cds_hlist_head,
		 cds_hlist_add_head)
RCULIST__CXX_OP1(hlist_del, cds_hlist_node, cds_hlist_del)
RCULIST__CXX_OP2(hlist_add_head_rcu, cds_hlist_node, cds_hlist_head,
		 cds_hlist_add_head_rcu)
RCULIST__CXX_OP1(hlist_del_rcu, cds_hlist_node, cds_hlist_del_rcu)
RCULIST__CXX_REPLACE(hlist_replace_rcu, cds_hlist_node, cds_hlist_replace_rcu)
#undef RCULIST__CXX_OP1
#undef RCULIST__CXX_SITE
#undef RCULIST__CXX_CHECK_READER
#undef RCULIST__CXX_OP2
#undef RCULIST__CXX_REPLACE
} // namespace rculist

#ifdef RCULIST__HAS_TSA
/*
 * clang's thread-safety analysis sees a region opened by std::scoped_lock
 * and std::lock_guard on the domain: libstdc++'s lock types carry no
 * annotation, so these specialisations (allowed: they depend on a type
 * that is not the library's) are the standard's, annotated.  Only where
 * the analysis exists; the code is the same.  std::unique_lock is not
 * specialised: the analysis does not see a region it opens.
 */
namespace std {
template <>
class RCULIST__TSA(scoped_lockable) scoped_lock<rculist::rcu_domain> {
	rculist::rcu_domain &dom_;

    public:
	using mutex_type = rculist::rcu_domain;
	explicit scoped_lock(rculist::rcu_domain &dom) noexcept RCULIST_ACQUIRES_RCU
	    : dom_(dom)
	{
		dom_.lock();
	}
	scoped_lock(adopt_lock_t, rculist::rcu_domain &dom) noexcept
		RCULIST__TSA(requires_shared_capability(rculist_rcu))
	    : dom_(dom)
	{
	}
	~scoped_lock() RCULIST__TSA(release_capability())
	{
		dom_.unlock();
	}
	scoped_lock(const scoped_lock &) = delete;
	scoped_lock &operator=(const scoped_lock &) = delete;
};
template <>
class RCULIST__TSA(scoped_lockable) lock_guard<rculist::rcu_domain> {
	rculist::rcu_domain &dom_;

    public:
	using mutex_type = rculist::rcu_domain;
	explicit lock_guard(rculist::rcu_domain &dom) noexcept RCULIST_ACQUIRES_RCU
	    : dom_(dom)
	{
		dom_.lock();
	}
	lock_guard(rculist::rcu_domain &dom, adopt_lock_t) noexcept
		RCULIST__TSA(requires_shared_capability(rculist_rcu))
	    : dom_(dom)
	{
	}
	~lock_guard() RCULIST__TSA(release_capability())
	{
		dom_.unlock();
	}
	lock_guard(const lock_guard &) = delete;
	lock_guard &operator=(const lock_guard &) = delete;
};
} // namespace std
#endif

#endif /* RCULIST_RCU_HPP */
