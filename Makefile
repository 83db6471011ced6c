# SPDX-License-Identifier: LGPL-2.1-or-later
#
# rculist - RCU-protected intrusive lists on liburcu's flavours.
# One plain Makefile.  `make help` lists the targets; V=1 shows commands.

FLAVORS   := memb qsbr bp mb

VERSION_H := include/rculist/version.h
version_part = $(shell sed -n 's/^\#define RCULIST_VERSION_$(1)[[:space:]]*//p' $(VERSION_H))
MAJOR     := $(call version_part,MAJOR)
VERSION   := $(MAJOR).$(call version_part,MINOR).$(call version_part,PATCH)

# GNU install variables.
PREFIX     ?= /usr/local
prefix     ?= $(PREFIX)
exec_prefix ?= $(prefix)
includedir ?= $(prefix)/include
libdir     ?= $(exec_prefix)/lib
pkgconfigdir ?= $(libdir)/pkgconfig
cmakedir   ?= $(libdir)/cmake/rculist
mandir     ?= $(prefix)/share/man
datadir    ?= $(prefix)/share
DESTDIR    ?=
INSTALL    ?= install

CC       ?= cc
# DWARF 4: valgrind 3.19 cannot read clang 14's default DWARF 5.
CFLAGS   ?= -O2 -g -gdwarf-4
WARNINGS := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wcast-qual
ifeq ($(WERROR),1)
WARNINGS += -Werror
endif
# liburcu and Criterion as pkg-config finds them: PKG_CONFIG_PATH (or
# PKG_CONFIG_LIBDIR) names another prefix, and every compile, link and run
# path follows it.  Deferred (=): pkg-config may only be there once `make
# deps` has run.  A liburcu outside the dynamic linker's own directories
# gets a run path, in the libraries and in every program linked here.
PKG_CONFIG ?= pkg-config
pkg = $(shell $(PKG_CONFIG) $(1) 2>/dev/null)
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
SYS_LIBDIRS := /lib /usr/lib /lib64 /usr/lib64 $(if $(MULTIARCH),/lib/$(MULTIARCH) /usr/lib/$(MULTIARCH))
# liburcu's headers are a dependency's, included as system headers (as
# CMake does for imported targets): our warnings are not for its code.
# A -I of a directory the compiler searches anyway is dropped (made
# -isystem, it would come before C++'s own headers).
SYS_INCDIRS := /usr/include /usr/local/include $(if $(MULTIARCH),/usr/include/$(MULTIARCH))
URCU_CFLAGS = $(foreach w,$(call pkg,--cflags liburcu-memb),$(if $(filter -I%,$(w)),$(if \
	$(filter $(SYS_INCDIRS),$(w:-I%=%)),,-isystem $(w:-I%=%)),$(w)))
URCU_LIBDIR = $(call pkg,--variable=libdir liburcu-memb)
URCU_INCLUDEDIR = $(call pkg,--variable=includedir liburcu-memb)
URCU_RPATH  = $(if $(filter-out $(SYS_LIBDIRS),$(URCU_LIBDIR)),-Wl$(comma)-rpath$(comma)$(URCU_LIBDIR))
# liburcu's flavour library with its common part: urcu_libs,<flavour>.
urcu_libs   = $(call pkg,--libs liburcu-$(1)) $(URCU_RPATH)
CRITERION_CFLAGS = $(call pkg,--cflags criterion)
CRITERION_LIBS   = $(call pkg,--libs criterion)
comma := ,

# Dependency files: -MMD leaves system headers out (check-urcu-prefix
# builds with -MD, to see which liburcu headers were read).
DEPFLAGS    ?= -MMD -MP
ALL_CPPFLAGS = -Iinclude $(URCU_CFLAGS) $(DEPFLAGS) $(CPPFLAGS)
ALL_CFLAGS   = -std=gnu11 $(WARNINGS) $(CFLAGS)
# Library code: position independent; liburcu's reader state reached
# with initial-exec TLS (see docs/performance.md).
LIB_CFLAGS   = -fPIC -ftls-model=initial-exec -DRCULIST__LIBRARY $(LIB_LTO_CFLAGS)

# With gcc the library objects also carry GIMPLE beside their machine code
# (fat LTO objects, archived by gcc-ar so that the archive index sees
# both): a program compiled and linked with -flto against an archive gets
# the read side inlined, one linked without -flto (or by clang, which
# ignores gcc's LTO sections) gets the machine code.  clang 14 cannot
# write fat objects, and bitcode-only archives would be unusable without
# -flto, so a clang build makes ordinary objects.  LTO=0: never.
CC_IS_GCC := $(shell $(CC) -v 2>&1 | grep -q '^gcc version' && echo 1)
LTO       ?= $(if $(CC_IS_GCC),1,0)
ifeq ($(LTO),1)
LIB_LTO_CFLAGS := -flto -ffat-lto-objects
LIB_AR         := gcc-ar
else
LIB_LTO_CFLAGS :=
LIB_AR         := $(AR)
endif

B        := build
LIBDIR_B := $(B)/lib

ifeq ($(V),1)
Q :=
quiet = @true
else
Q := @
quiet = @printf '  %-8s %s\n' $(1) $(2)
endif

CORE_SRC := $(sort $(wildcard core/*.c))
CORE_OBJ := $(CORE_SRC:%.c=$(B)/obj/%.o)

lib_a  = $(LIBDIR_B)/librculist-$(1).a
lib_so = $(LIBDIR_B)/librculist-$(1).so
LIBS_A  := $(foreach f,$(FLAVORS),$(call lib_a,$(f)))
LIBS_SO := $(foreach f,$(FLAVORS),$(call lib_so,$(f)).$(VERSION))
# The files that carry install directories (.pc, CMake package) live in
# GEN_B: check-adopt installs to temporary prefixes with a GEN_B of its
# own, leaving build/pkgconfig alone for the checks running beside it.
GEN_B   ?= $(B)
PCS     := $(foreach f,$(FLAVORS),$(GEN_B)/pkgconfig/rculist-$(f).pc)
CMAKE_CFGS := $(GEN_B)/cmake/rculist-config.cmake $(GEN_B)/cmake/rculist-config-version.cmake

.PHONY: all lib help deps check install uninstall clean
.DEFAULT_GOAL := all
.SECONDARY:

all: lib ## Build the flavour libraries, static and shared, their .pc files and CMake package

lib: $(LIBS_A) $(LIBS_SO) $(PCS) $(CMAKE_CFGS)

help: ## List the targets
	@grep -hE '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | \
		awk 'BEGIN {FS = ":.*## "}; {printf "  %-18s %s\n", $$1, $$2}'

# The libraries need liburcu-dev and the tests Criterion (deps); the
# other checks of `make check` a C++ compiler, clang (the optimiser
# checks build with gcc and clang), man(1), cmake and patch(1) (deps-tools).  Each installs
# what is missing when it can (root with apt-get), or names it in one line.
DEB_PACKAGES := liburcu-dev libcriterion-dev pkg-config
DEB_TOOLS    := g++:g++ clang:clang man:man-db cmake:cmake patch:patch
# The checks run several at a time (make -j), and two of them may each
# install a package: apt_install takes one lock (flock(1), util-linux)
# around apt-get, so the second waits for the first instead of failing
# on apt's own lock ("Could not get lock /var/lib/apt/lists/lock").
APT_LOCK := /tmp/rculist-apt.lock
apt_install = (flock 9 && apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -qq $(1)) 9>$(APT_LOCK) >/dev/null
need_debs = \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "  DEPS     apt-get install$$missing"; \
			$(call apt_install,$$missing) || exit 1; \
		else \
			echo "rculist: missing packages, install them with: apt-get install$$missing" >&2; \
			exit 1; \
		fi; \
	fi

.PHONY: deps-tools
deps: ## Install missing dependencies (Debian, as root), or name them
	$(Q)missing=""; \
	if ! command -v pkg-config >/dev/null 2>&1 || \
	   ! pkg-config --exists $(FLAVORS:%=liburcu-%) criterion; then \
		missing=" $(DEB_PACKAGES)"; \
	fi; \
	$(need_debs)

deps-tools: deps
	$(Q)missing=""; \
	for t in $(DEB_TOOLS); do \
		command -v $${t%%:*} >/dev/null 2>&1 || missing="$$missing $${t#*:}"; \
	done; \
	$(need_debs)

$(B)/.deps: | deps
	$(Q)mkdir -p $(B) && touch $@

# The core is compiled once; each flavour adds one object.
$(B)/obj/%.o: %.c | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LIB_CFLAGS) -c $< -o $@

# core/preserve.c is assembly alone: an LTO object's symbol table would
# not name what its top-level asm defines, and the archive's index
# would leave it out of a static link.
$(B)/obj/core/preserve.o: LIB_LTO_CFLAGS :=

$(LIBDIR_B)/librculist-%.a: $(CORE_OBJ) $(B)/obj/flavors/%.o
	$(call quiet,AR,$@)
	$(Q)mkdir -p $(dir $@) && rm -f $@
	$(Q)$(LIB_AR) rcs $@ $^

# Each flavour's symbols live in a version node of its own
# (RCULIST_<FLAVOUR>_<major>): the dynamic linker binds a reference made
# against one flavour library to that library only, so libraries of
# different flavours coexist in one process.  -z nodelete keeps a flavour
# library (and so liburcu) mapped after the dlclose() of a plugin that
# loaded it: liburcu's call_rcu thread outlives any unload.
upper = $(shell echo $(1) | tr a-z A-Z)
$(B)/map/rculist-%.map: core/rculist.map.in $(VERSION_H)
	$(Q)mkdir -p $(dir $@)
	$(Q)sed 's/@NODE@/RCULIST_$(call upper,$*)_$(MAJOR)/' $< > $@

$(LIBDIR_B)/librculist-%.so.$(VERSION): $(CORE_OBJ) $(B)/obj/flavors/%.o $(B)/map/rculist-%.map
	$(call quiet,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -shared $(LDFLAGS) -o $@ $(CORE_OBJ) $(B)/obj/flavors/$*.o \
		-Wl,-soname,librculist-$*.so.$(MAJOR) \
		-Wl,--version-script=$(B)/map/rculist-$*.map -Wl,-Bsymbolic \
		-Wl,-z,nodelete $(call urcu_libs,$*) -lpthread -ldl
	$(Q)ln -sf librculist-$*.so.$(VERSION) $(LIBDIR_B)/librculist-$*.so.$(MAJOR)
	$(Q)rm -f $(LIBDIR_B)/librculist-$*.so && $(call dev_link_script,$*) > $(LIBDIR_B)/librculist-$*.so

# What -lrculist-<flavour> finds when linking against the shared library:
# a GNU ld script (as libc.so is) that names the real library and stops
# the link of a program that names two flavours, with a message naming
# both.  A library of one flavour may still be loaded beside a program of
# another: only one link is refused.
dev_link_script = { \
	echo '/* GNU ld script: -lrculist-$(1) links librculist-$(1).so.$(MAJOR). */'; \
	echo 'INPUT(librculist-$(1).so.$(MAJOR))'; \
	echo 'HIDDEN(rculist__linked_$(1) = 1);'; \
	$(foreach o,$(filter-out $(1),$(FLAVORS)),echo 'ASSERT(!DEFINED(rculist__linked_$(o)), "rculist: -lrculist-$(1) and -lrculist-$(o) are both linked into this program: link one flavour (libraries of other flavours may still be loaded beside it)")';) \
	}

# The .pc files and the CMake package carry the install directories (and
# the package where liburcu was found): a stamp holding them is rewritten,
# and the files regenerated, when PREFIX & co. or liburcu's place change.
PC_DIRS = $(prefix):$(libdir):$(includedir):$(datadir):$(URCU_LIBDIR):$(URCU_INCLUDEDIR)
$(GEN_B)/pkgconfig/.dirs: FORCE | $(B)/.deps
	$(Q)mkdir -p $(dir $@)
	$(Q)[ "$$(cat $@ 2>/dev/null)" = '$(PC_DIRS)' ] || echo '$(PC_DIRS)' > $@
.PHONY: FORCE
FORCE:

$(GEN_B)/pkgconfig/rculist-%.pc: core/rculist.pc.in $(VERSION_H) $(GEN_B)/pkgconfig/.dirs
	$(call quiet,GEN,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)sed -e 's|@prefix@|$(prefix)|' -e 's|@libdir@|$(libdir)|' \
		-e 's|@includedir@|$(includedir)|' -e 's|@version@|$(VERSION)|' \
		-e 's|@datadir@|$(datadir)|' \
		-e 's|@flavor@|$*|g' $< > $@

# The CMake package: find_package(rculist), imported targets rculist::<f>
# and rculist::<f>_static (core/rculist-config.cmake.in).
SIZEOF_VOID_P = $(shell $(CC) -dM -E -x c /dev/null | sed -n 's/^\#define __SIZEOF_POINTER__ //p')
$(GEN_B)/cmake/rculist-%.cmake: core/rculist-%.cmake.in $(VERSION_H) $(GEN_B)/pkgconfig/.dirs
	$(call quiet,GEN,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)sed -e 's|@libdir@|$(libdir)|g' -e 's|@includedir@|$(includedir)|g' \
		-e 's|@VERSION@|$(VERSION)|g' -e 's|@MAJOR@|$(MAJOR)|g' \
		-e 's|@FLAVORS@|$(subst $() ,;,$(FLAVORS))|g' \
		-e 's|@urcu_libdir@|$(URCU_LIBDIR)|g' -e 's|@urcu_includedir@|$(URCU_INCLUDEDIR)|g' \
		-e 's|@SIZEOF_VOID_P@|$(SIZEOF_VOID_P)|g' $< > $@

# ---------------------------------------------------------------- tests
# Each suite is compiled once and linked with every flavour library.
TEST_SRC  := $(sort $(wildcard tests/unit/*.c))
TEST_OBJ  := $(TEST_SRC:%.c=$(B)/%.o)
TEST_LIBS  = -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) $(CRITERION_LIBS) $(URCU_RPATH) -lpthread
test_bin   = $(B)/tests/$(1)/unit

$(B)/tests/%.o: tests/%.c | $(B)/.deps
	$(call quiet,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(CRITERION_CFLAGS) $(ALL_CFLAGS) -c $< -o $@

$(B)/tests/%/unit: $(TEST_OBJ) $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(call quiet,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(TEST_OBJ) -lrculist-$* $(TEST_LIBS)

CHECKS := check-unit

.PHONY: check-unit $(FLAVORS:%=check-unit-%)
# UNIT_FLAVORS: the flavours whose suites check-unit runs (.ci/run's clang
# pass names two).
UNIT_FLAVORS ?= $(FLAVORS)
check-unit: $(UNIT_FLAVORS:%=check-unit-%) ## Run the Criterion suites once per flavour
# Every walking test has a .timeout; Criterion 2.4.1 can still wait for
# ever (--timeout does not bound a test without one), so each suite run is
# bounded too, and says so when it is cut.
UNIT_TIMEOUT ?= 300
# The forks of tests/unit/fork.c (RCULIST_TEST_FORKS, 10 to 1000): 250
# per flavour here, the full thousand in make check-full
# (check-unit-full); the passes that repeat the suites (check-debug, the
# second compiler in .ci/run, check-urcu-prefix) make fewer (REPEAT_FORKS).
UNIT_FORKS   ?= 250
FULL_FORKS   ?= 1000
REPEAT_FORKS ?= 100
# The least time each concurrent test keeps updating while its readers
# walk (RCULIST_TEST_CONC_SECS, tests/unit/conc.h): 0.2 s in make check,
# the suites' own 0.4 s in make check-full.
UNIT_CONC_SECS ?= 0.2
FULL_CONC_SECS ?= 0.4
UNIT_ENV = RCULIST_TEST_CONC_SECS=$(UNIT_CONC_SECS)
# UNIT_FILTER: a Criterion --filter for a representative run (the
# liburcu copy of check-urcu-prefix runs the quick suites only).
UNIT_FILTER  ?=
$(FLAVORS:%=check-unit-%): check-unit-%: $(B)/tests/%/unit
	@echo "== unit tests, flavour $*$(if $(UNIT_FILTER), (--filter '$(UNIT_FILTER)'))"
	$(Q)$(UNIT_ENV) RCULIST_TEST_FORKS=$(UNIT_FORKS) timeout -k 10 $(UNIT_TIMEOUT) $< --jobs 2 \
		$(if $(UNIT_FILTER),--filter '$(UNIT_FILTER)'); st=$$?; \
	if [ $$st -eq 124 ] || [ $$st -eq 137 ]; then \
		echo "check-unit-$*: the suite did not end within $(UNIT_TIMEOUT) s (a test hangs)" >&2; fi; \
	exit $$st

# make check-full runs the suites with the full thousand forks and the
# whole time of each concurrent test.
CHECKS_FULL += check-unit-full
.PHONY: check-unit-full
check-unit-full: ## The unit suites with $(FULL_FORKS) forks per flavour, $(FULL_CONC_SECS) s per concurrent test (make check-full)
	$(Q)$(MAKE) --no-print-directory check-unit UNIT_FORKS=$(FULL_FORKS) UNIT_CONC_SECS=$(FULL_CONC_SECS)

# ---------------------------------------------------------- make check
# The checks run CHECK_JOBS at a time (make -j, one job slot each; a
# check's own sub-make builds with the slots left), longest first
# (CHECKS_LONG), each check's output kept in build/check/<check>.log and
# printed whole when it ends.  What several checks share is built first,
# once, by CHECK_PREP (the libraries, the suites, the man pages, and the
# packages the checks install: two apt-get at once would fight over
# dpkg's lock); a fragment adds to it what its check shares with others.
# At the end, a table: each check's wall and CPU seconds (its processes
# and their children) and its verdict; every check runs (make -k) so that
# one failure does not hide another.
# CHECKS_SKIP leaves some out: .ci/run's second compiler skips
# CC_NEUTRAL_CHECKS (below), which build with fixed compilers of their
# own or with none.
# CHECKS_FULL: the long variants (make check-full runs them after make
# check; fragments add to it).
NPROC      := $(shell nproc 2>/dev/null || echo 2)
# One more check than CPUs: several checks spend much of their time
# waiting (a grace period, a stall detector's timeout, sleeping readers),
# and the extra slot fills the cores they leave idle.
CHECK_JOBS_DEFAULT := $(shell expr $(NPROC) + 1)
CHECK_JOBS ?= $(CHECK_JOBS_DEFAULT)
CHECKS_SKIP ?=
CHECKS_FULL ?=
CHECKS_LONG := check-unit check-urcu-prefix check-debug check-examples
CHECK_PREP  = lib man $(foreach f,$(FLAVORS),$(call test_bin,$(f)))
CHECK_B    := $(B)/check
CHECKS_RUN  = $(filter-out $(CHECKS_SKIP),$(filter $(CHECKS),$(CHECKS_LONG)) \
	$(filter-out $(CHECKS_LONG),$(CHECKS)))

.PHONY: check-prep check-table check-failures check-full
check: ## Run every test (what CI runs), CHECK_JOBS at a time, with a table of seconds
	$(Q)$(MAKE) --no-print-directory deps-tools
	$(Q)$(MAKE) --no-print-directory -j$(CHECK_JOBS) check-prep
	$(Q)rm -rf $(CHECK_B) && mkdir -p $(CHECK_B)
	@echo "== make check: $(words $(CHECKS_RUN)) checks, $(CHECK_JOBS) at a time"
	$(Q)t0=$$(date +%s); $(MAKE) --no-print-directory -k -j$(CHECK_JOBS) -Otarget TIMED_B=$(CHECK_B) \
		$(CHECKS_RUN:%=check-timed-%); \
	$(MAKE) --no-print-directory check-table TIMED_B=$(CHECK_B) CHECK_TABLE='$(CHECKS_RUN)'; st=$$?; \
	echo "== make check: $$(($$(date +%s) - t0)) s in all"; exit $$st

# One check (or step of check-full), timed by bash (wall, user + system
# CPU of everything it ran), its output in a log printed once it ends.
TIMED_B ?= $(CHECK_B)
check-timed-%:
	$(Q)mkdir -p $(TIMED_B)
	$(Q)bash -c 'TIMEFORMAT="%R %U %S"; time { $(MAKE) --no-print-directory $* \
		>$(TIMED_B)/$*.log 2>&1; echo $$? > $(TIMED_B)/$*.status; }' \
		2>$(TIMED_B)/$*.time
	$(Q)cat $(TIMED_B)/$*.log; st=$$(cat $(TIMED_B)/$*.status); \
	[ "$$st" = 0 ] || { echo "make $*: failed (status $$st; log: $(TIMED_B)/$*.log)" >&2; exit 1; }

# make check-full: everything, one step at a time, each timed, with the
# same table: make check; the long variants of the checks (CHECKS_FULL);
# the sanitizer and memcheck runs and their self-tests; the whole of make
# check again under clang (build/clang); the planted bugs (mutants, the
# model's weakenings); make check on a machine loaded by two busy loops.
# Not here: check-arm64 (it adds the arm64 architecture to dpkg and
# installs cross packages: run it on its own).
FULL_B     := $(B)/check-full
FULL_STEPS = check $(sort $(CHECKS_FULL)) asan asan-clang asan-selftest valgrind valgrind-selftest \
	check-clang check-mutants check-mutants-hang check-model-selftest check-under-load

check-full: ## Everything: make check, CHECKS_FULL, asan, valgrind, clang, mutants, under load (hours)
	$(Q)rm -rf $(FULL_B) && mkdir -p $(FULL_B)
	@echo "== make check-full: $(FULL_STEPS)"
	$(Q)t0=$$(date +%s); $(MAKE) --no-print-directory -k TIMED_B=$(FULL_B) $(FULL_STEPS:%=check-timed-%); \
	$(MAKE) --no-print-directory check-table TIMED_B=$(FULL_B) CHECK_TABLE='$(FULL_STEPS)'; st=$$?; \
	echo "== make check-full: $$(($$(date +%s) - t0)) s in all"; exit $$st

# make check whole under clang, warnings as errors, in a tree of its own.
.PHONY: check-clang
check-clang: ## make check under clang with WERROR=1 (build/clang; part of check-full)
	$(Q)$(MAKE) --no-print-directory check CC=clang WERROR=1 B=$(B)/clang

# The table of seconds, and the verdict: every check named passed.
CHECK_TABLE ?= $(CHECKS_RUN)
check-table:
	@echo "== seconds per check (wall; CPU: user + system of all its processes)"
	$(Q)for c in $(CHECK_TABLE); do \
		echo "$$c $$(cat $(TIMED_B)/$$c.status 2>/dev/null || echo -) $$(tail -n 1 $(TIMED_B)/$$c.time 2>/dev/null)"; \
	done | awk '{ v = $$2 == "0" ? "ok" : "FAILED (" $$2 ")"; if ($$2 != "0") bad = bad " " $$1; \
		printf "   %-24s %6.0f s %6.0f s CPU  %s\n", $$1, $$3, $$4 + $$5, v; cpu += $$4 + $$5 } \
		END { printf "   %-24s %6s   %6.0f s CPU\n", "(sum)", "", cpu; \
		      if (bad != "") { print "== FAILED:" bad > "/dev/stderr"; exit 1 } }' || { \
		$(MAKE) --no-print-directory check-failures TIMED_B=$(TIMED_B) CHECK_TABLE='$(CHECK_TABLE)'; exit 1; }
	@echo "== all passed: $(CHECK_TABLE)"

# After the table, each failed check's failing lines again, so that the
# end of a long log (all that a CI page may keep) says which test failed
# and why: Criterion's [FAIL] and assertion lines, TAP's "not ok", make's
# errors, then the log's last lines.
CHECK_FAIL_RE := \[FAIL\]|\[----\].*(ssert|xpect|ailed|imeout|imed out|ignal)|^not ok|\*\*\*|FAILED|rror:|did not end
check-failures:
	$(Q)for c in $(CHECK_TABLE); do \
		[ "$$(cat $(TIMED_B)/$$c.status 2>/dev/null)" = 0 ] && continue; \
		log=$(TIMED_B)/$$c.log; \
		echo "== $$c failed: its failing lines ($$log)"; \
		grep -E '$(CHECK_FAIL_RE)' $$log 2>/dev/null | grep -v '^ok ' | tail -n 40 | sed 's/^/   /'; \
		echo "== $$c: the last lines of its log"; \
		tail -n 15 $$log 2>/dev/null | sed 's/^/   /'; \
	done

# -------------------------------------------------------------- install
install: lib ## Install headers (C and <rculist/rcu.hpp>), libraries, .pc files and the CMake package under $(DESTDIR)$(PREFIX)
	$(Q)$(INSTALL) -d $(DESTDIR)$(includedir)/rculist $(DESTDIR)$(libdir) \
		$(DESTDIR)$(pkgconfigdir)
	$(Q)$(INSTALL) -m 644 include/rculist.h $(DESTDIR)$(includedir)/
	$(Q)$(INSTALL) -m 644 include/rculist/*.h $(DESTDIR)$(includedir)/rculist/
	$(Q)$(INSTALL) -m 644 include/rculist/*.hpp $(DESTDIR)$(includedir)/rculist/
	$(Q)$(INSTALL) -m 644 $(LIBS_A) $(DESTDIR)$(libdir)/
	$(Q)$(INSTALL) -m 755 $(LIBS_SO) $(DESTDIR)$(libdir)/
	$(Q)for f in $(FLAVORS); do \
		ln -sf librculist-$$f.so.$(VERSION) $(DESTDIR)$(libdir)/librculist-$$f.so.$(MAJOR); \
		$(INSTALL) -m 644 $(LIBDIR_B)/librculist-$$f.so $(DESTDIR)$(libdir)/; \
	done
	$(Q)$(INSTALL) -m 644 $(PCS) $(DESTDIR)$(pkgconfigdir)/
	$(Q)$(INSTALL) -d $(DESTDIR)$(cmakedir)
	$(Q)$(INSTALL) -m 644 $(CMAKE_CFGS) $(DESTDIR)$(cmakedir)/
	$(Q)$(INSTALL) -d $(DESTDIR)$(datadir)/rculist
	$(Q)$(INSTALL) -m 644 core/rculist.supp core/tsan.supp $(DESTDIR)$(datadir)/rculist/
	@echo "  INSTALL  $(DESTDIR)$(prefix)"

uninstall: ## Remove what install installed
	$(Q)rm -f $(DESTDIR)$(includedir)/rculist.h
	$(Q)rm -rf $(DESTDIR)$(includedir)/rculist
	$(Q)for f in $(FLAVORS); do \
		rm -f $(DESTDIR)$(libdir)/librculist-$$f.a \
		      $(DESTDIR)$(libdir)/librculist-$$f.so* \
		      $(DESTDIR)$(pkgconfigdir)/rculist-$$f.pc; \
	done
	$(Q)rm -rf $(DESTDIR)$(datadir)/rculist $(DESTDIR)$(cmakedir)

clean: ## Remove build/
	$(Q)rm -rf $(B)

# Targets of the test, benchmark, example and manual parts, each kept
# beside its sources; they add to CHECKS what `make check` runs.
include $(sort $(wildcard tests/*/*.mk bench/*.mk examples/*.mk man/*.mk))

# The checks that build with compilers of their own (gcc and clang both,
# the aarch64 cross compilers) or with none (spin, man, the liburcu copy's
# plumbing): .ci/run runs them under its first compiler only.
CC_NEUTRAL_CHECKS := check-model check-memory-order check-typecheck \
	check-hlist-opt check-man-names check-urcu-prefix check-thread-safety \
	check-cxx-rcu check-regs

# Dependency files of objects (DEPFLAGS); those of programs built in one step
# are not read, so no pattern rule is ever asked to remake one.
-include $(wildcard $(patsubst %.o,%.d,$(shell find $(B) -name '*.o' 2>/dev/null)))

# After the fragments, which add to CHECK_PREP (a prerequisite list is
# expanded where the rule stands).
check-prep: $(CHECK_PREP)
