/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculist/compiler.h - the internal barrier and dereference interface.
 *
 * Every list operation in rculist is written against the few primitives
 * below, never against a flavour or an architecture:
 *
 *   rculist__publish(p, v)   store-release: everything written to the
 *                            object @v before this store is visible to a
 *                            reader that loads @v through rculist__deref().
 *   rculist__deref(p)        dependency-ordered load (C11 consume): a
 *                            reader may follow the loaded pointer.
 *   rculist__store_once(p,v) a single untorn store, no ordering; used for
 *                            links that readers may follow but that point
 *                            at an object they could already reach.
 *   rculist__load_once(p)    a single untorn load, no ordering.
 *
 * These are the GCC/Clang __atomic builtins, so they mean the same thing
 * in C and C++, cost a plain move on x86-64 and the cheapest correct
 * instruction elsewhere, and are understood by ThreadSanitizer.
 *
 * Nothing here is public API: names with a double underscore may change.
 */
#ifndef RCULIST_COMPILER_H
#define RCULIST_COMPILER_H

#include <stddef.h>

#define rculist__publish(p, v)		__atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#define rculist__deref(p)		__atomic_load_n(&(p), __ATOMIC_CONSUME)
#define rculist__store_once(p, v)	__atomic_store_n(&(p), (v), __ATOMIC_RELAXED)
#define rculist__load_once(p)		__atomic_load_n(&(p), __ATOMIC_RELAXED)

/*
 * The type an iterator's cursor points to, and the cursor's own type.
 * C uses the GNU __typeof__ (accepted by -std=c99 -pedantic); C++ uses
 * decltype on the cursor variable, which names a pointer type and never
 * a reference.
 */
#ifdef __cplusplus
/*
 * decltype((p)) of a parenthesised cursor is a reference: accept T *&
 * too.  The alias needs no "typename" inside templates, where the
 * cursor's type is dependent.
 */
template <class T> struct rculist__pointee;
template <class T> struct rculist__pointee<T *> { typedef T type; };
template <class T> struct rculist__pointee<T *&> { typedef T type; };
template <class T> using rculist__pointee_t = typename rculist__pointee<T>::type;
#define RCULIST__TYPEOF(p)	rculist__pointee_t<decltype(p)> *
#define RCULIST__POINTEE(p)	rculist__pointee_t<decltype(p)>
#else
#define RCULIST__TYPEOF(p)	__typeof__(p)
#define RCULIST__POINTEE(p)	__typeof__(*(p))
#endif

/*
 * The structure of type @type whose field at byte @offset is at @ptr.
 * @ptr may point to const (a reader's cursor, a const list in a
 * checker): going through an integer keeps -Wcast-qual quiet, as the
 * kernel's container_of() drops const too.
 */
#define rculist__container_at(ptr, type, offset)			\
	((type *)(void *)((char *)(size_t)(const void *)(ptr) - (offset)))
#define rculist__container_of(ptr, type, member)			\
	rculist__container_at(ptr, type, offsetof(type, member))

/*
 * The link a list macro is given must be of the list's node type:
 * offsetof(type, member) alone would accept any member, and the macro
 * would then compute a wrong element from a right pointer.  So every
 * *_entry macro and iterator takes the member's offset through
 * RCULIST__MEMBER_OFFSETOF(), which refuses, at compile time, a member
 * that is not a @node, with the message @msg:
 *
 *   C11  a _Static_assert in a structure inside sizeof, on
 *        __builtin_types_compatible_p (which ignores qualifiers: a
 *        const element type is fine);
 *   C99  the same test as the width of a bit-field named @checker, -1
 *        when it fails (-std=c99 has no _Static_assert, and glibc's
 *        <sys/cdefs.h> redefines the name as a declaration that cannot
 *        sit in a structure): the compiler names the field;
 *   C++  sizeof of the class template @checker, whose static_assert
 *        compares the member's type, stripped of reference and
 *        cv-qualifiers, with @node; RCULIST__DEFINE_MEMBER_CHECK()
 *        defines that template once per node type.
 *
 * Both are unevaluated operands of sizeof, folded into the constant
 * offset: no argument is evaluated, no code is generated
 * (make check-debug-zero-cost compares the object code with and
 * without them), and the result is still an integer constant.
 */
#ifdef __cplusplus
extern "C++" {
template <class T> struct rculist__bare { typedef T type; };
template <class T> struct rculist__bare<T &> : rculist__bare<T> {};
template <class T> struct rculist__bare<const T> : rculist__bare<T> {};
template <class T> struct rculist__bare<volatile T> : rculist__bare<T> {};
template <class T> struct rculist__bare<const volatile T> : rculist__bare<T> {};
template <class T, class U> struct rculist__same { enum { value = 0 }; };
template <class T> struct rculist__same<T, T> { enum { value = 1 }; };
}
#define RCULIST__DEFINE_MEMBER_CHECK(checker, node, msg)		\
	extern "C++" {							\
	template <class T> struct checker {				\
		static_assert(rculist__same<typename rculist__bare<T>::type, \
					    node>::value, msg);		\
	};								\
	}
#define RCULIST__MEMBER_OFFSETOF(type, member, checker, node, msg)	\
	(offsetof(type, member) +					\
	 0 * sizeof(checker<decltype(((type *)0)->member)>))
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define RCULIST__DEFINE_MEMBER_CHECK(checker, node, msg)
#define RCULIST__MEMBER_OFFSETOF(type, member, checker, node, msg)	\
	(offsetof(type, member) +					\
	 0 * sizeof(struct {						\
		_Static_assert(__builtin_types_compatible_p(		\
			__typeof__(((type *)0)->member), node), msg);	\
		char rculist__unused;					\
	}))
#else
#define RCULIST__DEFINE_MEMBER_CHECK(checker, node, msg)
#define RCULIST__MEMBER_OFFSETOF(type, member, checker, node, msg)	\
	(offsetof(type, member) +					\
	 0 * sizeof(struct {						\
		unsigned int checker : __builtin_types_compatible_p(	\
			__typeof__(((type *)0)->member), node) ? 1 : -1; \
	}))
#endif

/*
 * Unique names for the hidden variables of iterators, so that nested
 * loops neither shadow each other (-Wshadow) nor evaluate an argument
 * twice.  RCULIST__UNIQ(x) must be expanded once and passed on as a
 * macro argument, so that every use sees the same name.
 */
#define RCULIST__CAT2(a, b)	a##b
#define RCULIST__CAT(a, b)	RCULIST__CAT2(a, b)
#define RCULIST__UNIQ(x)	RCULIST__CAT(rculist__##x##_, __COUNTER__)

/*
 * An iterator with an optional last argument takes "..." for its last
 * parameter (-std=c99 -pedantic wants at least one argument there):
 * RCULIST__ARG1(__VA_ARGS__) is that parameter, and RCULIST__ARG4()
 * picks a macro by the number of arguments (see RCULIST__ITER_CHECK()).
 */
#define RCULIST__ARG1(...)		RCULIST__ARG1_(__VA_ARGS__, ~)
#define RCULIST__ARG1_(a, ...)		a
#define RCULIST__ARG4(a, b, c, d, ...)	d

#if defined(__GNUC__) || defined(__clang__)
#define RCULIST__LIKELY(x)	__builtin_expect(!!(x), 1)
#define RCULIST__UNLIKELY(x)	__builtin_expect(!!(x), 0)
#else
#define RCULIST__LIKELY(x)	(x)
#define RCULIST__UNLIKELY(x)	(x)
#endif

#ifdef __cplusplus
#define RCULIST__BEGIN_DECLS	extern "C" {
#define RCULIST__END_DECLS	}
#else
#define RCULIST__BEGIN_DECLS
#define RCULIST__END_DECLS
#endif

/*
 * Clang's thread-safety analysis (-Wthread-safety) sees the RCU read
 * side as a shared capability, rculist_rcu: rculist_read_lock() acquires
 * it, rculist_read_unlock() releases it, the _rcu iterators and
 * accessors require it, and the calls that wait for a grace period
 * exclude it (docs/thread-safety.md).  RCULIST__TSA(attribute) is the
 * attribute where the compiler has it (clang) and nothing elsewhere: gcc
 * sees no attribute, and clang without the flag generates the same code
 * (the attributes are checks, never code; make check-thread-safety).
 */
#if defined(__has_attribute)
#if __has_attribute(capability) && __has_attribute(requires_shared_capability)
#define RCULIST__HAS_TSA 1
#endif
#endif
#ifdef RCULIST__HAS_TSA
#define RCULIST__TSA(attr)	__attribute__((attr))
struct __attribute__((capability("RCU read-side section"))) rculist__rcu_capability {
	char rculist__unused;
};
RCULIST__BEGIN_DECLS
/**
 * rculist_rcu - the RCU read side, as clang's thread-safety analysis names it
 *
 * The shared capability that rculist_read_lock() acquires and
 * rculist_read_unlock() releases, and that the _rcu iterators and
 * accessors require: clang's warnings name it ("requires holding RCU
 * read-side section 'rculist_rcu'").  Declared only where the compiler
 * has the analysis's attributes (clang), and never defined: programs
 * name it through RCULIST_REQUIRES_RCU and its siblings, never in code.
 *
 * Context: a name for the analysis; there is no object.
 */
extern const struct rculist__rcu_capability rculist_rcu;
RCULIST__END_DECLS
/*
 * What an _rcu iterator or accessor requires: a call that the analysis
 * checks and that generates no code, inlined even at -O0.
 */
static inline __attribute__((always_inline)) void rculist__rcu_reader(void)
	__attribute__((requires_shared_capability(rculist_rcu)))
{
}
#define RCULIST__RCU_READER()	rculist__rcu_reader()
#else
#define RCULIST__TSA(attr)
#define RCULIST__RCU_READER()	((void)0)
#endif

/**
 * RCULIST_REQUIRES_RCU - a function that must be called inside a read-side critical section
 *
 * Put after a function's parameter list, as the kernel's __must_hold(RCU):
 * clang -Wthread-safety then accepts the _rcu iterators and accessors in
 * its body without a rculist_read_lock() there, and warns about a caller
 * that is not inside a section.  Nothing for other compilers.
 *
 *	static struct route *lookup(struct table *t, unsigned key)
 *		RCULIST_REQUIRES_RCU;
 *
 * Context: a function attribute, in a declaration or a definition.
 */
#define RCULIST_REQUIRES_RCU	RCULIST__TSA(requires_shared_capability(rculist_rcu))
/**
 * RCULIST_ACQUIRES_RCU - a function that returns inside a read-side critical section it opened
 *
 * For a function that calls rculist_read_lock() and returns without the
 * matching rculist_read_unlock() (a lookup that leaves its caller in the
 * section): clang -Wthread-safety then counts the section open in the
 * caller after the call, and checks that the function's body does open
 * it.  rculist_read_lock() is declared with it.
 *
 * Context: a function attribute, in a declaration or a definition.
 */
#define RCULIST_ACQUIRES_RCU	RCULIST__TSA(acquire_shared_capability(rculist_rcu))
/**
 * RCULIST_RELEASES_RCU - a function that ends the read-side critical section its caller opened
 *
 * The partner of RCULIST_ACQUIRES_RCU: the function calls
 * rculist_read_unlock() for its caller.  rculist_read_unlock() is
 * declared with it.
 *
 * Context: a function attribute, in a declaration or a definition.
 */
#define RCULIST_RELEASES_RCU	RCULIST__TSA(release_shared_capability(rculist_rcu))
/**
 * RCULIST_EXCLUDES_RCU - a function that must not be called inside a read-side critical section
 *
 * For a function that waits for a grace period, directly or not: clang
 * -Wthread-safety warns about a call made inside a section.
 * rculist_synchronize_rcu(), rculist_cond_synchronize_rcu(),
 * rculist_rcu_barrier() and the splices that wait are declared with it.
 * The analysis is per function: a caller that is itself called inside a
 * section is only caught if it is marked RCULIST_EXCLUDES_RCU too.
 *
 * Context: a function attribute, in a declaration or a definition.
 */
#define RCULIST_EXCLUDES_RCU	RCULIST__TSA(locks_excluded(rculist_rcu))
/**
 * RCULIST_NO_RCU_ANALYSIS - a function that clang's thread-safety analysis does not check
 *
 * For a function whose read-side sections the analysis cannot follow: a
 * section opened in one branch and closed in another, nested sections in
 * one function (clang 14 has no reentrant capabilities), a test that
 * misuses the API on purpose.  It turns off the whole analysis for that
 * function, the program's own locks' included (clang has no finer
 * switch), and changes nothing at run time: debug mode (-DRCULIST_DEBUG)
 * still checks the function.
 *
 * Context: a function attribute, in a declaration or a definition.
 */
#define RCULIST_NO_RCU_ANALYSIS	RCULIST__TSA(no_thread_safety_analysis)

#endif /* RCULIST_COMPILER_H */
