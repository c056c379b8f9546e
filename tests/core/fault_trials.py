#!/usr/bin/env python3
"""Fault trials: jobs of random size (1 to 32 PEs, oversubscribed too) hit at
a random moment, start-up included, by one of
  - SIGKILL of a random PE          -> status 137, "PE n (pid p) was killed by signal 9"
  - SIGINT / SIGTERM to oshrun      -> status 130 / 143, "<signal> received; stopping all PEs"
  - SIGKILL to oshrun               -> the PEs die with it (PR_SET_PDEATHSIG)
Each trial: the job ends within 10 s, no process of its session survives 2 s
after oshrun is gone, exit status and message are right, /dev/shm unchanged.
Processes are found by the job's own session only (ctest -j runs the same
programs elsewhere).  usage: fault_trials.py OSHRUN PROGRAM [TRIALS [SEED]]
(PROGRAM: tests/bin/core_faulty; its "hang" mode waits forever after init)"""
import os
import random
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jobwatch  # noqa: E402

oshrun, prog = sys.argv[1:3]
trials = int(sys.argv[3]) if len(sys.argv) > 3 else 200
seed = int(sys.argv[4]) if len(sys.argv) > 4 else int(time.time())
rnd = random.Random(seed)
KINDS = ["kill_pe", "int_oshrun", "term_oshrun", "kill_oshrun"]


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def trial(n):
    kind, npes = rnd.choice(KINDS), rnd.choice([1, 2, 3, 5, 8, 12, 32])
    delay = rnd.uniform(0, rnd.choice([0.003, 0.03, 0.4]))   # start-up is the narrow, interesting part
    before = jobwatch.shm_names()
    job = jobwatch.start([oshrun, "-np", str(npes), prog, "hang"], stdout=subprocess.DEVNULL)
    time.sleep(delay)
    victim = None
    if kind == "kill_pe":
        deadline = time.monotonic() + 5
        while not children(job.pid) and time.monotonic() < deadline:
            time.sleep(0.001)
        pes = children(job.pid)
        if pes:
            victim = rnd.choice(pes)
            os.kill(victim, signal.SIGKILL)
    else:
        sig = {"int_oshrun": signal.SIGINT, "term_oshrun": signal.SIGTERM, "kill_oshrun": signal.SIGKILL}[kind]
        job.send_signal(sig)
    try:
        _, err = job.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        # Evidence for the next one: who was left, in which state, and where oshrun waited.
        states = subprocess.run(["ps", "-s", str(job.pid), "-o", "pid,stat,wchan:24,args"],
                                capture_output=True, text=True).stdout.strip().replace("\n", " | ")
        stack = subprocess.run(["timeout", "20", "gdb", "-p", str(job.pid), "-batch", "-ex", "bt"],
                               capture_output=True, text=True).stdout
        stack = " / ".join(l.split(" in ")[-1][:60] for l in stack.splitlines() if l.startswith("#"))
        jobwatch.kill_session(job.pid)
        job.communicate()
        return kind, npes, delay, [f"the job did not end within 10 s (processes: {states}; oshrun: {stack})"]
    rc, problems = job.returncode, []
    if kind == "kill_pe":
        if rc != 137 or not re.search(rf"PE \d+ \(pid {victim}\) was killed by signal 9", err):
            problems.append(f"status {rc}, stderr {err.strip()!r}")
    elif kind == "kill_oshrun":
        if rc != -9:
            problems.append(f"status {rc}")
    else:
        sig = signal.SIGINT if kind == "int_oshrun" else signal.SIGTERM
        name = signal.strsignal(sig)
        ok = rc == 128 + sig and f"oshrun: {name} received; stopping all PEs" in err
        early = rc == -sig and not err   # before oshrun took its signals: no PE existed yet
        if not (ok or early):
            problems.append(f"status {rc}, stderr {err.strip()!r}")
    left = jobwatch.leftovers(job.pid, grace=2.0)
    if left:
        problems.append(f"survivors after 2 s: {left}")
        jobwatch.kill_session(job.pid)
    if jobwatch.shm_names() - before:
        problems.append("/dev/shm grew")
    return kind, npes, delay, problems


def main():
    counts, fails = {k: 0 for k in KINDS}, 0
    for n in range(trials):
        kind, npes, delay, problems = trial(n)
        counts[kind] += 1
        if problems:
            fails += 1
            print(f"FAIL trial {n} {kind} np {npes} after {delay * 1000:.0f} ms: {'; '.join(problems)}")
    print(f"fault_trials: seed {seed}, {trials} trials ({', '.join(f'{k} {v}' for k, v in counts.items())}): "
          f"{fails} failure(s)")
    return 1 if fails else 0


sys.exit(main())
