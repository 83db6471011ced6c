# SPDX-License-Identifier: LGPL-2.1-or-later
# The hlist (and nulls list) iterators and operations under optimisers
# that exploit undefined behaviour: tests/hlist_opt/opt.c built with gcc
# and clang, at -O2 and -O3, each plain and with UBSan (which aborts on
# the first report), and run; with them, the list entry iterators at
# and from the entry computed from the head (where a walk ends, what
# cds_list_prepare_entry(NULL) gives).  A naive container_of(NULL)
# iterator built with UBSan must fail, and so must (under clang, whose
# UBSan sees the head's size there) a continue that reaches the head
# entry's link by a member access, as list.h did before: the check can.
CHECKS += check-hlist-opt

HLIST_OPT_B     := $(B)/hlist_opt
HLIST_OPT_CCS   := gcc clang
HLIST_OPT_OPTS  := O2 O3
HLIST_OPT_KINDS := plain ubsan
HLIST_OPT_UBSAN := -fsanitize=undefined -fno-sanitize-recover=all
HLIST_OPT_LIBS   = $(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-memb -lpthread
HLIST_OPT_BINS  := $(foreach c,$(HLIST_OPT_CCS),$(foreach o,$(HLIST_OPT_OPTS),\
		   $(foreach k,$(HLIST_OPT_KINDS),$(HLIST_OPT_B)/opt-$(c)-$(o)-$(k))))

# The compiler, optimisation level and kind of variant $(1) (cc-O2-kind).
hlist_opt_part = $(word $(2),$(subst -, ,$(1)))

# Shell: UBSan flags for compiler $(1), or nothing (and a note) if it
# cannot build with them here.
hlist_opt_san = $$(if printf 'int main(void){return 0;}\n' | \
		$(1) $(HLIST_OPT_UBSAN) -x c - -o /dev/null 2>/dev/null; \
		then echo '$(HLIST_OPT_UBSAN)'; \
		else echo "  NOTE     $(1) cannot build with UBSan here" >&2; fi)

$(HLIST_OPT_B)/opt-%: tests/hlist_opt/opt.c $(LIBDIR_B)/librculist-memb.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(call hlist_opt_part,$*,1) $(filter-out $(DEPFLAGS),$(ALL_CPPFLAGS)) $(ALL_CFLAGS) \
		-$(call hlist_opt_part,$*,2) \
		$(if $(filter ubsan,$(call hlist_opt_part,$*,3)),$(call hlist_opt_san,$(call hlist_opt_part,$*,1))) \
		$< -o $@ $(HLIST_OPT_LIBS)

.PHONY: check-hlist-opt
check-hlist-opt: $(HLIST_OPT_BINS) ## Run the hlist iterators built by gcc and clang at -O2/-O3, with UBSan
	@echo "== hlist iterators and head/node aliasing: gcc, clang; -O2, -O3; plain, UBSan"
	$(Q)for t in $(HLIST_OPT_BINS); do \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $$t || \
			{ echo "hlist_opt: $$t failed" >&2; exit 1; }; \
	done
	$(Q)for c in $(HLIST_OPT_CCS); do \
		san="$(call hlist_opt_san,$$c)"; \
		[ -n "$$san" ] || continue; \
		for naive in HLIST_OPT_NAIVE $$([ $$c = clang ] && echo LIST_END_NAIVE); do \
			t=$(HLIST_OPT_B)/naive-$$naive-$$c; \
			$$c $(ALL_CPPFLAGS) -std=gnu11 -O2 -D$$naive $$san \
				tests/hlist_opt/opt.c -o $$t $(HLIST_OPT_LIBS) || exit 1; \
			if timeout 20 $$t 2>$$t.err; then \
				echo "hlist_opt: $$naive (a naive iterator) not caught by $$c UBSan" >&2; \
				exit 1; \
			fi; \
			grep -q 'runtime error' $$t.err || \
				{ cat $$t.err >&2; echo "hlist_opt: $$t failed without a UBSan report" >&2; exit 1; }; \
		done; \
	done
	@echo "   $(words $(HLIST_OPT_BINS)) variants passed; UBSan catches a naive container_of(NULL) and a naive continue from the head's entry"
