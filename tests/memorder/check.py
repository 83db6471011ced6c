#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Check the memory ordering of rculist's RCU operations in aarch64 code.

usage: check.py OPS.c ASM.s [HEADER...]
       check.py --plant MUTANTS NAME SRC_DIR DST_DIR

OPS.c holds one function t_<operation> per operation, each preceded by
its "expect:" lines (their meaning is at the top of tests/memorder/ops.c);
ASM.s is OPS.c compiled for aarch64 with -S (gcc or clang).  Each function
is run through a small symbolic interpreter: its parameters are x0..x7,
a load from offset 0 / 8 of a value v yields the value "v->next" /
"v->prev", a store is recorded with the location and value it writes and
its ordering (stlr: release; ldar, ldapr: acquire; dmb: barrier).  The
interpreter reads the instructions in the order of the listing, ignoring
branches: the functions are small, and a loop's registers keep the names
of their first pass (the expectations use `*` where a loop finds a node).

The HEADERs are scanned for the public _rcu operations, iterators and
accessors they define: each must have its t_ function here.

Exit status 0 if every expectation holds, 1 otherwise (each failure named
on its own line), 2 on a usage or parse error.
"""
import re
import sys

FIELDS = {0: "next", 8: "prev"}
ACQUIRE = {"ldar", "ldapr", "ldapur", "ldaxr"}
# An acquire read-modify-write: LSE's acquire forms, an exclusive acquire
# load, or libgcc's outline atomics (-moutline-atomics, gcc's default).
ACQUIRE_RMW = re.compile(r"\b(casa|casal|caspa|caspal|swpa|swpal|ldadda|ldaddal|ldseta|ldsetal"
                         r"|ldclra|ldclral|ldeora|ldeoral|ldaxr|ldaxp)\b"
                         r"|\bbl\s+__aarch64_\w+_acq(_rel)?\b")
RELEASE = {"stlr", "stlur", "stlxr"}
FULL_BARRIERS = {"dmb ish", "dmb sy", "dsb ish", "dsb sy"}


class Value:
    """A register's value: a symbolic term plus a byte offset."""

    def __init__(self, term, off=0):
        self.term, self.off = term, off

    def plus(self, n):
        return Value(self.term, self.off + n) if self.term else UNKNOWN

    def name(self):
        if self.term is None:
            return "?"
        return self.term if self.off == 0 else "%s%+d" % (self.term, self.off)


UNKNOWN = Value(None)


def loc_name(base, off):
    """The name of the location at byte @off from the value @base."""
    total = base.off + off
    return "%s->%s" % (base.term, FIELDS.get(total, "[%d]" % total))


class Event:
    def __init__(self, kind, order, loc, value, wide, stack, text):
        self.kind, self.order, self.loc, self.value = kind, order, loc, value
        self.wide, self.stack, self.text = wide, stack, text


def reg_index(r):
    """x5/w5 -> 5, sp/wsp -> 'sp', xzr/wzr -> 'zr', else None."""
    r = r.strip().lower()
    if r in ("sp", "wsp"):
        return "sp"
    if r in ("xzr", "wzr"):
        return "zr"
    m = re.fullmatch(r"[xw](\d+)", r)
    return int(m.group(1)) if m else None


def imm(s):
    s = s.strip().lstrip("#")
    return int(s, 0)


def split_operands(s):
    """Operands of an instruction, keeping [..] groups whole."""
    out, depth, cur = [], 0, ""
    for c in s:
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def interpret(lines, params):
    """The memory events of one function's instructions."""
    regs = {i: Value(p) for i, p in enumerate(params)}
    regs["sp"] = Value("sp")
    vregs = {}  # SIMD registers that hold two links (a 16-byte copy)
    memory = {}
    events = []
    fresh = [0]

    def get(r):
        i = reg_index(r)
        if i == "zr":
            return Value("NULL")
        return regs.get(i, UNKNOWN)

    def put(r, v):
        if re.fullmatch(r"[qdv]\d+", r.strip().lower()):
            vregs.pop(r.strip().lower()[1:], None)
            return
        i = reg_index(r)
        if i is None or i == "zr":
            return
        # A 32-bit result is an int, never a link.
        regs[i] = v if r.strip().lower()[0] != "w" else UNKNOWN

    def address(op, rest):
        """Base value and offset of [xN, off] (with ! or post-index)."""
        m = re.fullmatch(r"\[\s*([a-z0-9]+)\s*(?:,\s*(#?-?\w+))?\s*\](!?)", op)
        if not m:
            return None
        base = get(m.group(1))
        off = imm(m.group(2)) if m.group(2) else 0
        if m.group(3) == "!":
            put(m.group(1), base.plus(off))
            return base, off
        if rest:  # post-index: [xN], #imm
            put(m.group(1), base.plus(imm(rest[0])))
        return base, off

    def load(dst, base, off):
        if base.term is None:
            fresh[0] += 1
            return Value("?%d" % fresh[0])
        key = loc_name(base, off)
        return memory.get(key, Value(key))

    for text in lines:
        parts = text.split(None, 1)
        op = parts[0].lower()
        ops = split_operands(parts[1]) if len(parts) > 1 else []
        if op in ("dmb", "dsb"):
            events.append(Event("barrier", "%s %s" % (op, ops[0]), None, None,
                                False, False, text))
            continue
        if op.startswith("ld") and "[" in (parts[1] if len(parts) > 1 else ""):
            pair = op.startswith("ldp") or op.startswith("ldnp")
            dsts = ops[:2] if pair else ops[:1]
            addr_i = len(dsts)
            where = address(ops[addr_i], ops[addr_i + 1:])
            if where is None:
                for d in dsts:
                    put(d, UNKNOWN)
                continue
            base, off = where
            order = "acquire" if op in ACQUIRE else "plain"
            q = re.fullmatch(r"q(\d+)", dsts[0].lower())
            if q and len(dsts) == 1:
                lanes = [load(None, base, off), load(None, base, off + 8)]
                for k in (0, 1):
                    events.append(Event("load", order, loc_name(base, off + 8 * k)
                                        if base.term else "?", lanes[k], True,
                                        base.term == "sp", text))
                vregs[q.group(1)] = lanes
                continue
            for k, d in enumerate(dsts):
                wide = d.lower().startswith("x") and op in (
                    "ldr", "ldur", "ldp", "ldnp", "ldar", "ldapr", "ldapur",
                    "ldaxr", "ldxr")
                size = 8 if d.lower().startswith("x") else 4
                v = load(d, base, off + k * size)
                events.append(Event("load", order, loc_name(base, off + k * size)
                                    if base.term else "?", v, wide,
                                    base.term == "sp", text))
                put(d, v)
            continue
        if op.startswith("st") and len(ops) >= 2 and "[" in parts[1]:
            pair = op.startswith("stp") or op.startswith("stnp")
            exclusive = op in ("stlxr", "stxr")
            srcs = ops[1:2] if exclusive else (ops[:2] if pair else ops[:1])
            addr_i = 3 if (pair and exclusive) else (2 if (pair or exclusive) else 1)
            where = address(ops[addr_i], ops[addr_i + 1:])
            if where is None:
                continue
            base, off = where
            order = "release" if op in RELEASE else "plain"
            q = re.fullmatch(r"q(\d+)", srcs[0].lower())
            if q and len(srcs) == 1:
                lanes = vregs.get(q.group(1), [UNKNOWN, UNKNOWN])
                for k in (0, 1):
                    loc = loc_name(base, off + 8 * k) if base.term else "?"
                    events.append(Event("store", order, loc, lanes[k], True,
                                        base.term == "sp", text))
                    if base.term:
                        memory[loc] = lanes[k]
                continue
            for k, s in enumerate(srcs):
                size = 8 if s.lower()[0] == "x" else 4
                v = get(s) if s.lower()[0] == "x" or reg_index(s) == "zr" else UNKNOWN
                loc = loc_name(base, off + k * size) if base.term else "?"
                events.append(Event("store", order, loc, v, size == 8,
                                    base.term == "sp", text))
                if base.term:
                    memory[loc] = v
            continue
        if op in ("bl", "blr"):
            # The callee may clobber x0-x18, x30 and any memory.
            for i in list(range(19)) + [30]:
                regs[i] = UNKNOWN
            memory = {k: v for k, v in memory.items() if k.startswith("sp->")}
            events.append(Event("call", None, None, None, False, False, text))
            continue
        lane = re.fullmatch(r"v(\d+)\.d\[([01])\]", ops[1].lower()) if len(ops) == 2 else None
        if op in ("umov", "mov") and lane:
            put(ops[0], vregs.get(lane.group(1), [UNKNOWN, UNKNOWN])[int(lane.group(2))])
            continue
        if op == "fmov" and len(ops) == 2 and re.fullmatch(r"d\d+", ops[1].lower()):
            put(ops[0], vregs.get(ops[1][1:], [UNKNOWN])[0])
            continue
        if op == "mov" and len(ops) == 2:
            if reg_index(ops[1]) is not None:
                put(ops[0], get(ops[1]))
            else:
                put(ops[0], UNKNOWN)
            continue
        if op in ("add", "sub") and len(ops) == 3 and ops[2].lstrip("#-").isalnum():
            try:
                n = imm(ops[2])
            except ValueError:
                put(ops[0], UNKNOWN)
                continue
            put(ops[0], get(ops[1]).plus(n if op == "add" else -n))
            continue
        # Anything else that writes a register makes it unknown.
        if ops and reg_index(ops[0]) is not None and not op.startswith(("b", "c", "t", "ret")):
            put(ops[0], UNKNOWN)
    return events


def pattern_re(expr):
    """A regular expression for an expectation's location or value."""
    return "^" + re.escape(expr).replace(r"\*", r".+") + "$"


def release_ordered(events, i, publishes):
    """Whether store events[i] is ordered after every earlier store: a
    release, or a plain store with a full barrier between it and every
    earlier store other than the publications themselves."""
    if events[i].order == "release":
        return True
    for e in reversed(events[:i]):
        if e.kind == "barrier" and e.order in FULL_BARRIERS:
            return True
        if e.kind == "call":
            return False
        if e.kind == "store" and not e.stack and not publishes(e):
            return False
    return False


def parse_ops(path):
    """{function name: (params, [expectation lines])} from OPS.c."""
    src = open(path).read()
    funcs = {}
    for m in re.finditer(r"/\*((?:(?!\*/).)*?expect:(?:(?!\*/).)*)\*/\s*\n"
                         r"\w+\s+(t_\w+)\(([^)]*)\)", src, re.S):
        expects = [l.strip() for l in re.findall(r"expect:\s*([^\n*]+)", m.group(1))]
        params = []
        for p in m.group(3).split(","):
            p = p.strip()
            if p and p != "void":
                params.append(re.findall(r"\w+", p)[-1])
        funcs[m.group(2)] = (params, expects)
    return funcs


def parse_asm(path):
    """{function name: [instruction text]} from an -S listing."""
    funcs, cur = {}, None
    for raw in open(path):
        line = raw.split("//")[0].rstrip()
        m = re.match(r"^(t_\w+):", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        if cur is None:
            continue
        s = line.strip()
        if s.startswith(".size") or s.startswith(".cfi_endproc"):
            cur = None
            continue
        if not s or s.startswith(".") or s.endswith(":") or s.startswith("@"):
            continue
        cur.append(s)
    return funcs


def public_rcu_names(headers):
    """The _rcu operations, iterators and accessors the headers define."""
    names = set()
    for h in headers:
        text = open(h).read()
        names.update(re.findall(r"^#define\s+(cds_\w+_rcu(?:_2)?)\(", text, re.M))
        names.update(re.findall(r"^static inline [^;(]*?\b(cds_\w+_rcu(?:_2)?|CDS_\w+_RCU)\(",
                                text, re.M))
    return names


def check_function(name, params, expects, lines):
    """The failures of one function, as strings."""
    events = interpret(lines, params)
    fails = []
    stores = [e for e in events if e.kind == "store" and not e.stack]
    loads = [e for e in events if e.kind == "load" and not e.stack]
    rel = [(re.compile(pattern_re(a.strip())), re.compile(pattern_re(v.strip())), a.strip(),
            v.strip())
           for a, v in (re.fullmatch(r"release\s+(.+?)\s*=\s*(.+)", x).groups()
                        for x in expects if x.startswith("release "))]

    def publishes(e):
        return any(a.match(e.loc) and v.match(e.value.name()) for a, v, _, _ in rel)

    ordered = [i for i, e in enumerate(events)
               if e.kind == "store" and not e.stack and release_ordered(events, i, publishes)]
    for a, v, atext, vtext in rel:
        hits = [i for i, e in enumerate(events)
                if e.kind == "store" and not e.stack and a.match(e.loc)
                and v.match(e.value.name())]
        if not hits:
            seen = ", ".join("%s = %s (%s)" % (e.loc, e.value.name(), e.text) for e in stores)
            fails.append("%s: no store of %s to %s (stores: %s)" % (name, vtext, atext,
                                                                    seen or "none"))
        for i in hits:
            if i not in ordered:
                fails.append("%s: publication %s = %s is not a release: `%s`"
                             % (name, atext, vtext, events[i].text))
    for x in expects:
        m = re.fullmatch(r"releases\s+(\d+)", x)
        if m and len(ordered) < int(m.group(1)):
            fails.append("%s: %d release stores, expected at least %s"
                         % (name, len(ordered), m.group(1)))
        m = re.fullmatch(r"acquire\s+(\D.*)", x)
        if m:
            at = re.compile(pattern_re(m.group(1).strip()))
            hits = [e for e in loads if at.match(e.loc)]
            if not hits:
                seen = ", ".join("%s (%s)" % (e.loc, e.text) for e in loads)
                fails.append("%s: no load of %s (loads: %s)" % (name, m.group(1).strip(),
                                                                 seen or "none"))
            for e in hits:
                if e.order != "acquire":
                    fails.append("%s: load of %s is not an acquire: `%s`"
                                 % (name, e.loc, e.text))
        m = re.fullmatch(r"acquire\s+(\d+)", x)
        if m:
            links = [e for e in loads if e.wide]
            for e in links:
                if e.order != "acquire":
                    fails.append("%s: reader load of %s is not dependency-ordered "
                                 "(no acquire): `%s`" % (name, e.loc, e.text))
            if len([e for e in links if e.order == "acquire"]) < int(m.group(1)):
                fails.append("%s: %d ordered link loads, expected at least %s"
                             % (name, len([e for e in links if e.order == "acquire"]),
                                m.group(1)))
            if stores:
                fails.append("%s: a reader that stores: `%s`" % (name, stores[0].text))
        if x == "acquire-rmw" and not any(ACQUIRE_RMW.search(line) for line in lines):
            fails.append("%s: no acquire read-modify-write (casa, ldaxr, ... or a call to "
                         "__aarch64_*_acq)" % name)
        if x == "plain" and not stores:
            fails.append("%s: no store at all" % name)
    return fails


def plant(argv):
    """check.py --plant MUTANTS NAME SRC DST: copy the directory SRC to DST
    with mutant NAME of the file MUTANTS applied (its text must occur
    exactly once, so that a changed header cannot turn a mutant into a
    no-op unnoticed)."""
    import shutil
    mutants, name, src, dst = argv[2:6]
    for line in open(mutants):
        f = [x.strip() for x in line.split("|")]
        if len(f) < 6 or f[0] != name:
            continue
        path = "%s/%s" % (dst, f[2])
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst)
        text = open(path).read()
        if text.count(f[3]) != 1:
            print("check.py: mutant %s: `%s` occurs %d times in %s, not once"
                  % (name, f[3], text.count(f[3]), f[2]), file=sys.stderr)
            return 2
        open(path, "w").write(text.replace(f[3], f[4]))
        return 0
    print("check.py: no mutant %s in %s" % (name, mutants), file=sys.stderr)
    return 2


def main(argv):
    if len(argv) > 1 and argv[1] == "--plant":
        return plant(argv)
    if len(argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    funcs = parse_ops(argv[1])
    asm = parse_asm(argv[2])
    if not funcs:
        print("check.py: no expectations in %s" % argv[1], file=sys.stderr)
        return 2
    fails = []
    for name in sorted(public_rcu_names(argv[3:])):
        if "t_" + name not in funcs:
            fails.append("%s: defined in the headers but not checked (add t_%s to %s)"
                         % (name, name, argv[1]))
    nrel = nacq = 0
    for name, (params, expects) in sorted(funcs.items()):
        if name not in asm:
            fails.append("%s: not in %s" % (name, argv[2]))
            continue
        fails += check_function(name, params, expects, asm[name])
        nrel += sum(1 for x in expects if x.startswith("release "))
        nacq += sum(1 for x in expects if x.startswith("acquire "))
    for f in fails:
        print("  FAIL " + f)
    print("   %s: %d functions, %d publications, %d readers: %s"
          % (argv[2], len(funcs), nrel, nacq, "FAILED" if fails else "ok"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
