# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/urcu_examples/: liburcu's own examples (list/, hlist/,
# urcu-flavors/ of liburcu-dev's doc/examples) built as shipped against
# liburcu and ported to rculist: beside liburcu in both include orders,
# and fully ported (plain, read side inlined, debug mode) under every
# flavour; every build's stdout, stderr and exit status must be the
# shipped build's (run.sh says how).  The examples are fetched with
# apt-get download where the documentation was left out;
# URCU_EXAMPLES_DOC names another copy (an upstream tree's doc/examples).
# 206 programs: 15 s CPU, 42 s wall (loaded machine, load 11, AMD EPYC 2
# vCPUs; five examples sleep 1 s).
CHECKS += check-urcu-examples

UEX_B := $(B)/urcu_examples
URCU_EXAMPLES_DOC ?= /usr/share/doc/liburcu-dev/examples
URCU_EXAMPLES_DEB ?= liburcu-dev

.PHONY: check-urcu-examples
check-urcu-examples: $(LIBS_SO) ## Build liburcu's shipped examples against liburcu and ported to rculist; outputs must match
	$(Q)mkdir -p $(UEX_B)
	$(Q)CC='$(CC)' FLAVORS='$(FLAVORS)' \
	UEX_CFLAGS='$(CFLAGS)' \
	UEX_URCU_CPPFLAGS='$(URCU_CFLAGS) $(CPPFLAGS)' \
	UEX_URCU_LDFLAGS='$(LDFLAGS) $(if $(URCU_LIBDIR),-L$(URCU_LIBDIR)) $(URCU_RPATH)' \
	UEX_RCULIST_CPPFLAGS='-I$(abspath include)' \
	UEX_RCULIST_LDFLAGS='-L$(abspath $(LIBDIR_B)) -Wl,-rpath,$(abspath $(LIBDIR_B))' \
	$(foreach f,$(FLAVORS),URCU_LIBS_$(f)='$(call urcu_libs,$(f))') \
	URCU_EXAMPLES_DOC='$(URCU_EXAMPLES_DOC)' URCU_EXAMPLES_DEB='$(URCU_EXAMPLES_DEB)' \
		tests/urcu_examples/run.sh $(UEX_B)
