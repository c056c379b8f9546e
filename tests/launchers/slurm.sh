#!/bin/bash
# Shoal under real Slurm on this one machine: a private cluster
# (slurm_cluster.sh: slurmctld, slurmd and munged started here, everything
# in a temporary directory and removed again on exit, whatever happens),
# then Shoal jobs started through srun, each checking its own results.
#
#   slurm.sh BIN_DIR OSHRUN CHECK
#     BIN_DIR  the build's tests/bin (launch_ranks, core_hello, api_*, core_faulty)
#     CHECK    pmix     srun --mpi=pmix -n 1,3,4 and 8 on fewer CPUs (overcommit)
#              pmi2     the same through srun --mpi=pmi2 (and PMI-1 through it)
#              failure  under pmix and pmi2: a task segfaults or exits 3 (srun -K),
#                       a PE calls shmem_global_exit: the job ends, no task left
#              oshrun   oshrun inside an allocation: local on one node, and
#                       handed to srun when given the node (SHOAL_LAUNCHER=srun)
#              nodes    two nodes (network namespaces): pmix and pmi2 jobs
#                       across them, oshrun's handover in a two-node
#                       allocation, a task failing on the second node
#              cmd ...  run the command on a one-node cluster (to reproduce by hand)
# The checks but "nodes" use a one-node cluster.  Exit status: 0 passed,
# 1 failed, 77 skipped (Slurm or munge not installed, no cgroup file system).
set -u
bin=$1
oshrun=$2
check=$3
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
say() { echo "slurm.sh: $*"; }

for tool in slurmctld slurmd srun sinfo munged; do
    command -v $tool >/dev/null && continue
    say "$tool is not installed (Debian: apt-get install slurm-wlm munge); skipped"
    exit 77
done
if [ "$(id -u)" != 0 ]; then
    say "the Slurm tests start slurmd, which runs jobs as root here; run ctest as root"
    exit 1
fi

. "$(dirname "$0")/slurm_cluster.sh"
ncpu=$(nproc)
nnodes=1
[ "$check" = nodes ] && nnodes=2
start=$(date +%s%N)
cluster_up $nnodes || exit 1
say "cluster up in $((($(date +%s%N) - start) / 1000000)) ms: $nnodes node(s) (${nodes[*]}), $ncpu CPUs each," \
    "$(srun --version)"
deadline=$((SECONDS + ${SLURM_TEST_BUDGET:-240}))   # under ctest's TIMEOUT, so the cluster is always removed

# bounded LIMIT command...: the command on the head, output in $T/out; past
# LIMIT seconds the stacks of its tasks go to the output (a rare hang must
# leave evidence), then it is killed.
bounded() {
    local limit=$1 pid pe
    shift
    "${head_cmd[@]}" "$@" >"$T/out" 2>&1 &
    pid=$!
    for _ in $(seq $((limit * 10))); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
    if kill -0 $pid 2>/dev/null; then
        for pe in $(leftovers); do
            echo "---- stacks of task process $pe: $(tr '\0' ' ' <"/proc/$pe/cmdline" 2>/dev/null)"
            timeout 20 gdb -p "$pe" -batch -ex "thread apply all bt 15" 2>/dev/null | grep -E '^(#|Thread)'
        done >>"$T/out"
        kill -TERM $pid 2>/dev/null
        sleep 5
        kill -KILL $pid 2>/dev/null
    fi
    wait $pid
}

# ---- the checks -------------------------------------------------------------
# run NAME WANT_STATUS WANT_OUTPUT command...: the command, run on the head,
# ends within 60 s with that status (or any failure: "nonzero"), its output
# matches the extended regex WANT_OUTPUT (when not empty), and no task is
# left running.
run() {
    local name=$1 want=$2 regex=$3
    shift 3
    local limit=$((deadline - SECONDS))
    [ $limit -gt 60 ] && limit=60
    [ $limit -gt 0 ] || { fail "$name: not run, out of time"; return; }
    local t0=$(date +%s%N)
    bounded $limit "$@"
    local got=$? ms=$((($(date +%s%N) - t0) / 1000000))
    local ok=1
    if [ "$ms" -ge $((limit * 1000)) ]; then
        fail "$name: still running after $limit s"; ok=0
    elif [ "$want" = nonzero ]; then
        [ "$got" != 0 ] || { fail "$name: exit status 0, want a failure"; ok=0; }
    else
        [ "$got" = "$want" ] || { fail "$name: exit status $got, want $want"; ok=0; }
    fi
    [ -z "$regex" ] || grep -Eq "$regex" "$T/out" || { fail "$name: output lacks /$regex/"; ok=0; }
    for _ in $(seq 30); do [ -z "$(leftovers)" ] && break; sleep 0.1; done
    [ -z "$(leftovers)" ] || { fail "$name: tasks left running: $(leftovers)"; ok=0; }
    if [ $ok = 1 ]; then
        echo "ok: $name (status $got, $ms ms)"
    else
        sed "s/^/    | /" "$T/out" | tail -n 150
    fi
}

# srun's --overcommit when the cluster has fewer CPUs than tasks.
over() { [ "$1" -gt $((ncpu * nnodes)) ] && echo --overcommit; }

# The programs that check their own results, at 1, 3, 4 PEs and 8 on fewer
# CPUs.  launch_ranks also checks the ranks srun gave, and Shoal's banner
# (SHMEM_VERSION) which bootstrap it took.
check_bootstrap() {
    local mpi=$1 boot=$2
    for np in 1 3 4 8; do
        run "srun --mpi=$mpi -n $np launch_ranks, bootstrap $boot" 0 "^Shoal .*, $np PEs on 1 host\(s\), bootstrap $boot\$" \
            env SHMEM_VERSION=1 SHOAL_BOOTSTRAP="${SHOAL_BOOTSTRAP:-auto}" \
            srun $(over $np) -n $np --mpi="$mpi" "$bin/launch_ranks" "$np" srun
        for prog in core_hello api_rma api_amo; do
            [ -x "$bin/$prog" ] || { fail "$bin/$prog is not built"; continue; }
            run "srun --mpi=$mpi -n $np $prog, bootstrap $boot" 0 "" srun $(over $np) -n $np --mpi="$mpi" "$bin/$prog"
        done
    done
}

# A PE that fails ends the job.  Slurm leaves the other tasks running when
# one dies unless asked (-K, or KillOnBadExit=1), and PEs waiting for a dead
# one on the same node do not notice, so srun gets -K; shmem_global_exit
# ends the job by itself (through the bootstrap's abort).  Its status
# reaches srun's only through PMIx: PMI-2's abort carries no status, Slurm
# kills the other tasks and srun reports their SIGKILL (137), naming the
# status of the PE that called it.  Which srun names first, the calling
# task's own exit with 7 or the step's cancellation that kills all four, is
# a race (the cancellation won once in a loaded CI run; srun's status was
# 7 all the same): either line will do.
check_failures() {
    local mpi=$1 gexit=7
    [ "$mpi" = pmi2 ] && gexit=137
    run "srun -K --mpi=$mpi: task 1 segfaults" nonzero "task 1: (Segmentation fault|Exited with exit code)" \
        srun $(over 4) -n 4 -K --mpi="$mpi" "$bin/core_faulty" segv
    run "srun -K --mpi=$mpi: task 1 exits with 3" 3 "task 1: Exited with exit code 3" \
        srun $(over 3) -n 3 -K --mpi="$mpi" "$bin/core_faulty" exit3
    run "srun --mpi=$mpi: the last PE calls shmem_global_exit(7)" $gexit \
        "task 3: Exited with exit code 7|STEP [0-9.]+ ON .* CANCELLED" \
        srun $(over 4) -n 4 --mpi="$mpi" "$bin/core_faulty" gexit
}

# oshrun inside an allocation.  On one node it starts the PEs itself (the
# handover is for allocations of several nodes); given the node as a host
# list, with SHOAL_LAUNCHER=srun, it hands the job to srun --mpi=pmix.
check_oshrun() {
    run "salloc -n 3 oshrun -np 3 (one node: oshrun's own launch)" 0 "^Shoal .*, 3 PEs on 1 host\(s\), bootstrap local\$" \
        salloc -Q $(over 3) -n 3 env SHMEM_VERSION=1 SHOAL_LAUNCHER_SHOW=1 "$oshrun" -np 3 "$bin/launch_ranks" 3 oshrun
    grep -q "^oshrun: .*srun" "$T/out" && fail "oshrun handed a one-node job to srun"
    local node=${nodes[0]}
    run "salloc -n 3 oshrun --host $node -np 3 (handed to srun)" 0 "^oshrun: .*/srun --mpi=pmix -K1 -n 3 --nodelist $node " \
        salloc -Q $(over 3) -n 3 env SHMEM_VERSION=1 SHOAL_LAUNCHER=srun SHOAL_LAUNCHER_SHOW=1 \
        "$oshrun" --host "$node" -np 3 "$bin/launch_ranks" 3 srun
    grep -Eq "^Shoal .*, 3 PEs on 1 host\(s\), bootstrap pmix\$" "$T/out" ||
        fail "oshrun's handover did not start a PMIx job of 3 PEs: $(cat "$T/out")"
}

# Two nodes: PEs on both, block and cyclic, reach each other through the
# network transport; oshrun in a two-node allocation hands the job to srun
# by itself; a task dying on the second node ends the job on both.
check_nodes() {
    for mpi in pmix pmi2; do
        for np in 2 3 5; do
            run "srun --mpi=$mpi -N 2 -n $np launch_ranks" 0 "^Shoal .*, $np PEs on 2 host\(s\), bootstrap $mpi\$" \
                env SHMEM_VERSION=1 srun $(over $np) -N 2 -n $np --mpi="$mpi" "$bin/launch_ranks" "$np" srun
        done
        run "srun --mpi=$mpi -N 2 -n 5 -m cyclic launch_ranks" 0 "^Shoal .*, 5 PEs on 2 host\(s\), bootstrap $mpi\$" \
            env SHMEM_VERSION=1 srun $(over 5) -N 2 -n 5 -m cyclic --mpi="$mpi" "$bin/launch_ranks" 5 srun
        for prog in core_hello api_rma api_amo; do
            run "srun --mpi=$mpi -N 2 -n 3 $prog" 0 "" srun -N 2 -n 3 --mpi="$mpi" "$bin/$prog"
        done
        run "srun -K --mpi=$mpi -N 2 -n 4 -m cyclic: task 1 (second node) segfaults" nonzero \
            "${nodes[1]}: task 1: (Segmentation fault|Exited with exit code)" \
            srun -K -N 2 -n 4 -m cyclic --mpi="$mpi" "$bin/core_faulty" segv
    done
    run "salloc -N 2 -n 4 oshrun -np 4 (handed to srun)" 0 "^oshrun: .*/srun --mpi=pmix -K1 -n 4 " \
        salloc -Q -N 2 -n 4 env SHMEM_VERSION=1 SHOAL_LAUNCHER_SHOW=1 "$oshrun" -np 4 "$bin/launch_ranks" 4 srun
    grep -Eq "^Shoal .*, 4 PEs on 2 host\(s\), bootstrap pmix\$" "$T/out" ||
        fail "oshrun's handover did not start a PMIx job of 4 PEs on 2 hosts: $(cat "$T/out")"
}

case "$check" in
pmix | pmi2)
    srun --mpi=list 2>&1 | grep -q "$check" || { say "srun --mpi=list offers no $check: $(srun --mpi=list 2>&1)"; exit 1; }
    check_bootstrap "$check" "$check"
    # The checks can fail: a job of 3 tasks told to expect 4 must not pass.
    run "srun --mpi=$check -n 3 launch_ranks 4 (wrong count: must fail)" nonzero "shmem_n_pes\(\) is 3, the job has 4 tasks" \
        srun $(over 3) -n 3 -K --mpi="$check" "$bin/launch_ranks" 4 srun
    if [ "$check" = pmi2 ]; then   # Slurm's pmi2 plugin also answers PMI-1
        SHOAL_BOOTSTRAP=pmi1 check_bootstrap pmi2 pmi1
    fi
    ;;
failure)
    check_failures pmix
    check_failures pmi2
    ;;
oshrun)
    check_oshrun
    ;;
nodes)
    check_nodes
    ;;
cmd)
    shift 3
    on_head "$@"
    exit
    ;;
*)
    say "unknown check $check"
    exit 2
    ;;
esac

echo "slurm $check: $fails failure(s)"
[ "$fails" = 0 ]
