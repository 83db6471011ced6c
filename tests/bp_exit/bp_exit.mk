# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/bp_exit/bp_exit.mk - check-bp-exit: under bp, a thread's first
# read-side section run in a signal handler makes no allocator call and
# still arms the watch of the thread's exit (signal_first.c, which
# counts the calls with its own malloc(), so runs outside Criterion);
# plain, debug mode, and liburcu's read side inlined (-DRCULIST_INLINE_BP).
# Cost: well under a second of CPU once the library is built.
CHECKS += check-bp-exit

BP_EXIT_B := $(B)/bp_exit
BP_EXIT_DEPS := tests/bp_exit/signal_first.c $(LIBDIR_B)/librculist-bp.so.$(VERSION) \
	$(wildcard include/rculist.h include/rculist/*.h)

$(BP_EXIT_B)/signal_first: $(BP_EXIT_DEPS) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $< -o $@ $(LDFLAGS) -L$(LIBDIR_B) \
		-Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-bp -lpthread

$(BP_EXIT_B)/signal_first-debug: $(BP_EXIT_DEPS) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CPPFLAGS) -DRCULIST_DEBUG $(ALL_CFLAGS) $< -o $@ $(LDFLAGS) \
		-L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-bp -lpthread

$(BP_EXIT_B)/signal_first-inline: $(BP_EXIT_DEPS) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CPPFLAGS) -DRCULIST_INLINE_BP $(ALL_CFLAGS) $< -o $@ $(LDFLAGS) \
		-L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-bp \
		$(call urcu_libs,bp) -lpthread

BP_EXIT_PROGS := $(BP_EXIT_B)/signal_first $(BP_EXIT_B)/signal_first-debug \
	$(BP_EXIT_B)/signal_first-inline

.PHONY: check-bp-exit
check-bp-exit: $(BP_EXIT_PROGS) ## bp: a first section in a signal handler allocates nothing, and arms the exit watch
	$(Q)for p in $(BP_EXIT_PROGS); do $$p || exit 1; done
