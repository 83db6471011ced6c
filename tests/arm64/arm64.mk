# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/arm64/arm64.mk - the libraries, the unit suites and the torture built for
# aarch64 and run under qemu-user (included by the Makefile; not part of
# make check: about 5 minutes here, and it needs arm64 packages).
#
#   make check-arm64 [ARM64_TORTURE_SECONDS=5]
#
# Cross-builds into build/arm64 (make recursion with CC=aarch64-linux-gnu-gcc)
# against Debian's arm64 liburcu and Criterion, then runs each flavour's
# unit suite and a short torture under qemu-aarch64-static.  As root on a
# fresh Debian it enables the arm64 architecture and installs what is
# missing; an arm64 package that apt cannot install beside the host's
# (bookworm: libcriterion-dev:arm64, whose libnanomsg5 differs from the
# amd64 one by a binNMU, would remove the amd64 Criterion) is unpacked into
# build/arm64/sysroot instead, with the arm64 packages it needs; the ld
# scripts unpacked there (libc.so: GROUP ( /lib/... /usr/lib/...
# libc_nonshared.a )) are pointed at the sysroot for each file that is
# there and not on the host.
#
# What it shows and what it does not: qemu-user runs the aarch64 code
# (stlr, ldar, dmb and all) on the x86-64 host by translation (TCG).  Its
# guest loads and stores run as host loads and stores, in program order,
# under x86's strong ordering: a publication weakened to relaxed, or a
# reader's acquire made relaxed, still works under qemu.  What it does
# catch is everything else that depends on the target: the aarch64 build
# (types, alignment, liburcu's aarch64 headers and libraries), the code
# gcc emits for aarch64 (e.g. a load the compiler may move past a plain
# store), and program-order bugs the tests see on x86.  The ordering
# itself is checked from the generated code by make check-memory-order,
# and by the model (make check-model).
ARM64_B       := $(B)/arm64
ARM64_CC      := aarch64-linux-gnu-gcc
ARM64_QEMU    := qemu-aarch64-static
ARM64_SYSROOT := $(ARM64_B)/sysroot
ARM64_LIBDIR  := /usr/lib/aarch64-linux-gnu
ARM64_DEBS    := liburcu-dev:arm64 libcriterion-dev:arm64
ARM64_TORTURE_SECONDS ?= 5
ARM64_SHIM    := $(ARM64_B)/exec_qemu.so
# The guest's environment: the execve() shim, the private sysroot's libraries.
ARM64_RUN      = RCULIST_ARM64_QEMU=$$(command -v $(ARM64_QEMU)) \
	LD_PRELOAD=$(abspath $(ARM64_SHIM)) \
	LD_LIBRARY_PATH=$(abspath $(ARM64_SYSROOT))$(ARM64_LIBDIR):$(abspath $(ARM64_SYSROOT))/lib/aarch64-linux-gnu $(ARM64_QEMU)
# pkg-config's variables go in the sub-make's environment: its $(shell
# pkg-config ...) calls see that, not make's own variables (GNU make 4.3).
ARM64_MAKE     = PKG_CONFIG_LIBDIR=$(ARM64_LIBDIR)/pkgconfig:/usr/share/pkgconfig \
	PKG_CONFIG_PATH=$(abspath $(ARM64_SYSROOT))$(ARM64_LIBDIR)/pkgconfig \
	$(MAKE) --no-print-directory B=$(ARM64_B) CC=$(ARM64_CC) \
	AR=aarch64-linux-gnu-ar \
	CPPFLAGS='-isystem $(abspath $(ARM64_SYSROOT))/usr/include' \
	LDFLAGS='-L$(abspath $(ARM64_SYSROOT))$(ARM64_LIBDIR) -Wl,-rpath-link,$(abspath $(ARM64_SYSROOT))$(ARM64_LIBDIR) -Wl,-rpath-link,$(abspath $(ARM64_SYSROOT))/lib/aarch64-linux-gnu'

.PHONY: check-arm64 deps-arm64
deps-arm64:
	$(Q)missing=""; \
	command -v $(ARM64_CC) >/dev/null 2>&1 || missing="$$missing gcc-aarch64-linux-gnu"; \
	command -v $(ARM64_QEMU) >/dev/null 2>&1 || missing="$$missing qemu-user-static"; \
	$(need_debs)
	$(Q)dpkg --print-foreign-architectures | grep -qx arm64 || { \
		if [ "$$(id -u)" = 0 ]; then \
			echo "  DEPS     dpkg --add-architecture arm64"; \
			dpkg --add-architecture arm64 && apt-get update -qq >/dev/null || exit 1; \
		else \
			echo "rculist: check-arm64 needs the arm64 architecture: dpkg --add-architecture arm64 && apt-get update" >&2; \
			exit 1; \
		fi; }
	$(Q)mkdir -p $(ARM64_SYSROOT); \
	for p in $(ARM64_DEBS); do \
		dpkg-query -W -f '$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' && continue; \
		grep -qx "$$p" $(ARM64_SYSROOT)/.unpacked 2>/dev/null && continue; \
		sim=$$(apt-get install -s $$p 2>/dev/null) || { \
			echo "rculist: apt cannot find $$p (dpkg --add-architecture arm64 && apt-get update)" >&2; \
			exit 1; }; \
		if [ "$$(id -u)" = 0 ] && ! printf '%s\n' "$$sim" | grep -q '^Remv'; then \
			echo "  DEPS     apt-get install $$p"; \
			$(call apt_install,$$p) || exit 1; \
			continue; \
		fi; \
		debs=$$(printf '%s\n' "$$sim" | sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1=\2/p'); \
		echo "  DEPS     $$p: unpacked into $(ARM64_SYSROOT) ($$(echo $$debs | wc -w) packages;" \
			"installing it would remove:$$(printf '%s\n' "$$sim" | sed -n 's/^Remv \([^ ]*\).*/ \1/p' | tr -d '\n'))"; \
		(cd $(ARM64_SYSROOT) && apt-get download -qq $$debs 2>/dev/null) || exit 1; \
		for d in $(ARM64_SYSROOT)/*.deb; do dpkg-deb -x $$d $(ARM64_SYSROOT) || exit 1; done; \
		rm -f $(ARM64_SYSROOT)/*.deb; \
		sr=$$(cd $(ARM64_SYSROOT) && pwd); \
		for f in $$sr$(ARM64_LIBDIR)/*.so; do \
			grep -qs 'GNU ld script' $$f || continue; \
			for a in $$(grep -o ' /[^ )]*' $$f); do \
				[ -e $$a ] || [ ! -e $$sr$$a ] || sed -i "s| $$a| $$sr$$a|g" $$f; \
			done; \
		done; \
		echo "$$p" >> $(ARM64_SYSROOT)/.unpacked; \
	done

$(ARM64_SHIM): tests/arm64/exec_qemu.c | deps-arm64
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(ARM64_CC) -std=gnu11 $(WARNINGS) -O2 -shared -fPIC -o $@ $< -ldl

# The unit tests that fork() while other threads are creating threads
# (each thread's first rculist_free_rcu() is what they race with fork).
# Under bookworm's qemu-user 7.2 the forked child hangs in qemu itself:
# on a lock in qemu's own memory, every host signal blocked, its alarm()
# pending for ever.  tests/arm64/fork_probe.c, which has no rculist and
# no liburcu in it, hangs the same way in some runs, so check-arm64
# runs it as evidence (ARM64_PROBE_SECS at most) and always leaves these
# tests out under qemu: the hang (or a crash) comes only some of the time,
# so a probe that ends proves nothing.  They run natively in make check.
ARM64_FORK_TESTS  := reclaim/fork_during_first_frees|fork/fork_during_first_free_rcu_does_not_deadlock
ARM64_PROBE       := $(ARM64_B)/fork_probe
ARM64_PROBE_SECS  := 60

$(ARM64_PROBE): tests/arm64/fork_probe.c | deps-arm64
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(ARM64_CC) -std=gnu11 $(WARNINGS) -O2 -pthread -o $@ $<

check-arm64: $(ARM64_SHIM) $(ARM64_PROBE) ## Cross-build for aarch64 and run the unit suites and a short torture under qemu-user
	+$(Q)start=$$(date +%s); \
	$(ARM64_MAKE) $(foreach f,$(FLAVORS),$(ARM64_B)/tests/$(f)/unit $(ARM64_B)/torture/$(f)/torture) || exit 1; \
	built=$$(date +%s); \
	if timeout -s KILL $(ARM64_PROBE_SECS) sh -c '$(ARM64_RUN) $(ARM64_PROBE) 200'; then \
		echo "== fork_probe ended this time; qemu 7.2 hangs or crashes such children only some of the time"; \
	else \
		echo "== $(ARM64_PROBE) (no rculist in it) did not end in $(ARM64_PROBE_SECS) s: qemu hung a forked child"; \
	fi; \
	echo "== left out under qemu: $(ARM64_FORK_TESTS)"; \
	set -- --filter '!($(ARM64_FORK_TESTS))'; \
	for f in $(FLAVORS); do \
		echo "== arm64 (qemu-user), unit tests, flavour $$f"; \
		$(ARM64_RUN) $(ARM64_B)/tests/$$f/unit --jobs 2 "$$@" || exit 1; \
		echo "== arm64 (qemu-user), torture, flavour $$f, $(ARM64_TORTURE_SECONDS) s"; \
		$(ARM64_RUN) $(ARM64_B)/torture/$$f/torture $(ARM64_TORTURE_SECONDS) || exit 1; \
	done; \
	echo "== make check-arm64: passed (build $$((built - start)) s, runs $$(($$(date +%s) - built)) s)"
