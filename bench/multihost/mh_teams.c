/* mh_teams - the team forms (OpenSHMEM 1.5+) of the small collectives
 * across hosts, timed as mh_peer.c times the 1.4 active-set forms: every
 * call alone after an untimed shmem_barrier_all, per call the maximum over
 * PEs, the figure the median of those maxima.  On SHMEM_TEAM_WORLD: sync,
 * sum-reduce 1 long, broadcast 8 B (root 0), fcollect 8 B, collect (8 B
 * from even PEs, 16 from odd ones), alltoall 8 B.  Each result is checked.
 * Open MPI 4.1's OpenSHMEM has no teams; Sandia OpenSHMEM does.
 * Output, one line per figure:  {"op":"team ...","value":X,"unit":"us"}
 *
 *   mh_teams [ITERS]   (default 200) */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#include "mh_clock.h"

enum { MAX_ITERS = 4000, MAX_PES = 1024 };

static double times[MAX_ITERS], worst[MAX_ITERS];
static double pwrk[MAX_ITERS / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long src[2], dst[2 * MAX_PES], one_each[MAX_PES], all_each[MAX_PES];
static int me, npes, failures;

static void check(int ok, const char *what, int i)
{
    if (!ok && failures++ < 5)
        fprintf(stderr, "mh_teams: PE %d: wrong result: %s (call %d)\n", me, what, i);
}

/* Max over PEs of times[0..n), then its median (printed by PE 0). */
static void emit(const char *op, int n)
{
    shmem_barrier_all();
    shmem_double_max_to_all(worst, times, n, 0, 0, npes, pwrk, psync);
    shmem_barrier_all();
    if (me == 0)
        printf("{\"op\":\"%s\",\"value\":%.3f,\"unit\":\"us\"}\n", op, median(worst, (size_t)n));
}

static long expected_collect_at(int pe, int k)
{
    return pe * 100 + k;
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 200;
    iters = iters < 1 ? 1 : iters > MAX_ITERS ? MAX_ITERS : iters;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > MAX_PES) {
        if (me == 0)
            fprintf(stderr, "mh_teams: at most %d PEs\n", MAX_PES);
        shmem_global_exit(2);
    }
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_team_t w = SHMEM_TEAM_WORLD;

    for (int i = 0; i < iters; i++)
        MH_TIMED(shmem_team_sync(w));
    emit("team sync", iters);

    for (int i = 0; i < iters; i++) {
        src[0] = me + i;
        MH_TIMED(shmem_long_sum_reduce(w, dst, src, 1));
        check(dst[0] == (long)npes * (npes - 1) / 2 + (long)npes * i, "sum-reduce", i);
    }
    emit("team sum-reduce 1 long", iters);

    for (int i = 0; i < iters; i++) {
        src[0] = me == 0 ? 1000 + i : -1;
        MH_TIMED(shmem_long_broadcast(w, dst, src, 1, 0));
        check(dst[0] == 1000 + i, "broadcast", i);
    }
    emit("team broadcast 8 B", iters);

    for (int i = 0; i < iters; i++) {
        src[0] = me * 7 + i;
        MH_TIMED(shmem_long_fcollect(w, dst, src, 1));
        for (int j = 0; j < npes; j++)
            check(dst[j] == j * 7 + i, "fcollect", i);
    }
    emit("team fcollect 8 B", iters);

    for (int i = 0; i < iters; i++) {
        size_t mine = (size_t)(1 + me % 2);
        for (size_t k = 0; k < mine; k++)
            src[k] = expected_collect_at(me, (int)k) + i;
        MH_TIMED(shmem_long_collect(w, dst, src, mine));
        for (int j = 0, at = 0; j < npes; j++)
            for (int k = 0; k < 1 + j % 2; k++, at++)
                check(dst[at] == expected_collect_at(j, k) + i, "collect", i);
    }
    emit("team collect 8-16 B", iters);

    for (int i = 0; i < iters; i++) {
        for (int j = 0; j < npes; j++)
            one_each[j] = me * 1000 + j + i;
        MH_TIMED(shmem_long_alltoall(w, all_each, one_each, 1));
        for (int j = 0; j < npes; j++)
            check(all_each[j] == j * 1000 + me + i, "alltoall", i);
    }
    emit("team alltoall 8 B", iters);

    shmem_finalize();
    return failures != 0;
}
