# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/layers/layers.mk - check-layers: the calls between the library's
# objects run one way (HACKING.md, "Layers").  For each flavour, the graph
# of build/obj/flavors/<f>.o and build/obj/core/*.o (an arrow A -> B when
# A uses a symbol B defines, from nm) has no cycle; a cycle is printed.
# Then the check checks itself: two objects that call each other must
# fail it.  Cost: under a second of CPU once the libraries are built.
CHECKS += check-layers

LAYERS_B := $(B)/layers-selftest

.PHONY: check-layers
check-layers: $(LIBS_A) ## The library's objects call one way: no cycle in their nm graph
	$(Q)tests/layers/layers.sh $(B) $(FLAVORS)
	$(Q)rm -rf $(LAYERS_B) && mkdir -p $(LAYERS_B)/obj/flavors $(LAYERS_B)/obj/core
	$(Q)echo 'void up(void); void down(void) { up(); }' | \
		$(CC) -x c -c - -o $(LAYERS_B)/obj/flavors/x.o
	$(Q)echo 'void down(void); void up(void) { down(); }' | \
		$(CC) -x c -c - -o $(LAYERS_B)/obj/core/y.o
	$(Q)if tests/layers/layers.sh $(LAYERS_B) x > $(LAYERS_B)/out 2>&1; then \
		echo "check-layers: a cycle between two objects went unseen" >&2; exit 1; \
	fi; grep -q 'cycle: ' $(LAYERS_B)/out || { cat $(LAYERS_B)/out; exit 1; }
	@echo "check-layers: a planted cycle is caught"
