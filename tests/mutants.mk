# SPDX-License-Identifier: LGPL-2.1-or-later
# Planted bugs (tests/mutants/*.patch): each, one at a time in a scratch
# copy of the tree, must make the unit suite of every flavour fail in
# every one of MUTANT_RUNS runs.  Not part of make check (minutes).
#   make check-mutants [MUTANT_RUNS=5] [MUTANT_FILTER='conc_updates/*']
#                      [MUTANTS='tests/mutants/a.patch ...']
MUTANT_RUNS   ?= 5
MUTANT_FILTER ?= conc_updates/*
MUTANTS       ?=

.PHONY: check-mutants
check-mutants: | deps ## Plant each bug of tests/mutants/ and show every run of every flavour fails
	@echo "== planted bugs, $(MUTANT_RUNS) runs per flavour, suites '$(MUTANT_FILTER)'"
	$(Q)tests/mutants/run.sh $(B)/mutants '$(FLAVORS)' $(MUTANT_RUNS) \
		'$(MUTANT_FILTER)' $(MUTANTS)
