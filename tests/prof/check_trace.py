#!/usr/bin/env python3
"""Checks a SHOAL_TRACE file of prof_known.c: it parses, has one track per
PE, every span nests on its track, the puts are all there, and (clock
alignment) every PE's k-th world barrier overlaps every other PE's: a
barrier ends on no PE before it began on all.  The run injects a skew of
seconds into odd PEs' clocks, far above the tolerance, which the alignment
must remove.  With a small ring (mode "dropped") it checks the note instead; mode "any"
(any program) checks the tracks and the nesting only."""
import collections, json, sys

TOLERANCE_US = 50000   # a crowded run's barrier release skew; the injected skew is 100x this

def nests(spans):
    stack = []
    for ts, end, name in sorted(spans, key=lambda s: (s[0], -s[1])):
        while stack and stack[-1][1] <= ts:
            stack.pop()
        if stack and end > stack[-1][1]:
            return "%s [%s, %s] overlaps %s [%s, %s] without nesting" % (name, ts, end, stack[-1][2], stack[-1][0],
                                                                         stack[-1][1])
        stack.append((ts, end, name))
    return None

def main(path, n, mode, puts=None):
    n, puts = int(n), int(puts or 0)
    trace = json.load(open(path))
    events = trace["traceEvents"]
    fails = []
    pids = {e["pid"] for e in events}
    if pids != set(range(n)):
        fails.append("tracks %s, want PEs 0..%d" % (sorted(pids), n - 1))
    by_pe = collections.defaultdict(list)
    for e in events:
        by_pe[e["pid"]].append(e)
    barriers = {}
    for pe, evs in by_pe.items():
        spans = [(e["ts"], e["ts"] + e["dur"], e["name"]) for e in evs if e["ph"] == "X"]
        bad = nests(spans)
        if bad:
            fails.append("PE %d: %s" % (pe, bad))
        dropped = [e for e in evs if e["name"] == "events dropped"]
        recorded = [e for e in evs if e["ph"] in ("X", "i") and e["name"] != "events dropped"]
        if mode == "any":   # any program: shape only (its ring may overflow)
            continue
        if mode == "dropped":
            if not dropped or dropped[0]["args"]["dropped"] <= 0:
                fails.append("PE %d: no note of dropped events" % pe)
            elif len(recorded) != dropped[0]["args"]["kept"] or len(recorded) > dropped[0]["args"]["SHOAL_TRACE_EVENTS"]:
                fails.append("PE %d: %d events kept, the note says %s" % (pe, len(recorded), dropped[0]["args"]))
            continue
        if dropped:
            fails.append("PE %d: events dropped from a ring that should hold them all" % pe)
        got = sum(1 for e in evs if e["name"] == "shmem_putmem" and e["ph"] == "i")
        if got != puts:
            fails.append("PE %d: %d shmem_putmem events, want %d" % (pe, got, puts))
        if any(e["ph"] == "i" and e["name"] == "shmem_putmem" and e["args"]["bytes"] != 8 for e in evs):
            fails.append("PE %d: a shmem_putmem event without its 8 bytes" % pe)
        barriers[pe] = [(e["ts"], e["ts"] + e["dur"]) for e in evs if e["ph"] == "X" and e["name"] == "shmem_barrier_all"]
    if mode == "full" and barriers:
        counts = {len(b) for b in barriers.values()}
        if len(counts) != 1:
            fails.append("barrier spans per PE differ: %s" % {pe: len(b) for pe, b in barriers.items()})
        else:
            for k in range(counts.pop()):
                latest_start = max(b[k][0] for b in barriers.values())
                earliest_end = min(b[k][1] for b in barriers.values())
                if latest_start > earliest_end + TOLERANCE_US:
                    fails.append("barrier %d: a PE left at %.3f us before another arrived at %.3f us: clocks not "
                                 "aligned" % (k, earliest_end, latest_start))
    if fails:
        sys.exit("check_trace: FAIL\n" + "\n".join(fails))
    print("check_trace: %d PEs, %d events, spans nest%s" % (n, len(events), ", barriers overlap across PEs"
                                                             if mode == "full" else ""))

if __name__ == "__main__":
    main(*sys.argv[1:])
