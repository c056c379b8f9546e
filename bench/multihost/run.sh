#!/bin/bash
# Inter-host benchmarks on "hosts" made of network namespaces (tests/
# multihost/run_mh.sh; needs root), as JSON lines:
#   mh_p2p            put/get latency and bandwidth, AMO latency, ping-pong
#                     between two hosts (1 PE each)
#   osu_reduce_teams  the OSU float sum reduce of 000 section V-B across 2, 3
#                     and 4 hosts of 2 PEs: Algorithm 1 (active set) and
#                     Algorithm 2 (SHARED team, then leaders), each with
#                     Shoal's choice (auto: host-then-leaders when a team
#                     spans hosts) and with SOS-style flat algorithms forced
#                     through SHMEM_REDUCE_ALGORITHM (recdbl, ring)
#   collectives       barrier, 8-byte broadcast and 8-byte fcollect on WORLD
#                     across 2, 3 and 4 hosts of 2 PEs: hierarchical (host,
#                     leaders, host: the default when a team spans hosts)
#                     and flat (SHOAL_COLL_HIER=off: one algorithm over all
#                     PEs, every step a network operation)
# Every line gets "layout" (PEs per host), "hosts" and "env" fields.
# Shoal against Open MPI's OpenSHMEM on the same hosts: --only peer runs
# peer.sh (its own options follow: --report FILE.md, --rounds, --shapes).
#
#   bench/multihost/run.sh [--build DIR] [--out FILE] [--full] [--hosts "2 3 4"] [--only reduce|coll|peer]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build
out=/dev/stdout
mode=--quick
hosts_list="2 3 4"
only=
while [ $# -gt 0 ]; do
    case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --full) mode=--full; shift ;;
    --quick) mode=--quick; shift ;;
    --hosts) hosts_list=$2; shift 2 ;;
    --only) only=$2; shift 2
        [ "$only" = peer ] && exec "$here/peer.sh" --build "$build" "$@" ;;
    *) echo "usage: run.sh [--build DIR] [--out FILE] [--full] [--hosts \"2 3 4\"] [--only reduce|coll|peer]" >&2; exit 2 ;;
    esac
done
oshcc=$build/bin/oshcc
[ -x "$oshcc" ] || { echo "run.sh: no $oshcc; build Shoal first (cmake --build build)" >&2; exit 1; }
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
"$oshcc" -O2 -I"$root/bench/common" -o "$bin/mh_p2p" "$here/mh_p2p.c" || exit 1
"$oshcc" -O2 -I"$root/bench/common" -o "$bin/osu_reduce_teams" "$root/bench/programs/osu_reduce_teams.c" || exit 1
"$oshcc" -O2 -I"$root/bench/common" -o "$bin/collectives" "$root/bench/programs/collectives.c" || exit 1

# run LAYOUT ENV PROGRAM ARGS...: one job, its JSON lines tagged.
run() {
    local layout=$1 env=$2
    shift 2
    local nh
    nh=$(awk -F, '{print NF}' <<<"$layout")
    local xs=()
    [ -n "$env" ] && xs=(-x "$env")
    "$root/tests/multihost/run_mh.sh" --ppn "$layout" --timeout 600 "${xs[@]}" -- "$@" 2>/dev/null |
        grep '^{' | sed "s/}\$/,\"layout\":\"$layout\",\"hosts\":$nh,\"env\":\"$env\"}/"
    echo "run.sh: $layout ${env:-default}: $(basename "$1") done" >&2
}

{
    [ -z "$only" ] && run 1,1 "" "$bin/mh_p2p" $mode
    for h in $hosts_list; do
        layout=$(printf '2%.0s,' $(seq 1 "$h"))
        layout=${layout%,}
        if [ -z "$only" ] || [ "$only" = reduce ]; then
            for algo in auto recdbl ring; do
                run "$layout" "SHMEM_REDUCE_ALGORITHM=$algo" "$bin/osu_reduce_teams" $mode
            done
        fi
        if [ -z "$only" ] || [ "$only" = coll ]; then
            # Half a second per figure: a few calls are noise when the
            # hosts' PEs outnumber the cores.
            for env in SHOAL_COLL_HIER=on SHOAL_COLL_HIER=off; do
                run "$layout" "$env" "$bin/collectives" $mode --budget-ms=500 --op=barrier
                run "$layout" "$env" "$bin/collectives" $mode --budget-ms=500 --op=broadcast --max-size=8
                run "$layout" "$env" "$bin/collectives" $mode --budget-ms=500 --op=fcollect --max-size=8
            done
        fi
    done
} >"$out"
