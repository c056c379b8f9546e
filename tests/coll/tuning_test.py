#!/usr/bin/env python3
"""Tuning rules (src/coll/tuning.c, tools/oshtune; docs/TUNING.md).

    tuning_test.py BIN choice     a rule changes what auto runs; forced names still win
    tuning_test.py BIN malformed  each bad file stops init with one line naming file:line
    tuning_test.py BIN mismatch   PEs given different rules stop init, named by PE 0;
                                  files differing only in comments and aliases agree
    tuning_test.py BIN oshtune    oshtune --quick writes rules that parse, run right, and
                                  decide what runs
    tuning_test.py BIN oshtune_fails  where no probe runs, or a count is negative, oshtune
                                  exits non-zero, says why, and leaves the file alone
    tuning_test.py BIN oshtune_rounds  an algorithm fast in one round of three and slow in
                                  the others does not win: the median round ranks

BIN holds oshrun, oshtune and oshtune_probe.  Which algorithm ran comes from
the profile (SHOAL_PROFILE: a row per routine and algorithm)."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
WORK = tempfile.mkdtemp(prefix="shoal-tuning.")
fails = []


def run(np, args, env=None, wrapper=None, timeout=60):
    e = dict(os.environ, **(env or {}))
    cmd = [os.path.join(BIN, "oshrun"), "-np", str(np)] + ([wrapper] if wrapper else []) + args
    return subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=timeout)


def rules(name, text):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def probe(kind, sizes):
    return [os.path.join(BIN, "oshtune_probe"), kind, "--ms", "1", "--batches", "1"] + [str(s) for s in sizes]


def reduce_algorithms(np, nbytes, env):
    """Algorithms PE 0's profile shows for the long sum reduction (the probe's timed call)."""
    prof = tempfile.mkdtemp(dir=WORK)
    r = run(np, probe("reduce", [nbytes]), dict(env, SHOAL_PROFILE=prof))
    if r.returncode != 0:
        fails.append("reduce at %d PEs, %s: status %d\n%s" % (np, env, r.returncode, r.stderr))
        return set()
    with open(os.path.join(prof, "pe0.json")) as f:
        p = json.load(f)
    return {c["algorithm"] for c in p["collectives"] if c["routine"] == "shmem_long_sum_reduce"}


def expect_alg(np, nbytes, env, want):
    got = reduce_algorithms(np, nbytes, env)
    if got and got != {want}:
        fails.append("%d PEs, %d B, %s: ran %s, want %s" % (np, nbytes, env, sorted(got), want))


def choice():
    none = {"SHOAL_TUNING_FILE": "none"}
    ring = rules("ring.rules", "# 2-PE reductions: ring\nreduce shm pes=2 bytes=0- ring\n")
    expect_alg(2, 8, none, "recdbl")                                   # the model's answer
    expect_alg(2, 8, {"SHOAL_TUNING_FILE": ring}, "ring")              # the rule's
    expect_alg(2, 8, {"SHOAL_TUNING_FILE": ring, "SHMEM_REDUCE_ALGORITHM": "flat"}, "flat")   # forced wins
    other = rules("other.rules", "reduce shm pes=3- bytes=0- ring\nreduce net pes=2 ring\n"
                  "reduce any pes=2 bytes=1k- ring\nbcast shm pes=2 linear\n")
    expect_alg(2, 8, {"SHOAL_TUNING_FILE": other}, "recdbl")          # no rule matches: the model
    expect_alg(2, 2048, {"SHOAL_TUNING_FILE": other}, "ring")         # a size range, locality any
    first = rules("first.rules", "reduce shm pes=2 bytes=0-15 flat\nreduce shm pes=2 bytes=8- ring\n")
    expect_alg(2, 8, {"SHOAL_TUNING_FILE": first}, "flat")            # the first match wins
    expect_alg(2, 16, {"SHOAL_TUNING_FILE": first}, "ring")
    r = run(2, probe("barrier", [0]), {"SHOAL_TUNING_FILE": first, "SHMEM_INFO": "1"})
    if "tuning rules: %s (2 rules" % first not in r.stdout:
        fails.append("SHMEM_INFO does not name the rules file:\n" + r.stdout[-500:])


BAD = [  # (file text, line, what the message says)
    ("reduce shm pes=2 bytes=0- ring\nreduc shm ring\n", 2, r'"reduc" is not a collective'),
    ("# c\n\nreduce local ring\n", 3, r'"local" is not a locality'),
    ("reduce shm pes=2-x ring\n", 1, r"pes=2-x is not a range"),
    ("reduce shm bytes=9-3 ring\n", 1, r"bytes=9-3 is not a range"),
    ("reduce shm pes=2 ringg\n", 1, r'"ringg" is not a reduce algorithm a rule may name \(valid: auto, flat'),
    ("bcast shm hier\n", 1, r'"hier" is not a bcast algorithm'),
    ("reduce shm\n", 1, r"too few words"),
    ("reduce shm size=4 ring\n", 1, r'"size=4" is neither pes=LO-HI nor bytes=LO-HI'),
]


def malformed():
    for i, (text, line, what) in enumerate(BAD):
        path = rules("bad%d.rules" % i, text)
        r = run(3, probe("barrier", [0]), {"SHOAL_TUNING_FILE": path})
        errors = [l for l in r.stderr.splitlines() if l.startswith("Shoal error")]
        pattern = r"PE \d+: shmem_init: SHOAL_TUNING_FILE %s:%d: %s.*a rule reads KIND LOCALITY" % (
            re.escape(path), line, what)
        if r.returncode == 0 or len(errors) != 1 or not re.search(pattern, errors[0]):
            fails.append("bad file %r: status %d, want one line matching %r; stderr:\n%s" % (text, r.returncode,
                                                                                          pattern, r.stderr))
    for path in (os.path.join(WORK, "missing.rules"), WORK):   # no file; a directory
        r = run(2, probe("barrier", [0]), {"SHOAL_TUNING_FILE": path})
        if r.returncode == 0 or "%s cannot be read" % path not in r.stderr:
            fails.append("unreadable %s: status %d, stderr:\n%s" % (path, r.returncode, r.stderr))


def per_pe_wrapper(files):
    """A script giving PE i the file files[i] (SHOAL_PE is oshrun's rank for the PE)."""
    cases = "".join("%d) SHOAL_TUNING_FILE=%s ;;\n" % (i, f) for i, f in enumerate(files))
    path = os.path.join(WORK, "per_pe%d.sh" % len(glob.glob(os.path.join(WORK, "per_pe*"))))
    with open(path, "w") as f:
        f.write("#!/bin/sh\ncase $SHOAL_PE in\n%sesac\nexport SHOAL_TUNING_FILE\nexec \"$@\"\n" % cases)
    os.chmod(path, 0o755)
    return path


def mismatch():
    a = rules("a.rules", "reduce shm pes=2 bytes=0- ring\n")
    b = rules("b.rules", "reduce shm pes=2 bytes=0- flat\n")
    r = run(4, probe("reduce", [8]), wrapper=per_pe_wrapper([a, a, b, "none"]))
    errors = [l for l in r.stderr.splitlines() if l.startswith("Shoal error")]
    want = r"PE 0: shmem_init: the tuning rules differ between PEs: PEs 2, 3 read other rules than PE 0 \(%s\)" % (
        re.escape(a))
    if r.returncode == 0 or len(errors) != 1 or not re.search(want, errors[0]):
        fails.append("different files: status %d, want one line matching %r; stderr:\n%s" % (r.returncode, want,
                                                                                           r.stderr))
    same = rules("same.rules", "# another comment\nREDUCE  shm  pes=2  bytes=0-  ring   # spaced\n")
    r = run(2, probe("reduce", [8]), wrapper=per_pe_wrapper([a, same]))
    if r.returncode != 0:
        fails.append("files differing in comments and spacing only: status %d\n%s" % (r.returncode, r.stderr))


def rule_lines(path):
    out = []
    for line in open(path):
        w = line.split("#")[0].split()
        if w:
            out.append(w)
    return out


def oshtune():
    out = os.path.join(WORK, "tuned.rules")
    r = subprocess.run([os.path.join(BIN, "oshtune"), "--quick", "--out", out], capture_output=True, text=True,
                       timeout=120)
    if r.returncode != 0 or not os.path.exists(out):
        fails.append("oshtune --quick: status %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
        return
    text = open(out).read()
    if not re.search(r"^# machine: .*\n# date: .*\n# command: oshtune --quick --out ", text, re.M):
        fails.append("oshtune's header lacks machine, date or command:\n" + text)
    ws = rule_lines(out)
    kinds = {w[0] for w in ws}
    if kinds != {"barrier", "bcast", "reduce", "collect", "fcollect", "alltoall"}:
        fails.append("oshtune wrote rules for %s only:\n%s" % (sorted(kinds), text))
    env = {"SHOAL_TUNING_FILE": out}
    for kind in ["barrier", "bcast", "reduce", "collect", "fcollect", "alltoall"]:
        for np in (3,):   # 2 PEs: the reductions below
            r = run(np, probe(kind, [8, 1000, 65536] if kind != "barrier" else [0]), env)
            if r.returncode != 0:
                fails.append("%s at %d PEs under the tuned file: status %d\n%s" % (kind, np, r.returncode,
                                                                                   r.stderr))
    # The file decides: the 2-PE reduction of each size runs the rule's algorithm.
    for w in ws:
        if w[0] == "reduce" and w[2] == "pes=2":
            lo = int(w[3].split("=")[1].split("-")[0])
            expect_alg(2, max(8, (lo + 7) // 8 * 8), env, w[4])


def fake_bin(name, oshrun_text):
    """A directory for oshtune --bin whose oshrun is the script given."""
    fake = os.path.join(WORK, name)
    os.makedirs(fake)
    with open(os.path.join(fake, "oshrun"), "w") as f:
        f.write(oshrun_text)
    os.chmod(os.path.join(fake, "oshrun"), 0o755)
    return fake


def oshtune_fails():
    """Where nothing runs (here an oshrun that always fails), oshtune says so,
    exits non-zero and leaves the file it was given as it was."""
    fake = fake_bin("fakebin", "#!/bin/sh\necho 'oshrun: cannot start the job' >&2\nexit 3\n")
    os.symlink(os.path.join(BIN, "oshtune_probe"), os.path.join(fake, "oshtune_probe"))
    out = rules("kept.rules", "reduce shm pes=2 ring\n")
    r = subprocess.run([os.path.join(BIN, "oshtune"), "--quick", "--kinds", "reduce", "--bin", fake, "--out", out],
                       capture_output=True, text=True, timeout=120)
    if r.returncode == 0 or "no algorithm ran right" not in r.stderr or "cannot start the job" not in r.stderr:
        fails.append("oshtune where nothing runs: status %d, want non-zero naming the failure\n%s"
                     % (r.returncode, r.stderr))
    with open(out) as f:
        if f.read() != "reduce shm pes=2 ring\n":
            fails.append("oshtune where nothing runs rewrote %s" % out)
    # A negative count is refused up front, naming the option (it used to
    # run no round and blame the algorithms).
    for opt in ("--rounds", "--batches", "--ms"):
        r = subprocess.run([os.path.join(BIN, "oshtune"), "--quick", "--kinds", "reduce", opt, "-1", "--out", out],
                           capture_output=True, text=True, timeout=60)
        if r.returncode == 0 or ("%s -1" % opt) not in r.stderr or "no algorithm ran right" in r.stderr:
            fails.append("oshtune %s -1: status %d, want an error naming %s\n%s" % (opt, r.returncode, opt, r.stderr))
    with open(out) as f:
        if f.read() != "reduce shm pes=2 ring\n":
            fails.append("oshtune with a negative count rewrote %s" % out)


# A stand-in for oshrun that answers as oshtune_probe would: recdbl takes
# 1 us in the first run and 3 us after, every other algorithm 2 us.
SCRIPTED_OSHRUN = """#!/usr/bin/env python3
import os, sys
count = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runs")
n = int(open(count).read()) + 1 if os.path.exists(count) else 1
open(count, "w").write(str(n))
args = sys.argv[1:]
algs = args[args.index("--algorithms") + 1].split(",")
sizes = [int(x) for x in args if x.isdigit()][-1:]
for alg in algs:
    us = (1.0 if n == 1 else 3.0) if alg == "recdbl" else 2.0
    for s in sizes:
        print("reduce %d %g %s" % (s, us, alg))
"""


def oshtune_rounds():
    """oshtune ranks by the median of its rounds: an algorithm that swings
    (one lucky round of three) loses to one steadily faster in the others."""
    fake = fake_bin("scripted", SCRIPTED_OSHRUN)
    out = os.path.join(WORK, "rounds.rules")
    r = subprocess.run([os.path.join(BIN, "oshtune"), "--kinds", "reduce", "--np", "2", "--sizes", "8",
                        "--rounds", "3", "--bin", fake, "--out", out], capture_output=True, text=True, timeout=60)
    if r.returncode != 0 or not os.path.exists(out):
        fails.append("oshtune under the scripted probe: status %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
        return
    picked = [w[4] for w in rule_lines(out) if w[0] == "reduce" and w[2] == "pes=2"]
    if picked != ["bruck"]:   # every steady algorithm ties at 2 us; the first by name wins the tie
        fails.append("oshtune ranked by a lucky round: reduce at 2 PEs picked %s, want a steady 2 us "
                     "algorithm, not recdbl (1 us once, 3 us twice)\n%s" % (picked, open(out).read()))


def main():
    tests = {"choice": choice, "malformed": malformed, "mismatch": mismatch, "oshtune": oshtune,
             "oshtune_fails": oshtune_fails, "oshtune_rounds": oshtune_rounds}
    for name in sys.argv[2:]:
        tests[name]()
    if fails:
        sys.exit("tuning_test: FAIL (files kept in %s)\n" % WORK + "\n".join(fails))
    shutil.rmtree(WORK, ignore_errors=True)
    print("tuning_test: %s ok" % ", ".join(sys.argv[2:]))


if __name__ == "__main__":
    main()
