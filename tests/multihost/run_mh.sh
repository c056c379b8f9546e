#!/bin/bash
# Run a Shoal program across several "hosts" made of network namespaces on
# this machine (see netns.sh), through a real launcher, then tear it all down.
#
#   run_mh.sh [--ppn 2,2 | --hosts N] [--map block|rr] [--launcher ompi|hydra|oshrun|ompi-oshmem]
#             [--timeout SEC] [-x VAR=VALUE]... [--unreachable-host I] [--own-cores]
#             [--tcp-cc cubic|bbr|reno]
#             -- program [args...]
#
# --ppn gives the PEs of each host (2,2 = two hosts with two PEs each; uneven
# counts are fine); --hosts N is N hosts of one PE each.  block: PEs 0..k-1
# on the first host, and so on; rr: round-robin over the hosts.  Exit status: the launcher's, 77 when the
# launcher is not installed (ctest: skipped), 1 when namespaces cannot be made.
# --unreachable-host I (1-based) makes host I's PEs publish an address on a
# link of their own that no other host can route to (failure tests).
# --own-cores gives each host cores of its own (the CPUs this script may use
# split evenly; when there are more hosts than CPUs, host i gets CPU i mod the
# CPUs, so a host's PEs never straddle CPUs and where each PE runs is the same
# from run to run): real hosts never share a core, and here a waiting PE's
# yield does not hand its core to another host's PE (each host's processes
# are a session of their own, a scheduling group of their own, and a yield
# only lets another task of the same group run: 2 hosts x 2 PEs round-robin,
# put + quiet p99/median 14-48 in 4 of 5 runs sharing the cores, 2-3.6 in
# most runs without the groups).
# --tcp-cc sets the hosts' TCP congestion control (netns.sh; default cubic).
# MH_MPI_BTL: Open MPI's transports (default self: a Shoal program sends no
# MPI messages; an MPI + OpenSHMEM program needs self,vader,tcp).
set -u
here=$(cd "$(dirname "$0")" && pwd)
ppn=2,2
map=block
launcher=ompi
tmo=120
envs=()
unreachable=
own_cores=0
while [ $# -gt 0 ]; do
    case "$1" in
    --ppn) ppn=$2; shift 2 ;;
    --hosts) ppn=$(yes 1 | head -n "$2" | paste -sd,); shift 2 ;;
    --map) map=$2; shift 2 ;;
    --launcher) launcher=$2; shift 2 ;;
    --timeout) tmo=$2; shift 2 ;;
    -x) envs+=("$2"); shift 2 ;;
    --unreachable-host) unreachable=$2; shift 2 ;;
    --own-cores) own_cores=1; shift ;;
    --tcp-cc) export NETNS_TCP_CC=$2; shift 2 ;;
    --) shift; break ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: run_mh.sh [--ppn 2,2] [--map block|rr] [--launcher ompi|hydra|oshrun] -- prog" >&2; exit 2; }

if [ "$(id -u)" != 0 ]; then
    echo "run_mh.sh: the multi-host tests need root (CAP_SYS_ADMIN) to create network namespaces; run ctest as root" >&2
    exit 1
fi
case "$launcher" in
ompi) command -v mpirun.openmpi >/dev/null || { echo "run_mh.sh: Open MPI's mpirun.openmpi is not installed (apt-get install openmpi-bin); skipped" >&2; exit 77; } ;;
hydra) command -v mpiexec.hydra >/dev/null || { echo "run_mh.sh: MPICH's mpiexec.hydra is not installed (apt-get install mpich); skipped" >&2; exit 77; } ;;
oshrun) command -v mpirun.openmpi >/dev/null || { echo "run_mh.sh: oshrun hands over to Open MPI's mpirun here, which is not installed; skipped" >&2; exit 77; } ;;
ompi-oshmem) command -v mpirun.openmpi >/dev/null || { echo "run_mh.sh: Open MPI is not installed; skipped" >&2; exit 77; } ;;
*) echo "run_mh.sh: unknown launcher $launcher" >&2; exit 2 ;;
esac

IFS=, read -r -a counts <<<"$ppn"
nhosts=${#counts[@]}
np=0
hosts=""
for i in "${!counts[@]}"; do
    np=$((np + counts[i]))
    hosts+="${hosts:+,}$("$here/netns.sh" addr $((i + 1))):${counts[i]}"
done

# Namespaces of earlier runs that were killed before they could clean up
# (tag m<pid> with that run_mh.sh gone) are removed first.
for stale in $(ip netns list 2>/dev/null | awk '{print $1}' | sed -n 's/^m\([0-9][0-9]*\)\(sw\|h[0-9]*\)$/\1/p' | sort -u); do
    kill -0 "$stale" 2>/dev/null || "$here/netns.sh" down "m$stale"
done

tag=m$$
cleanup() { "$here/netns.sh" down "$tag"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
"$here/netns.sh" up "$tag" "$nhosts" || exit 1
agent=/tmp/$tag-agent
if [ -n "$unreachable" ]; then
    ns=${tag}h$unreachable
    # A veth pair whose both ends stay in that host: a link to nowhere.
    ip -n "$ns" link add lone0 type veth peer name lone1 && ip -n "$ns" addr add 10.78.0.1/24 dev lone0 &&
        ip -n "$ns" link set lone1 up && ip -n "$ns" link set lone0 up ||
        { echo "run_mh.sh: cannot add a link to $ns" >&2; exit 1; }
    echo "FI_TCP_IFACE=lone0" >"/tmp/$tag-env.$ns"
fi

# The CPUs this script may use (a container or batch job may allow other
# than 0..n-1), split in consecutive shares, one per host.
allowed=($(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))'))
cores=${#allowed[@]}
if [ $own_cores = 1 ] && [ "$nhosts" -le "$cores" ]; then
    per=$((cores / nhosts))
    for i in $(seq 1 "$nhosts"); do
        share=("${allowed[@]:$(((i - 1) * per)):$per}")
        (IFS=,; echo "${share[*]}") >"/tmp/$tag-cpus.${tag}h$i"
    done
elif [ $own_cores = 1 ]; then
    for i in $(seq 1 "$nhosts"); do
        echo "${allowed[$(((i - 1) % cores))]}" >"/tmp/$tag-cpus.${tag}h$i"
    done
fi

for kv in "${envs[@]}"; do export "${kv?}"; done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export FI_TCP_IFACE=eth0   # libfabric: the namespace's own link, never loopback
# The "hosts" share this machine's cores, which each host's PEs cannot see:
# when the whole job oversubscribes them, wait as oversubscribed PEs do.
[ "$np" -gt "$(nproc)" ] && export SHOAL_WAIT_SPIN=${SHOAL_WAIT_SPIN:-50}

case "$launcher" in
ompi)
    mapping=slot
    [ "$map" = rr ] && mapping=node
    cmd=(mpirun.openmpi --host "$hosts" -np "$np" --map-by "$mapping" --oversubscribe
         --mca plm_rsh_agent "$agent" --mca plm_rsh_no_tree_spawn 1 --mca oob_tcp_if_include eth0
         --bind-to none --mca btl "${MH_MPI_BTL:-self}" --mca pml ^ucx ${MH_MPIRUN_EXTRA:-} "$@")
    ;;
ompi-oshmem)
    # Open MPI's own OpenSHMEM (the benchmark's peer, bench/multihost): its
    # spml ucx limited to tcp on the namespace link (with sm, UCX would use
    # shared memory across the namespaces), its MPI layer (collectives) on
    # ob1 over tcp; it must yield when PEs outnumber the cores.
    export UCX_TLS=tcp,self UCX_NET_DEVICES=eth0
    mapping=slot
    [ "$map" = rr ] && mapping=node
    yield=()
    [ "$np" -gt "$(nproc)" ] && yield=(--mca mpi_yield_when_idle 1)
    cmd=(mpirun.openmpi --host "$hosts" -np "$np" --map-by "$mapping" --oversubscribe
         --mca plm_rsh_agent "$agent" --mca plm_rsh_no_tree_spawn 1 --mca oob_tcp_if_include eth0
         --bind-to none --mca spml ucx --mca pml ob1 --mca btl tcp,vader,self --mca btl_tcp_if_include eth0
         "${yield[@]}" "$@")
    ;;
hydra)
    order=()
    [ "$map" = rr ] && order=(-ppn 1)
    cmd=(mpiexec.hydra -launcher rsh -launcher-exec "$agent" -iface eth0 -hosts "$hosts" -n "$np"
         "${order[@]}" "$@")
    ;;
oshrun)
    # oshrun hands a host list to the installed launcher (Open MPI here),
    # which takes its settings from the environment.
    oshrun=${SHOAL_OSHRUN:-$(dirname "$1")/../../bin/oshrun}
    export OMPI_MCA_plm_rsh_agent=$agent OMPI_MCA_plm_rsh_no_tree_spawn=1 OMPI_MCA_oob_tcp_if_include=eth0
    export OMPI_MCA_btl=self OMPI_MCA_pml=^ucx OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none
    mapping=slot
    [ "$map" = rr ] && mapping=node
    cmd=("$oshrun" --host "$hosts" -np "$np" --map-by "$mapping" "$@")
    ;;
esac
# Open MPI 4.1's mpirun now and then stalls before it starts its daemons
# ("PENDING DAEMON LAUNCH", about one run in thirty on a loaded machine,
# with or without Shoal).  The agent leaves a mark when it is used; a run
# that has not used it after a while is stopped and started again.
deadline=$((SECONDS + tmo))
run_once() {
    rm -f "$agent.used"
    local left=$((deadline - SECONDS))
    [ $left -lt 5 ] && left=5
    timeout -k 5 "$left" ip netns exec "${tag}h0" unshare --uts /bin/sh -c 'hostname "$0" && exec "$@"' \
        "${tag}h0" "${cmd[@]}" &
    local pid=$! waited=0
    while kill -0 $pid 2>/dev/null; do
        if [ ! -e "$agent.used" ] && [ $waited -ge 100 ]; then
            echo "run_mh.sh: $launcher did not start its daemons within 10 s; starting it again" >&2
            kill -TERM $pid 2>/dev/null
            wait $pid 2>/dev/null
            stalled=1
            return 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    wait $pid
}

for attempt in 1 2 3; do
    stalled=0
    run_once
    rc=$?
    [ $stalled = 1 ] || break
done
[ $rc = 124 ] && echo "run_mh.sh: timed out after ${tmo}s: ${cmd[*]}" >&2
exit $rc
