#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/instr.sh BENCH_DIR FLAVOR... - instructions per lookup and per
# update under callgrind (deterministic: identical run to run), rculist
# beside liburcu's inline read side and macros, shared and static links.
#
# Each binary's "instr" section runs fixed work per case between
# CALLGRIND_ZERO_STATS and a dump named label/section/workload/side/ops;
# we divide each dump's total by ops.  Read-side ratio, per workload:
#   (side - plain) / (urcu - plain)   overhead over an unsynchronised walk
# ("-" where liburcu's adds nothing: qsbr's empty lock and unlock; its
# instructions are then the comparison).  Workloads list8+qs and hash+qs are
# list8 and hash with a
# quiescent state after every lookup (a qsbr server announcing one per
# request; rculist_quiescent_state() is a patched no-op under the other
# flavours, liburcu's side calls nothing there).  Counted on binaries
# built without code alignment by make bench-instructions (bench/bench.mk).
set -e
dir=$1
shift
command -v valgrind >/dev/null 2>&1 || {
	echo "bench-instructions: valgrind is needed (apt-get install valgrind)" >&2
	exit 1
}
cg=$dir/callgrind
rm -rf "$cg"
mkdir -p "$cg"
for f in "$@"; do
	for link in shared static; do
		bin=$dir/$f/bench
		label=$f
		[ $link = static ] && bin=$dir/$f/bench-static && label=$f-static
		printf '  CALLGRIND %s\n' "$label" >&2
		valgrind --tool=callgrind --callgrind-out-file="$cg/$label.out" \
			"$bin" -l "$label" instr >/dev/null 2>"$cg/$label.log" || {
			cat "$cg/$label.log" >&2
			exit 1
		}
	done
done
# label,section,workload,side,instructions per operation,operations
for file in "$cg"/*.out.*; do
	awk '/^desc: Trigger: Client Request: / { name = $5 }
	     /^summary: / { total = $2 }
	     END { n = split(name, p, "/");
		   if (n == 5) printf "%s,%s,%s,%s,%.4f,%d\n", p[1], p[2], p[3], p[4], total / p[5], p[5] }' "$file"
done | sort >"$dir/instructions.csv"

awk -F, '
{ v[$1 "," $2 "," $3 "," $4] = $5; ops[$1 "," $2 "," $3 "," $4] = $6; if (!($1 in seen)) { seen[$1] = 1; labels[++nl] = $1 } }
END {
	split("list8 list8+qs list1024 hash hash+qs", wl, " ")
	split("plain rculist rculist-lto rculist-inline urcu urcu-lib rwlock mutex", sd, " ")
	print "\nInstructions per lookup (callgrind), overhead over plain, and that overhead / urcu inline overhead"
	printf "%-12s %-9s", "link", "workload"
	for (s = 1; s <= 8; s++) printf " %15s", sd[s]
	printf "\n"
	for (l = 1; l <= nl; l++) for (w = 1; w <= 5; w++) {
		lb = labels[l]; p = v[lb ",read," wl[w] ",plain"]; u = v[lb ",read," wl[w] ",urcu"]
		printf "%-12s %-9s", lb, wl[w]
		for (s = 1; s <= 8; s++) {
			x = v[lb ",read," wl[w] "," sd[s]]
			if (x == "") { printf " %15s", "-"; continue }
			if (sd[s] == "plain") printf " %15.1f", x
			else if (u - p < 0.5 && p - u < 0.5) printf " %7.1f (   - )", x
			else printf " %7.1f (%5.2fx)", x, (x - p) / (u - p)
		}
		printf "\n"
	}
	split("list_add_rcu list_del_rcu list_replace_rcu hlist_add_head_rcu hlist_del_rcu", op, " ")
	# One more operation: the difference of the runs of N and N / 2 (the
	# function'"'"'s setup before its loop cancels); mean: a run'"'"'s total / N.
	print "\nInstructions per update operation, one more in the loop (the runs of 1024 and 512"
	print "operations differenced: setup cancels): rculist, urcu inline, ratio; then the means"
	print "per operation of the run of 1024, function setup included (rculist, urcu)"
	for (l = 1; l <= nl; l++) for (o = 1; o <= 5; o++) {
		lb = labels[l]; k = lb ",upd," op[o]; h = lb ",upd-half," op[o]
		r = v[k ",rculist"]; u = v[k ",urcu"]
		if (r == "") continue
		mr = (r * ops[k ",rculist"] - v[h ",rculist"] * ops[h ",rculist"]) / (ops[k ",rculist"] - ops[h ",rculist"])
		mu = (u * ops[k ",urcu"] - v[h ",urcu"] * ops[h ",urcu"]) / (ops[k ",urcu"] - ops[h ",urcu"])
		printf "%-12s %-20s %7.2f %7.2f  %5.3fx   mean %7.2f %7.2f\n", lb, op[o], mr, mu, mu ? mr / mu : 0, r, u
	}
	print "\nTargets: read-side overhead ratio rculist (default link) <= 1.10, rculist-inline <= 1.05,"
	print "rculist-lto (static binary, linked with -flto) <= 1.00; traversal per element (list1024) and"
	print "update operations <= 1.05 / 1.02 of liburcu."
}' "$dir/instructions.csv"
echo "raw: $dir/instructions.csv, callgrind files: $cg/"
