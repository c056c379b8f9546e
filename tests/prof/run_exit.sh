#!/bin/sh
# run_exit.sh OSHRUN PROGRAM NPES PYTHON OSHPROF MODE: prof_exit under
# --profile/--trace, then checks which PEs wrote their profile, with the
# exact put count (250 to the right neighbour).  MODE global also joins the
# trace part PE 0 left with oshprof --merge-trace.
set -e
oshrun=$1 prog=$2 np=$3 py=$4 oshprof=$5 mode=$6
work=$(mktemp -d "${TMPDIR:-/tmp}/shoal-exit.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
"$oshrun" -np "$np" --profile "$work/prof" --trace "$work/trace.json" "$prog" "$mode" || status=$?
echo "oshrun exit status $status"
ls "$work" "$work/prof"
"$py" - "$work" "$np" "$mode" <<'PY'
import json, os, sys
work, n, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
writers = [0] if mode == "global" else list(range(n))
when = "shmem_global_exit" if mode == "global" else "shmem_finalize"
for pe in writers:
    p = json.load(open("%s/prof/pe%d.json" % (work, pe)))
    put = [t for t in p["targets"] if t["pe"] == (pe + 1) % n]
    assert p["written_at"] == when, (pe, p["written_at"])
    assert put and put[0]["put"] == {"count": 250, "bytes": 2000}, (pe, p["targets"])
print("profiles of PEs %s written at %s, counts exact" % (writers, when))
PY
if [ "$mode" = global ]; then
    "$py" "$oshprof" --merge-trace "$work/trace.json"
    "$py" -c "import json,sys; e=json.load(open(sys.argv[1]))['traceEvents']; \
n=sum(1 for x in e if x.get('name')=='shmem_long_p'); assert n==250, n; print('merged trace: 250 puts of PE 0')" \
        "$work/trace.json"
fi
