#!/bin/sh
# Seed paper 002, Table 1 on this machine: the dynamic sparse data exchange
# with Shoal's split barrier (puts, AMOs), a blocking barrier, and the MPI
# control (MPI_Ibarrier, Debian's Open MPI).  Prints the programs' JSON lines.
#
#   bench/split/run.sh [--pes "2 4 8"] [--iters N] [--verify] [--reps R] [--build DIR]
#
# Shoal must be built (cmake --build build); the MPI control is skipped with
# a JSON skip line when mpicc is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build
pes="2 4 8"
iters=1000
reps=1
mode=""
while [ $# -gt 0 ]; do
    case $1 in
    --pes) pes=$2; shift ;;
    --iters) iters=$2; shift ;;
    --reps) reps=$2; shift ;;
    --verify) mode=--verify; iters=20 ;;
    --build) build=$2; shift ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
out=$build/bench/split
mkdir -p "$out"
"$build/bin/oshcc" -O2 -o "$out/sparse_exchange" "$here/sparse_exchange.c" -lm
have_mpi=0
if command -v mpicc >/dev/null 2>&1; then
    mpicc -O2 -o "$out/sparse_exchange_mpi" "$here/sparse_exchange_mpi.c" -lm && have_mpi=1
fi

# Open MPI refuses root unless told; --oversubscribe lets 8 ranks share 2 cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Binding as Open MPI does by default: ranks pinned to cores while there are
# enough cores, none when oversubscribed; Shoal's PEs get the same (--bind).
cores=$(nproc)
status=0
for np in $pes; do
    if [ "$np" -le "$cores" ]; then
        shoal_bind=--bind mpi_bind=core
    else
        shoal_bind="" mpi_bind=none
    fi
    r=0
    while [ "$r" -lt "$reps" ]; do
        for algo in put amo; do
            SHOAL_SPLIT_BARRIER=$algo "$build/bin/oshrun" -np "$np" "$out/sparse_exchange" --variant split \
                --iters "$iters" $mode $shoal_bind || status=1
        done
        "$build/bin/oshrun" -np "$np" "$out/sparse_exchange" --variant split --iters "$iters" $mode $shoal_bind \
            || status=1
        "$build/bin/oshrun" -np "$np" "$out/sparse_exchange" --variant blocking --iters "$iters" $mode $shoal_bind \
            || status=1
        if [ $have_mpi = 1 ]; then
            for v in ibarrier blocking; do
                SPARSE_EXCHANGE_BIND=$mpi_bind mpirun --oversubscribe --bind-to $mpi_bind -np "$np" \
                    -x SPARSE_EXCHANGE_BIND "$out/sparse_exchange_mpi" --variant $v --iters "$iters" $mode || status=1
            done
        else
            echo "{\"bench\":\"sparse_exchange\",\"op\":\"sparse_exchange\",\"skip\":\"mpicc not found\",\"pes\":$np}"
        fi
        r=$((r + 1))
    done
done
exit $status
