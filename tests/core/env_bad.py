#!/usr/bin/env python3
"""Every environment variable of src/core/env.def with bad values (garbage,
negative, overflow, huge, outside its range): each must stop the job with
one line per PE naming the variable, the value and what is valid; oshrun
exits non-zero and nothing is left behind.  The variables come from the
table itself, so a new row is tested without touching this file.
usage: env_bad.py OSHRUN PROGRAM ENV_DEF"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jobwatch  # noqa: E402

oshrun, prog, env_def = sys.argv[1:4]
rows = re.findall(r'^SHOAL_ENV\((\w+),\s*(\w+),\s*\w+,\s*"([^"]*)",\s*"([^"]*)"', open(env_def).read(), re.M)
BAD_TEXT = ["abc", "12abc", " 5", "5 ", "1.5.2"]
BAD_INT = BAD_TEXT + ["1.5", "1e3", "0x10", "99999999999999999999999", "-99999999999999999999999"]
BAD_SIZE = BAD_TEXT + ["0", "-1", "-5m", "1e3", "5 m", "0x10", "m", "18446744073709551615",
                       "99999999999999999999t", "1.5x"]


def int_value(text):
    return int(text, 0)


def cases(name, kind, valid):
    """(bad value, substrings the message must hold) for one row."""
    if valid == "any":
        return []
    if ".." in valid:
        lo, hi = valid.split("..")
        if kind == "shoal_env_size":
            want = [f"{lo} to {hi}"]
            return [(v, want) for v in BAD_SIZE + [hi + "1" if hi[-1].isdigit() else hi[:-1] + "1" + hi[-1]]]
        want = [f"from {lo} to {hi}"]
        return [(v, want) for v in BAD_INT + [str(int_value(lo) - 1), str(int_value(hi) + 1)]]
    words = valid.split("|")
    if name == "SHOAL_BOOTSTRAP":   # the build decides which bootstraps exist
        words = ["auto", "local", "single"]
    return [(v, words) for v in ["foo", words[0] + "x", "yes please"]]


def run_case(name, value, want, npes):
    env = dict(os.environ, **{name: value})
    before = jobwatch.shm_names()
    job = jobwatch.start([oshrun, "-np", str(npes), prog], env=env)
    try:
        out, err = job.communicate(timeout=60)
    except Exception:
        jobwatch.kill_session(job.pid)
        return [f"{name}={value!r}: job hung"]
    problems = []
    if job.returncode == 0:
        problems.append(f"{name}={value!r}: accepted (exit 0)")
    errors = [l for l in err.splitlines() if l.startswith("Shoal error")]
    quoted = f'{name}="{value}"'
    good = [l for l in errors if quoted in l and all(w in l for w in want)]
    if not good:
        problems.append(f"{name}={value!r}: no line naming it and {want}: {err.strip()!r}")
    if len(errors) != len(good) or len(good) > npes:
        problems.append(f"{name}={value!r}: other or extra error lines: {err.strip()!r}")
    left = jobwatch.leftovers(job.pid)
    if left:
        problems.append(f"{name}={value!r}: processes left: {left}")
        jobwatch.kill_session(job.pid)
    if jobwatch.shm_names() - before:
        problems.append(f"{name}={value!r}: /dev/shm grew")
    return problems


def main():
    problems, n, skipped = [], 0, []
    for name, kind, default, valid in rows:
        todo = cases(name, kind, valid)
        if not todo:
            skipped.append(name)
        for value, want in todo:
            npes = 1 + n % 3   # 1, 2 and 3 PEs in turn
            problems += run_case(name, value, want, npes)
            n += 1
    for p in problems:
        print("FAIL:", p)
    print(f"env_bad: {n} bad values over {len(rows) - len(skipped)} variables, {len(problems)} failure(s); "
          f"any value is valid for: {', '.join(skipped)}")
    return 1 if problems else 0


sys.exit(main())
