# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/model/model.mk - the Promela model of the circular-list protocol
# (tests/model/list.pml), checked exhaustively with spin (included by the
# Makefile; check-model is part of make check).
#
#   make check-model                 the model as the code is: no violation
#   make check-model WEAKEN=add      one publication (or the grace period,
#                                    or the readers' loads) weakened: fails
#                                    with the counterexample's story
#   make check-model-selftest        every weakening must fail
#
# WEAKEN: add add_prev del replace replace_prev splice splice_prev (a
# release store of that operation made plain), gp splice_gp (a grace
# period that does not wait), deref (relaxed reader loads).
CHECKS += check-model
CHECK_PREP += deps-model

MODEL_B          := $(B)/model
MODEL_SRC        := tests/model/list.pml
MODEL_WEAKENINGS := add add_prev del replace replace_prev splice splice_prev gp splice_gp deref
WEAKEN           ?=

.PHONY: check-model check-model-selftest deps-model $(MODEL_WEAKENINGS:%=check-model-weak-%)
deps-model:
	$(Q)missing=""; \
	command -v spin >/dev/null 2>&1 || missing="$$missing spin"; \
	command -v gcc >/dev/null 2>&1 || missing="$$missing gcc"; \
	$(need_debs)

check-model: deps-model ## Check the Promela model of the list protocol with spin (WEAKEN=add: fail)
	@echo "== model of the list protocol (spin)$(if $(WEAKEN), weakened: $(WEAKEN))"
	$(Q)tests/model/run.sh $(MODEL_B)/$(or $(WEAKEN),correct) $(MODEL_SRC) $(WEAKEN)

check-model-selftest: $(MODEL_WEAKENINGS:%=check-model-weak-%) ## Prove each weakening of the model fails with a counterexample
	@echo "== model: all $(words $(MODEL_WEAKENINGS)) weakenings caught"

$(MODEL_WEAKENINGS:%=check-model-weak-%): check-model-weak-%: deps-model
	$(Q)mkdir -p $(MODEL_B) && tests/model/run.sh $(MODEL_B)/$* $(MODEL_SRC) $* >$(MODEL_B)/$*.out 2>&1; st=$$?; \
	head -3 $(MODEL_B)/$*.out; \
	[ $$st = 1 ] || { cat $(MODEL_B)/$*.out; \
		echo "   model weakened ($*): status $$st, expected a counterexample (1): FAIL"; exit 1; }
