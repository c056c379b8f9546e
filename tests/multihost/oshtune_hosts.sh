#!/bin/bash
# Tuning rules across hosts (tools/oshtune --hosts, docs/TUNING.md):
#  1. a hand-written "net" rule decides the leaders' step of a collective
#     across hosts, and an "shm" rule in the same file does not;
#  2. oshtune --quick --hosts 2, started through run_mh.sh as its launcher,
#     writes net rules for the kinds asked, keeps the shm rules the file
#     already had, and its rules decide what runs across the hosts;
#  3. a second run replaces the net rules instead of adding to them.
# Which algorithm ran comes from PE 0's profile (SHOAL_PROFILE).
#   oshtune_hosts.sh BIN      BIN holds oshtune and oshtune_probe
here=$(cd "$(dirname "$0")" && pwd)
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "oshtune_hosts: $*"; fail=1; }

# ran RULES KIND ROUTINE BYTES: the algorithms PE 0's profile shows, 2 hosts x 1 PE
ran() {
    local prof
    prof=$(mktemp -d -p "$work")
    "$here/run_mh.sh" --hosts 2 --timeout 60 -- "$bin/oshtune_probe" "$2" --ms 1 --batches 1 \
        --env "SHOAL_TUNING_FILE=$1" --env "SHOAL_PROFILE=$prof" "$4" >"$prof/out" 2>&1
    local status=$?
    [ $status = 77 ] && exit 77
    if [ $status != 0 ]; then
        bad "the probe ($2, $4 bytes, rules $1) failed with status $status:"
        cat "$prof/out"
        return
    fi
    python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))
print(" ".join(sorted({c["algorithm"] for c in p["collectives"] if c["routine"] == sys.argv[2]})))' \
        "$prof/pe0.json" "$3"
}

# 1. net rules decide across hosts, shm rules do not.
printf 'reduce shm pes=2 flat\nreduce net pes=2 ring\nbcast net pes=2 scatter_allgather\n' >"$work/hand.rules"
got=$(ran "$work/hand.rules" reduce shmem_long_sum_reduce 8)
[ "$got" = ring ] || bad "reduce across 2 hosts under a net ring rule ran \"$got\""
got=$(ran "$work/hand.rules" bcast shmem_broadcastmem 8)
[ "$got" = scatter_allgather ] || bad "broadcast across 2 hosts under a net scatter_allgather rule ran \"$got\""

# 2. oshtune --hosts writes net rules beside the shm rules already there.
rules=$work/tuned.rules
printf '# from a run on one host\n\n# reduce at 2 PEs\nreduce shm pes=2 bytes=0- flat\n' >"$rules"
tune() {
    "$bin/oshtune" --quick --hosts 2 --kinds reduce,bcast --launcher "$here/run_mh.sh --hosts {np} --timeout 60 --" \
        --out "$rules" >"$work/tune.out" 2>&1 || { bad "oshtune --hosts failed:"; cat "$work/tune.out"; }
}
tune
grep -q '^# hosts (one PE each) 2,' "$rules" || bad "no hosts line in the header:$(echo; cat "$rules")"
for kind in reduce bcast; do
    grep -q "^$kind net pes=2 bytes=0-" "$rules" || bad "no net rule for $kind from 0 bytes:$(echo; cat "$rules")"
done
grep -q '^reduce shm pes=2 bytes=0- flat$' "$rules" || bad "the shm rule was not kept:$(echo; cat "$rules")"
want=$(awk '$1 == "reduce" && $2 == "net" && $4 ~ /^bytes=0-/ {print $5}' "$rules")
got=$(ran "$rules" reduce shmem_long_sum_reduce 8)
[ "$got" = "$want" ] || bad "reduce of 8 bytes across 2 hosts ran \"$got\", the tuned rule says \"$want\""

# 3. Again: one set of net rules, the shm rule once.
tune
n=$(grep -c '^reduce net pes=2 bytes=0-' "$rules")
[ "$n" = 1 ] || bad "after a second run $n net rules for reduce from 0 bytes:$(echo; cat "$rules")"
n=$(grep -c '^reduce shm ' "$rules")
[ "$n" = 1 ] || bad "after a second run $n shm rules:$(echo; cat "$rules")"
exit $fail
