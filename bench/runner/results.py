"""Collecting figures over repetitions and libraries, their statistics,
and the results.json / results.csv files.

A figure is identified by (bench, op, variant, size, metric, pes, label):
label names the runner-side variant (heap size, algorithm environment).
Tags a program adds to its lines (api, pairs...) are kept but are not part
of the key, so that Shoal's team-based collectives and a 1.4 peer's
active-set ones are compared as the same figure."""

import csv
import json
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from .programs import higher_is_better

KEY_FIELDS = ("bench", "op", "variant", "size", "metric", "pes", "label")
RECORD_FIELDS = {"bench", "op", "variant", "size", "metric", "value", "iters", "pes"}
FigureKey = Tuple[str, str, str, int, str, int, str]


@dataclass
class Figure:
    key: FigureKey
    values: Dict[str, List[float]] = field(default_factory=dict)   # library -> one per repetition
    tags: Dict[str, dict] = field(default_factory=dict)            # library -> extra fields

    def field(self, name: str):
        return self.key[KEY_FIELDS.index(name)]

    def stats(self, lib: str) -> Optional[dict]:
        vals = self.values.get(lib)
        if not vals:
            return None
        return {"median": statistics.median(vals), "min": min(vals), "max": max(vals),
                "n": len(vals)}

    def ratio(self, lib: str, reference: str) -> Optional[float]:
        """lib's median over reference's median (so < 1 means lib is
        faster for latencies and slower for bandwidths)."""
        a, b = self.stats(lib), self.stats(reference)
        if not a or not b or b["median"] == 0:
            return None
        return a["median"] / b["median"]

    def speedup(self, lib: str, reference: str) -> Optional[float]:
        """How many times better lib is than reference, whatever the
        metric's direction (> 1: lib is better)."""
        r = self.ratio(lib, reference)
        if r is None or r == 0:
            return None
        return r if higher_is_better(self.field("metric")) else 1.0 / r


@dataclass
class Collection:
    figures: Dict[FigureKey, Figure] = field(default_factory=dict)
    skips: Dict[str, set] = field(default_factory=dict)      # library -> {(bench, op, reason)}
    info: Dict[str, dict] = field(default_factory=dict)      # library -> the program's info line
    runs: List[dict] = field(default_factory=list)

    def add_records(self, lib: str, label: str, records: List[dict]) -> int:
        """Store one run's lines; returns the number of figures."""
        count = 0
        for r in records:
            if "skip" in r:
                self.skips.setdefault(lib, set()).add((r.get("bench", ""), r.get("op", ""),
                                                       r["skip"]))
            elif "info" in r:
                self.info.setdefault(lib, r)
            elif "metric" in r and "value" in r:
                self.add_figure(lib, label, r)
                count += 1
        return count

    def add_figure(self, lib: str, label: str, r: dict) -> None:
        key = (r["bench"], r["op"], r.get("variant", ""), int(r.get("size", 0)), r["metric"],
               int(r.get("pes", 0)), label)
        fig = self.figures.setdefault(key, Figure(key))
        fig.values.setdefault(lib, []).append(float(r["value"]))
        fig.tags.setdefault(lib, {k: v for k, v in r.items() if k not in RECORD_FIELDS})

    def sorted_figures(self) -> List[Figure]:
        return [self.figures[k] for k in sorted(self.figures, key=figure_order)]


def figure_order(key: FigureKey):
    bench, op, variant, size, metric, pes, label = key
    return (bench, label, metric, variant, op, pes, size)


def short_label(label: str) -> str:
    """SHMEM_REDUCE_ALGORITHM=rsag,putget -> rsag putget."""
    return " ".join(part.split("=", 1)[-1] for part in label.split(",") if part)


def label_families(coll: Collection) -> Dict[Tuple, Dict[Tuple[str, str], List[Tuple[int, float]]]]:
    """(bench, op, metric, variant, pes) -> (library, label) -> [(size, median)],
    for the operations measured under more than one runner label (the
    per-algorithm runs next to each library's own choice)."""
    families: Dict[Tuple, Dict[Tuple[str, str], List[Tuple[int, float]]]] = defaultdict(
        lambda: defaultdict(list))
    for fig in coll.figures.values():
        bench, op, variant, size, metric, pes, label = fig.key
        for lib in fig.values:
            families[(bench, op, metric, variant, pes)][(lib, label)].append(
                (size, fig.stats(lib)["median"]))
    return {k: v for k, v in families.items() if len({label for _, label in v}) > 1}


# ---- files ------------------------------------------------------------------

def peers_of(libs: List[str]) -> List[str]:
    """The libraries the first one is compared with ("machine" holds the
    reference programs' figures, which no library shares)."""
    return [lib for lib in libs[1:] if lib != "machine"]


def write_json(path: str, meta: dict, coll: Collection, libs: List[str],
               targets: List[dict]) -> None:
    figures = []
    for fig in coll.sorted_figures():
        entry = dict(zip(KEY_FIELDS, fig.key))
        entry["values"] = fig.values
        entry["stats"] = {lib: fig.stats(lib) for lib in libs if fig.stats(lib)}
        entry["ratio_to"] = {ref: fig.ratio(libs[0], ref) for ref in peers_of(libs)
                             if fig.ratio(libs[0], ref) is not None}
        entry["tags"] = fig.tags
        figures.append(entry)
    doc = {"meta": meta, "runs": coll.runs, "figures": figures, "targets": targets,
           "skips": {lib: sorted(list(s)) for lib, s in coll.skips.items()},
           "library_info": coll.info}
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)


def write_csv(path: str, coll: Collection, libs: List[str]) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(list(KEY_FIELDS) + ["library", "median", "min", "max", "n", "ratio_vs",
                                       "ratio"])
        for fig in coll.sorted_figures():
            for lib in libs:
                st = fig.stats(lib)
                if not st:
                    continue
                refs = peers_of(libs) if lib == libs[0] else []
                ref = refs[0] if refs else ""
                ratio = fig.ratio(lib, ref) if ref else None
                w.writerow(list(fig.key) + [lib, "%.6g" % st["median"], "%.6g" % st["min"],
                                            "%.6g" % st["max"], st["n"], ref,
                                            "" if ratio is None else "%.4g" % ratio])
