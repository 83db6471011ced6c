# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/link_warnings/: the links README.md recommends print nothing, not
# one warning:
#   -static            README.md's program against a flavour's archive:
#                      qsbr under gcc and clang, the other flavours under gcc
#   -static -flto      qsbr, gcc (the read side inlined) and clang (which
#                      takes the archives' machine code)
#   the static-embedding recipe for plugins (examples/libplugin, bp),
#                      gcc and clang
# Each static program must also run and print "<flavour>: 80".  glibc's
# "Using 'dlopen' in statically linked applications ..." came from
# core/pin.c: a dlopen() named there again fails this check.  The warning
# comes from code every flavour shares, hence one flavour for the costly
# links.  About 8 s of CPU (9 links, 2 of them LTO); LW_FLAVORS='$(FLAVORS)'
# LW_LTO_FLAVORS='$(FLAVORS)' tries every flavour on every link.
CHECKS += check-link-warnings

LW_B   := $(B)/link_warnings
LW_CCS ?= gcc clang
LW_CCS_FOUND = $(foreach c,$(LW_CCS),$(call have_tool,$(c)))
LW_FLAVORS ?= qsbr
LW_LTO_FLAVORS ?= qsbr
# compiler:flavour:lto, one per link.
LW_LINKS = $(foreach c,$(LW_CCS_FOUND),$(foreach f,$(LW_FLAVORS),$(c):$(f):no) \
		$(foreach f,$(LW_LTO_FLAVORS),$(c):$(f):yes)) \
	$(foreach f,$(filter-out $(LW_FLAVORS),$(FLAVORS)),$(firstword $(LW_CCS_FOUND)):$(f):no)

.PHONY: check-link-warnings
check-link-warnings: $(README_C) $(LIBS_A) ## No linker warning on README's static, static -flto and plugin links
	@echo "== linker warnings: $(words $(LW_LINKS)) static links of README.md's program, the plugin recipe ($(LW_CCS_FOUND))"
	$(Q)mkdir -p $(LW_B)
	$(Q)for l in $(LW_LINKS); do \
		cc=$${l%%:*}; f=$${l#*:}; lto=$${f#*:}; f=$${f%%:*}; \
		bin=$(LW_B)/$$cc-$$f-$$lto; flags=; [ $$lto = yes ] && flags="-flto -fpie"; \
		$$cc -O2 $$flags -static -Iinclude $(URCU_CFLAGS) $(CPPFLAGS) $(README_C) -o $$bin \
			$(LDFLAGS) $(call lib_a,$$f) $$($(PKG_CONFIG) --static --libs liburcu-$$f) \
			-lpthread -ldl >$$bin.log 2>&1 || { cat $$bin.log >&2; exit 1; }; \
		if [ -s $$bin.log ]; then \
			echo "check-link-warnings: $$cc -static $$flags, $$f, printed:" >&2; \
			cat $$bin.log >&2; exit 1; fi; \
		out=$$(timeout 60 $$bin) && [ "$$out" = "$$f: 80" ] || \
			{ echo "check-link-warnings: $$bin printed '$$out'" >&2; exit 1; }; \
	done
	$(Q)for cc in $(LW_CCS_FOUND); do \
		so=$(LW_B)/$$cc-plugin.so; \
		$$cc -O2 -shared -fPIC -fvisibility=hidden -DPLUGIN_FLAVOR='"bp"' -DPLUGIN_EMBEDDED \
			-Iinclude $(URCU_CFLAGS) $(CPPFLAGS) examples/libplugin/plugin.c -o $$so \
			$(LDFLAGS) -L$(LIBDIR_B) $(STATIC_EMBED) >$$so.log 2>&1 || \
			{ cat $$so.log >&2; exit 1; }; \
		if [ -s $$so.log ]; then \
			echo "check-link-warnings: $$cc, the plugin embedding librculist-bp.a, printed:" >&2; \
			cat $$so.log >&2; exit 1; fi; \
	done
	@echo "   silent"
