# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/kernel_list/kernel_list.mk - the kernel's KUnit list tests
# (lib/list-test.c, lib/tests/list-test.c since v6.14) mapped to cds_
# names and run against the installed library (tests/kernel_list/run.sh
# maps them in a scratch directory; nothing of the kernel is in rculist).
# Not in any CHECKS: it needs a kernel tree, KERNEL=<tree or
# list-test.c>.  About 5 s (most of it make install).  The cases run
# once, not per flavour: the list operations are the headers' inline
# functions, the same under every flavour, and run.sh checks with nm
# that the test calls nothing of rculist or liburcu (it would otherwise
# run them under every flavour of FLAVORS).
TARGETS_CHECKED_ELSEWHERE += kernel-list-test

# check-kernel-list: run.sh and kunit.h on a test of ours written with
# the kernel's names (tests/kernel_list/sample_test.c), every path taken
# (pass, fail, assertion, crash, does not compile, klist cut, skip),
# compiled at -O0 -Wall -Wextra -Werror; the verdicts must be
# sample_test.expected's and the run must exit 1.  About 3 s, 1 s of CPU.
CHECKS += check-kernel-list
KLIST_B := $(B)/kernel_list

.PHONY: check-kernel-list
check-kernel-list: lib ## run.sh and its KUnit shim on a sample test of ours (every verdict), as make kernel-list-test runs the kernel's
	$(Q)rm -rf $(KLIST_B) && mkdir -p $(KLIST_B)
	$(Q)st=0; KTEST_DIR=$(abspath $(KLIST_B))/work KTEST_CFLAGS='-O0 -Wall -Wextra -Werror' \
		tests/kernel_list/run.sh tests/kernel_list/sample_test.c > $(KLIST_B)/out.txt 2>&1 || st=$$?; \
	cat $(KLIST_B)/out.txt; \
	[ $$st = 1 ] || { echo "check-kernel-list: run.sh exited $$st, not 1" >&2; exit 1; }; \
	sed -n 's/^   \(\(not \)\{0,1\}ok \|# kunit:\)/\1/p' $(KLIST_B)/out.txt | \
		sed 's/ # \(SKIP\|NOT RUN\).*/ # \1/' > $(KLIST_B)/verdicts.txt; \
	diff -u tests/kernel_list/sample_test.expected $(KLIST_B)/verdicts.txt >&2 || \
		{ echo "check-kernel-list: the verdicts differ from sample_test.expected" >&2; exit 1; }; \
	for m in 'EXPECTATION FAILED.*(an empty list, planted)' 'ASSERTION FAILED' \
		'sample_crash: killed by signal 6' "does not compile: .*'cds_list_no_such_operation'" \
		'skipped: planted skip' 'run once, linked with neither'; do \
		grep -q "$$m" $(KLIST_B)/out.txt || \
			{ echo "check-kernel-list: no line matching '$$m'" >&2; exit 1; }; \
	done; \
	! grep -q 'ran on after kunit_skip' $(KLIST_B)/out.txt || \
		{ echo "check-kernel-list: a case ran on after kunit_skip()" >&2; exit 1; }
	@echo "== check-kernel-list: run.sh gave every verdict of tests/kernel_list/sample_test.expected"

.PHONY: kernel-list-test
kernel-list-test: ## The kernel's list-test.c (KUnit list, hlist; klist skipped) mapped to cds_ names (KERNEL=<tree or file>)
	$(Q)[ -n "$(KERNEL)" ] || { echo "kernel-list-test: set KERNEL=<kernel tree or list-test.c>" >&2; exit 2; }
	$(Q)tests/kernel_list/run.sh $(KERNEL) $(FLAVORS)
