# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/: `make bench` (the closing tables and the chart, a few minutes),
# `make bench-full` (every section, 5 runs per case: what bench/results/
# and the README's tables are made from), `make bench-instructions`, and
# check-bench (every section quick in `make check`, so that neither rots).
# bench/run.sh runs the sections; its table says which set each is in.
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
# What run.sh reads from the environment (see its head).
BENCH_ENV  = BENCH_QUICK='$(BENCH_QUICK)' BENCH_SCALE='$(BENCH_SCALE)' \
	BENCH_STALL='$(RECLAIM_STALL)' BENCH_STALL_LIMIT='$(RECLAIM_LIMIT)'
# The stalled reader of bench-full: RECLAIM_STALL seconds with a limit of
# RECLAIM_LIMIT blocks, then a tenth of that with none (0: no stall).
RECLAIM_STALL ?= 15
RECLAIM_LIMIT ?= 100000

# The binaries of each set of sections (bench/run.sh): a new section's
# binary goes in the set its section is in.
BENCH_POLL_BINS := $(foreach f,$(FLAVORS),$(BENCH_B)/$(f)/poll)
RECLAIM_BINS := $(foreach f,$(FLAVORS),$(BENCH_B)/$(f)/reclaim)
DQ_BINS := $(foreach f,$(FLAVORS),$(BENCH_B)/$(f)/dq)
HASH_BENCH_BINS := $(foreach f,$(FLAVORS),$(BENCH_B)/$(f)/hash)
CXX_RCU_BINS := $(foreach f,$(FLAVORS),$(BENCH_B)/cxx_rcu/cxx_rcu-$(f))
RHASH_BENCH_BINS := $(foreach f,$(FLAVORS),$(BENCH_B)/$(f)/rhash)
BENCH_BINS_BENCH := $(BENCH_BINS) $(BENCH_POLL_BINS) $(RECLAIM_BINS) $(CXX_RCU_BINS) \
		    $(RHASH_BENCH_BINS)
BENCH_BINS_FULL  := $(BENCH_BINS_BENCH) $(DQ_BINS) $(HASH_BENCH_BINS)

# Built in parallel, one job per CPU, unless make was given -j already.
BENCH_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))

.PHONY: bench bench-full bench-instructions bench-build bench-gnuplot check-bench \
	bench-bins-bench bench-bins-full

bench-build: $(BENCH_BINS)
bench-bins-bench: $(BENCH_BINS_BENCH)
bench-bins-full: $(BENCH_BINS_FULL)

bench: ## Every flavour against liburcu and locks, cds_rhashtable against rculfhash: the closing tables and the chart (~4 min on 2 CPUs; BENCH_QUICK=1)
	$(Q)$(MAKE) --no-print-directory $(BENCH_JOBS) bench-gnuplot bench-bins-bench
	$(Q)$(BENCH_ENV) sh bench/run.sh $(BENCH_B) $(FLAVORS)

bench-full: ## All of make bench, 5 runs, every workload, the stalled reader, defer queue and hash tables (~14 min on 2 idle CPUs)
	$(Q)$(MAKE) --no-print-directory $(BENCH_JOBS) bench-gnuplot bench-bins-full
	$(Q)$(BENCH_ENV) sh bench/run.sh -f $(BENCH_B) $(FLAVORS)

# One section of bench-full alone, with its table: make bench-<section>.
BENCH_ONE = $(Q)$(BENCH_ENV) BENCH_SECTIONS='$(1)' BENCH_OUT=$(BENCH_B)/$(firstword $(1)) sh bench/run.sh -f $(BENCH_B) $(FLAVORS)

# Polled grace periods (bench/poll.c): one greppable line per operation
# and flavour, `poll flavor=<f> op=<op> ns=<per call> calls=<n>`, and
# the latencies from start_poll to a satisfied cookie beside
# synchronize_rcu's, without and with a reader, `poll flavor=<f>
# op=start_to_satisfied readers=<0|1> p50_us=.. p99_us=.. max_us=.. n=..`.
$(BENCH_B)/%/poll: bench/poll.c bench/measure.h $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(BENCH_CC) $< -o $@ $(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) \
		-lrculist-$* -lpthread

.PHONY: bench-poll
bench-poll: $(BENCH_POLL_BINS) ## What polled grace periods cost, per flavour (part of make bench)
	$(call BENCH_ONE,poll)

# Instruction counts compare code, not its placement: the same binaries
# built without code alignment (BENCH_NOPAD, in $(B)/bench-instr), so that
# no side executes the no-ops the compiler pads a loop or label with (up
# to 9 per lookup with BENCH_ALIGN, different on each side: where the
# side's code ends).  The no-ops of rculist's own patched sites are
# instructions of its code and are counted.  bench-instructions-aligned
# counts make bench's own binaries, padding included.
BENCH_INSTR_B = $(B)/bench-instr
BENCH_NOPAD   = -falign-functions=64 -falign-loops=1 -falign-jumps=1 -falign-labels=1
.PHONY: bench-instructions-aligned
bench-instructions: ## Callgrind instructions per lookup and per update, rculist beside liburcu inline (unpadded code)
	$(Q)$(MAKE) --no-print-directory BENCH_B=$(BENCH_INSTR_B) BENCH_ALIGN='$(BENCH_NOPAD)' bench-build
	$(Q)sh bench/instr.sh $(BENCH_INSTR_B) $(FLAVORS)
bench-instructions-aligned: bench-build ## The same on make bench's binaries (loops aligned to 64 bytes, padding counted)
	$(Q)sh bench/instr.sh $(BENCH_B) $(FLAVORS)

# As an outside program counts them (bench/outside/run.sh): the library
# installed under $(B)/outside/prefix, one object compiled against its
# headers through pkg-config with the compiler's defaults, every operation
# its own function, linked with each -lrculist-<flavour> shared and static,
# beside liburcu's inline code.
OUTSIDE_B = $(B)/outside
.PHONY: bench-instructions-outside
bench-instructions-outside: lib ## Callgrind instructions per call as an outside program counts them: installed headers, one object, each flavour shared and static
	$(Q)$(MAKE) --no-print-directory install PREFIX=$(abspath $(OUTSIDE_B))/prefix \
		GEN_B=$(OUTSIDE_B)/gen >/dev/null
	$(Q)CC='$(CC)' sh bench/outside/run.sh $(abspath $(OUTSIDE_B))/prefix $(OUTSIDE_B)/run $(FLAVORS)

# check-bench: bench/run.sh -c runs every section of bench-full quick
# (1 run, short samples, small tables; 26 s of CPU, loaded machine)
# and fails unless each prints, for every flavour, the summary lines its
# row of run.sh's table names, and the closing tables have no empty cell.
CHECKS += check-bench
check-bench: bench-bins-full
	@echo "== bench, every section quick (bench/run.sh -c)"
	$(Q)out=$$(mktemp -d $(BENCH_B)/check.XXXXXX) && \
	if ! BENCH_OUT=$$out sh bench/run.sh -c $(BENCH_B) $(FLAVORS) \
		>$$out/log 2>&1; then cat $$out/log >&2; exit 1; fi && \
	rm -rf $$out

# gnuplot draws the chart: installed like the other dependencies (as
# root with apt-get), otherwise the chart is skipped with a message.
bench-gnuplot:
	$(Q)if ! command -v gnuplot >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && \
	     command -v apt-get >/dev/null 2>&1; then \
		echo "  DEPS     apt-get install gnuplot-nox"; \
		$(call apt_install,gnuplot-nox) || \
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

# bench/reclaim.c: rculist_free_rcu(), rculist_call_rcu(), liburcu's own
# call_rcu() and the defer queue, per element, 1 and 2 updaters, one
# summary line per case (section reclaim, in make bench); with -s, the
# stalled reader (section stall, bench-full).
.PHONY: bench-reclaim
bench-reclaim: $(RECLAIM_BINS) ## Reclamation: free_rcu against call_rcu, 1 and 2 updaters; a stalled reader with and without a limit (~100 s)
	$(call BENCH_ONE,reclaim stall)

$(BENCH_B)/%/reclaim: $(BENCH_O)/reclaim.o $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(call quiet,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(BENCH_O)/reclaim.o -L$(LIBDIR_B) \
		-Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$* -lpthread

# bench/dq.c: the defer queue against rculist_free_rcu() and
# rculist_call_rcu(), 1 and 2 updaters and a qsbr-style event loop, one
# summary line per case (`dq flavor=<f> impl=<dq|free_rcu|call_rcu>
# updaters=<n> updates/s=..M ...`); section dq of bench-full.
.PHONY: bench-dq
bench-dq: $(DQ_BINS) ## Defer queue against free_rcu and call_rcu, 1 and 2 updaters (~50 s)
	$(call BENCH_ONE,dq)

$(BENCH_B)/%/dq: bench/dq.c bench/measure.h $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(BENCH_CC) $< -o $@ $(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) \
		-lrculist-$* -lpthread

# bench/hash.c: hash-table lookups, rculist's table (<rculist/hashtable.h>)
# against liburcu's rculfhash (fixed and resizing) and an hlist table
# behind a pthread_rwlock: 2^16 buckets, 1M keys, 1 and 2 readers, with
# and without an updater; one line per case, `hash: impl=<i> flavor=<f>
# ... lookups/s=<n>M lookups/cpu-s=<n>M hits=<%> updates/s=<n>M
# bytes/elem=<n> others=<cores>`.  Section hash of bench-full (quick in
# check-bench: 4096 keys, 0.02 s a case).
$(BENCH_B)/%/hash: bench/hash.c bench/keys.h bench/measure.h bench/workers.h $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(BENCH_CC) $(call bench_urcu_flags,$*) $< -o $@ $(LDFLAGS) -L$(LIBDIR_B) \
		-Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$* \
		$(call pkg,--libs liburcu-cds) $(call urcu_libs,$*) -lpthread

.PHONY: bench-hash
bench-hash: $(HASH_BENCH_BINS) ## Hash-table lookups: rculist against rculfhash and an rwlock table (~60 s)
	$(call BENCH_ONE,hash)
