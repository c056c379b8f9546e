#!/bin/bash
# What the cost model picks across hosts (src/coll/select.c), seen in PE
# 0's profile, one PE per host, flat (SHOAL_COLL_HIER=off, so the whole team
# is one network phase with the team's scratch).  A long vector must not go
# through the scratch-based recursive doubling, which moves it in pieces
# that fit the scratch, a round trip each (64 Ki longs: 1565 us against
# Rabenseifner's 202).  A small collect among up to 4 hosts is linear, in
# one round through the scratch (coll_internal.h, cc_scratch_room; 4 x 1
# hosts, fcollect 8 B: 163-203 us against recursive doubling's 252-287);
# among 8 it must not be, whose P-1 messages per member each cost CPU at
# both ends (fcollect 8 B at 8 hosts x 2 PEs: 1025-1107 us linear,
# 762-798 recursive doubling, with linear's entry round then).
#   net_choice.sh BIN      BIN holds oshtune_probe
here=$(cd "$(dirname "$0")" && pwd)
bin=$1
fail=0
#   expect PPN KIND ROUTINE BYTES WANT
expect() {
    local ppn=$1 kind=$2 routine=$3 bytes=$4 want=$5 prof
    prof=$(mktemp -d)
    "$here/run_mh.sh" --ppn "$ppn" --map block --timeout 60 -x SHOAL_COLL_HIER=off -x "SHOAL_PROFILE=$prof" \
        -- "$bin/oshtune_probe" "$kind" --ms 1 --batches 1 "$bytes" >"$prof/out" 2>&1
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
print(" ".join(sorted({c["algorithm"] for c in p["collectives"] if c["routine"] == sys.argv[2]})))' \
        "$prof/pe0.json" "$routine")
    rm -rf "$prof"
    if [ "$got" != "$want" ]; then
        echo "net_choice: $routine of $bytes bytes on hosts of $ppn PEs ran \"$got\", want $want"
        fail=1
    fi
}
expect 1,1 reduce shmem_long_sum_reduce 16 recdbl        # one message per step
expect 1,1 reduce shmem_long_sum_reduce 524288 rsag      # needs no scratch
expect 1,1,1,1 fcollect shmem_fcollectmem 8 linear       # one round through the scratch
expect 1,1,1,1,1,1,1,1 fcollect shmem_fcollectmem 8 recdbl   # log2 P messages per member, not P-1
exit $fail
