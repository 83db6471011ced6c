# SPDX-License-Identifier: LGPL-2.1-or-later
# check-lto: the archives work with and without link-time optimisation.
# Per flavour, tests/lto/lto.c is linked against librculist-<f>.a
#  - by gcc with -flto (when the archives carry LTO code, LTO=1): its
#    readers must contain no call of rculist_read_lock, _read_unlock or
#    _quiescent_state, nor of their inline wrappers (rculist__*_wrap, from
#    <rculist/read_side.h>): inlined at link time, the flavour still
#    chosen by the archive;
#  - by gcc without -flto, and by clang with and without -flto (clang
#    ignores gcc's LTO sections): they must link and give the same output.
# Each binary must print its flavour and what its readers found.
CHECKS += check-lto

LTO_B     := $(B)/lto
LTO_CCS   := gcc-lto gcc clang-lto clang
lto_cc     = $(if $(findstring clang,$(1)),clang,gcc)$(if $(findstring -lto,$(1)), -flto -fpie)
LTO_BINS  := $(foreach f,$(FLAVORS),$(foreach c,$(LTO_CCS),$(LTO_B)/$(f)/$(c)))

$(LTO_B)/%: tests/lto/lto.c $(LIBS_A) | $(B)/.deps
	$(call quiet,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(call lto_cc,$(notdir $@)) -O2 -Iinclude $(URCU_CFLAGS) $(CPPFLAGS) -std=gnu11 $(WARNINGS) $< -o $@ \
		$(LDFLAGS) $(call lib_a,$(notdir $(patsubst %/,%,$(dir $*)))) \
		$(call urcu_libs,$(notdir $(patsubst %/,%,$(dir $*)))) -lpthread -ldl

.PHONY: check-lto
check-lto: $(LTO_BINS) ## Link a reader against each archive with and without -flto, gcc and clang
	@echo "== archives with and without LTO: gcc, clang; -flto, none"
	$(Q)for f in $(FLAVORS); do \
		for c in $(LTO_CCS); do \
			t=$(LTO_B)/$$f/$$c; out=$$($$t) || exit 1; \
			[ "$$out" = "$$f 2 -1 21" ] || \
				{ echo "check-lto: $$t printed '$$out'" >&2; exit 1; }; \
		done; \
		[ "$(LTO)" = 1 ] || continue; \
		calls=$$(objdump -d --no-show-raw-insn $(LTO_B)/$$f/gcc-lto | \
			awk '/^[0-9a-f]+ <reader_(list|hlist)>:$$/ { p = 1; next } /^$$/ { p = 0 } \
			     p && /call.*<rculist__?(read_lock|read_unlock|quiescent_state)/ { print $$NF }'); \
		[ -z "$$calls" ] || \
			{ echo "check-lto: $$f: gcc -flto left calls of" $$calls >&2; exit 1; }; \
	done
	@echo "   $(words $(LTO_BINS)) links passed$(if $(filter 1,$(LTO)),; read side inlined by gcc -flto under every flavour)"
