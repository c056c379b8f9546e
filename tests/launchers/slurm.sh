#!/bin/bash
# Shoal under real Slurm on this one machine: a private cluster of one node
# (slurmctld, slurmd and munged started here, everything in a temporary
# directory, removed again on exit, whatever happens), then Shoal jobs
# started through srun, each checking its own results.
#
#   slurm.sh BIN_DIR OSHRUN CHECK
#     BIN_DIR  the build's tests/bin (launch_ranks, core_hello, api_*, core_faulty)
#     CHECK    pmix     srun --mpi=pmix -n 1,3,4 and 8 on fewer CPUs (overcommit)
#              pmi2     the same through srun --mpi=pmi2
#              failure  one task segfaults: srun ends non-zero, no task left
#              oshrun   oshrun inside an allocation: local on one node, and
#                       handed to srun when given the node (SHOAL_LAUNCHER=srun)
#              cmd ...  run the command inside the cluster (to reproduce by hand)
# Exit status: 0 passed, 1 failed, 77 Slurm or munge not installed (skipped).
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

# ---- a private cluster ------------------------------------------------------
# All state lives in $T: config, keys, sockets, spool, logs.  Ports are
# picked free, so a site's own Slurm (6817/6818) is never disturbed.
T=$(mktemp -d /tmp/shoal-slurm.XXXXXX)
chmod 700 "$T"
export SLURM_CONF=$T/slurm.conf
pids=()   # daemons started here, stopped in reverse order

# Processes of this cluster still running one of the test programs: found by
# executable and by this cluster's SLURM_CONF in their environment, so
# another job running the same binaries is never counted (or killed).
leftovers() {
    local pid
    for pid in $(pgrep -f "^($bin/|slurmstepd: )"); do
        { tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | grep -qx "SLURM_CONF=$SLURM_CONF" || continue
        case "$(ps -o stat= -p "$pid" 2>/dev/null)" in Z*|"") ;; *) echo "$pid" ;; esac
    done
}

teardown() {
    local status=$?
    trap - EXIT INT TERM
    if [ ${#pids[@]} -gt 0 ]; then
        scancel --full --quiet --partition=shoal 2>/dev/null
        for _ in $(seq 50); do [ -z "$(leftovers)" ] && break; sleep 0.1; done
        for pid in $(leftovers); do kill -9 "$pid" 2>/dev/null; done
        for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; done
        for pid in "${pids[@]}"; do
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
        done
    fi
    if [ "$status" != 0 ] && [ "${KEEP_LOGS:-}" = "" ]; then
        for log in "$T"/*.log; do
            [ -s "$log" ] && { echo "---- $(basename "$log") (last lines)"; tail -n 15 "$log"; }
        done
    fi
    rm -rf "$T"
    exit "$status"
}
trap teardown EXIT
trap 'exit 1' INT TERM

free_port() {
    local p
    for _ in $(seq 100); do
        p=$((20000 + RANDOM % 20000))
        ss -Htln "sport = :$p" 2>/dev/null | grep -q . || { echo $p; return; }
    done
    echo 0
}

node=$(hostname -s)
ncpu=$(nproc)
start_munge() {
    mkdir -p "$T/munge"
    chmod 711 "$T/munge"   # munged wants its socket's directory searchable by all
    head -c 1024 /dev/urandom >"$T/munge/munge.key"
    chmod 400 "$T/munge/munge.key"
    munged -F --force --socket="$T/munge/socket" --key-file="$T/munge/munge.key" \
        --pid-file="$T/munge/munged.pid" --log-file="$T/munged.log" --seed-file="$T/munge/seed" >"$T/munged.stderr" 2>&1 &
    pids+=($!)
    for _ in $(seq 50); do
        munge -n -S "$T/munge/socket" 2>/dev/null | unmunge -S "$T/munge/socket" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    say "munged does not answer on $T/munge/socket"
    return 1
}

write_conf() {
    mkdir -p "$T/state" "$T/spool" "$T/tmp"
    : >"$T/plugstack.conf"
    cat >"$SLURM_CONF" <<EOF
# Written by tests/launchers/slurm.sh: a one-node cluster for Shoal's tests.
ClusterName=shoaltest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge/socket
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$T/plugstack.conf
TmpFS=$T/tmp
# No cgroups, no accounting: processes are tracked through /proc.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
KillWait=2
MinJobAge=5
InactiveLimit=0
NodeName=$node NodeAddr=127.0.0.1 CPUs=$ncpu State=UNKNOWN
PartitionName=shoal Nodes=$node Default=YES MaxTime=10 State=UP
EOF
}

start_slurm() {
    slurmctld -D -c -f "$SLURM_CONF" >"$T/slurmctld.stderr" 2>&1 &   # -D also logs to stderr
    pids+=($!)
    slurmd -D -N "$node" -f "$SLURM_CONF" >"$T/slurmd.stderr" 2>&1 &
    pids+=($!)
    local state=
    for _ in $(seq 150); do
        state=$(sinfo -h -n "$node" -o %T 2>/dev/null)
        [ "$state" = idle ] && return 0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || { say "a Slurm daemon exited at start"; return 1; }; done
        sleep 0.2
    done
    say "node $node did not become idle in 30 s (state: ${state:-none})"
    return 1
}

start=$(date +%s%N)
start_munge || exit 1
write_conf
start_slurm || exit 1
say "cluster up in $((($(date +%s%N) - start) / 1000000)) ms: node $node, $ncpu CPUs, $(srun --version)"

# ---- the checks -------------------------------------------------------------
# run NAME WANT_STATUS WANT_OUTPUT command...: the command ends within 60 s
# with that status (or any failure: "nonzero"), its output matches the
# extended regex WANT_OUTPUT (when not empty), and no task is left running.
run() {
    local name=$1 want=$2 regex=$3
    shift 3
    local t0=$(date +%s%N)
    timeout -k 5 60 "$@" >"$T/out" 2>&1
    local got=$? ms=$((($(date +%s%N) - t0) / 1000000))
    local ok=1
    if [ "$ms" -ge 60000 ]; then
        fail "$name: still running after 60 s"; ok=0
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
        sed 's/^/    | /' "$T/out" | tail -n 20
    fi
}

# srun's --overcommit when there are fewer CPUs than tasks.
over() { [ "$1" -gt "$ncpu" ] && echo --overcommit; }

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
# status of the PE that called it.
check_failures() {
    local mpi=$1 gexit=7
    [ "$mpi" = pmi2 ] && gexit=137
    run "srun -K --mpi=$mpi: task 1 segfaults" nonzero "task 1: (Segmentation fault|Exited with exit code)" \
        srun $(over 4) -n 4 -K --mpi="$mpi" "$bin/core_faulty" segv
    run "srun -K --mpi=$mpi: task 1 exits with 3" 3 "task 1: Exited with exit code 3" \
        srun $(over 3) -n 3 -K --mpi="$mpi" "$bin/core_faulty" exit3
    run "srun --mpi=$mpi: the last PE calls shmem_global_exit(7)" $gexit "task 3: Exited with exit code 7" \
        srun $(over 4) -n 4 --mpi="$mpi" "$bin/core_faulty" gexit
}

# oshrun inside an allocation.  On one node it starts the PEs itself (the
# handover is for allocations of several nodes); given the node as a host
# list, with SHOAL_LAUNCHER=srun, it hands the job to srun --mpi=pmix.
check_oshrun() {
    run "salloc -n 3 oshrun -np 3 (one node: oshrun's own launch)" 0 "^Shoal .*, 3 PEs on 1 host\(s\), bootstrap local\$" \
        salloc -Q $(over 3) -n 3 env SHMEM_VERSION=1 SHOAL_LAUNCHER_SHOW=1 "$oshrun" -np 3 "$bin/launch_ranks" 3 oshrun
    grep -q "^oshrun: .*srun" "$T/out" && fail "oshrun handed a one-node job to srun"
    run "salloc -n 3 oshrun --host $node -np 3 (handed to srun)" 0 "^oshrun: .*/srun --mpi=pmix -n 3 --nodelist $node " \
        salloc -Q $(over 3) -n 3 env SHMEM_VERSION=1 SHOAL_LAUNCHER=srun SHOAL_LAUNCHER_SHOW=1 \
        "$oshrun" --host "$node" -np 3 "$bin/launch_ranks" 3 srun
    grep -Eq "^Shoal .*, 3 PEs on 1 host\(s\), bootstrap pmix\$" "$T/out" ||
        fail "oshrun's handover did not start a PMIx job of 3 PEs: $(cat "$T/out")"
}

case "$check" in
pmix | pmi2)
    srun --mpi=list 2>&1 | grep -q "$check" || { fail "srun --mpi=list offers no $check: $(srun --mpi=list 2>&1)"; exit 1; }
    check_bootstrap "$check" "$check"
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
cmd)
    shift 3
    "$@"
    exit
    ;;
*)
    say "unknown check $check"
    exit 2
    ;;
esac

echo "slurm $check: $fails failure(s)"
[ "$fails" = 0 ]
