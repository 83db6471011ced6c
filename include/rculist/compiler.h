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
 * The structure of type @type whose field @member is at @ptr.  @ptr may
 * point to const (a reader's cursor, a const list in a checker): going
 * through an integer keeps -Wcast-qual quiet, as the kernel's
 * container_of() drops const too.
 */
#define rculist__container_of(ptr, type, member)			\
	((type *)(void *)((char *)(size_t)(const void *)(ptr) -	\
			  offsetof(type, member)))

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
