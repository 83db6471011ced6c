# SPDX-License-Identifier: LGPL-2.1-or-later
#
# man/gen.awk - the manual, from the headers' own kerneldoc comments.
#
# Reads C headers and finds every name they define at file scope
# (functions, macros, structures, typedefs, extern variables) and the
# kerneldoc comment in front of each:
#
#	/**
#	 * name - one-line summary
#	 * @arg: what it is
#	 *
#	 * Description paragraphs; a paragraph that starts with a tab, two
#	 * spaces, "before:" or "after:" is a picture and is kept as it is.
#	 *
#	 * Context: the concurrency contract.
#	 * Return: the value returned.
#	 */
#
# Internal names (rculist__*, RCULIST__*, leading underscore) and header
# guards are skipped; code inside #ifdef __cplusplus is C++ glue and is
# skipped too.  POSIX awk (mawk and gawk).
#
# Variables (-v):
#   mode      "names": print "name<TAB>kind<TAB>header" for every public
#             name and stop (used on liburcu's headers too);
#             "man": write the pages into out/ (see man/gen.sh)
#   out       output directory (man3/, man7/, names, index, problems)
#   urcu      liburcu's names (man/liburcu-0.13.names)
#   flavors   the flavour libraries, "memb qsbr bp"
#   version   "MAJOR.MINOR.PATCH"
#   templates hand-written pages (man/man3/*.3, man/man7/*.7), with
#             ".\" gen: ..." directives (see expand())
#   strip     prefix to drop from header paths ("include/")

function internal(n)
{
	return n ~ /^(rculist__|RCULIST__|_)/
}

function problem(msg)
{
	nproblems++
	problems[nproblems] = msg
}

function trim(s)
{
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

function squeeze(s)
{
	gsub(/[ \t]+/, " ", s)
	return trim(s)
}

function count(s, c,    n, i)
{
	n = 0
	for (i = 1; i <= length(s); i++)
		if (substr(s, i, 1) == c)
			n++
	return n
}

# The identifier just before the first "(" of @s.
function name_before_paren(s,    i)
{
	i = index(s, "(")
	if (i == 0)
		return ""
	s = trim(substr(s, 1, i - 1))
	if (match(s, /[A-Za-z_][A-Za-z0-9_]*$/))
		return substr(s, RSTART, RLENGTH)
	return ""
}

# The text between the first "(" of @s and the parenthesis matching it.
function paren_args(s,    i, d, c, start)
{
	start = index(s, "(")
	if (start == 0)
		return ""
	d = 0
	for (i = start; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "(")
			d++
		else if (c == ")" && --d == 0)
			return substr(s, start + 1, i - start - 1)
	}
	return substr(s, start + 1)
}

# Split a parameter list at its top-level commas into arr[1..n].
function split_params(s, arr,    n, i, d, c, cur)
{
	n = 0
	d = 0
	cur = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "(")
			d++
		else if (c == ")")
			d--
		if (c == "," && d == 0) {
			arr[++n] = trim(cur)
			cur = ""
		} else {
			cur = cur c
		}
	}
	if (trim(cur) != "")
		arr[++n] = trim(cur)
	return n
}

# The name a parameter declares: "void (*func)(...)" -> func.
function param_name(p)
{
	if (match(p, /\(\*[ \t]*[A-Za-z_][A-Za-z0-9_]*/)) {
		p = substr(p, RSTART + 2, RLENGTH - 2)
		return trim(p)
	}
	if (p == "void" || p == "...")
		return ""
	if (match(p, /[A-Za-z_][A-Za-z0-9_]*$/))
		return substr(p, RSTART, RLENGTH)
	return ""
}

# The parameter names of the function declared by @s, space-separated.
function param_names(s,    np, p, i, pars)
{
	np = split_params(paren_args(s), p)
	pars = ""
	for (i = 1; i <= np; i++)
		if (param_name(p[i]) != "")
			pars = pars " " param_name(p[i])
	return trim(pars)
}

# Record the definition of @n (kind @k, synopsis text @syn, parameter
# names @pars separated by spaces) at the current line.
function define(n, k, syn, pars,    ok)
{
	if (n == "")
		return
	ok = 0
	if (doc_pending) {
		if (doc_name == n) {
			ok = 1
		} else {
			problem(doc_where ": doc comment for " doc_name \
				" is followed by the definition of " n ", not by its own")
		}
		doc_pending = 0
	}
	if (internal(n))
		return
	# A function or structure replaces a macro of the same name (the
	# wrappers of debug mode, the inline switch).
	if ((n in kind) && kind[n] ~ /macro|constant/ && k !~ /macro|constant/ && !(n in has_doc)) {
		kind[n] = k
		hdr[n] = hname
		syno[n] = syn
		params[n] = pars
		where[n] = nfiles * 100000 + FNR
	}
	if (!(n in kind) || ok)
		where[n] = nfiles * 100000 + FNR
	if (!(n in kind)) {
		names[++nnames] = n
		kind[n] = k
		hdr[n] = hname
		syno[n] = syn
		params[n] = pars
	}
	if (ok) {
		if (n in has_doc)
			problem(doc_where ": second doc comment for " n)
		has_doc[n] = 1
		# The documented definition is the one a page shows.
		kind[n] = k
		hdr[n] = hname
		syno[n] = syn
		params[n] = pars
		take_doc(n)
	}
}

# --------------------------------------------------------------- doc comments

function doc_start(line)
{
	in_doc = 1
	ndoc = 0
	doc_where = FILENAME ":" FNR
	sub(/^[ \t]*\/\*\*/, "", line)
	doc_line(line)
}

# One line of the comment, without its leading " * ".
function doc_line(line,    end)
{
	end = index(line, "*/")
	if (end) {
		line = substr(line, 1, end - 1)
		in_doc = 0
	}
	sub(/^[ \t]*\*( |$)/, "", line)
	sub(/^[ \t]*\*\t/, "\t", line)
	sub(/[ \t]+$/, "", line)
	if (!(ndoc == 0 && line == ""))
		doc[++ndoc] = line
	if (!in_doc)
		doc_parse()
}

# Split the comment into title, @arguments and sections.
function doc_parse(    i, l, sec, para, m, a)
{
	doc_pending = 1
	doc_name = ""
	d_summary = ""
	d_nargs = 0
	d_text["desc"] = d_text["ctx"] = d_text["ret"] = ""
	l = doc[1]
	sub(/^(struct|union|enum|typedef)[ \t]+/, "", l)
	if (!match(l, /^[A-Za-z_][A-Za-z0-9_]*(\(\))?[ \t]+-[ \t]+/)) {
		problem(doc_where ": /** comment without \"name - summary\" title")
		doc_pending = 0
		return
	}
	doc_name = substr(l, 1, RLENGTH)
	sub(/(\(\))?[ \t]+-[ \t]+$/, "", doc_name)
	d_summary = substr(l, RLENGTH + 1)
	for (i = 2; i <= ndoc && doc[i] != "" && doc[i] !~ /^@[A-Za-z_.]+:/; i++)
		d_summary = d_summary " " trim(doc[i])
	sub(/\.$/, "", d_summary)
	for (; i <= ndoc && doc[i] ~ /^@[A-Za-z_.]+:/; i++) {
		l = doc[i]
		m = index(l, ":")
		a = substr(l, 2, m - 2)
		d_nargs++
		d_argn[d_nargs] = a
		d_argt[d_nargs] = trim(substr(l, m + 1))
		while (i + 1 <= ndoc && doc[i + 1] != "" && doc[i + 1] !~ /^@[A-Za-z_.]+:/)
			d_argt[d_nargs] = d_argt[d_nargs] " " trim(doc[++i])
	}
	sec = "desc"
	para = ""
	for (; i <= ndoc; i++) {
		l = doc[i]
		if (l == "") {
			flush_para(sec, para)
			para = ""
			continue
		}
		if (para == "" && match(l, /^(Context|Return|Returns):[ \t]*/)) {
			sec = substr(l, 1, index(l, ":") - 1)
			sec = sec == "Context" ? "ctx" : "ret"
			l = substr(l, RLENGTH + 1)
			if (l == "")
				continue
		}
		para = para (para == "" ? "" : "\n") l
	}
	flush_para(sec, para)
}

# Expand tabs to 8 columns.
function detab(s,    r, i, c)
{
	r = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\t") {
			r = r " "
			while (length(r) % 8)
				r = r " "
		} else {
			r = r c
		}
	}
	return r
}

# A paragraph as troff: a picture (.EX), a bullet list, or text.
function flush_para(sec, para,    n, ln, i, t, verb)
{
	if (para == "")
		return
	n = split(para, ln, "\n")
	verb = ln[1] ~ /^(\t|  |before:|after:)/
	if (verb) {
		t = ".PP\n.EX\n"
		for (i = 1; i <= n; i++)
			t = t ex_text(detab(ln[i])) "\n"
		t = t ".EE\n"
	} else {
		t = ""
		for (i = 1; i <= n; i++) {
			if (ln[i] ~ /^- /) {
				t = t ".IP \\(bu 2\n"
				ln[i] = substr(ln[i], 3)
			} else if (i == 1) {
				t = t ".PP\n"
			}
			t = t roff_text(trim(ln[i])) "\n"
			refs(ln[i])
		}
	}
	d_text[sec] = d_text[sec] t
}

# Names written "name()" in the comment: the SEE ALSO candidates.
function refs(s,    r)
{
	while (match(s, /[A-Za-z_][A-Za-z0-9_]*\(\)/)) {
		r = substr(s, RSTART, RLENGTH - 2)
		if (!((d_refs_key "," r) in seen_ref)) {
			seen_ref[d_refs_key "," r] = 1
			d_refs = d_refs " " r
		}
		s = substr(s, RSTART + RLENGTH)
	}
}

function esc(s)
{
	gsub(/\\/, "\\e", s)
	return s
}

# Text of a picture: backslashes, minus signs, leading dots.
function ex_text(s)
{
	s = esc(s)
	gsub(/-/, "\\-", s)
	if (s ~ /^[.']/)
		s = "\\&" s
	return s
}

# Prose: @arg in italics, name() and %CONST in bold.
function roff_text(s,    r, m)
{
	s = esc(s)
	r = ""
	while (match(s, /@[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*\(\)/)) {
		r = r substr(s, 1, RSTART - 1)
		m = substr(s, RSTART, RLENGTH)
		if (m ~ /^@/)
			r = r "\\fI" substr(m, 2) "\\fP"
		else if (m ~ /^%/)
			r = r "\\fB" substr(m, 2) "\\fP"
		else
			r = r "\\fB" substr(m, 1, length(m) - 2) "\\fP()"
		s = substr(s, RSTART + RLENGTH)
	}
	r = r s
	if (r ~ /^[.']/)
		r = "\\&" r
	return r
}

# Attach the parsed comment to @n.
function take_doc(n,    i)
{
	summary[n] = d_summary
	nargs[n] = d_nargs
	for (i = 1; i <= d_nargs; i++) {
		argn[n, i] = d_argn[i]
		argt[n, i] = d_argt[i]
	}
	desc[n] = d_text["desc"]
	ctx[n] = d_text["ctx"]
	# "Context: the caller ..." reads as a sentence of its own.
	if (match(ctx[n], /^\.PP\n[a-z]/))
		ctx[n] = ".PP\n" toupper(substr(ctx[n], 5, 1)) substr(ctx[n], 6)
	ret[n] = d_text["ret"]
	seealso[n] = d_refs
	alltext[n] = ""
	for (i = 1; i <= ndoc; i++)
		alltext[n] = alltext[n] " " doc[i]
	d_refs = ""
	d_refs_key++
}

# --------------------------------------------------------------- the scanner

function directive(line,    w, n)
{
	line = squeeze(line)
	sub(/^#[ \t]*/, "", line)
	w = line
	sub(/[ \t(].*/, "", w)
	n = line
	sub(/^[a-z]+[ \t]*/, "", n)
	if (w == "ifdef" || w == "ifndef" || w == "if") {
		++ncond
		cond_cxx[ncond] = n ~ /^(defined[ \t]*\(?[ \t]*)?__cplusplus\)?$/ ? (w == "ifndef" ? 2 : 1) : 0
		cond_branch[ncond] = 1
	} else if (w == "else" || w == "elif") {
		if (ncond)
			cond_branch[ncond] = 2
	} else if (w == "endif") {
		if (ncond)
			ncond--
	}
	if (w == "ifndef")
		last_ifndef = n
	else if (w != "define")
		last_ifndef = ""
}

# Inside C++-only code?
function cxx_only(    i)
{
	for (i = 1; i <= ncond; i++)
		if (cond_cxx[i] && cond_cxx[i] == cond_branch[i])
			return 1
	return 0
}

function macro_def(text,    n, rest, pars, i, np, p, syn, guard)
{
	text = squeeze(text)
	sub(/^#[ \t]*define[ \t]+/, "", text)
	match(text, /^[A-Za-z_][A-Za-z0-9_]*/)
	n = substr(text, 1, RLENGTH)
	rest = substr(text, RLENGTH + 1)
	guard = (n == last_ifndef)
	last_ifndef = ""
	if (guard || cxx_only())
		return
	if (rest ~ /^\(/) {
		pars = paren_args(rest)
		np = split_params(pars, p)
		pars = ""
		for (i = 1; i <= np; i++)
			pars = pars " " p[i]
		define(n, "macro", n "(" squeeze(paren_args(rest)) ")", trim(pars))
	} else {
		gsub(/\\[ \t]*/, " ", rest)
		define(n, "constant", "#define " n " " squeeze(rest), "")
	}
}

# A file-scope statement ending in ";" (no body): a prototype, a typedef,
# a variable, or a forward declaration.
function declaration(s,    n, i, d, nd)
{
	s = squeeze(s)
	gsub(/__attribute__[ \t]*\(\([^()]*(\([^()]*\))?[^()]*\)\)/, "", s)
	gsub(/RCULIST__[A-Z_]+/, "", s)
	s = squeeze(s)
	sub(/[ \t]*;$/, "", s)
	if (s == "" || cxx_only())
		return
	if (s ~ /^typedef /) {
		if (match(s, /\(\*[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\)/))
			n = param_name(substr(s, RSTART, RLENGTH))
		else if (index(s, "("))
			n = name_before_paren(s)
		else if (match(s, /[A-Za-z_][A-Za-z0-9_]*$/))
			n = substr(s, RSTART, RLENGTH)
		define(n, "typedef", s ";", "")
		return
	}
	if (index(s, "(")) {
		define(name_before_paren(s), "function", s ";", param_names(s))
		return
	}
	if (s ~ /^(struct|union|enum) [A-Za-z_][A-Za-z0-9_]*$/)
		return			# a forward declaration
	sub(/=.*/, "", s)
	nd = split(s, d, ",")
	for (i = 1; i <= nd; i++)
		if (match(d[i], /[A-Za-z_][A-Za-z0-9_]*[ \t]*$/)) {
			n = trim(substr(d[i], RSTART, RLENGTH))
			define(n, "variable", s ";", "")
		}
}

# The head of a braced definition: a function or a structure.
function braced(s,    n)
{
	s = squeeze(s)
	gsub(/RCULIST__[A-Z_]+/, "", s)
	s = squeeze(s)
	if (cxx_only() || s ~ /^extern "C"/)
		return ""
	if (match(s, /^(typedef )?(struct|union|enum) [A-Za-z_][A-Za-z0-9_]*/)) {
		n = substr(s, RSTART, RLENGTH)
		sub(/.* /, "", n)
		return "struct " n
	}
	if (index(s, "("))
		define(name_before_paren(s), s ~ /(^| )inline / ? "inline" : "function", s ";",
		       param_names(s))
	return ""
}

function code(line, raw,    i, c, opened)
{
	if (depth == 0) {
		stmt = stmt " " line
		stmt_raw = stmt_raw raw "\n"
		# A macro invoked at file scope, FOO(...) with no ";", defines
		# nothing we can document.
		if (trim(stmt) ~ /^[A-Z_][A-Z0-9_]*[ \t]*\(/ && line ~ /\)[ \t]*$/ &&
		    count(stmt, "(") == count(stmt, ")") && !index(stmt, "{")) {
			stmt = stmt_raw = ""
			return
		}
		if (index(line, "{")) {
			i = index(stmt, "{")
			body_of = braced(substr(stmt, 1, i - 1))
			opened = 1
		} else if (index(line, ";")) {
			declaration(stmt)
			stmt = stmt_raw = ""
			return
		} else {
			return
		}
	} else if (body_of != "") {
		stmt_raw = stmt_raw raw "\n"
	}
	depth += count(line, "{") - count(line, "}")
	if (depth <= 0) {
		depth = 0
		if (body_of != "") {
			c = line
			sub(/.*\}/, "", c)
			struct_def(substr(body_of, 8), stmt_raw, c)
		}
		body_of = ""
		stmt = stmt_raw = ""
	}
}

# A structure (or typedef struct ... NAME) with its fields as written.
function struct_def(n, text, tail,    t)
{
	sub(/\n+$/, "", text)
	if (match(tail, /[A-Za-z_][A-Za-z0-9_]*[ \t]*;/)) {
		t = substr(tail, RSTART, RLENGTH)
		sub(/[ \t]*;$/, "", t)
		define(t, "typedef", text, "")
		return
	}
	define(n, "struct", text, "")
}

FNR == 1 {
	if (doc_pending)
		problem(doc_where ": doc comment for " doc_name " ends its file")
	doc_pending = in_doc = in_comment = in_macro = depth = ncond = 0
	stmt = stmt_raw = last_ifndef = body_of = ""
	hname = FILENAME
	if (strip != "" && index(hname, strip) == 1)
		hname = substr(hname, length(strip) + 1)
	files[++nfiles] = hname
}

{
	line = $0
	if (in_doc) {
		doc_line(line)
		next
	}
	if (!in_comment && line ~ /^[ \t]*\/\*\*([ \t]|$)/) {
		if (doc_pending)
			problem(doc_where ": doc comment for " doc_name " is followed by another")
		doc_start(line)
		next
	}
	raw = line
	# Comments out (raw keeps them, for structure fields).
	if (in_comment) {
		i = index(line, "*/")
		if (!i)
			next
		line = substr(line, i + 2)
		in_comment = 0
	}
	while ((i = index(line, "/*"))) {
		j = index(substr(line, i + 2), "*/")
		if (j) {
			line = substr(line, 1, i - 1) " " substr(line, i + j + 3)
		} else {
			line = substr(line, 1, i - 1)
			in_comment = 1
		}
	}
	sub(/\/\/.*/, "", line)
	if (in_macro) {
		macro_text = macro_text " " line
		if (line !~ /\\[ \t]*$/) {
			in_macro = 0
			macro_def(macro_text)
		}
		next
	}
	if (line ~ /^[ \t]*#[ \t]*define[ \t]/) {
		if (line ~ /\\[ \t]*$/) {
			in_macro = 1
			macro_text = line
		} else {
			macro_def(line)
		}
		next
	}
	if (line ~ /^[ \t]*#/) {
		directive(line)
		# A continued directive (#if ... \) goes on on the next line.
		while (line ~ /\\[ \t]*$/ && (getline line) > 0)
			;
		next
	}
	if (trim(line) == "" && depth == 0 && stmt == "")
		next
	code(line, raw)
}

# --------------------------------------------------------------- the output

function load_urcu(    l, f, n)
{
	if (urcu == "")
		return
	while ((getline l < urcu) > 0) {
		if (l ~ /^# liburcu /) {
			uversion = l
			sub(/^# liburcu /, "", uversion)
			sub(/:.*/, "", uversion)
			uver = uversion
			sub(/\.[0-9]+$/, "", uver)
		}
		if (l ~ /^#/ || l == "")
			continue
		n = split(l, f, "\t")
		if (f[2] == "map") {
			umap[f[1]] = f[3]
		} else {
			ukind[f[1]] = f[2]
			uhdr[f[1]] = f[3]
		}
	}
	close(urcu)
}

# Family pages: the templates' ".\" gen: family HEADER..." lines.
function load_families(    t, l, nt, tl, i, nh, h, page)
{
	nt = split(templates, tl, " ")
	for (t = 1; t <= nt; t++) {
		page = tl[t]
		sub(/.*\//, "", page)
		tmpl_of[page] = tl[t]
		while ((getline l < tl[t]) > 0) {
			if (l ~ /^\.\\" gen: family /) {
				sub(/^\.\\" gen: family /, "", l)
				nh = split(l, h, " ")
				for (i = 1; i <= nh; i++)
					family[h[i]] = page
			}
		}
		close(tl[t])
	}
}

function page_ref(p,    s)
{
	s = p
	sub(/\.[0-9]$/, "", s)
	return ".BR " s " (" substr(p, length(p)) ")"
}

# A synopsis line in bold, its parameters in italics, wrapped at commas
# to fit 80 columns.
function synopsis(n,    s, k, out, r, m, col, ps, i, np, p, w)
{
	s = syno[n]
	k = kind[n]
	if (k == "struct" || (k == "typedef" && index(s, "\n"))) {
		gsub(/\t/, "        ", s)
		return ".EX\n" ex_text_lines(s) "\n.EE\n"
	}
	np = split(params[n], p, " ")
	for (i = 1; i <= np; i++)
		isparam[n, p[i]] = 1
	if (k == "macro" && n ~ /for_each/)
		s = s " statement"
	# wrap
	w = ""
	if (length(s) > 76 && (k == "function" || k == "inline")) {
		col = index(s, "(")
		ps = ""
		while (col && length(s) > 76) {
			for (i = 76; i > col; i--)
				if (substr(s, i, 1) == ",")
					break
			if (i <= col)
				break
			w = w substr(s, 1, i) "\n"
			s = sprintf("%" col "s", "") trim(substr(s, i + 1))
		}
	}
	s = w s
	out = ""
	r = s
	while (match(r, /[A-Za-z_][A-Za-z0-9_]*/)) {
		m = substr(r, RSTART, RLENGTH)
		out = out syn_esc(substr(r, 1, RSTART - 1))
		if ((n, m) in isparam || m == "statement")
			out = out "\\fI" m "\\fB"
		else
			out = out m
		r = substr(r, RSTART + RLENGTH)
	}
	out = out syn_esc(r)
	gsub(/\n/, "\\fP\n\\fB", out)
	return "\\fB" out "\\fP\n"
}

function syn_esc(s)
{
	gsub(/\\/, "\\e", s)
	gsub(/-/, "\\-", s)
	return s
}

function ex_text_lines(s,    n, l, i, r)
{
	n = split(s, l, "\n")
	r = ""
	for (i = 1; i <= n; i++)
		r = r (i > 1 ? "\n" : "") ex_text(l[i])
	return r
}

function kind_word(k, n)
{
	if (k == "inline")
		return "a static inline function"
	if (k == "function")
		return "a function"
	if (k == "macro")
		return n ~ /for_each/ ? "an iterator macro" : "a macro"
	if (k == "constant")
		return "a constant macro"
	if (k == "struct")
		return "a structure"
	if (k == "typedef")
		return "a type"
	return "a variable"
}

function ukind_word(k)
{
	return k == "inline" ? "a static inline function" : k == "function" ? "a function" : \
		k == "macro" ? "a macro" : k == "constant" ? "a constant macro" : \
		k == "struct" ? "a structure" : k == "typedef" ? "a type" : "a variable"
}

# liburcu 0.13: has it, lacks it, or has an equivalent per flavour.
function liburcu_text(n,    g, t, pairs, np, pr, i, nf, fl, f, j, sym)
{
	if (n in ukind) {
		t = "liburcu " uver " has \\fB" n "\\fP too, in\n.IR <" uhdr[n] "> ,\nas " \
			ukind_word(ukind[n]) ".\n"
		if (ukind[n] != kind[n] && !(ukind[n] ~ /function|inline/ && kind[n] ~ /function|inline/))
			t = t "(rculist's is " kind_word(kind[n], n) ".)\n"
		return t
	}
	g = n
	sub(/^rculist_/, "", g)
	if (n ~ /^rculist_/ && ((g in umap) || (("rcu_" g) in umap))) {
		if (!(g in umap))
			g = "rcu_" g
		np = split(umap[g], pr, " ")
		nf = split(flavors, fl, " ")
		t = "liburcu " uver " has no \\fB" n "\\fP; its equivalent is\n.BR " g " ()\n" \
			"under a flavour header, that is, per flavour:\n"
		sym = ""
		for (j = 1; j <= nf; j++)
			for (i = 1; i <= np; i++)
				if (index(pr[i], fl[j] "=") == 1) {
					sym = sym (sym == "" ? "" : ",\n") ".BR " substr(pr[i], length(fl[j]) + 2) " ()"
				}
		return t sym ".\nSee\n.BR rculist\\-migration (7).\n"
	}
	return "liburcu " uver " has no \\fB" n "\\fP: code that uses it needs rculist.\n"
}

# The sections of @n's page from SYNOPSIS to LIBURCU.
function body(n,    t, i, nf, fl, libs, h)
{
	h = hdr[n]
	t = ".SH SYNOPSIS\n.nf\n.B #include <rculist.h>\n"
	t = t ".RI \"(defined in <" h ">)\"\n.PP\n" synopsis(n) ".fi\n"
	if (kind[n] == "function" || kind[n] == "variable") {
		nf = split(flavors, fl, " ")
		libs = ""
		for (i = 1; i <= nf; i++)
			libs = libs (i == 1 ? "" : i == nf ? " or\n" : ",\n") ".B \\-lrculist\\-" fl[i]
		t = t ".PP\nLink with\n" libs ".\n"
	}
	if (nargs[n]) {
		t = t ".SH ARGUMENTS\n"
		for (i = 1; i <= nargs[n]; i++)
			t = t ".TP\n.I " argn[n, i] "\n" roff_text(argt[n, i]) "\n"
	}
	t = t ".SH DESCRIPTION\n"
	t = t (desc[n] == "" ? roff_text(summary[n]) ".\n" : desc[n])
	if (ret[n] != "")
		t = t ".SH RETURN VALUE\n" ret[n]
	t = t ".SH CONCURRENCY\n" ctx[n]
	t = t ".SH LIBURCU\n" liburcu_text(n)
	return t
}

function see_also(n, page,    t, nr, r, i, fam, seen)
{
	t = ""
	fam = family[hdr[n]]
	if (fam != "" && fam != page)
		t = t page_ref(fam) ",\n"
	nr = split(seealso[n], r, " ")
	for (i = 1; i <= nr; i++)
		if (r[i] != n && (r[i] in has_doc) && !((n, r[i]) in seen)) {
			seen[n, r[i]] = 1
			if (family[hdr[r[i]]] != r[i] ".3" || r[i] ".3" != fam)
				t = t ".BR " r[i] " (3),\n"
		}
	return t ".BR rculist (7)\n"
}

function th(n, sec)
{
	return ".TH " toupper(n) " " sec " " date " \"rculist " version "\" \"rculist manual\"\n"
}

function write_page(n,    f)
{
	f = out "/man3/" n ".3"
	printf ".\\\" Generated by man/gen.sh from %s; edit the comment there.\n", hdr[n] > f
	printf "%s", th(n, 3) > f
	printf ".nh\n.ad l\n" > f
	# NAME is plain text (apropos reads it): @arg loses its @.
	name_line = esc(summary[n])
	gsub(/@/, "", name_line)
	printf ".SH NAME\n%s \\- %s\n", n, name_line > f
	printf "%s", body(n) > f
	printf ".SH SEE ALSO\n%s", see_also(n, n ".3") > f
	close(f)
}

# A hand-written page, its ".\" gen:" lines expanded.
function expand(src, page,    f, l, w, a, n, i, j, h, fam, any)
{
	f = out "/man" substr(page, length(page)) "/" page
	printf ".\\\" Generated by man/gen.sh from %s and the headers.\n", src > f
	while ((getline l < src) > 0) {
		if (l !~ /^\.\\" gen: /) {
			gsub(/@VERSION@/, version, l)
			print l > f
			continue
		}
		sub(/^\.\\" gen: /, "", l)
		w = l
		sub(/ .*/, "", w)
		a = l
		sub(/^[a-z-]+ ?/, "", a)
		if (w == "name") {
			if (!(a in has_doc))
				problem(src ": gen: name " a ": no such documented name")
			printf "%s \\- %s\n", a, esc(summary[a]) > f
		} else if (w == "page") {
			if (!(a in has_doc))
				problem(src ": gen: page " a ": no such documented name")
			else
				printf "%s", body(a) > f
			generated[a] = page
		} else if (w == "family") {
			for (j = 1; j <= nnames; j++) {
				n = names[j]
				if (index(" " a " ", " " hdr[n] " ") && (n in has_doc))
					printf ".TP\n.BR %s (3)\n%s.\n", n, roff_text(summary[n]) > f
			}
		} else if (w == "index") {
			for (i = 1; i <= nfiles; i++) {
				h = files[i]
				fam = family[h]
				any = 0
				for (j = 1; j <= nnames; j++)
					if (hdr[names[j]] == h)
						any = 1
				if (!any)
					continue
				printf ".TP\n.I <%s>\n", h > f
				if (fam != "") {
					printf "%s.\n", page_ref(fam) > f
					continue
				}
				sep = ""
				for (j = 1; j <= nnames; j++)
					if (hdr[names[j]] == h) {
						printf "%s.BR %s (3)", sep, names[j] > f
						sep = ",\n"
					}
				printf ".\n" > f
			}
		} else if (w == "liburcu-missing") {
			sep = ""
			for (j = 1; j <= nnames; j++)
				if (!(names[j] in ukind) && names[j] !~ /^(rculist_|RCULIST_)/) {
					printf "%s.BR %s (3)", sep, names[j] > f
					sep = ",\n"
				}
			printf "%s\n", sep == "" ? "(none)" : "." > f
		} else if (w == "liburcu-only") {
			sep = ""
			for (n in ukind)
				if (uhdr[n] ~ a && !(n in kind))
					lonly[++nlonly] = n
			for (j = 1; j <= nlonly; j++) {
				printf "%s.B %s", sep, lonly[j] > f
				sep = ",\n"
			}
			printf "%s\n", sep == "" ? "none." : "." > f
		} else {
			problem(src ": unknown directive gen: " w)
		}
	}
	close(src)
	close(f)
}

END {
	if (doc_pending)
		problem(doc_where ": doc comment for " doc_name " ends its file")
	if (mode == "names") {
		for (i = 1; i <= nnames; i++)
			printf "%s\t%s\t%s\n", names[i], kind[names[i]], hdr[names[i]]
		exit nproblems > 0
	}
	# Names in the order they are defined: header by header, line by line.
	for (i = 2; i <= nnames; i++)
		for (j = i; j > 1 && where[names[j - 1]] > where[names[j]]; j--) {
			t = names[j]
			names[j] = names[j - 1]
			names[j - 1] = t
		}
	load_urcu()
	load_families()
	idx = out "/index"
	for (i = 1; i <= nnames; i++) {
		n = names[i]
		if (!(n in has_doc)) {
			problem(hdr[n] ": " n " (" kind_word(kind[n], n) ") has no doc comment")
			continue
		}
		if (ctx[n] == "")
			problem(hdr[n] ": " n ": the doc comment has no Context: (the concurrency contract)")
		np = split(params[n], p, " ")
		for (j = 1; j <= np; j++)
			if (index(alltext[n] " ", "@" p[j]) == 0)
				problem(hdr[n] ": " n ": the doc comment does not describe @" p[j])
		if (!((n ".3") in tmpl_of))
			write_page(n)
		printf "%s\t3\t%s\t%s\n", n, hdr[n], summary[n] > idx
	}
	for (tp in tmpl_of) {
		expand(tmpl_of[tp], tp)
		pn = tp
		sub(/\.[0-9]$/, "", pn)
		if ((pn in has_doc) && generated[pn] != tp)
			problem(tmpl_of[tp] ": the page of " pn " must contain .\\\" gen: page " pn)
	}
	close(idx)
	nl = out "/names"
	for (i = 1; i <= nnames; i++)
		print names[i] > nl
	close(nl)
	pf = out "/problems"
	printf "" > pf
	for (i = 1; i <= nproblems; i++)
		print problems[i] > pf
	close(pf)
}
