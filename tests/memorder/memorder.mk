# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/memorder/memorder.mk - the memory order of the generated code, on a weakly
# ordered target (included by the Makefile; part of make check).
#
#   make check-memory-order     every _rcu update, iterator and accessor
#                               compiled for aarch64 (gcc and clang, two
#                               optimisation levels each): each publication
#                               is a release (stlr, or dmb ish before it),
#                               each reader's link load an acquire (ldar /
#                               ldapr: gcc and clang compile consume as
#                               acquire); then the planted mutants of
#                               tests/memorder/mutants must fail (or pass).
#
# x86-64 gives release and consume for free, so the object code there is
# the same with and without them: only a weakly ordered target shows a
# publication weakened to relaxed.  The functions checked are in
# tests/memorder/ops.c with their expectations; tests/memorder/check.py
# reads the aarch64 assembly.  Nothing is linked or run.
CHECKS += check-memory-order
CHECK_PREP += deps-memorder

MO_B        := $(B)/memorder
MO_HEADERS  := include/rculist/list_rcu.h include/rculist/hlist_rcu.h include/rculist/nulls.h \
	       include/rculist/hlist_bl.h include/rculist/hashtable.h
MO_VARIANTS := gcc-O2 gcc-O3 clang-O2 clang-Os
# The variants a mutant is tried with.
MO_MUTANT_VARIANTS := gcc-O2 clang-O2
MO_CC_gcc   := aarch64-linux-gnu-gcc
MO_CC_clang := clang --target=aarch64-linux-gnu
MO_CHECK    := python3 tests/memorder/check.py
MO_MUTANTS  := $(shell sed -n 's/^\([a-z][a-z-]*\) *|.*/\1/p' tests/memorder/mutants)

# liburcu's headers (for struct rcu_head and the runtime's declarations):
# the host's, as pkg-config finds them.  Debian installs them under the
# host's multiarch directory, which no cross compiler searches (and which
# holds the host's glibc headers too), so a directory of one link, urcu,
# stands for it.  What ops.c takes from them is the same for every
# architecture (urcu/arch.h chooses by the target's own macros), and
# nothing is linked.
MO_URCU_DIR := $(MO_B)/urcu-include
MO_URCU      = -isystem $(MO_URCU_DIR)

# The compiler and level of variant $(1) (gcc-O2).
mo_cc  = $(MO_CC_$(word 1,$(subst -, ,$(1))))
mo_opt = -$(word 2,$(subst -, ,$(1)))
# Shell: compile ops.c as variant $(1) against the headers in $(2) into $(3).
mo_compile = $(call mo_cc,$(1)) -std=gnu11 $(WARNINGS) $(call mo_opt,$(1)) -I$(2) $(MO_URCU) \
	-S tests/memorder/ops.c -o $(3)

.PHONY: check-memory-order deps-memorder
deps-memorder:
	$(Q)missing=""; \
	command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing="$$missing gcc-aarch64-linux-gnu"; \
	command -v python3 >/dev/null 2>&1 || missing="$$missing python3"; \
	command -v clang >/dev/null 2>&1 || missing="$$missing clang"; \
	$(need_debs)

$(MO_URCU_DIR)/urcu: FORCE
	$(Q)mkdir -p $(dir $@)
	$(Q)[ "$$(readlink $@)" = '$(URCU_INCLUDEDIR)/urcu' ] || ln -sfn '$(URCU_INCLUDEDIR)/urcu' $@

$(MO_B)/%.s: tests/memorder/ops.c $(wildcard include/*.h include/rculist/*.h) | deps-memorder $(MO_URCU_DIR)/urcu
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(call mo_compile,$*,include,$@)

check-memory-order: $(MO_VARIANTS:%=$(MO_B)/%.s) $(MO_URCU_DIR)/urcu ## Release stores and acquire loads in the aarch64 code of every _rcu operation
	@echo "== memory order on aarch64: publications are releases, reader loads acquires"
	$(Q)for v in $(MO_VARIANTS); do \
		$(MO_CHECK) tests/memorder/ops.c $(MO_B)/$$v.s $(MO_HEADERS) || exit 1; \
	done
	@echo "== memory order: planted mutants (tests/memorder/mutants)"
	$(Q)for m in $(MO_MUTANTS); do \
		d=$(MO_B)/mutant/$$m; \
		$(MO_CHECK) --plant tests/memorder/mutants $$m include $$d/include || exit 1; \
		want=$$(sed -n "s/^$$m *| *\([a-z]*\) *|.*/\1/p" tests/memorder/mutants); \
		funcs=$$(sed -n "s/^$$m *|\([^|]*|\)\{4\} *//p" tests/memorder/mutants); \
		for v in $(MO_MUTANT_VARIANTS); do \
			case $$v in gcc-*) cc='$(MO_CC_gcc)';; clang-*) cc='$(MO_CC_clang)';; esac; \
			$$cc -std=gnu11 $(WARNINGS) -$${v#*-} -I$$d/include $(MO_URCU) -S tests/memorder/ops.c \
				-o $$d/$$v.s || exit 1; \
			$(MO_CHECK) tests/memorder/ops.c $$d/$$v.s \
				$(MO_HEADERS:include/%=$$d/include/%) >$$d/$$v.out 2>&1; st=$$?; \
			if [ $$want = pass ]; then \
				[ $$st = 0 ] || { cat $$d/$$v.out; \
					echo "   mutant $$m ($$v): a correct variant is rejected: FAIL"; exit 1; }; \
				echo "   $$m ($$v): correct variant accepted"; continue; \
			fi; \
			[ $$st = 1 ] || { cat $$d/$$v.out; \
				echo "   mutant $$m ($$v): status $$st, expected 1: FAIL"; exit 1; }; \
			for f in $$funcs; do \
				grep -q "FAIL $$f:" $$d/$$v.out || { cat $$d/$$v.out; \
					echo "   mutant $$m ($$v): $$f not caught: FAIL"; exit 1; }; \
			done; \
			echo "   $$m ($$v): caught in $$(grep -o 'FAIL t_[a-zA-Z0-9_]*' $$d/$$v.out | \
				sort -u | wc -l) functions"; \
		done; \
	done
