# SPDX-License-Identifier: LGPL-2.1-or-later
#
# examples/examples.mk - one example per kind of user, built against the
# tree (`make examples`) and run by `make check` (check-examples).
#   route_table   one source, one executable per flavour
#   qsbr_server   QSBR event loop; shows the read side costs nothing
#   libplugin     a library embedding rculist-bp, driven by a host that
#                 links it and by one that dlopen()s it
# tests/adopt.mk builds the same sources out of tree through pkg-config.
CHECKS += check-examples

EX_B     := $(B)/examples
EX_FLAGS  = $(ALL_CPPFLAGS) $(ALL_CFLAGS)
EX_LINK   = -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$(1) -lpthread

EX_PROGS := $(foreach f,$(FLAVORS),$(EX_B)/route_table-$(f) $(EX_B)/qsbr_server-$(f))
EX_PLUGIN := $(EX_B)/libplugin/libplugin.so $(EX_B)/libplugin/host_linked \
	     $(EX_B)/libplugin/host_dlopen

.PHONY: examples check-examples
examples: $(EX_PROGS) $(EX_PLUGIN) ## Build the examples (route_table, qsbr_server, libplugin)

$(EX_B)/route_table-%: examples/route_table/route_table.c $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(EX_FLAGS) $< -o $@ $(call EX_LINK,$*)

$(EX_B)/qsbr_server-%: examples/qsbr_server/qsbr_server.c $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(EX_FLAGS) $< -o $@ $(call EX_LINK,$*) -ldl

$(EX_B)/libplugin/libplugin.so: examples/libplugin/plugin.c examples/libplugin/plugin.h \
		$(LIBDIR_B)/librculist-bp.so.$(VERSION) | $(B)/.deps
	$(call quiet,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(EX_FLAGS) -fPIC -fvisibility=hidden -shared $< -o $@ \
		$(call EX_LINK,bp)

# Linked with the plugin: found next to the executable ($ORIGIN).
$(EX_B)/libplugin/host_linked: examples/libplugin/host.c examples/libplugin/plugin.h \
		$(EX_B)/libplugin/libplugin.so
	$(call quiet,CC,$@)
	$(Q)$(CC) $(EX_FLAGS) $< -o $@ -L$(dir $@) -lplugin \
		-Wl,-rpath,'$$ORIGIN' -lpthread

# Knows nothing of the plugin at link time, nor of rculist or liburcu.
$(EX_B)/libplugin/host_dlopen: examples/libplugin/host.c examples/libplugin/plugin.h | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(EX_FLAGS) -DHOST_DLOPEN $< -o $@ -ldl -lpthread

check-examples: examples ## Run the examples
	@echo "== examples: route_table under each flavour"
	$(Q)for f in $(FLAVORS); do $(EX_B)/route_table-$$f 2 100 || exit 1; done
	@echo "== examples: qsbr_server (and, to compare, under memb and bp)"
	$(Q)rm -f $(EX_B)/qsbr_server.out; for f in $(FLAVORS); do \
		$(EX_B)/qsbr_server-$$f 2 5000 >>$(EX_B)/qsbr_server.out || \
		{ cat $(EX_B)/qsbr_server.out; exit 1; }; done; cat $(EX_B)/qsbr_server.out
	$(Q)if [ "$$(uname -m)" = x86_64 ]; then \
		grep -q '^read side \[qsbr\].*no read-side instructions' $(EX_B)/qsbr_server.out || \
		{ echo "qsbr_server: the QSBR read side executes instructions" >&2; exit 1; }; fi
	@echo "== examples: libplugin, linked and dlopen()ed late by a host that knows no RCU"
	$(Q)if readelf -d $(EX_B)/libplugin/host_dlopen | grep -q 'NEEDED.*\(rculist\|urcu\|plugin\)'; then \
		echo "host_dlopen links rculist or liburcu: it must not" >&2; exit 1; fi
	$(Q)$(EX_B)/libplugin/host_linked
	$(Q)$(EX_B)/libplugin/host_dlopen $(EX_B)/libplugin/libplugin.so
