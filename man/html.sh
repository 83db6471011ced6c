#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# man/html.sh - the generated man pages as HTML, with an index.
#
#   man/html.sh MAN_DIR OUT_DIR VERSION
#
# MAN_DIR is what man/gen.sh wrote (man3/, man7/, index).  Each page is
# rendered by groff -Thtml (grohtml); "name(3)" references to pages that
# exist become links.  OUT_DIR/index.html lists the overview pages, then
# every name, header by header, with its summary.
set -e
src=$1 out=$2 version=$3

rm -rf "$out"
mkdir -p "$out"
# grohtml draws what it cannot set as text (tbl tables) into PNG files in
# the current directory: render in $out, each page's images named after it.
src=$(cd "$src" && pwd)
pages=$(cd "$src" && ls man7/*.7 man3/*.3)

# Links: <b>name</b>(N) where name.N exists.
ls "$src/man3" "$src/man7" | sed -n 's/^\(.*\)\.\([0-9]\)$/\1 \2/p' > "$out/.pages"
sedlinks=$(awk '{ n = $1; gsub(/[.]/, "\\.", n)
	printf "s|<b>%s</b>(%s)|<a href=\"%s.%s.html\"><b>%s</b></a>(%s)|g;", n, $2, $1, $2, $1, $2 }' \
	"$out/.pages")
for p in $pages; do
	f=${p#man?/}
	(cd "$out" && groff -t -Thtml -man -P -l -P -r -P -I"$f-" "$src/$p" 2>/dev/null) |
		sed "$sedlinks" > "$out/$f.html"
done
rm -f "$out/.pages"

esc() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g'; }
{
	printf '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
	printf '<title>rculist %s manual</title></head><body>\n' "$version"
	printf '<h1>rculist %s manual</h1>\n<h2>Overviews</h2>\n<ul>\n' "$version"
	for p in $pages; do
		f=${p#man?/}
		n=${f%.*} s=${f##*.}
		case $p in
		man7/*) ;;
		*) [ -f "$(dirname "$0")/man3/$f" ] || continue ;;
		esac
		# A family page: its family's title; else the NAME line.
		what=$(sed -n 's/^\.\\" family-title: //p' "$src/$p")
		[ -n "$what" ] || what=$(sed -n '/^\.SH NAME/{n;p;}' "$src/$p" | sed 's/.*\\- //')
		what=$(printf '%s\n' "$what" | esc)
		printf '<li><a href="%s.html">%s(%s)</a>: %s</li>\n' "$f" "$n" "$s" "$what"
	done
	printf '</ul>\n<h2>Every name, by header</h2>\n'
	awk -F '\t' '
		function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
		$3 != h { if (h != "") print "</dl>"; h = $3; printf "<h3>&lt;%s&gt;</h3>\n<dl>\n", esc(h) }
		{ printf "<dt><a href=\"%s.%s.html\"><code>%s</code></a></dt><dd>%s</dd>\n", $1, $2, $1, esc($4) }
		END { if (h != "") print "</dl>" }' "$src/index"
	printf '</body></html>\n'
} > "$out/index.html"
