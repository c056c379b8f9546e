#!/usr/bin/env python3
"""Calls outside shmem_init..shmem_finalize (misuse.c): each mode must end
the job non-zero with one line naming the routine and saying what was not
called, and leave nothing behind.  usage: misuse.py OSHRUN MISUSE_BINARY"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jobwatch  # noqa: E402

oshrun, prog = sys.argv[1:3]
BEFORE = r"^Shoal error: {}: called before shmem_init; call shmem_init first$"
AFTER = r"^Shoal error: PE \d+: {}: called after the last shmem_finalize; make OpenSHMEM calls between"
CASES = [
    ("put_before_init", BEFORE.format(r"shmem_\w*p\w*")),
    ("get_before_init", BEFORE.format(r"shmem_\w*g\w*")),
    ("malloc_before_init", BEFORE.format("shmem_malloc")),
    ("free_before_init", BEFORE.format("shmem_free")),
    ("put_after_finalize", AFTER.format(r"shmem_\w*p\w*")),
    ("put_global_after_finalize", AFTER.format(r"shmem_\w*p\w*")),
    ("malloc_after_finalize", AFTER.format("shmem_malloc")),
]

fails = 0
for i, (mode, regex) in enumerate(CASES):
    npes = 1 + i % 3
    job = jobwatch.start([oshrun, "-np", str(npes), prog, mode])
    try:
        _, err = job.communicate(timeout=60)
    except Exception:
        jobwatch.kill_session(job.pid)
        err = "(hung)"
    errors = [l for l in err.splitlines() if l.startswith("Shoal")]
    problems = []
    if job.returncode in (0, None) or job.returncode >= 128:
        problems.append(f"exit status {job.returncode}")
    if not errors or not all(re.search(regex, l) for l in errors):
        problems.append(f"want every Shoal line to match /{regex}/")
    if jobwatch.leftovers(job.pid):
        problems.append("processes left")
        jobwatch.kill_session(job.pid)
    if problems:
        fails += 1
        print(f"FAIL {mode} ({npes} PEs): {'; '.join(problems)}: {err.strip()!r}")
    else:
        print(f"ok: {mode} ({npes} PEs): {errors[0]}")
print(f"misuse: {fails} failure(s)")
sys.exit(1 if fails else 0)
