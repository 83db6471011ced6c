#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/mutants/run.sh - plant each bug of tests/mutants/*.patch, one at a
# time, in a scratch copy of the tree, and run the unit suite of every
# flavour RUNS times against it: each run must fail.
#
#   tests/mutants/run.sh OUTDIR "FLAVORS" [RUNS] [FILTER] [PATCH...]
#
# FILTER is a Criterion --filter ('conc_updates/*' by default, the suite
# written to catch these bugs; '*' runs the whole unit suite).  Prints one
# line per mutant and flavour:
#   <mutant> <flavour>: caught R/R runs in S s (failing: <tests>)
# and exits 1 if any run of any mutant passed (a survivor), or did not end
# within the bound.  With MUTANT_BOUND_FAILS=1 a run cut at the bound
# counts as failed (as check-unit's outer timeout makes it): for bugs
# whose point is that the suite must end.
set -u

out=$1
flavors=$2
runs=${3:-5}
filter=${4:-conc_updates/*}
if [ $# -gt 4 ]; then shift 4; else set --; fi
here=$(cd "$(dirname "$0")/../.." && pwd)
patches=${*:-$(ls "$here"/tests/mutants/*.patch)}
# A run that has not ended after this many seconds counts as not caught.
bound=${MUTANT_BOUND:-120}
make=${MAKE:-make}

mkdir -p "$out"
survivors=0
for patch in $patches; do
	name=$(basename "$patch" .patch)
	tree=$out/$name
	rm -rf "$tree" && mkdir -p "$tree"
	(cd "$here" && cp -R Makefile include core flavors tests "$tree"/)
	# The planted bug's own build: nothing shared with the real one.
	if ! patch -s -d "$tree" -p1 < "$patch"; then
		echo "$name: patch does not apply" >&2
		exit 2
	fi
	for f in $flavors; do
		if ! $make -s -C "$tree" -j2 "build/tests/$f/unit" \
				>"$tree/build-$f.log" 2>&1; then
			echo "$name $f: does not build (see $tree/build-$f.log)" >&2
			exit 2
		fi
		caught=0
		failing=""
		start=$(date +%s)
		i=0
		while [ $i -lt "$runs" ]; do
			i=$((i + 1))
			log=$tree/run-$f-$i.log
			timeout -k 5 "$bound" "$tree/build/tests/$f/unit" \
				--jobs 2 --filter "$filter" >"$log" 2>&1
			rc=$?
			if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
				failing="$failing cut-at-${bound}s"
				[ "${MUTANT_BOUND_FAILS:-0}" = 1 ] &&
					caught=$((caught + 1))
			elif [ $rc -ne 0 ]; then
				caught=$((caught + 1))
			fi
			failing="$failing $(sed -n 's/^\[\(FAIL\|CRASH\)\] \([^:]*::[^:]*\):.*/\2/p' "$log")"
		done
		secs=$(( $(date +%s) - start ))
		failing=$(echo $failing | tr ' ' '\n' | grep . | sort | uniq -c |
			  awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}')
		echo "$name $f: caught $caught/$runs runs in $secs s (failing: ${failing:-none})"
		[ $caught -eq "$runs" ] || survivors=$((survivors + 1))
	done
done
if [ $survivors -ne 0 ]; then
	echo "mutants: $survivors mutant/flavour pairs survived at least one run" >&2
	exit 1
fi
echo "mutants: every planted bug caught in every run"
