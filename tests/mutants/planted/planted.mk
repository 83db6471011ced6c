# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/mutants/planted/: simple bugs planted one at a time in the list
# headers' operations (mutants.py: a statement dropped, next and prev
# swapped, a store moved, a guard dropped, an iterator that skips or is
# not safe, ...), each against the suites that exercise the lists,
# compiled against the planted header (run.py).  Fails if a mutant
# survives that mutants.py does not list as equivalent or as a
# memory-ordering bug.  Minutes: about 15 s per mutant on 2 idle cores,
# 146 mutants; hence in make check-full only.
#   make check-mutants-planted [PLANTED_FLAVOR=memb] [PLANTED='name ...']
#   make check-mutants-planted PLANTED_ARGS=--full   (the whole unit binary
#        rebuilt by make and the whole suite run, per mutant: slower)
PLANTED_FLAVOR ?= memb
PLANTED        ?=
PLANTED_ARGS   ?=

CHECKS_FULL += check-mutants-planted
.PHONY: check-mutants-planted
check-mutants-planted: | deps ## Plant each simple bug of tests/mutants/planted/ in the list headers and show the suites kill it
	$(Q)CC='$(CC)' tests/mutants/planted/run.py $(B)/mutants-planted \
		--flavor $(PLANTED_FLAVOR) $(PLANTED_ARGS) $(PLANTED)

# make check: every mutant's text is still in its header, once (so that
# a change of a header cannot leave a mutant planting nothing); 0.1 s.
CHECKS += check-mutants-planted-apply
.PHONY: check-mutants-planted-apply
check-mutants-planted-apply: ## Every simple bug of tests/mutants/planted/ still applies to the list headers
	$(Q)tests/mutants/planted/run.py $(B)/mutants-planted --dry-run
