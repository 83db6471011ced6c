# SPDX-License-Identifier: LGPL-2.1-or-later
#
# man/man.mk - the manual: rculist(7) and one man3 page per family.
#   Every name in a man3 page's NAME section gets a `.so` link page,
#   generated here.  check-man renders every page with warnings on and
#   compiles and runs its EXAMPLES code (between the `.\" example-begin
#   <flavour>` and `.\" example-end` markers) against the tree.
#   install-man/uninstall-man are hooked into install/uninstall below.
CHECKS += check-man

MAN_PAGES := $(sort $(wildcard man/man3/*.3 man/man7/*.7))
MAN3      := $(filter man/man3/%,$(MAN_PAGES))
MAN_B     := $(B)/man

# "name page" for every name of a man3 page's NAME section but its own.
man_names = $(shell sed -n '/^\.SH NAME/,/^\\-/p' $(1) | sed '1d;$$d' | tr ',' '\n' | tr -d ' ')
MAN_LINKS := $(foreach p,$(MAN3),$(foreach n,$(filter-out $(basename $(notdir $(p))),$(call man_names,$(p))),$(n):$(notdir $(p))))

.PHONY: check-man install-man uninstall-man
install: install-man
uninstall: uninstall-man

install-man: ## Install the man pages (part of install)
	$(Q)$(INSTALL) -d $(DESTDIR)$(mandir)/man3 $(DESTDIR)$(mandir)/man7
	$(Q)$(INSTALL) -m 644 $(MAN3) $(DESTDIR)$(mandir)/man3/
	$(Q)$(INSTALL) -m 644 $(filter man/man7/%,$(MAN_PAGES)) $(DESTDIR)$(mandir)/man7/
	$(Q)for l in $(MAN_LINKS); do \
		echo ".so man3/$${l#*:}" > $(DESTDIR)$(mandir)/man3/$${l%%:*}.3; \
	done

uninstall-man:
	$(Q)rm -f $(addprefix $(DESTDIR)$(mandir)/,$(MAN_PAGES:man/%=%)) \
		$(foreach l,$(MAN_LINKS),$(DESTDIR)$(mandir)/man3/$(firstword $(subst :, ,$(l))).3)

# Render with warnings: man(1) if present, else groff.
MAN_RENDER = $(if $(shell command -v man),MANWIDTH=80 man --warnings -l,groff -ww -z -man)

check-man: lib ## Render every man page without warnings, compile and run its example
	@echo "== man: $(words $(MAN_PAGES)) pages, $(words $(MAN_LINKS)) .so links, examples compiled"
	$(Q)mkdir -p $(MAN_B)
	$(Q)for p in $(MAN_PAGES); do \
		w=$$($(MAN_RENDER) $$p 2>&1 >/dev/null); \
		[ -z "$$w" ] || { echo "$$p: $$w" >&2; exit 1; }; \
		grep -q '^\.SH EXAMPLES' $$p || { echo "$$p: no EXAMPLES section" >&2; exit 1; }; \
		f=$$(sed -n 's/^\.\\" example-begin \([a-z]*\)$$/\1/p' $$p); \
		[ -n "$$f" ] || { echo "$$p: no example-begin marker" >&2; exit 1; }; \
		x=$(MAN_B)/$$(basename $$p); \
		sed -n '/^\.\\" example-begin/,/^\.\\" example-end/p' $$p | \
			sed '/^\.\\"/d;/^\.EX$$/d;/^\.EE$$/d;s/\\-/-/g;s/\\e/\\/g' > $$x.c; \
		$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -Werror $$x.c -o $$x \
			-L$(LIBDIR_B) -Wl,-rpath,$(abspath $(LIBDIR_B)) -lrculist-$$f -lpthread || exit 1; \
		printf '   %-28s [%s] ' $$p $$f; $$x || { echo "$$p: example failed" >&2; exit 1; }; \
	done
	$(Q)for l in $(MAN_LINKS); do \
		test -f man/man3/$${l#*:} || { echo "link $$l: no page" >&2; exit 1; }; done
