#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/outside/run.sh PREFIX DIR FLAVOR... - instruction counts as an
# outside user measures them (make bench-instructions-outside): one
# object compiled against the headers installed in PREFIX (pkg-config),
# linked with each -lrculist-<flavour>, shared and static, beside the
# same source built with liburcu's inline code; every operation a
# function of its own (bench/outside/walk.h), so each call pays its
# frame and its read side's code as a user's function does.  Counted by
# callgrind (exact whatever the load), per call, inclusive:
#   section     a lookup in a list of 8 with a read-side section, minus
#               the same lookup without one
#   section+qs  the same with a quiescent state after it (qsbr's server
#               loop; liburcu's other flavours have none, rculist's is a
#               patched no-op there), minus the lookup without a section
#   updates     one call of each _rcu update
# Ratios: rculist / liburcu inline.  Targets (issue 28): read side <=
# 1.10x, updates <= 1.00x.
set -e
prefix=$1
dir=$2
shift 2
cc=${CC:-cc}
command -v valgrind >/dev/null 2>&1 || {
	echo "bench-instructions-outside: valgrind is needed (apt-get install valgrind)" >&2
	exit 1
}
PKG_CONFIG_PATH=$prefix/lib/pkgconfig:$prefix/lib/$(gcc -print-multiarch 2>/dev/null)/pkgconfig
export PKG_CONFIG_PATH
src=$(dirname "$0")
mkdir -p "$dir"
cflags=$(pkg-config --cflags rculist-memb)
$cc -O2 $cflags -c "$src/walk.c" -o "$dir/walk.o"
libdir=$(pkg-config --variable=libdir rculist-memb)
bins=
for f in "$@"; do
	$cc -o "$dir/rculist-$f" "$dir/walk.o" $(pkg-config --libs rculist-$f) -Wl,-rpath,"$libdir"
	$cc -static -o "$dir/rculist-$f-static" "$dir/walk.o" $(pkg-config --static --libs rculist-$f)
	F=$(echo "$f" | tr a-z A-Z)
	$cc -O2 -DWALK_$F -I"$src" -o "$dir/urcu-$f" "$src/walk_urcu.c" $(pkg-config --libs liburcu-$f 2>/dev/null || echo -lurcu-$f -lurcu-common) -lpthread
	bins="$bins rculist-$f rculist-$f-static urcu-$f"
done
# name,function,instructions per call (inclusive)
: >"$dir/counts.csv"
for b in $bins; do
	printf '  CALLGRIND %s\n' "$b" >&2
	out=$("$dir/$b") || { echo "bench-instructions-outside: $b failed" >&2; exit 1; }
	[ "$out" = "walk ok" ] || { echo "bench-instructions-outside: $b printed '$out'" >&2; exit 1; }
	valgrind --tool=callgrind --callgrind-out-file="$dir/$b.cg" "$dir/$b" >/dev/null 2>"$dir/$b.log" || {
		cat "$dir/$b.log" >&2
		exit 1
	}
	callgrind_annotate --inclusive=yes "$dir/$b.cg" 2>/dev/null | awk -v b="$b" '
		{ gsub(",", "", $1); name = "" }
		{ for (i = 2; i <= NF; i++) if ($i ~ /^[^[]*:/) { split($i, p, ":"); name = p[2] } }
		name ~ /^(plain_lookup|section_lookup|section_lookup_qs|op_list_add|op_list_del|op_list_replace|op_hlist_add|op_hlist_del)$/ {
			printf "%s,%s,%.2f\n", b, name, $1 / 100000 }' >>"$dir/counts.csv"
done
awk -F, -v flavors="$*" '
{ v[$1 "," $2] = $3 }
function ratio(a, b) { return b > 0 ? sprintf("%5.2fx", a / b) : (a > 0 ? "  inf " : "  -   ") }
END {
	nf = split(flavors, fl, " ")
	print "Instructions per call, as an outside program counts them (bench/outside: one object"
	print "against the installed headers, each operation its own function; callgrind, inclusive):"
	print "read side over the lookup without a section, rculist / liburcu inline (ratio)\n"
	printf "%-14s %22s %22s\n", "link", "section", "section+qs"
	for (i = 1; i <= nf; i++) for (s = 0; s < 2; s++) {
		f = fl[i]; r = "rculist-" f (s ? "-static" : ""); u = "urcu-" f
		rs = v[r ",section_lookup"] - v[r ",plain_lookup"]
		us = v[u ",section_lookup"] - v[u ",plain_lookup"]
		rq = v[r ",section_lookup_qs"] - v[r ",plain_lookup"]
		uq = v[u ",section_lookup_qs"] - v[u ",plain_lookup"]
		printf "%-14s %6.1f / %5.1f %s %6.1f / %5.1f %s\n", f (s ? "-static" : ""), rs, us, ratio(rs, us), rq, uq, ratio(rq, uq)
	}
	split("op_list_add op_list_del op_list_replace op_hlist_add op_hlist_del", op, " ")
	print "\nUpdates: instructions per call, rculist / liburcu inline (ratio)\n"
	printf "%-14s", "link"
	for (o = 1; o <= 5; o++) printf " %21s", substr(op[o], 4)
	printf "\n"
	for (i = 1; i <= nf; i++) for (s = 0; s < 2; s++) {
		f = fl[i]; r = "rculist-" f (s ? "-static" : ""); u = "urcu-" f
		printf "%-14s", f (s ? "-static" : "")
		for (o = 1; o <= 5; o++) printf " %5.1f / %5.1f %s", v[r "," op[o]], v[u "," op[o]], ratio(v[r "," op[o]], v[u "," op[o]])
		printf "\n"
	}
	print "\ninf: liburcu'"'"'s qsbr section is empty (its lock and unlock compile to nothing); rculist'"'"'s"
	print "is its dispatch sites, one instruction each once patched, and the words they read."
	print "Targets (issue 28): read side <= 1.10x, updates <= 1.00x."
}' "$dir/counts.csv"
