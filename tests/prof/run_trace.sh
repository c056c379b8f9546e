#!/bin/sh
# run_trace.sh OSHRUN PROGRAM NPES PYTHON MODE: PROGRAM under --trace, odd
# PEs' clocks 5 s ahead (SHOAL_TRACE_TEST_SKEW_US), then check_trace.py.
# MODE "dropped": a 64-event ring, so the trace must say what it dropped.
set -e
oshrun=$1 prog=$2 np=$3 py=$4 mode=$5
here=$(dirname "$0")
work=$(mktemp -d "${TMPDIR:-/tmp}/shoal-trace.XXXXXX")
trap 'rm -rf "$work"' EXIT
export SHOAL_TRACE_TEST_SKEW_US=5000000
[ "$mode" = dropped ] && export SHOAL_TRACE_EVENTS=64
"$oshrun" -np "$np" --trace "$work/trace.json" "$prog" > "$work/out"
puts=$(sed -n 's/.*PUTS=\([0-9]*\).*/\1/p' "$work/out")
ls "$work"
"$py" "$here/check_trace.py" "$work/trace.json" "$np" "$mode" "$puts"
