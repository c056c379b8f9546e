/* The deprecated active-set forms as the host-then-leaders path sees them
 * (active_hier.c): shmem_barrier, shmem_long_sum_to_all and
 * shmem_int_max_to_all (1, 7 and 3000 elements: the leaders' pWrk holds
 * fewer, so they go in chunks; dest == source too), shmem_broadcast64 from
 * every root (roots that are not their host's first member; the root's
 * dest must stay as it was; 1.1 MB from the last, which binomial sends in
 * pieces across 3 hosts or more) and shmem_fcollect64, on the whole job, on
 * PEs 1.. and on strided sets.  Members only; each PE checks every result
 * against values it computes itself; shmem_collect64 with sizes that
 * differ (zero too) and shmem_alltoall64 check the same way, and that the pSync is all
 * SHMEM_SYNC_VALUE again on return.  Meant for jobs that span hosts
 * (tests/multihost, host_map.sh, SHOAL_COLL_FAKE_HOSTS); correct anywhere.
 *   coll_active_test [ROUNDS]   (default 2) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>

#include "check.h"

enum { BIG = 3000, MAX_PES = 64, LONGS = 300, PIECES_LONGS = 140001 };   /* 1.1 MB: binomial's pieces */

static long psync[2][SHMEM_REDUCE_SYNC_SIZE], bar_sync[SHMEM_BARRIER_SYNC_SIZE];
static long lwrk[BIG / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static int iwrk[BIG / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long lsrc[BIG], ldst[BIG], bsrc[PIECES_LONGS], bdst[PIECES_LONGS], fsrc[40], fsrc2[40 * MAX_PES], fdst[40 * MAX_PES + 64], stamp[MAX_PES];
static int isrc[BIG], idst[BIG];

struct set {
    int start, logstride, size;
    int my;   /* my index, or -1 */
};

static int pe_of(const struct set *s, int i) { return s->start + (i << s->logstride); }

static void check_psync_clean(const long *ps, const char *what)
{
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        CHECK(ps[i] == SHMEM_SYNC_VALUE, "%s: pSync[%d] is %ld on return", what, i, ps[i]);
}

static void sync_set(const struct set *s) { shmem_barrier(s->start, s->logstride, s->size, bar_sync); }

static void check_barrier(const struct set *s, long round)
{
    for (int j = 0; j < s->size; j++)
        shmem_long_p(&stamp[s->my], round, pe_of(s, j));
    sync_set(s);
    for (int j = 0; j < s->size; j++) {
        long v = __atomic_load_n(&stamp[j], __ATOMIC_ACQUIRE);
        CHECK(v == round || v == round + 1, "set (%d,%d,%d): after barrier %ld member %d stamped %ld", s->start,
              s->logstride, s->size, round, j, v);
    }
    check_psync_clean(bar_sync, "barrier");
}

static void check_reduce(const struct set *s, int n, int salt, int k)
{
    long *ps = psync[k & 1];
    for (int i = 0; i < n; i++)
        lsrc[i] = (long)(s->my + 1) * (i + salt);
    shmem_long_sum_to_all(ldst, lsrc, n, s->start, s->logstride, s->size, lwrk, ps);
    long members = s->size;
    for (int i = 0; i < n; i++)
        CHECK(ldst[i] == members * (members + 1) / 2 * (i + salt), "set (%d,%d,%d): sum n %d [%d] %ld", s->start,
              s->logstride, s->size, n, i, ldst[i]);
    check_psync_clean(ps, "sum_to_all");
    sync_set(s);
    /* in place, another type and operator */
    for (int i = 0; i < n; i++)
        isrc[i] = (s->my * 7 + i * 3 + salt) % 101;
    shmem_int_max_to_all(isrc, isrc, n, s->start, s->logstride, s->size, iwrk, psync[(k + 1) & 1]);
    for (int i = 0; i < n; i++) {
        int want = 0;
        for (int j = 0; j < s->size; j++)
            if ((j * 7 + i * 3 + salt) % 101 > want)
                want = (j * 7 + i * 3 + salt) % 101;
        CHECK(isrc[i] == want, "set (%d,%d,%d): max in place n %d [%d] %d want %d", s->start, s->logstride, s->size,
              n, i, isrc[i], want);
    }
    check_psync_clean(psync[(k + 1) & 1], "max_to_all");
    sync_set(s);
}

static void check_bcast(const struct set *s, int n, int root, int salt)
{
    for (int i = 0; i < n; i++) {
        bsrc[i] = s->my == root ? (long)root * 1000 + i + salt : -1;
        bdst[i] = -7;
    }
    sync_set(s);
    shmem_broadcast64(bdst, bsrc, n, root, s->start, s->logstride, s->size, psync[salt & 1]);
    for (int i = 0; i < n; i++)
        CHECK(bdst[i] == (s->my == root ? -7 : (long)root * 1000 + i + salt),
              "set (%d,%d,%d): broadcast n %d root %d [%d] %ld", s->start, s->logstride, s->size, n, root, i, bdst[i]);
    check_psync_clean(psync[salt & 1], "broadcast64");
    sync_set(s);
}

static void check_fcollect(const struct set *s, int n, int salt)
{
    for (int i = 0; i < n; i++)
        fsrc[i] = (long)s->my * 100 + i + salt;
    shmem_fcollect64(fdst, fsrc, n, s->start, s->logstride, s->size, psync[salt & 1]);
    for (int j = 0; j < s->size; j++)
        for (int i = 0; i < n; i++)
            CHECK(fdst[j * n + i] == (long)j * 100 + i + salt, "set (%d,%d,%d): fcollect n %d block %d [%d] %ld",
                  s->start, s->logstride, s->size, n, j, i, fdst[j * n + i]);
    check_psync_clean(psync[salt & 1], "fcollect64");
    sync_set(s);
}

static int collect_n(int j, int salt) { return (j + salt) % 3 == 0 ? 0 : (j * 5 + salt) % 9 + 1; }

static void check_collect(const struct set *s, int salt)
{
    int n = collect_n(s->my, salt);
    for (int i = 0; i < n; i++)
        fsrc[i] = (long)s->my * 100 + i + salt;
    shmem_collect64(fdst, fsrc, n, s->start, s->logstride, s->size, psync[salt & 1]);
    for (int j = 0, at = 0; j < s->size; j++)
        for (int i = 0; i < collect_n(j, salt); i++, at++)
            CHECK(fdst[at] == (long)j * 100 + i + salt, "set (%d,%d,%d): collect block %d [%d] %ld", s->start,
                  s->logstride, s->size, j, i, fdst[at]);
    check_psync_clean(psync[salt & 1], "collect64");
    sync_set(s);
}

static void check_alltoall(const struct set *s, int n, int salt)
{
    for (int j = 0; j < s->size; j++)
        for (int i = 0; i < n; i++)
            fsrc2[j * n + i] = (long)s->my * 1000 + j * 10 + i + salt;
    shmem_alltoall64(fdst, fsrc2, n, s->start, s->logstride, s->size, psync[salt & 1]);
    for (int j = 0; j < s->size; j++)
        for (int i = 0; i < n; i++)
            CHECK(fdst[j * n + i] == (long)j * 1000 + s->my * 10 + i + salt,
                  "set (%d,%d,%d): alltoall n %d from %d [%d] %ld", s->start, s->logstride, s->size, n, j, i,
                  fdst[j * n + i]);
    check_psync_clean(psync[salt & 1], "alltoall64");
    sync_set(s);
}

static void run_set(struct set s, int rounds, long base)
{
    int me = shmem_my_pe();
    s.my = -1;
    for (int i = 0; i < s.size; i++)
        if (pe_of(&s, i) == me)
            s.my = i;
    if (s.my < 0 || s.size < 1)
        return;
    for (int r = 0; r < rounds; r++) {
        check_barrier(&s, base + r + 1);   /* the same count on every member */
        static const int ns[] = {1, 7, BIG};
        for (int k = 0; k < 3; k++)
            check_reduce(&s, ns[k], r + k, k);
        for (int root = 0; root < s.size; root++) {
            check_bcast(&s, 1, root, r + root);
            check_bcast(&s, LONGS, root, r + root + 1);
        }
        check_bcast(&s, PIECES_LONGS, s.size - 1, r);
        check_fcollect(&s, 1, r);
        check_fcollect(&s, 37, r + 1);
        for (int salt = 0; salt < 3; salt++)
            check_collect(&s, r * 3 + salt);
        check_alltoall(&s, 1, r);
        check_alltoall(&s, 40, r + 1);
    }
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 2;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
            psync[k][i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        bar_sync[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    int n = shmem_n_pes();
    CHECK(n <= MAX_PES, "at most %d PEs", MAX_PES);
    struct set sets[] = {
        {0, 0, n, 0},
        {1, 0, n - 1, 0},            /* the first host's leader is not PE 0 */
        {0, 1, (n + 1) / 2, 0},      /* every other PE */
        {1, 1, n / 2, 0},
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        /* Sets are used one after another: PEs outside a set wait here. */
        shmem_barrier_all();
        run_set(sets[i], rounds, 1000 * (long)(i + 1));
        memset(stamp, 0, sizeof stamp);
        shmem_barrier_all();
    }
    if (shmem_my_pe() == 0)
        printf("coll_active_test: %d PEs, %d rounds: ok\n", n, rounds);
    shmem_finalize();
    return 0;
}
