"""Running one program once, with a timeout, and reading its result lines.

Programs print one JSON object per line: figures ("metric"/"value"),
skips ("skip"), the library they were built with ("info") and a final
verdict ("verify": "pass"/"fail").  Figures printed before a crash or a
timeout are kept: some peers crash inside shmem_finalize, after the
verdict, and their numbers are still good."""

import json
import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional

# Statuses, from best to worst.
OK = "ok"
CRASH_AFTER_VERIFY = "crash_after_verify"   # verdict "pass", then a non-zero exit
VERIFY_FAILED = "verify_failed"
CRASHED = "crashed"                         # non-zero exit before any verdict
TIMEOUT = "timeout"
NOT_BUILT = "not_built"

ACCEPTABLE = {OK, CRASH_AFTER_VERIFY}


@dataclass
class RunResult:
    status: str
    returncode: Optional[int]
    seconds: float
    records: List[dict] = field(default_factory=list)
    stderr_tail: str = ""
    command: str = ""


def parse_lines(text: str) -> List[dict]:
    records = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            records.append(json.loads(line))
        except ValueError:
            continue  # a line cut short by a crash
    return records


def classify(records: List[dict], returncode: Optional[int], timed_out: bool) -> str:
    verdicts = [r["verify"] for r in records if "verify" in r]
    if timed_out:
        return TIMEOUT
    if verdicts and verdicts[-1] != "pass":
        return VERIFY_FAILED
    if returncode == 0 and verdicts:
        return OK
    if verdicts:
        return CRASH_AFTER_VERIFY
    return CRASHED


def kill_group(proc: subprocess.Popen) -> None:
    """Stop the launcher's process group: SIGTERM first, which launchers
    forward to their PEs, then SIGKILL."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=10)
            return
        except subprocess.TimeoutExpired:
            continue


def pids_running(exe: str) -> List[int]:
    """Processes whose executable is exactly exe (a binary of this run's
    output directory, so only PEs this runner started)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.readlink("/proc/%s/exe" % entry) == exe:
                pids.append(int(entry))
        except OSError:
            continue
    return pids


def kill_leftover_pes(exe: str) -> int:
    """Some launchers (Open MPI) put PEs in process groups of their own; a
    PE left spinning after its launcher died would slow every later run.
    Returns how many were stopped."""
    pids = pids_running(exe)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return len(pids)


def run(command: List[str], env: Dict[str, str], timeout_s: float, cwd: str,
        exe: str = "") -> RunResult:
    start = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, **env), cwd=cwd, start_new_session=True)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        kill_group(proc)
        out, err = proc.communicate()
    leftovers = kill_leftover_pes(os.path.realpath(exe)) if exe else 0
    if leftovers:
        err += "\nrunner: stopped %d PE(s) left running after the launcher ended\n" % leftovers
    records = parse_lines(out)
    return RunResult(status=classify(records, proc.returncode, timed_out),
                     returncode=proc.returncode, seconds=time.monotonic() - start,
                     records=records, stderr_tail=err[-2000:], command=" ".join(command))
