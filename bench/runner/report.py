"""The Markdown report: what ran, what failed, the targets (a section that
can be pasted into docs/PERFORMANCE.md as it is), then every figure with
median, min-max and the ratio of the first library to each other one."""

from collections import defaultdict
from typing import Dict, List

from .programs import PROGRAMS, higher_is_better
from .results import Collection, Figure, label_families, short_label


def num(v) -> str:
    if v is None:
        return "-"
    a = abs(v)
    if a >= 1000:
        return "%.0f" % v
    if a >= 100:
        return "%.1f" % v
    if a >= 1:
        return "%.2f" % v
    return "%.3g" % v


def size_text(size: int) -> str:
    if size == 0:  # figures without a size (team creation)
        return "-"
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return "%d %s" % (size // scale, unit)
    return "%d B" % size


def ratio_text(fig: Figure, lib: str, ref: str) -> str:
    r, sp = fig.ratio(lib, ref), fig.speedup(lib, ref)
    if r is None:
        return "-"
    if sp is None or abs(sp - 1) < 0.05:
        return "%.2f" % r
    return "%.2f (%.1fx %s)" % (r, sp if sp >= 1 else 1 / sp, "better" if sp >= 1 else "worse")


def cell(fig: Figure, lib: str) -> str:
    st = fig.stats(lib)
    if not st:
        return "-"
    if st["n"] == 1:
        return num(st["median"])
    return "%s (%s-%s)" % (num(st["median"]), num(st["min"]), num(st["max"]))


# ---- sections ------------------------------------------------------------------

def header(meta: dict) -> List[str]:
    lines = ["# Shoal benchmark report", "",
             "- command: `%s`" % meta["command"],
             "- date: %s, duration %.0f s" % (meta["date"], meta["duration_s"]),
             "- machine: %s" % meta["machine"],
             "- mode: %s, repetitions: %d, PE counts: %s" % (meta["mode"], meta["reps"],
                                                              ", ".join(map(str, meta["pes"]))),
             "- libraries (run alternately, in this order, within every repetition):"]
    for lib in meta["libraries"]:
        lines.append("  - **%s**: %s%s" % (lib["name"], lib["describe"],
                                           " (%s)" % lib["info"] if lib.get("info") else ""))
        lines += ["    - note: %s" % n for n in lib.get("notes", [])]
    for name, why in meta.get("unusable", {}).items():
        lines.append("  - **%s**: not used: %s" % (name, why))
    lines += ["", "Ratios are first library / other library of the medians. For latency, time "
              "and memory lower is better; for bandwidth and rates higher is better; the words "
              "after a ratio say which way it goes.", ""]
    return lines


def targets_section(meta: dict, targets: List[dict]) -> List[str]:
    lines = ["## Performance targets", "",
             "Produced by `%s` on %s (%s)." % (meta["command"], meta["date"], meta["machine"]),
             "Shoal = `%s`, reference = the peer `%s` (or the machine limit measured in the same "
             "run)." % (meta.get("shoal") or "not run", meta.get("peer") or "none"), "",
             "| Target | Requirement | Shoal | Reference | Ratio | Status |",
             "|---|---|---|---|---|---|"]
    for t in targets:
        status = t["status"] if t["status"] != "NOT met" else "**NOT met**"
        target = t["target"] + (" (%s)" % t["detail"] if t.get("detail") else "")
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            target, t["requirement"], num(t["shoal"]), num(t["reference"]),
            "-" if t["ratio"] is None else "%.3g" % t["ratio"], status))
    met = sum(t["status"] == "met" for t in targets)
    missed = sum(t["status"] == "NOT met" for t in targets)
    floor = sum(t["status"] == "floor above the goal" for t in targets)
    lines += ["", "%d met, %d not met, %d with the machine's floor above the goal, %d not evaluated." % (
        met, missed, floor, len(targets) - met - missed - floor), ""]
    return lines


def runs_section(coll: Collection) -> List[str]:
    counts: Dict[tuple, Dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in coll.runs:
        counts[(r["program"], r["pes"], r["label"], r["library"])][r["status"]] += 1
    bad = [r for r in coll.runs if r["status"] not in ("ok",)]
    lines = ["## Runs", "", "%d runs, %d not clean." % (len(coll.runs), len(bad)), ""]
    if bad:
        lines += ["| Program | PEs | Variant | Library | Status | Seconds | Last error line |",
                  "|---|---|---|---|---|---|---|"]
        for r in bad:
            err = [l for l in r.get("stderr_tail", "").splitlines() if l.strip()]
            lines.append("| %s | %d | %s | %s | %s | %.1f | %s |" % (
                r["program"], r["pes"], r["label"] or "-", r["library"], r["status"],
                r["seconds"], (err[-1][:120].replace("|", "/") if err else "")))
        lines += ["", "crash_after_verify: the program verified its results and printed every "
                  "figure, then exited non-zero (for example inside shmem_finalize); its figures "
                  "are kept.", ""]
    return lines


def skips_section(coll: Collection) -> List[str]:
    lines = []
    for lib, skips in sorted(coll.skips.items()):
        for bench, op, why in sorted(skips):
            lines.append("- %s: %s %s: %s" % (lib, bench, op, why))
    return (["## Skipped figures", ""] + lines + [""]) if lines else []


def _transfer(label: str) -> str:
    """The run variant after the setting: SHMEM_REDUCE_ALGORITHM=rsag,putget -> putget."""
    return label.split(",", 1)[1] if "," in label else ""


def tuned_summary(values: Dict, columns: List) -> List[str]:
    """Auto under a tuning file (bench/run --tuning-file) against the best
    forced algorithm of the same transfer mode, size by size: the issue's
    goal is within 10% at 90% of the sizes and never beyond 1.5x."""
    lines = []
    for lib, label in columns:
        if not label.startswith("SHOAL_TUNING_FILE="):
            continue
        forced = [c for c in columns if c[0] == lib and "_ALGORITHM=" in c[1]
                  and _transfer(c[1]) == _transfer(label)]
        ratios = sorted((v / min(values[c][size] for c in forced if size in values[c]), size)
                        for size, v in values[(lib, label)].items()
                        if any(size in values[c] for c in forced))
        if not ratios:
            continue
        within = sum(r <= 1.10 for r, _ in ratios)
        worst, at = ratios[-1]
        lines += ["Tuned auto %s: within 10%% of the best forced algorithm at %d of %d sizes (%.0f%%; goal "
                  "90%%); worst %.2fx the best, at %s (goal at most 1.5x)." % (
                      short_label(label), within, len(ratios), 100.0 * within / len(ratios), worst,
                      size_text(at)), ""]
    return lines


def label_comparison(coll: Collection, libs: List[str]) -> List[str]:
    """One table per operation measured under several labels (algorithms):
    the median of every label side by side, the best of each size in bold."""
    lines = []
    for (bench, op, metric, variant, pes), series in sorted(label_families(coll).items()):
        columns = sorted(series, key=lambda k: k[1] != "")  # own choices first, then run order
        values = {col: dict(series[col]) for col in columns}
        sizes = sorted({s for col in columns for s in values[col]})
        best = min if not higher_is_better(metric) else max
        names = ["%s, own choice" % lib if not label else
                 short_label(label) + ("" if lib == libs[0] else " (%s)" % lib)
                 for lib, label in columns]
        lines += ["### %s %s%s, %d PEs, %s" % (bench, op, " " + variant if variant else "", pes,
                                               metric), "",
                  "| size | %s |" % " | ".join(names), "|---|%s" % ("---|" * len(columns))]
        for size in sizes:
            row = [values[col].get(size) for col in columns]
            top = best(v for v in row if v is not None)
            lines.append("| %s | %s |" % (size_text(size), " | ".join(
                "-" if v is None else ("**%s**" % num(v) if v == top else num(v)) for v in row)))
        lines.append("")
        if not higher_is_better(metric):
            lines += tuned_summary(values, columns)
    return (["## Algorithm comparison", "",
             "Medians of every run label (algorithm, transfer mode, heap size...) next to each "
             "library's own choice; bold: the best of the row.", ""] + lines) if lines else []


def figure_tables(coll: Collection, libs: List[str]) -> List[str]:
    summaries = {p.name: p.summary for p in PROGRAMS}
    groups: Dict[tuple, List[Figure]] = defaultdict(list)
    for fig in coll.sorted_figures():
        groups[(fig.field("bench"), fig.field("label"))].append(fig)
    lines = []
    for (bench, label), figs in groups.items():
        title = bench + (" [%s]" % label if label else "")
        # columns: the libraries (or "machine") that measured this program
        who = [lib for lib in libs if any(lib in f.values for f in figs)]
        refs = [ref for ref in who[1:]] if who and who[0] == libs[0] else []
        ref_cols = ["%s/%s" % (who[0], ref) for ref in refs]
        lines += ["## %s" % title, ""]
        if bench in summaries:
            lines += [summaries[bench], ""]
        lines += ["| op | variant | size | PEs | metric | %s |" % " | ".join(who + ref_cols),
                  "|---|---|---|---|---|%s" % ("---|" * (len(who) + len(ref_cols)))]
        for fig in figs:
            _, op, variant, size, metric, pes, _ = fig.key
            cols = [cell(fig, lib) for lib in who] + [ratio_text(fig, who[0], ref)
                                                      for ref in refs]
            lines.append("| %s | %s | %s | %d | %s | %s |" % (op, variant or "-", size_text(size),
                                                            pes, metric, " | ".join(cols)))
        lines.append("")
    return lines


def write(path: str, meta: dict, coll: Collection, libs: List[str], targets: List[dict],
          plots: List[str]) -> str:
    """Writes the report; returns the targets section alone (for targets.md)."""
    target_lines = targets_section(meta, targets)
    lines = header(meta) + target_lines + runs_section(coll) + skips_section(coll)
    if plots:
        lines += ["## Plots", ""] + ["![%s](plots/%s)" % (p, p) for p in plots] + [""]
    lines += label_comparison(coll, libs) + figure_tables(coll, libs)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return "\n".join(target_lines) + "\n"
