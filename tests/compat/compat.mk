# SPDX-License-Identifier: LGPL-2.1-or-later
# <rculist.h> beside liburcu's own headers, in either order.
CHECKS += check-compat

COMPAT_FLAGS = $(ALL_CPPFLAGS) $(ALL_CFLAGS) -Werror

.PHONY: check-compat
check-compat: $(LIBDIR_B)/librculist-qsbr.so.$(VERSION) $(LIBDIR_B)/librculist-memb.so.$(VERSION) ## Check <rculist.h> beside liburcu's headers
	@echo "== liburcu headers after <rculist.h>, flavour header before it"
	$(Q)mkdir -p $(B)/compat
	$(Q)$(CC) $(COMPAT_FLAGS) tests/compat/after.c -o $(B)/compat/after \
		$(LDFLAGS) $(call urcu_libs,qsbr) && $(B)/compat/after
	$(Q)$(CC) $(COMPAT_FLAGS) tests/compat/lgpl_first.c -o $(B)/compat/lgpl_first \
		$(LDFLAGS) $(call urcu_libs,bp) && $(B)/compat/lgpl_first
	$(Q)$(CC) $(COMPAT_FLAGS) tests/compat/nolgpl.c -o $(B)/compat/nolgpl \
		$(LDFLAGS) $(call urcu_libs,memb) && $(B)/compat/nolgpl
	@echo "== a liburcu list header before <rculist.h> stops with our #error"
	$(Q)if $(CC) $(COMPAT_FLAGS) -c tests/compat/before.c -o $(B)/compat/before.o \
		2>$(B)/compat/before.err; then \
		echo "compat: before.c compiled, expected #error" >&2; exit 1; fi
	$(Q)grep -q 'include <rculist.h> first' $(B)/compat/before.err || \
		{ cat $(B)/compat/before.err >&2; exit 1; }
	$(Q)test "$$(grep -c 'error:' $(B)/compat/before.err)" = 1 || \
		{ echo "compat: more than one error:" >&2; cat $(B)/compat/before.err >&2; exit 1; }
	@echo "== -DRCULIST_INLINE_MEMB links with rculist-memb, and not with rculist-qsbr"
	$(Q)$(CC) $(COMPAT_FLAGS) -DRCULIST_INLINE_MEMB tests/compat/inline_flavor.c \
		-o $(B)/compat/inline_memb $(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) \
		-lrculist-memb $(call urcu_libs,memb) && $(B)/compat/inline_memb
	$(Q)if $(CC) $(COMPAT_FLAGS) -DRCULIST_INLINE_MEMB tests/compat/inline_flavor.c \
		-o $(B)/compat/inline_wrong $(LDFLAGS) -L$(LIBDIR_B) -lrculist-qsbr \
		$(call urcu_libs,memb) $(call urcu_libs,qsbr) 2>$(B)/compat/inline_wrong.err; then \
		echo "compat: inline memb linked with rculist-qsbr" >&2; exit 1; fi
	$(Q)grep -q 'rculist_flavor_is_memb' $(B)/compat/inline_wrong.err || \
		{ cat $(B)/compat/inline_wrong.err >&2; exit 1; }
