# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/upstream/upstream.mk - check-liburcu: rculist's checks against
# another liburcu than the system's (tests/upstream/run.sh), by hand:
#   make check-liburcu URCU_SRC=<liburcu git repository> URCU_REF=v0.15.6
#   make check-liburcu URCU_SRC=<liburcu source tree>
#   make check-liburcu URCU_PREFIX=<an installed liburcu>
# builds that liburcu (bootstrap, configure, make, install) into
# build/upstream/<name>/prefix, kept for the next run, then runs
# UPS_CHECKS through make check, in build/upstream/<name>/build, with
# PKG_CONFIG_PATH naming that prefix, and requires that the libraries
# load liburcu from there.  Stops with one line naming what is missing
# if no liburcu is named or it does not build.  Not in make check-full,
# which must run without liburcu's source.  About 260 s of CPU for the
# checks, 3 to 7 minutes wall with liburcu's build (loaded machine, AMD
# EPYC 2 vCPUs).
#   check-liburcu-refusals  (make check) check-liburcu, named no usable
#                           liburcu, stops with its one line, each way
#                           (tests/upstream/refusals.sh): about 1 s
CHECKS += check-liburcu-refusals
UPS_B      := $(B)/upstream
UPS_CHECKS ?= check-unit check-cxx-rcu check-inline check-adopt check-compat \
	check-torture check-examples check-lto check-cxx check-exit
# liburcu's bootstrap needs the autotools (a source tree with configure
# does not, nor URCU_PREFIX), installed if missing; check-liburcu-refusals
# empties the list (its tree has a configure; no apt-get in make check).
UPS_TOOLS  ?= autoconf:autoconf automake:automake libtoolize:libtool

.PHONY: check-liburcu
check-liburcu: ## rculist's checks against another liburcu: URCU_SRC=<git repo or tree> [URCU_REF=<tag>], or URCU_PREFIX=<prefix> (by hand)
	$(Q)missing=""; \
	if [ -z "$(URCU_PREFIX)" ] && [ -n "$(URCU_SRC)" ]; then \
		for t in $(UPS_TOOLS); do \
			command -v $${t%%:*} >/dev/null 2>&1 || missing="$$missing $${t#*:}"; \
		done; \
	fi; \
	$(need_debs)
	$(Q)URCU_SRC='$(URCU_SRC)' URCU_REF='$(URCU_REF)' URCU_PREFIX='$(URCU_PREFIX)' \
		UPS_B='$(UPS_B)' UPS_CHECKS='$(UPS_CHECKS)' UPS_JOBS=$(NPROC) MAKE='$(MAKE)' \
		sh tests/upstream/run.sh

.PHONY: check-liburcu-refusals
check-liburcu-refusals: ## check-liburcu named no usable liburcu stops with one line saying what is missing
	$(Q)MAKE='$(MAKE)' sh tests/upstream/refusals.sh $(UPS_B)/refusals

# check-targets: check-liburcu is run by hand, against a liburcu named
# on its command line, as docs/install.md says.
TARGETS_CHECKED_ELSEWHERE += check-liburcu
