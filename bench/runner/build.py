"""Building every program with every library's compiler wrapper.

SHMEM programs are compiled once per library into <out>/build/<library>/;
the plain-C machine references once, with cc, into <out>/build/machine/.
A program that does not build for a library is recorded and skipped for
that library only (for example an active-set routine a library dropped)."""

import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Dict, List, Tuple

from .libraries import BENCH_DIR, Library
from .programs import Program

CFLAGS = ["-O2", "-std=gnu11", "-Wall"]
MACHINE_CC = os.environ.get("CC", "cc")


@dataclass
class Built:
    exe: str
    ok: bool
    log: str


def source_of(program: Program) -> str:
    return os.path.join(BENCH_DIR, program.source_path)


def compile_command(program: Program, compiler: str, exe: str) -> List[str]:
    return ([compiler] + CFLAGS + ["-I", os.path.join(BENCH_DIR, "common"), source_of(program),
                                   "-o", exe, "-lm"] + list(program.link))


def build_one(program: Program, compiler: str, out_dir: str, env: Dict[str, str]) -> Built:
    os.makedirs(out_dir, exist_ok=True)
    exe = os.path.join(out_dir, program.name)
    cmd = compile_command(program, compiler, exe)
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                             env=dict(os.environ, **env))
        log = " ".join(cmd) + "\n" + res.stdout + res.stderr
        return Built(exe, res.returncode == 0, log)
    except (OSError, subprocess.SubprocessError) as e:
        return Built(exe, False, " ".join(cmd) + "\n" + str(e))


def build_all(programs: List[Program], libraries: List[Library], build_dir: str,
              jobs: int = 2) -> Dict[Tuple[str, str], Built]:
    """(library name or "machine", program name) -> Built."""
    tasks = []
    for program in programs:
        if program.kind == "machine":
            tasks.append(("machine", program, MACHINE_CC, {}))
            continue
        for lib in libraries:
            if "shoal" in program.needs and not lib.is_shoal:
                continue
            tasks.append((lib.name, program, lib.oshcc, lib.env))
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {(who, prog.name): pool.submit(build_one, prog, cc,
                                                 os.path.join(build_dir, who), env)
                   for who, prog, cc, env in tasks}
    return {key: f.result() for key, f in futures.items()}
