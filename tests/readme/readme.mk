# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/readme/: the program on README.md's first screen (its first ```c
# block), extracted, compiled warning-free as the README says to build
# it, and run under every flavour: it must print "<flavour>: 80".  About
# 2 s.  tests/link_warnings/ links the same program statically.
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

$(README_B)/readme-%: $(README_C) $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(call quiet,CC,$@)
	$(Q)$(CC) -Iinclude $(URCU_CFLAGS) $(CPPFLAGS) $(WARNINGS) -Werror $(CFLAGS) $< -o $@ \
		$(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$* \
		$(call urcu_libs,$*) -lpthread

.PHONY: check-readme
check-readme: $(README_BINS) ## Compile and run README.md's program under every flavour
	@echo "== README.md's program, every flavour"
	$(Q)for f in $(FLAVORS); do \
		out=$$(timeout 60 $(README_B)/readme-$$f) || exit 1; \
		[ "$$out" = "$$f: 80" ] || \
			{ echo "check-readme: readme-$$f printed '$$out'" >&2; exit 1; }; \
	done
