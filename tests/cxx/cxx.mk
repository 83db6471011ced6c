# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/cxx/cxx.mk - <rculist/rcu.hpp>, C++26's RCU names over rculist:
#   check-cxx-rcu       the P2545 examples (p2545.cc) compiled as C++17
#                       and C++20 under g++ and clang++ (-Wall -Wextra
#                       -Wshadow -Wcast-qual -Werror), once in debug mode
#                       and once with qsbr's inline read side; the
#                       concurrent test (concurrent.cc, with shared.c:
#                       a list shared with C) under g++ C++17 and clang++
#                       C++20; each object linked
#                       with every flavour and run (g++'s again with
#                       RCULIST_JUMP=off: the C++ sites as compiled,
#                       checked by its step sites); debug mode reporting
#                       a walk outside a region (debug_walk.cc); clang
#                       -Wthread-safety: misuse/*.cc each warned at its
#                       marked line, the tests silent; README.md's C++
#                       example, every flavour (and once built with
#                       -fno-exceptions -fno-rtti).
#                       About 20 s of CPU, most of it compiling.
#   check-cxx-rcu-tsan  (make check-full) the concurrent test under
#                       ThreadSanitizer, every flavour
CHECKS += check-cxx-rcu
CHECKS_FULL += check-cxx-rcu-tsan

RCU_B     := $(B)/cxx-rcu
RCU_DIR   := tests/cxx
rcu_have   = $(shell command -v $(1) >/dev/null 2>&1 && echo $(1))
RCU_CXXS  := $(foreach c,g++ clang++,$(call rcu_have,$(c)))
RCU_WARN  := -Wall -Wextra -Wshadow -Wcast-qual -Werror
RCU_DEPS  := include/rculist/rcu.hpp $(RCU_DIR)/shared.h
RCU_LINK   = $(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$(1) -pthread
rcu_cxx    = $(firstword $(subst -, ,$(1)))

# Builds: <compiler>-<std>[-<variant>], each one object per program,
# linked per flavour.  p2545 in every build, concurrent in two.
RCU_P2545_BUILDS := $(foreach c,$(RCU_CXXS),$(c)-17 $(c)-20) \
	$(if $(filter g++,$(RCU_CXXS)),g++-17-debug g++-17-inline)
RCU_CONC_BUILDS  := $(if $(filter g++,$(RCU_CXXS)),g++-17) $(if $(filter clang++,$(RCU_CXXS)),clang++-20)
rcu_std     = $(word 2,$(subst -, ,$(1)))
rcu_variant = $(word 3,$(subst -, ,$(1)))
rcu_vflags  = $(if $(filter debug,$(1)),-DRCULIST_DEBUG)$(if $(filter inline,$(1)),-DRCULIST_INLINE_QSBR)
# The inline build links qsbr only (its read side is qsbr's).
rcu_flavors = $(if $(filter inline,$(call rcu_variant,$(1))),qsbr,$(FLAVORS))
rcu_urcu    = $(if $(filter inline,$(call rcu_variant,$(1))),$(call urcu_libs,qsbr))

$(RCU_B)/shared.o: $(RCU_DIR)/shared.c $(RCU_DIR)/shared.h | $(B)/.deps
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

define rcu_build
$(RCU_B)/$(1)/$(2).o: $(RCU_DIR)/$(2).cc $(RCU_DEPS) | $(B)/.deps
	$$(call quiet,CXX,$$@)
	$(Q)mkdir -p $$(dir $$@)
	$(Q)$(call rcu_cxx,$(1)) -std=c++$(call rcu_std,$(1)) $(call rcu_vflags,$(call rcu_variant,$(1))) \
		$$(ALL_CPPFLAGS) $(RCU_WARN) -O2 -g -c $$< -o $$@
$(foreach f,$(call rcu_flavors,$(1)),$(RCU_B)/$(1)/$(2)-$(f)): \
$(RCU_B)/$(1)/$(2)-%: $(RCU_B)/$(1)/$(2).o $(RCU_B)/shared.o $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(Q)$(call rcu_cxx,$(1)) -o $$@ $$< $(if $(filter concurrent,$(2)),$(RCU_B)/shared.o) \
		$$(call RCU_LINK,$$*) $(call rcu_urcu,$(1))
RCU_BINS += $(foreach f,$(call rcu_flavors,$(1)),$(RCU_B)/$(1)/$(2)-$(f))
endef
$(foreach b,$(RCU_P2545_BUILDS),$(eval $(call rcu_build,$(b),p2545)))
$(foreach b,$(RCU_CONC_BUILDS),$(eval $(call rcu_build,$(b),concurrent)))
RCU_DEBUG_BUILD := $(if $(filter g++,$(RCU_CXXS)),g++-17-debug)
$(foreach b,$(RCU_DEBUG_BUILD),$(eval $(call rcu_build,$(b),debug_walk)))

# README.md's C++ example (the ```cpp block of its C++ section) and
# rculist-cxx(7)'s (check-man runs it under one flavour): built and run
# under every flavour here, and checked by clang -Wthread-safety.
$(RCU_B)/readme.cc: README.md | $(B)/.deps
	$(Q)mkdir -p $(dir $@)
	$(Q)awk '/^\#\# C\+\+:/ { s = 1 } s && /^```cpp$$/ { p = 1; next } p && /^```$$/ { exit } p' $< > $@
	$(Q)test -s $@ || { echo "check-cxx-rcu: no \`\`\`cpp block in README.md's C++ section" >&2; rm -f $@; exit 1; }
$(RCU_B)/man-example.cc: man/man7/rculist-cxx.7 | $(B)/.deps
	$(Q)mkdir -p $(dir $@)
	$(Q)$(call man_example,$<) > $@
$(RCU_B)/readme.o: $(RCU_B)/readme.cc $(RCU_DEPS)
	$(call quiet,CXX,$@)
	$(Q)$(CXX) -std=c++17 $(ALL_CPPFLAGS) $(RCU_WARN) -O2 -c $< -o $@
$(FLAVORS:%=$(RCU_B)/readme-%): $(RCU_B)/readme-%: $(RCU_B)/readme.o $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(Q)$(CXX) -o $@ $< $(call RCU_LINK,$*)
# And once without exceptions or RTTI (the read side needs neither).
$(RCU_B)/readme-noexc-memb: $(RCU_B)/readme.cc $(RCU_DEPS) $(LIBDIR_B)/librculist-memb.so.$(VERSION)
	$(Q)$(CXX) -std=c++20 -fno-exceptions -fno-rtti $(ALL_CPPFLAGS) $(RCU_WARN) -O2 $< -o $@ \
		$(call RCU_LINK,memb)
RCU_README_BINS := $(FLAVORS:%=$(RCU_B)/readme-%) $(RCU_B)/readme-noexc-memb

# clang's thread-safety analysis, with tests/thread_safety/run.sh.
RCU_TS_CXX = $(firstword $(filter clang++,$(RCU_CXXS)))
RCU_MISUSE := $(sort $(wildcard $(RCU_DIR)/misuse/*.cc))
RCU_TS_CORRECT := $(RCU_DIR)/p2545.cc $(RCU_DIR)/concurrent.cc $(RCU_B)/readme.cc $(RCU_B)/man-example.cc
$(RCU_B)/thread-safety.ok: $(RCU_MISUSE) $(RCU_TS_CORRECT) $(RCU_DEPS) tests/thread_safety/run.sh | $(B)/.deps
	$(Q)mkdir -p $(dir $@)
	$(Q)if [ -z "$(RCU_TS_CXX)" ]; then echo "   (clang++ not installed: -Wthread-safety skipped)"; else \
	tests/thread_safety/run.sh misuse cxx-rcu:c++17 "$(RCU_TS_CXX) -std=c++17 -Iinclude $(URCU_CFLAGS)" \
		$(RCU_MISUSE) && \
	tests/thread_safety/run.sh correct cxx-rcu:c++20 "$(RCU_TS_CXX) -std=c++20 -Iinclude $(URCU_CFLAGS)" \
		$(RCU_TS_CORRECT); fi > $@.tmp
	$(Q)mv $@.tmp $@

.PHONY: check-cxx-rcu check-cxx-rcu-tsan
check-cxx-rcu: $(RCU_BINS) $(RCU_README_BINS) $(RCU_B)/thread-safety.ok ## <rculist/rcu.hpp>: P2545 examples, concurrent test, -Wthread-safety
	@echo "== <rculist/rcu.hpp>: $(RCU_CXXS) x C++17/20, every flavour"
	$(Q)cat $(RCU_B)/thread-safety.ok
	$(Q)for t in $(RCU_BINS); do printf '   %-32s ' "$${t#$(RCU_B)/}"; \
		out=$$(RCULIST_TEST_CONC_SECS=$(UNIT_CONC_SECS) $$t) || { echo "$$out"; echo "$$t failed" >&2; exit 1; }; \
		echo "$$out" | tail -n 1; done
	@# The concurrent test again with every site left as compiled (x86-64).
	$(Q)for t in $(filter $(RCU_B)/g++-17/concurrent-%,$(RCU_BINS)); do printf '   %-32s ' "$${t#$(RCU_B)/} (off)"; \
		out=$$(RCULIST_JUMP=off RCULIST_TEST_CONC_SECS=$(UNIT_CONC_SECS) $$t) || { echo "$$out"; echo "RCULIST_JUMP=off $$t failed" >&2; exit 1; }; \
		echo "$$out" | tail -n 1; done
	$(Q)for t in $(RCU_README_BINS); do printf '   %-32s ' "$${t#$(RCU_B)/}"; \
		$$t | grep -x 'sum 0 after the retires' || { echo "$$t: README.md's example failed" >&2; exit 1; }; done
	@# Debug mode reports a walk outside a region at its line, and aborts.
	$(Q)for t in $(filter %/debug_walk-$(firstword $(FLAVORS)) $(foreach f,$(FLAVORS),%/debug_walk-$(f)),$(RCU_BINS)); do \
		line=$$(grep -n 'WALK OUTSIDE' $(RCU_DIR)/debug_walk.cc | cut -d: -f1); \
		if $$t outside >$(RCU_B)/debug_walk.log 2>&1; then echo "$$t: the walk outside a region passed" >&2; exit 1; fi; \
		grep -q "rculist::rcu_entries() at $(RCU_DIR)/debug_walk.cc:$$line: not inside a read-side critical section" \
			$(RCU_B)/debug_walk.log || { cat $(RCU_B)/debug_walk.log >&2; exit 1; }; \
		printf '   %-32s a walk outside a region reported at line %s\n' "$${t#$(RCU_B)/}" $$line; \
	done

# ThreadSanitizer: the concurrent test compiled with -fsanitize=thread,
# linked with the ordinary libraries (core/tsan.c tells the sanitizer
# about grace periods), reports counted with rculist's suppressions.
RCU_TSAN_OPTS = halt_on_error=0:exitcode=66:history_size=7:suppressions=$(abspath core/tsan.supp)
$(RCU_B)/tsan/concurrent.o: $(RCU_DIR)/concurrent.cc $(RCU_DEPS) | $(B)/.deps
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CXX) -std=c++17 -fsanitize=thread -O1 -g $(ALL_CPPFLAGS) $(RCU_WARN) -c $< -o $@
$(RCU_B)/tsan/shared.o: $(RCU_DIR)/shared.c $(RCU_DIR)/shared.h | $(B)/.deps
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -fsanitize=thread -O1 -g $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@
$(FLAVORS:%=$(RCU_B)/tsan/concurrent-%): $(RCU_B)/tsan/concurrent-%: $(RCU_B)/tsan/concurrent.o \
		$(RCU_B)/tsan/shared.o $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(Q)$(CXX) -fsanitize=thread -o $@ $(RCU_B)/tsan/concurrent.o $(RCU_B)/tsan/shared.o $(call RCU_LINK,$*)

check-cxx-rcu-tsan: $(FLAVORS:%=$(RCU_B)/tsan/concurrent-%) ## check-cxx-rcu's concurrent test under ThreadSanitizer
	@echo "== <rculist/rcu.hpp> under ThreadSanitizer, every flavour"
	$(Q)rm -f $(RCU_B)/tsan/log-*; for f in $(FLAVORS); do printf '   %-5s ' $$f; \
		TSAN_OPTIONS=$(RCU_TSAN_OPTS):log_path=$(RCU_B)/tsan/log-$$f \
		RCULIST_TEST_CONC_SECS=$(FULL_CONC_SECS) $(RCU_B)/tsan/concurrent-$$f | tail -n 1 || exit 1; \
		n=$$(cat $(RCU_B)/tsan/log-$$f.* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer'); \
		[ "$$n" = 0 ] || { cat $(RCU_B)/tsan/log-$$f.* >&2; echo "$$f: $$n ThreadSanitizer reports" >&2; exit 1; }; \
		rm -f $(RCU_B)/tsan/log-$$f.*; \
	done
