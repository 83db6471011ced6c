# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/rhash.c: the resizable tables, cds_rhashtable against liburcu's
# rculfhash with automatic resizing: 1M keys inserted into an empty
# table (time, p50/p99 insert latency), then lookups with 1 and 2
# readers, without and with an updater.  Lines `rhash-insert: impl=<i>
# flavor=<f> keys=<n> secs=<s> inserts/s=<n>M p50-ns=<n> p99-ns=<n>
# buckets=<n> others=<cores>` and `rhash: impl=<i> flavor=<f> keys=<n>
# readers=<r> updater=<u> lookups/s=<n>M lookups/cpu-s=<n>M hits=<%>
# updates/s=<n>M bytes/elem=<n> others=<cores>`.  Part of `make bench`
# (about 12 s a flavour); `make check` runs it quick (BENCH_QUICK=1:
# 4096 keys, 0.02 s a case, well under a second a flavour).
RHASH_BENCH_BINS := $(foreach f,$(FLAVORS),$(BENCH_B)/$(f)/rhash)
RHASH_CASES      := 10

$(BENCH_B)/%/rhash: bench/rhash.c bench/measure.h include/rculist/rhashtable.h $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(BENCH_CC) $(call bench_urcu_flags,$*) $< -o $@ $(LDFLAGS) -L$(LIBDIR_B) \
		-Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$* \
		$(call pkg,--libs liburcu-cds) $(call urcu_libs,$*) -lpthread

.PHONY: bench-rhash check-bench-rhash
bench: bench-rhash

bench-rhash: $(RHASH_BENCH_BINS) ## Resizable tables: cds_rhashtable against rculfhash, 1M keys (~50 s; BENCH_TIME=s a case)
	$(Q)for b in $(RHASH_BENCH_BINS); do $(BENCH_ENV) $$b || exit 1; done | tee $(BENCH_B)/rhash.txt

# Every case of every flavour prints its line, and without an updater
# every lookup finds its key.
CHECKS += check-bench-rhash
check-bench-rhash: $(RHASH_BENCH_BINS)
	@echo "== bench-rhash, quick run (BENCH_QUICK=1)"
	$(Q)out=$(BENCH_B)/rhash-check.txt; \
	for b in $(RHASH_BENCH_BINS); do BENCH_QUICK=1 $$b || exit 1; done >$$out; \
	test "$$(grep -c '^rhash: impl=[a-z-]* flavor=[a-z]* .* lookups/s=[0-9.]*M lookups/cpu-s=[0-9.]*M hits=[0-9.]*% updates/s=[0-9.]*M bytes/elem=[0-9.]* ' $$out)" \
		= $$((8 * $(words $(FLAVORS)))) && \
	test "$$(grep -c '^rhash-insert: impl=[a-z-]* flavor=[a-z]* keys=[0-9]* secs=[0-9.]* inserts/s=[0-9.]*M p50-ns=[0-9]* p99-ns=[0-9]* ' $$out)" \
		= $$((2 * $(words $(FLAVORS)))) && \
	! grep '^rhash: .* updater=0 ' $$out | grep -v ' hits=100.0% ' || { cat $$out >&2; exit 1; }
