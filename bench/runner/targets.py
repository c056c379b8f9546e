"""The performance targets of the benchmark issue, checked against the
figures of one run.

Every target compares Shoal with either the peer (the first other library,
Open MPI by default) or the machine reference measured in the same run.
A target is "met", "NOT met", or "n/a" with the reason (Shoal or the peer
not run, PE count not asked for, figure missing)."""

from typing import Callable, List, Optional

from .execute import ACCEPTABLE
from .results import Collection, Figure

PATHOLOGICAL_FACTOR = 5.0  # Shoal this many times worse than the peer is pathological


def find(coll: Collection, bench, op, variant, size, metric, pes, label="") -> Optional[Figure]:
    return coll.figures.get((bench, op, variant, size, metric, pes, label))


def median(fig: Optional[Figure], lib: str) -> Optional[float]:
    st = fig.stats(lib) if fig else None
    return st["median"] if st else None


def row(target: str, requirement: str, status: str, shoal=None, reference=None, ratio=None,
        detail: str = "") -> dict:
    return {"target": target, "requirement": requirement, "status": status, "shoal": shoal,
            "reference": reference, "ratio": ratio, "detail": detail}


def status_of(ok: bool) -> str:
    return "met" if ok else "NOT met"


def goal_status(ratio: float, floor_ratio: float, goal: float) -> str:
    """Shoal / peer against a goal, and where missed, whether the machine's
    floor / peer is itself above it."""
    if ratio <= goal:
        return "met"
    return "floor above the goal" if floor_ratio > goal else "NOT met"


class Checker:
    def __init__(self, coll: Collection, shoal: Optional[str], peer: Optional[str],
                 pes_run: List[int]):
        self.coll, self.shoal, self.peer, self.pes_run = coll, shoal, peer, pes_run

    def missing(self, needs_peer: bool, pes: int) -> Optional[str]:
        if not self.shoal:
            return "n/a (Shoal not run)"
        if needs_peer and not self.peer:
            return "n/a (no peer library)"
        if pes not in self.pes_run:
            return "n/a (%d PEs not run; add it to --np)" % pes
        return None

    # ---- one figure against the peer -----------------------------------------

    def versus_peer(self, target: str, fig_args: tuple, max_ratio: float,
                    requirement: str) -> dict:
        """Shoal's median / peer's median <= max_ratio (lower-is-better metrics)."""
        why = self.missing(True, fig_args[5])
        if why:
            return row(target, requirement, why)
        fig = find(self.coll, *fig_args)
        s, p = median(fig, self.shoal), median(fig, self.peer)
        if s is None or p is None:
            return row(target, requirement, "n/a (figure missing: %s)" % "/".join(map(str, fig_args[:5])))
        return row(target, requirement, status_of(s / p <= max_ratio), s, p, s / p)

    # ---- the worst of many figures against the peer --------------------------

    def worst_versus_peer(self, target: str, select: Callable[[Figure], bool], pes: int,
                          min_speedup: float, requirement: str) -> dict:
        why = self.missing(True, pes)
        if why:
            return row(target, requirement, why)
        worst, worst_fig = None, None
        for fig in self.coll.figures.values():
            if fig.field("pes") != pes or not select(fig):
                continue
            sp = fig.speedup(self.shoal, self.peer)
            if sp is not None and (worst is None or sp < worst):
                worst, worst_fig = sp, fig
        if worst is None:
            return row(target, requirement, "n/a (no figure measured by both)")
        return row(target, requirement, status_of(worst >= min_speedup),
                   median(worst_fig, self.shoal), median(worst_fig, self.peer),
                   median(worst_fig, self.shoal) / median(worst_fig, self.peer),
                   "worst: " + describe(worst_fig))

    # ---- against the machine reference -------------------------------------

    def versus_machine(self, target: str, shoal_fig: tuple, machine_fig: tuple,
                       requirement: str, ok: Callable[[float], bool]) -> dict:
        why = self.missing(False, shoal_fig[5])
        if why:
            return row(target, requirement, why)
        s = median(find(self.coll, *shoal_fig), self.shoal)
        m = median(find(self.coll, *machine_fig), "machine")
        if s is None or m is None:
            return row(target, requirement, "n/a (figure missing)")
        return row(target, requirement, status_of(ok(s / m)), s, m, s / m, "reference: machine")

    def paired_ratio(self, target: str, ratio_fig: tuple, requirement: str, max_ratio: float) -> dict:
        """A ratio the program measured itself, pairing the library's figure
        with a reference timed by the same processes in alternating batches."""
        why = self.missing(False, ratio_fig[5])
        if why:
            return row(target, requirement, why)
        fig = find(self.coll, *ratio_fig)
        r = median(fig, self.shoal)
        if r is None:
            return row(target, requirement, "n/a (figure missing: shmem_ptr reached no partner?)")
        return row(target, requirement, status_of(r <= max_ratio), None, None, r,
                   "reference: the same PEs, alternating batches; per-repetition %s" %
                   ", ".join("%.2f" % x for x in sorted(fig.values[self.shoal])))

    # ---- a goal against the peer, or the machine's reason -------------------

    def goal_or_floor(self, target: str, fig_args: tuple, floor_args: tuple, goal: float) -> dict:
        """Shoal / peer <= goal; where not, whether the machine allows it: the
        same shape by plain loads and stores, timed the same way in the same
        run (sync_floor.c), against the same goal."""
        requirement = "ratio <= %.2f, or the plain-store floor is itself above it" % goal
        why = self.missing(True, fig_args[5])
        if why:
            return row(target, requirement, why)
        paired = self.paired_goal(target, requirement, fig_args, goal)
        if paired:
            return paired
        s, p = median(find(self.coll, *fig_args), self.shoal), median(find(self.coll, *fig_args), self.peer)
        f = median(find(self.coll, *floor_args), "machine")
        if s is None or p is None:
            return row(target, requirement, "n/a (figure missing: %s)" % "/".join(map(str, fig_args[:5])))
        if s / p <= goal:
            return row(target, requirement, "met", s, p, s / p)
        if f is None:
            return row(target, requirement, "NOT met", s, p, s / p, "no plain-store floor measured")
        detail = "plain loads and stores %.3g us = %.2fx the peer; Shoal %.2fx them" % (f, f / p, s / f)
        return row(target, requirement, goal_status(s / p, f / p, goal), s, p, s / p, detail)

    def paired_goal(self, target: str, requirement: str, fig_args: tuple, goal: float) -> Optional[dict]:
        """The goal read through each library's ratio to the plain-store floor
        measured beside its calls in the same processes (collectives.c,
        variant "paired"): Shoal / peer = (Shoal / floor) / (peer / floor),
        and the floor / peer = 1 / (peer / floor), each free of where the
        VM's vCPUs sat while that library ran.  None when either library
        has no paired figure (shmem_ptr reached no PE)."""
        bench, op, _, size, _, pes = fig_args[:6]
        fig = find(self.coll, bench, op, "paired", size, "ratio_to_floor", pes)
        rs, rp = median(fig, self.shoal), median(fig, self.peer)
        if not rs or not rp:
            return None
        s, p = median(find(self.coll, *fig_args), self.shoal), median(find(self.coll, *fig_args), self.peer)
        ratio = rs / rp
        detail = ("each against the plain-store floor in its own processes: Shoal %.2fx it, the peer %.2fx "
                  "(floor = %.2fx the peer)" % (rs, rp, 1 / rp))
        ways = []   # the status stays with the fastest way; these say where its lead comes from
        for way in ("plain", "first_leaves", "dissemination"):
            f = find(self.coll, bench, op, "paired_" + way, size, "ratio_to_floor", pes)
            ws, wp = median(f, self.shoal), median(f, self.peer)
            if ws and wp:
                ways.append("%s %.2fx / %.2fx" % (way, ws, wp))
        if ways:
            detail += "; Shoal / the peer against each way of the floor's barrier: " + ", ".join(ways)
        return row(target, requirement, goal_status(ratio, 1 / rp, goal), s, p, ratio, detail)

    # ---- nothing pathological ------------------------------------------------

    def nothing_pathological(self, pes: int) -> dict:
        target = "no pathological case, %d PEs" % pes
        requirement = ("every Shoal run ends and verifies; no figure more than %gx worse than "
                       "the peer" % PATHOLOGICAL_FACTOR)
        why = self.missing(True, pes)
        if why:
            return row(target, requirement, why)
        bad_runs = [r for r in self.coll.runs if r["library"] == self.shoal and r["pes"] == pes
                    and r["status"] not in ACCEPTABLE]
        worst = self.worst_versus_peer(target, lambda f: True, pes, 1.0 / PATHOLOGICAL_FACTOR,
                                       requirement)
        if bad_runs:
            worst["status"] = "NOT met"
            worst["detail"] = "%d run(s) failed: %s; %s" % (
                len(bad_runs), ", ".join("%s %s" % (r["program"], r["status"]) for r in bad_runs[:4]),
                worst.get("detail", ""))
        return worst


def describe(fig: Figure) -> str:
    bench, op, variant, size, metric, pes, label = fig.key
    text = "%s %s%s %s B %s" % (bench, op, "/" + variant if variant else "", size, metric)
    return text + (" [%s]" % label if label else "")


def is_collective(fig: Figure) -> bool:
    """A collective's call time (the goals' figure; period_us beside it is not one)."""
    return fig.field("bench") == "collectives" and not fig.field("label") and fig.field("metric") == "latency_us"


def evaluate(coll: Collection, shoal: Optional[str], peer: Optional[str],
             pes_run: List[int]) -> List[dict]:
    c = Checker(coll, shoal, peer, pes_run)
    lat, nb = "latency_us", "no worse than the peer (ratio <= 1.0)"
    rows = [
        c.versus_peer("put latency, 8 B heap, 2 PEs", ("p2p_latency", "put", "heap", 8, lat, 2), 1.0, nb),
        c.versus_peer("get latency, 8 B heap, 2 PEs", ("p2p_latency", "get", "heap", 8, lat, 2), 1.0, nb),
        c.versus_peer("p latency (long), 2 PEs", ("p2p_latency", "p", "heap", 8, lat, 2), 1.0, nb),
        c.versus_peer("g latency (long), 2 PEs", ("p2p_latency", "g", "heap", 8, lat, 2), 1.0, nb),
        c.worst_versus_peer("put/get latency, every size, heap+static, blocking+nbi, 2 PEs",
                            lambda f: f.field("bench") == "p2p_latency" and f.field("metric") == lat
                            and f.field("op") in ("put", "get", "put_nbi", "get_nbi"), 2, 1.0, nb),
        c.worst_versus_peer("AMO latency, every operation, 32+64 bit, 2 PEs",
                            lambda f: f.field("bench") == "atomics" and f.field("metric") == lat,
                            2, 1.0, nb),
        # The reference has the ping-pong's shape: each side polls its own
        # line and writes the other's (machine_pingpong "flag_per_side"); the
        # one-line bounce ("cacheline") is reported beside it as the floor.
        # On a VM the line's trip moves 5x with where the vCPUs land, so the
        # issue's 1.05x is held against the same two PEs bouncing a flag per
        # side with plain loads and stores, in batches alternating with the
        # library's ping-pong (p2p_latency, variants raw_spin / raw_pause).
        c.paired_ratio("ping-pong one-way latency, 2 PEs, against the same PEs' plain ping-pong",
                       ("p2p_latency", "pingpong", "paired", 8, "ratio", 2),
                       "within 1.05x of a flag per side by plain loads and stores (median of batch ratios)",
                       1.05),
        c.versus_machine("ping-pong one-way latency, 2 PEs",
                         ("p2p_latency", "pingpong", "static", 8, lat, 2),
                         ("machine_pingpong", "flag_per_side", "pinned", 64, lat, 2),
                         "within 1.1x of the cache-line ping-pong (a flag per side)",
                         lambda r: r <= 1.1),
        c.versus_peer("barrier, 2 PEs", ("collectives", "barrier", "", 8, lat, 2), 0.5,
                      "at least 2x faster than the peer (ratio <= 0.5)"),
        c.versus_peer("reduce 1 long, 2 PEs", ("collectives", "reduce", "", 8, lat, 2), 0.5,
                      "at least 2x faster than the peer (ratio <= 0.5)"),
        c.versus_peer("broadcast 8 B, 2 PEs", ("collectives", "broadcast", "", 8, lat, 2), 0.5,
                      "at least 2x faster than the peer (ratio <= 0.5)"),
        c.versus_peer("reduce 64 Ki longs, 2 PEs", ("collectives", "reduce", "", 65536 * 8, lat, 2),
                      0.5, "at least 2x faster than the peer (ratio <= 0.5)"),
        c.versus_machine("put bandwidth, 4 MiB heap, 2 PEs",
                         ("p2p_bandwidth", "put", "heap", 4 << 20, "bandwidth_MBps", 2),
                         ("machine_memcpy", "memcpy", "private", 4 << 20, "bandwidth_MBps", 1),
                         ">= 0.9x of memcpy bandwidth", lambda r: r >= 0.9),
    ]
    for pes in (4, 8):
        rows.append(c.worst_versus_peer("collectives, every op and size, %d PEs" % pes, is_collective,
                                        pes, 2.0, "at least 2x faster than the peer"))
        rows.append(c.nothing_pathological(pes))
        # What the cores allow: the same call shapes with plain loads and
        # stores among as many processes (sync_floor.c), so a goal against
        # the peer can be read against the machine (is 0.5x reachable?).
        for op in ("barrier", "reduce", "broadcast"):
            rows.append(c.versus_machine(
                "%s 8 B, %d PEs, against plain loads and stores" % (op, pes),
                ("collectives", op, "", 8, lat, pes), ("machine_sync", op, "floor", 8, lat, pes),
                "within 1.5x of the same shape by plain loads and stores, timed the same way",
                lambda r: r <= 1.5))
    rows += small_collective_goals(c)
    return rows


# Issue 14's goals for 8-byte collectives on one host (Shoal / peer).  The
# floor of fcollect, collect and alltoall is the one-round form in which
# every process publishes its 8 bytes and reads everyone's (sync_floor's
# "reduce"): none of them can end sooner than each member has heard from
# every other.
SMALL_GOALS = {2: {"broadcast": 0.33}, 4: {}, 8: {}}
SMALL_DEFAULT_GOAL = {2: 0.4, 4: 0.5, 8: 0.5}
FLOOR_FORM = {"barrier": "barrier", "broadcast": "broadcast", "reduce": "reduce", "fcollect": "reduce",
              "collect": "reduce", "alltoall": "reduce"}


def small_collective_goals(c: Checker) -> List[dict]:
    rows = []
    for pes, goals in SMALL_GOALS.items():
        for op, form in FLOOR_FORM.items():
            goal = goals.get(op, SMALL_DEFAULT_GOAL[pes])
            rows.append(c.goal_or_floor("%s 8 B, %d PEs: issue 14's goal" % (op, pes),
                                        ("collectives", op, "", 8, "latency_us", pes),
                                        ("machine_sync", form, "floor", 8, "latency_us", pes), goal))
    return rows
