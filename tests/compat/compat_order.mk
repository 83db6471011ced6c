# SPDX-License-Identifier: LGPL-2.1-or-later
# The include orders the manual promises (rculist(7), "Beside liburcu"):
# every flavour header of $(FLAVORS) before and after <rculist.h>, with
# and without _LGPL_SOURCE, compiles with both APIs; every liburcu list
# header before <rculist.h> stops the build with our one #error.
CHECKS += check-compat-order

COMPAT_LIST_HEADERS := urcu/list.h urcu/hlist.h urcu/rculist.h urcu/rcuhlist.h urcu/cds.h

.PHONY: check-compat-order
check-compat-order: | $(B)/.deps ## Every include order of <rculist.h> and liburcu's headers that rculist(7) names
	$(Q)mkdir -p $(B)/compat
	$(Q)n=0; for f in $(FLAVORS); do for first in 1 0; do for lgpl in 1 0; do \
		d="-DORDER_FLAVOR_H=<urcu/urcu-$$f.h> -DORDER_FLAVOR=$$f"; \
		[ $$first = 1 ] && d="$$d -DORDER_FLAVOR_FIRST"; \
		[ $$lgpl = 1 ] && d="$$d -D_LGPL_SOURCE"; \
		$(CC) $(COMPAT_FLAGS) $$d -c tests/compat/order.c -o $(B)/compat/order.o || \
			{ echo "compat: <urcu/urcu-$$f.h> first=$$first _LGPL_SOURCE=$$lgpl fails" >&2; exit 1; }; \
		n=$$((n + 1)); \
	done; done; done; \
	echo "== compat: $$n flavour-header orders compile ($(FLAVORS); before, after; with, without _LGPL_SOURCE)"
	$(Q)for h in $(COMPAT_LIST_HEADERS); do \
		if $(CC) $(COMPAT_FLAGS) "-DORDER_LIST_H=<$$h>" -c tests/compat/list_first.c \
			-o $(B)/compat/list_first.o 2>$(B)/compat/list_first.err; then \
			echo "compat: <$$h> before <rculist.h> compiled, expected our #error" >&2; exit 1; fi; \
		grep -q 'include <rculist.h> first' $(B)/compat/list_first.err && \
		test "$$(grep -c 'error:' $(B)/compat/list_first.err)" = 1 || \
			{ echo "compat: <$$h> first:" >&2; cat $(B)/compat/list_first.err >&2; exit 1; }; \
	done
	@echo "== compat: each of $(COMPAT_LIST_HEADERS) before <rculist.h> stops with one #error"
