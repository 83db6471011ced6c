#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# man/urcu-names.sh - the names liburcu's installed headers define, for
# the LIBURCU section of every page (man/liburcu-0.13.names is its output
# for Debian's liburcu 0.13.2; `make check-man-names` re-derives it when
# the installed liburcu is 0.13 and fails if it differs).
#
#   man/urcu-names.sh [CC [CPPFLAGS...]] > names
#
# Finds <urcu/list.h> with the compiler (so liburcu in another prefix,
# named by CPPFLAGS or pkg-config --cflags, is found), then prints
#   name<TAB>kind<TAB>urcu/header.h     for every name of <urcu/*.h>
#   generic<TAB>map<TAB>memb=urcu_memb_x qsbr=urcu_qsbr_x ...
# for each generic name (rcu_read_lock, synchronize_rcu, call_rcu ...)
# that the flavour headers map to a flavour's own symbol.
set -e
here=$(dirname "$0")
cc=${1:-cc}
[ $# -gt 0 ] && shift

list_h=$(printf '#include <urcu/list.h>\n' |
	"$cc" "$@" -M -x c - 2>/dev/null | tr ' \\' '\n\n' | grep '/urcu/list\.h$' | head -n 1)
[ -n "$list_h" ] || { echo "urcu-names.sh: <urcu/list.h> not found by $cc $*" >&2; exit 1; }
dir=${list_h%/urcu/list.h}
version=$(pkg-config --modversion liburcu 2>/dev/null || echo unknown)

echo "# liburcu $version: names defined by <urcu/*.h>, derived by man/urcu-names.sh; do not edit"
awk -v mode=names -v strip="$dir/" -f "$here/gen.awk" "$dir"/urcu/*.h | LC_ALL=C sort
for m in "$dir"/urcu/map/urcu-*.h; do
	f=${m##*/urcu-}
	f=${f%.h}
	sed -n "s/^#define[ 	]\{1,\}\([a-z][a-z_]*\)[ 	]\{1,\}\(urcu_${f}_[a-z_]*\)[ 	]*$/\1 $f=\2/p" "$m"
done | LC_ALL=C sort -k1,1 -s | awk '
	$1 != g { if (g != "") print g "\tmap\t" v; g = $1; v = $2; next }
	{ v = v " " $2 }
	END { if (g != "") print g "\tmap\t" v }'
