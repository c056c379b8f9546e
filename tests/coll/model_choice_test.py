#!/usr/bin/env python3
"""What auto picks on shared memory (src/coll/select.c), read from the profile.

    model_choice_test.py BIN PROG

PROG is model_choice (tests/coll/model_choice.c).  With a core per PE (2 PEs,
when the machine has 2 cores or more): a 256-byte float sum on active sets
takes the flat tree (the model once priced its 8 pieces through a pWrk of
half the vector as one step and ran recursive doubling, 4x slower), a
one-long team sum recursive doubling in line mailboxes, a 1 KiB team
broadcast pull (every member copies the root's source), a 1 KiB active-set
broadcast linear (dests ready: one put each).  With more PEs than cores: the
team sum and the 1 KiB broadcast go through the ring (shm), the active-set
sum flat, the active-set broadcast pull."""
import json
import os
import subprocess
import sys
import tempfile

BIN, PROG = sys.argv[1], sys.argv[2]
fails = []


def algorithms(np, nfloats):
    prof = tempfile.mkdtemp(prefix="shoal-choice.")
    env = dict(os.environ, SHOAL_PROFILE=prof, SHOAL_TUNING_FILE="none")
    for var in [v for v in env if v.endswith("_ALGORITHM")]:
        del env[var]
    r = subprocess.run([os.path.join(BIN, "oshrun"), "-np", str(np), PROG, str(nfloats)], env=env,
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        fails.append("%d PEs: status %d\n%s" % (np, r.returncode, r.stderr))
        return {}
    with open(os.path.join(prof, "pe0.json")) as f:
        p = json.load(f)
    got = {}
    for c in p["collectives"]:
        got.setdefault(c["routine"], set()).add(c["algorithm"])
    return got


def expect(got, np, routine, want):
    if got and got.get(routine) != {want}:
        fails.append("%d PEs: %s ran %s, want %s" % (np, routine, sorted(got.get(routine, [])), want))


cpus = len(os.sched_getaffinity(0))
if cpus >= 2:
    got = algorithms(2, 64)
    expect(got, 2, "shmem_float_sum_to_all", "flat")
    expect(got, 2, "shmem_long_sum_reduce", "recdbl")
    expect(got, 2, "shmem_broadcastmem", "pull")
    expect(got, 2, "shmem_broadcast64", "linear")
crowded = max(3, cpus + 1)
got = algorithms(crowded, 64)
expect(got, crowded, "shmem_float_sum_to_all", "flat")
expect(got, crowded, "shmem_long_sum_reduce", "shm")
expect(got, crowded, "shmem_broadcastmem", "shm")
expect(got, crowded, "shmem_broadcast64", "pull")
if fails:
    print("model_choice_test: FAIL\n" + "\n".join(fails))
    sys.exit(1)
print("model_choice_test: ok (%d cpus)" % cpus)
