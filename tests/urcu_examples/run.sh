#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/urcu_examples/run.sh OUT: liburcu's own examples (list/, hlist/,
# urcu-flavors/ of liburcu-dev's doc/examples) built as shipped against
# liburcu, and again ported to rculist the ways rculist-migration(7)
# describes; every build run, its stdout, stderr and exit status compared
# with the shipped build's.  The examples are liburcu's, not ours: they
# are read from liburcu-dev's documentation (URCU_EXAMPLES_DOC), or
# downloaded with `apt-get download` when a minimal system left that
# out, into OUT; never kept in this tree.
#
# The variants of an example whose flavour rculist has (memb, qsbr, bp,
# mb; <urcu.h> is memb), each linked with -lrculist-<its flavour> and
# liburcu's flavour library:
#   beside       each liburcu list header replaced by <rculist.h>, after
#                the flavour header; liburcu's calls kept (beside.sed)
#   beside-lgpl  the same under -D_LGPL_SOURCE (the flavour header then
#                brings liburcu's <urcu/list.h> in before <rculist.h>)
#   first        <rculist.h> added before everything, nothing else
#                changed: liburcu's list headers then are no-ops
#                (first.sed)
# and for every example, signal's too:
#   ported-<f>   the fully ported form (ported.sed: no liburcu flavour
#                header, rculist_* calls), linked with -lrculist-<f>
#                alone, for each f of FLAVORS
#   inline-<f>   the same with the read side inlined (-DRCULIST_INLINE_<F>,
#                rculist/inline.h), linked with liburcu's flavour too;
#                for the examples that make read-side calls
#   debug-<f>    the same in debug mode (-DRCULIST_DEBUG), for the
#                flavours whose contract the example keeps (bp's under
#                bp alone, qsbr's under none: see below)
# All are compiled with the examples' own flags (their Makefiles'
# template) and -Werror.
#
# From the environment (tests/urcu_examples/urcu_examples.mk sets them):
# CC; UEX_CFLAGS (after the examples' flags); UEX_URCU_CPPFLAGS and
# UEX_URCU_LDFLAGS (liburcu's headers and library directory);
# UEX_RCULIST_CPPFLAGS and UEX_RCULIST_LDFLAGS (ours); URCU_LIBS_<f>
# (liburcu's flavour f with its common part); FLAVORS;
# URCU_EXAMPLES_DOC, URCU_EXAMPLES_DEB (the package that ships them).
set -u
out=${1:?usage: run.sh OUT}
here=$(dirname "$0")
dirs="list hlist urcu-flavors"
: "${URCU_EXAMPLES_DOC:=/usr/share/doc/liburcu-dev/examples}"
: "${URCU_EXAMPLES_DEB:=liburcu-dev}"
# Seconds a build of an example may run (they take at most 1 s).
: "${URCU_EXAMPLES_TIMEOUT:=60}"

# The examples: in the package's documentation, else from the package
# itself, the version installed if dpkg knows one (kept for the next run).
fetch()
{
	deb=$out/deb
	# The native architecture's (liburcu-dev:arm64 may be there too).
	ver=$(dpkg-query -W -f='${Version}\n' \
		"$URCU_EXAMPLES_DEB:$(dpkg --print-architecture 2>/dev/null)" 2>/dev/null | head -n 1)
	src=$deb/root/usr/share/doc/$URCU_EXAMPLES_DEB/examples
	if [ -n "$ver" ] && [ "$(cat "$deb/version" 2>/dev/null)" = "$URCU_EXAMPLES_DEB=$ver" ] &&
		[ -d "$src/list" ]; then
		return 0
	fi
	echo "== urcu-examples: $URCU_EXAMPLES_DOC absent, fetching package $URCU_EXAMPLES_DEB${ver:+=$ver} (apt-get download)"
	rm -rf "$deb" && mkdir -p "$deb" || return 1
	(cd "$deb" && apt-get download -q "$URCU_EXAMPLES_DEB${ver:+=$ver}") \
		>"$deb/apt.log" 2>&1 || return 1
	dpkg-deb -x "$deb"/*.deb "$deb/root" 2>>"$deb/apt.log" || return 1
	[ -d "$src/list" ] || return 1
	echo "$URCU_EXAMPLES_DEB=$ver" >"$deb/version"
}
src=$URCU_EXAMPLES_DOC
if ! [ -d "$src/list" ]; then
	fetch || {
		echo "check-urcu-examples: liburcu's examples not found in $URCU_EXAMPLES_DOC nor fetched: package $URCU_EXAMPLES_DEB (apt-get download failed${deb:+, see $deb/apt.log})" >&2
		exit 1
	}
fi
echo "== urcu-examples: $src"

# A copy to work on; dh_compress may have gzipped some files.
rm -rf "${out:?}/src" "${out:?}/bin" && mkdir -p "$out/src" "$out/bin" || exit 1
for d in $dirs; do
	cp -R "$src/$d" "$out/src/" || { echo "check-urcu-examples: no $d/ in $src (package $URCU_EXAMPLES_DEB)" >&2; exit 1; }
done
find "$out/src" -name '*.gz' -exec gunzip -f {} +
# Every build with the examples' own flags (their Makefiles' template),
# warnings as errors: rculist must add none to a build that had none.
tpl=$src/Makefile.examples.template
ex_cflags=$(sed -n 's/^LOCAL_CFLAGS[[:space:]]*:*=[[:space:]]*//p' "$tpl" 2>/dev/null)
: "${ex_cflags:=-g -O2 -Wall}"
cflags="$ex_cflags -Werror $UEX_CFLAGS"

fails=0 progs=0 nex=0
fail()
{
	echo "urcu-examples: $*" >&2
	fails=$((fails + 1))
}

# compile NAME TAG FLAVOURS SED CPPFLAGS: the example's source through
# SED (none: as shipped), compiled to bin/NAME.TAG.o, for FLAVOURS; link
# NAME VARIANT FLAVOUR TAG LIBS: that object linked to bin/NAME.VARIANT,
# to be run.
compile()
{
	o=$out/bin/$(echo "$1" | tr / _).$2
	rm -f "$o.o"
	if [ "$4" = none ]; then
		cp "$out/src/$1.c" "$o.c"
	else
		sed -f "$here/$4.sed" "$out/src/$1.c" >"$o.c" || return 1
		# An example whose includes the mapping misses would be
		# built against liburcu alone, proving nothing.
		if ! grep -q '^#include <rculist.h>' "$o.c"; then
			fail "$1 ($2): $4.sed found no header to replace by <rculist.h>"
			return 1
		fi
	fi
	# shellcheck disable=SC2086 # flags are word lists
	$CC $cflags $5 -c "$o.c" -o "$o.o" >"$o.err" 2>&1 && return 0
	fail "$1 ($2, flavour $3) does not compile:"
	cat "$o.err" >&2
	return 1
}
link()
{
	o=$out/bin/$(echo "$1" | tr / _).$4.o
	b=$out/bin/$(echo "$1" | tr / _).$2
	[ -f "$o" ] || return 1
	# shellcheck disable=SC2086 # flags are word lists
	if ! $CC $cflags "$o" -o "$b" $5 >"$b.err" 2>&1; then
		fail "$1 ($2, flavour $3) does not link:"
		cat "$b.err" >&2
		return 1
	fi
	progs=$((progs + 1))
	echo "$1 $2 $3 $b" >>"$out/bin/runs"
}

for d in $dirs; do
	for mk in "$out/src/$d"/Makefile.*; do
		[ -f "$mk" ] || continue
		name=$d/${mk##*/Makefile.}
		if ! [ -f "$out/src/$name.c" ]; then
			fail "$name: $mk names no $name.c"
			continue
		fi
		nex=$((nex + 1))
		libs=$(sed -n 's/^LIBS[[:space:]]*=[[:space:]]*//p' "$mk")
		# The example's flavour, from its flavour header.
		inc='^#[[:space:]]*include[[:space:]]*[<"]'
		fl=$(sed -n "s%${inc}urcu/urcu-\\([a-z]*\\)\\.h[>\"].*%\\1%p; s%${inc}urcu\\.h[>\"].*%memb%p" \
			"$out/src/$name.c" | head -n 1)
		rm -f "$out/bin/runs"
		ucpp=$UEX_URCU_CPPFLAGS rcpp="$UEX_RCULIST_CPPFLAGS $UEX_URCU_CPPFLAGS"
		compile "$name" liburcu "${fl:-none}" none "$ucpp" &&
			link "$name" liburcu "${fl:-none}" liburcu "$UEX_URCU_LDFLAGS $libs"
		case " $FLAVORS " in
		*" $fl "*)
			ul=
			eval "ul=\${URCU_LIBS_$fl-}"
			rl="$UEX_RCULIST_LDFLAGS -lrculist-$fl $ul"
			compile "$name" beside "$fl" beside "$rcpp" &&
				link "$name" beside "$fl" beside "$rl"
			compile "$name" beside-lgpl "$fl" beside "-D_LGPL_SOURCE $rcpp" &&
				link "$name" beside-lgpl "$fl" beside-lgpl "$rl"
			compile "$name" first "$fl" first "$rcpp" &&
				link "$name" first "$fl" first "$rl"
			;;
		*)
			echo "   $name: flavour ${fl:-unknown} is not rculist's: the ported forms only"
			;;
		esac
		compile "$name" ported "$FLAVORS" ported "$rcpp"
		# Debug mode checks the contract common to all flavours
		# (register, then walk inside rculist_read_lock()): bp's
		# example does not register, which only bp allows; qsbr's
		# walks outside a section.  Debug mode rightly reports
		# both, so they are built in it only where they are right.
		# (Without it, bp's example runs unregistered under the
		# other flavours: single-threaded, its output is still
		# liburcu's.)
		case $fl in
		bp) dbg=bp ;;
		qsbr) dbg= ;;
		*) dbg=$FLAVORS ;;
		esac
		[ -z "$dbg" ] || compile "$name" debug "$dbg" ported "-DRCULIST_DEBUG $rcpp" || dbg=
		# Inlining changes the read-side calls alone.
		inl=
		! grep -q 'rculist_\(read_\|quiescent_state\)' "$out/bin/$(echo "$name" | tr / _).ported.c" ||
			inl=1
		for f in $FLAVORS; do
			link "$name" "ported-$f" "$f" ported "$UEX_RCULIST_LDFLAGS -lrculist-$f"
			[ -n "$inl" ] || continue
			F=$(echo "$f" | tr '[:lower:]' '[:upper:]')
			ul=
			eval "ul=\${URCU_LIBS_$f-}"
			compile "$name" "inline-$f" "$f" ported "-DRCULIST_INLINE_$F $rcpp" &&
				link "$name" "inline-$f" "$f" "inline-$f" \
					"$UEX_RCULIST_LDFLAGS -lrculist-$f $ul"
		done
		for f in $dbg; do
			link "$name" "debug-$f" "$f" debug "$UEX_RCULIST_LDFLAGS -lrculist-$f"
		done
		[ -f "$out/bin/runs" ] || continue

		# Every build of the example at once (qsbr's sleeps a second).
		while read -r n v f b; do
			{ timeout "$URCU_EXAMPLES_TIMEOUT" "$b" </dev/null >"$b.out" 2>"$b.stderr"; echo $? >"$b.status"; } &
		done <"$out/bin/runs"
		wait
		ref=$out/bin/$(echo "$name" | tr / _).liburcu
		if ! [ -x "$ref" ]; then
			fail "$name: the shipped build failed, nothing to compare with"
			continue
		fi
		if [ "$(cat "$ref.status")" != 0 ] || ! [ -s "$ref.out" ]; then
			fail "$name (liburcu, as shipped) exited $(cat "$ref.status") with output:"
			cat "$ref.out" "$ref.stderr" >&2
			continue
		fi
		while read -r n v f b; do
			[ "$b" = "$ref" ] && continue
			if [ "$(cat "$b.status")" = 124 ]; then
				fail "$n ($v, flavour $f) did not end within $URCU_EXAMPLES_TIMEOUT s"
				continue
			fi
			for s in out stderr status; do
				cmp -s "$ref.$s" "$b.$s" && continue
				fail "$n ($v, flavour $f): its $s differs from liburcu's build (- liburcu, + rculist):"
				diff -u "$ref.$s" "$b.$s" | tail -n +3 >&2
			done
		done <"$out/bin/runs"
		echo "   $name: $(wc -l <"$out/bin/runs") builds, $(wc -l <"$ref.out") lines of output"
	done
done

[ "$nex" -gt 0 ] || fail "no example found under $src ($dirs)"
if [ "$fails" -gt 0 ]; then
	echo "urcu-examples: $fails failures ($nex examples, $progs programs built)" >&2
	exit 1
fi
echo "== urcu-examples: $nex examples, $progs programs, each the same as liburcu's build"
