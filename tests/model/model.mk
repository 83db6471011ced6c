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
#
# tests/model/reclaim.pml: core/reclaim.c's batches (hand-offs, probe
# and sweep, barrier, fork), in three modes (an idle owner; a barrier; a
# fork), each checked by check-model (about 30 s of CPU in all):
#   make check-model-reclaim [WEAKEN=window]   one weakening: fails
# each weakening of RECLAIM_MODEL_WEAKENINGS (name.mode) fails in its mode
# (make check-model-selftest).
CHECKS += check-model
CHECK_PREP += deps-model

MODEL_B          := $(B)/model
MODEL_SRC        := tests/model/list.pml
MODEL_WEAKENINGS := add add_prev del replace replace_prev splice splice_prev gp splice_gp deref
RECLAIM_MODEL_SRC        := tests/model/reclaim.pml
RECLAIM_MODEL_MODES      := 0 1 2
RECLAIM_MODEL_WEAKENINGS := hand_free.0 claim_queued.0 window.1 barrier_wait.1 \
	sweeping.1 no_probe.0 no_sweep.0 inflight.0 fork_gate.2 spill_done.0
WEAKEN           ?=

.PHONY: check-model check-model-selftest deps-model $(MODEL_WEAKENINGS:%=check-model-weak-%)
deps-model:
	$(Q)missing=""; \
	command -v spin >/dev/null 2>&1 || missing="$$missing spin"; \
	command -v gcc >/dev/null 2>&1 || missing="$$missing gcc"; \
	$(need_debs)

check-model: deps-model ## Check the Promela models of the list protocol and of reclamation with spin (WEAKEN=add: fail)
	@echo "== model of the list protocol (spin)$(if $(WEAKEN), weakened: $(WEAKEN))"
	$(Q)tests/model/run.sh $(MODEL_B)/$(or $(WEAKEN),correct) $(MODEL_SRC) $(WEAKEN)
ifeq ($(WEAKEN),)
	$(Q)$(MAKE) --no-print-directory check-model-reclaim
endif

check-model-selftest: $(MODEL_WEAKENINGS:%=check-model-weak-%) \
		$(RECLAIM_MODEL_WEAKENINGS:%=check-model-reclaim-weak-%) ## Prove each weakening of the models fails with a counterexample
	@echo "== model: all $(words $(MODEL_WEAKENINGS) $(RECLAIM_MODEL_WEAKENINGS)) weakenings caught"

$(MODEL_WEAKENINGS:%=check-model-weak-%): check-model-weak-%: deps-model
	$(Q)mkdir -p $(MODEL_B) && tests/model/run.sh $(MODEL_B)/$* $(MODEL_SRC) $* >$(MODEL_B)/$*.out 2>&1; st=$$?; \
	head -3 $(MODEL_B)/$*.out; \
	[ $$st = 1 ] || { cat $(MODEL_B)/$*.out; \
		echo "   model weakened ($*): status $$st, expected a counterexample (1): FAIL"; exit 1; }

# The reclamation model: every mode with no violation (WEAKEN: that
# weakening, which must fail in at least one mode).
.PHONY: check-model-reclaim $(RECLAIM_MODEL_WEAKENINGS:%=check-model-reclaim-weak-%)
check-model-reclaim: deps-model ## Check the Promela model of core/reclaim.c's batches, barrier and fork (WEAKEN=window: fail)
	@echo "== model of the reclamation protocol (spin)$(if $(WEAKEN), weakened: $(WEAKEN))"
	$(Q)st=0; for m in $(RECLAIM_MODEL_MODES); do \
		SPIN_DEFS=-DMODE=$$m PAN_FLAGS=-E tests/model/run.sh \
			$(MODEL_B)/reclaim-$(or $(WEAKEN),correct)-$$m $(RECLAIM_MODEL_SRC) $(WEAKEN) || st=$$?; \
	done; exit $$st

$(RECLAIM_MODEL_WEAKENINGS:%=check-model-reclaim-weak-%): check-model-reclaim-weak-%: deps-model
	$(Q)w=$(word 1,$(subst ., ,$*)); m=$(word 2,$(subst ., ,$*)); out=$(MODEL_B)/reclaim-$$w.out; \
	mkdir -p $(MODEL_B) && SPIN_DEFS=-DMODE=$$m PAN_FLAGS=-E tests/model/run.sh \
		$(MODEL_B)/reclaim-$$w-$$m $(RECLAIM_MODEL_SRC) $$w >$$out 2>&1; st=$$?; \
	head -3 $$out; \
	[ $$st = 1 ] || { cat $$out; \
		echo "   reclamation model weakened ($$w, mode $$m): status $$st, expected a counterexample (1): FAIL"; exit 1; }
