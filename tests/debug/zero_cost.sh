#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/debug/zero_cost.sh OUTDIR CC [CFLAGS...]
#
# Debug mode costs nothing when off: compile tests/debug/zero_cost.c (every
# operation, accessor and iterator) against the shipped headers, and
# against copies of them whose debug hooks are deleted, at -O0 and -O2,
# and require the disassembly to be identical.  The copies also compute
# member offsets without the compile-time member type checks.  They must
# still compile and must hold no hook: a new kind of hook that the edit
# below does not know fails the check rather than passing it.
set -eu

out=$1 cc=$2
shift 2
src=tests/debug/zero_cost.c
rm -rf "$out"
mkdir -p "$out/include"
cp -R include/. "$out/include/"

# Delete every hook: statement lines, the reader check inside a for
# initialisation, and the one alone in an empty for initialisation.
for h in list list_rcu hlist hlist_rcu hlist_bl; do
	sed -e '/^[[:space:]]*RCULIST__\(CHECK\|POISON\)_[A-Z_]*(.*);[[:space:]]*$/d' \
	    -e 's/RCULIST__CHECK_READER(),[[:space:]]*//g' \
	    -e 's/for (RCULIST__CHECK_READER();/for (;/g' \
	    "include/rculist/$h.h" > "$out/include/rculist/$h.h"
	if grep -n 'RCULIST__\(CHECK\|POISON\)_' "$out/include/rculist/$h.h"; then
		echo "zero_cost: hooks left in rculist/$h.h after deletion" >&2
		exit 1
	fi
	if cmp -s "include/rculist/$h.h" "$out/include/rculist/$h.h"; then
		echo "zero_cost: no hook found in rculist/$h.h" >&2
		exit 1
	fi
done

# The member type checks of the *_entry macros and iterators (compiler.h)
# cost nothing either: the stripped tree computes plain offsetof().
sed -e 's|^#endif /\* RCULIST_COMPILER_H \*/$|#undef RCULIST__MEMBER_OFFSETOF\
#define RCULIST__MEMBER_OFFSETOF(type, member, checker, node, msg) offsetof(type, member)\
&|' include/rculist/compiler.h > "$out/include/rculist/compiler.h"
if cmp -s include/rculist/compiler.h "$out/include/rculist/compiler.h"; then
	echo "zero_cost: no member type check found in rculist/compiler.h" >&2
	exit 1
fi

for opt in -O0 -O2; do
	for tree in shipped stripped; do
		inc=include
		[ $tree = stripped ] && inc=$out/include
		"$cc" -std=gnu11 "$@" $opt -g0 -I"$inc" -c "$src" \
			-o "$out/$tree$opt.o"
		objdump -d --no-show-raw-insn "$out/$tree$opt.o" |
			sed -e '1,/^Disassembly/d' > "$out/$tree$opt.dis"
	done
	if ! cmp -s "$out/shipped$opt.dis" "$out/stripped$opt.dis"; then
		echo "zero_cost: $opt: the hooks generate code:" >&2
		diff -u "$out/stripped$opt.dis" "$out/shipped$opt.dis" | head -40 >&2
		exit 1
	fi
	fns=$(grep -c '^[0-9a-f]* <z_' "$out/shipped$opt.dis")
	insns=$(grep -c '^ *[0-9a-f]*:' "$out/shipped$opt.dis")
	echo "zero_cost: $cc $opt: $fns functions, $insns instructions, identical with and without the hooks and member type checks"
done
