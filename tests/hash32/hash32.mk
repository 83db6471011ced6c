# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/hash32/hash32.mk - check-hash32: the hashes of <rculist/hashtable.h>
# give the kernel's values where long has 32 bits (tests/hash32/hash32.c,
# compiled by clang for i386 with every comparison folded: the code must
# hold no trap, and must hold one when a value is planted wrong).  Two
# compiles, well under a second.
CHECKS += check-hash32

HASH32_B  := $(B)/hash32
HASH32_CC := clang --target=i386-linux-gnu -O2 -ffreestanding -nostdinc \
	-isystem $(shell clang -print-resource-dir 2>/dev/null)/include -Iinclude \
	-std=gnu11 $(WARNINGS) -Werror -S

.PHONY: check-hash32
check-hash32: ## The hashes' values where long has 32 bits (clang, i386, compiled only)
	$(Q)mkdir -p $(HASH32_B)
	$(Q)$(HASH32_CC) tests/hash32/hash32.c -o $(HASH32_B)/right.s
	$(Q)$(HASH32_CC) -DWRONG=1 tests/hash32/hash32.c -o $(HASH32_B)/wrong.s
	$(Q)n=$$(grep -c 'ud2' $(HASH32_B)/right.s); [ "$$n" = 0 ] || \
		{ echo "check-hash32: $$n wrong values (traps left) where long has 32 bits" >&2; exit 1; }
	$(Q)n=$$(grep -c 'ud2' $(HASH32_B)/wrong.s); [ "$$n" = 1 ] || \
		{ echo "check-hash32: a value planted wrong is not seen ($$n traps)" >&2; exit 1; }
	@echo "== hash32: cds_hash_64, _long, _min give the kernel's 32-bit values"
