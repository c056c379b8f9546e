"""OpenSHMEM libraries under test: Shoal and any peer, each described by
its compiler wrapper, its launcher command prefix and extra environment.

A library is just data; everything library-specific the runner knows
(Open MPI's flags and known crashes) is applied here, once, when the
library is described."""

import os
import shlex
import subprocess
from dataclasses import dataclass, field
from typing import Dict, List, Optional

BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_DIR = os.path.dirname(BENCH_DIR)


@dataclass
class Library:
    name: str
    oshcc: str
    launcher: List[str]                     # oshrun and its fixed options; "-np N prog" follow
    env: Dict[str, str] = field(default_factory=dict)
    is_shoal: bool = False                  # Shoal-only programs and --algo-env apply
    skip: Dict[str, str] = field(default_factory=dict)   # program -> its --skip= value
    notes: List[str] = field(default_factory=list)       # shown in the report
    problem: str = ""                       # why it cannot be used ("" = usable)

    def describe(self) -> str:
        return "%s: oshcc=%s oshrun=%s" % (self.name, self.oshcc, " ".join(self.launcher))


def shoal(build_dir: str) -> Library:
    """Shoal from its CMake build directory (wrappers in <build>/bin)."""
    bin_dir = os.path.join(build_dir, "bin")
    return Library(name="shoal", oshcc=os.path.join(bin_dir, "oshcc"),
                   launcher=[os.path.join(bin_dir, "oshrun")], is_shoal=True)


def parse_spec(spec: str, default_name: str) -> Library:
    """--peer/--lib syntax: comma-separated key=value with keys name,
    oshcc, oshrun, args (extra launcher options, shell-quoted) and env
    (NAME=VALUE pairs separated by ':'); oshcc is required, oshrun
    defaults to the oshrun next to oshcc."""
    fields = {}
    for part in spec.split(","):
        if not part:
            continue
        key, sep, value = part.partition("=")
        if not sep or key not in ("name", "oshcc", "oshrun", "args", "env", "shoal"):
            raise SystemExit("bad library spec %r: expected name=,oshcc=,oshrun=,args=,env=" % spec)
        fields[key] = value
    if "oshcc" not in fields:
        raise SystemExit("library spec %r has no oshcc=" % spec)
    oshrun = fields.get("oshrun") or os.path.join(os.path.dirname(fields["oshcc"]), "oshrun")
    env = dict(item.split("=", 1) for item in fields.get("env", "").split(":") if "=" in item)
    lib = Library(name=fields.get("name", default_name), oshcc=fields["oshcc"],
                  launcher=[oshrun] + shlex.split(fields.get("args", "")), env=env,
                  is_shoal=fields.get("shoal", "") in ("1", "yes", "true"))
    return adapt_to_flavour(lib)


def default_peer() -> Optional[Library]:
    """Open MPI's OpenSHMEM from Debian, when installed."""
    if os.path.exists("/usr/bin/oshcc") and os.path.exists("/usr/bin/oshrun"):
        return adapt_to_flavour(Library(name="openmpi", oshcc="/usr/bin/oshcc",
                                        launcher=["/usr/bin/oshrun"]))
    return None


def launcher_version(launcher: List[str]) -> str:
    try:
        out = subprocess.run([launcher[0], "--version"], capture_output=True, text=True,
                             timeout=20, env=dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
                                                  OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1"))
        return (out.stdout + out.stderr).strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def adapt_to_flavour(lib: Library) -> Library:
    """Options a known implementation needs to run here at all."""
    version = launcher_version(lib.launcher)
    if "Open MPI" in version or "OpenRTE" in version:
        adapt_open_mpi(lib, version.splitlines()[0] if version else "")
    return lib


def adapt_open_mpi(lib: Library, version: str) -> None:
    # More PEs than cores, and without the osc/rdma component that fails
    # to start on a host without RDMA hardware.
    for opt in (["--oversubscribe"], ["--mca", "osc", "^rdma"]):
        if opt[0] not in lib.launcher:
            lib.launcher.extend(opt)
    if os.geteuid() == 0:
        lib.env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        lib.env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    # Open MPI 4.1's 32-bit compare-and-swap smashes the caller's stack and
    # kills the program; leave it out so the other AMOs are measured.
    lib.skip.setdefault("atomics", "compare_swap/uint32")
    lib.notes.append("%s: launched with %s; atomics run with --skip=%s (32-bit compare_swap "
                     "aborts with 'stack smashing detected' in this version)"
                     % (version or "Open MPI", " ".join(lib.launcher[1:]), lib.skip["atomics"]))


def check_usable(lib: Library, work_dir: str, timeout_s: int = 60) -> Library:
    """Build and run a 2-PE hello world; record why not if it fails."""
    if not os.access(lib.oshcc, os.X_OK):
        lib.problem = "no compiler wrapper at %s" % lib.oshcc
        return lib
    if not os.access(lib.launcher[0], os.X_OK):
        lib.problem = "no launcher at %s" % lib.launcher[0]
        return lib
    os.makedirs(work_dir, exist_ok=True)
    src = os.path.join(work_dir, "hello_%s.c" % lib.name)
    exe = os.path.join(work_dir, "hello_%s" % lib.name)
    with open(src, "w") as f:
        f.write('#include <shmem.h>\n#include <stdio.h>\nint main(void){shmem_init();'
                'shmem_barrier_all();if(shmem_my_pe()==0)printf("hello %d\\n",shmem_n_pes());'
                'shmem_finalize();return 0;}\n')
    env = dict(os.environ, **lib.env)
    try:
        cc = subprocess.run([lib.oshcc, src, "-o", exe], capture_output=True, text=True,
                            timeout=timeout_s, env=env)
        if cc.returncode != 0:
            lib.problem = "hello world does not build: " + (cc.stderr.strip()[-300:] or "?")
            return lib
        run = subprocess.run(lib.launcher + ["-np", "2", exe], capture_output=True, text=True,
                             timeout=timeout_s, env=env)
        if "hello 2" not in run.stdout:
            lib.problem = "hello world does not run on 2 PEs: " + (run.stderr.strip()[-300:] or
                                                                   "no output")
    except (OSError, subprocess.SubprocessError) as e:
        lib.problem = "hello world failed: %s" % e
    return lib
