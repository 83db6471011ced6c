#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The calls between the library's objects run one way (HACKING.md,
# "Layers"): for each flavour, an arrow A -> B when object A uses a
# symbol that object B defines (nm), among build/obj/flavors/<f>.o and
# build/obj/core/*.o; any cycle fails the check, printed.
#
# usage: layers.sh BUILD_DIR FLAVOUR...
set -eu
b=$1
shift
status=0
for f in "$@"; do
	objs="$b/obj/flavors/$f.o $(ls "$b"/obj/core/*.o)"
	for o in $objs; do
		[ -f "$o" ] || { echo "layers: $o missing (make lib first)" >&2; exit 1; }
	done
	for o in $objs; do
		n=$(basename "$(dirname "$o")")/$(basename "$o" .o)
		[ "$n" = "flavors/$f" ] && n="flavor"
		# Defined (text, data, bss, rodata, TLS), then undefined.
		nm -P "$o" | awk -v n="$n" '$2 ~ /^[TDBRVW]$/ { print "D", n, $1 }
			$2 == "U" { print "U", n, $1 }'
	done | awk -v f="$f" '
		$1 == "D" { def[$3] = $2; next }
		{ use[++nu] = $2; sym[nu] = $3 }
		END {
			for (i = 1; i <= nu; i++) {
				d = def[sym[i]]
				if (d == "" || d == use[i]) continue
				if (!((use[i], d) in edge)) {
					edge[use[i], d] = sym[i]
					adj[use[i]] = adj[use[i]] " " d
					nodes[use[i]]; nodes[d]
				}
			}
			# Depth-first search for a back edge.
			bad = 0
			for (n in nodes) if (!color[n]) dfs(n, 0)
			if (bad) exit 1
			nl = 0; for (n in nodes) nl++
			printf "layers %s: %d objects, no cycle\n", f, nl
		}
		function dfs(n, depth,   k, m, i, parts, cyc) {
			color[n] = 1; path[depth] = n
			k = split(adj[n], parts, " ")
			for (i = 1; i <= k; i++) {
				m = parts[i]
				if (color[m] == 1) {
					cyc = ""
					for (j = depth; j >= 0; j--) {
						cyc = path[j] (cyc == "" ? "" : " -> ") cyc
						if (path[j] == m) break
					}
					printf "layers %s: cycle: %s -> %s\n", f, cyc, m
					for (j = depth; j >= 0 && path[j] != m; j--) ;
					for (; j < depth; j++)
						printf "    %s -> %s (%s)\n", path[j], path[j+1], edge[path[j], path[j+1]]
					printf "    %s -> %s (%s)\n", n, m, edge[n, m]
					bad = 1
				} else if (!color[m]) dfs(m, depth + 1)
			}
			color[n] = 2
		}' || status=1
done
exit $status
