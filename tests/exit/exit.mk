# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/exit/exit.mk - check-exit: a program leaves main() (returns, or
# calls exit() beside a registered thread reading or parked) with its
# main thread registered and, under qsbr, online, reclamation queued
# through rculist_free_rcu() and rculist_call_rcu() (exit.c), or through
# rcu_retire() (exit.cc, <rculist/rcu.hpp>): every flavour, EXIT_RUNS runs
# of each, each bounded by EXIT_TIMEOUT seconds (tests/exit/run.sh).
# Against liburcu 0.15 (make check-liburcu) it is what catches a qsbr
# process hanging at exit.  Cost: about 1 s CPU once the library is built.
CHECKS += check-exit

EXIT_B       := $(B)/exit
EXIT_RUNS    ?= 3
EXIT_TIMEOUT ?= 10
EXIT_LINK     = $(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$(1) -pthread
EXIT_HDRS    := $(wildcard include/rculist.h include/rculist/*.h include/rculist/*.hpp)

# Each program compiled once, linked with every flavour library.
$(EXIT_B)/exit.o: tests/exit/exit.c $(EXIT_HDRS) | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

$(EXIT_B)/exit-cxx.o: tests/exit/exit.cc $(EXIT_HDRS) | $(B)/.deps
	$(call quiet,CXX,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CXX) -std=c++17 $(ALL_CPPFLAGS) $(filter-out -Wstrict-prototypes,$(WARNINGS)) $(CFLAGS) -c $< -o $@

$(FLAVORS:%=$(EXIT_B)/exit-%): $(EXIT_B)/exit-%: $(EXIT_B)/exit.o $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(Q)$(CC) $< -o $@ $(call EXIT_LINK,$*)

$(FLAVORS:%=$(EXIT_B)/exit-cxx-%): $(EXIT_B)/exit-cxx-%: $(EXIT_B)/exit-cxx.o $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(Q)$(CXX) $< -o $@ $(call EXIT_LINK,$*)

.PHONY: check-exit
check-exit: $(FLAVORS:%=$(EXIT_B)/exit-%) $(FLAVORS:%=$(EXIT_B)/exit-cxx-%) ## Programs leaving main() registered and online, reclamation pending, exit promptly (every flavour)
	$(Q)sh tests/exit/run.sh $(EXIT_RUNS) $(EXIT_TIMEOUT) $(EXIT_B) $(FLAVORS)
