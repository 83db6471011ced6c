#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/tsan/zero_cost.sh OUTDIR CC [CFLAGS...]
#
# Without -fsanitize=thread, <rculist/tsan.h> changes nothing: compile
# tests/tsan/zero_cost.c (every call it reroutes) and
# tests/debug/zero_cost.c (every operation, accessor and iterator)
# against the shipped headers and against a copy whose ThreadSanitizer
# block (TSAN-BEGIN to TSAN-END) is deleted, at -O0 and -O2, with the
# read side called in the library and inlined (-DRCULIST_INLINE_MEMB),
# and require identical disassembly.  With -fsanitize=thread the two
# must differ (the block is really there).
set -eu

out=$1 cc=$2
shift 2
rm -rf "$out"
mkdir -p "$out/include"
cp -R include/. "$out/include/"
sed '/TSAN-BEGIN/,/TSAN-END/d' include/rculist/tsan.h > "$out/include/rculist/tsan.h"
if cmp -s include/rculist/tsan.h "$out/include/rculist/tsan.h" ||
   grep -q 'rculist__tsan_' "$out/include/rculist/tsan.h"; then
	echo "zero_cost: the TSAN-BEGIN/TSAN-END block of rculist/tsan.h not found whole" >&2
	exit 1
fi

dis() { # tree src flags...
	inc=include
	[ "$1" = stripped ] && inc=$out/include
	src=$2
	shift 2
	"$cc" -std=gnu11 "$@" -g0 -I"$inc" -c "$src" -o "$out/o.o"
	objdump -d --no-show-raw-insn "$out/o.o" | sed -e '1,/^Disassembly/d'
}

n=0
for src in tests/tsan/zero_cost.c tests/debug/zero_cost.c; do
	for mode in "" -DRCULIST_INLINE_MEMB; do
		for opt in -O0 -O2; do
			dis shipped $src "$@" $mode $opt > "$out/shipped.dis"
			dis stripped $src "$@" $mode $opt > "$out/stripped.dis"
			if ! cmp -s "$out/shipped.dis" "$out/stripped.dis"; then
				echo "zero_cost: $src $mode $opt: <rculist/tsan.h> generates code without -fsanitize=thread:" >&2
				diff -u "$out/stripped.dis" "$out/shipped.dis" | head -40 >&2
				exit 1
			fi
			n=$((n + $(grep -c '^ *[0-9a-f]*:' "$out/shipped.dis")))
		done
	done
done
"$cc" -std=gnu11 "$@" -O2 -fsanitize=thread -Iinclude -c tests/tsan/zero_cost.c -o "$out/o.o"
if ! nm "$out/o.o" | grep -q ' U rculist__tsan_read_unlock$'; then
	echo "zero_cost: with -fsanitize=thread, <rculist/tsan.h> changed nothing" >&2
	exit 1
fi
echo "zero_cost: $cc: $n instructions (8 builds) identical with and without <rculist/tsan.h>'s block; with -fsanitize=thread the read side calls rculist__tsan_read_unlock"
