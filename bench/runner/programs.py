"""The table of benchmark programs: what to build, at which PE counts to run
each one, with which arguments and environment, and what it needs.

This table is the suite's extension point: a new experiment is one C file
under programs/ plus one Program row here.  Programs that only make sense
with Shoal-specific features (shmemx_* calls, Shoal environment variables)
set needs={"shoal"}; the runner then builds and runs them for Shoal only.
"""

from dataclasses import dataclass
from typing import List, Tuple


@dataclass(frozen=True)
class Variant:
    """One way of running a program: extra arguments and environment.

    label names the variant in results ("" for the plain run); it becomes
    part of every figure's key so that variants are never mixed up."""
    label: str = ""
    args: Tuple[str, ...] = ()
    env: Tuple[Tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Program:
    name: str                 # executable name; source is <dir>/<name>.c
    summary: str              # one line for --list and the report
    kind: str = "shmem"       # "shmem": built with each library's oshcc, run with its oshrun
                              # "machine": plain C, built with cc, run once per repetition
    pes: str = "each"         # "each": every --np value (a machine program gets --np N); "two": 2 PEs only
    heap: str = "256M"        # SHMEM_SYMMETRIC_SIZE for every library, so all get the same
    variants: Tuple[Variant, ...] = (Variant(),)
    full_variants: Tuple[Variant, ...] = ()   # added in --full mode
    needs: frozenset = frozenset()            # {"shoal"}: Shoal-only programs
    # Shoal's algorithm variables this program is repeated for (--algo-env,
    # --algorithms), each with the arguments that narrow the run to the
    # collective the variable selects.
    algorithm_args: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    # Settings every algorithm run is repeated under, for Shoal only (each
    # algorithm x each of these becomes its own labelled run), e.g. with
    # and without load/store through shmem_ptr.
    algorithm_variants: Tuple[Variant, ...] = ()
    ci_pes: Tuple[int, ...] = (1, 2, 3)       # PE counts for --verify-only
    timeout_s: int = 0                        # 0: the runner's --timeout
    source: str = ""          # path under bench/ when not <programs|machine>/<name>.c
    link: Tuple[str, ...] = ()                # extra link flags, e.g. ("-lpthread",)

    @property
    def source_path(self) -> str:
        """Source file relative to bench/."""
        if self.source:
            return self.source
        return "%s/%s.c" % ("machine" if self.kind == "machine" else "programs", self.name)

    def variants_for(self, mode: str) -> Tuple[Variant, ...]:
        return self.variants + (self.full_variants if mode == "full" else ())

    @property
    def per_algorithm(self) -> bool:
        return bool(self.algorithm_args)

    def args_for_algorithm(self, variable: str):
        """Extra arguments for a run under variable, None if it does not apply."""
        return dict(self.algorithm_args).get(variable)


def _heap(size: str) -> Variant:
    return Variant(label="heap=" + size, env=(("SHMEM_SYMMETRIC_SIZE", size),))


# Shoal's collectives move data by load/store through shmem_ptr where they
# can, unless SHOAL_COLL_NO_LOADSTORE makes them use put/get (004 s5.2).
LOAD_STORE = Variant(label="loadstore", env=(("SHOAL_COLL_NO_LOADSTORE", "0"),))
PUT_GET = Variant(label="putget", env=(("SHOAL_COLL_NO_LOADSTORE", "1"),))


PROGRAMS: List[Program] = [
    Program("cacheline_pingpong", "machine limit: one-way latency of a cache line between two processes",
            kind="machine", pes="two"),
    Program("memcpy_bw", "machine limit: memcpy bandwidth 1 KiB - 64 MiB",
            kind="machine", pes="two"),
    Program("sync_floor", "machine limit: barrier, 8-B broadcast, 1-long sum-reduce with plain loads and "
            "stores among N processes, timed like the collectives", kind="machine",
            ci_pes=(1, 2, 3, 8)),
    Program("p2p_latency", "put/get (blocking, nbi), p/g latency 1 B - 4 MiB, heap and static; ping-pong",
            pes="two"),
    Program("p2p_bandwidth", "put/get bandwidth, bidirectional put, message rate, heap and static",
            pes="two"),
    Program("atomics", "latency and rate of every AMO, 32 and 64 bit, fetching/non-fetching/nbi",
            pes="two"),
    Program("multipair", "n pairs at once: put/get and shmem_ptr store/load latency and bandwidth (004 s4)",
            ci_pes=(1, 2, 3, 8)),
    Program("collectives", "barrier, broadcast, sum reduce, collect, fcollect, alltoall vs size",
            algorithm_args=tuple((var, ("--op=" + op,)) for var, op in (
                ("SHMEM_BARRIER_ALGORITHM", "barrier"), ("SHMEM_BCAST_ALGORITHM", "broadcast"),
                ("SHMEM_REDUCE_ALGORITHM", "reduce"), ("SHMEM_COLLECT_ALGORITHM", "collect"),
                ("SHMEM_FCOLLECT_ALGORITHM", "fcollect"),
                ("SHMEM_ALLTOALL_ALGORITHM", "alltoall"))),
            ci_pes=(1, 2, 3, 8)),
    Program("stream", "STREAM copy/scale/add/triad with a reduction per block, local/putget/shmem_ptr (004 s4.2)"),
    Program("team_create", "team creation latency, duplicate and halving splits (000 Fig. 3); needs teams"),
    Program("reduce_algorithms", "int sum all-reduce 4 B - 4 MiB, back to back; per algorithm "
            "(FT/RD/BR/RSAG, ring) with load/store vs put/get (004 s5, Fig. 7-10)",
            algorithm_args=(("SHMEM_REDUCE_ALGORITHM", ()), ("SHOAL_TUNING_FILE", ())),
            algorithm_variants=(LOAD_STORE, PUT_GET),
            ci_pes=(1, 2, 3, 4)),
    Program("osu_reduce_teams", "OSU sum reduce: Algorithm 1 (active set) vs 2 (shared+leaders teams) (000 s V-B)",
            algorithm_args=(("SHMEM_REDUCE_ALGORITHM", ()),)),
    Program("heat2d", "2D heat conduction, row distribution, puts + barriers (003)"),
    Program("daxpy", "DAXPY with ring shift by put, barrier and sum reduction (003)"),
    Program("intsort", "NAS IS-style bucket sort: fetch-add reservations + puts (004 s6)"),
    Program("sparse_exchange", "split-phase barrier: dynamic sparse data exchange (002 Fig. 1); "
            "split with puts, split with AMOs, blocking barrier", source="split/sparse_exchange.c",
            needs=frozenset({"shoal"}),
            variants=(Variant("split_put", ("--variant=split",), (("SHOAL_SPLIT_BARRIER", "put"),)),
                      Variant("split_amo", ("--variant=split",), (("SHOAL_SPLIT_BARRIER", "amo"),)),
                      Variant("blocking", ("--variant=blocking",)))),
    Program("ctx_msgrate", "message rate, 1 vs 2 threads each on its own context (issue 4)",
            source="teams/ctx_msgrate.c", pes="two", link=("-lpthread",)),
    Program("footprint", "resident memory per PE of hello world + barrier + collect (003)",
            variants=(_heap("64M"), _heap("256M")), full_variants=(_heap("1G"),), heap=""),
]


# Every algorithm Shoal can be told to use, by variable (the names of
# src/coll/select.c); --algorithms runs them all.  Values a library does
# not know make its runs fail at start-up, which the report shows.
SHOAL_ALGORITHMS = (
    "SHMEM_BARRIER_ALGORITHM=shm,dissem,tree",
    "SHMEM_BCAST_ALGORITHM=shm,pull,linear,binomial,scatter_allgather",
    "SHMEM_REDUCE_ALGORITHM=flat,recdbl,bruck,rsag,ring,shm",   # 004 s5 order: FT, RD, BR, RSAG
    "SHMEM_COLLECT_ALGORITHM=shm,linear,ring,recdbl,bruck",
    "SHMEM_FCOLLECT_ALGORITHM=shm,linear,ring,recdbl,bruck",
    "SHMEM_ALLTOALL_ALGORITHM=shm,pairwise",
)


def by_name(names: List[str]) -> List[Program]:
    """The programs named, in table order; all of them for an empty list."""
    if not names:
        return list(PROGRAMS)
    known = {p.name: p for p in PROGRAMS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit("unknown program(s): %s (see --list)" % ", ".join(unknown))
    return [p for p in PROGRAMS if p.name in names]


# Direction of each metric: the ratio column and the targets need to know
# whether a bigger number is better.
HIGHER_IS_BETTER = {"bandwidth_MBps", "rate_Mops", "rate_Mkeys_per_s", "msgs_per_s"}


def higher_is_better(metric: str) -> bool:
    return metric in HIGHER_IS_BETTER
