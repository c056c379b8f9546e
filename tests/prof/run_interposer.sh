#!/bin/sh
# run_interposer.sh OSHRUN PROGRAM NPES INTERPOSER: the program with the
# interposer LD_PRELOADed (and Shoal's own profile on too): every PE's
# interposer must have seen all 1234 puts and 7 barriers, and Shoal's
# profile the same 1234 puts.
set -e
oshrun=$1 prog=$2 np=$3 lib=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/shoal-interpose.XXXXXX")
trap 'rm -rf "$work"' EXIT
LD_PRELOAD=$lib "$oshrun" -np "$np" --profile "$work/prof" "$prog" > "$work/out"
cat "$work/out"
seen=$(grep -c "saw putmem 1234 barrier_all 7$" "$work/out")
[ "$seen" -eq "$np" ] || { echo "FAIL: $seen of $np PEs' interposer saw every call"; exit 1; }
for pe in $(seq 0 $((np - 1))); do
    grep -q '"put": {"count": 1234, "bytes": 9872}' "$work/prof/pe$pe.json" ||
        { echo "FAIL: Shoal's profile of PE $pe lost puts"; cat "$work/prof/pe$pe.json"; exit 1; }
done
echo "interposer and Shoal's profile both saw every call on $np PEs"
