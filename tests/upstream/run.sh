#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/upstream/run.sh - make check-liburcu: rculist's checks against a
# liburcu other than the system's.  From the environment:
#   URCU_PREFIX  an installed liburcu (its lib*/pkgconfig/liburcu-*.pc), or
#   URCU_SRC     a liburcu git repository (URCU_REF, default HEAD,
#                exported with git archive; a work tree only with
#                URCU_REF) or source tree (copied, as it is, at every
#                run), built with ./bootstrap (if it has no
#                configure), ./configure, make and make install into
#                UPS_B/<name>/prefix; kept there for the next run from
#                the same source and ref
#   UPS_B        where everything goes (build/upstream)
#   UPS_CHECKS   the checks, run by `make check CHECKS=...` in a build
#                directory of their own, UPS_B/<name>/build (emptied
#                first), with PKG_CONFIG_PATH naming liburcu's prefix
#   UPS_JOBS     make -j for liburcu's build
#   MAKE         make, and MAKEFLAGS as the caller's
# Then requires that rculist's libraries load liburcu from that prefix.
# Any failure: one line on stderr, "check-liburcu: ...", status 1.
set -u
die() {
	echo "check-liburcu: $*" >&2
	exit 1
}
: "${MAKE:=make}" "${UPS_JOBS:=2}"
[ -n "${UPS_B:-}" ] && [ -n "${UPS_CHECKS:-}" ] || die "UPS_B and UPS_CHECKS must be set (run it as make check-liburcu)"
mkdir -p "$UPS_B" && UPS_B=$(cd "$UPS_B" && pwd) || die "cannot create $UPS_B"

if [ -n "${URCU_PREFIX:-}" ]; then
	[ -d "$URCU_PREFIX" ] || die "URCU_PREFIX=$URCU_PREFIX is not a directory"
	pc=$(find "$URCU_PREFIX"/lib* -maxdepth 3 -name liburcu-memb.pc 2>/dev/null | head -n 1)
	[ -n "$pc" ] || die "URCU_PREFIX=$URCU_PREFIX holds no lib*/pkgconfig/liburcu-memb.pc (not an installed liburcu)"
	pcdir=$(cd "${pc%/*}" && pwd)
	name=prefix-$(echo "$URCU_PREFIX" | tr -c 'A-Za-z0-9.\n' _)
elif [ -n "${URCU_SRC:-}" ]; then
	[ -e "$URCU_SRC" ] || die "URCU_SRC=$URCU_SRC does not exist"
	ref=${URCU_REF:-HEAD}
	if git --git-dir="$URCU_SRC" rev-parse --git-dir >/dev/null 2>&1; then
		git="git --git-dir=$URCU_SRC"
	elif git -C "$URCU_SRC" rev-parse --git-dir >/dev/null 2>&1 &&
		[ -n "${URCU_REF:-}" ]; then
		git="git -C $URCU_SRC"
	else
		git=
	fi
	if [ -n "$git" ]; then
		commit=$($git rev-parse --verify -q "$ref^{commit}") ||
			die "URCU_REF=$ref names no commit in $URCU_SRC"
		name=$($git describe --tags --always "$commit" | tr -c 'A-Za-z0-9.\n' _)
		origin="$URCU_SRC $commit"
	else
		[ -f "$URCU_SRC/configure.ac" ] ||
			die "URCU_SRC=$URCU_SRC is neither a git repository nor a source tree (no configure.ac)"
		name=tree-$(echo "$URCU_SRC" | tr -c 'A-Za-z0-9.\n' _)
		origin="$URCU_SRC (tree, copied at each run)"
	fi
	prefix=$UPS_B/$name/prefix
	pcdir=$prefix/lib/pkgconfig
	if [ -n "$git" ] && [ "$(cat "$prefix/.origin" 2>/dev/null)" = "$origin" ] &&
		[ -f "$pcdir/liburcu-memb.pc" ]; then
		echo "== check-liburcu: liburcu $name, built before in $prefix"
	else
		src=$UPS_B/$name/src log=$UPS_B/$name/build.log
		echo "== check-liburcu: building liburcu $name ($origin) into $prefix (log: $log)"
		rm -rf "$src" "$prefix" && mkdir -p "$src" || die "cannot create $src"
		if [ -n "$git" ]; then
			$git archive "$commit" | tar -x -C "$src" ||
				die "git archive $ref of $URCU_SRC failed"
		else
			cp -R "$URCU_SRC"/. "$src"/ || die "cannot copy $URCU_SRC"
		fi
		(
			cd "$src" &&
				{ [ -x configure ] || ./bootstrap; } &&
				./configure --prefix="$prefix" &&
				$MAKE -j"$UPS_JOBS" && $MAKE install
		) >"$log" 2>&1 || {
			tail -n 20 "$log" >&2
			die "liburcu $name did not build (bootstrap, configure, make, make install: log $log)"
		}
		[ -f "$pcdir/liburcu-memb.pc" ] || die "liburcu $name installed no $pcdir/liburcu-memb.pc"
		echo "$origin" >"$prefix/.origin"
		rm -rf "$src"
	fi
else
	die "name a liburcu: URCU_SRC=<liburcu git repository or source tree> [URCU_REF=<tag>] or URCU_PREFIX=<installed prefix>"
fi

export PKG_CONFIG_PATH="$pcdir"
ver=$(pkg-config --modversion liburcu-memb) || die "pkg-config finds no liburcu-memb in $pcdir"
libdir=$(pkg-config --variable=libdir liburcu-memb)
# Built afresh: an object compiled against another liburcu would not be
# remade (its dependency files leave liburcu's headers out).
build=$UPS_B/$name/build
rm -rf "$build"
echo "== check-liburcu: liburcu $ver ($libdir): make check CHECKS='$UPS_CHECKS' in $build"
$MAKE --no-print-directory check B="$build" CHECKS="$UPS_CHECKS" ||
	die "against liburcu $ver ($libdir): a check failed (the table above; logs in $build/check)"
bad=
for so in "$build"/lib/librculist-*.so.*.*.*; do
	urcu=$(ldd "$so" | grep liburcu)
	[ -n "$urcu" ] && ! printf '%s\n' "$urcu" | grep -qv "=> $libdir/" ||
		bad="$bad ${so##*/}"
done
[ -z "$bad" ] || die "these do not load liburcu from $libdir:$bad"
echo "== check-liburcu: $UPS_CHECKS passed against liburcu $ver ($libdir)"
