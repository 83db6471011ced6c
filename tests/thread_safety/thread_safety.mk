# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/thread_safety/thread_safety.mk - check-thread-safety: clang's
# thread-safety analysis (-Wthread-safety) sees rculist's read side as
# the capability rculist_rcu (include/rculist/compiler.h;
# docs/thread-safety.md).  With -Werror, under several configurations:
#   misuse/*.c   each holds one mistake (an _rcu walk or accessor outside
#                a section, a grace period inside one, an unlock with no
#                lock, a return with the section open, ...): each must
#                fail with the warning its "expect:" line names, at the
#                line marked MISUSE, and with no other diagnostic;
#   correct.c    every iterator and accessor inside a section, and given
#                an updater's condition outside one; the annotations;
#   the examples, the unit suites (as make check builds them and in
#                debug mode), tests/abi's C99 and C++ programs and the
#                hand-written man pages' examples: no warning at all.
# Compiles only (-fsyntax-only): 73 compilations, 20 s of CPU on a
# loaded machine, under 10 s on two idle cores.  check-thread-safety-full
# (make check-full) adds the other configurations: 60 more.
CHECKS += check-thread-safety
CHECKS_FULL += check-thread-safety-full

TS_CLANG   ?= clang
TS_CLANGXX ?= clang++
TS_DIR     := tests/thread_safety
TS_B       := $(B)/thread_safety
TS_MISUSE  := $(sort $(wildcard $(TS_DIR)/misuse/*.c))
TS_HEADERS := $(wildcard include/*.h include/rculist/*.h)
TS_INC      = -Iinclude $(URCU_CFLAGS) $(CPPFLAGS)

# The configurations: ts_cfg_<label> is the compiler and its flags.
ts_cfg_c           = $(TS_CLANG) -std=gnu11 $(TS_INC)
ts_cfg_c99         = $(TS_CLANG) -std=c99 -pedantic $(TS_INC)
ts_cfg_debug       = $(TS_CLANG) -std=gnu11 -DRCULIST_DEBUG $(TS_INC)
ts_cfg_c++11       = $(TS_CLANGXX) -x c++ -std=c++11 $(TS_INC)
ts_cfg_c++17       = $(TS_CLANGXX) -x c++ -std=c++17 $(TS_INC)
ts_cfg_c++20-debug = $(TS_CLANGXX) -x c++ -std=c++20 -DRCULIST_DEBUG $(TS_INC)
$(foreach f,$(FLAVORS),$(eval ts_cfg_inline-$(f) = $$(ts_cfg_c) \
	-DRCULIST_INLINE_$(shell echo $(f) | tr a-z A-Z)))

# The sets: $(call ts_set,NAME,MODE,FILES,EXTRA FLAGS,CONFIGS,MORE),
# one result file per configuration; CONFIGS in make check, MORE in
# make check-full only.
define ts_set
$(foreach c,$(5) $(6),$(TS_B)/$(1)-$(c).ok): $(TS_B)/$(1)-%.ok: $(3) $(TS_DIR)/run.sh $(TS_HEADERS) | $(B)/.deps
	$(Q)mkdir -p $$(dir $$@)
	$(Q)$(TS_DIR)/run.sh $(2) $(1):$$* "$$(ts_cfg_$$*) $(4)" $(3) > $$@.tmp
	$(Q)mv $$@.tmp $$@
TS_RESULTS += $(foreach c,$(5),$(TS_B)/$(1)-$(c).ok)
TS_RESULTS_FULL += $(foreach c,$(6),$(TS_B)/$(1)-$(c).ok)
endef

TS_EX_DEFS := -DPLUGIN_FLAVOR=\"bp\" -DHOST_RCULIST -DHOST_FLAVOR=\"memb\"
TS_UNIT_FLAGS := $$(CRITERION_CFLAGS) -Itests/unit
$(eval $(call ts_set,misuse,misuse,$(TS_MISUSE),,c debug,inline-memb c++17))
$(eval $(call ts_set,correct,correct,$(TS_DIR)/correct.c,,c c99 debug inline-memb c++11,\
	$(filter-out inline-memb,$(FLAVORS:%=inline-%)) c++20-debug))
$(eval $(call ts_set,examples,correct,$(wildcard examples/*/*.c),$(TS_EX_DEFS),c,debug))
$(eval $(call ts_set,unit,correct,$(TEST_SRC),$(TS_UNIT_FLAGS),c,debug))
$(eval $(call ts_set,abi-c,correct,tests/abi/strict.c,,c99,))
$(eval $(call ts_set,abi-cxx,correct,tests/abi/lists.cc,,c++11,c++20-debug))

# The hand-written man pages' C examples (as check-man compiles and runs
# them; the C++ ones, "example-begin <flavour> c++", are tests/cxx's).
TS_MAN_SRC := $(sort $(shell grep -L '^\.\\" example-begin [a-z]* c++$$' man/man3/*.3 man/man7/*.7))
$(TS_B)/man.ok: $(TS_MAN_SRC) $(TS_DIR)/run.sh $(TS_HEADERS) | $(B)/.deps
	$(Q)mkdir -p $(TS_B)/man
	$(Q)for p in $(TS_MAN_SRC); do \
		$(call man_example,$$p) > $(TS_B)/man/$$(basename $$p).c; done
	$(Q)$(TS_DIR)/run.sh correct man:c "$(ts_cfg_c)" \
		$(addprefix $(TS_B)/man/,$(notdir $(TS_MAN_SRC:%=%.c))) > $@.tmp
	$(Q)mv $@.tmp $@
TS_RESULTS += $(TS_B)/man.ok

.PHONY: check-thread-safety check-thread-safety-full
check-thread-safety: $(TS_RESULTS) ## clang -Wthread-safety: each misuse warned, no warning on correct code
	@echo "== thread safety: clang -Wthread-safety -Werror, $(words $(TS_MISUSE)) misuses each warned, correct code silent"
	$(Q)cat $^

check-thread-safety-full: $(TS_RESULTS) $(TS_RESULTS_FULL) ## check-thread-safety in every configuration
	@echo "== thread safety, every configuration: $(words $(TS_MISUSE)) misuses each warned, correct code silent"
	$(Q)cat $^
