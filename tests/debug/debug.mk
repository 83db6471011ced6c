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

.PHONY: check-debug check-debug-zero-cost $(FLAVORS:%=check-debug-%)
check-debug: $(FLAVORS:%=check-debug-%) check-debug-zero-cost ## Run the unit suites in debug mode, and prove it free when off
$(FLAVORS:%=check-debug-%): check-debug-%: $(DEBUG_B)/%/unit
	@echo "== unit tests in debug mode (-DRCULIST_DEBUG), flavour $*"
	$(Q)RCULIST_TEST_FORKS=$(REPEAT_FORKS) $< --jobs 2

check-debug-zero-cost: ## Show that debug hooks add no instruction when RCULIST_DEBUG is off
	@echo "== debug hooks off: object code identical to headers without them"
	$(Q)tests/debug/zero_cost.sh $(DEBUG_B)/zero-cost $(CC) $(WARNINGS)
