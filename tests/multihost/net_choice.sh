#!/bin/bash
# The reduction the cost model picks across hosts (src/coll/select.c), seen
# in PE 0's profile: one PE on each of two hosts, flat (SHOAL_COLL_HIER=off,
# so the whole team is one network phase with the team's scratch).  A long
# vector must not go through the scratch-based recursive doubling, which
# moves it in pieces that fit the scratch, a round trip each (64 Ki longs:
# 1565 us against Rabenseifner's 202).
#   net_choice.sh BIN      BIN holds oshtune_probe
here=$(cd "$(dirname "$0")" && pwd)
bin=$1
fail=0
expect() {
    local bytes=$1 want=$2 prof
    prof=$(mktemp -d)
    "$here/run_mh.sh" --ppn 1,1 --map block --timeout 60 -x SHOAL_COLL_HIER=off -x "SHOAL_PROFILE=$prof" \
        -- "$bin/oshtune_probe" reduce --ms 1 --batches 1 "$bytes" >"$prof/out" 2>&1
    local status=$?
    if [ $status != 0 ]; then
        [ $status = 77 ] && exit 77
        echo "net_choice: the probe failed at $bytes bytes (status $status):"
        cat "$prof/out"
        rm -rf "$prof"
        fail=1
        return
    fi
    got=$(python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))
print(" ".join(sorted({c["algorithm"] for c in p["collectives"] if c["routine"] == "shmem_long_sum_reduce"})))' \
        "$prof/pe0.json")
    rm -rf "$prof"
    if [ "$got" != "$want" ]; then
        echo "net_choice: a $bytes-byte sum reduction across 2 hosts ran \"$got\", want $want"
        fail=1
    fi
}
expect 16 recdbl        # one message per step
expect 524288 rsag      # needs no scratch
exit $fail
