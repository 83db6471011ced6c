#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/thread_safety/run.sh - clang's thread-safety analysis on rculist
# programs (make check-thread-safety).
#
#   run.sh misuse LABEL 'COMPILER FLAGS' FILE...
#	Each FILE holds one mistake, on the line marked "MISUSE */", and
#	an "expect:" comment line with the warning (an extended regular
#	expression) clang must give there.  The file must fail to compile
#	with -Wthread-safety -Werror, with that one diagnostic and no other
#	(so it is otherwise correct C).
#   run.sh correct LABEL 'COMPILER FLAGS' FILE...
#	Each FILE must compile with -Wthread-safety -Werror.
#
# Prints one summary line; exits non-zero at the first failure.
set -u
mode=$1 label=$2 cc=$3
shift 3
n=0
for f in "$@"; do
	n=$((n + 1))
	case $mode in
	correct)
		out=$($cc -fsyntax-only -Wthread-safety -Werror "$f" 2>&1) || {
			printf '%s\n' "$out" >&2
			echo "thread-safety [$label]: $f: warnings on a correct program" >&2
			exit 1
		}
		;;
	misuse)
		expect=$(sed -n 's|^/\* expect: \(.*\) \*/$|\1|p' "$f")
		line=$(grep -n 'MISUSE \*/' "$f" | cut -d: -f1)
		if [ -z "$expect" ] || [ -z "$line" ] ||
		   [ "$(printf '%s\n' "$line" | wc -l)" != 1 ]; then
			echo "thread-safety: $f: needs one expect: line and one MISUSE mark" >&2
			exit 1
		fi
		if out=$($cc -fsyntax-only -Wthread-safety -Werror "$f" 2>&1); then
			echo "thread-safety [$label]: $f: no warning (expected: $expect)" >&2
			exit 1
		fi
		diags=$(printf '%s\n' "$out" | grep -E '^[^ ]+:[0-9]+:[0-9]+: (error|warning):')
		want="^$f:$line:[0-9]+: error: $expect \[-Werror,-Wthread-safety-analysis\]\$"
		if [ "$(printf '%s\n' "$diags" | wc -l)" != 1 ] ||
		   ! printf '%s\n' "$diags" | grep -Eq "$want"; then
			printf '%s\n' "$out" >&2
			echo "thread-safety [$label]: $f: expected exactly, at line $line: $expect" >&2
			exit 1
		fi
		;;
	*)
		echo "run.sh: mode misuse or correct" >&2
		exit 2
		;;
	esac
done
case $mode in
correct) echo "   correct [$label]: 0 warnings in $n file(s)" ;;
misuse)  echo "   misuse [$label]: $n of $n files give the expected warning at the marked line" ;;
esac
