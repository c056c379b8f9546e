"""Runs one oshrun job in a session of its own and finds what it leaves
behind by that session only: other tests running the same programs at the
same time (ctest -j) are never mistaken for ours."""
import os
import subprocess
import time


def session_members(sid):
    """Live processes (not zombies) whose session is sid."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()   # after "pid (comm) "
        state, session = fields[0], int(fields[3])
        if session == sid and state not in "ZX":
            found.append(int(entry))
    return found


def leftovers(sid, grace=2.0):
    """Members of session sid still alive after grace seconds."""
    deadline = time.monotonic() + grace
    while True:
        left = session_members(sid)
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.05)


def kill_session(sid):
    for pid in session_members(sid):
        try:
            os.kill(pid, 9)
        except OSError:
            pass


def start(cmd, env=None, stdout=subprocess.PIPE):
    """oshrun in a new session: its pid is the session id of every PE."""
    return subprocess.Popen(cmd, env=env, stdout=stdout, stderr=subprocess.PIPE, start_new_session=True,
                            text=True)


def shm_names():
    """Names a Shoal job could create in /dev/shm (it should create none)."""
    try:
        return {n for n in os.listdir("/dev/shm") if "shoal" in n.lower()}
    except OSError:
        return set()
