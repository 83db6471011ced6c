# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/cxx_rcu.mk - what <rculist/rcu.hpp> costs beside the C API
# (bench/cxx_rcu.cc), per flavour:
#   bench-cxx-rcu               wall-clock, one line per flavour and op
#                               (section cxx of make bench, bench/run.sh):
#       cxx flavor=<f> op=<op> ns=<per call> calls=<n>
#   bench-cxx-rcu-instructions  callgrind, exact whatever the load:
#       cxx flavor=<f> op=<op> instructions=<per call> scope=caller
#       cxx flavor=<f> op=<op> instructions=<per object> scope=all
#     scope=caller counts the op's own function (bench_<op>), scope=all
#     the whole process, its frees in liburcu's call_rcu thread and the
#     rcu_barrier() included (reclamation ops only); each the difference
#     of two runs (CXX_RCU_N and 3 x CXX_RCU_N calls), so that the
#     thread's registration and the start-up are not counted.
# ops: c_section, cxx_section (an empty region: rculist_read_lock/_unlock
# against std::scoped_lock on rcu_default_domain(), in a thread the C API
# registered), cxx_own_section (the region in a thread only C++
# registered: under qsbr online and offline around it), free_rcu,
# obj_retire, rcu_retire (one 64-byte object allocated and reclaimed).
# check-bench runs section cxx quick (20000 calls) and wants every line.
# Its binaries: bench.mk's CXX_RCU_BINS.
CXX_RCU_B := $(B)/bench/cxx_rcu
CXX_RCU_N ?= 1000
CXX_RCU_OPS := c_section cxx_section cxx_own_section free_rcu obj_retire rcu_retire
# No code alignment: the counts compare the code of C and C++, not the
# no-ops the compiler pads their jump targets with (bench-instructions).
CXX_RCU_NOPAD := -falign-loops=1 -falign-jumps=1 -falign-labels=1

$(CXX_RCU_B)/cxx_rcu.o: bench/cxx_rcu.cc include/rculist/rcu.hpp | $(B)/.deps
	$(call quiet,CXX,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CXX) -std=c++17 $(ALL_CPPFLAGS) -Wall -Wextra -Wshadow -Werror -O2 -g -gdwarf-4 $(CXX_RCU_NOPAD) -c $< -o $@
$(CXX_RCU_B)/cxx_rcu-%: $(CXX_RCU_B)/cxx_rcu.o $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(Q)$(CXX) -o $@ $< $(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$* -pthread

.PHONY: bench-cxx-rcu bench-cxx-rcu-instructions
bench-instructions: bench-cxx-rcu-instructions

bench-cxx-rcu: $(CXX_RCU_BINS) ## <rculist/rcu.hpp> against the C API, ns per call (part of make bench)
	$(call BENCH_ONE,cxx)

cxx_rcu_ir = valgrind --tool=callgrind --callgrind-out-file=/dev/null $(1) \
	$(CXX_RCU_B)/cxx_rcu-$$f instr $(2) $$op 2>&1 | sed -n 's/.*Collected : //p'
bench-cxx-rcu-instructions: $(CXX_RCU_BINS) ## <rculist/rcu.hpp> against the C API, callgrind instructions (part of bench-instructions)
	$(Q)n=$(CXX_RCU_N); for f in $(FLAVORS); do for op in $(CXX_RCU_OPS); do \
		a=$$($(call cxx_rcu_ir,--toggle-collect=bench_$$op,$$n)); \
		b=$$($(call cxx_rcu_ir,--toggle-collect=bench_$$op,$$((3 * n)))); \
		echo "cxx flavor=$$f op=$$op instructions=$$(((b - a) / (2 * n))) scope=caller"; \
		case $$op in *_section) continue;; esac; \
		a=$$($(call cxx_rcu_ir,,$$n)); b=$$($(call cxx_rcu_ir,,$$((3 * n)))); \
		echo "cxx flavor=$$f op=$$op instructions=$$(((b - a) / (2 * n))) scope=all"; \
	done; done | tee $(CXX_RCU_B)/instructions.txt

