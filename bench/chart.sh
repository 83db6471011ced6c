#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/chart.sh SUMMARY.csv OUTDIR MACHINE "FLAVOR..." - draw OUTDIR/bench.svg
# and OUTDIR/bench.png with gnuplot: the read cost, one panel per flavour
# on its own scale; readers beside an updater and grace-period latency,
# flavours along x; one colour per implementation, min-max whiskers,
# white background.
set -e
sum=$1
out=$2
machine=$3
flavors=$4

# Panel data: one row per flavour, then value min max per implementation
# ("?" where missing).  $1: the side list as label:section:side triples.
panel() {
	awk -F, -v flavors="$flavors" -v sides="$1" -v metric="$2" -v wl="$3" -v over="$4" '
	NR > 1 { k = $1 "," $2 "," $3 "," $4 "," $5; med[k] = $6; lo[k] = $7; hi[k] = $8 }
	END {
		nf = split(flavors, fl, " "); ns = split(sides, sd, " ")
		for (i = 1; i <= nf; i++) {
			line = fl[i]
			for (j = 1; j <= ns; j++) {
				split(sd[j], p, ":")	# label suffix, section, side
				l = fl[i] p[1]; k = l "," p[2] "," wl "," p[3] "," metric
				base = 0
				if (over != "") {
					b = l "," p[2] "," wl "," over "," metric
					base = (b in med) ? med[b] : "?"
				}
				if (!(k in med) || med[k] == "nan" || base == "?")
					line = line " ? ? ?"
				else
					line = line sprintf(" %g %g %g", med[k] - base, lo[k] - base, hi[k] - base)
			}
			print line
		}
	}' "$sum"
}

panel ":read:rculist -static:static:rculist -static:static:rculist-lto :read:urcu :read:urcu-lib :read:rwlock :read:mutex" \
	ovh-ns list8 "" >"$out/chart-read.dat"
panel ":conc:rculist :conc:rculist-batch :conc:urcu :conc:rwlock :conc:mutex" \
	fl-reads/s list8 "" >"$out/chart-conc.dat"
{
	panel ":gp:rculist" p50-us sync-idle "" | awk '{ print $1, $2, $3, $4 }' >"$out/chart-gp1"
	panel ":gp:rculist" p50-us sync-busy "" | awk '{ print $2, $3, $4 }' >"$out/chart-gp2"
	panel ":gp:rculist" p99.9-us sync-busy "" | awk '{ print $2, $3, $4 }' >"$out/chart-gp3"
	paste -d' ' "$out/chart-gp1" "$out/chart-gp2" "$out/chart-gp3"
	rm -f "$out/chart-gp1" "$out/chart-gp2" "$out/chart-gp3"
} >"$out/chart-gp.dat"

# The read panels: one per flavour, each with its own y range (mb's
# fences would otherwise flatten every other bar), from the medians, so
# that one disturbed sample's whisker does not squash the bars (whiskers
# beyond are cut).  One gnuplot plot command per flavour, built here.
read_plots=$(awk -v dat="$out/chart-read.dat" -v n="$(wc -l <"$out/chart-read.dat")" '
	{
		lo = 0; hi = 0
		for (i = 2; i <= NF; i += 3) if ($i != "?") {
			if ($i > hi) hi = $i; if ($i < lo) lo = $i }
		hi = hi > 0 ? hi * 1.6 : 1; lo = lo < 0 ? lo * 1.6 : 0
		r = NR - 1; col = r % 2; row = int(r / 2); rows = int((n + 1) / 2)
		h = 0.42 / rows
		printf "set origin %g,%g\nset size 0.36,%g\n", col * 0.36, 0.955 - (row + 1) * h, h
		printf "set title \"%s\" noenhanced\nset yrange [%g:%g]\n", $1, lo, hi
		if (r == 0) print "set key at screen 0.74,0.94 top left vertical Left reverse noenhanced samplen 2"
		else print "unset key"
		printf "plot \"%s\" every ::%d::%d using 2:3:4:xtic(1) title \"rculist, shared (default)\" lc rgb \"#1f77b4\", ", dat, r, r
		printf "\x27\x27 every ::%d::%d using 5:6:7 title \"rculist, static\" lc rgb \"#6baed6\", ", r, r
		printf "\x27\x27 every ::%d::%d using 8:9:10 title \"rculist, static -flto\" lc rgb \"#08306b\", ", r, r
		printf "\x27\x27 every ::%d::%d using 11:12:13 title \"liburcu inline\" lc rgb \"#ff7f0e\", ", r, r
		printf "\x27\x27 every ::%d::%d using 14:15:16 title \"liburcu shared lib\" lc rgb \"#fdae6b\", ", r, r
		printf "\x27\x27 every ::%d::%d using 17:18:19 title \"pthread rwlock\" lc rgb \"#2ca02c\", ", r, r
		printf "\x27\x27 every ::%d::%d using 20:21:22 title \"pthread mutex\" lc rgb \"#d62728\"\n", r, r
	}' "$out/chart-read.dat")

for term in svg png; do
	if [ $term = svg ]; then
		setterm="set terminal svg size 1100,1350 dynamic font 'sans,13' background rgb 'white'"
	else
		setterm="set terminal pngcairo size 1100,1350 font 'sans,11' background rgb 'white'"
	fi
	gnuplot <<GP
$setterm
set output "$out/bench.$term"
set datafile missing "?"
set style data histogram
set style histogram errorbars gap 1.5 lw 1.2
set style fill solid 0.9 border rgb "#333333"
set grid ytics lc rgb "#cccccc"
set key outside right top vertical Left reverse noenhanced samplen 2
set xtics noenhanced font ",14"
set bars 0.5
set lmargin 12
set rmargin 40
set multiplot title "rculist benchmark (make bench): $machine" noenhanced font ",15"

set label 1 "Read cost: ns a read-side section adds to a lookup (list of 8) over the unsynchronised walk; each flavour on its own scale (whiskers cut)" at screen 0.02,0.965 noenhanced
set ylabel "ns per lookup"
set lmargin 9
set rmargin 2
$read_plots
unset label 1
unset title
set lmargin 12
set rmargin 40

set key outside right top vertical Left reverse noenhanced samplen 2
set origin 0,0.27
set size 1,0.265
set title "Readers with an updater: lookups/s of 1 reader beside 1 flat-out updater (list of 8), log scale" noenhanced
set ylabel "M lookups/s"
set yrange [*:*]
set logscale y
plot "$out/chart-conc.dat" \
	using (\$2/1e6):(\$3/1e6):(\$4/1e6):xtic(1) title "rculist, call_rcu per update" lc rgb "#1f77b4", \
	'' using (\$5/1e6):(\$6/1e6):(\$7/1e6) title "rculist, synchronize per 1024" lc rgb "#9467bd", \
	'' using (\$8/1e6):(\$9/1e6):(\$10/1e6) title "liburcu inline" lc rgb "#ff7f0e", \
	'' using (\$11/1e6):(\$12/1e6):(\$13/1e6) title "pthread rwlock" lc rgb "#2ca02c", \
	'' using (\$14/1e6):(\$15/1e6):(\$16/1e6) title "pthread mutex" lc rgb "#d62728"

set origin 0,0
set size 1,0.265
set title "Grace-period latency: rculist_synchronize_rcu(), log scale" noenhanced
set ylabel "microseconds"
plot "$out/chart-gp.dat" \
	using 2:3:4:xtic(1) title "p50, no reader" lc rgb "#c6dbef", \
	'' using 5:6:7 title "p50, busy reader" lc rgb "#4292c6", \
	'' using 8:9:10 title "p99.9, busy reader" lc rgb "#08306b"
unset multiplot
GP
done
