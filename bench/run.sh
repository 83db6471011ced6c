#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/run.sh BENCH_DIR FLAVOR... - run every flavour's benchmark binary
# (shared link: read, upd, conc, gp; static link: read, shorter), then
# write BENCH_DIR/raw.csv (every sample), BENCH_DIR/summary.csv (medians,
# min, max, quiet samples, noisy samples) and BENCH_DIR/bench.svg.
#
#   BENCH_QUICK=1   a smoke run of about 20 s
#   BENCH_TIME=s    about s seconds in all (default 180)
#   BENCH_OUT=dir   where the CSV files and the chart go (default BENCH_DIR)
set -e
dir=$1
shift
out=${BENCH_OUT:-$dir}
reps=5
total=${BENCH_TIME:-180}
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	reps=3
	total=${BENCH_TIME:-12}
fi
# A scale of 1 takes about 110 s for three flavours with 5 runs.
scale=$(awk -v t="$total" -v r="$reps" 'BEGIN { printf "%.3f", t / 110 * 5 / r }')
export BENCH_REPS=$reps BENCH_SCALE=$scale
raw=$out/raw.csv
sum=$out/summary.csv
echo "label,section,workload,side,metric,run,value,other_cores,noisy" >"$raw"
echo "label,section,workload,side,metric,median,min,max,quiet_runs,noisy_runs" >"$sum"
echo "rculist benchmark: $reps runs per case, sample scale $scale; '!' marks a median with noisy samples"
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
for f in "$@"; do
	"$dir/$f/bench" -l "$f" -o "$raw" -s "$sum" read upd conc gp
	"$dir/$f/bench-static" -l "$f-static" -o "$raw" -s "$sum" static
done

# The targets of the issue, from the medians.
awk -F, -v flavors="$*" '
NR > 1 { m[$1 "," $2 "," $3 "," $4 "," $5] = $6 }
function ovh(l, sec, w, s) {
	return m[l "," sec "," w "," s ",ns/lookup"] - m[l "," sec "," w ",plain,ns/lookup"]
}
END {
	n = split(flavors, fl, " ")
	print "\nSummary (wall clock medians; `make bench-instructions` gives the deterministic counts)"
	printf "%-6s %14s %14s %14s %14s %14s %14s\n", "flavor", "rl/urcu ovh", "static", \
		"inline/urcu", "rd x rwlock", "hash x rwlock", "upd/rwlock upd"
	for (i = 1; i <= n; i++) {
		f = fl[i]
		if (m[f ",read,list8,urcu,ns/lookup"] == "") continue
		u = ovh(f, "read", "list8", "urcu"); us = ovh(f "-static", "static", "list8", "urcu")
		printf "%-6s %14.2f %14.2f %14.2f %14.1f %14.1f %14.2f\n", f, \
			ovh(f, "read", "list8", "rculist") / u, \
			us ? ovh(f "-static", "static", "list8", "rculist") / us : 0, \
			ovh(f, "read", "list8", "rculist-inline") / u, \
			m[f ",conc,list8,rculist,fl-reads/s"] / m[f ",conc,list8,rwlock,fl-reads/s"], \
			m[f ",conc,hash,rculist,fl-reads/s"] / m[f ",conc,hash,rwlock,fl-reads/s"], \
			m[f ",conc,list8,rculist,fl-upd/s"] / m[f ",conc,list8,rwlock,fl-upd/s"]
		printf "       flat-out updater at list8: batch of 1024 per synchronize gives %.2fx the updates/s of call_rcu\n", \
			m[f ",conc,list8,rculist-batch,fl-upd/s"] / m[f ",conc,list8,rculist,fl-upd/s"]
	}
}' "$sum"

# The chart: readers' lookups/s with a flat-out updater, per side.
if command -v gnuplot >/dev/null 2>&1; then
	dat=$out/chart.dat
	awk -F, '$2 == "conc" && $5 == "fl-reads/s" && $4 != "rculist-batch" {
		printf "%s:%s:%s %s\n", $1, $3, $4, $6 / 1e6 }' "$sum" >"$dat"
	gnuplot <<GP 2>/dev/null && echo "chart: $out/bench.svg" || echo "bench: gnuplot failed; no chart"
set terminal svg size 1000,500 dynamic font "sans,10"
set output "$out/bench.svg"
set title "Reader lookups/s with a flat-out updater (1 reader + 1 updater), log scale"
set style data histogram
set style fill solid 0.8
set logscale y
set ylabel "M lookups/s"
set xtics rotate by -60
set key off
plot "$dat" using 2:xtic(1) linecolor rgb "#3060a0"
GP
else
	echo "bench: gnuplot not found (apt-get install gnuplot-nox); no chart"
fi
echo "raw samples: $raw; medians: $sum"
