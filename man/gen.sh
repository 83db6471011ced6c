#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# man/gen.sh - write the manual from the installed headers' kerneldoc
# comments and the hand-written pages (man/gen.awk does the work).
#
#   man/gen.sh OUT "FLAVORS" URCU_NAMES INCLUDE_DIR [TEMPLATE...]
#
# OUT/man3/NAME.3   one page per public name of INCLUDE_DIR/rculist.h
#                   and INCLUDE_DIR/rculist/*.h (a family page where a
#                   template man3/NAME.3 exists)
# OUT/man7/*.7      the man7 templates, expanded
# OUT/names         every public name found, documented or not
# OUT/index         name, section, header, summary (for make doc)
# OUT/problems      names without a doc comment, comments without a
#                   Context: or an argument, ... (empty when all is well)
# Needs only sh, sed and a POSIX awk.
set -e
out=$1 flavors=$2 urcu=$3 inc=$4
shift 4

# The headers in the order <rculist.h> includes them, then the others
# (included by those), so that each name is listed where it is defined.
order=$(sed -n 's/^#include "\(rculist\/[a-z_]*\.h\)".*/\1/p' "$inc/rculist.h")
headers="$inc/rculist.h"
for h in $order; do
	[ -f "$inc/$h" ] && headers="$headers $inc/$h"
done
for h in "$inc"/rculist/*.h; do
	case " $headers " in *" $h "*) ;; *) headers="$headers $h" ;; esac
done

version=$(awk '$1 == "#define" { v[$2] = $3 }
	END { print v["RCULIST_VERSION_MAJOR"] "." v["RCULIST_VERSION_MINOR"] "." v["RCULIST_VERSION_PATCH"] }' \
	"$inc/rculist/version.h")
# The date of the newest header or page, for .TH.
newest=$(ls -t $headers "$@" | head -n 1)
date=$(date -u -r "$newest" +%Y-%m-%d)

rm -rf "$out/man3" "$out/man7"
mkdir -p "$out/man3" "$out/man7"
: > "$out/index"
awk -v mode=man -v out="$out" -v urcu="$urcu" -v flavors="$flavors" \
	-v version="$version" -v date="$date" -v strip="$inc/" \
	-v templates="$*" -f "$(dirname "$0")/gen.awk" $headers
