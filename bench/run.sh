#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/run.sh BENCH_DIR FLAVOR... - run every flavour's benchmark binary
# (shared link: read, cost, upd, conc, gp; static binary, linked with
# -flto: static, cost), then write BENCH_DIR/raw.csv (every sample),
# BENCH_DIR/summary.csv (medians, min, max, undisturbed and disturbed
# samples), print the closing table per flavour (bench/report.awk) and
# draw BENCH_DIR/bench.svg and bench.png (bench/chart.sh).
#
#   BENCH_QUICK=1   a smoke run of about 20 s
#   BENCH_TIME=s    about s seconds in all (default 180)
#   BENCH_OUT=dir   where the CSV files and the chart go (default BENCH_DIR)
set -e
dir=$1
shift
here=$(dirname "$0")
out=${BENCH_OUT:-$dir}
reps=5
total=${BENCH_TIME:-180}
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	reps=3
	total=${BENCH_TIME:-12}
fi
# A scale of 1 takes about 36 s per flavour with 5 runs.
scale=$(awk -v t="$total" -v r="$reps" -v n="$#" \
	'BEGIN { printf "%.3f", t / (36 * n) * 5 / r }')
export BENCH_REPS=$reps BENCH_SCALE=$scale
raw=$out/raw.csv
sum=$out/summary.csv
echo "label,section,workload,side,metric,run,value,other_cores,disturbed" >"$raw"
echo "label,section,workload,side,metric,median,min,max,quiet_runs,noisy_runs" >"$sum"
machine="$(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "rculist benchmark: $reps runs per case, sample scale $scale"
echo "machine: $machine; $(${CC:-cc} --version 2>/dev/null | head -1)"
for f in "$@"; do
	"$dir/$f/bench" -l "$f" -o "$raw" -s "$sum" read cost upd conc gp
	"$dir/$f/bench-static" -l "$f-static" -o "$raw" -s "$sum" static cost
done

# bench-reclaim's lines, when make bench ran it first (bench/bench.mk).
reclaim=
[ -f "$dir/reclaim.txt" ] && [ "$dir/reclaim.txt" -nt "$dir/$1/reclaim" ] &&
	reclaim=$dir/reclaim.txt
# bench-poll's lines likewise (the grace periods' table).
poll=
[ -f "$dir/poll.txt" ] && [ "$dir/poll.txt" -nt "$dir/$1/poll" ] && poll=$dir/poll.txt
awk -F, -v flavors="$*" -v reclaim="$reclaim" -v poll="$poll" -f "$here/report.awk" "$sum"

if command -v gnuplot >/dev/null 2>&1; then
	sh "$here/chart.sh" "$sum" "$out" "$machine" "$*" &&
		echo "chart: $out/bench.svg, $out/bench.png" ||
		echo "bench: gnuplot failed; no chart"
else
	echo "bench: gnuplot not found (apt-get install gnuplot-nox); no chart"
fi
echo "raw samples: $raw; medians: $sum"
