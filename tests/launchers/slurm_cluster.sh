# A private Slurm cluster on this machine, for slurm.sh (sourced by it).
#
#   cluster_up NODES   NODES=1: one node (this host, on 127.0.0.1).
#                      NODES>1: that many nodes, each a network namespace
#                      with a hostname of its own (tests/multihost/netns.sh),
#                      and a head namespace running slurmctld and the clients.
#   on_head CMD...     runs CMD where srun/salloc/sinfo reach the controller
#                      ("${head_cmd[@]}" is that prefix, for timeout and the like)
#   leftovers          pids of this cluster's tasks and slurmstepds still alive
#   cluster_down       stops everything started here and removes $T, the
#                      namespaces and every file (cluster_up traps EXIT to it)
#
# munged, slurmctld and slurmd run in the foreground (-D/-F) as children of
# the script, with every file (config, munge key and socket, state, spool,
# logs) in $T.  Ports are picked free and the munge socket is private, so a
# site's own Slurm or munged is never used or disturbed.  No cgroups, no
# accounting: processes are tracked through /proc (proctrack/linuxproc).

cluster_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
netns=$cluster_here/../multihost/netns.sh
T=$(mktemp -d /tmp/shoal-slurm.XXXXXX)
chmod 711 "$T"   # munged wants the path to its socket searchable by all
export SLURM_CONF=$T/slurm.conf
daemons=()    # pids, stopped in reverse order
tag=          # namespace tag when the nodes are namespaces
nodes=()      # node names
head_cmd=()   # prefix that runs a command on the head (none: here)
host=()

# host_prefix I: sets $host to the command prefix that runs a command inside
# namespace host I, with that host's name (UTS namespace); every step execs
# the next, so a daemon started through it has the pid "$!" gives.
# nsenter, not "ip netns exec": that one mounts a fresh /sys without the
# cgroup file system, and slurmd 22.05 does not start without it.
host_prefix() {
    local ns=${tag}h$1
    host=(nsenter --net=/run/netns/"$ns" unshare --uts /bin/sh -c 'hostname "$0" && exec "$@"' "$ns")
}

on_head() { "${head_cmd[@]}" "$@"; }

leftovers() {
    local pid
    for pid in $(pgrep -f "^($bin/|slurmstepd: )"); do
        { tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | grep -qx "SLURM_CONF=$SLURM_CONF" || continue
        case "$(ps -o stat= -p "$pid" 2>/dev/null)" in Z*|"") ;; *) echo "$pid" ;; esac
    done
}

cluster_down() {
    local status=$?
    trap - EXIT INT TERM
    if [ ${#daemons[@]} -gt 0 ]; then
        on_head scancel --full --quiet --partition=shoal 2>/dev/null
        for _ in $(seq 50); do [ -z "$(leftovers)" ] && break; sleep 0.1; done
        for pid in $(leftovers); do kill -9 "$pid" 2>/dev/null; done
        for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do kill "${daemons[i]}" 2>/dev/null; done
        for pid in "${daemons[@]}"; do
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
        done
    fi
    [ -n "$tag" ] && "$netns" down "$tag"
    if [ "$status" != 0 ]; then
        for log in "$T"/*.log "$T"/*.stderr; do   # .stderr: what a daemon said before its log was open
            [ -s "$log" ] && { echo "---- $(basename "$log") (last lines)"; tail -n 12 "$log"; }
        done
    fi
    rm -rf "$T"
    exit "$status"
}
trap cluster_down EXIT
trap 'exit 1' INT TERM

# A port below the kernel's ephemeral range, used by no TCP socket in any
# state: a pick inside the range (20000-39999 overlapped 32768-60999) could
# be the local port of another test's connection, which no listening-only
# check sees, and slurmctld then died with "Address already in use".
free_port() {
    local p low
    low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
    [ "$low" -gt 11000 ] 2>/dev/null || low=32768
    for _ in $(seq 100); do
        p=$((10000 + RANDOM % (low - 10000)))
        ss -Htan "sport = :$p" 2>/dev/null | grep -q . || { echo $p; return; }
    done
    echo 0
}

start_munge() {
    mkdir -p "$T/munge"
    chmod 711 "$T/munge"   # munged wants its socket's directory searchable by all
    head -c 1024 /dev/urandom >"$T/munge/munge.key"
    chmod 400 "$T/munge/munge.key"
    munged -F --force --socket="$T/munge/socket" --key-file="$T/munge/munge.key" --pid-file="$T/munge/pid" \
        --log-file="$T/munged.log" --seed-file="$T/munge/seed" >"$T/munged.stderr" 2>&1 &
    daemons+=($!)
    for _ in $(seq 50); do
        munge -n -S "$T/munge/socket" 2>/dev/null | unmunge -S "$T/munge/socket" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "slurm_cluster: munged does not answer on $T/munge/socket"
    return 1
}

# write_conf CTLD_NAME CTLD_ADDR NODE_LINES
write_conf() {
    mkdir -p "$T/state" "$T/tmp"
    : >"$T/plugstack.conf"   # no site SPANK plugins
    cat >"$SLURM_CONF" <<EOF
# Written by tests/launchers/slurm_cluster.sh for Shoal's tests.
ClusterName=shoaltest
SlurmctldHost=$1($2)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge/socket
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool/%n
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd-%n.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$T/plugstack.conf
TmpFS=$T/tmp
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
$3
PartitionName=shoal Nodes=ALL Default=YES MaxTime=10 State=UP
EOF
}

wait_idle() {
    local state=
    for _ in $(seq 150); do
        state=$(on_head sinfo -h -o %T 2>/dev/null | sort -u)
        [ "$state" = idle ] && return 0
        for pid in "${daemons[@]}"; do
            kill -0 "$pid" 2>/dev/null || { echo "slurm_cluster: a Slurm daemon exited at start"; return 1; }
        done
        sleep 0.2
    done
    echo "slurm_cluster: the nodes did not become idle in 30 s (state: ${state:-none})"
    return 1
}

one_node() {
    nodes=("$(hostname -s)")
    write_conf "${nodes[0]}" 127.0.0.1 "NodeName=${nodes[0]} NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN"
    mkdir -p "$T/spool/${nodes[0]}"
    slurmctld -D -c -f "$SLURM_CONF" >"$T/slurmctld.stderr" 2>&1 &   # -D logs to stderr as well
    daemons+=($!)
    slurmd -D -N "${nodes[0]}" -f "$SLURM_CONF" >"$T/slurmd.stderr" 2>&1 &
    daemons+=($!)
}

# Host 0 is the head (slurmctld, clients), hosts 1..N the nodes.  Each
# slurmd gets its own TmpFS (a mount namespace binding $T/tmp-I over
# $T/tmp): Slurm's PMIx plugin names its directories there by job step
# only, so two nodes sharing one would collide.
namespace_nodes() {
    local n=$1 lines=""
    tag=sl$$
    for stale in $(ip netns list 2>/dev/null | awk '{print $1}' | sed -n 's/^sl\([0-9][0-9]*\)\(sw\|h[0-9]*\)$/\1/p' | sort -u); do
        kill -0 "$stale" 2>/dev/null || "$netns" down "sl$stale"   # left by a run that was killed
    done
    "$netns" up "$tag" "$n" >"$T/netns.log" 2>&1 || { cat "$T/netns.log"; return 1; }
    host_prefix 0
    head_cmd=("${host[@]}")
    for i in $(seq "$n"); do
        nodes+=("${tag}h$i")
        lines+="NodeName=${tag}h$i NodeAddr=$("$netns" addr "$i") CPUs=$(nproc) State=UNKNOWN"$'\n'
    done
    write_conf "${tag}h0" "$("$netns" addr 0)" "$lines"
    "${head_cmd[@]}" slurmctld -D -c -f "$SLURM_CONF" >"$T/slurmctld.stderr" 2>&1 &
    daemons+=($!)
    for i in $(seq "$n"); do
        mkdir -p "$T/spool/${tag}h$i" "$T/tmp-$i"
        host_prefix "$i"
        "${host[@]}" unshare --mount /bin/sh -c 'mount --bind "$0" "$1" && shift && exec "$@"' "$T/tmp-$i" "$T/tmp" \
            slurmd -D -N "${tag}h$i" -f "$SLURM_CONF" >"$T/slurmd-$i.stderr" 2>&1 &
        daemons+=($!)
    done
    export FI_TCP_IFACE=eth0   # libfabric: the namespace's own link, never loopback
}

cluster_up() {
    local n=$1
    if ! grep -q ' /sys/fs/cgroup[ /]' /proc/mounts; then
        echo "slurm_cluster: no cgroup file system at /sys/fs/cgroup, without which slurmd 22.05 does not start" \
             "(even with no cgroup plugin configured); skipped"
        exit 77
    fi
    start_munge || return 1
    if [ "$n" = 1 ]; then
        one_node
    else
        namespace_nodes "$n" || return 1
    fi
    wait_idle
}
