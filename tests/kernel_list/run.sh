#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/kernel_list/run.sh - the Linux kernel's KUnit list tests
# (lib/list-test.c, lib/tests/list-test.c since v6.14: suites
# list-kunit-test, hlist, klist) run against the installed rculist.
#
#   tests/kernel_list/run.sh KERNEL [FLAVOUR...]
#
# KERNEL is a kernel source tree or its list-test.c.  Nothing of the
# kernel is in rculist (the test is GPL-2.0): this script maps it
# mechanically in a scratch directory (mktemp, or $KTEST_DIR) and never
# writes into the source tree:
#   - the kernel's list names to rculist's: list_* and hlist_* to
#     cds_list_* and cds_hlist_* (struct list_head, struct hlist_node,
#     every operation and iterator), LIST_HEAD, LIST_HEAD_INIT,
#     HLIST_HEAD(_INIT), INIT_LIST_HEAD, INIT_HLIST_HEAD/_NODE to CDS_*;
#     the test's own names (list_test_*, hlist_test_*, list_values) stay;
#   - its #includes to tests/kernel_list/kunit.h (ours: KUnit's checks,
#     suites and main() over <rculist.h>, kmalloc and friends to malloc);
#   - every top-level definition whose code names a kernel-only facility
#     is cut out, and its cases are listed as skipped with the reason:
#     klist (<linux/klist.h>, kref-counted nodes behind a spinlock) is
#     not a list rculist has;
#   - a case that does not compile is cut out the same way and counts as
#     a failure ("NOT RUN: does not compile: <gcc's first error>"), so
#     that the other cases still run; a compile error outside every case
#     stops the run.
# rculist is built and installed (make install) into $work/prefix and
# found with pkg-config, as a user's program finds it.  The cases run
# once: the list operations are inline functions of the headers, the
# same under every flavour, and the script checks it (nm: the object
# calls nothing of rculist or liburcu, so it is linked with neither).
# Should that check find a call, the cases run once per FLAVOUR (default
# memb qsbr bp mb) instead.  Prints one "ok"/"not ok" line per case and
# a count; exits non-zero if a case failed or did not compile.
# KTEST_CC (default cc: gcc, whose "In function" lines attribute an
# error to its case), KTEST_CFLAGS (added, e.g. -DRCULIST_DEBUG, which
# calls the library's checks: then every flavour runs),
# KTEST_KEEP=1 keeps $work.
set -eu

if [ $# -lt 1 ]; then
	echo "usage: $0 KERNEL-TREE|list-test.c [flavour...]" >&2
	exit 2
fi
src=$1
shift
if [ -d "$src" ]; then
	for f in lib/tests/list-test.c lib/list-test.c; do
		[ -f "$src/$f" ] && { src=$src/$f; break; }
	done
fi
[ -f "$src" ] || { echo "$0: no list-test.c in $src" >&2; exit 2; }
flavours=${*:-memb qsbr bp mb}
top=$(cd "$(dirname "$0")/../.." && pwd)
work=${KTEST_DIR:-$(mktemp -d /tmp/rculist-klist.XXXXXX)}
cc=${KTEST_CC:-cc}
mkdir -p "$work"
[ "${KTEST_KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
export LC_ALL=C

echo "== kernel list tests: $src, mapped in $work"
make -C "$top" --no-print-directory install PREFIX="$work/prefix" \
	GEN_B="$work/gen" >"$work/install.log" 2>&1 ||
	{ tail -20 "$work/install.log" >&2; exit 1; }
pc="$work/prefix/lib/pkgconfig"
cflags="$(PKG_CONFIG_PATH=$pc pkg-config --cflags rculist-memb) -I$top/tests/kernel_list"

# The names.  Word boundaries keep klist_* (not a list of ours) apart.
sed -E \
	-e '/^#include </d' \
	-e 's/\b(h?list_[A-Za-z0-9_]*)/cds_\1/g' \
	-e 's/\bcds_(h?list_test_[A-Za-z0-9_]*|list_values\b)/\1/g' \
	-e 's/\b(INIT_)?(H?LIST_HEAD(_INIT)?|HLIST_NODE)\b/CDS_\1\2/g' \
	"$src" >"$work/named.c"

# The cuts: one rule a line, "ERE<TAB>skip|fail<TAB>reason".
printf '%s\t%s\t%s\n' '(^|[^A-Za-z0-9_])klist' skip \
	'klist (<linux/klist.h>: kref-counted nodes behind a spinlock) is kernel-only, not an rculist list' \
	>"$work/rules"

# Splits named.c into top-level definitions (a line closing them at
# brace depth 0), drops those whose code (comments aside) matches a rule,
# except the case tables, suites and registration, and turns each case
# of a dropped function, or whose name matches a rule, into
# KUNIT__CASE_NOT_RUN(name, reason, fails).
cut() {
	awk -F '\t' '
	BEGIN { n = 0 }
	FNR == NR { re[++nr] = $1; fails[nr] = $2 == "fail"; why[nr] = $3; next }
	{
		chunk[n] = chunk[n] $0 "\n"
		# t: the line without its comments (cm: inside /* */).
		t = $0; u = ""
		while (t != "") {
			if (cm) {
				if (!match(t, /\*\//)) { t = ""; break }
				t = substr(t, RSTART + 2); cm = 0
			} else if (match(t, /\/\*|\/\//)) {
				u = u substr(t, 1, RSTART - 1)
				if (substr(t, RSTART, 2) == "//") { t = ""; break }
				t = substr(t, RSTART + 2); cm = 1
			} else {
				u = u t; t = ""
			}
		}
		code[n] = code[n] u "\n"
		o = u; c = u
		depth += gsub(/{/, "", o) - gsub(/}/, "", c)
		if (depth == 0 && u ~ /([};][ \t]*|^#.*)$/)
			n++
	}
	function rule(s,   i) {
		for (i = 1; i <= nr; i++)
			if (s ~ re[i])
				return i
		return 0
	}
	END {
		for (i = 0; i <= n; i++) {
			if (code[i] ~ /kunit_case|kunit_suite|kunit_test_suite/)
				continue
			if (!(r = rule(code[i])))
				continue
			drop[i] = 1
			if (match(code[i], /static void [A-Za-z0-9_]+\(struct kunit \*/))
				dropped[substr(code[i], RSTART + 12, RLENGTH - 27)] = r
		}
		print "#include \"kunit.h\""
		for (i = 0; i <= n; i++) {
			if (drop[i])
				continue
			s = chunk[i]; out = ""
			while (match(s, /KUNIT_CASE\([A-Za-z0-9_]+\)/)) {
				name = substr(s, RSTART + 11, RLENGTH - 12)
				r = name in dropped ? dropped[name] : rule(name)
				out = out substr(s, 1, RSTART - 1)
				if (r)
					out = out sprintf("KUNIT__CASE_NOT_RUN(%s, \"%s\", %d)",
							  name, why[r], fails[r])
				else
					out = out substr(s, RSTART, RLENGTH)
				s = substr(s, RSTART + RLENGTH)
			}
			printf "%s%s", out, s
		}
	}' "$work/rules" "$work/named.c" >"$work/mapped.c"
}

# Compiles; each case gcc reports an error in becomes a "fail" rule.
# Warnings are not shown, but a call of an undeclared function (an
# operation rculist lacks, which C would otherwise let through to the
# link) and a pointer of another type (a structure that differs from the
# kernel's) are errors.
KTEST_ERRORS="-Werror=implicit-function-declaration -Werror=incompatible-pointer-types -Werror=int-conversion"
tries=0
while :; do
	cut
	# shellcheck disable=SC2086
	if $cc -std=gnu11 -O2 -g $KTEST_ERRORS $cflags ${KTEST_CFLAGS:-} -c "$work/mapped.c" \
		-o "$work/mapped.o" 2>"$work/cc.log"; then
		break
	fi
	tries=$((tries + 1))
	awk '/: In function /{ f = $0; sub(/^[^'\'']*'\''/, "", f); sub(/'\''.*/, "", f) }
	     /: error: /{ e = $0; sub(/^.*: error: /, "", e); print f "\t" e }' \
		"$work/cc.log" | sort -u -k1,1 >"$work/errors"
	new=0
	while IFS='	' read -r fn err; do
		if [ -n "$fn" ] && grep -q "KUNIT_CASE($fn)" "$work/mapped.c"; then
			why=$(printf 'does not compile: %s' "$err" | sed 's/[\\"]/\\&/g')
			printf '(^|[^A-Za-z0-9_])%s([^A-Za-z0-9_]|$)\tfail\t%s\n' "$fn" "$why" \
				>>"$work/rules"
			new=1
		fi
	done <"$work/errors"
	if [ $new = 0 ] || [ $tries -ge 50 ]; then
		echo "kernel list tests: a compile error outside every case:" >&2
		grep -E 'error|In function' "$work/cc.log" | head -20 >&2
		exit 1
	fi
done

# The same under every flavour unless the object calls into one.
calls=$(nm -u "$work/mapped.o" | awk '$1 == "U" && $2 ~ /^(rculist|urcu|rcu_|call_rcu|synchronize_rcu)/ { print $2 }')
if [ -z "$calls" ]; then
	echo "   no call into rculist or liburcu (nm -u): run once, linked with neither"
	runs=none
else
	echo "   calls $(echo "$calls" | tr '\n' ' '): run under $flavours"
	runs=$flavours
fi
bad=0
for f in $runs; do
	libs=
	[ "$f" = none ] || libs="$(PKG_CONFIG_PATH=$pc pkg-config --libs rculist-$f) -Wl,-rpath,$work/prefix/lib -lpthread"
	# shellcheck disable=SC2086
	$cc "$work/mapped.o" -o "$work/kunit-$f" $libs
	st=0
	timeout 120 "$work/kunit-$f" >"$work/out-$f.txt" 2>&1 || st=$?
	sed 's/^/   /' "$work/out-$f.txt"
	[ $st = 0 ] || bad=1
done
[ $bad = 0 ] && echo "== kernel list tests: passed"
exit $bad
