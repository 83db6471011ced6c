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

#endif /* RCULIST_COMPILER_H */
