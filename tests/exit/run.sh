#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/exit/run.sh RUNS TIMEOUT DIR FLAVOUR... - run each exit program
# of DIR (exit-<flavour>: return, exit-reading, exit-parked;
# exit-cxx-<flavour>: return, exit-reading) RUNS times per mode under
# `timeout TIMEOUT`; each run must exit 0 having printed exactly its
# expected line.  Every run is made; the failures are named (flavour,
# program, mode, run) and counted, and the status is 1 if there is one.
runs=$1 limit=$2 dir=$3
shift 3
fails=0 total=0

# run PROG MODE EXPECTED
run() {
	i=1
	while [ "$i" -le "$runs" ]; do
		total=$((total + 1))
		out=$(timeout -k 2 "$limit" "$dir/$1" "$2" 2>"$dir/stderr")
		st=$?
		why=
		if [ "$st" = 124 ] || [ "$st" = 137 ]; then
			why="did not end within $limit s (hung at exit?)"
		elif [ "$st" != 0 ]; then
			why="exit status $st"
		elif [ "$out" != "$3" ]; then
			why="printed '$out', expected '$3'"
		fi
		if [ -n "$why" ]; then
			fails=$((fails + 1))
			echo "check-exit: $f: $1 $2, run $i of $runs: $why" >&2
			sed 's/^/    stderr: /' "$dir/stderr" >&2
		fi
		i=$((i + 1))
	done
}

for f in "$@"; do
	for m in return exit-reading exit-parked; do
		run "exit-$f" "$m" "$f $m: 32 left, both ways; 16 free_rcu and 16 call_rcu queued"
	done
	for m in return exit-reading; do
		run "exit-cxx-$f" "$m" "$f $m: 64 replaced, each old value retired"
	done
done
if [ "$fails" -gt 0 ]; then
	echo "check-exit: $fails of $total runs failed" >&2
	exit 1
fi
echo "== check-exit: $total runs ($runs per program and mode, flavours: $*), each exited 0 within $limit s"
