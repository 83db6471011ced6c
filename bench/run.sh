#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/run.sh [-f | -c] BENCH_DIR FLAVOR... - run the benchmark's
# sections for every flavour, then print the closing tables
# (bench/report.awk) and draw the chart (bench/chart.sh).
#
#   (no option)  make bench: the sections of set "bench", 3 runs per case,
#                the workloads the closing table reads
#   -f           make bench-full: every section, 5 runs per case, every
#                workload (what bench/results/ and the README are made from)
#   -c           check-bench: every section, quick (BENCH_QUICK=1, 1 run), and
#                each must print its summary lines (the table below) and
#                the closing tables no empty cell; exit 1 otherwise
#
#   BENCH_SECTIONS="a b"  only these sections (make bench-hash etc.)
#   BENCH_QUICK=1         a smoke run: short samples, fewer runs
#   BENCH_SCALE=x         every sample x times its base length (1.25)
#   BENCH_STALL=s         the stalled reader's seconds (15; 0: no stall)
#   BENCH_STALL_LIMIT=n   its limit of blocks waiting (100000)
#   BENCH_OUT=dir         where the outputs go (default BENCH_DIR)
#
# Outputs in BENCH_OUT: raw.csv (every sample of the harness sections),
# summary.csv (their medians), <section>.txt (what each section printed),
# times.txt (wall and CPU seconds per section), bench.svg and bench.png.
# Progress goes to stderr: a line per section and flavour, and the
# harness's own ("run k of n", every 10 s at most when not on a terminal).
#
# A new section: a line in the table below (its set, and the summary
# lines each flavour must print, for check-bench), a branch in
# run_section() below that runs it for one flavour, its binary in
# bench/bench.mk's BENCH_BINS_BENCH or BENCH_BINS_FULL, and, for a table
# of its own at the end, a function in bench/report.awk that reads
# BENCH_OUT/<section>.txt.  See docs/performance.md, "Adding a section".
set -e
mode=bench
case $1 in
-f) mode=full; shift ;;
-c) mode=check; shift ;;
esac
dir=$1
shift
here=$(dirname "$0")
out=${BENCH_OUT:-$dir}
flavors=$*

# The sections, in the order they run.  set: bench (make bench and
# bench-full) or full (bench-full only).  lines: how many lines each
# flavour must print matching the ERE that follows (@F@: the flavour);
# for the harness sections (bench/q_*.c), rows of their summary CSV
# (label,section,workload,side,metric,...), else lines of their output.
# What the closing tables read is what is required.
sections='
read    bench 4  ^@F@,read,list8,(rculist|urcu|rwlock|mutex),ovh-ns,
static  bench 4  ^@F@-static,(static,list8,(rculist|rculist-lto|urcu),ovh-ns|cost,empty,rculist-lto,ns/section),
cost    bench 2  ^@F@,cost,empty,(rculist|urcu),ns/section,
upd     bench 2  ^@F@,upd,list_replace_rcu,(rculist|urcu),ns/op,
conc    bench 10 ^@F@,conc,list8,((rculist|urcu|rwlock),(2r-reads|fl-reads|fl-upd)/s|rculist,2r-xurcu),
gp      bench 3  ^@F@,gp,(sync-busy,rculist,(p50|p99\.9)-us|call_rcu,rculist,calls/s),
poll    bench 4  ^poll flavor=@F@ op=(start_to_satisfied|synchronize_rcu) readers=[01] p50_us=[0-9.]+ p99_us=[0-9.]+ max_us=
reclaim bench 8  ^reclaim: impl=[a-z_]+ flavor=@F@ updaters=[12] updates/s=[0-9.]+[kMG]? .* peak_waiting=[0-9]+
cxx     bench 6  ^cxx flavor=@F@ op=(c_section|cxx_section|cxx_own_section|free_rcu|obj_retire|rcu_retire) ns=[0-9.]+ calls=[0-9]+$
rhash   bench 10 ^rhash(-insert: impl=[a-z-]+ flavor=@F@ keys=[0-9]+ secs=[0-9.]+ inserts/s=[0-9.]+M p50-ns=[0-9]+ p99-ns=[0-9]+ |: impl=[a-z-]+ flavor=@F@ .* updater=(0 .* hits=100\.0|1 .* hits=[0-9.]+)% updates/s=[0-9.]+M bytes/elem=[0-9.]+ )
stall   full  2  ^reclaim-stall: flavor=@F@ limit=[0-9]+ seconds=[0-9.]+ peak=[0-9]+ .* verdict=
dq      full  6  ^dq flavor=@F@ impl=[a-z_]+ updaters=[12] updates/s=[0-9.]+M min=
hash    full  16 ^hash: impl=[a-z-]+ flavor=@F@ .* updater=(0 .* hits=100\.0|1 .* hits=[0-9.]+)% updates/s=[0-9.]+M bytes/elem=[0-9.]+ others=
'

reps=3
scale=${BENCH_SCALE:-1.25}
calls=1000000 # poll's calls per operation
dq_runs=3
reclaim_rounds=7 # bench/reclaim.c: rounds of every case, 0.25 s x scale each
cxx_calls=1000000 # bench/cxx_rcu.cc: 10x that per section op, 4x per retire op
stall=${BENCH_STALL:-15}
rhash_limit=120
if [ $mode = full ]; then
	reps=5
	rhash_limit=300
	reclaim_rounds=9
	export BENCH_FULL=1
fi
if [ $mode = check ]; then
	export BENCH_QUICK=1 BENCH_FULL=1
fi
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	reps=2
	scale=${BENCH_SCALE:-0.1}
	stall=0.3
	calls=10000
	dq_runs=1
	reclaim_rounds=2
	cxx_calls=20000
	BENCH_STALL_LIMIT=10000 # reached in 0.3 s even on a loaded machine
fi
[ $mode = check ] && reps=1 reclaim_rounds=1
export BENCH_REPS="$reps" BENCH_SCALE="$scale"

# One section for one flavour ($1, $2), its output on stdout.  The
# harness sections append their rows to the section's CSV.
harness() { # binary label section...
	b=$1 l=$2
	shift 2
	"$b" -l "$l" -o "$out/raw.csv" -s "$out/$sec.csv" "$@"
}
run_section() {
	case $1 in
	read | cost | upd | conc | gp) harness "$dir/$2/bench" "$2" "$1" ;;
	static) harness "$dir/$2/bench-static" "$2-static" static cost ;;
	poll) "$dir/$2/poll" "$calls" ;;
	reclaim) "$dir/$2/reclaim" -r "$reclaim_rounds" ;;
	# The stalled reader alone: the throughput cases shortest, not shown.
	stall)
		[ "$stall" = 0 ] ||
			"$dir/$2/reclaim" -r 1 -t 0.001 -s "$stall" \
				-l "${BENCH_STALL_LIMIT:-100000}" | grep -v '^reclaim: '
		;;
	dq) "$dir/$2/dq" -r "$dq_runs" ;;
	hash) "$dir/$2/hash" ;;
	cxx) "$dir/cxx_rcu/cxx_rcu-$2" "$cxx_calls" ;;
	# 1M keys (BENCH_QUICK: 4096), 8 s a flavour idle, about 25 s on a
	# loaded machine; bounded (2 minutes in make bench, 5 in bench-full),
	# for rculfhash's automatic resize was seen to never start on a loaded
	# machine (a table of 64 buckets filled: 7 minutes for 256k keys).
	rhash) timeout "$rhash_limit" "$dir/$2/rhash" ;;
	*)
		echo "bench/run.sh: no section $1" >&2
		return 2
		;;
	esac
}

# The sections to run: the mode's set, or BENCH_SECTIONS.
todo=$(echo "$sections" | awk -v mode=$mode -v only="${BENCH_SECTIONS:-}" '
	NF >= 3 && (only != "" ? index(" " only " ", " " $1 " ") : mode != "bench" || $2 == "bench") {
		printf "%s%s", sep, $1; sep = " "
	}')
[ -n "$todo" ] || {
	echo "bench/run.sh: no section in '${BENCH_SECTIONS:-}'" >&2
	exit 2
}

mkdir -p "$out"
# A run of the mode's whole set leaves no other section's output behind:
# the closing tables read every section's file there, and a table of an
# earlier bench-full beside this run's would pass for this run's.
if [ -z "${BENCH_SECTIONS:-}" ]; then
	for s in $(echo "$sections" | awk 'NF >= 3 { print $1 }'); do
		case " $todo " in
		*" $s "*) ;;
		*) rm -f "$out/$s.txt" "$out/$s.csv" ;;
		esac
	done
fi
raw=$out/raw.csv
sum=$out/summary.csv
echo "label,section,workload,side,metric,run,value,other_cores,disturbed" >"$raw"
echo "label,section,workload,side,metric,median,min,max,quiet_runs,noisy_runs" >"$sum"
: >"$out/times.txt"
machine="$(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "rculist benchmark ($mode): $reps runs per case, sample scale $scale; sections: $todo"
echo "machine: $machine; $(${CC:-cc} --version 2>/dev/null | head -1)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# cpu: CPU seconds (user + sys) of every child so far, from the shell's
# times (run here, not in a subshell, which would count its own).
cpu_so_far() {
	times >"$tmp/times"
	cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%.1f", t }' \
		"$tmp/times")
}

nsec=$(echo "$todo" | wc -w)
nfl=$#
k=0
failed=
t_all=$(date +%s)
for sec in $todo; do
	: >"$out/$sec.txt"
	: >"$out/$sec.csv"
	t0=$(date +%s)
	cpu_so_far
	c0=$cpu
	for f in $flavors; do
		k=$((k + 1))
		echo "-- bench [$k/$((nsec * nfl))]: section $sec, flavour $f ($(($(date +%s) - t_all)) s so far)" >&2
		rm -f "$tmp/rc"
		{ run_section "$sec" "$f" </dev/null || echo $? >"$tmp/rc"; } | tee -a "$out/$sec.txt"
		if [ -f "$tmp/rc" ]; then
			echo "bench/run.sh: section $sec, flavour $f exited $(cat "$tmp/rc")" >&2
			failed="$failed $sec:$f"
		fi
	done
	secs=$(($(date +%s) - t0))
	cpu_so_far
	cpu=$(awk -v a="$c0" -v b="$cpu" 'BEGIN { printf "%.1f", b - a }')
	r=$reps; [ "$sec" = reclaim ] && r=$reclaim_rounds
	echo "$sec wall_s=$secs cpu_s=$cpu flavors=$nfl runs=$r" >>"$out/times.txt"
	echo "-- bench: section $sec done, $secs s wall, $cpu s CPU" >&2
	cat "$out/$sec.csv" >>"$sum"
	# Its summary lines, every flavour.
	line=$(echo "$sections" | awk -v s="$sec" '$1 == s')
	want=$(echo "$line" | awk '{ print $3 }')
	re=$(echo "$line" | sed 's/^[^ ]* *[^ ]* *[^ ]* *//')
	src=$out/$sec.txt
	if [ -s "$out/$sec.csv" ]; then src=$out/$sec.csv; else rm -f "$out/$sec.csv"; fi
	[ "$sec" = stall ] && [ "$stall" = 0 ] && continue
	for f in $flavors; do
		got=$(grep -Ec "$(echo "$re" | sed "s/@F@/$f/g")" "$src" || :)
		if [ "$got" -lt "$want" ]; then
			echo "bench/run.sh: section $sec, flavour $f: $got summary lines, $want wanted" >&2
			failed="$failed $sec:$f"
		fi
	done
done
cpu_so_far
echo "total wall_s=$(($(date +%s) - t_all)) cpu_s=$cpu" >>"$out/times.txt"

awk -F, -v flavors="$flavors" -v out="$out" -f "$here/report.awk" "$sum" | tee "$out/report.txt"
echo
echo "Seconds per section (wall, and CPU of user + sys; $out/times.txt):"
cat "$out/times.txt"
if [ $mode = check ]; then
	# Every cell of the closing tables filled: a row with a lone "-" lacks one.
	for f in $flavors; do
		if grep -E "^$f +" "$out/report.txt" | grep -Eq ' -( |$)'; then
			echo "bench/run.sh: an empty cell in the closing tables for $f" >&2
			failed="$failed report:$f"
		fi
	done
	[ -z "$failed" ] || {
		echo "bench/run.sh: check failed:$failed" >&2
		exit 1
	}
	exit 0
fi
[ -z "$failed" ] || echo "bench: missing summary lines:$failed" >&2

if [ "$(grep -c '' "$sum")" -le 1 ]; then
	: # no harness section ran (make bench-poll etc.): no chart
elif command -v gnuplot >/dev/null 2>&1; then
	sh "$here/chart.sh" "$sum" "$out" "$machine" "$flavors" &&
		echo "chart: $out/bench.svg, $out/bench.png" ||
		echo "bench: gnuplot failed; no chart"
else
	echo "bench: gnuplot not found (apt-get install gnuplot-nox); no chart"
fi
echo "raw samples: $raw; medians: $sum; each section's output: $out/<section>.txt"
