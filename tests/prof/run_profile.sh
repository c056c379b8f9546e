#!/bin/sh
# run_profile.sh OSHRUN PROGRAM NPES PYTHON: runs PROGRAM under --profile and
# checks every count (check_profile.py); the work directory is the test's own.
set -e
oshrun=$1 prog=$2 np=$3 py=$4
here=$(dirname "$0")
work=$(mktemp -d "${TMPDIR:-/tmp}/shoal-prof.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$oshrun" -np "$np" --profile "$work/prof" "$prog" > "$work/out"
cat "$work/out"
"$py" "$here/check_profile.py" "$work/out" "$work/prof" "$np"
