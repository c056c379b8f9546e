#!/bin/sh
# run_any.sh OSHRUN PROGRAM NPES PYTHON OSHPROF: any program (its own
# checks pass) with the profile and the trace on: the trace nests, the
# report renders.
set -e
oshrun=$1 prog=$2 np=$3 py=$4 oshprof=$5
here=$(dirname "$0")
work=$(mktemp -d "${TMPDIR:-/tmp}/shoal-any.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$oshrun" -np "$np" --profile "$work/prof" --trace "$work/trace.json" "$prog" > "$work/out"
"$py" "$here/check_trace.py" "$work/trace.json" "$np" any
"$py" "$oshprof" "$work/prof" -o "$work/report" | sed -n '/^Collectives/,/^$/p'
test -s "$work/report/report.html"
