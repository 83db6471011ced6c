# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/rhash.c: the resizable tables, cds_rhashtable against liburcu's
# rculfhash with automatic resizing: 1M keys inserted into an empty
# table (time, p50/p99 insert latency), then lookups with 1 and 2
# readers, without and with an updater.  Lines `rhash-insert: impl=<i>
# flavor=<f> keys=<n> secs=<s> inserts/s=<n>M p50-ns=<n> p99-ns=<n>
# buckets=<n> others=<cores>` and `rhash: impl=<i> flavor=<f> keys=<n>
# readers=<r> updater=<u> lookups/s=<n>M lookups/cpu-s=<n>M hits=<%>
# updates/s=<n>M bytes/elem=<n> others=<cores>`.  Section rhash of
# make bench and bench-full (bench/run.sh; 8 s a flavour idle, about 25 s
# loaded), quick
# in check-bench (BENCH_QUICK=1: 4096 keys, 0.02 s a case), which wants
# every line of every flavour and, without an updater, every lookup to
# find its key (hits=100.0%).  Its binaries: bench.mk's RHASH_BENCH_BINS.

$(BENCH_B)/%/rhash: bench/rhash.c bench/keys.h bench/measure.h bench/workers.h include/rculist/rhashtable.h $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(BENCH_CC) $(call bench_urcu_flags,$*) $< -o $@ $(LDFLAGS) -L$(LIBDIR_B) \
		-Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$* \
		$(call pkg,--libs liburcu-cds) $(call urcu_libs,$*) -lpthread

.PHONY: bench-rhash
bench-rhash: $(RHASH_BENCH_BINS) ## Resizable tables: cds_rhashtable against rculfhash, 1M keys (~35 s idle; part of make bench)
	$(call BENCH_ONE,rhash)
