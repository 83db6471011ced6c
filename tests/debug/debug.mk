# SPDX-License-Identifier: LGPL-2.1-or-later
# Debug mode (-DRCULIST_DEBUG): the whole unit suite once more with it on,
# per flavour, and the proof that its hooks cost nothing when it is off.
CHECKS += check-debug

DEBUG_B       := $(B)/tests-debug
DEBUG_TEST_OBJ := $(TEST_SRC:tests/%.c=$(DEBUG_B)/%.o)

$(DEBUG_B)/%.o: tests/%.c | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(CRITERION_CFLAGS) -DRCULIST_DEBUG $(ALL_CFLAGS) -c $< -o $@

$(DEBUG_B)/%/unit: $(DEBUG_TEST_OBJ) $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(call quiet,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(DEBUG_TEST_OBJ) -lrculist-$* $(TEST_LIBS)

# The library is the same in debug mode (only the suites' objects see
# -DRCULIST_DEBUG): the fork suite, which exercises the library's fork
# handlers and none of the headers' debug hooks, is left out here
# (DEBUG_FILTER) and runs in debug mode in make check-full
# (check-debug-full).
DEBUG_FILTER ?= !(fork/*)
# make check runs debug mode under memb (a real read side) and qsbr (an
# empty one, whose sections debug mode counts itself); bp and mb, whose
# read side is memb's with more, in make check-full.
DEBUG_FLAVORS ?= memb qsbr
CHECKS_FULL += check-debug-full

.PHONY: check-debug check-debug-full check-debug-zero-cost $(FLAVORS:%=check-debug-%)
check-debug: $(DEBUG_FLAVORS:%=check-debug-%) check-debug-zero-cost ## Run the unit suites in debug mode, and prove it free when off
$(FLAVORS:%=check-debug-%): check-debug-%: $(DEBUG_B)/%/unit
	@echo "== unit tests in debug mode (-DRCULIST_DEBUG), flavour $*$(if $(DEBUG_FILTER), (--filter '$(DEBUG_FILTER)'))"
	$(Q)$(UNIT_ENV) RCULIST_TEST_FORKS=$(REPEAT_FORKS) timeout -k 10 $(UNIT_TIMEOUT) $< --jobs 2 \
		$(if $(DEBUG_FILTER),--filter '$(DEBUG_FILTER)')

check-debug-full: ## The debug-mode suites whole, fork suite included (make check-full)
	$(Q)$(MAKE) --no-print-directory $(FLAVORS:%=check-debug-%) DEBUG_FILTER=

check-debug-zero-cost: ## Show that debug hooks add no instruction when RCULIST_DEBUG is off
	@echo "== debug hooks off: object code identical to headers without them"
	$(Q)tests/debug/zero_cost.sh $(DEBUG_B)/zero-cost $(CC) $(WARNINGS)
