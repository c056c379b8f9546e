#!/bin/sh
# Latency vs size of every collective under every algorithm, at several PE
# counts, as JSON lines on stdout (bench/coll/coll_algs.c).  Also the
# 004 §5.2 comparison: reductions with put/get (SHOAL_COLL_NO_LOADSTORE=1,
# "alg" gets a "+putget" suffix) against load/store.
# Usage: bench/coll/run.sh BUILD_DIR [PES...]      (default PEs: 2 4 8)
set -e
build=${1:?usage: run.sh BUILD_DIR [PES...]}
shift
pes=${*:-2 4 8}
bin=$(mktemp -d)/coll_algs
"$build/bin/oshcc" -O2 "$(dirname "$0")/coll_algs.c" -o "$bin"
run() { # kind env-var alg npes [extra env]
    env "$2=$3" $5 "$build/bin/oshrun" -np "$4" "$bin" "$1" ${MAX_BYTES:-524288}
}
for np in $pes; do
    for a in auto shm dissem tree; do run barrier SHMEM_BARRIER_ALGORITHM $a $np; done
    for a in auto linear binomial scatter_allgather; do run bcast SHMEM_BCAST_ALGORITHM $a $np; done
    for a in auto flat recdbl ring bruck rsag; do
        run reduce SHMEM_REDUCE_ALGORITHM $a $np
        run reduce SHMEM_REDUCE_ALGORITHM $a $np SHOAL_COLL_NO_LOADSTORE=1 | sed 's/"alg":"\([a-z]*\)"/"alg":"\1+putget"/'
    done
    for a in auto linear ring recdbl bruck; do
        run collect SHMEM_COLLECT_ALGORITHM $a $np
        run fcollect SHMEM_FCOLLECT_ALGORITHM $a $np
    done
    run alltoall SHMEM_ALLTOALL_ALGORITHM pairwise $np
done
rm -rf "$(dirname "$bin")"
