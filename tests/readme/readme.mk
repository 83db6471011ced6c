# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/readme/: the program on README.md's first screen (its first ```c
# block), extracted, compiled warning-free as the README says to build
# it, and run under every flavour: it must print "<flavour>: 80"; and the
# example of its rhashtable section, at most 20 lines, compiled the same
# way and run under every flavour (exit status 0).  About 4 s.
# tests/link_warnings/ links the first program statically.
CHECKS += check-readme

README_B   := $(B)/readme
README_C   := $(README_B)/readme.c
README_BINS := $(FLAVORS:%=$(README_B)/readme-%)
# Shared with check-link-warnings, which may run at the same time: built
# first, once.  (A prerequisite of check-prep itself: the Makefile expands
# CHECK_PREP in that rule before it includes the fragments.)
check-prep: $(README_C)

$(README_C): README.md
	$(Q)mkdir -p $(dir $@)
	$(Q)awk '/^```c$$/ { p = 1; next } p && /^```$$/ { exit } p' $< > $@
	$(Q)test -s $@ || { echo "check-readme: no \`\`\`c block in README.md" >&2; rm -f $@; exit 1; }

# The rhashtable section's example: its first ```c block.
README_RHT_C    := $(README_B)/rhashtable.c
README_RHT_BINS := $(FLAVORS:%=$(README_B)/rhashtable-%)
$(README_RHT_C): README.md
	$(Q)mkdir -p $(dir $@)
	$(Q)awk '/^\#\# A resizable hash table/ { s = 1 } s && /^```c$$/ { p = 1; next } p && /^```$$/ { exit } p' $< > $@
	$(Q)test -s $@ || { echo "check-readme: no \`\`\`c block in README.md's rhashtable section" >&2; rm -f $@; exit 1; }
	$(Q)n=$$(wc -l < $@); [ $$n -le 20 ] || \
		{ echo "check-readme: README.md's rhashtable example is $$n lines, more than 20" >&2; rm -f $@; exit 1; }

# Built as the README says, warnings as errors.
README_CC = $(CC) -Iinclude $(URCU_CFLAGS) $(CPPFLAGS) $(WARNINGS) -Werror $(CFLAGS) $< -o $@ \
	$(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$* \
	$(call urcu_libs,$*) -lpthread
$(README_B)/readme-%: $(README_C) $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(call quiet,CC,$@)
	$(Q)$(README_CC)
$(README_B)/rhashtable-%: $(README_RHT_C) $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(call quiet,CC,$@)
	$(Q)$(README_CC)

.PHONY: check-readme
check-readme: $(README_BINS) $(README_RHT_BINS) ## Compile and run README.md's programs under every flavour
	@echo "== README.md's program, every flavour"
	$(Q)for f in $(FLAVORS); do \
		out=$$(timeout 60 $(README_B)/readme-$$f) || exit 1; \
		[ "$$out" = "$$f: 80" ] || \
			{ echo "check-readme: readme-$$f printed '$$out'" >&2; exit 1; }; \
	done
	@echo "== README.md's rhashtable example ($$(wc -l < $(README_RHT_C)) lines), every flavour"
	$(Q)for f in $(FLAVORS); do \
		timeout 60 $(README_B)/rhashtable-$$f || \
			{ echo "check-readme: rhashtable-$$f failed" >&2; exit 1; }; \
	done
