# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/: `make bench`, `make bench-instructions`, and check-bench (a
# BENCH_QUICK=1 run in `make check`, so that the benchmark cannot rot).
#
# The flavour-neutral objects (harness, rculist side, baselines) are
# compiled once; each flavour adds its liburcu side and the inlined
# rculist read side, and links one binary against the shared library
# (the default link) and one static binary.

BENCH_B   := $(B)/bench
BENCH_O   := $(BENCH_B)/obj
# The harness and every benchmark question (bench/q_<question>.c, one
# file each, registering its sections: see bench/harness.h).
BENCH_QUESTIONS := $(patsubst bench/%.c,$(BENCH_O)/%.o,$(sort $(wildcard bench/q_*.c)))
BENCH_NEUTRAL := $(BENCH_O)/harness.o $(BENCH_QUESTIONS) $(BENCH_O)/rl.o \
	$(BENCH_O)/plain.o $(BENCH_O)/rwlock.o $(BENCH_O)/mutex.o
bench_flavor_objs = $(BENCH_O)/$(1)/rli.o $(BENCH_O)/$(1)/urcu.o \
	$(BENCH_O)/$(1)/urcu-lib.o
BENCH_BINS := $(foreach f,$(FLAVORS),$(BENCH_B)/$(f)/bench $(BENCH_B)/$(f)/bench-static)
# Every function and loop of the benchmark starts on a 64-byte line:
# where the linker happens to place a side's loop (its offset in the
# fetch and op-cache lines) moved a list8 lookup by up to 3 ns between
# builds, more than the read sides differ; aligned, each side's time is
# its own code's.
BENCH_ALIGN = -falign-functions=64 -falign-loops=64
BENCH_CC   = $(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(BENCH_ALIGN)
# liburcu's side per flavour: its flavour header and a macro naming it.
bench_urcu_flags = -DBENCH_FLAVOR=$(1) -DBENCH_FLAVOR_$(1) \
	'-DBENCH_HEADER=<urcu/urcu-$(1).h>'
BENCH_ENV  = BENCH_QUICK='$(BENCH_QUICK)' BENCH_TIME='$(BENCH_TIME)'

.PHONY: bench bench-instructions bench-build bench-gnuplot check-bench

bench-build: $(BENCH_BINS)

bench: bench-build bench-gnuplot bench-poll ## Benchmark every flavour against liburcu and locks, closing table, chart (~3 min; BENCH_QUICK=1, BENCH_TIME=s)
	$(Q)$(BENCH_ENV) sh bench/run.sh $(BENCH_B) $(FLAVORS)

# Polled grace periods (bench/poll.c): one greppable line per operation
# and flavour, `poll flavor=<f> op=<op> ns=<per call> calls=<n>`, and
# the latencies from start_poll to a satisfied cookie beside
# synchronize_rcu's, without and with a reader, `poll flavor=<f>
# op=start_to_satisfied readers=<0|1> p50_us=.. p99_us=.. max_us=.. n=..`.
BENCH_POLL_BINS := $(foreach f,$(FLAVORS),$(BENCH_B)/$(f)/poll)
$(BENCH_B)/%/poll: bench/poll.c bench/measure.h $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(BENCH_CC) $< -o $@ $(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) \
		-lrculist-$* -lpthread

.PHONY: bench-poll
bench-poll: $(BENCH_POLL_BINS) ## What polled grace periods cost, per flavour (part of make bench)
	$(Q)for f in $(FLAVORS); do $(BENCH_B)/$$f/poll $(if $(BENCH_QUICK),100000) || exit 1; done \
		| tee $(BENCH_B)/poll.txt

bench-instructions: bench-build ## Callgrind instructions per lookup and per update, rculist beside liburcu inline
	$(Q)sh bench/instr.sh $(BENCH_B) $(FLAVORS)

CHECKS += check-bench
check-bench: bench-build $(BENCH_POLL_BINS)
	$(Q)for f in $(FLAVORS); do BENCH_QUICK=1 $(BENCH_B)/$$f/poll 10000 || exit 1; done \
		>$(BENCH_B)/poll-check.txt
	$(Q)test "$$(grep -c '^poll flavor=.* op=start_to_satisfied readers=[01] p50_us=[0-9.]* p99_us=' \
		$(BENCH_B)/poll-check.txt)" = $$((2 * $(words $(FLAVORS)))) || \
		{ cat $(BENCH_B)/poll-check.txt >&2; exit 1; }
	@echo "== bench, quick run (BENCH_QUICK=1)"
	$(Q)out=$$(mktemp -d $(BENCH_B)/check.XXXXXX) && \
	if ! BENCH_QUICK=1 BENCH_OUT=$$out sh bench/run.sh $(BENCH_B) $(FLAVORS) \
		>$$out/log 2>&1; then cat $$out/log >&2; exit 1; fi && \
	if [ "$$(grep -c '^' $$out/summary.csv)" -lt 100 ]; then \
		echo "check-bench: short summary in $$out" >&2; exit 1; fi && \
	rm -rf $$out

# gnuplot draws the chart: installed like the other dependencies (as
# root with apt-get), otherwise the chart is skipped with a message.
bench-gnuplot:
	$(Q)if ! command -v gnuplot >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && \
	     command -v apt-get >/dev/null 2>&1; then \
		echo "  DEPS     apt-get install gnuplot-nox"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		 apt-get install -y -qq gnuplot-nox) >/dev/null || \
		echo "bench: could not install gnuplot-nox; no chart" >&2; \
	fi

$(BENCH_O)/%.o: bench/%.c | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(BENCH_CC) -c $< -o $@

$(BENCH_O)/plain.o $(BENCH_O)/rwlock.o $(BENCH_O)/mutex.o: $(BENCH_O)/%.o: bench/locks.c | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(BENCH_CC) -DBENCH_LOCK=$(if $(filter plain,$*),0,$(if $(filter rwlock,$*),1,2)) \
		-c $< -o $@

$(BENCH_O)/%/rli.o: bench/rl.c | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(BENCH_CC) -DRCULIST_INLINE_$$(echo $* | tr a-z A-Z) -c $< -o $@

$(BENCH_O)/%/urcu.o: bench/urcu.c | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(BENCH_CC) $(call bench_urcu_flags,$*) -c $< -o $@

$(BENCH_O)/%/urcu-lib.o: bench/urcu.c | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(BENCH_CC) $(call bench_urcu_flags,$*) -DBENCH_URCU_LIB -c $< -o $@

# The default link: -lrculist-<flavor> (what `pkg-config --libs` says).
$(BENCH_B)/%/bench: $(BENCH_NEUTRAL) $(call bench_flavor_objs,%) \
		$(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(call quiet,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(BENCH_NEUTRAL) $(call bench_flavor_objs,$*) \
		-L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$* \
		$(call urcu_libs,$*) -lpthread -lm

# The LTO side: rl.c compiled with -flto (once, flavour-neutral), its
# read side inlined when the static binary is linked with -flto against a
# flavour's archive (fat LTO objects with gcc; see the Makefile).
$(BENCH_O)/rlto.o: bench/rl.c | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(BENCH_CC) -flto -DBENCH_RL_LTO -DRCULIST_LTO -c $< -o $@

# --static, linked with -flto: everything linked in, liburcu too.  The
# objects compiled without -flto call the library ("rculist": the static
# link of a program built without LTO); rlto.o is "rculist-lto".
$(BENCH_B)/%/bench-static: $(BENCH_NEUTRAL) $(BENCH_O)/rlto.o \
		$(call bench_flavor_objs,%) $(LIBDIR_B)/librculist-%.a
	$(call quiet,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(BENCH_ALIGN) -flto -fpie $(LDFLAGS) -static -o $@ $(BENCH_NEUTRAL) \
		$(BENCH_O)/rlto.o $(call bench_flavor_objs,$*) \
		$(LIBDIR_B)/librculist-$*.a $(call pkg,--static --libs liburcu-$*) -lpthread -ldl -lm

# bench/reclaim.c: rculist_free_rcu() against rculist_call_rcu() per
# element, 1 and 2 updaters, one summary line per case; part of `make
# bench`, and of `make check` as a quick run (BENCH_QUICK=1).
RECLAIM_BINS := $(foreach f,$(FLAVORS),$(BENCH_B)/$(f)/reclaim)

.PHONY: bench-reclaim check-bench-reclaim
bench: bench-reclaim

# With a reader stalled RECLAIM_STALL seconds (limit RECLAIM_LIMIT), then a
# tenth of that with no limit: the reclaim-stall lines (RECLAIM_STALL=0: none).
RECLAIM_STALL ?= 15
RECLAIM_LIMIT ?= 100000
bench-reclaim: $(RECLAIM_BINS) ## Reclamation: free_rcu against call_rcu, 1 and 2 updaters; a stalled reader with and without a limit (~100 s)
	$(Q)for b in $(RECLAIM_BINS); do $(BENCH_ENV) $$b \
		$(if $(filter-out 0,$(RECLAIM_STALL)),-s $(RECLAIM_STALL) -l $(RECLAIM_LIMIT)) || exit 1; \
	done | tee $(BENCH_B)/reclaim.txt

$(BENCH_B)/%/reclaim: $(BENCH_O)/reclaim.o $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(call quiet,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(BENCH_O)/reclaim.o -L$(LIBDIR_B) \
		-Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$* -lpthread

CHECKS += check-bench-reclaim
check-bench-reclaim: $(RECLAIM_BINS)
	@echo "== bench-reclaim, quick run (BENCH_QUICK=1)"
	$(Q)for b in $(RECLAIM_BINS); do BENCH_QUICK=1 $$b -r 1 || exit 1; done \
		>$(BENCH_B)/reclaim-check.txt
	$(Q)test "$$(grep -c '^reclaim: impl=.* updates/s=[0-9.]*M ' \
		$(BENCH_B)/reclaim-check.txt)" = $$((4 * $(words $(FLAVORS)))) || \
		{ cat $(BENCH_B)/reclaim-check.txt >&2; exit 1; }

# bench/dq.c: the defer queue against rculist_free_rcu() and
# rculist_call_rcu(), 1 and 2 updaters and a qsbr-style event loop, one
# summary line per case (`dq flavor=<f> impl=<dq|free_rcu|call_rcu>
# updaters=<n> updates/s=..M ...`); part of `make bench`, and of `make
# check` as a quick run (BENCH_QUICK=1, one run: about 0.5 s a flavour).
DQ_BINS := $(foreach f,$(FLAVORS),$(BENCH_B)/$(f)/dq)

.PHONY: bench-dq check-bench-dq
bench: bench-dq

bench-dq: $(DQ_BINS) ## Defer queue against free_rcu and call_rcu, 1 and 2 updaters (~20 s)
	$(Q)for b in $(DQ_BINS); do $(BENCH_ENV) $$b || exit 1; done | tee $(BENCH_B)/dq.txt

$(BENCH_B)/%/dq: bench/dq.c bench/measure.h $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(BENCH_CC) $< -o $@ $(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) \
		-lrculist-$* -lpthread

CHECKS += check-bench-dq
check-bench-dq: $(DQ_BINS)
	@echo "== bench-dq, quick run (BENCH_QUICK=1)"
	$(Q)for b in $(DQ_BINS); do BENCH_QUICK=1 $$b -r 1 || exit 1; done \
		>$(BENCH_B)/dq-check.txt
	$(Q)test "$$(grep -c '^dq flavor=.* impl=.* updates/s=[0-9.]*M ' \
		$(BENCH_B)/dq-check.txt)" = $$((6 * $(words $(FLAVORS)))) || \
		{ cat $(BENCH_B)/dq-check.txt >&2; exit 1; }
# bench/hash.c: hash-table lookups, rculist's table (<rculist/hashtable.h>)
# against liburcu's rculfhash (fixed and resizing) and an hlist table
# behind a pthread_rwlock: 2^16 buckets, 1M keys, 1 and 2 readers, with
# and without an updater; one line per case, `hash: impl=<i> flavor=<f>
# ... lookups/s=<n>M lookups/cpu-s=<n>M hits=<%> updates/s=<n>M
# bytes/elem=<n> others=<cores>`.
# Part of `make bench`; `make check` runs it quick (BENCH_QUICK=1: 4096
# keys, 0.02 s a case, about 0.5 s a flavour).
HASH_BENCH_BINS := $(foreach f,$(FLAVORS),$(BENCH_B)/$(f)/hash)
HASH_CASES      := 16

$(BENCH_B)/%/hash: bench/hash.c $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(BENCH_CC) $(call bench_urcu_flags,$*) $< -o $@ $(LDFLAGS) -L$(LIBDIR_B) \
		-Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$* \
		$(call pkg,--libs liburcu-cds) $(call urcu_libs,$*) -lpthread

.PHONY: bench-hash check-bench-hash
bench: bench-hash

bench-hash: $(HASH_BENCH_BINS) ## Hash-table lookups: rculist against rculfhash and an rwlock table (~45 s; BENCH_TIME=s a case)
	$(Q)for b in $(HASH_BENCH_BINS); do $(BENCH_ENV) $$b || exit 1; done | tee $(BENCH_B)/hash.txt

# Every case of every flavour prints its line, and without an updater
# every lookup finds its key.
CHECKS += check-bench-hash
check-bench-hash: $(HASH_BENCH_BINS)
	@echo "== bench-hash, quick run (BENCH_QUICK=1)"
	$(Q)out=$(BENCH_B)/hash-check.txt; \
	for b in $(HASH_BENCH_BINS); do BENCH_QUICK=1 $$b || exit 1; done >$$out; \
	test "$$(grep -c '^hash: impl=[a-z-]* flavor=[a-z]* .* lookups/s=[0-9.]*M lookups/cpu-s=[0-9.]*M hits=[0-9.]*% updates/s=[0-9.]*M bytes/elem=[0-9.]* ' $$out)" \
		= $$(($(HASH_CASES) * $(words $(FLAVORS)))) && \
	! grep ' updater=0 ' $$out | grep -v ' hits=100.0% ' || { cat $$out >&2; exit 1; }
