#!/bin/bash
# Run a Shoal program across several "hosts" made of network namespaces on
# this machine (see netns.sh), through a real launcher, then tear it all down.
#
#   run_mh.sh [--ppn 2,2] [--map block|rr] [--launcher ompi|hydra|oshrun]
#             [--timeout SEC] [-x VAR=VALUE]... -- program [args...]
#
# --ppn gives the PEs of each host (2,2 = two hosts with two PEs each; uneven
# counts are fine).  block: PEs 0..k-1 on the first host, and so on; rr:
# round-robin over the hosts.  Exit status: the launcher's, 77 when the
# launcher is not installed (ctest: skipped), 1 when namespaces cannot be made.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ppn=2,2
map=block
launcher=ompi
tmo=120
envs=()
while [ $# -gt 0 ]; do
    case "$1" in
    --ppn) ppn=$2; shift 2 ;;
    --map) map=$2; shift 2 ;;
    --launcher) launcher=$2; shift 2 ;;
    --timeout) tmo=$2; shift 2 ;;
    -x) envs+=("$2"); shift 2 ;;
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
oshrun) ;;
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

tag=m$$
cleanup() { "$here/netns.sh" down "$tag"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
"$here/netns.sh" up "$tag" "$nhosts" || exit 1
agent=/tmp/$tag-agent

for kv in "${envs[@]}"; do export "${kv?}"; done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PMIX_MCA_gds=hash   # PMIx's shared-memory dstore cannot attach across our namespaces; hash works
export FI_TCP_IFACE=eth0   # libfabric: the namespace's own link, never loopback

case "$launcher" in
ompi)
    mapping=slot
    [ "$map" = rr ] && mapping=node
    cmd=(mpirun.openmpi --host "$hosts" -np "$np" --map-by "$mapping" --oversubscribe
         --mca plm_rsh_agent "$agent" --mca plm_rsh_no_tree_spawn 1 --mca oob_tcp_if_include eth0
         --mca btl self --mca pml ^ucx ${MH_MPIRUN_EXTRA:-} "$@")
    ;;
hydra)
    order=()
    [ "$map" = rr ] && order=(-ppn 1)
    cmd=(mpiexec.hydra -launcher rsh -launcher-exec "$agent" -iface eth0 -hosts "$hosts" -n "$np"
         "${order[@]}" "$@")
    ;;
oshrun)
    cmd=("$here/../../build/bin/oshrun" -np "$np" "$@")
    ;;
esac
# Open MPI 4.1's mpirun now and then stalls before it starts its daemons
# ("PENDING DAEMON LAUNCH", about one run in thirty on a loaded machine,
# with or without Shoal).  The agent leaves a mark when it is used; a run
# that has not used it after a while is stopped and started again.
run_once() {
    rm -f "$agent.used"
    timeout -k 5 "$tmo" ip netns exec "${tag}h0" "${cmd[@]}" &
    local pid=$! waited=0
    while kill -0 $pid 2>/dev/null; do
        if [ "$launcher" != oshrun ] && [ ! -e "$agent.used" ] && [ $waited -ge 100 ]; then
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
