/* Collectives back to back on one team with no barrier between them:
 * reductions, broadcasts from a rotating root, fcollects, collects and
 * alltoalls, each checked.
 * Whether a member may run ahead into the next call while another is
 * still in the previous one is each algorithm's business (the slot rule of
 * src/coll/coll_internal.h); a broadcast that let members leave before all
 * had arrived let the next reduction overwrite the scratch of a member
 * still in the one before (recursive doubling and Bruck, 5 and 8 PEs: a
 * wrong sum within a few thousand rounds).  Then alltoalls alone into one
 * dest: a member's dest may be written only once it has entered the call,
 * after it checked the one before.  Then broadcasts right after barriers
 * mixed with calls back to back.  Run under forced algorithms. */
#include <stdlib.h>

#include "check.h"

enum { ROUNDS = 4000, NRED = 4, NB = 16 };

static void reduce_round(long *dst, long *src, long r, int me, int n)
{
    for (int i = 0; i < NRED; i++)
        src[i] = me * 1000 + r + i;
    CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, NRED) == 0, "reduce rc");
    for (int i = 0; i < NRED; i++)
        CHECK(dst[i] == 1000L * n * (n - 1) / 2 + (long)n * (r + i), "round %ld: sum[%d] is %ld, want %ld", r, i,
              dst[i], 1000L * n * (n - 1) / 2 + (long)n * (r + i));
}

static void bcast_round(char *dst, char *src, long r, int me, int n)
{
    int root = (int)(r % n);
    for (int i = 0; i < NB; i++)
        src[i] = (char)(me + r + i);
    CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, NB, root) == 0, "broadcast rc");
    for (int i = 0; i < NB; i++)
        CHECK(dst[i] == (char)(root + r + i), "round %ld: broadcast from %d: byte %d is %d", r, root, i, dst[i]);
}

static void fcollect_round(long *dst, long *src, long r, int me, int n)
{
    *src = me * 7 + r;
    CHECK(shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, 1) == 0, "fcollect rc");
    for (int j = 0; j < n; j++)
        CHECK(dst[j] == j * 7 + r, "round %ld: fcollect block %d is %ld", r, j, dst[j]);
}

static void collect_round(long *dst, long *src, long r, int me, int n)
{
    int mine = (int)((me + r) % 3);   /* 0-2 elements each */
    for (int i = 0; i < mine; i++)
        src[i] = me * 100 + r + i;
    CHECK(shmem_long_collect(SHMEM_TEAM_WORLD, dst, src, (size_t)mine) == 0, "collect rc");
    int at = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < (int)((j + r) % 3); i++, at++)
            CHECK(dst[at] == j * 100 + r + i, "round %ld: collect: member %d element %d is %ld", r, j, i, dst[at]);
}

static void alltoall_round(long *dst, long *src, long r, int me, int n)
{
    for (int j = 0; j < n; j++)
        src[j] = me * 1000 + j * 10 + r;
    CHECK(shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, 1) == 0, "alltoall rc");
    for (int j = 0; j < n; j++)
        CHECK(dst[j] == j * 1000 + me * 10 + r, "round %ld: alltoall block from %d is %ld", r, j, dst[j]);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *rs = shmem_malloc(NRED * sizeof(long)), *rd = shmem_malloc(NRED * sizeof(long));
    char *bs = shmem_malloc(NB), *bd = shmem_malloc(NB);
    long *fs = shmem_malloc((size_t)n * sizeof(long)), *fd = shmem_malloc(3 * (size_t)n * sizeof(long));
    CHECK(rs && rd && bs && bd && fs && fd, "shmem_malloc");
    for (long r = 0; r < ROUNDS; r++) {
        reduce_round(rd, rs, r, me, n);
        bcast_round(bd, bs, r, me, n);
        if (r % 3 == 0)
            fcollect_round(fd, fs, r, me, n);
        else if (r % 3 == 1)
            collect_round(fd, fs, r, me, n);
        else if (r % 6 == 2)
            alltoall_round(fd, fs, r, me, n);
    }
    for (long r = 0; r < ROUNDS / 4; r++)
        alltoall_round(fd, fs, r, me, n);
    /* A broadcast right after a barrier may send into the members' scratch
     * at once, its root waiting for nobody (bcast_linear.c): the calls
     * after it, back to back, must still not reach a member that has not
     * taken its copy. */
    for (long r = 0; r < ROUNDS / 2; r++) {
        if (r % 2 == 0)
            shmem_team_sync(SHMEM_TEAM_WORLD);
        bcast_round(bd, bs, r, me, n);
        if (r % 4 == 1)
            reduce_round(rd, rs, r, me, n);
        else if (r % 4 == 3)
            fcollect_round(fd, fs, r, me, n);
    }
    shmem_finalize();
    return 0;
}
