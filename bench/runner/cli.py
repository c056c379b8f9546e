"""bench/run: build every program with Shoal and each peer, run them
alternately, and write results.json, results.csv, report.md, targets.md
and plots/ into one output directory."""

import argparse
import os
import platform
import sys
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from . import build, execute, plots, report, results, targets
from .libraries import BENCH_DIR, REPO_DIR, Library, check_usable, default_peer, parse_spec, shoal
from .programs import PROGRAMS, SHOAL_ALGORITHMS, Program, Variant, by_name

MODES = {
    # mode: (program flag, repetitions, default PE counts)
    "quick": ("--quick", 3, [2, 4]),
    "full": ("--full", 5, [2, 4, 8]),
    "tiny": ("--verify-only", 2, [2]),
    "verify": ("--verify-only", 1, []),   # [] = each program's ci_pes
}


@dataclass
class Case:
    program: Program
    pes: int
    variant: Variant
    algo_label: str = ""
    algo_env: Tuple[Tuple[str, str], ...] = ()
    algo_args: Tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return ",".join(x for x in (self.variant.label, self.algo_label) if x)


# ---- command line ---------------------------------------------------------------

def parse_args(argv: List[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="bench/run",
        description="Build the Shoal benchmark suite with Shoal and each peer OpenSHMEM, run "
                    "the programs alternately (Shoal, peer, Shoal, peer... per repetition) and "
                    "write results.json/.csv, report.md with medians, min-max and ratios, "
                    "targets.md and PNG plots.",
        epilog="Library spec: name=NAME,oshcc=PATH[,oshrun=PATH][,args='--opt v'][,env=A=1:B=2]. "
               "Open MPI is recognised from 'oshrun --version' and gets --oversubscribe, "
               "--mca osc ^rdma and the run-as-root variables by itself.")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--quick", dest="mode", action="store_const", const="quick",
                      help="a few minutes on 2 cores (default)")
    mode.add_argument("--full", dest="mode", action="store_const", const="full",
                      help="larger sizes, longer time budgets, more repetitions, 8 PEs")
    mode.add_argument("--tiny", dest="mode", action="store_const", const="tiny",
                      help="verification-sized runs through the whole pipeline (runner test)")
    mode.add_argument("--verify-only", dest="mode", action="store_const", const="verify",
                      help="CI: every program once in verify mode at each program's CI PE "
                           "counts (1,2,3, and 8 for some); exit non-zero on any failure")
    p.set_defaults(mode="quick")
    p.add_argument("--peer", action="append", default=[], metavar="SPEC",
                   help="a library to compare with (repeatable); default: Debian's Open MPI "
                        "(/usr/bin/oshcc, /usr/bin/oshrun) when installed")
    p.add_argument("--no-peer", "--only-shoal", dest="no_peer", action="store_true",
                   help="run Shoal alone")
    p.add_argument("--shoal-build", default=os.path.join(REPO_DIR, "build"), metavar="DIR",
                   help="Shoal's CMake build directory (wrappers in DIR/bin; default %(default)s)")
    p.add_argument("--shoal", metavar="SPEC", help="Shoal as a library spec instead of --shoal-build")
    p.add_argument("--no-shoal", "--only-peer", dest="no_shoal", action="store_true",
                   help="run the peer(s) only")
    p.add_argument("--np", help="comma-separated PE counts (default: 2,4 quick; 2,4,8 full)")
    p.add_argument("--reps", type=int, help="repetitions of every run (default by mode)")
    p.add_argument("--programs", help="comma-separated subset of programs (see --list)")
    p.add_argument("--algo-env", action="append", default=[], metavar="VAR=v1,v2",
                   help="for Shoal, also run the per-algorithm programs once per value of VAR "
                        "(repeatable), e.g. SHMEM_REDUCE_ALGORITHM=rd,ring")
    p.add_argument("--algorithms", action="store_true",
                   help="for Shoal, every collective algorithm it has (the --algo-env lists in "
                        "runner/programs.py SHOAL_ALGORITHMS)")
    p.add_argument("--tuning-file", metavar="FILE",
                   help="for Shoal, also run the per-algorithm programs that take it (reduce_algorithms) "
                        "with auto under these tuning rules (SHOAL_TUNING_FILE, tools/oshtune); with "
                        "--algorithms the report gives the share of sizes where tuned auto is within "
                        "10%% of the best forced algorithm")
    p.add_argument("--timeout", type=float, default=120, help="seconds per run (default 120)")
    p.add_argument("--strict", action="store_true",
                   help="a failed peer run also makes the exit status non-zero")
    p.add_argument("--out", help="output directory (default bench/out/<date>-<mode>)")
    p.add_argument("--jobs", type=int, default=2, help="parallel compilations")
    p.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    p.add_argument("--list", action="store_true", help="list the programs and exit")
    return p.parse_args(argv)


def list_programs() -> None:
    for prog in PROGRAMS:
        flags = [prog.kind, "PEs: " + ("2" if prog.pes == "two" else "each --np")]
        if prog.per_algorithm:
            flags.append("per algorithm")
        if prog.needs:
            flags.append("needs " + ",".join(sorted(prog.needs)))
        print("%-20s %s [%s]" % (prog.name, prog.summary, "; ".join(flags)))


# ---- what to run ---------------------------------------------------------------------

def choose_libraries(args: argparse.Namespace,
                     work_dir: str) -> Tuple[List[Library], Dict[str, str], Optional[str]]:
    """Usable libraries, first the one ratios are taken of (Shoal), the
    reasons for the ones left out, and Shoal's problem if it is one."""
    candidates: List[Library] = []
    if not args.no_shoal:
        candidates.append(parse_spec(args.shoal, "shoal") if args.shoal else shoal(args.shoal_build))
        candidates[-1].is_shoal = True
    if not args.no_peer:
        peers = [parse_spec(s, "peer%d" % (i + 1)) for i, s in enumerate(args.peer)]
        if not args.peer and default_peer():
            peers = [default_peer()]
        candidates += peers
    usable, unusable, shoal_problem = [], {}, None
    for lib in candidates:
        check_usable(lib, work_dir)
        if lib.problem:
            unusable[lib.name] = lib.problem
            shoal_problem = lib.problem if lib.is_shoal else shoal_problem
            say("library %s not usable: %s" % (lib.name, lib.problem))
        else:
            usable.append(lib)
    return usable, unusable, shoal_problem


def parse_algo_env(specs: List[str]) -> List[Tuple[str, str]]:
    """[(variable, value)] from VAR=v1,v2 specs."""
    algos = []
    for spec in specs:
        var, sep, values = spec.partition("=")
        if not sep or not values:
            raise SystemExit("--algo-env wants VAR=v1,v2, not %r" % spec)
        algos += [(var, v) for v in values.split(",") if v]
    return algos


def algorithm_cases(prog: Program, pes: int, variant: Variant, algos) -> List[Case]:
    """One case per algorithm whose variable this program responds to, and
    per algorithm variant of the program (load/store, put/get...)."""
    cases = []
    for var, value in algos:
        extra = prog.args_for_algorithm(var)
        if extra is None:
            continue
        for how in prog.algorithm_variants or (Variant(),):
            label = ",".join(x for x in ("%s=%s" % (var, value), how.label) if x)
            cases.append(Case(prog, pes, variant, label, ((var, value),) + how.env,
                              tuple(extra) + how.args))
    return cases


def plan_cases(programs: List[Program], mode: str, pes_list: List[int],
               algos, have_shoal: bool) -> List[Case]:
    cases = []
    for prog in programs:
        if prog.pes == "two":
            pes_for = [2]
        elif mode == "verify":
            pes_for = pes_list or list(prog.ci_pes)
        else:
            pes_for = pes_list
        for pes in pes_for:
            for variant in prog.variants_for(mode):
                cases.append(Case(prog, pes, variant))
                if have_shoal:
                    cases += algorithm_cases(prog, pes, variant, algos)
    return cases


def who_runs(case: Case, libs: List[Library]) -> List[Optional[Library]]:
    """None stands for the machine references, which use no library."""
    if case.program.kind == "machine":
        return [None]
    return [lib for lib in libs
            if (lib.is_shoal or ("shoal" not in case.program.needs and not case.algo_label))]


def command_for(case: Case, lib: Optional[Library], exe: str, mode_flag: str) -> List[str]:
    args = [mode_flag] + list(case.variant.args) + list(case.algo_args)
    if lib is None:   # a machine program forks its own processes
        return [exe] + args + ([] if case.program.pes == "two" else ["--np", str(case.pes)])
    if case.program.name in lib.skip:
        args.append("--skip=" + lib.skip[case.program.name])
    return lib.launcher + ["-np", str(case.pes), exe] + args


def env_for(case: Case, lib: Optional[Library]) -> Dict[str, str]:
    env = dict(lib.env) if lib else {}
    if case.program.heap:
        env["SHMEM_SYMMETRIC_SIZE"] = case.program.heap
    env.update(dict(case.variant.env))
    env.update(dict(case.algo_env))
    return env


# ---- running -------------------------------------------------------------------------

def say(text: str) -> None:
    print(text, flush=True)


def run_all(cases: List[Case], libs: List[Library], built, reps: int, mode_flag: str,
            timeout: float, out_dir: str, coll: results.Collection) -> None:
    total = sum(len(who_runs(c, libs)) for c in cases) * reps
    done = 0
    # Repetition by repetition over every case, not all of one case's
    # repetitions in a row: this machine drifts between placements over
    # minutes (a small figure moves 20-30%), so an algorithm comparison's
    # columns, each measured in one stretch, compared stretches instead of
    # algorithms (2 PEs, rsag forced against rsag named by a tuning file:
    # 1.2x apart in one run, either ahead in alternating ones).
    for rep in range(reps):
        for case in cases:
            for lib in who_runs(case, libs):
                done += 1
                run_one(case, lib, rep, built, mode_flag, timeout, out_dir, coll,
                        "[%d/%d]" % (done, total))


def run_one(case: Case, lib: Optional[Library], rep: int, built, mode_flag: str, timeout: float,
            out_dir: str, coll: results.Collection, progress: str) -> None:
    who = lib.name if lib else "machine"
    b = built.get((who, case.program.name))
    record = {"program": case.program.name, "library": who, "pes": case.pes,
              "label": case.label, "rep": rep + 1}
    if b is None or not b.ok:
        record.update(status=execute.NOT_BUILT, seconds=0.0, returncode=None, figures=0,
                      stderr_tail=(b.log[-1500:] if b else "not built"))
        coll.runs.append(record)
        if rep == 0:
            say("%s %-17s np=%-2d %-8s build failed, skipped" % (progress, case.program.name,
                                                                 case.pes, who))
        return
    res = execute.run(command_for(case, lib, b.exe, mode_flag), env_for(case, lib),
                      case.program.timeout_s or timeout, out_dir, b.exe)
    n = coll.add_records(who, case.label, res.records)
    record.update(status=res.status, seconds=round(res.seconds, 2), returncode=res.returncode,
                  figures=n, command=res.command)
    if res.status != execute.OK:
        record["stderr_tail"] = res.stderr_tail
    coll.runs.append(record)
    say("%s %-17s np=%-2d %-22s rep %d %-8s %-18s %5.1f s %4d figures" % (
        progress, case.program.name, case.pes, progress_label(case.label), rep + 1, who,
        res.status, res.seconds, n))


def progress_label(label: str) -> str:
    """SHMEM_REDUCE_ALGORITHM=flat,putget -> REDUCE=flat,putget: the part
    that tells runs apart, in the progress line's column."""
    return label.replace("SHMEM_", "").replace("_ALGORITHM=", "=")[:22]


# ---- output ---------------------------------------------------------------------------

def machine_description() -> str:
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
    except OSError:
        pass
    return "%s, %d CPUs, Linux %s" % (model or platform.machine(), os.cpu_count() or 0,
                                      platform.release())


def output_dir(args: argparse.Namespace) -> str:
    if args.out:
        return os.path.abspath(args.out)
    return os.path.join(BENCH_DIR, "out", time.strftime("%Y%m%d-%H%M%S") + "-" + args.mode)


def point_latest(out_dir: str) -> None:
    latest = os.path.join(BENCH_DIR, "out", "latest")
    if os.path.dirname(out_dir) != os.path.dirname(latest):
        return
    try:
        if os.path.islink(latest):
            os.unlink(latest)
        os.symlink(os.path.basename(out_dir), latest)
    except OSError:
        pass


def write_outputs(out_dir: str, meta: dict, coll: results.Collection, libs: List[Library],
                  no_plots: bool) -> List[dict]:
    names = [lib.name for lib in libs] + ["machine"]  # machine: the reference programs
    shoal_name = next((lib.name for lib in libs if lib.is_shoal), None)
    peer_name = next((lib.name for lib in libs if not lib.is_shoal), None)
    meta.update(shoal=shoal_name, peer=peer_name)
    pes_run = sorted({r["pes"] for r in coll.runs})
    target_rows = targets.evaluate(coll, shoal_name, peer_name, pes_run)
    plot_names = [] if no_plots else plots.make_all(coll, names, os.path.join(out_dir, "plots"))
    results.write_json(os.path.join(out_dir, "results.json"), meta, coll, names, target_rows)
    results.write_csv(os.path.join(out_dir, "results.csv"), coll, names)
    section = report.write(os.path.join(out_dir, "report.md"), meta, coll, names, target_rows,
                           plot_names)
    with open(os.path.join(out_dir, "targets.md"), "w") as f:
        f.write(section)
    return target_rows


def exit_status(coll: results.Collection, libs: List[Library], strict: bool, mode: str,
                shoal_problem: Optional[str]) -> int:
    if shoal_problem and mode in ("verify", "tiny"):  # a test of Shoal that cannot run it fails
        say("FAILED: Shoal is not usable: %s" % shoal_problem)
        return 1
    strict_names = {lib.name for lib in libs if lib.is_shoal or strict} | {"machine"}
    failed = [r for r in coll.runs if r["library"] in strict_names
              and r["status"] not in execute.ACCEPTABLE]
    if mode == "verify":  # CI also refuses a crash after a passing verdict
        failed += [r for r in coll.runs if r["library"] in strict_names
                   and r["status"] == execute.CRASH_AFTER_VERIFY]
    for r in failed:
        say("FAILED: %s np=%d %s %s: %s" % (r["program"], r["pes"], r["label"], r["library"],
                                           r["status"]))
    return 1 if failed else 0


def main(argv: List[str]) -> int:
    args = parse_args(argv)
    if args.list:
        list_programs()
        return 0
    started, start_date = time.monotonic(), time.strftime("%Y-%m-%d %H:%M:%S %Z")
    mode_flag, default_reps, default_pes = MODES[args.mode]
    reps = args.reps or default_reps
    pes_list = [int(x) for x in args.np.split(",")] if args.np else default_pes
    out_dir = output_dir(args)
    os.makedirs(out_dir, exist_ok=True)
    say("output: %s" % out_dir)

    libs, unusable, shoal_problem = choose_libraries(args, os.path.join(out_dir, "build", "probe"))
    if not any(lib.is_shoal for lib in libs) and not args.no_shoal:
        say("Shoal is not usable; running the peer(s) only")
    if not libs:
        say("no usable OpenSHMEM library; only the machine references will run")
    for lib in libs:
        say("library %s" % lib.describe())

    programs = by_name(args.programs.split(",") if args.programs else [])
    algos = parse_algo_env(args.algo_env + (list(SHOAL_ALGORITHMS) if args.algorithms else []))
    if args.tuning_file:
        if not os.path.isfile(args.tuning_file):
            raise SystemExit("--tuning-file: %s is not a file" % args.tuning_file)
        algos.append(("SHOAL_TUNING_FILE", os.path.abspath(args.tuning_file)))
    cases = plan_cases(programs, args.mode, pes_list, algos, any(l.is_shoal for l in libs))
    say("building %d programs for %s ..." % (len(programs),
                                              ", ".join(l.name for l in libs) or "no library"))
    built = build.build_all(programs, libs, os.path.join(out_dir, "build"), args.jobs)
    for (who, name), b in sorted(built.items()):
        if not b.ok:
            say("build of %s for %s failed:\n%s" % (name, who, b.log[-1500:]))

    coll = results.Collection()
    run_all(cases, libs, built, reps, mode_flag, args.timeout, out_dir, coll)

    meta = {"command": "bench/run " + " ".join(argv), "date": start_date,
            "machine": machine_description(), "mode": args.mode, "reps": reps,
            "pes": pes_list or sorted({c.pes for c in cases}),
            "libraries": [{"name": l.name, "describe": l.describe(), "notes": l.notes,
                           "info": coll.info.get(l.name, {}).get("name", "") + (
                               " spec " + coll.info[l.name]["spec"] if l.name in coll.info else "")}
                          for l in libs],
            "unusable": unusable, "duration_s": time.monotonic() - started}
    target_rows = write_outputs(out_dir, meta, coll, libs, args.no_plots)
    point_latest(out_dir)
    for t in target_rows:
        say("target: %-60s %s" % (t["target"][:60], t["status"]))
    say("done in %.0f s: %s" % (time.monotonic() - started, os.path.join(out_dir, "report.md")))
    return exit_status(coll, libs, args.strict, args.mode, shoal_problem)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
