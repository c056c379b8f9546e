"""PNG plots with matplotlib: every figure family measured over sizes
(latency / bandwidth vs size, one line per library and operation), every
operation run under several labels (algorithms) on one plot, and the
collectives against the PE count."""

import os
from collections import defaultdict
from typing import Dict, List, Tuple

from .results import Collection, label_families, short_label

LINE_STYLES = ["-", "--", ":", "-."]
MARKERS = ["o", "s", "^", "v"]


def style_of(lib: str, libs: List[str]) -> dict:
    """Libraries differ by line style and marker, operations by colour."""
    i = libs.index(lib) if lib in libs else 0
    return {"linestyle": LINE_STYLES[i % len(LINE_STYLES)], "marker": MARKERS[i % len(MARKERS)]}


def load_pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        return None


def size_families(coll: Collection) -> Dict[Tuple, Dict[Tuple[str, str], List[Tuple[int, float]]]]:
    """(bench, metric, variant, pes, label) -> (library, op) -> [(size, median)]."""
    families: Dict[Tuple, Dict[Tuple[str, str], List[Tuple[int, float]]]] = defaultdict(
        lambda: defaultdict(list))
    for fig in coll.figures.values():
        bench, op, variant, size, metric, pes, label = fig.key
        for lib in fig.values:
            families[(bench, metric, variant, pes, label)][(lib, op)].append(
                (size, fig.stats(lib)["median"]))
    return families


def file_name(*parts) -> str:
    text = "_".join(str(p) for p in parts if p not in ("", None))
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in text) + ".png"


def plot_vs_size(plt, out_dir: str, family: Tuple, lines, libs: List[str]) -> str:
    bench, metric, variant, pes, label = family
    fig, ax = plt.subplots(figsize=(8, 5))
    ops = sorted({op for _, op in lines})
    for (lib, op), points in sorted(lines.items()):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], markersize=3,
                label="%s %s" % (lib, op), color="C%d" % (ops.index(op) % 10),
                **style_of(lib, libs))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("size (bytes)")
    ax.set_ylabel(metric)
    ax.set_title("%s %s, %d PEs %s" % (bench, variant, pes, label))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    name = file_name(bench, metric, variant, "np%d" % pes, label)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name), dpi=90)
    plt.close(fig)
    return name


def plot_collectives_vs_pes(plt, out_dir: str, coll: Collection, libs: List[str]) -> List[str]:
    """One panel per collective: latency against PE count, one line per
    library and size (the smallest and the largest size measured)."""
    series = defaultdict(lambda: defaultdict(list))  # op -> (lib, size) -> [(pes, median)]
    for fig in coll.figures.values():
        bench, op, variant, size, metric, pes, label = fig.key
        if bench != "collectives" or label or metric != "latency_us":
            continue
        for lib in fig.values:
            series[op][(lib, size)].append((pes, fig.stats(lib)["median"]))
    if not series or len({p for s in series.values() for l in s.values() for p, _ in l}) < 2:
        return []
    ops = sorted(series)
    fig, axes = plt.subplots(2, (len(ops) + 1) // 2, figsize=(12, 7), squeeze=False)
    for ax, op in zip(axes.flat, ops):
        sizes = sorted({size for _, size in series[op]})
        for (lib, size), points in sorted(series[op].items()):
            if size not in (sizes[0], sizes[-1]):
                continue
            points.sort()
            ax.plot([p[0] for p in points], [p[1] for p in points], markersize=4,
                    label="%s %d B" % (lib, size), color="C0" if size == sizes[0] else "C1",
                    **style_of(lib, libs))
        ax.set_title(op)
        ax.set_xlabel("PEs")
        ax.set_ylabel("latency (us)")
        ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(ops):]:
        ax.axis("off")
    fig.tight_layout()
    name = "collectives_vs_pes.png"
    fig.savefig(os.path.join(out_dir, name), dpi=90)
    plt.close(fig)
    return [name]


def draw_labels(ax, lines, libs: List[str]) -> None:
    """Colour by the first part of the label (the algorithm), line style by
    the rest (load/store solid, put/get dashed...); a library's own choice
    (no label) in grey shades with its library's marker."""
    firsts = sorted({label.split(",")[0] for _, label in lines if label})
    rests = sorted({",".join(label.split(",")[1:]) for _, label in lines if label})
    for (lib, label), points in sorted(lines.items()):
        points.sort()
        if label:
            style = {"color": "C%d" % (firsts.index(label.split(",")[0]) % 10),
                     "linestyle": LINE_STYLES[rests.index(",".join(label.split(",")[1:]))
                                              % len(LINE_STYLES)], "marker": "o"}
            name = short_label(label) + ("" if lib == libs[0] else " (%s)" % lib)
        else:
            style = dict(style_of(lib, libs), color="0.%d" % min(6, 2 * libs.index(lib))
                         if lib in libs else "0.5", linewidth=2)
            name = "%s, own choice" % lib
        ax.plot([p[0] for p in points], [p[1] for p in points], markersize=3, label=name,
                **style)


def plot_labels_vs_size(plt, out_dir: str, family: Tuple, lines, libs: List[str]) -> str:
    """Every label of one operation on one plot, as 004 Fig. 7-10: small
    sizes (up to 4 KiB) and large sizes side by side."""
    bench, op, metric, variant, pes = family
    split = 4096
    sizes = sorted({s for points in lines.values() for s, _ in points})
    ranges = [(lo, hi) for lo, hi in ((0, split), (split, 1 << 62))
              if len([s for s in sizes if lo <= s <= hi]) >= 3] or [(0, 1 << 62)]
    fig, axes = plt.subplots(1, len(ranges), figsize=(7 * len(ranges), 5.5), squeeze=False)
    for ax, (lo, hi) in zip(axes.flat, ranges):
        draw_labels(ax, {k: [p for p in v if lo <= p[0] <= hi] for k, v in lines.items()}, libs)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("size (bytes)")
        ax.set_ylabel(metric)
        ax.grid(True, which="both", alpha=0.3)
    axes.flat[0].legend(fontsize=7, ncol=2)
    fig.suptitle("%s %s%s, %d PEs, by run label (algorithm...)" % (
        bench, op, " " + variant if variant else "", pes))
    name = file_name(bench, op, metric, variant, "np%d" % pes, "by-label")
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name), dpi=90)
    plt.close(fig)
    return name


def add_memcpy_reference(families) -> None:
    """Draw the machine's memcpy line on the bandwidth plots, the limit
    a put between PEs of one host can reach."""
    memcpy = [lines for (bench, *_), lines in families.items() if bench == "machine_memcpy"]
    if not memcpy:
        return
    for (bench, metric, *_), lines in families.items():
        if bench in ("p2p_bandwidth", "multipair") and metric == "bandwidth_MBps":
            lines[("machine", "memcpy")] = list(memcpy[0].get(("machine", "memcpy"), []))


def make_all(coll: Collection, libs: List[str], out_dir: str) -> List[str]:
    """Write the PNGs; returns their file names (empty without matplotlib)."""
    plt = load_pyplot()
    if plt is None:
        return []
    os.makedirs(out_dir, exist_ok=True)
    names = []
    families = size_families(coll)
    add_memcpy_reference(families)
    by_label = {}
    for family, lines in label_families(coll).items():
        lines = {k: v for k, v in lines.items() if len({s for s, _ in v}) >= 3}
        if len({label for _, label in lines}) > 1:
            by_label[family] = lines
    for family, lines in sorted(families.items()):
        # a family is worth a plot when some operation has three sizes or more
        lines = {k: v for k, v in lines.items() if len({s for s, _ in v}) >= 3}
        bench, metric, variant, pes, label = family
        if label and all((bench, op, metric, variant, pes) in by_label for _, op in lines):
            continue  # drawn with the other labels below
        if lines:
            names.append(plot_vs_size(plt, out_dir, family, lines, libs + ["machine"]))
    for family, lines in sorted(by_label.items()):
        names.append(plot_labels_vs_size(plt, out_dir, family, lines, libs))
    names += plot_collectives_vs_pes(plt, out_dir, coll, libs)
    return names
