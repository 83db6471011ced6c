#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/model/run.sh DIR MODEL [WEAKENING] - check the Promela model MODEL
# with spin in DIR, with -DWEAKEN_<WEAKENING> if given (tests/model/model.mk).
# SPIN_DEFS: more -D options for spin; PAN_FLAGS: for pan (-E: invalid
# end states are not errors, for a model whose property is its timeout
# assertion).
#
# Exit 0: exhaustive search, no violation.  Exit 1: a violation; the
# counterexample is replayed (DIR/trail.txt) and its end printed.  Exit 2:
# the model did not build, or the search was incomplete.
set -u
dir=$1 model=$2 weak=${3:-}
defs=${SPIN_DEFS:-}
[ -n "$weak" ] && defs="$defs -DWEAKEN_$(echo "$weak" | tr a-z A-Z)"
depth=${MODEL_DEPTH:-400000}

rm -rf "$dir" && mkdir -p "$dir" && cp "$model" "$dir/list.pml" && cd "$dir" || exit 2
spin $defs -a list.pml >spin.out 2>&1 || { cat spin.out; exit 2; }
# -w: pan.c trips gcc's -Wstringop-overflow on guarded array stores.
${CC_PAN:-gcc} -O2 -w -DSAFETY -DCOLLAPSE -DMEMLIM=2048 -o pan pan.c || exit 2
./pan ${PAN_FLAGS:-} -m"$depth" >pan.out 2>&1
states=$(sed -n 's/^ *\([0-9e.+]*\) states, stored.*/\1/p' pan.out)
secs=$(sed -n 's/^pan: elapsed time \([0-9.e+]*\) seconds.*/\1/p' pan.out)
label="${weak:-correct}${SPIN_DEFS:+ $SPIN_DEFS}"
if grep -q 'errors: 0' pan.out; then
	if grep -q 'max search depth too small' pan.out; then
		echo "   model ($label): search depth $depth too small: incomplete"; exit 2
	fi
	echo "   model ($label): no violation, $states states, ${secs} s"
	exit 0
fi
if ! grep -q 'list.pml.trail' pan.out; then
	tail -20 pan.out; exit 2
fi
spin $defs -t list.pml >replay.txt 2>&1
sed -n 's/^ *\([UMR][0-9]* .*\)/\1/p' replay.txt >story.txt
if [ ! -s story.txt ]; then
	# A model that prints no story: spin's own trail, its last steps.
	spin $defs -t -p list.pml 2>&1 | grep -E '^ *[0-9]+:.*proc' |
		sed 's/list.pml://; s/(state [0-9]*)//' | tail -25 >story.txt
fi
echo "   model ($label): counterexample after $states states, ${secs} s:"
# The property: the comment above the assertion that failed.
line=$(sed -n 's/^spin: list.pml:\([0-9]*\), Error: assertion violated.*/\1/p' replay.txt | head -1)
if [ -n "$line" ]; then
	awk -v n="$line" 'NR < n && /\/\*/ { c = $0 } NR == n { print c; exit }' list.pml |
		sed 's|^[[:space:]]*/\* *\(.*\) \*/|     violated: \1|'
	echo "     (list.pml:$line: $(sed -n "${line}p" list.pml | sed 's/^[[:space:]]*//'))"
else
	grep -m1 'assertion violated' pan.out | sed 's/^/     /'
fi
# The story (spin -t): every step of the updater (U) and of memory (M),
# and the failing reader's (Rn) last read-side critical section.
if grep -q '^[UMR]' story.txt; then
	echo "     U updater, M store reaches memory (seen by readers), Rn reader n;"
	echo "     .n .p .k: next, prev, key; key M/?/X: MAGIC, garbage, poison:"
fi
awk '/^R/ { last = $1 } { line[NR] = $0 } END {
	for (i = NR; i > 0; i--)
		if (line[i] ~ "^" last " +read_lock") { from = i; break }
	for (i = 1; i <= NR; i++)
		if (line[i] !~ /^R/ || (i >= from && line[i] ~ "^" last " "))
			print "       " line[i]
}' story.txt
echo "     (replay: cd $dir && spin $defs -t -p list.pml)"
exit 1
