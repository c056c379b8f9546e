#!/usr/bin/env python3
"""Does the library export every OpenSHMEM 1.6 symbol and its profiling twin?

Usage: check_symbols.py LIBSHOAL.so SYMBOLS.txt [--extra FUNCTION ...] [--data OBJECT ...]
                        [--derive REGEX TEMPLATE ...]

SYMBOLS.txt lists one required function per line (first column; '#' starts
a comment); --extra adds functions (Shoal's shmemx_ routines); --derive adds,
for every function of SYMBOLS.txt matching REGEX, the name re.sub(REGEX,
TEMPLATE, name) (other names of spec routines: Sandia OpenSHMEM's shmemx_
ones, the deprecated short/ushort point-to-point forms).  For each
function NAME the library must define NAME and its profiling twin pNAME
(pshmem_put for shmem_put, pstart_pes for start_pes).  --data names objects
(the handles behind SHMEM_TEAM_WORLD ...), which have no twin.  Prints what
is missing and exits 1 if anything is.
"""
import re
import subprocess
import sys


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if len(line.split()) >= 3}


def required(path, extra, derive):
    names = [line.split()[0] for line in open(path) if line.strip() and not line.startswith("#")]
    pairs = list(zip(derive[0::2], derive[1::2]))
    derived = [re.sub(rx, to, n) for rx, to in pairs for n in names if re.match(rx, n)]
    return names + extra + derived


def option(args, flag):
    """The words after flag, up to the next --option."""
    if flag not in args:
        return []
    rest = args[args.index(flag) + 1:]
    end = next((i for i, a in enumerate(rest) if a.startswith("--")), len(rest))
    return rest[:end]


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    lib, table = args[0], args[1]
    have = exported(lib)
    names = required(table, option(args, "--extra"), option(args, "--derive"))
    data = option(args, "--data")
    missing = [n for n in names + data if n not in have]
    missing_twins = ["p" + n for n in names if "p" + n not in have]
    for n in missing + missing_twins:
        print("missing:", n)
    print("%d functions (+ their %d profiling twins) and %d objects checked: %d missing, %d twins missing"
          % (len(names), len(names), len(data), len(missing), len(missing_twins)))
    sys.exit(1 if missing or missing_twins else 0)


if __name__ == "__main__":
    main()
