#!/bin/bash
# MPI and OpenSHMEM in one program under an MPI launcher: both init orders,
# both finalize orders, at several PE counts (odd, and oversubscribed), and
# the bootstrap Shoal chose under it.
#   interop.sh openmpi|mpich PROGRAM
# PROGRAM is tests/interop/mpi_shmem.c built with that MPI's mpicc and oshcc.
# Exit 77 (ctest: skipped) when that MPI is not installed.
set -u
flavor=$1 prog=$2
case "$flavor" in
openmpi)
    launcher=mpirun.openmpi boot=pmix
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    run=(mpirun.openmpi --oversubscribe --bind-to none --mca btl self,vader --mca pml ^ucx -np) ;;
mpich)
    launcher=mpiexec.hydra boot=pmi1
    run=(mpiexec.hydra -n) ;;
*) echo "interop.sh: unknown MPI $flavor" >&2; exit 2 ;;
esac
command -v "$launcher" >/dev/null && [ -x "$prog" ] ||
    { echo "interop.sh: $flavor is not installed (or $prog was not built); skipped" >&2; exit 77; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# One run; its output must say every PE passed, and which bootstrap served.
check() {
    local np=$1 init=$2 fini=$3 rc
    SHMEM_VERSION=1 timeout -k 5 120 "${run[@]}" "$np" "$prog" "$init" "$fini" >"$out" 2>&1
    rc=$?
    if [ $rc = 0 ] && grep -q "^interop: ok: $np PEs, $init initialized first, $fini finalizes first$" "$out" &&
       grep -q "bootstrap $boot\$" "$out"; then
        echo "ok: $flavor, $np PEs, $init init first, $fini finalize first"
        return 0
    fi
    cat "$out"
    echo "FAIL: $flavor, $np PEs, $init init first, $fini finalize first (status $rc)"
    return 1
}

status=0
for np in 1 3 4; do
    for init in mpi shmem; do
        for fini in mpi shmem; do
            check "$np" "$init" "$fini" || status=1
        done
    done
done
check 8 shmem mpi || status=1   # oversubscribed: 8 PEs on this machine's cores
exit $status
