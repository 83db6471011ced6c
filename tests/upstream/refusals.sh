#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/upstream/refusals.sh DIR - make check-liburcu, named no usable
# liburcu, stops (non-zero status) with one line saying what is missing:
# no liburcu named, a prefix that is no directory or holds no liburcu,
# a source that is neither a git repository nor a tree, a tree whose
# build fails.  DIR: a scratch directory of the caller's.
dir=$1
: "${MAKE:=make}"
rm -rf "$dir" && mkdir -p "$dir/empty" "$dir/broken" || exit 1
printf 'AC_INIT([broken], [0])\n' >"$dir/broken/configure.ac"
printf '#!/bin/sh\necho "configure: fails on purpose" >&2\nexit 1\n' >"$dir/broken/configure"
chmod +x "$dir/broken/configure"
bad=0 n=0

# refused EXPECTED ARGS...: check-liburcu ARGS fails, its line EXPECTED.
refused() {
	want=$1
	shift
	n=$((n + 1))
	$MAKE --no-print-directory check-liburcu UPS_B="$dir/ups" UPS_TOOLS= \
		URCU_SRC= URCU_REF= URCU_PREFIX= "$@" \
		>"$dir/out" 2>"$dir/err"
	st=$?
	line=$(grep '^check-liburcu: ' "$dir/err")
	case "$st:$line" in
	0:*) why="succeeded" ;;
	*"check-liburcu: $want"*)
		[ "$(printf '%s\n' "$line" | wc -l)" = 1 ] && return
		why="said more than one line: $line" ;;
	*) why="status $st, said '$line'" ;;
	esac
	bad=$((bad + 1))
	echo "check-liburcu-refusals: check-liburcu $*: $why (expected 'check-liburcu: $want')" >&2
}

refused "name a liburcu: URCU_SRC="
refused "URCU_PREFIX=$dir/none is not a directory" URCU_PREFIX="$dir/none"
refused "URCU_PREFIX=$dir/empty holds no lib*/pkgconfig/liburcu-memb.pc" URCU_PREFIX="$dir/empty"
refused "URCU_SRC=$dir/empty is neither a git repository nor a source tree" URCU_SRC="$dir/empty"
refused "liburcu tree-" URCU_SRC="$dir/broken"
grep -q 'did not build' "$dir/err" || {
	bad=$((bad + 1))
	echo "check-liburcu-refusals: a tree whose configure fails: not reported as a failed build" >&2
}
[ "$bad" = 0 ] || exit 1
echo "== check-liburcu-refusals: $n refusals, each one line naming what is missing"
