#!/usr/bin/env python3
"""Checks the profile of prof_known.c: every count recomputed here from the
numbers the program prints (its first line), per target PE."""
import collections, glob, json, re, sys

def main(outfile, pdir, n):
    n = int(n)
    line = open(outfile).read()
    m = re.search(r"known: (.*)", line)
    if not m:
        sys.exit("check_profile: the program's 'known:' line is missing from %s" % outfile)
    k = {a: int(b) for a, b in (kv.split("=") for kv in m.group(1).split())}
    files = sorted(glob.glob(pdir + "/pe*.json"))
    if len(files) != n:
        sys.exit("check_profile: %d profile files in %s, want %d" % (len(files), pdir, n))
    fails = []
    for pe in range(n):
        prof = json.load(open("%s/pe%d.json" % (pdir, pe)))
        right, left, far = (pe + 1) % n, (pe - 1) % n, (pe + 2) % n
        want = collections.defaultdict(lambda: [0, 0])
        def book(key, target, count, size):
            want[(target, key)][0] += count
            want[(target, key)][1] += count * size
        book("put", right, k["PUTS"], 8)
        book("put_nbi", left, k["PUT_NBI"], 16)
        book("get", far, k["GETS"], 24)
        book("amo", 0, k["AMOS"], 8)
        book("amo_nbi", 0, k["AMO_NBI"], 8)
        book("signal", right, k["PUT_SIGNALS"], 24)
        book("signal", right, k["SIGNAL_ADDS"], 8)
        got = {}
        for t in prof["targets"]:
            for key, v in t.items():
                if key != "pe":
                    got[(t["pe"], key)] = [v["count"], v["bytes"]]
        if got != dict(want):
            fails.append("PE %d targets: got %s, want %s" % (pe, sorted(got.items()), sorted(want.items())))
        routines = {r["routine"]: r for r in prof["routines"]}
        for name, calls in [("shmem_putmem", k["PUTS"]), ("shmem_long_put_nbi", k["PUT_NBI"]),
                            ("shmem_barrier_all", k["BARRIERS"]), ("shmem_long_sum_reduce", k["REDUCES"]),
                            ("shmem_long_broadcast", k["BROADCASTS"]), ("shmem_quiet", k["QUIETS"] + 1),
                            ("shmem_signal_wait_until", 1)]:
            if routines.get(name, {}).get("calls") != calls:
                fails.append("PE %d: %s calls %s, want %d" % (pe, name, routines.get(name), calls))
        w = prof["waits"]
        for cls, calls in [("barrier", k["BARRIERS"]), ("collective", k["REDUCES"] + k["BROADCASTS"]),
                           ("quiet", k["QUIETS"] + 1), ("wait", 1)]:
            if w[cls]["calls"] != calls:
                fails.append("PE %d: wait class %s calls %d, want %d" % (pe, cls, w[cls]["calls"], calls))
        colls = {(c["routine"], c["team"]): c for c in prof["collectives"]}
        red = colls.get(("shmem_long_sum_reduce", "world"))
        if not red or red["calls"] != k["REDUCES"] or red["bytes"] != k["REDUCES"] * 24 or red["team_pes"] != n:
            fails.append("PE %d: reduce row %s" % (pe, red))
        elif n > 1 and red["algorithm"] in ("", "none"):
            fails.append("PE %d: reduce row names no algorithm: %s" % (pe, red))
    if fails:
        sys.exit("check_profile: FAIL\n" + "\n".join(fails))
    print("check_profile: %d PEs, every count exact" % n)

if __name__ == "__main__":
    main(*sys.argv[1:])
