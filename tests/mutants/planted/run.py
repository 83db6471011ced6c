#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/mutants/planted/run.py - plant each bug of mutants.py, one at a
# time, in a scratch copy of the tree, and run unit tests against it.
#
#   run.py OUTDIR [--flavor F] [--full] [--before] [--suites GLOB...] [--] [NAME...]
#   run.py OUTDIR --dry-run    (each mutant's text is in its header once)
#
# Quick (default): the test files that exercise the list operations
# (QUICK, plus every tests/unit/mutation_*.c; or the globs --suites
# names; --before leaves mutation_*.c out), compiled at -O0
# against the planted header and linked with the flavour's library built
# from the real tree.  --full: the whole unit binary rebuilt by make in
# the scratch tree (the library too, where it uses the headers) and the
# whole suite run, as make check-unit runs it.  Prints one line per
# mutant: "<name>: killed (<failing tests>)" or "<name>: SURVIVED", and
# exits 1 if any mutant survived that mutants.py does not list as
# equivalent or as a memory-ordering bug.
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.abspath(os.path.join(here, "..", "..", ".."))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, here)
from mutants import MUTANTS, EQUIVALENT, ORDERING  # noqa: E402

# The suites that exercise the lists (globs under tests/unit/, .c left out).
QUICK = ["list*", "hlist*", "iterators", "nulls", "concurrent*", "debug_list",
         "debug_hlist*", "debug_rcu", "hashtable", "dq"]
CC = os.environ.get("CC", "cc")
ENV = dict(os.environ, RCULIST_TEST_CONC_SECS="0.2", RCULIST_TEST_FORKS="250")


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, **kw)


def failing(log):
    names = re.findall(r"^\[(?:FAIL|CRASH)\] ([^:\s]+::[^:\s]+)", log, re.M)
    names += re.findall(r"^\[----\] ([^:\s]+::[^:\s]+): Timed out", log, re.M)
    return sorted(set(names))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--flavor", default="memb")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--suites", nargs="*")
    ap.add_argument("--before", action="store_true",
                    help="leave out tests/unit/mutation_*.c (and, with "
                    "--full, delete them from the scratch tree)")
    ap.add_argument("--bound", type=int, default=120)
    ap.add_argument("--dry-run", action="store_true",
                    help="only check that every mutant still applies")
    ap.add_argument("names", nargs="*")
    a = ap.parse_intermixed_args()

    if a.dry_run:
        bad = [m[0] for m in MUTANTS if open(os.path.join(
            top, "include/rculist", m[1])).read().count(m[2]) != 1]
        for name in bad:
            print(f"{name}: does not apply (its header changed: update "
                  "tests/mutants/planted/mutants.py)", file=sys.stderr)
        print(f"== planted: {len(MUTANTS) - len(bad)} of {len(MUTANTS)} "
              "list mutants apply to the headers")
        sys.exit(1 if bad else 0)

    tree = os.path.join(os.path.abspath(a.out), "tree")
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    for p in ["Makefile", "include", "core", "flavors", "tests"]:
        sh(["cp", "-R", os.path.join(top, p), tree])
    if a.before:
        for f in glob.glob(os.path.join(tree, "tests/unit/mutation_*.c")):
            os.remove(f)
    # The real unit binary: the library and its links, every object.
    lib = f"build/tests/{a.flavor}/unit"
    r = sh(["make", "-s", "-C", tree, "-j2", lib])
    if r.returncode:
        sys.exit("the real tree does not build:\n" + r.stdout)
    pats = a.suites or QUICK + ([] if a.before else ["mutation_*"])
    files = sorted({os.path.basename(f)[:-2] for p in pats for f in
                    glob.glob(os.path.join(tree, "tests/unit", p + ".c"))})
    if not files:
        sys.exit(f"no test file matches {pats}")

    todo = [m for m in MUTANTS if not a.names or m[0] in a.names]
    survivors = 0
    for name, header, old, new in todo:
        path = os.path.join(tree, "include/rculist", header)
        real = open(path).read()
        if real.count(old) != 1:
            print(f"{name}: does not apply ({header} changed)", flush=True)
            survivors += 1
            continue
        with open(path, "w") as f:
            f.write(real.replace(old, new))
        try:
            if a.full:
                r = sh(["make", "-s", "-C", tree, "-j2", lib])
                binary = os.path.join(tree, lib)
            else:
                qdir = os.path.join(tree, "quick")
                os.makedirs(qdir, exist_ok=True)
                procs = []
                objs = []
                for t in files:
                    o = os.path.join(qdir, t + ".o")
                    objs.append(o)
                    procs.append(subprocess.Popen(
                        [CC, "-Iinclude", "-pthread", "-DBXF_STATIC_LIB=1",
                         "-std=gnu11", "-O0", "-w", "-c",
                         f"tests/unit/{t}.c", "-o", o], cwd=tree,
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
                    if len(procs) >= 2:
                        procs.pop(0).wait()
                for p in procs:
                    p.wait()
                binary = os.path.join(qdir, "unit")
                r = sh([CC, "-o", binary] + objs +
                       [f"-lrculist-{a.flavor}", "-Lbuild/lib",
                        "-Wl,-rpath," + os.path.join(tree, "build/lib"),
                        "-lcriterion", "-lpthread"], cwd=tree)
            if r.returncode:
                print(f"{name}: does not build:\n{r.stdout[-2000:]}",
                      flush=True)
                survivors += 1
                continue
            try:
                r = sh([binary, "--jobs", "2"] + ([] if a.full else ["--fail-fast"]),
                       env=ENV, timeout=a.bound)
                rc, log = r.returncode, r.stdout
            except subprocess.TimeoutExpired as e:
                rc, log = "timeout", (e.stdout or b"").decode(errors="replace")
            if rc != 0:
                f = failing(log)
                more = f" and {len(f) - 3} more" if len(f) > 3 else ""
                print(f"{name}: killed ({', '.join(f[:3]) or rc}{more})",
                      flush=True)
            else:
                why = EQUIVALENT.get(name) or ORDERING.get(name)
                print(f"{name}: SURVIVED" + (f" (expected: {why})" if why else ""),
                      flush=True)
                if not why:
                    survivors += 1
        finally:
            with open(path, "w") as f:
                f.write(real)
    print(f"planted: {len(todo)} mutants, {survivors} unexpected survivors")
    sys.exit(1 if survivors else 0)


if __name__ == "__main__":
    main()
