# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/load/load.mk - check-under-load: make check on a machine loaded by
# LOAD_LOOPS CPU-bound busy loops (two: as many as a 2-core CI machine
# has cores), started before and stopped after (tests/load/run.sh).  Every
# check that waits for other threads waits for their progress, with a
# generous bound, never for a fixed number of rounds: this shows it.  Part
# of make check-full, not of make check (it takes longer than make check).
LOAD_LOOPS ?= 2

.PHONY: check-under-load
check-under-load: ## make check while LOAD_LOOPS (2) busy loops compete for the CPUs (part of check-full)
	$(Q)tests/load/run.sh $(LOAD_LOOPS) $(MAKE) --no-print-directory check
