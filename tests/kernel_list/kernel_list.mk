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

.PHONY: kernel-list-test
kernel-list-test: ## The kernel's list-test.c (KUnit list, hlist; klist skipped) mapped to cds_ names (KERNEL=<tree or file>)
	$(Q)[ -n "$(KERNEL)" ] || { echo "kernel-list-test: set KERNEL=<kernel tree or list-test.c>" >&2; exit 2; }
	$(Q)tests/kernel_list/run.sh $(KERNEL) $(FLAVORS)
