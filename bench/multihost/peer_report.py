#!/usr/bin/env python3
"""Table of peer.sh's JSON lines: per shape and operation the median over
rounds for Shoal and Open MPI, and Shoal/Open MPI (for bandwidth, Open
MPI/Shoal, so below 1.0 always means Shoal is better).  With peer.sh
--tuning, a second table: Shoal under the tuning file against Shoal without
it.  Markdown on stdout.
    peer_report.py RAW.jsonl"""
import json
import statistics
import sys
from collections import defaultdict

OPS = ["put 8 B", "get 8 B", "fetch-add", "ping-pong one-way", "barrier", "sum-reduce 1 long",
       "broadcast 8 B", "fcollect 8 B", "collect 8-16 B", "alltoall 8 B", "sum-reduce 64 Ki longs", "broadcast 1 MiB", "put bandwidth 1 MiB"]
NAMES = {"1,1:block": "1x1", "2,2:rr": "2x2 rr", "4,4:block": "2x4 block", "2,2,2,2:block": "4x2",
         "2,2,2,2,2,2,2,2:block": "8x2", "8,8:block": "2x8 block",
         "1,1:block:own": "1x1 own cores", "2,2:rr:own": "2x2 rr own cores", "4,4:block:own": "2x4 own cores",
         "2,2,2,2:block:own": "4x2 hosts pinned", "2,2,2,2,2,2,2,2:block:own": "8x2 hosts pinned",
         "8,8:block:own": "2x8 own cores"}


def table(med, shapes, a_lib, a_name, b_lib, b_name):
    """One row per operation: a, b and a/b per shape (b/a for bandwidth)."""
    print("| operation |" + "".join(f" {NAMES.get(s, s)}: {a_name} | {b_name} | ratio |" for s in shapes))
    print("|---|" + "---|---|---|" * len(shapes))
    for op in OPS:
        row = f"| {op} |"
        for s in shapes:
            a, b = med.get((a_lib, s, op)), med.get((b_lib, s, op))
            fmt = (lambda v: f"{v:.2f}") if "bandwidth" in op else (lambda v: f"{v:.0f}" if v >= 10 else f"{v:.1f}")
            ratio = (b / a if "bandwidth" in op else a / b) if a and b else None
            row += f" {fmt(a) if a is not None else '-'} | {fmt(b) if b is not None else '-'} |"
            row += f" {ratio:.2f} |" if ratio is not None else " - |"
        print(row)
    print()


# One-host-per-side operations and the libfabric floor each sits on (mh_fabric.c).
FLOORS = {"get 8 B": ("read",), "fetch-add": ("fetch-add", "2x one-way"), "barrier": ("exchange",)}


def round_floor(rounds, r, names):
    """The floor of round r: the first of names that round measured ("2x one-way": twice the one-way)."""
    for name in names:
        if name == "2x one-way":
            v = rounds.get(("link", "1,1:block", "fabric one-way", r))
            return 2 * v if v else None
        v = rounds.get(("link", "1,1:block", "fabric " + name, r))
        if v:
            return v
    return None


def per_round(rounds, shapes):
    """At one PE per host the link drifts by seconds (medians of one process's batches 19-34 us within a
    run, both libraries), so the ratios of each round, whose runs follow each other, say more than the
    ratio of the medians: Shoal / Open MPI, libfabric's floor / Open MPI and Shoal / floor, medians."""
    one = [s for s in shapes if s.startswith("1,1:")]
    if not one:
        return
    shape = one[0]
    print(f"Round by round at {NAMES.get(shape, shape)} (medians of the per-round ratios; the floor: "
          "mh_fabric.c in the same round):")
    print()
    print("| operation | Shoal / Open MPI | rounds Shoal <= Open MPI | floor / Open MPI | Shoal / floor |")
    print("|---|---|---|---|---|")
    for op, names in FLOORS.items():
        rs = sorted({k[3] for k in rounds if k[1] == shape and k[2] == op})
        so, fo, sf, wins = [], [], [], 0
        for r in rs:
            a, b = rounds.get(("shoal", shape, op, r)), rounds.get(("openmpi", shape, op, r))
            f = round_floor(rounds, r, names)
            if a and b:
                so.append(a / b)
                wins += a <= b
                if f:
                    fo.append(f / b)
            if a and f:
                sf.append(a / f)
        med = lambda v: f"{statistics.median(v):.2f}" if v else "-"
        print(f"| {op} | {med(so)} | {wins} of {len(so)} | {med(fo)} | {med(sf)} |")
    print()


def main():
    vals = defaultdict(list)
    rounds = {}
    loads, failures, cc = [], 0, None
    for line in open(sys.argv[1]):
        try:
            j = json.loads(line)
        except ValueError:
            continue
        if j["op"] == "tcp congestion control":
            cc = j["unit"]
        elif j["op"].startswith("load"):
            loads.append(f'{j["op"][5:]} {j["value"]}')
        elif j["op"] == "done":
            failures += int(j["value"])
        else:
            vals[(j["lib"], j["shape"], j["op"])].append(j["value"])
            rounds[(j["lib"], j["shape"], j["op"], j.get("round"))] = j["value"]
    shapes = []
    for (lib, shape, op) in vals:
        if lib != "link" and shape not in shapes:
            shapes.append(shape)
    shapes.sort(key=lambda s: list(NAMES).index(s) if s in NAMES else 99)
    med = {k: statistics.median(v) for k, v in vals.items()}
    link = med.get(("link", "1,1:block", "link one-way"))
    polled = med.get(("link", "1,1:block", "link one-way polled"))
    if link:
        print(f"Link one-way time (8-byte TCP ping-pong, mh_link.c): {link:.1f} us with the reader asleep in read()"
              + (f", {polled:.1f} us with it polling" if polled else ""))
    else:
        print("Link: not measured")
    floor = {op: med.get(("link", "1,1:block", "fabric " + op)) for op in ("one-way", "exchange", "read", "fetch-add")}
    if floor["one-way"] and floor["exchange"] and floor["read"]:
        # net has no atomics: the floor of Shoal's message-borne fetch-add is a message round trip
        fadd = (f"fetch-add {floor['fetch-add']:.1f}" if floor["fetch-add"] else
                f"no provider fetch-add (a message round trip: {2 * floor['one-way']:.1f})")
        print(f"libfabric's own floor on it (mh_fabric.c, both sides polling, no OpenSHMEM): message one-way "
              f"{floor['one-way']:.1f} us, both-way exchange {floor['exchange']:.1f}, 8-byte read "
              f"{floor['read']:.1f}, {fadd}")
    writes = [med.get(("link", "1,1:block", f"fabric {w} one-way")) for w in ("write", "write-dc")]
    if all(writes):
        print(f"8-byte RMA write ping-pong on it (mh_fabric.c): one-way {writes[0]:.1f} us, "
              f"{writes[1]:.1f} us with FI_DELIVERY_COMPLETE")
    if cc:
        print(f"The hosts' TCP congestion control: {cc}")
    print(f"Machine load (1-min average): {', '.join(loads)}; data check failures: {failures}")
    print()
    table(med, shapes, "shoal", "Shoal", "openmpi", "Open MPI")
    per_round(rounds, shapes)
    if any(k[0] == "shoal-tuned" for k in med):
        print("Under the tuning file (peer.sh --tuning) against the built-in model:")
        print()
        table(med, shapes, "shoal-tuned", "tuned", "shoal", "model")
    print("Latencies in us (median over rounds of: p2p, the median op; collectives, the median over calls of "
          "the slowest PE); bandwidth in GB/s; ratio = Shoal/Open MPI for times, Open MPI/Shoal for bandwidth "
          f"(below 1.0: Shoal better). Rounds per figure: {max((len(v) for v in vals.values()), default=0)}.")


main()
