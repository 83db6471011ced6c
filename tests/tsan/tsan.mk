# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/tsan/tsan.mk - ThreadSanitizer over correct programs and planted
# bugs, outside Criterion (which cannot start under it).
#
#   make check-tsan       $(CC) only, every flavour: <rculist/tsan.h> shown
#                         to generate nothing without -fsanitize=thread
#                         (zero_cost.sh); the torture test, the
#                         examples, the plugin matrix, tests/tsan/correct.c
#                         (plain, -DRCULIST_DEBUG, -DRCULIST_INLINE_<F>):
#                         0 reports; tests/tsan/bugs.c: each planted bug
#                         reported, each fixed twin not; torture --rhash
#                         (0.5 s, 8192 keys per flavour): 0 reports.
#                         About 60 s.
#   make check-tsan-full  the same under gcc and clang, longer runs, the
#                         plugins' full unload cycles
#
# The programs are compiled with -fsanitize=thread, as a user's would be,
# and linked with the ordinary libraries of build/lib, which are NOT
# rebuilt for ThreadSanitizer (make -o keeps them as they are): what the
# library must tell the sanitizer it tells through weak references
# tested at run time (core/tsan.c).  The suppression file is the one
# `make install` puts in $(datadir)/rculist/tsan.supp, found through
# `pkg-config --variable=tsan_suppressions rculist-<f>` in a temporary
# prefix.  Every program writes its reports to a log of its own
# (log_path); the check counts them.
#
# ThreadSanitizer cannot follow a fork() whose child starts threads:
# die_after_fork=0 lets the torture test's and the hosts' children run
# (their reports, if any, are counted too).

CHECKS      += check-tsan
CHECKS_LONG += check-tsan
CHECKS_FULL += check-tsan-full

TSAN_CC      ?= $(CC)
TSAN_NAME     = $(notdir $(firstword $(TSAN_CC)))
TSAN_ROOT     = $(B)/tsan-$(TSAN_NAME)
# gcc's -Wtsan: the acquire fence of cds_rhashtable_lookup() (before it
# loads future_tbl) is not modelled by ThreadSanitizer; gcc says so for
# every program that looks a key up, and WERROR=1 would stop the build.
TSAN_WNO     = $(shell $(TSAN_CC) -Werror -Wno-tsan -E -x c /dev/null >/dev/null 2>&1 && echo -Wno-tsan)
TSAN_FLAGS    = -O1 -g -fsanitize=thread $(TSAN_WNO)
# make check: short runs; check-tsan-full sets longer ones.
TSAN_TORTURE_S  ?= 2
TSAN_ROUNDS     ?= 300
TSAN_PLUGIN_CYCLES ?= 5
TSAN_PLUGIN_ROUNDS ?= 100
TSAN_ROUTE_RELOADS ?= 50
TSAN_QSBR_REQUESTS ?= 2000
# torture --rhash (the resizable hash table) under ThreadSanitizer.  It
# once reported, under bp, a walker's read of an object against its
# calloc(): the rehash stored a moved object's link into the new chain
# without the release a reader following it acquires (core/rhashtable.c,
# rehash_one()); published since, 0 reports in 16 runs per flavour
# (8 reports in 16 with the plain store put back).
TSAN_RH_S    ?= 0.5
TSAN_RH_KEYS ?= 8192
TSAN_BUGS := early-free init-after-publish plain-add plain-del use-after-unlock

# The plugin matrix without the host that uses liburcu-memb directly: its
# own grace periods are liburcu 0.13's, which rculist cannot annotate
# (7 of 7 of its runs report its reader against its free).
TSAN_HOSTS  = $(filter-out urcu,$(HOST_KINDS))

TSAN_OPTS = halt_on_error=0:exitcode=66:history_size=7:die_after_fork=0

# The programs, built by a sub-make in $(TSAN_ROOT) (TSAN_INNER below).
tsan_progs = $(foreach f,$(FLAVORS),$(B)/torture/$(f)/torture \
	$(EX_B)/route_table-$(f) $(EX_B)/qsbr_server-$(f) \
	$(B)/tsan/$(f)/correct $(B)/tsan/$(f)/correct-debug \
	$(B)/tsan/$(f)/correct-inline $(B)/tsan/$(f)/bugs) $(PL_PLUGINS) \
	$(foreach h,$(TSAN_HOSTS),$(PL_B)/host-$(h)-dlopen \
		$(foreach p,$(PLUGIN_KINDS),$(PL_B)/host-$(h)-linked-$(p)))
#
# -fno-lto: gcc would otherwise compile the archives' LTO code into the
# plugin that embeds librculist-bp.a, with -fsanitize=thread, and gcc 12
# leaves __atomic_compare_exchange_n() uninstrumented (a plain lock
# cmpxchg), so the library's lock-free reclaim code would be reported.
# HOST_NO_FORK: the hosts' children start threads, which ThreadSanitizer
# does not support after a fork() of a multi-threaded process (the
# torture test's child starts none, and forks here too).
TSAN_MAKE = $(MAKE) --no-print-directory CC='$(TSAN_CC)' B=$(TSAN_ROOT) \
	LIBDIR_B=$(LIBDIR_B) CFLAGS='$(TSAN_FLAGS)' CPPFLAGS='$(CPPFLAGS) -DHOST_NO_FORK' \
	LDFLAGS='$(LDFLAGS) -fsanitize=thread -fno-lto' LTO=0 TSAN_INNER=1 \
	TSAN_PREFIX=$(abspath $(TSAN_ROOT))/prefix \
	$(foreach l,$(LIBS_SO) $(LIBS_A),-o $(l))

ifeq ($(TSAN_INNER),1)
tsan_link = $(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$(1) -lpthread
# As a user builds it: the installed headers and library, through
# pkg-config (the temporary prefix of check-tsan-run).
$(B)/tsan/%/correct: tests/tsan/correct.c $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $< -o $@ $(LDFLAGS) \
		$$(PKG_CONFIG_PATH=$(TSAN_PREFIX)/lib/pkgconfig $(PKG_CONFIG) --cflags --libs rculist-$*) \
		-Wl,-rpath,$(TSAN_PREFIX)/lib -lpthread
$(B)/tsan/%/correct-debug: tests/tsan/correct.c $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CPPFLAGS) -DRCULIST_DEBUG $(ALL_CFLAGS) $< -o $@ $(call tsan_link,$*)
$(B)/tsan/%/correct-inline: tests/tsan/correct.c $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CPPFLAGS) -DRCULIST_INLINE_$(call upper,$*) $(ALL_CFLAGS) $< -o $@ \
		$(call tsan_link,$*) $(call urcu_libs,$*)
$(B)/tsan/%/bugs: tests/tsan/bugs.c $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $< -o $@ $(call tsan_link,$*)
# The rhashtable unit suites, with tests/tsan/criterion/criterion.h in
# Criterion's place and tests/tsan/unit_main.c as the runner (not
# rhashtable_key_compare.c, whose key flipped under lookups is a race on
# purpose).
TSAN_RHUNIT_SRCS := tests/tsan/unit_main.c tests/unit/rhashtable.c tests/unit/rhashtable_concurrent.c \
	tests/unit/rhashtable_walk.c
$(B)/tsan/%/rhash-unit: $(TSAN_RHUNIT_SRCS) tests/tsan/criterion/criterion.h tests/unit/check.h \
		$(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -Itests/tsan -Itests/unit $(ALL_CPPFLAGS) $(ALL_CFLAGS) -Wno-unused-parameter \
		$(TSAN_RHUNIT_SRCS) -o $@ $(call tsan_link,$*)
.PHONY: tsan-progs tsan-rhunit
tsan-progs: $(tsan_progs)
tsan-rhunit: $(foreach f,$(FLAVORS),$(B)/tsan/$(f)/rhash-unit)
endif

# The rhashtable unit suites (tests/unit/rhashtable*.c) under
# ThreadSanitizer, every flavour, TSAN_RH_UNIT_KEYS keys in the concurrent
# suite; in check-full.  Its reports (a lookup's read of an object
# against its allocation; the test's allocation switch and its reads of
# the table's size outside a section) are mended: 0 in 3 runs.
TSAN_RH_UNIT_KEYS ?= 20000
CHECKS_FULL += check-tsan-rhashtable-unit
.PHONY: check-tsan-rhashtable-unit
check-tsan-rhashtable-unit: lib ## The rhashtable unit suites under ThreadSanitizer, every flavour (Criterion stand-in)
	$(Q)$(TSAN_MAKE) $(if $(findstring j,$(filter-out --%,$(MAKEFLAGS))),,-j2) tsan-rhunit >/dev/null
	$(Q)rm -rf $(TSAN_ROOT)/rhlogs && mkdir -p $(TSAN_ROOT)/rhlogs; bad=0; \
	for f in $(FLAVORS); do \
		TSAN_OPTIONS="$(TSAN_OPTS):suppressions=$(abspath core/tsan.supp):log_path=$(TSAN_ROOT)/rhlogs/$$f" \
			RCULIST_TEST_RHASH_KEYS=$(TSAN_RH_UNIT_KEYS) $(TSAN_ROOT)/tsan/$$f/rhash-unit \
			>$(TSAN_ROOT)/rhlogs/out-$$f 2>&1 || { tail -5 $(TSAN_ROOT)/rhlogs/out-$$f; bad=1; }; \
		r=$$(cat $(TSAN_ROOT)/rhlogs/$$f.* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer'); \
		echo "   $$f: $$(tail -1 $(TSAN_ROOT)/rhlogs/out-$$f), $$r ThreadSanitizer reports"; \
		[ "$$r" = 0 ] || bad=1; \
	done; [ $$bad = 0 ]

# One program under ThreadSanitizer: tsan_run,<log name>,<command>.
# Its reports go to $(TSAN_ROOT)/logs/<log name>.<pid>; a status other
# than 0 or 66 (reports found) fails the check.
tsan_run = TSAN_OPTIONS="$(TSAN_OPTS):suppressions=$$supp:log_path=$(TSAN_ROOT)/logs/$(1)" \
	$(2) >$(TSAN_ROOT)/out/$(1) 2>&1; st=$$?; \
	if [ $$st -ne 0 ] && [ $$st -ne 66 ]; then \
		echo "check-tsan: $(1) failed (status $$st):" >&2; \
		tail -20 $(TSAN_ROOT)/out/$(1) >&2; exit 1; fi
# The reports in the logs of <log name>.
tsan_count = $$(cat $(TSAN_ROOT)/logs/$(1).* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer')

.PHONY: check-tsan check-tsan-full check-tsan-run tsan
check-tsan: ## ThreadSanitizer, $(CC): 0 reports on correct programs, each planted bug reported
	$(Q)$(MAKE) --no-print-directory check-tsan-run

check-tsan-full: ## check-tsan under gcc and clang, longer runs, full plugin cycles
	$(Q)for cc in gcc clang; do \
		$(MAKE) --no-print-directory check-tsan-run TSAN_CC=$$cc TSAN_TORTURE_S=10 \
			TSAN_ROUNDS=3000 TSAN_PLUGIN_CYCLES=$(PLUGIN_CYCLES) \
			TSAN_PLUGIN_ROUNDS=$(PLUGIN_ROUNDS) TSAN_ROUTE_RELOADS=200 \
			TSAN_QSBR_REQUESTS=20000 TSAN_RH_S=5 TSAN_RH_KEYS=65536 || exit 1; \
	done

tsan: check-tsan-full

check-tsan-run: lib
	@echo "== tsan, $(TSAN_NAME): without -fsanitize=thread <rculist/tsan.h> generates nothing"
	$(Q)tests/tsan/zero_cost.sh $(TSAN_ROOT)/zero-cost $(TSAN_CC) $(WARNINGS) $(URCU_CFLAGS)
	@echo "== tsan, $(TSAN_NAME): install, the suppression file through pkg-config"
	$(Q)rm -rf $(TSAN_ROOT)/prefix $(TSAN_ROOT)/logs $(TSAN_ROOT)/out && \
		mkdir -p $(TSAN_ROOT)/logs $(TSAN_ROOT)/out
	$(Q)$(MAKE) --no-print-directory install PREFIX=$(abspath $(TSAN_ROOT))/prefix \
		GEN_B=$(TSAN_ROOT)/gen >/dev/null
	$(Q)for f in $(FLAVORS); do \
		s=$$(PKG_CONFIG_PATH=$(abspath $(TSAN_ROOT))/prefix/lib/pkgconfig \
			$(PKG_CONFIG) --variable=tsan_suppressions rculist-$$f); \
		[ "$$s" = $(abspath $(TSAN_ROOT))/prefix/share/rculist/tsan.supp ] && \
			cmp -s "$$s" core/tsan.supp || \
		{ echo "check-tsan: rculist-$$f.pc names '$$s' as tsan_suppressions" >&2; exit 1; }; \
	done
	$(Q)if grep -v '^#' core/tsan.supp | grep . | grep -v '^race:urcu_' | grep -q .; then \
		echo "check-tsan: core/tsan.supp has a rule for something other than liburcu:" >&2; \
		grep -v '^#' core/tsan.supp | grep . | grep -v '^race:urcu_' >&2; exit 1; fi
	$(Q)$(TSAN_MAKE) $(if $(findstring j,$(filter-out --%,$(MAKEFLAGS))),,-j2) tsan-progs >/dev/null
	@echo "== tsan, $(TSAN_NAME): correct programs, every flavour (0 reports each)"
	$(Q)supp=$(abspath $(TSAN_ROOT))/prefix/share/rculist/tsan.supp; \
	for f in $(FLAVORS); do \
		$(call tsan_run,torture-$$f,$(TSAN_ROOT)/torture/$$f/torture $(TSAN_TORTURE_S)); \
		$(call tsan_run,torture-rhash-$$f,$(TSAN_ROOT)/torture/$$f/torture --rhash $(TSAN_RH_S) $(TSAN_RH_KEYS)); \
		$(call tsan_run,correct-$$f,$(TSAN_ROOT)/tsan/$$f/correct $(TSAN_ROUNDS)); \
		$(call tsan_run,correct-debug-$$f,$(TSAN_ROOT)/tsan/$$f/correct-debug $(TSAN_ROUNDS)); \
		$(call tsan_run,correct-inline-$$f,$(TSAN_ROOT)/tsan/$$f/correct-inline $(TSAN_ROUNDS)); \
		$(call tsan_run,route_table-$$f,$(TSAN_ROOT)/examples/route_table-$$f 2 $(TSAN_ROUTE_RELOADS)); \
		$(call tsan_run,qsbr_server-$$f,$(TSAN_ROOT)/examples/qsbr_server-$$f 2 $(TSAN_QSBR_REQUESTS)); \
	done; \
	for h in $(TSAN_HOSTS); do \
		for p in $(PLUGIN_KINDS); do \
			$(call tsan_run,host-$$h-linked-$$p,$(TSAN_ROOT)/examples/libplugin/host-$$h-linked-$$p 1 $(TSAN_PLUGIN_ROUNDS)); \
		done; \
		for p in bp static; do \
			$(call tsan_run,host-$$h-dlopen-$$p,$(TSAN_ROOT)/examples/libplugin/host-$$h-dlopen \
				$(TSAN_ROOT)/examples/libplugin/libplugin-$$p.so \
				$(TSAN_PLUGIN_CYCLES) $(TSAN_PLUGIN_ROUNDS)); \
		done; \
	done; \
	n=$$(ls $(TSAN_ROOT)/out | wc -l); r=$$(cat $(TSAN_ROOT)/logs/* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer'); \
	echo "   $$n correct programs under ThreadSanitizer ($(TSAN_NAME)): $$r reports"; \
	if [ "$$r" != 0 ]; then \
		echo "check-tsan: reports on correct programs (logs in $(TSAN_ROOT)/logs):" >&2; \
		grep -l '^WARNING: ThreadSanitizer' $(TSAN_ROOT)/logs/* >&2; \
		cat $$(ls $(TSAN_ROOT)/logs/* | head -1) | head -60 >&2; exit 1; fi
	@echo "== tsan, $(TSAN_NAME): planted bugs (each reported, in bugs.c) and their fixed twins (0 reports)"
	$(Q)supp=$(abspath $(TSAN_ROOT))/prefix/share/rculist/tsan.supp; caught=0; total=0; \
	for f in $(FLAVORS); do for b in $(TSAN_BUGS); do \
		total=$$((total + 1)); \
		$(call tsan_run,bug-$$b-$$f,$(TSAN_ROOT)/tsan/$$f/bugs $$b planted); \
		$(call tsan_run,fixed-$$b-$$f,$(TSAN_ROOT)/tsan/$$f/bugs $$b fixed); \
		r=$(call tsan_count,bug-$$b-$$f); \
		in=$$(cat $(TSAN_ROOT)/logs/bug-$$b-$$f.* 2>/dev/null | grep -c 'tests/tsan/bugs.c'); \
		ok=$(call tsan_count,fixed-$$b-$$f); \
		if [ "$$r" -ge 1 ] && [ "$$in" -ge 1 ]; then caught=$$((caught + 1)); else \
			echo "check-tsan: planted $$b ($$f): $$r reports, $$in frames in bugs.c: not caught" >&2; fi; \
		if [ "$$ok" != 0 ]; then \
			echo "check-tsan: fixed $$b ($$f): $$ok reports, expected none" >&2; \
			cat $(TSAN_ROOT)/logs/fixed-$$b-$$f.* | head -40 >&2; exit 1; fi; \
	done; done; \
	echo "   planted bugs reported: $$caught of $$total; their fixed twins: 0 reports"; \
	[ $$caught = $$total ]
	$(Q)$(MAKE) --no-print-directory uninstall PREFIX=$(abspath $(TSAN_ROOT))/prefix \
		GEN_B=$(TSAN_ROOT)/gen >/dev/null
	@echo "== tsan, $(TSAN_NAME): passed"
