# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/abi/abi.mk - what an adopter's compiler and dynamic linker see:
#   check-cxx       <rculist.h> as C++11/17/20 under g++ and clang++,
#                   tests/abi/lists.cc linked with every flavour and run
#   check-strict-c  <rculist.h> under -std=c99 -pedantic, gcc and clang,
#                   every iterator of include/rculist/ used and run
#   check-abi       each librculist-<f>.so exports rculist_* only, from a
#                   version script, with a soname carrying the major
#                   version; header, library and .pc agree on the version
CHECKS += check-cxx check-strict-c check-abi

# Compilers to try; those not installed are skipped with a note.
CXX_COMPILERS ?= g++ clang++
STRICT_CCS    ?= gcc clang
CXX_STDS      ?= 11 17 20
have_tool = $(shell command -v $(1) >/dev/null 2>&1 && echo $(1))
CXX_FOUND    := $(foreach c,$(CXX_COMPILERS),$(call have_tool,$(c)))
STRICT_FOUND := $(foreach c,$(STRICT_CCS),$(call have_tool,$(c)))

ADOPT_WARN := -Wall -Wextra -Wshadow -Wcast-qual -Werror
ADOPT_LINK  = $(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$(1)
CXX_B      := $(B)/cxx

# One object per (compiler, standard), linked with each flavour.
define cxx_rules
$(CXX_B)/$(1)-$(2)/lists.o: tests/abi/lists.cc tests/abi/iterators.h | $(B)/.deps
	$$(call quiet,CXX,$$@)
	$(Q)mkdir -p $$(dir $$@)
	$(Q)$(1) -std=c++$(2) $$(ALL_CPPFLAGS) $(ADOPT_WARN) -O2 -c $$< -o $$@
$(foreach f,$(FLAVORS),$(CXX_B)/$(1)-$(2)/lists-$(f)): \
$(CXX_B)/$(1)-$(2)/lists-%: $(CXX_B)/$(1)-$(2)/lists.o $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(Q)$(1) -o $$@ $$< $$(call ADOPT_LINK,$$*) -pthread
CXX_BINS += $(foreach f,$(FLAVORS),$(CXX_B)/$(1)-$(2)/lists-$(f))
endef
$(foreach c,$(CXX_FOUND),$(foreach s,$(CXX_STDS),$(eval $(call cxx_rules,$(c),$(s)))))

define strict_rules
$(foreach f,$(FLAVORS),$(CXX_B)/strict-$(1)/strict-$(f)): \
$(CXX_B)/strict-$(1)/strict-%: tests/abi/strict.c tests/abi/iterators.h $(LIBDIR_B)/librculist-%.so.$(VERSION) | $(B)/.deps
	$$(call quiet,CC,$$@)
	$(Q)mkdir -p $$(dir $$@)
	$(Q)$(1) -std=c99 -pedantic $$(ALL_CPPFLAGS) $(ADOPT_WARN) \
		-Wstrict-prototypes -O2 $$< -o $$@ $$(call ADOPT_LINK,$$*) -lpthread
STRICT_BINS += $(foreach f,$(FLAVORS),$(CXX_B)/strict-$(1)/strict-$(f))
endef
$(foreach c,$(STRICT_FOUND),$(eval $(call strict_rules,$(c))))

.PHONY: check-cxx check-strict-c check-abi check-iterator-coverage
check-cxx: $(CXX_BINS) ## <rculist.h> as C++11/17/20 (g++, clang++), run with each flavour
	@echo "== C++: $(CXX_FOUND) x C++ $(CXX_STDS) x $(FLAVORS)"
	$(if $(filter-out $(CXX_FOUND),$(CXX_COMPILERS)),@echo "   (not installed, skipped: $(filter-out $(CXX_FOUND),$(CXX_COMPILERS)))")
	$(Q)for t in $^; do printf '   %-28s ' "$${t#$(CXX_B)/}"; $$t || exit 1; done

# Every iterator the headers define must be exercised by iterators.h.
ITERATORS = $(shell sed -n 's/^\#define \(cds_[a-z0-9_]*for_each[a-z0-9_]*\).*/\1/p' include/rculist/*.h | sort -u)
check-iterator-coverage:
	$(Q)missing=; for i in $(ITERATORS); do \
		grep -q "\<$$i(" tests/abi/iterators.h || missing="$$missing $$i"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "tests/abi/iterators.h does not use:$$missing" >&2; exit 1; fi

check-strict-c: check-iterator-coverage $(STRICT_BINS) ## Headers under -std=c99 -pedantic (gcc, clang), every iterator
	@echo "== strict C99: $(STRICT_FOUND) x $(FLAVORS), $(words $(ITERATORS)) iterators"
	$(Q)for t in $(STRICT_BINS); do printf '   %-28s ' "$${t#$(CXX_B)/}"; $$t || exit 1; done

# One object, linked with each flavour (and, once, with two: refused).
$(CXX_B)/version.o: tests/abi/version.c | $(B)/.deps
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@
$(CXX_B)/version-%: $(CXX_B)/version.o $(LIBDIR_B)/librculist-%.so.$(VERSION)
	$(Q)$(CC) $< -o $@ $(call ADOPT_LINK,$*)

# Public names: every rculist_* and cds_* identifier written in the
# installed headers (the library exports the runtime, rculist_*, and the
# list operations too large to inline, such as cds_list_sort).
PUBLIC_NAMES = $(shell grep -ho '\<\(rculist\|cds\)_[a-z0-9_]*' include/rculist.h include/rculist/*.h | sort -u)

check-abi: $(FLAVORS:%=$(CXX_B)/version-%) $(PCS) ## Exported symbols, soname, per-flavour version nodes, versions agree
	@echo "== ABI: exports, soname, symbol versions, version $(VERSION)"
	$(Q)for f in $(FLAVORS); do \
		so=$(LIBDIR_B)/librculist-$$f.so.$(VERSION); \
		node=RCULIST_$$(echo $$f | tr a-z A-Z)_$(MAJOR); \
		syms=$$(nm -D --defined-only $$so | awk '$$2 != "A" { print $$3 }'); \
		bad=$$(printf '%s\n' $$syms | grep -v "^\(rculist\|cds\)_[a-z0-9_]*@@$$node\$$"); \
		[ -z "$$bad" ] || { echo "$$so exports more than rculist_*/cds_*@@$$node:" $$bad >&2; exit 1; }; \
		for s in $$syms; do \
			case " $(PUBLIC_NAMES) " in *" $${s%@@*} "*) ;; \
			*) echo "$$so exports $${s%@@*}, named in no public header" >&2; exit 1;; esac; \
		done; \
		soname=$$(readelf -d $$so | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'); \
		[ "$$soname" = librculist-$$f.so.$(MAJOR) ] || \
			{ echo "$$so: soname '$$soname', want librculist-$$f.so.$(MAJOR)" >&2; exit 1; }; \
		readelf -V $$so | grep -q "Name: $$node\$$" || \
			{ echo "$$so: no $$node version node (version script)" >&2; exit 1; }; \
		readelf -d $$so | grep -q 'FLAGS_1.*NODELETE' || \
			{ echo "$$so: not linked -z nodelete" >&2; exit 1; }; \
		got=$$($(CXX_B)/version-$$f); \
		[ "$$got" = "header=$(VERSION) library=$(VERSION) flavor=$$f" ] || \
			{ echo "$$f: $$got, want version $(VERSION) (include/rculist/version.h)" >&2; exit 1; }; \
		readelf -V $(CXX_B)/version-$$f | grep -q "Name: $$node " || \
			{ echo "version-$$f: its references are not bound to $$node" >&2; exit 1; }; \
		pcv=$$(sed -n 's/^Version: *//p' $(B)/pkgconfig/rculist-$$f.pc); \
		[ "$$pcv" = $(VERSION) ] || \
			{ echo "rculist-$$f.pc: Version $$pcv, want $(VERSION)" >&2; exit 1; }; \
		printf '   %-6s %2d symbols rculist_*/cds_*@@%s, soname %s, nodelete, version %s\n' \
			$$f $$(printf '%s\n' $$syms | wc -l) $$node $$soname $(VERSION); \
	done
	$(Q)set -- $(FLAVORS); log=$(CXX_B)/two-flavors.log; used=; \
	for ld in bfd gold lld; do \
		command -v ld.$$ld >/dev/null 2>&1 || continue; used="$$used $$ld"; \
		if $(CC) -fuse-ld=$$ld -o $(CXX_B)/two-flavors $(CXX_B)/version.o \
			$(call ADOPT_LINK,$$1) -lrculist-$$2 >$$log 2>&1; then \
			echo "ld.$$ld: linking -lrculist-$$1 -lrculist-$$2 into one program succeeded: it must fail" >&2; exit 1; fi; \
		grep -q "rculist: -lrculist-$$2 and -lrculist-$$1 are both linked\|rculist: -lrculist-$$1 and -lrculist-$$2 are both linked" $$log || \
			{ echo "ld.$$ld: two flavours in one link: the error does not name both:" >&2; cat $$log >&2; exit 1; }; \
	done; \
	echo "   one program, -lrculist-$$1 -lrculist-$$2: the link fails naming both (ld:$$used)"
