# SPDX-License-Identifier: LGPL-2.1-or-later
#
# man/man.mk - the manual, generated from the headers at `make` time.
#   man/gen.sh writes one man3 page per public name of the installed
#   headers from its kerneldoc comment, and expands the hand-written
#   pages (man/man3/*.3: the family overviews; man/man7/*.7) into
#   build/man/.  Nothing generated is committed: the headers are the one
#   source.  man/liburcu-0.13.names (derived by man/urcu-names.sh) says
#   which names liburcu 0.13 has.
#
#   man              build/man/man3/*.3 and man7/*.7 (part of `make`)
#   check-man        render every page without warnings; compile and run
#                    the examples of the hand-written pages
#   check-man-names  every public name has a doc comment and a page
#                    (`man 3 NAME`, also once installed), the hand-written
#                    pages name only names that exist, the liburcu list
#                    is up to date; and the check itself fails when a
#                    name loses its comment
#   doc              build/doc/: the same pages in HTML, with an index
CHECKS += check-man check-man-names

MAN_B      := $(B)/man
MAN_SRC    := $(sort $(wildcard man/man3/*.3 man/man7/*.7))
MAN_URCU   := man/liburcu-0.13.names
MAN_GEN    := man/gen.sh man/gen.awk
PUB_H      := include/rculist.h $(sort $(wildcard include/rculist/*.h))
MAN_STAMP  := $(MAN_B)/.stamp

.PHONY: man check-man check-man-names install-man uninstall-man doc
all: man
install: install-man
uninstall: uninstall-man

man: $(MAN_STAMP) ## Generate the man pages into build/man (part of make)

$(MAN_STAMP): $(PUB_H) $(MAN_SRC) $(MAN_GEN) $(MAN_URCU)
	$(call quiet,GEN,$(MAN_B))
	$(Q)sh man/gen.sh $(MAN_B) "$(FLAVORS)" $(MAN_URCU) include $(MAN_SRC)
	$(Q)touch $@

# Installs what build/man holds now, and removes what it names.
install-man: $(MAN_STAMP) ## Install the man pages (part of install)
	$(Q)$(INSTALL) -d $(DESTDIR)$(mandir)/man3 $(DESTDIR)$(mandir)/man7
	$(Q)$(INSTALL) -m 644 $(MAN_B)/man3/*.3 $(DESTDIR)$(mandir)/man3/
	$(Q)$(INSTALL) -m 644 $(MAN_B)/man7/*.7 $(DESTDIR)$(mandir)/man7/

uninstall-man: $(MAN_STAMP)
	$(Q)cd $(MAN_B) && for p in man3/*.3 man7/*.7; do \
		rm -f $(DESTDIR)$(mandir)/$$p; done

# The example of the hand-written page $(1) as C source, on stdout (also
# compiled by check-thread-safety).
man_example = sed -n '/^\.\\" example-begin/,/^\.\\" example-end/p' $(1) | \
	sed '/^\.\\"/d;/^\.EX$$/d;/^\.EE$$/d;s/\\-/-/g;s/\\e/\\/g'

# Render with warnings: man(1) if present, else groff.
MAN_RENDER = $(if $(shell command -v man),MANWIDTH=80 man --warnings -l,groff -ww -z -man)

check-man: lib $(MAN_STAMP) ## Render every man page without warnings, compile and run the examples
	@echo "== man: $$(ls $(MAN_B)/man3 $(MAN_B)/man7 | grep -c '\.[0-9]$$') pages rendered, examples compiled"
	$(Q)mkdir -p $(MAN_B)/examples
	$(Q)for p in $(MAN_B)/man3/*.3 $(MAN_B)/man7/*.7; do \
		w=$$($(MAN_RENDER) $$p 2>&1 >/dev/null); \
		[ -z "$$w" ] || { echo "$$p: $$w" >&2; exit 1; }; \
	done
	$(Q)for p in $(MAN_SRC); do \
		grep -q '^\.SH EXAMPLES' $$p || { echo "$$p: no EXAMPLES section" >&2; exit 1; }; \
		f=$$(sed -n 's/^\.\\" example-begin \([a-z]*\)\( c++\)\{0,1\}$$/\1/p' $$p); \
		[ -n "$$f" ] || { echo "$$p: no example-begin marker" >&2; exit 1; }; \
		x=$(MAN_B)/examples/$$(basename $$p); \
		$(call man_example,$$p) > $$x.c; \
		if grep -q '^\.\\" example-begin [a-z]* c++$$' $$p; then \
			$(CXX) -x c++ -std=c++17 $(ALL_CPPFLAGS) -Wall -Wextra -Wshadow -Wcast-qual -Werror \
				$$x.c -o $$x $(LDFLAGS) -L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) \
				-lrculist-$$f -pthread || exit 1; \
		else \
		$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -Werror $$x.c -o $$x $(LDFLAGS) \
			-L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$$f -lpthread || exit 1; \
		fi; \
		printf '   %-28s [%s] ' $$p $$f; $$x || { echo "$$p: example failed" >&2; exit 1; }; \
	done

# ------------------------------------------------------ check-man-names
MAN_T := $(MAN_B)/names-check

check-man-names: $(MAN_STAMP) ## Every public name has a doc comment and `man 3 NAME`
	$(Q)rm -rf $(MAN_T) && mkdir -p $(MAN_T)
	$(Q)if [ -s $(MAN_B)/problems ]; then \
		echo "man: the headers' doc comments are incomplete:" >&2; \
		sed 's/^/   /' $(MAN_B)/problems >&2; exit 1; fi
	$(Q)n=0; for name in $$(cat $(MAN_B)/names); do \
		p=$$(man -M $(abspath $(MAN_B)) -w 3 $$name 2>/dev/null | head -n 1); \
		[ "$$p" = $(abspath $(MAN_B))/man3/$$name.3 ] || \
			{ echo "man 3 $$name: no page (found '$$p')" >&2; exit 1; }; \
		n=$$((n + 1)); \
	done; \
	echo "== man: $$n public names, each with a doc comment and man 3 NAME"
	@# The hand-written pages name only names that exist, or that they
	@# list on a line ".\" undefined-names: NAME..." (switches the
	@# program defines, APIs deliberately left out).
	$(Q)for p in $(MAN_SRC); do \
		absent=" $$(sed -n 's/^\.\\" undefined-names: //p' $$p | tr '\n' ' ') "; \
		for w in $$(sed '/^\.\\"/d;/^\.TH /d' $$p | grep -o '\(cds\|CDS\|rculist\|RCULIST\)_[A-Za-z0-9_]*' | \
				sort -u); do \
			grep -qx "$$w" $(MAN_B)/names || case "$$absent" in *" $$w "*) ;; \
			*) echo "$$p: names $$w, which the headers do not define" >&2; exit 1;; esac; \
		done; \
	done
	@echo "== man: the hand-written pages name only defined names"
	@# man/liburcu-0.13.names is what man/urcu-names.sh derives from an
	@# installed liburcu 0.13.
	$(Q)v=$$(pkg-config --modversion liburcu 2>/dev/null); case "$$v" in \
	0.13.*) sh man/urcu-names.sh $(CC) $(URCU_CFLAGS) $(CPPFLAGS) > $(MAN_T)/urcu.names; \
		diff -u $(MAN_URCU) $(MAN_T)/urcu.names >&2 || \
			{ echo "$(MAN_URCU) is stale: run man/urcu-names.sh > $(MAN_URCU)" >&2; exit 1; }; \
		echo "== man: $(MAN_URCU) matches liburcu $$v's headers";; \
	*) echo "== man: liburcu is '$$v', not 0.13: $(MAN_URCU) kept as committed";; esac
	@# The check fails when a name has no comment (one removed, one
	@# added without): the generator run on a copy of the headers.
	$(Q)mkdir -p $(MAN_T)/include && cp -R include/. $(MAN_T)/include/ && \
	sed -i 's/^ \* cds_list_move_tail - .*/ * (the title of this comment is gone)/' \
		$(MAN_T)/include/rculist/list.h && \
	printf '#ifndef RCULIST_PLANTED_H\n#define RCULIST_PLANTED_H\nint cds_list_planted(void);\n#endif\n' \
		> $(MAN_T)/include/rculist/planted.h && \
	sh man/gen.sh $(MAN_T)/out "$(FLAVORS)" $(MAN_URCU) $(MAN_T)/include $(MAN_SRC) && \
	grep -q 'cds_list_move_tail .*has no doc comment' $(MAN_T)/out/problems && \
	grep -q 'cds_list_planted .*has no doc comment' $(MAN_T)/out/problems || \
		{ echo "man: the generator missed a name without doc comment" >&2; exit 1; }
	@echo "== man: a name without a doc comment is caught (planted in a copy)"
	@# make install-man puts a page under every name, uninstall-man
	@# takes every one away.
	$(Q)$(MAKE) --no-print-directory install-man DESTDIR=$(abspath $(MAN_T))/stage PREFIX=/usr
	$(Q)for name in $$(cat $(MAN_B)/names); do \
		man -M $(abspath $(MAN_T))/stage/usr/share/man -w 3 $$name >/dev/null 2>&1 || \
			{ echo "installed: man 3 $$name fails" >&2; exit 1; }; done
	$(Q)$(MAKE) --no-print-directory uninstall-man DESTDIR=$(abspath $(MAN_T))/stage PREFIX=/usr
	$(Q)left=$$(find $(MAN_T)/stage ! -type d); \
	[ -z "$$left" ] || { echo "left after uninstall-man:" $$left >&2; exit 1; }
	@echo "== man: install-man installs every page, uninstall-man removes them"

# ------------------------------------------------------------ make doc
DOC_B := $(B)/doc

doc: $(MAN_STAMP) ## HTML of every man page with an index, in build/doc
	$(Q)missing=""; command -v post-grohtml >/dev/null 2>&1 || missing=" groff"; $(need_debs)
	$(call quiet,HTML,$(DOC_B))
	$(Q)sh man/html.sh $(MAN_B) $(DOC_B) $(VERSION)
	@echo "  DOC      $(DOC_B)/index.html ($$(ls $(DOC_B) | grep -c '\.html$$') files)"
