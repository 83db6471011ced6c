#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/typecheck/run.sh SRC LABEL COMPILER [FLAGS...]
#
# SRC as it stands must compile without a warning (-Werror).  Then each
# case of SRC (a line using TC_L(name), TC_H(name), ... or TC_Q(name), see
# tests/typecheck/members.c), compiled with -DTC_BAD_name=TC_YES, must
# fail, and its first error must carry the message of its list type
# (words joined by spaces or, in C99, by underscores), with the case's
# own line named in the diagnostics.
set -eu

src=$1 name=$2
shift 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT

if ! "$@" -Werror -fsyntax-only "$src" >"$out" 2>&1; then
	echo "typecheck: $name: the good uses of $src do not compile:" >&2
	cat "$out" >&2
	exit 1
fi

cases=$(awk '!/^[ \t]*(#|[*]|[/][*])/ && match($0, /TC_[LHNBRQ]\([a-z0-9_]+\)/) {
	print NR ":" substr($0, RSTART + 3, 1) ":" substr($0, RSTART + 5, RLENGTH - 6) }' "$src")
n=0
for c in $cases; do
	line=${c%%:*} rest=${c#*:}
	kind=${rest%%:*} case=${rest#*:}
	case $kind in
	L) node=cds_list_head ;;
	H) node=cds_hlist_node ;;
	N) node=cds_hlist_nulls_node ;;
	B) node=cds_hlist_bl_node ;;
	R) node=cds_rhash_head ;;
	Q) node=cds_rhlist_head ;;
	esac
	msg="member[ _]is[ _]not[ _]a[ _]struct[ _]$node([^_a-z]|\$)"
	if "$@" -fsyntax-only -DTC_BAD_$case=TC_YES "$src" >"$out" 2>&1; then
		echo "typecheck: $name: $case (line $line) compiled with a wrong member" >&2
		exit 1
	fi
	first=$(grep -m1 'error' "$out" || true)
	if ! printf '%s\n' "$first" | grep -Eq "$msg"; then
		echo "typecheck: $name: $case (line $line): first error is not \"member is not a struct $node\":" >&2
		head -20 "$out" >&2
		exit 1
	fi
	if ! grep -q "$(basename "$src"):$line:" "$out"; then
		echo "typecheck: $name: $case: the diagnostics do not name line $line" >&2
		head -20 "$out" >&2
		exit 1
	fi
	[ "$n" -gt 0 ] || shown=$first
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "typecheck: no case found in $src" >&2; exit 1; }
printf '   %-18s good uses compile; %d wrong members refused, first: %s\n' \
	"$name" "$n" "$(printf '%s\n' "$shown" | sed 's/.*error[^:]*: *//')"
