#!/bin/bash
# One host, no namespaces (no root needed): run a program under MPICH's
# hydra with SHOAL_BOOTSTRAP set, and check what the job did.
#   hydra_local.sh [--expect BOOT] [--status N --stderr REGEX] NP SHOAL_BOOTSTRAP PROGRAM [ARGS...]
# Without --status: the job must succeed and PE 0's banner must name BOOT
# (default: the SHOAL_BOOTSTRAP value).  With it: the job must end within 10
# seconds with that status and a line of its output must match REGEX.
# Exit 77 (ctest: skipped) when mpiexec.hydra is not installed.
set -u
expect= status= regex=
while [ $# -gt 0 ]; do
    case "$1" in
    --expect) expect=$2; shift 2 ;;
    --status) status=$2; shift 2 ;;
    --stderr) regex=$2; shift 2 ;;
    *) break ;;
    esac
done
np=$1 boot=$2
shift 2
expect=${expect:-$boot}
command -v mpiexec.hydra >/dev/null ||
    { echo "hydra_local.sh: MPICH's mpiexec.hydra is not installed (apt-get install mpich); skipped" >&2; exit 77; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$SECONDS
SHOAL_BOOTSTRAP=$boot SHMEM_VERSION=1 timeout -k 5 60 mpiexec.hydra -n "$np" "$@" >"$out" 2>&1
rc=$?
took=$((SECONDS - start))
cat "$out"
if [ -n "$status" ]; then
    [ "$rc" = "$status" ] || { echo "hydra_local.sh: exit status $rc, want $status" >&2; exit 1; }
    grep -Eq "$regex" "$out" || { echo "hydra_local.sh: no output line matches /$regex/" >&2; exit 1; }
    [ "$took" -le 10 ] || { echo "hydra_local.sh: the job took ${took}s to end" >&2; exit 1; }
    exit 0
fi
[ "$rc" = 0 ] || { echo "hydra_local.sh: exit status $rc" >&2; exit "$rc"; }
grep -q "bootstrap $expect\$" "$out" || { echo "hydra_local.sh: the PEs did not use bootstrap $expect" >&2; exit 1; }
