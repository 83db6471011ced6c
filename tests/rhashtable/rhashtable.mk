# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/rhashtable/rhashtable.mk - the long run of cds_rhashtable's
# concurrent suite (make check-full): the table grown from empty to a
# million keys and shrunk back under readers, every flavour.  make check
# runs the same suite with 100000 keys inside check-unit (about 2 s of
# CPU per flavour).
CHECKS_FULL += check-rhashtable-full
RHASH_FULL_KEYS ?= 1000000

.PHONY: check-rhashtable-full
check-rhashtable-full: $(foreach f,$(FLAVORS),$(call test_bin,$(f))) ## cds_rhashtable's concurrent suite with 1M keys, every flavour (make check-full)
	$(Q)for f in $(FLAVORS); do \
		echo "== rhashtable, $(RHASH_FULL_KEYS) keys, flavour $$f"; \
		RCULIST_TEST_RHASH_KEYS=$(RHASH_FULL_KEYS) RCULIST_TEST_CONC_SECS=$(FULL_CONC_SECS) \
			timeout -k 10 $(UNIT_TIMEOUT) $(B)/tests/$$f/unit --jobs 2 \
			--filter 'rhashtable_concurrent/*' || exit 1; \
	done

# The kernel's lib/test_rhashtable.c against the installed library, every
# flavour (tests/rhashtable/kernel_test.sh maps it in a scratch directory;
# nothing of the kernel is in rculist).  Not in any CHECKS: it needs a
# kernel tree, KERNEL=<tree or test_rhashtable.c>.
.PHONY: kernel-rhashtable-test
kernel-rhashtable-test: ## The kernel's test_rhashtable.c mapped to cds_ names, every flavour (KERNEL=<tree or file>)
	$(Q)[ -n "$(KERNEL)" ] || { echo "kernel-rhashtable-test: set KERNEL=<kernel tree or test_rhashtable.c>" >&2; exit 2; }
	$(Q)tests/rhashtable/kernel_test.sh $(KERNEL) $(FLAVORS)
