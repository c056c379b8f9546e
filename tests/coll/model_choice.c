/* What auto picks, read back from the profile by model_choice_test.py:
 * an OSU-style float sum on active sets (alternating pSync and pWrk) of
 * argv[1] floats, a team long sum of one long, a team broadcast of 1 KiB,
 * an active-set broadcast64 of 1 KiB.  Checks the results too. */
#include <stdlib.h>

#include <shmem.h>

#include "check.h"

enum { MAXF = 1024, CALLS = 4 };
static float fsrc[MAXF], fdst[MAXF], wrk[2][MAXF / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long psync[2][SHMEM_REDUCE_SYNC_SIZE], lsrc, ldst;
static char bsrc[1024], bdst[1024];
static long asrc[128], adst[128], apsync[2][SHMEM_BCAST_SYNC_SIZE];

int main(int argc, char **argv)
{
    int nf = argc > 1 ? atoi(argv[1]) : 64;
    shmem_init();
    int me = shmem_my_pe(), np = shmem_n_pes();
    CHECK(nf > 0 && nf <= MAXF, "1..%d floats", MAXF);
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
            psync[s][i] = SHMEM_SYNC_VALUE;
        for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
            apsync[s][i] = SHMEM_SYNC_VALUE;
    }
    for (int i = 0; i < 128; i++)
        asrc[i] = me * 1000 + i;
    for (int i = 0; i < nf; i++)
        fsrc[i] = (float)(me + i);
    for (int i = 0; i < 1024; i++)
        bsrc[i] = (char)(i * 7);
    lsrc = me + 1;
    shmem_barrier_all();
    for (int c = 0; c < CALLS; c++) {
        shmem_float_sum_to_all(fdst, fsrc, nf, 0, 0, np, wrk[c % 2], psync[c % 2]);
        for (int i = 0; i < nf; i++)
            CHECK(fdst[i] == (float)(np * (np - 1) / 2 + np * i), "float sum element %d: %g", i, fdst[i]);
    }
    for (int c = 0; c < CALLS; c++) {
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &ldst, &lsrc, 1);
        CHECK_EQ_LONG(ldst, (long)np * (np + 1) / 2);
        shmem_broadcastmem(SHMEM_TEAM_WORLD, bdst, bsrc, sizeof bsrc, 0);
        for (int i = 0; i < 1024; i++)
            CHECK(bdst[i] == (char)(i * 7), "broadcast byte %d", i);
        shmem_barrier_all();   /* the dests are ready before anyone calls (1.4 semantics) */
        shmem_broadcast64(adst, asrc, 128, 0, 0, 0, np, apsync[c % 2]);
        for (int i = 0; i < 128 && me != 0; i++)
            CHECK_EQ_LONG(adst[i], i);
    }
    shmem_finalize();
    return 0;
}
