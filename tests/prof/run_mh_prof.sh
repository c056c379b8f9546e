#!/bin/sh
# run_mh_prof.sh RUN_MH PPN MAP PROGRAM PYTHON: prof_known across network-
# namespace hosts (tests/multihost/run_mh.sh, Open MPI's mpirun), with the
# profile and the trace on and odd PEs' clocks 5 s ahead: counts exact,
# trace parts of every host joined, barriers aligned across hosts.
set -e
run_mh=$1 ppn=$2 map=$3 prog=$4 py=$5
here=$(dirname "$0")
np=$(echo "$ppn" | tr ',' '\n' | awk '{s += $1} END {print s}')
work=$(mktemp -d "${TMPDIR:-/tmp}/shoal-mhprof.XXXXXX")
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
status=0
"$run_mh" --ppn "$ppn" --map "$map" --timeout 60 -x SHOAL_PROFILE="$work/prof" -x SHOAL_TRACE="$work/trace.json" \
    -x SHOAL_TRACE_TEST_SKEW_US=5000000 -- "$prog" > "$work/out" || status=$?
cat "$work/out"
[ "$status" = 0 ] || exit "$status"
"$py" "$here/check_profile.py" "$work/out" "$work/prof" "$np"
"$py" - "$work/prof" "$np" <<'PY'
import json, sys
hosts = {json.load(open("%s/pe%d.json" % (sys.argv[1], pe)))["host"] for pe in range(int(sys.argv[2]))}
assert len(hosts) > 1, "the profile saw one host: %s" % hosts
print("profiles from %d hosts" % len(hosts))
PY
puts=$(sed -n 's/.*PUTS=\([0-9]*\).*/\1/p' "$work/out")
"$py" "$here/check_trace.py" "$work/trace.json" "$np" full "$puts"
