#!/usr/bin/env python3
"""The layering rule of docs/DESIGN.md ("Layers"), checked over #include lines.

Folders of src/ from the bottom up: the base (core, and its parts boot, mem,
transport, which include core/shoal.h and which core includes), team, prof
(profiling: it names teams, and the collectives call it), then coll and sync
(siblings: neither includes the other), then api.  A file may
include headers of its own layer and of layers under it, never above.

EXCEPTIONS lists the includes that break the rule today, each with why; the
check fails on any other, and on an exception that no longer exists (so the
list only shrinks).  usage: check_layers.py SOURCE_DIR
"""
import os
import re
import sys

RANK = {"core": 0, "boot": 0, "mem": 0, "transport": 0, "team": 1, "prof": 1.5, "coll": 2, "sync": 2, "api": 3}

# (file, included layer): why it is allowed for now.
EXCEPTIONS = {}


def layer_of(path):
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "src" else None


def main():
    root = sys.argv[1]
    bad, seen = [], set()
    for dirpath, _, files in os.walk(os.path.join(root, "src")):
        for name in files:
            if not name.endswith((".c", ".h", ".def")):
                continue
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            mine = layer_of(rel)
            if mine not in RANK:
                continue
            for line in open(full, errors="replace"):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                target = os.path.relpath(os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1))))
                theirs = layer_of(target)
                if theirs not in RANK or theirs == mine:
                    continue
                upward = RANK[theirs] > RANK[mine] or (RANK[theirs] == RANK[mine] and RANK[mine] > 0)
                if not upward:
                    continue
                if (rel, theirs) in EXCEPTIONS:
                    seen.add((rel, theirs))
                    continue
                bad.append(f"{rel}: includes {m.group(1)} ({mine} may not include {theirs}: see DESIGN.md, Layers)")
    for gone in sorted(set(EXCEPTIONS) - seen):
        bad.append(f"{gone[0]} no longer includes {gone[1]}: remove it from EXCEPTIONS in {sys.argv[0]}")
    for b in bad:
        print("FAIL:", b)
    if not bad:
        print(f"ok: no include from a lower layer to a higher one ({len(EXCEPTIONS)} listed exceptions)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
