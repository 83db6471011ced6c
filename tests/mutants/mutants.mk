# SPDX-License-Identifier: LGPL-2.1-or-later
# Planted bugs (tests/mutants/*.patch): each, one at a time in a scratch
# copy of the tree, must make the unit suite of every flavour fail in
# every one of MUTANT_RUNS runs.  Not part of make check (minutes).
# tests/mutants/survivors/ holds planted bugs not yet caught every run
# (the splice publishing its run before the last next: the splices are
# sampled by a timer, not single-stepped); run them with MUTANTS=...
# tests/mutants/reclaim/: early frees planted in core/reclaim.c (a batch
# freed before its grace period ends), run against the reclaim suite,
# whose readers hold a freed block and check it.
# tests/mutants/reclaim_nested/: the owner's windows planted not to nest,
# run against the reclaim_nested suite (barriers beside callbacks that
# queue blocks, run inside another barrier's window).
#   make check-mutants [MUTANT_RUNS=5] [MUTANT_FILTER='conc_updates/*']
#                      [MUTANTS='tests/mutants/a.patch ...']
MUTANT_RUNS   ?= 5
MUTANT_FILTER ?= conc_updates/*
MUTANTS       ?=
MUTANT_RECLAIM_FILTER ?= reclaim/*
MUTANT_NESTED_FILTER ?= reclaim_nested/*

.PHONY: check-mutants
check-mutants: | deps ## Plant each bug of tests/mutants/ and show every run of every flavour fails
	@echo "== planted bugs, $(MUTANT_RUNS) runs per flavour, suites '$(MUTANT_FILTER)'"
	$(Q)tests/mutants/run.sh $(B)/mutants '$(FLAVORS)' $(MUTANT_RUNS) \
		'$(MUTANT_FILTER)' $(MUTANTS)
ifeq ($(MUTANTS),)
	@echo "== planted early frees, $(MUTANT_RUNS) runs per flavour, suites '$(MUTANT_RECLAIM_FILTER)'"
	$(Q)tests/mutants/run.sh $(B)/mutants '$(FLAVORS)' $(MUTANT_RUNS) \
		'$(MUTANT_RECLAIM_FILTER)' $(wildcard tests/mutants/reclaim/*.patch)
	@echo "== planted windows that do not nest, $(MUTANT_RUNS) runs per flavour, suites '$(MUTANT_NESTED_FILTER)'"
	$(Q)tests/mutants/run.sh $(B)/mutants '$(FLAVORS)' $(MUTANT_RUNS) \
		'$(MUTANT_NESTED_FILTER)' $(wildcard tests/mutants/reclaim_nested/*.patch)
endif

# The planted bugs are run by make check-full, not by make check: so that
# a change of the code they patch cannot leave them behind unnoticed (a
# patch that no longer applies plants nothing), make check dry-runs every
# one against the tree (a second).
CHECKS += check-mutants-apply
MUTANT_PATCHES = $(sort $(wildcard tests/mutants/*.patch tests/mutants/*/*.patch))

.PHONY: check-mutants-apply
check-mutants-apply: ## Every planted bug of tests/mutants/ still applies to the tree
	$(Q)bad=0; for p in $(MUTANT_PATCHES); do \
		out=$$(patch --dry-run -s -f -p1 < $$p 2>&1) || \
			{ echo "check-mutants-apply: $$p no longer applies (update it to the code it plants a bug in):" >&2; \
			  echo "$$out" | sed 's/^/   /' >&2; bad=1; }; \
	done; [ $$bad = 0 ] || exit 1
	@echo "== planted bugs: the $(words $(MUTANT_PATCHES)) patches of tests/mutants/ apply to the tree"

# Two list bugs that made make check hang (a back pointer forgotten):
# the whole unit suite must fail on its own, each walk being bounded (or
# its test's .timeout ending it), well before MUTANT_BOUND; a run cut at
# the bound counts as not caught.
.PHONY: check-mutants-hang
check-mutants-hang: | deps ## Show the two back-pointer bugs fail the unit suite within a bound, not hang
	@echo "== planted back-pointer bugs: the whole unit suite fails, and ends, within $${MUTANT_BOUND:-120} s"
	$(Q)tests/mutants/run.sh $(B)/mutants-hang '$(FLAVORS)' 1 '*' \
		$(wildcard tests/mutants/hang/*.patch)
include tests/mutants/planted/planted.mk
