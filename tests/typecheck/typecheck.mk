# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/typecheck/typecheck.mk - check-typecheck: every *_entry macro and iterator
# refuses a member that is not its list's node type, at compile time,
# with a message that says so (tests/typecheck/members.c), under each C
# compiler (gnu11, -std=c99 -pedantic, gnu11 in debug mode) and each C++
# compiler and standard; and the good uses compile without a warning.
# In each configuration too, tests/typecheck/const.c: liburcu 0.15-style
# uses of const heads, links and cursors compile with -Wcast-qual -Werror.
CHECKS += check-typecheck

# make check: the oldest and newest C++ standards; check-typecheck-full
# (make check-full) every one.
TC_CXX_STDS ?= 11 20
CHECKS_FULL += check-typecheck-full
.PHONY: check-typecheck-full
check-typecheck-full: ## check-typecheck under C++11, 14, 17 and 20
	$(Q)$(MAKE) --no-print-directory check-typecheck 'TC_CXX_STDS=11 14 17 20'
TC_SRC      := tests/typecheck/members.c
TC_CONST    := tests/typecheck/const.c
TC_WARN      = -Iinclude $(URCU_CFLAGS) $(CPPFLAGS) -Wall -Wextra -Wshadow -Wcast-qual

# Each configuration: a label and its command line.
tc_c_gnu11  = $(1) -std=gnu11 $(TC_WARN) -Wstrict-prototypes
tc_c_c99    = $(1) -std=c99 -pedantic $(TC_WARN) -Wstrict-prototypes
tc_c_debug  = $(1) -std=gnu11 -DRCULIST_DEBUG $(TC_WARN) -Wstrict-prototypes
TC_CONFIGS := $(foreach c,$(STRICT_FOUND),$(c)-gnu11 $(c)-c99 $(c)-debug) \
	$(foreach c,$(CXX_FOUND),$(foreach s,$(TC_CXX_STDS),$(c)-c++$(s)))
tc_cmd = $(if $(filter %-gnu11,$(1)),$(call tc_c_gnu11,$(1:%-gnu11=%)),$\
	$(if $(filter %-c99,$(1)),$(call tc_c_c99,$(1:%-c99=%)),$\
	$(if $(filter %-debug,$(1)),$(call tc_c_debug,$(1:%-debug=%)),$\
	$(word 1,$(subst -c++, ,$(1))) -x c++ -std=c++$(lastword $(subst -c++, ,$(1))) $(TC_WARN))))

$(B)/typecheck/%.ok: $(TC_SRC) $(TC_CONST) tests/typecheck/run.sh $(wildcard include/*.h include/rculist/*.h) | $(B)/.deps
	$(Q)mkdir -p $(dir $@)
	$(Q)tests/typecheck/run.sh $(TC_SRC) $* $(call tc_cmd,$*) > $@.log || { cat $@.log; exit 1; }
	$(Q)$(call tc_cmd,$*) -Werror -c -o /dev/null $(TC_CONST) || \
		{ echo "typecheck: $*: $(TC_CONST) (liburcu 0.15-style const uses) does not compile" >&2; exit 1; }
	$(Q)echo '   $*: $(TC_CONST) compiles with -Wcast-qual -Werror' >> $@.log
	$(Q)mv $@.log $@

.PHONY: check-typecheck
check-typecheck: $(TC_CONFIGS:%=$(B)/typecheck/%.ok) ## Wrong member types refused at compile time (C, C++)
	@echo "== typecheck: a member of the wrong node type refused, const uses accepted, by $(words $(TC_CONFIGS)) compiler configurations"
	$(if $(strip $(filter-out $(STRICT_FOUND),$(STRICT_CCS)) $(filter-out $(CXX_FOUND),$(CXX_COMPILERS))),@echo "   (not installed, skipped: $(filter-out $(STRICT_FOUND),$(STRICT_CCS)) $(filter-out $(CXX_FOUND),$(CXX_COMPILERS)))")
	$(Q)cat $^
