# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/urcu_prefix/urcu_prefix.mk - check-urcu-prefix: the build against a liburcu
# installed in another prefix, found through pkg-config alone.
#
# Copies the liburcu that pkg-config finds now (headers, libraries, .pc
# files) into build/urcu-prefix/liburcu, with .pc files naming that
# prefix, then runs URCU_PREFIX_CHECKS in a build of their own with
# PKG_CONFIG_PATH pointing there, and requires of what they built:
#  - every object that includes <rculist.h> read liburcu's headers from
#    the copy and none from where they were copied (dependency files
#    written with -MD, which names system headers too);
#  - every program and library that needs liburcu loads it from the
#    copy (ldd: the run paths point there, not only the link).
CHECKS += check-urcu-prefix

URCU_PFX_B := $(B)/urcu-prefix
URCU_PFX   := $(abspath $(URCU_PFX_B))/liburcu
# The parts of make check that compile, link or run against liburcu:
# everything they build is built here, against the copy, and loaded from
# it; what they run is a representative run (the behaviour under load is
# make check's own): the suites but the long concurrent ones
# (URCU_PFX_UNIT_FILTER), 10 plugin unload cycles, no memcheck.  make
# check-full runs the suites whole here too (check-urcu-prefix-full).
URCU_PREFIX_CHECKS ?= check-unit check-compat
URCU_PREFIX_FULL   ?= check-unit check-examples check-compat check-lto check-adopt
# make check builds the copy's libraries without gcc's fat LTO objects
# (half the compile time; where liburcu comes from does not change with
# it); check-lto, in the full run, needs them.
URCU_PFX_LTO ?= 0
URCU_PFX_UNIT_FILTER ?= !(fork/*|conc_updates/*|concurrent/*|reclaim/*|nulls/*)
CHECKS_FULL += check-urcu-prefix-full

.PHONY: check-urcu-prefix check-urcu-prefix-full
check-urcu-prefix-full: ## check-urcu-prefix with the unit suites whole (make check-full)
	$(Q)$(MAKE) --no-print-directory check-urcu-prefix URCU_PFX_UNIT_FILTER= \
		'URCU_PREFIX_CHECKS=$(URCU_PREFIX_FULL)' URCU_PFX_LTO=$(LTO)

check-urcu-prefix: | $(B)/.deps ## make check's liburcu builds against a copy of liburcu in another prefix
	@echo "== urcu-prefix: liburcu $$($(PKG_CONFIG) --modversion liburcu-memb) copied from $(URCU_LIBDIR) to $(URCU_PFX)"
	$(Q)rm -rf $(URCU_PFX_B) && mkdir -p $(URCU_PFX)/lib/pkgconfig $(URCU_PFX)/include
	$(Q)set -e; lib='$(URCU_LIBDIR)'; inc='$(URCU_INCLUDEDIR)'; \
	[ -n "$$lib" ] && [ -n "$$inc" ] || { echo "check-urcu-prefix: pkg-config finds no liburcu-memb" >&2; exit 1; }; \
	cp -P "$$lib"/liburcu*.so* "$$lib"/liburcu*.a $(URCU_PFX)/lib/; \
	cp -R "$$inc"/urcu "$$inc"/urcu*.h $(URCU_PFX)/include/; \
	for pc in "$$lib"/pkgconfig/liburcu*.pc; do \
		sed -e 's|^prefix=.*|prefix=$(URCU_PFX)|' -e 's|^exec_prefix=.*|exec_prefix=$${prefix}|' \
		    -e 's|^libdir=.*|libdir=$${prefix}/lib|' -e 's|^includedir=.*|includedir=$${prefix}/include|' \
		    "$$pc" > $(URCU_PFX)/lib/pkgconfig/$${pc##*/}; \
	done
	$(Q)PKG_CONFIG_PATH=$(URCU_PFX)/lib/pkgconfig $(MAKE) --no-print-directory \
		B=$(URCU_PFX_B)/build LTO=$(URCU_PFX_LTO) DEPFLAGS='-MD -MP' PLUGIN_CYCLES=10 PLUGIN_VG_HOSTS= UNIT_FORKS=$(REPEAT_FORKS) \
		UNIT_FILTER='$(URCU_PFX_UNIT_FILTER)' \
		$(URCU_PREFIX_CHECKS) > $(URCU_PFX_B)/checks.log 2>&1 || \
		{ tail -n 30 $(URCU_PFX_B)/checks.log >&2; echo "check-urcu-prefix: $(URCU_PREFIX_CHECKS) failed (log: $(URCU_PFX_B)/checks.log)" >&2; exit 1; }
	$(Q)grep '^== .*passed\|Synthesis' $(URCU_PFX_B)/checks.log | sed 's/^/   /'
	$(Q)set -e; n=0; bad=; \
	for d in $$(grep -l 'include/rculist\.h' $$(find $(URCU_PFX_B)/build -name '*.d')); do \
		n=$$((n + 1)); grep -q '$(URCU_PFX)/include/urcu/' $$d && \
			! grep -q ' $(URCU_INCLUDEDIR)/urcu/' $$d || bad="$$bad $$d"; \
	done; \
	[ $$n -gt 0 ] && [ -z "$$bad" ] || { echo "check-urcu-prefix: not compiled against $(URCU_PFX)/include ($$n objects):$$bad" >&2; exit 1; }; \
	echo "   $$n objects including <rculist.h> read liburcu's headers from $(URCU_PFX)/include"
	$(Q)set -e; n=0; bad=; \
	for f in $$(find $(URCU_PFX_B)/build -type f \( -perm -u+x -o -name '*.so*' \)); do \
		[ "$$(head -c 4 "$$f" | tail -c 3)" = ELF ] || continue; \
		urcu=$$(ldd "$$f" 2>/dev/null | grep 'liburcu' || true); \
		[ -n "$$urcu" ] || continue; n=$$((n + 1)); \
		if printf '%s\n' "$$urcu" | grep -v '=> $(URCU_PFX)/lib/' | grep -q .; then bad="$$bad $$f"; fi; \
	done; \
	[ $$n -gt 0 ] && [ -z "$$bad" ] || { echo "check-urcu-prefix: these load another liburcu than $(URCU_PFX)/lib:$$bad" >&2; exit 1; }; \
	echo "   $$n programs and libraries load liburcu from $(URCU_PFX)/lib"
	$(Q)rm -rf $(URCU_PFX_B)/build
