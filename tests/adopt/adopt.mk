# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/adopt/adopt.mk - what someone adopting rculist does, checked:
#   check-adopt   make install into a temporary PREFIX (and DESTDIR), build
#                 every example out of tree with nothing but pkg-config,
#                 shared and --static, run them; the same with cmake's
#                 find_package(rculist) (tests/adopt/cmake); make uninstall,
#                 and find no file left behind
#   format-check  clang-format (kernel style, .clang-format) on our files
#                 (about 2 s CPU)
#   check-targets make help lists the targets, and every target HACKING.md
#                 names (and help, lint, examples) is run by make check or
#                 make check-full (under 1 s)
#   lint          cppcheck and clang-tidy on core/ flavors/ include/
#                 (about 25 s CPU: make check-full)
CHECKS += check-adopt format-check check-targets
CHECKS_FULL += lint

ADOPT_TMP = $(abspath $(B))/adopt
# The examples, as a user would build them from the installed files (the
# installed .pc files first, then PKG_CONFIG_PATH, e.g. another liburcu).
adopt_pc = $$(pkg-config $(2) --cflags --libs rculist-$(1))

.PHONY: check-adopt format-check check-targets lint
check-adopt: lib ## Install to a temporary prefix, build the examples via pkg-config, uninstall
	@echo "== adopt: make install PREFIX=$(ADOPT_TMP)/prefix, examples via pkg-config"
	$(Q)rm -rf $(ADOPT_TMP) && mkdir -p $(ADOPT_TMP)/out
	$(Q)$(MAKE) --no-print-directory install PREFIX=$(ADOPT_TMP)/prefix GEN_B=$(ADOPT_TMP)/gen >/dev/null
	$(Q)pfx=$(ADOPT_TMP)/prefix; out=$(ADOPT_TMP)/out; set -e; \
	export PKG_CONFIG_PATH=$$pfx/lib/pkgconfig$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH}; \
	for f in $(FLAVORS); do \
		pkg-config --exists rculist-$$f; \
		[ "$$(pkg-config --modversion rculist-$$f)" = $(VERSION) ]; \
		$(CC) examples/route_table/route_table.c -o $$out/route_table-$$f \
			$(call adopt_pc,$$f) -Wl,-rpath,$$pfx/lib; \
		$(CC) examples/qsbr_server/qsbr_server.c -o $$out/qsbr_server-$$f \
			$(call adopt_pc,$$f) -ldl -Wl,-rpath,$$pfx/lib; \
		$(CC) -static examples/route_table/route_table.c -o $$out/route_table-static-$$f \
			$(call adopt_pc,$$f,--static) 2>$$out/static-$$f.log; \
		printf '   %-5s shared: ' $$f; $$out/route_table-$$f 2 20; \
		printf '   %-5s static: ' $$f; $$out/route_table-static-$$f 2 20; \
		printf '   %-5s ' $$f; $$out/qsbr_server-$$f 1 500 | tail -n 1; \
		$(CXX) -std=c++17 tests/cxx/p2545.cc -o $$out/p2545-$$f \
			$(call adopt_pc,$$f) -pthread -Wl,-rpath,$$pfx/lib; \
		printf '   %-5s C++, <rculist/rcu.hpp> only: ' $$f; $$out/p2545-$$f | tail -n 1; \
	done; \
	pl="examples/libplugin/plugin.c -fPIC -fvisibility=hidden -shared -DPLUGIN_FLAVOR=\"bp\""; \
	$(CC) $$pl -o $$out/libplugin-bp.so $(call adopt_pc,bp) -Wl,-rpath,$$pfx/lib; \
	$(CC) $$pl -DPLUGIN_EMBEDDED -o $$out/libplugin-static.so \
		$$(pkg-config --cflags rculist-bp) \
		-L$$(pkg-config --variable=libdir rculist-bp) \
		-Wl,-Bstatic -lrculist-bp -Wl,-Bdynamic -Wl,--exclude-libs,librculist-bp.a \
		$$(pkg-config --libs liburcu-bp) -lurcu-common -lpthread -ldl; \
	! nm -D --defined-only $$out/libplugin-static.so | grep ' rculist_'; \
	$(CC) -DHOST_RCULIST -DHOST_FLAVOR=\"memb\" examples/libplugin/host.c -o $$out/host-memb-linked-bp \
		-L$$out -lplugin-bp -Wl,-rpath,$$out $(call adopt_pc,memb) -Wl,-rpath,$$pfx/lib -lpthread; \
	$(CC) -DHOST_DLOPEN examples/libplugin/host.c -o $$out/host-none-dlopen -ldl -lpthread; \
	printf '   '; $$out/host-memb-linked-bp 1 500; \
	for p in bp static; do \
		printf '   '; $$out/host-none-dlopen $$out/libplugin-$$p.so 10 100; \
	done
	@echo "== adopt: find_package(rculist) with cmake, rculist::<flavour> and rculist::<flavour>_static"
	$(Q)pfx=$(ADOPT_TMP)/prefix; cm=$(ADOPT_TMP)/cmake; set -e; \
	cmake_run() { d=$$1; shift; cmake -S tests/adopt/cmake -B $$d -DCMAKE_PREFIX_PATH=$$pfx \
		-DCMAKE_C_COMPILER=$(CC) -DCMAKE_CXX_COMPILER=$(CXX) "$$@" >$$d.log 2>&1; }; \
	cmake_run $$cm || { cat $$cm.log >&2; exit 1; }; \
	cmake --build $$cm -j2 >$$cm-build.log 2>&1 || { cat $$cm-build.log >&2; exit 1; }; \
	for f in $(FLAVORS); do \
		for k in "" static-; do \
			out=$$($$cm/route_table-$$k$$f 2 20); \
			case "$$out" in "route_table [$$f]: "*", 0 bad routes seen") ;; \
			*) echo "cmake route_table-$$k$$f: $$out" >&2; exit 1;; esac; \
			needs=$$(readelf -d $$cm/route_table-$$k$$f | sed -n 's/.*Shared library: \[\(librculist-[a-z]*\.so\.[0-9]*\)\]/\1/p'); \
			want=; [ -n "$$k" ] || want=librculist-$$f.so.$(MAJOR); \
			[ "$$needs" = "$$want" ] || { echo "cmake route_table-$$k$$f needs '$$needs', expected '$$want'" >&2; exit 1; }; \
		done; \
		printf '   %-5s rculist::%s (needs %s), rculist::%s_static (no librculist needed): %s\n' \
			$$f $$f librculist-$$f.so.$(MAJOR) $$f "$${out#*: }"; \
		printf '   %-5s rculist::%s, a C++ program: ' $$f $$f; $$cm/p2545-$$f | tail -n 1; \
	done; \
	! cmake_run $$cm-two -DRCULIST_TWO_FLAVORS=ON; \
	grep -q 'INTERFACE_RCULIST_FLAVOR property of "rculist::[a-z]*" does' $$cm-two.log || \
		{ cat $$cm-two.log >&2; exit 1; }; \
	echo "   one target linking rculist::memb and rculist::qsbr: cmake refuses to generate it"; \
	! cmake_run $$cm-none -DRCULIST_COMPONENT=nosuch; \
	grep -q 'rculist: no flavour nosuch' $$cm-none.log || { cat $$cm-none.log >&2; exit 1; }; \
	cmake_run $$cm-qsbr -DRCULIST_COMPONENT=qsbr || { cat $$cm-qsbr.log >&2; exit 1; }; \
	echo "   COMPONENTS qsbr found; COMPONENTS nosuch fails naming the flavours"
	@echo "== adopt: make uninstall leaves no file behind"
	$(Q)$(MAKE) --no-print-directory uninstall PREFIX=$(ADOPT_TMP)/prefix
	$(Q)left=$$(find $(ADOPT_TMP)/prefix ! -type d); \
	[ -z "$$left" ] || { echo "left after uninstall:" $$left >&2; exit 1; }
	@echo "== adopt: DESTDIR=$(ADOPT_TMP)/stage PREFIX=/usr, then uninstall"
	$(Q)$(MAKE) --no-print-directory install DESTDIR=$(ADOPT_TMP)/stage PREFIX=/usr GEN_B=$(ADOPT_TMP)/gen >/dev/null
	$(Q)test -f $(ADOPT_TMP)/stage/usr/include/rculist.h && \
	    test -f $(ADOPT_TMP)/stage/usr/lib/pkgconfig/rculist-qsbr.pc && \
	    grep -q '^prefix=/usr$$' $(ADOPT_TMP)/stage/usr/lib/pkgconfig/rculist-qsbr.pc || \
	    { echo "DESTDIR install: files or .pc prefix wrong" >&2; exit 1; }
	$(Q)$(MAKE) --no-print-directory uninstall DESTDIR=$(ADOPT_TMP)/stage PREFIX=/usr
	$(Q)left=$$(find $(ADOPT_TMP)/stage ! -type d); \
	[ -z "$$left" ] || { echo "left after DESTDIR uninstall:" $$left >&2; exit 1; }
	$(Q)rm -rf $(ADOPT_TMP)

# ------------------------------------------------------------- tooling
# clang-format must leave these unchanged (`make format-check` fails and
# lists them otherwise).  Regions it would damage (tables, one-line
# functions, aligned initialisers) sit between /* clang-format off */ and
# /* clang-format on */.
FORMAT_FILES = $(sort $(wildcard core/*.c core/*.h flavors/*.c bench/*.c bench/*.h \
	tests/*/*.c tests/abi/*.cc tests/unit/conc.h examples/*/*.c examples/*/*.h))
# Only reported: the public headers (include/) and tests/unit/check.h and
# tests/unit/debug_expect.h keep hand-aligned macro continuations and iterator
# for-loops laid out clause by clause, which clang-format 14 would repack;
# tests/abi/iterators.h has `(sig) * 10`, which it takes for a cast, and its
# WALK table lines run past 80 columns.
FORMAT_INFO = $(sort $(wildcard include/*.h include/rculist/*.h tests/unit/check.h \
	tests/unit/debug_expect.h tests/abi/*.h))

# Fails if .clang-format's ForEachMacros misses an iterator, or if
# clang-format would change a file of FORMAT_FILES; reports, per file,
# how many places it would change in FORMAT_INFO.  Nothing is rewritten.
format-check: ## Check .clang-format lists every iterator and our sources are clang-formatted
	$(Q)missing=; for i in $(ITERATORS); do \
		grep -q "^  - '$$i'$$" .clang-format || missing="$$missing $$i"; done; \
	[ -z "$$missing" ] || { echo ".clang-format ForEachMacros lacks:$$missing" >&2; exit 1; }
	@echo "== format-check: ForEachMacros lists all $(words $(ITERATORS)) iterators"
	$(Q)command -v clang-format >/dev/null || { echo "clang-format not installed"; exit 0; }; \
	bad=; for f in $(FORMAT_FILES); do \
		clang-format --dry-run -Werror $$f >/dev/null 2>&1 || bad="$$bad $$f"; \
	done; \
	if [ -n "$$bad" ]; then \
		echo "clang-format would change (run clang-format -i on them):" >&2; \
		for f in $$bad; do printf '   %3d  %s\n' \
			$$(clang-format --dry-run $$f 2>&1 | grep -c 'warning:') $$f >&2; done; \
		exit 1; \
	fi; \
	echo "== format-check: $(words $(FORMAT_FILES)) files clang-formatted"; \
	total=0; for f in $(FORMAT_INFO); do \
		n=$$(clang-format --dry-run $$f 2>&1 | grep -c 'warning:'); \
		[ "$$n" = 0 ] || printf '   %3d  %s\n' $$n $$f; total=$$((total + n)); \
	done; echo "   $$total places clang-format would change in $(words $(FORMAT_INFO)) hand-aligned headers (informative)"

LINT_TIDY_CHECKS := -*,clang-analyzer-*,bugprone-*,-bugprone-reserved-identifier,$\
	-bugprone-macro-parentheses,-bugprone-easily-swappable-parameters,$\
	-bugprone-assignment-in-if-condition,$\
	-clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling

lint: ## cppcheck and clang-tidy on core/ flavors/ include/ (fails on findings)
	@echo "== lint: cppcheck"
	$(Q)cppcheck --quiet --enable=warning,portability,performance --std=c11 \
		--inline-suppr -Iinclude --suppress=missingIncludeSystem --suppress=toomanyconfigs \
		--error-exitcode=1 core flavors include
	@echo "== lint: clang-tidy (headers through the sources that include them)"
	$(Q)out=$$(for f in $(CORE_SRC) $(wildcard flavors/*.c); do \
		clang-tidy --quiet -checks='$(LINT_TIDY_CHECKS)' \
			-header-filter='include/rculist' $$f -- -std=gnu11 -Iinclude 2>/dev/null; \
	done); if printf '%s\n' "$$out" | grep -q 'warning:\|error:'; then \
		printf '%s\n' "$$out" >&2; exit 1; fi

# The targets that nothing but a check keeps from rotting: those HACKING.md
# names in `backquotes` or after "make ", and help, lint and examples.
# Each must be a target and be run by make check (CHECKS) or make
# check-full (CHECKS_FULL and its other steps), or be one of these, each
# run another way:
#   examples             built by check-examples
#   help                 run here
#   install uninstall    run by check-adopt
#   deps deps-tools check-prep   steps of make check itself
#   check check-full     the runs themselves
#   clean                run by .ci/run between its two compilers
#   check-arm64          alone: it adds dpkg's arm64 architecture
#   bench-full           check-bench runs each of its sections, quick
#   check-model-reclaim  run by check-model
TARGETS_CHECKED_ELSEWHERE := examples help install uninstall deps deps-tools \
	check-prep check check-full clean check-arm64 bench-full check-model-reclaim
TARGETS_NAMED = $(sort help lint examples $(shell sed -n \
	-e 's/`\([a-z][a-z0-9-]*\)`/\n\1\n/gp' -e 's/make \([a-z][a-z0-9-]*\)/\n\1\n/gp' \
	HACKING.md | grep -x '[a-z][a-z0-9-]*'))
check-targets: ## make help works, and every target HACKING.md names is run by make check or check-full
	$(Q)mkdir -p $(B) && $(MAKE) --no-print-directory help > $(B)/help.txt; \
	n=$$(grep -c '^  [a-z]' $(B)/help.txt); [ "$$n" -ge 20 ] || \
		{ echo "make help listed $$n targets" >&2; exit 1; }; \
	targets=$$($(MAKE) --no-print-directory -qp 2>/dev/null | \
		sed -n 's/^\([a-z][a-z0-9-]*\):.*/\1/p' | sort -u); \
	run=' $(CHECKS) $(FULL_STEPS) $(TARGETS_CHECKED_ELSEWHERE) '; bad=; named=0; \
	for t in $(TARGETS_NAMED); do \
		printf '%s\n' "$$targets" | grep -qx "$$t" || continue; \
		named=$$((named + 1)); \
		case "$$run" in *" $$t "*) ;; *) bad="$$bad $$t";; esac; \
	done; \
	[ -z "$$bad" ] || { echo "run by neither make check nor make check-full:$$bad" >&2; exit 1; }; \
	echo "== check-targets: make help lists $$n targets; the $$named that HACKING.md names (with help, lint, examples) are all run"
