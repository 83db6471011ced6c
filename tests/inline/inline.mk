# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/inline/inline.mk - the inline read side of the default link
# (<rculist/read_side.h>), one object file per program for every flavour:
#   - tests/inline/calls.c, compiled once, linked with each
#     -lrculist-<flavour>: the library describes an inline read side, the
#     wrappers make no call but bp's first section of a thread, qsbr's
#     quiescent state calls only after a grace period began, and a memb or
#     mb grace period waiting on its futex is woken by the inline unlock;
#     each dispatch site patched to the flavour's label (core/jump.c), and
#     the same checks passing with the sites left as compiled
#     (RCULIST_JUMP=off) and patched through /proc/self/mem;
#   - the torture object (tests/torture), the one check-torture links with
#     each shared library, linked statically with each librculist-<f>.a and
#     run INLINE_TORTURE_SECONDS: readers checking every element against
#     concurrent updaters that poison what they free; every site of the
#     static program patched (RCULIST_JUMP=verbose's line).
CHECKS += check-inline

INLINE_B := $(B)/inline
INLINE_TORTURE_SECONDS ?= 1
INLINE_CALLS  := $(foreach f,$(FLAVORS),$(INLINE_B)/$(f)/calls)
# tests/torture/torture.mk's object (its TORTURE_OBJ, defined after this
# fragment is read).
INLINE_TORTURE_OBJ := $(B)/torture/torture.o
INLINE_STATIC := $(foreach f,$(FLAVORS),$(INLINE_B)/$(f)/torture-static)

$(INLINE_B)/calls.o: tests/inline/calls.c | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

$(INLINE_B)/%/calls: $(INLINE_B)/calls.o $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(call quiet,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $< -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) \
		-lrculist-$* -lpthread -ldl

$(INLINE_B)/%/torture-static: $(INLINE_TORTURE_OBJ) $(LIBDIR_B)/librculist-%.a
	$(call quiet,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -static -o $@ $(INLINE_TORTURE_OBJ) $(call lib_a,$*) \
		$(call pkg,--static --libs liburcu-$*) -lpthread -ldl

.PHONY: check-inline
check-inline: $(INLINE_CALLS) $(INLINE_STATIC) ## The default link's read side inline: no call on its fast path, one object with every library, shared and static
	@echo "== inline read side: one object with every -lrculist-<flavour>, shared and static"
	$(Q)for f in $(FLAVORS); do \
		for jump in verbose off mem,verbose; do \
			out=$$(RCULIST_JUMP=$$jump timeout 60 $(INLINE_B)/$$f/calls 2>$(INLINE_B)/$$f/calls.err) && \
			case "$$out" in "calls $$f ok"*) ;; *) false;; esac && \
			case $$jump in off) ! grep -q patched $(INLINE_B)/$$f/calls.err;; \
			  mem*) grep -q 'calls: [1-9][0-9]* sites, [1-9][0-9]* patched (/proc/self/mem)' $(INLINE_B)/$$f/calls.err;; \
			  *) grep -q 'calls: [1-9][0-9]* sites, [1-9][0-9]* patched (mprotect)' $(INLINE_B)/$$f/calls.err;; esac || \
			{ cat $(INLINE_B)/$$f/calls.err >&2; \
			  echo "check-inline: RCULIST_JUMP=$$jump $(INLINE_B)/$$f/calls printed '$$out'" >&2; exit 1; }; \
			[ $$jump = verbose ] && outon=$$out; \
		done; out="$$outon, unpatched and through /proc/self/mem ok"; \
		RCULIST_JUMP=verbose timeout 120 $(INLINE_B)/$$f/torture-static $(INLINE_TORTURE_SECONDS) \
			>$(INLINE_B)/$$f/torture-static.log 2>&1 && \
		grep -q '^rculist: read side of the program: \([1-9][0-9]*\) sites, \1 patched (mprotect)' \
			$(INLINE_B)/$$f/torture-static.log || \
			{ cat $(INLINE_B)/$$f/torture-static.log >&2; \
			  echo "check-inline: the static torture of $$f failed, or its sites were not patched" >&2; exit 1; }; \
		echo "   $$f: $$out; static torture $$(tail -1 $(INLINE_B)/$$f/torture-static.log)"; \
	done
