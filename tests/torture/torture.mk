# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/torture/torture.mk - the torture test and the sanitizer / checker runs
# (included by the Makefile).  See docs/torture-and-checkers.md.
#
#   make torture [DURATION=10]   every flavour, DURATION seconds each (make check-full)
#   make check-torture           the short run `make check` does (3 s each)
#   make check-torture-stall-full torture --stall: a reader stalled 15 s, limit
#                                100000, every flavour (~70 s; make check-full)
#   make check-torture-rhash     torture --rhash: the resizable hash table grown
#                                from empty to RH_KEYS keys and shrunk back under
#                                readers, updaters and walkers, every flavour
#                                (0.5 s, at least a whole cycle, 65536 keys each; make check)
#   make check-torture-rhash-full the same for 20 s and 1M keys each (make check-full)
#   make asan                    ASan+UBSan build in build/asan-$(CC): unit suites
#                                and a short torture
#   make valgrind                memcheck over the unit suites and a short
#                                torture (no errors, no definite leaks)
#   make asan-selftest, valgrind-selftest
#                                prove those two fail on planted bugs

DURATION ?= 10
TORTURE_SHORT := 3
TORTURE_OBJ := $(B)/torture/torture.o
torture_bin = $(B)/torture/$(1)/torture
TORTURE_BINS := $(foreach f,$(FLAVORS),$(call torture_bin,$(f)))
# Extra -D for the torture object only (TORTURE_PLANT_EARLY_FREE, ...).
TORTURE_DEFS ?=
# Environment of the torture runs (sanitizer options).
TORTURE_ENV ?=

CHECKS += check-torture check-torture-rhash
CHECKS_FULL += check-torture-stall-full torture check-torture-rhash-full
RH_SECONDS ?= 0.5
RH_KEYS ?= 65536
STALL_SECONDS ?= 15
STALL_LIMIT ?= 100000

$(TORTURE_OBJ): tests/torture/torture.c | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(TORTURE_DEFS) -c $< -o $@

$(B)/torture/%/torture: $(TORTURE_OBJ) $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(call quiet,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(TORTURE_OBJ) -L$(LIBDIR_B) \
		-Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$* -lpthread

.PHONY: torture check-torture torture-run asan asan-selftest \
	valgrind valgrind-selftest check-torture-stall-full
torture: ## Torture every flavour for DURATION seconds each (default 10)
	$(Q)$(MAKE) --no-print-directory torture-run TORTURE_SECONDS=$(DURATION)

check-torture: ## The short torture run of make check (3 s per flavour)
	$(Q)$(MAKE) --no-print-directory torture-run TORTURE_SECONDS=$(TORTURE_SHORT)

check-torture-stall-full: $(TORTURE_BINS) ## torture --stall: a reader stuck 15 s, 2 updaters, limit 100000 (~70 s)
	$(Q)for f in $(FLAVORS); do \
		echo "== torture --stall, flavour $$f, $(STALL_SECONDS) s, limit $(STALL_LIMIT)"; \
		$(call torture_bin,$$f) --stall $(STALL_SECONDS) $(STALL_LIMIT) || exit 1; \
	done

.PHONY: check-torture-rhash check-torture-rhash-full
check-torture-rhash: $(TORTURE_BINS) ## torture --rhash: grow and shrink the rhashtable under readers, updaters, walkers (0.5 s each)
	$(Q)for f in $(FLAVORS); do \
		echo "== torture --rhash, flavour $$f, $(RH_SECONDS) s, $(RH_KEYS) keys"; \
		$(TORTURE_ENV) $(call torture_bin,$$f) --rhash $(RH_SECONDS) $(RH_KEYS) || exit 1; \
	done

check-torture-rhash-full: ## torture --rhash for 20 s and 1M keys per flavour
	$(Q)$(MAKE) --no-print-directory check-torture-rhash RH_SECONDS=20 RH_KEYS=1000000

TORTURE_SECONDS ?= $(TORTURE_SHORT)
torture-run: $(TORTURE_BINS)
	$(Q)for f in $(FLAVORS); do \
		echo "== torture, flavour $$f, $(TORTURE_SECONDS) s"; \
		$(TORTURE_ENV) $(call torture_bin,$$f) $(TORTURE_SECONDS) || exit 1; \
	done

# ------------------------------------------------------------ ASan+UBSan
# Its own build directory and objects; build/ is not touched.  Errors stop
# the program with a non-zero status (halt_on_error, exitcode), leaks too
# (the torture runs outside Criterion, which ignores exit-time leaks).
# liburcu 0.13's inline bp read side does a misaligned access (FACTS):
# -fno-sanitize=alignment.
# The sanitizer trees are per compiler: objects of gcc and clang never mix
# when CC changes between runs (CC=clang make valgrind after a gcc build).
SAN_CC     := $(notdir $(firstword $(CC)))
ASAN_B     := $(B)/asan-$(SAN_CC)
ASAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize=alignment -fno-sanitize-recover=all
ASAN_ENV   := ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:exitcode=97:abort_on_error=0 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=97
ASAN_MAKE   = $(MAKE) --no-print-directory B=$(ASAN_B) CFLAGS='$(ASAN_FLAGS)' \
	LDFLAGS='$(LDFLAGS) -fsanitize=address,undefined' TORTURE_ENV='$(ASAN_ENV)'

# The unit suites run with leak detection off: Criterion 2.4.1 leaks a
# block of its own at exit, and ignores exit-time leaks anyway (the
# torture run checks leaks).  The reclaim tests that weigh the heap with
# glibc's mallinfo2(), which ASan's allocator does not feed, skip
# themselves under ASan (they run in make check).
ASAN_UNIT_ENV := ASAN_OPTIONS=halt_on_error=1:detect_leaks=0 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# fork/*: 1000 forks while another thread mallocs and frees.  The test
# is about glibc's allocator, whose locks fork() takes and releases; under
# ASan the allocator is libasan's, and children forked here hung in 3 of
# 6 runs on a loaded machine (the same tests run in make check, and
# core/fork.c's handlers under ASan in the torture's forks).  So did a
# child of reclaim/fork_during_first_frees (killed by its 10 s alarm, 1
# of 20 here).  reclaim_limit's two tests that weigh the process's RSS
# are left out too: ASan's quarantine and allocator make RSS another
# thing, and malloc_trim() is glibc's (torture --stall checks the same
# run otherwise).
RECLAIM_RSS_TESTS := reclaim_limit/limit_bounds_memory_under_a_stalled_reader|reclaim_limit/memory_returns_once_a_backlog_drains
ASAN_UNIT_FILTER := !(fork/*|reclaim/fork_during_first_frees|$(RECLAIM_RSS_TESTS))

asan: ## ASan+UBSan: the unit suites and a short torture (build/asan-<cc>)
	$(Q)$(ASAN_MAKE) $(foreach f,$(FLAVORS),$(ASAN_B)/tests/$(f)/unit)
	$(Q)for f in $(FLAVORS); do \
		echo "== asan, unit tests, flavour $$f"; \
		$(ASAN_UNIT_ENV) $(ASAN_B)/tests/$$f/unit --jobs 2 \
			--filter '$(ASAN_UNIT_FILTER)' || exit 1; \
	done
	$(Q)$(ASAN_MAKE) torture-run TORTURE_SECONDS=2
	@echo "== make asan: passed"

# make asan under clang: its UBSan checks the size of the object a member
# access goes through (an entry computed from a list head), where gcc's
# sees fewer (make check-full).
.PHONY: asan-clang
asan-clang: ## make asan built by clang (build/asan-clang; part of check-full)
	$(Q)$(MAKE) --no-print-directory asan CC=clang

# A planted bug must make the ASan torture fail, with ASan's exit status.
asan-selftest: ## Prove make asan fails on a planted early free and a planted leak
	$(Q)for bug in EARLY_FREE LEAK; do \
		$(MAKE) --no-print-directory B=$(ASAN_B)/plant-$$bug CFLAGS='$(ASAN_FLAGS)' \
			LDFLAGS='$(LDFLAGS) -fsanitize=address,undefined' \
			TORTURE_DEFS=-DTORTURE_PLANT_$$bug \
			$(ASAN_B)/plant-$$bug/torture/memb/torture >/dev/null || exit 1; \
		$(ASAN_ENV) $(ASAN_B)/plant-$$bug/torture/memb/torture 1 \
			>$(ASAN_B)/plant-$$bug/out 2>&1; st=$$?; \
		if [ $$st -eq 97 ]; then \
			echo "   planted $$bug: ASan fails the run (status 97): ok"; \
		else \
			echo "   planted $$bug: status $$st, expected 97 from ASan: FAIL"; \
			tail -5 $(ASAN_B)/plant-$$bug/out; exit 1; \
		fi; \
	done

# -------------------------------------------------------------- valgrind
# Criterion re-executes itself for every test and reports PASS even when
# valgrind finds errors at a worker's exit: so every process is traced
# (--trace-children=yes) into its own log, and the logs are read.  The
# torture child of fork() is checked by the parent (its status), not by
# valgrind (--child-silent-after-fork: it exits with _exit() holding the
# parent's memory).  --fair-sched: without it valgrind's scheduler lets
# one thread starve the others, and the concurrent tests' readers never run.
VG_B    := $(B)/valgrind
# core/rculist.supp (installed for users) suppresses liburcu's call_rcu
# and the stall watchdog's thread stacks.  Possible leaks are not errors:
# elements still on a list at exit are reached only through interior
# pointers (their list members), which memcheck calls "possibly lost".
VG      := valgrind -q --error-exitcode=99 --leak-check=full --suppressions=core/rculist.supp \
	--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
	--child-silent-after-fork=yes --fair-sched=yes
VG_SECONDS ?= 2
# The reclaim tests that weigh the heap with glibc's mallinfo2() skip
# themselves under valgrind, whose allocator replaces glibc's (they
# detect it: RUNNING_ON_VALGRIND); valgrind's own leak check covers the
# same frees.  reclaim_limit's tests that weigh RSS are left out
# (valgrind's allocator keeps freed blocks; malloc_trim() is glibc's).
# The fork suite makes its fewest forks (VG_FORKS): each child runs under
# memcheck too (about a second each here).
VG_UNIT_FILTER ?= !($(RECLAIM_RSS_TESTS))
VG_FORKS       ?= 10

# valgrind 3.19 cannot read clang 14's DWARF 5 ("unhandled dwarf2 abbrev
# form code 0x25"): what valgrind runs is built in a tree of its own with
# -gdwarf-4, whichever compiler ($(CC)) built build/.
VG_CFLAGS = $(CFLAGS) -gdwarf-4
ifeq ($(VG_INNER),)
valgrind: ## memcheck: unit suites and a short torture
	$(Q)$(MAKE) --no-print-directory B=$(B)/vg-$(SAN_CC) CFLAGS='$(VG_CFLAGS)' VG_INNER=1 valgrind
else
valgrind: lib $(foreach f,$(FLAVORS),$(call test_bin,$(f))) $(TORTURE_BINS)
	$(Q)rm -rf $(VG_B) && mkdir -p $(VG_B)
	$(Q)for f in $(FLAVORS); do \
		echo "== valgrind, unit tests, flavour $$f"; \
		RCULIST_TEST_FORKS=$(VG_FORKS) $(VG) --trace-children=yes --log-file=$(VG_B)/unit-$$f.%p.log \
			$(call test_bin,$$f) --jobs 1 $(if $(VG_UNIT_FILTER),--filter '$(VG_UNIT_FILTER)') \
			>$(VG_B)/unit-$$f.out 2>&1 || \
			{ tail -20 $(VG_B)/unit-$$f.out; exit 1; }; \
		echo "== valgrind, torture, flavour $$f, $(VG_SECONDS) s"; \
		$(VG) --log-file=$(VG_B)/torture-$$f.log \
			$(call torture_bin,$$f) $(VG_SECONDS) >$(VG_B)/torture-$$f.out 2>&1 || \
			{ tail -20 $(VG_B)/torture-$$f.out; exit 1; }; \
		tail -1 $(VG_B)/torture-$$f.out; \
	done
	$(Q)bad=$$(grep -lE 'ERROR SUMMARY: [1-9]|(definitely|indirectly) lost: [1-9]' \
		$(VG_B)/*.log 2>/dev/null); \
	if [ -n "$$bad" ]; then echo "valgrind found errors in: $$bad"; exit 1; fi; \
	if grep -l . $(VG_B)/*.log >/dev/null 2>&1; then \
		echo "valgrind reports:"; grep -h . $(VG_B)/*.log | head -40; exit 1; fi
	@echo "== make valgrind: passed"
endif

valgrind-selftest: ## Prove make valgrind fails on a planted early free and a planted leak
	$(Q)for bug in EARLY_FREE LEAK; do \
		$(MAKE) --no-print-directory B=$(VG_B)/plant-$$bug \
			CFLAGS='$(VG_CFLAGS)' TORTURE_DEFS=-DTORTURE_PLANT_$$bug \
			$(VG_B)/plant-$$bug/torture/memb/torture >/dev/null || exit 1; \
		$(VG) $(VG_B)/plant-$$bug/torture/memb/torture 1 \
			>$(VG_B)/plant-$$bug/out 2>&1; st=$$?; \
		if [ $$st -eq 99 ]; then \
			echo "   planted $$bug: valgrind fails the run (status 99): ok"; \
		else \
			echo "   planted $$bug: status $$st, expected 99 from valgrind: FAIL"; \
			tail -5 $(VG_B)/plant-$$bug/out; exit 1; \
		fi; \
	done
