#!/bin/bash
# Shoal against its peer, Open MPI 4.1's OpenSHMEM, on the same network-
# namespace hosts (issue 11): mh_peer.c built with each library's oshcc,
# the two run alternately shape by shape, round by round, plus the link's
# own one-way time (mh_link.c, plain TCP) and libfabric's floor on it
# (mh_fabric.c: bare message, read, fetch-add and write, no OpenSHMEM).  JSON
# lines with "lib", "shape" and "round" fields go to --out; peer_report.py turns them into the table
# of docs/PERFORMANCE.md ("Across hosts"), medians over rounds and
# Shoal/Open MPI ratios.
#
#   bench/multihost/peer.sh [--build DIR] [--out FILE] [--report FILE.md]
#       [--rounds 3] [--iters 200] [--shapes "1,1:block 2,2:rr 4,4:block 2,2,2,2:block 2,2,2,2,2,2,2,2:block 8,8:block"]
#       [--tuning FILE] [--tcp-cc cubic|bbr]
# A shape PPN:MAP:own gives each host cores of its own (run_mh.sh
# --own-cores), as real hosts have: "1,1:block:own 2,2:rr:own"; with more
# hosts than cores, one CPU per host, round-robin ("2,2,2,2:block:own"), so
# every run of both libraries has the same placement.
# --tcp-cc: the hosts' TCP congestion control (default cubic: see netns.sh
# for why not the machine's own, which may be bbr).
# --tuning FILE also runs Shoal under SHOAL_TUNING_FILE=FILE (lib "shoal-tuned",
# alternating with the others), e.g. the net rules of oshtune --hosts.
# Needs root (namespaces) and Open MPI with oshmem (apt-get install
# openmpi-bin libopenmpi-dev); without the latter it measures Shoal alone.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build
out=/dev/stdout
report=
rounds=3
iters=200
shapes="1,1:block 2,2:rr 4,4:block 2,2,2,2:block 2,2,2,2,2,2,2,2:block 8,8:block"
tuning=
export NETNS_TCP_CC=${NETNS_TCP_CC:-cubic}   # netns.sh's default, named in the report
while [ $# -gt 0 ]; do
    case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --report) report=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    --shapes) shapes=$2; shift 2 ;;
    --tuning) tuning=$(realpath "$2"); shift 2 ;;
    --tcp-cc) NETNS_TCP_CC=$2; shift 2 ;;
    *) sed -n '2,22p' "$0" >&2; exit 2 ;;
    esac
done
[ -x "$build/bin/oshcc" ] || { echo "peer.sh: no $build/bin/oshcc; build Shoal first" >&2; exit 1; }
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
"$build/bin/oshcc" -O2 -o "$bin/shoal" "$here/mh_peer.c" || exit 1
libs="shoal"
if [ -n "$tuning" ]; then
    [ -r "$tuning" ] || { echo "peer.sh: --tuning $tuning cannot be read" >&2; exit 1; }
    libs="shoal shoal-tuned"
fi
if command -v oshcc >/dev/null && oshcc --showme >/dev/null 2>&1 && oshcc -O2 -o "$bin/openmpi" "$here/mh_peer.c"; then
    libs="$libs openmpi"
else
    echo "peer.sh: Open MPI's oshcc is missing or cannot build mh_peer.c: Shoal alone" >&2
fi
cc -O2 -o "$bin/link" "$here/mh_link.c" || exit 1
"$build/bin/oshcc" -O2 -o "$bin/fabric" "$here/mh_fabric.c" -lfabric 2>/dev/null ||
    echo "peer.sh: mh_fabric.c does not build (no libfabric-dev?): no libfabric floor" >&2
rawf=$bin/raw.jsonl
: >"$rawf"

# one LIB SHAPE ROUND: one job, its lines tagged.
one() {
    local lib=$1 shape=$2 r=$3 launcher=ompi own=() prog=$1 env=()
    [ "$lib" = openmpi ] && launcher=ompi-oshmem
    [ "$lib" = shoal-tuned ] && prog=shoal env=(-x "SHOAL_TUNING_FILE=$tuning")
    local ppn map
    IFS=: read -r ppn map extra <<<"$shape"
    [ "${extra:-}" = own ] && own=(--own-cores)
    "$root/tests/multihost/run_mh.sh" --launcher $launcher --ppn "$ppn" --map "$map" "${own[@]}" "${env[@]}" \
        --timeout 600 -- "$bin/$prog" "$iters" 2>"$bin/err" | grep '^{' |
        sed "s/}\$/,\"lib\":\"$lib\",\"shape\":\"$shape\",\"round\":$r}/" | tee -a "$rawf"
    grep -m3 'wrong result\|error' "$bin/err" >&2
    echo "peer.sh: $lib $shape round $r done" >&2
}

load() { echo "{\"op\":\"load $1\",\"value\":$(cut -d' ' -f1 /proc/loadavg),\"unit\":\"1-min load average\",\"lib\":\"machine\",\"shape\":\"-\",\"round\":0}" | tee -a "$rawf"; }
{
    load before
    echo "{\"op\":\"tcp congestion control\",\"value\":0,\"unit\":\"$NETNS_TCP_CC\",\"lib\":\"machine\",\"shape\":\"-\",\"round\":0}" | tee -a "$rawf"
    for r in $(seq 1 "$rounds"); do
        # The floors in the placement of real hosts (and of the :own shapes): a core each.
        "$root/tests/multihost/run_mh.sh" --ppn 1,1 --own-cores --timeout 60 -- "$bin/link" "$("$root/tests/multihost/netns.sh" addr 1)" \
            2>/dev/null | grep '^{' | sed "s/}\$/,\"lib\":\"link\",\"shape\":\"1,1:block\",\"round\":$r}/" | tee -a "$rawf"
        [ -x "$bin/fabric" ] && "$root/tests/multihost/run_mh.sh" --ppn 1,1 --own-cores --timeout 60 -- "$bin/fabric" 2000 \
            2>/dev/null | grep '^{' | sed "s/}\$/,\"lib\":\"link\",\"shape\":\"1,1:block\",\"round\":$r}/" | tee -a "$rawf"
        for shape in $shapes; do
            # Alternate which library goes first, round by round.
            order=$libs
            [ $((r % 2)) = 0 ] && order=$(echo $libs | tr ' ' '\n' | tac | tr '\n' ' ')
            for lib in $order; do
                one "$lib" "$shape" "$r"
            done
        done
    done
    load after
} >"$out"
if [ -n "$report" ]; then
    python3 "$here/peer_report.py" "$rawf" >"$report" && echo "peer.sh: report in $report" >&2
fi
