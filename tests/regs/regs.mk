# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/regs/regs.mk - check-regs: what a caller holds in registers and on
# its stack survives every slow path of the inline read side (lock,
# unlock and quiescent state before the library's constructor and before
# the sites are patched, bp's first section, memb's lock in a thread not
# registered, the unlock that wakes a waiting grace period, qsbr's
# quiescent state that calls the library; C++'s regions, a thread's
# first and a qsbr thread's only C++ uses), every flavour; a canary
# where the library calls out (harness.c) checks the stack's alignment
# and clobbers every register a callee may change.  The cases (cases.c,
# cases.cc) are compiled by gcc and clang (fixed compilers, whatever CC
# is) at -O1/-O2/-O3, at -O2 with -mavx2 (run only on a CPU with AVX2),
# and -fPIC into a shared object; each object linked with every flavour
# library.  Cost: about 9 s CPU, nearly all compiling; the 56 runs take
# under 2 s.  flags.c (below): the read side built with flags a user may
# use (no SSE, no x87, no red zone, non-PIE, CET, frame pointers, ASan,
# AVX-512), about 4 s CPU more; unwind.c (below): backtrace() from inside
# the rare call, about 3 s more.
CHECKS += check-regs

REGS_B    := $(B)/regs
# Builds: <language>-<compiler>-<flags>; so-...: the cases in a shared object.
# -mavx2 on an x86-64 machine only.
REGS_AVX2 := $(if $(filter x86_64,$(shell uname -m)),avx2)
REGS_C    := $(foreach c,gcc clang,$(foreach o,O1 O2 O3 $(REGS_AVX2),c-$(c)-$(o)))
REGS_CXX  := cxx-gcc-O2 cxx-gcc-O3 cxx-clang-O2 cxx-clang-O3
REGS_SO   := so-gcc-O2 so-clang-O2
REGS_TAGS := $(REGS_C) $(REGS_CXX) $(REGS_SO)
REGS_BINS := $(foreach f,$(FLAVORS),$(REGS_TAGS:%=$(REGS_B)/$(f)/%))
REGS_HDRS := $(wildcard include/rculist.h include/rculist/*.h include/rculist/*.hpp) \
	tests/regs/regs.h tests/regs/body.h
REGS_LINK  = $(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$(1) -pthread
# A tag's compiler and flags.
regs_word  = $(word $(1),$(subst -, ,$(2)))
regs_cc    = $(if $(filter cxx,$(call regs_word,1,$(1))),$(if $(filter clang,$(call \
	regs_word,2,$(1))),clang++,g++),$(call regs_word,2,$(1)))
regs_opt   = $(if $(filter avx2,$(call regs_word,3,$(1))),-O2 -mavx2,-$(call regs_word,3,$(1)))$(if \
	$(filter so,$(call regs_word,1,$(1))), -fPIC)
REGS_FLAGS = -g -Iinclude $(URCU_CFLAGS) $(CPPFLAGS) $(filter-out -Wstrict-prototypes,$(WARNINGS)) \
	-DREGS_BUILD='"$(call regs_cc,$(1)) $(call regs_opt,$(1))"' $(call regs_opt,$(1))

$(REGS_B)/c-%.o: tests/regs/cases.c $(REGS_HDRS) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(call regs_cc,c-$*) -std=gnu11 -Wstrict-prototypes $(call REGS_FLAGS,c-$*) -c $< -o $@

$(REGS_B)/so-%.o: tests/regs/cases.c $(REGS_HDRS) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(call regs_cc,so-$*) -std=gnu11 -Wstrict-prototypes $(call REGS_FLAGS,so-$*) -c $< -o $@

$(REGS_B)/cxx-%.o: tests/regs/cases.cc $(REGS_HDRS) | $(B)/.deps
	$(call quiet,CXX,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(call regs_cc,cxx-$*) -std=c++17 $(call REGS_FLAGS,cxx-$*) -c $< -o $@

# The harness and the program's start, by gcc; the harness -fPIC too.
$(REGS_B)/%.o: tests/regs/%.c tests/regs/regs.h | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)gcc -std=gnu11 -O2 -g -Iinclude $(URCU_CFLAGS) $(CPPFLAGS) $(WARNINGS) -c $< -o $@

$(REGS_B)/harness-pic.o: tests/regs/harness.c tests/regs/regs.h | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)gcc -std=gnu11 -O2 -g -fPIC -Iinclude $(URCU_CFLAGS) $(CPPFLAGS) $(WARNINGS) -c $< -o $@

define regs_link
$(REGS_B)/$(1)/c-%: $(REGS_B)/c-%.o $(REGS_B)/harness.o $(REGS_B)/main.o $(call lib_so,$(1)).$(VERSION)
	$$(Q)mkdir -p $$(dir $$@)
	$$(Q)gcc $$(filter %.o,$$^) -o $$@ $(call REGS_LINK,$(1))

$(REGS_B)/$(1)/cxx-%: $(REGS_B)/cxx-%.o $(REGS_B)/harness.o $(REGS_B)/main.o $(call lib_so,$(1)).$(VERSION)
	$$(Q)mkdir -p $$(dir $$@)
	$$(Q)g++ $$(filter %.o,$$^) -o $$@ $(call REGS_LINK,$(1))

$(REGS_B)/$(1)/libso-%.so: $(REGS_B)/so-%.o $(REGS_B)/harness-pic.o $(call lib_so,$(1)).$(VERSION)
	$$(Q)mkdir -p $$(dir $$@)
	$$(Q)gcc -shared $$(filter %.o,$$^) -o $$@ $(call REGS_LINK,$(1))

$(REGS_B)/$(1)/so-%: $(REGS_B)/main.o $(REGS_B)/$(1)/libso-%.so
	$$(Q)gcc $$^ -o $$@ -Wl,-rpath,$$(abspath $$(dir $$@)) $(call REGS_LINK,$(1))
endef
$(foreach f,$(FLAVORS),$(eval $(call regs_link,$(f))))

# flags.c under code-generation flags a user may build with (tag: flags):
# each built by gcc and clang, linked with every flavour, run; avx512 is
# built and linked everywhere, run only on a CPU with AVX-512F.
REGS_FL_TAGS := gro:-mgeneral-regs-only nosse:-mno-sse no387:-mno-80387 \
	nored:-mno-red-zone nopie:-fno-pie cet:-fcf-protection=full \
	fp:-fno-omit-frame-pointer asan:-fsanitize=address avx512:-mavx512f
REGS_FL_NAMES := $(foreach t,$(REGS_FL_TAGS),$(firstword $(subst :, ,$(t))))
regs_fl_flags = $(patsubst $(1):%,%,$(filter $(1):%,$(REGS_FL_TAGS)))
regs_fl_ld    = $(if $(filter nopie,$(1)),-no-pie)$(if $(filter asan,$(1)),-fsanitize=address)
REGS_FL_OBJS := $(foreach c,gcc clang,$(REGS_FL_NAMES:%=$(REGS_B)/flags-$(c)-%.o))
REGS_FL_BINS := $(foreach f,$(FLAVORS),$(REGS_FL_OBJS:$(REGS_B)/%.o=$(REGS_B)/$(f)/%))

$(REGS_B)/flags-%.o: tests/regs/flags.c $(REGS_HDRS) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(call regs_word,1,$*) -std=gnu11 -O2 -g -Iinclude $(URCU_CFLAGS) $(CPPFLAGS) $(WARNINGS) \
		$(call regs_fl_flags,$(call regs_word,2,$*)) -c $< -o $@

define regs_fl_link
$(REGS_B)/$(1)/flags-%: $(REGS_B)/flags-%.o $(call lib_so,$(1)).$(VERSION)
	$$(Q)mkdir -p $$(dir $$@)
	$$(Q)$$(call regs_word,1,$$*) $$(call regs_fl_ld,$$(call regs_word,2,$$*)) $$< -o $$@ $(call REGS_LINK,$(1))
endef
$(foreach f,$(FLAVORS),$(eval $(call regs_fl_link,$(f))))

# unwind.c: the stack walked from inside the rare call reaches the caller
# (C: bp's first section; C++, g++ and clang++: a thread's first lock,
# every flavour).
REGS_UW_BINS := $(REGS_B)/bp/unwind-c-gcc \
	$(foreach f,$(FLAVORS),$(REGS_B)/$(f)/unwind-cxx-g++ $(REGS_B)/$(f)/unwind-cxx-clang++)
regs_uw_lang = $(if $(filter c-%,$(1)),-x c -std=gnu11,-x c++ -std=c++17)

define regs_uw_link
$(REGS_B)/$(1)/unwind-%: tests/regs/unwind.c $(REGS_HDRS) $(call lib_so,$(1)).$(VERSION)
	$$(call quiet,CC,$$@)
	$$(Q)mkdir -p $$(dir $$@)
	$$(Q)$$(lastword $$(subst -, ,$$*)) $$(call regs_uw_lang,$$*) -O2 -g -rdynamic -Iinclude \
		$(URCU_CFLAGS) $(CPPFLAGS) $$(filter-out -Wstrict-prototypes,$(WARNINGS)) $$< -o $$@ \
		$(call REGS_LINK,$(1)) -ldl
endef
$(foreach f,$(FLAVORS),$(eval $(call regs_uw_link,$(f))))

.PHONY: check-regs
check-regs: $(REGS_BINS) $(REGS_FL_BINS) $(REGS_UW_BINS) ## What a caller holds in registers and on its stack survives the read side's slow paths (gcc, clang; C, C++; every flavour)
	@echo "== registers and stack across the read side's slow paths: $(words $(REGS_TAGS)) builds x $(words $(FLAVORS)) flavours"
	$(Q)st=0; \
	run() { out=$$($$1 2>&1) || { echo "$$out" >&2; echo "check-regs: $$1 failed" >&2; st=1; return 1; }; }; \
	for t in $(REGS_BINS); do \
		run $$t || continue; \
		case "$$out" in *skipped*) echo "   $$out";; esac; \
	done; \
	[ $$st = 0 ] && echo "   $(words $(REGS_BINS)) programs: every value kept"; \
	avx512=$$(grep -qw avx512f /proc/cpuinfo 2>/dev/null && echo 1); n=0; \
	for t in $(REGS_FL_BINS); do \
		case "$$t:$$avx512" in *-avx512:) continue;; esac; n=$$((n + 1)); \
		run $$t; \
	done; \
	[ $$st = 0 ] && echo "   flags.c: $(words $(REGS_FL_BINS)) programs built ($(REGS_FL_NAMES)), $$n run$$(if [ -n "$$avx512" ]; then echo ' (avx512 included)'; else echo ', avx512 not run: no AVX-512F here'; fi)"; \
	for t in $(REGS_UW_BINS); do run $$t; done; \
	[ $$st = 0 ] && echo "   unwind.c: $(words $(REGS_UW_BINS)) programs: the stack walked from inside the rare call reaches the section's caller and its thread"; exit $$st
