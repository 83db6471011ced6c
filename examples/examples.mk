# SPDX-License-Identifier: LGPL-2.1-or-later
#
# examples/examples.mk - one example per kind of user, built against the
# tree (`make examples`) and run by `make check` (check-examples).
#   route_table   one source, one executable per flavour
#   qsbr_server   QSBR event loop; shows the read side costs nothing
#   libplugin     a library embedding rculist-bp, driven by a host that
#                 links it and by one that dlopen()s it
# tests/adopt/adopt.mk builds the same sources out of tree through pkg-config.
CHECKS += check-examples

EX_B     := $(B)/examples
EX_FLAGS  = $(ALL_CPPFLAGS) $(ALL_CFLAGS)
EX_LINK   = $(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$(1) -lpthread

EX_PROGS := $(foreach f,$(FLAVORS),$(EX_B)/route_table-$(f) $(EX_B)/qsbr_server-$(f))

.PHONY: examples check-examples
examples: $(EX_PROGS) ## Build the examples (route_table, qsbr_server, libplugin)

$(EX_B)/route_table-%: examples/route_table/route_table.c $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(EX_FLAGS) $< -o $@ $(call EX_LINK,$*)

$(EX_B)/qsbr_server-%: examples/qsbr_server/qsbr_server.c $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(EX_FLAGS) $< -o $@ $(call EX_LINK,$*) -ldl

# ---------------------------------------------------------- libplugin
# A plugin per flavour (linked with -lrculist-<f>), and one that embeds
# librculist-bp.a and exports no rculist_* symbol (STATIC_EMBED below).
# Hosts of every kind: each rculist flavour, liburcu-memb directly, and
# no RCU; each links every plugin at start-up, and dlopen()s the bp ones
# PLUGIN_CYCLES times.  check-plugins runs the whole matrix.
PLUGIN_KINDS  := $(FLAVORS) static
HOST_KINDS    := $(FLAVORS) urcu none
PLUGIN_CYCLES ?= 100
PLUGIN_ROUNDS ?= 200
PLUGIN_ENV    ?=
PL_B          := $(EX_B)/libplugin
PL_SRC        := examples/libplugin/plugin.c examples/libplugin/plugin.h

$(PL_B)/libplugin-%.so: $(PL_SRC) $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$(call quiet,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(EX_FLAGS) -fPIC -fvisibility=hidden -DPLUGIN_FLAVOR='"$*"' \
		-shared $< -o $@ $(call EX_LINK,$*)

# The recipe for a plugin that must not depend on an installed rculist:
# the bp archive linked in, its symbols kept local (--exclude-libs), and
# liburcu-bp as the only RCU dependency.
STATIC_EMBED = -Wl,-Bstatic -lrculist-bp -Wl,-Bdynamic -Wl,--exclude-libs,librculist-bp.a \
	$(call urcu_libs,bp) -lpthread -ldl
$(PL_B)/libplugin-static.so: $(PL_SRC) $(LIBDIR_B)/librculist-bp.a | $(B)/.deps
	$(call quiet,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(EX_FLAGS) -fPIC -fvisibility=hidden -DPLUGIN_FLAVOR='"bp"' \
		-DPLUGIN_EMBEDDED -shared $< -o $@ $(LDFLAGS) -L$(LIBDIR_B) $(STATIC_EMBED)

host_defs  = $(if $(filter urcu,$(1)),-DHOST_URCU_MEMB,$(if $(filter none,$(1)),,-DHOST_RCULIST -DHOST_FLAVOR='"$(1)"'))
host_libs  = $(if $(filter urcu,$(1)),$(call urcu_libs,memb),$(if $(filter none,$(1)),,$(call EX_LINK,$(1))))
PL_HOST_SRC := examples/libplugin/host.c examples/libplugin/plugin.h

define host_rules
$(PL_B)/host-$(1)-dlopen: $(PL_HOST_SRC) $(if $(filter $(FLAVORS),$(1)),$(LIBDIR_B)/librculist-$(1).so.$(VERSION)) | $(B)/.deps
	$$(call quiet,CC,$$@)
	$(Q)mkdir -p $$(dir $$@)
	$(Q)$$(CC) $$(EX_FLAGS) $(call host_defs,$(1)) -DHOST_DLOPEN $$< -o $$@ $$(LDFLAGS) \
		$(call host_libs,$(1)) -ldl -lpthread
$(foreach p,$(PLUGIN_KINDS),$(PL_B)/host-$(1)-linked-$(p)): \
$(PL_B)/host-$(1)-linked-%: $(PL_HOST_SRC) $(PL_B)/libplugin-%.so
	$$(call quiet,CC,$$@)
	$(Q)$$(CC) $$(EX_FLAGS) $(call host_defs,$(1)) $$< -o $$@ $$(LDFLAGS) \
		-L$(PL_B) -lplugin-$$* -Wl,-rpath,'$$$$ORIGIN' $(call host_libs,$(1)) -lpthread
PL_HOSTS += $(PL_B)/host-$(1)-dlopen $(foreach p,$(PLUGIN_KINDS),$(PL_B)/host-$(1)-linked-$(p))
endef
$(foreach h,$(HOST_KINDS),$(eval $(call host_rules,$(h))))
PL_PLUGINS := $(foreach p,$(PLUGIN_KINDS),$(PL_B)/libplugin-$(p).so)
EX_PLUGIN  := $(PL_PLUGINS) $(PL_HOSTS)
examples: $(EX_PLUGIN)

.PHONY: check-plugins check-plugins-run
check-plugins: ## Plugins of every flavour in hosts of every kind, linked and dlopen()ed
check-plugins-run: $(EX_PLUGIN)
	@echo "== plugins: $(PLUGIN_KINDS) plugins in $(HOST_KINDS) hosts; bp ones dlopen()ed $(PLUGIN_CYCLES) times"
	$(Q)if nm -D --defined-only $(PL_B)/libplugin-static.so | grep -q ' rculist_'; then \
		echo "libplugin-static.so exports rculist_* symbols: it must not" >&2; exit 1; fi
	$(Q)if readelf -d $(PL_B)/libplugin-static.so | grep -q 'NEEDED.*rculist'; then \
		echo "libplugin-static.so needs an rculist library: it must not" >&2; exit 1; fi
	$(Q)if readelf -d $(PL_B)/host-none-dlopen | grep -q 'NEEDED.*\(rculist\|urcu\|plugin\)'; then \
		echo "host-none-dlopen links rculist or liburcu: it must not" >&2; exit 1; fi
	$(Q)fail=0; for h in $(HOST_KINDS); do \
		for p in $(PLUGIN_KINDS); do \
			$(PLUGIN_ENV) $(PL_B)/host-$$h-linked-$$p 1 2000 || fail=1; \
		done; \
		for p in bp static; do \
			$(PLUGIN_ENV) $(PL_B)/host-$$h-dlopen $(PL_B)/libplugin-$$p.so \
				$(PLUGIN_CYCLES) $(PLUGIN_ROUNDS) || fail=1; \
		done; \
	done; [ $$fail = 0 ] || { echo "check-plugins: a host above failed" >&2; exit 1; }

check-plugins: check-plugins-run
	$(Q)$(MAKE) --no-print-directory check-plugins-valgrind

# Unloading under memcheck: a host dlopen()s, runs and dlclose()s each bp
# plugin PLUGIN_CYCLES times; any memcheck error or a definite or
# indirect leak fails.  core/rculist.supp covers liburcu's call_rcu
# thread; blocks still queued for rculist_free_rcu() at exit are reached
# through their rcu_head, an interior pointer: "possibly lost", not
# errors.  A child of fork() is silent (--child-silent-after-fork): it
# exits holding blocks of threads that did not follow it, and the host
# reads its verdict through a pipe.  make check runs the no-RCU host and
# an rculist-memb one, 20 unload cycles each (PLUGIN_VG_CYCLES: a leak or
# a use after unload shows in the first cycles; 100 took 35-60 s per
# host here); make check-full runs every host kind, 100 cycles each
# (check-plugins-valgrind-full).
PLUGIN_VG_HOSTS ?= none memb
PLUGIN_VG_CYCLES ?= 20
CHECKS_FULL += check-plugins-valgrind-full
.PHONY: check-plugins-valgrind-full
check-plugins-valgrind-full: ## Every host kind's plugin unload cycles under memcheck, 100 each (make check-full)
	$(Q)$(MAKE) --no-print-directory check-plugins-valgrind \
		PLUGIN_VG_HOSTS='$(HOST_KINDS)' PLUGIN_VG_CYCLES=$(PLUGIN_CYCLES)
PL_VG = valgrind -q --error-exitcode=99 --leak-check=full --suppressions=core/rculist.supp \
	--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
	--child-silent-after-fork=yes --fair-sched=yes
.PHONY: check-plugins-valgrind check-plugins-asan
check-plugins-valgrind: $(EX_PLUGIN)
	$(Q)if ! command -v valgrind >/dev/null 2>&1; then \
		echo "   valgrind not installed: unload cycles under memcheck skipped"; exit 0; fi; \
	for h in $(PLUGIN_VG_HOSTS); do for p in bp static; do \
		log=$(PL_B)/valgrind-$$h-$$p.log; \
		printf '   memcheck: '; \
		$(PL_VG) --log-file=$$log $(PL_B)/host-$$h-dlopen $(PL_B)/libplugin-$$p.so \
			$(PLUGIN_VG_CYCLES) $(PLUGIN_ROUNDS) || { cat $$log; exit 1; }; \
		if grep -q . $$log; then cat $$log; exit 1; fi; \
	done; done

# The matrix again, every object built with ASan+UBSan (make asan runs it).
check-plugins-asan:
	$(Q)$(ASAN_MAKE) check-plugins-run PLUGIN_ENV='$(ASAN_ENV)'

check-examples: examples ## Run the examples
	@echo "== examples: route_table under each flavour"
	$(Q)for f in $(FLAVORS); do $(EX_B)/route_table-$$f 2 100 || exit 1; done
	@echo "== examples: qsbr_server (and, to compare, under the other flavours)"
	$(Q)rm -f $(EX_B)/qsbr_server.out; for f in $(FLAVORS); do \
		$(EX_B)/qsbr_server-$$f 2 5000 >>$(EX_B)/qsbr_server.out || \
		{ cat $(EX_B)/qsbr_server.out; exit 1; }; done; cat $(EX_B)/qsbr_server.out
	$(Q)if [ "$$(uname -m)" = x86_64 ]; then \
		grep -q '^read side \[qsbr\].*no read-side instructions' $(EX_B)/qsbr_server.out || \
		{ echo "qsbr_server: the QSBR read side executes instructions" >&2; exit 1; }; fi
	$(Q)$(MAKE) --no-print-directory check-plugins
asan: check-plugins-asan
