# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/report.awk - the closing tables of `make bench`, one row per
# flavour, from summary.csv (awk -F, -v flavors="memb qsbr ..." -v
# out=BENCH_OUT): what a user picks a flavour by.  The text sections'
# tables read what bench/run.sh saved of them, out/<section>.txt
# (poll, reclaim, stall); a section run without its file prints none.  The static binary (label <f>-static)
# gives the static and the LTO link; each overhead is over the plain walk
# of the same binary (paired: "ovh-ns"), and each ratio to liburcu inline
# is to liburcu's overhead in that binary, or "noise" when the range of
# liburcu's holds 0.
NR > 1 {
	k = $1 "," $2 "," $3 "," $4 "," $5
	med[k] = $6; lo[k] = $7; hi[k] = $8; bad[k] = $10
	rows++
}
function key(l, sec, w, s, m) { return l "," sec "," w "," s "," m }
function has(k) { return (k in med) && med[k] != "nan" }
# Overhead of side s over plain in binary l, section sec, list8: the
# median of differences paired in the same round (bench/q_read.c).
function ovh(l, sec, s,    k) {
	k = key(l, sec, "list8", s, "ovh-ns")
	if (!has(k)) return "-"
	return sprintf("%.1f%s", med[k], bad[k] ? "!" : "")
}
# Its ratio to liburcu inline's, or "noise" where liburcu's range holds 0.
function xurcu(l, sec, s,    k, u) {
	k = key(l, sec, "list8", s, "ovh-ns"); u = key(l, sec, "list8", "urcu", "ovh-ns")
	if (!has(k) || !has(u)) return "-"
	if (lo[u] <= 0 && hi[u] >= 0) return "noise"
	return sprintf("%.2fx", med[k] / med[u])
}
function val(k, div, fmt) {
	if (!has(k)) return "-"
	return sprintf(fmt "%s", med[k] / div, bad[k] ? "!" : "")
}
# a / b with two decimals: the 2-reader ratio is read against 0.95.
# The median of the paired runs' ratios (@p, bench/q_conc.c) when the
# run has them; else the ratio of the two medians.
function ratio2(a, b, p) {
	if (has(p)) return sprintf("%.2fx%s", med[p], bad[p] ? "!" : "")
	if (!has(a) || !has(b) || med[b] == 0) return "-"
	return sprintf("%.2fx", med[a] / med[b])
}
function ratio(a, b) {
	if (!has(a) || !has(b) || med[b] == 0) return "-"
	return sprintf("%.1fx", med[a] / med[b])
}
END {
	n = split(flavors, fl, " ")
	poll = out "/poll.txt"; reclaim = out "/reclaim.txt"; stall_txt = out "/stall.txt"
	cxx = out "/cxx.txt"; rhash = out "/rhash.txt"
	if (rows)
		closing_table()
	poll_table()
	reclaim_table()
	stall_table()
	cxx_table()
	rhash_table()
}
function closing_table(    i, f, s, rd, r2) {
	print "\nWhich flavour: medians of this run ('!': a disturbed sample, see the tables above)"
	print "read: ns a read-side section adds to a lookup in a list of 8; x: its overhead over liburcu inline's"
	print "      (qsbr readers announce a quiescent state per 1024 lookups, as liburcu's benchmark; what one"
	print "      costs is in the cost table: an empty section and a quiescent state after each)"
	print "2 readers: M lookups/s of 2 reader threads, no updater (list of 8), rculist's default link over liburcu inline's"
	print "readers: M lookups/s of 1 reader beside 1 flat-out updater (list of 8), over rwlock's, over liburcu's"
	print "synchronize: rculist_synchronize_rcu() with a busy reader; update: cds_list_replace_rcu()"
	printf "\n%-6s %-58s | %-16s | %-23s | %-15s | %-7s | %s\n", "", \
		"read: ns over the plain walk             x liburcu inline's", \
		"2 readers", "readers beside updater", "synchronize", "update", "reclamation"
	printf "%-6s %7s %7s %7s %6s %6s %6s %7s %7s | %8s %7s | %7s %7s %7s | %6s %8s | %7s | %8s %9s %9s\n", "flavor", \
		"shared", "static", "lto", "urcu", "rwlock", "mutex", "shared", "lto", \
		"M/s", "xurcu", "M/s", "xrwlock", "xurcu", "p50 us", "p99.9 us", "ns/op", \
		"call_rcu", "upd:each", "upd:batch"
	for (i = 1; i <= n; i++) {
		f = fl[i]; s = f "-static"
		rd = key(f, "conc", "list8", "rculist", "fl-reads/s")
		r2 = key(f, "conc", "list8", "rculist", "2r-reads/s")
		printf "%-6s %7s %7s %7s %6s %6s %6s %7s %7s | %8s %7s | %7s %7s %7s | %6s %8s | %7s | %8s %9s %9s\n", f, \
			ovh(f, "read", "rculist"), ovh(s, "static", "rculist"), ovh(s, "static", "rculist-lto"), \
			ovh(f, "read", "urcu"), ovh(f, "read", "rwlock"), ovh(f, "read", "mutex"), \
			xurcu(f, "read", "rculist"), xurcu(s, "static", "rculist-lto"), \
			val(r2, 1e6, "%.1f"), ratio2(r2, key(f, "conc", "list8", "urcu", "2r-reads/s"), key(f, "conc", "list8", "rculist", "2r-xurcu")), \
			val(rd, 1e6, "%.2f"), ratio(rd, key(f, "conc", "list8", "rwlock", "fl-reads/s")), \
			ratio(rd, key(f, "conc", "list8", "urcu", "fl-reads/s")), \
			val(key(f, "gp", "sync-busy", "rculist", "p50-us"), 1, "%.1f"), \
			val(key(f, "gp", "sync-busy", "rculist", "p99.9-us"), 1, "%.0f"), \
			val(key(f, "upd", "list_replace_rcu", "rculist", "ns/op"), 1, "%.1f"), \
			val(key(f, "gp", "call_rcu", "rculist", "calls/s"), 1e6, "%.2f"), \
			val(key(f, "conc", "list8", "rculist", "fl-upd/s"), 1e6, "%.2f"), \
			val(key(f, "conc", "list8", "rculist-batch", "fl-upd/s"), 1e6, "%.2f")
	}
	print "(read, static and lto: the static binary linked with -flto, against its own liburcu inline;"
	print " reclamation: M callbacks/s of rculist_call_rcu(), M updates/s of a flat-out updater freeing"
	print " each element by call_rcu, or by one rculist_synchronize_rcu() per 1024;"
	print " 2 readers: M/s the table's median; xurcu the median of the per-pair ratios of runs made back to"
	print " back, order swapped each pair; issue 28 wants xurcu >= 0.95 for memb, qsbr and bp)"
}
# bench-reclaim's lines: reclaim: impl=I flavor=F updaters=U updates/s=R ... peak_waiting=P,
# and reclaim-ratio: flavor=F updaters=U rounds=N call_rcu/urcu=.. ... (medians of the rounds' ratios)
function reclaim_table(    line, kv, rk, rate, peak, rat, lo, any, i, f, u, a, b, c, d, e, k, miss) {
	while ((getline line < reclaim) > 0) {
		if (line ~ /^reclaim-ratio: /) {
			fields(line, kv)
			rk = kv["flavor"] "," kv["updaters"]
			for (k in kv)
				if (k ~ /\//)
					rat[rk, k] = kv[k]
			continue
		}
		if (line !~ /^reclaim: /)
			continue
		fields(line, kv)
		rk = kv["impl"] "," kv["flavor"] "," kv["updaters"]
		rate[rk] = si(kv["updates/s"])
		peak[rk] = kv["peak_waiting"]
		any = 1
	}
	if (!any)
		return
	print "\nReclamation (bench-reclaim): M updates/s of updaters that allocate a 64-byte element and"
	print "retire it by rculist_free_rcu(), rculist_call_rcu() (callback frees), liburcu's own call_rcu()"
	print "(callback frees) or the defer queue (enqueue, and reclaim in the same loop): the medians of"
	print "the rounds (every case once a round, the order turned each round).  Ratios: the median over"
	print "the rounds of each round's ratio, its lowest round in brackets; issue 28 wants call/urcu >= 1.0,"
	print "free/urcu >= 1.5, dq/free >= 0.8 (targets: ok, or the ratios that miss); peak: most blocks"
	print "waiting (free_rcu); simple: the simpler design of bench/reclaim_simple.h (issue 30)"
	printf "\n%-6s %2s %8s %8s %9s %8s %16s %16s %16s %9s %7s %11s  %s\n", "flavor", "up", "free_rcu", \
		"call_rcu", "urcu_call", "dq", "call/urcu", "free/urcu", "dq/free", "peak", "simple", \
		"simple/free", "targets"
	for (i = 1; i <= n; i++) {
		f = fl[i]
		for (u = 1; u <= 2; u++) {
			a = "free_rcu," f "," u; b = "call_rcu," f "," u
			c = "urcu_call_rcu," f "," u; d = "dq," f "," u
			e = "simple," f "," u
			if (!(a in rate))
				continue
			rk = f "," u
			# Without a reclaim-ratio line (a run of some cases): the ratios of the medians.
			if (!((rk, "call_rcu/urcu") in rat)) {
				rat[rk, "call_rcu/urcu"] = rat[rk, "call_rcu/urcu_min"] = rate_ratio(rate[b], rate[c])
				rat[rk, "free_rcu/urcu"] = rat[rk, "free_rcu/urcu_min"] = rate_ratio(rate[a], rate[c])
				rat[rk, "dq/free_rcu"] = rat[rk, "dq/free_rcu_min"] = rate_ratio(rate[d], rate[a])
				rat[rk, "simple/free_rcu"] = rate_ratio(rate[e], rate[a])
			}
			miss = ""
			if (rat[rk, "call_rcu/urcu"] < 1.0) miss = miss " call"
			if (rat[rk, "free_rcu/urcu"] < 1.5) miss = miss " free"
			if (rat[rk, "dq/free_rcu"] < 0.8) miss = miss " dq"
			printf "%-6s %2d %8.2f %8.2f %9.2f %8.2f %16s %16s %16s %9d %7.2f %10.2fx  %s\n", f, u, \
				rate[a] / 1e6, rate[b] / 1e6, rate[c] / 1e6, rate[d] / 1e6, \
				ratio_cell(rat[rk, "call_rcu/urcu"], rat[rk, "call_rcu/urcu_min"]), \
				ratio_cell(rat[rk, "free_rcu/urcu"], rat[rk, "free_rcu/urcu_min"]), \
				ratio_cell(rat[rk, "dq/free_rcu"], rat[rk, "dq/free_rcu_min"]), \
				peak[a], rate[e] / 1e6, rat[rk, "simple/free_rcu"], \
				miss == "" ? "ok" : "miss:" miss
		}
	}
}
# "1.52x [1.10]": a median ratio and its lowest round.
function ratio_cell(med, lo) {
	return sprintf("%.2fx [%.2f]", med, lo)
}
# a / b of two plain numbers, 0 when b is missing.
function rate_ratio(a, b) {
	return b > 0 ? a / b : 0
}
# bench-full's stalled reader: reclaim-stall: flavor=F limit=L seconds=S peak=P ...
function stall_table(    line, stall, nstall, kv, i) {
	while ((getline line < stall_txt) > 0)
		if (line ~ /^reclaim-stall: /)
			stall[++nstall] = line
	if (!nstall)
		return
	print "\nA reader stalled in its section, 2 updaters retiring 256-byte elements flat out"
	print "(bench/reclaim.c -s, docs/memory.md): with a limit, then without"
	printf "\n%-6s %7s %7s %10s %12s %10s %10s %s\n", "flavor", "limit", "seconds", "peak", \
		"RSS+ MiB", "MiB/s", "throttled", "verdict"
	for (i = 1; i <= nstall; i++) {
		fields(stall[i], kv)
		printf "%-6s %7s %7s %10s %12s %10s %10s %s\n", kv["flavor"], kv["limit"], \
			kv["seconds"], kv["peak"], kv["rss_growth_mib"], kv["rss_mib_per_s"], \
			kv["throttled"], substr(stall[i], index(stall[i], "verdict=") + 8)
	}
}
# "21.68M" (bench/reclaim.c's print_si) as a number.
function si(v,    mult) {
	mult = 1
	if (v ~ /M$/) mult = 1e6
	else if (v ~ /k$/) mult = 1e3
	else if (v ~ /G$/) mult = 1e9
	sub(/[kMG]$/, "", v)
	return v * mult
}
# bench-poll's latency lines: poll flavor=F op=O readers=R p50_us=.. p99_us=..
function poll_table(    line, kv, pk, i, f, any) {
	while ((getline line < poll) > 0) {
		if (line !~ /^poll .* readers=/)
			continue
		fields(line, kv)
		pk = kv["flavor"] "," kv["op"] "," kv["readers"]
		p50[pk] = kv["p50_us"]; p99[pk] = kv["p99_us"]
		any = 1
	}
	if (!any)
		return
	print "\nGrace periods (bench-poll): us from rculist_start_poll_synchronize_rcu() to a satisfied"
	print "cookie, beside one rculist_synchronize_rcu(), p50/p99, with no reader and with one reader"
	printf "\n%-6s %21s %21s %21s %21s\n", "flavor", "start_to_satisfied:0", \
		"start_to_satisfied:1", "synchronize_rcu:0", "synchronize_rcu:1"
	for (i = 1; i <= n; i++) {
		f = fl[i]
		printf "%-6s %21s %21s %21s %21s\n", f, pp(f ",start_to_satisfied,0"), \
			pp(f ",start_to_satisfied,1"), pp(f ",synchronize_rcu,0"), \
			pp(f ",synchronize_rcu,1")
	}
}
function pp(k) { return (k in p50) ? p50[k] " / " p99[k] : "-" }
# Section cxx's lines: cxx flavor=F op=O ns=N calls=C (bench/cxx_rcu.cc)
# Its lines: cxx flavor=F op=O ns=N (the rounds' median), and cxx-ratio
# flavor=F op=O over=B x=X (the median of the rounds' own ratios), which
# the x columns show where the run has them.
function cxx_table(    line, kv, ns, any, i, f) {
	while ((getline line < cxx) > 0) {
		if (line ~ /^cxx-ratio flavor=/) {
			fields(line, kv)
			cxr[kv["flavor"] "," kv["op"] "/" kv["flavor"] "," kv["over"]] = kv["x"]
			continue
		}
		if (line !~ /^cxx flavor=/)
			continue
		fields(line, kv)
		ns[kv["flavor"] "," kv["op"]] = kv["ns"]
		any = 1
	}
	if (!any)
		return
	print "\n<rculist/rcu.hpp> against the C API (bench-cxx-rcu): ns per call of an empty read-side"
	print "section, rculist_read_lock()/_unlock() (C) against std::scoped_lock on rcu_default_domain()"
	print "(C++), both in a thread the C API registered, and C++ in a thread only C++ registered"
	print "(C++ own: under qsbr online and offline around each region); ns per 64-byte object"
	print "allocated and reclaimed, rculist_free_rcu() against rcu_obj_base::retire() and"
	print "rcu_retire(), rcu_barrier() included; medians of the rounds; x: over the C call's,"
	print "the median of the rounds' own ratios"
	printf "\n%-6s %9s %9s %7s %9s %7s | %9s %10s %7s %10s %7s\n", "flavor", "C", "C++", "x", \
		"C++ own", "x", "free_rcu", "obj_retire", "x", "rcu_retire", "x"
	for (i = 1; i <= n; i++) {
		f = fl[i]
		printf "%-6s %9s %9s %7s %9s %7s | %9s %10s %7s %10s %7s\n", f, \
			cv(ns, f ",c_section"), cv(ns, f ",cxx_section"), \
			cx(ns, f ",cxx_section", f ",c_section"), \
			cv(ns, f ",cxx_own_section"), \
			cx(ns, f ",cxx_own_section", f ",c_section"), cv(ns, f ",free_rcu"), \
			cv(ns, f ",obj_retire"), cx(ns, f ",obj_retire", f ",free_rcu"), \
			cv(ns, f ",rcu_retire"), cx(ns, f ",rcu_retire", f ",free_rcu")
	}
}
# A cell of a text section's table, and the ratio of two: "-" where missing,
# "n/a" where the divisor is 0 (a quick run's case too short to count).
function cv(a, k) { return (k in a) ? a[k] : "-" }
function cx(a, k, d) {
	if ((k "/" d) in cxr)
		return sprintf("%.2fx", cxr[k "/" d])
	if (!(k in a) || !(d in a))
		return "-"
	return a[d] + 0 ? sprintf("%.2fx", a[k] / a[d]) : "n/a"
}
# Section rhash's lines (bench/rhash.c): rhash-insert: impl=I flavor=F
# keys=K secs=S ... p50-ns=.. p99-ns=.., and rhash: impl=I flavor=F keys=K
# readers=R updater=U lookups/s=..M ... updates/s=..M bytes/elem=B
function rhash_table(    line, kv, v, any, i, f, keys, r, l) {
	while ((getline line < rhash) > 0) {
		if (line !~ /^rhash(-insert)?: /)
			continue
		fields(line, kv)
		f = kv["flavor"] "," kv["impl"]
		keys = kv["keys"]
		if (line ~ /^rhash-insert: /) {
			v[f ",secs"] = kv["secs"]
			v[f ",p50p99"] = kv["p50-ns"] "/" kv["p99-ns"]
		} else {
			v[f "," kv["readers"] "," kv["updater"]] = si(kv["lookups/s"]) / 1e6
			if (kv["readers"] == 1 && kv["updater"] == 1)
				v[f ",upd"] = si(kv["updates/s"]) / 1e6
			v[f ",bytes"] = kv["bytes/elem"]
		}
		any = 1
	}
	if (!any)
		return
	print "\nResizable hash tables (bench-rhash): cds_rhashtable against liburcu's rculfhash with"
	print "automatic resizing, " keys " keys inserted into each empty table, then lookups of random keys:"
	print "M lookups/s of 1 reader, 2 readers, 1 reader beside a flat-out updater (replacing a key's"
	print "element), x: over rculfhash's; upd: that updater's M updates/s; B/elem: bytes per key;"
	print "insert: seconds to insert every key, ns of one insert p50/p99 (r: rhashtable, l: rculfhash)"
	printf "\n%-6s %8s %7s %8s %7s %8s %7s | %7s %7s | %6s %6s | %7s %7s %11s %11s\n", \
		"flavor", "1 reader", "x", "2 reads", "x", "+updater", "x", "upd:r", "upd:l", \
		"B/el:r", "B/el:l", "ins s:r", "ins s:l", "p50/p99:r", "p50/p99:l"
	for (i = 1; i <= n; i++) {
		f = fl[i]; r = f ",rhashtable"; l = f ",rculfhash-resize"
		printf "%-6s %8s %7s %8s %7s %8s %7s | %7s %7s | %6s %6s | %7s %7s %11s %11s\n", f, \
			rv(v, r ",1,0"), cx(v, r ",1,0", l ",1,0"), \
			rv(v, r ",2,0"), cx(v, r ",2,0", l ",2,0"), \
			rv(v, r ",1,1"), cx(v, r ",1,1", l ",1,1"), \
			rv(v, r ",upd"), rv(v, l ",upd"), cv(v, r ",bytes"), cv(v, l ",bytes"), \
			cv(v, r ",secs"), cv(v, l ",secs"), cv(v, r ",p50p99"), cv(v, l ",p50p99")
	}
	print "(wall-clock rates: on a loaded machine read them against the lookups/cpu-s of rhash.txt)"
}
function rv(a, k) { return (k in a) ? sprintf("%.2f", a[k]) : "-" }
# A line of key=value words after its first word, into kv.
function fields(line, kv,    m, w, j, pair) {
	split("", kv)
	m = split(line, w, " ")
	for (j = 2; j <= m; j++) {
		split(w[j], pair, "=")
		kv[pair[1]] = pair[2]
	}
}
