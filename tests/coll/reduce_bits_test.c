/* Reductions whose floating-point result depends on the order of the
 * additions (values of very different magnitudes) must still give every
 * member the same bits, and stay within rounding of an independent sum
 * (long double, computed by each PE from everyone's inputs).  Team and
 * in-place forms, 1 to 63 doubles and long doubles (the small-vector
 * sizes the shared-memory ring reduction serves), float products, and a
 * team that is every other PE.  The algorithm is forced from outside. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <shmem.h>

#include "check.h"

enum { MAXN = 63, ROUNDS = 40 };
static double src_d[MAXN], dst_d[MAXN], all_d[64 * MAXN];
static long double src_l[MAXN], dst_l[MAXN], all_l[64 * MAXN];
static int me, npes;

/* Member j's element i of round r: magnitudes from 1e-8 to 1e16, both signs. */
static double input(int j, int i, int r)
{
    unsigned h = (unsigned)(j * 2654435761u) ^ (unsigned)(i * 40503u) ^ (unsigned)(r * 977u);
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    double mant = 1.0 + (h & 0xffff) / 65536.0;
    int expo = (int)((h >> 16) % 25) - 8;
    return ((h >> 28) & 1 ? -mant : mant) * pow(10.0, expo);
}

/* Everyone's results gathered to every member must be bitwise equal in
 * their first sig bytes per element (a long double's padding is not part
 * of its value). */
static void same_everywhere(const void *mine, void *all, size_t elem, size_t sig, int n, shmem_team_t team,
                            const char *what)
{
    int members = shmem_team_n_pes(team);
    size_t bytes = elem * (size_t)n;
    CHECK(shmem_fcollectmem(team, all, mine, bytes) == 0, "fcollect");
    for (int m = 1; m < members; m++)
        for (int i = 0; i < n; i++)
            CHECK(memcmp((char *)all + m * bytes + i * elem, (char *)all + i * elem, sig) == 0,
                  "%s, %d elements: member %d's element %d differs from member 0's", what, n, m, i);
}

static void round_on(shmem_team_t team, int r, int inplace)
{
    int members = shmem_team_n_pes(team), my = shmem_team_my_pe(team);
    if (my < 0)
        return;
    int n = 1 + (r * 7) % MAXN;
    for (int i = 0; i < n; i++) {
        src_d[i] = input(shmem_team_translate_pe(team, my, SHMEM_TEAM_WORLD), i, r);
        src_l[i] = (long double)src_d[i] * 3;
    }
    double *dd = inplace ? src_d : dst_d;
    long double *dl = inplace ? src_l : dst_l;
    if (inplace) {
        CHECK(shmem_double_sum_reduce(team, src_d, src_d, n) == 0, "double sum");
        CHECK(shmem_longdouble_sum_reduce(team, src_l, src_l, n) == 0, "long double sum");
    } else {
        CHECK(shmem_double_sum_reduce(team, dst_d, src_d, n) == 0, "double sum");
        CHECK(shmem_longdouble_sum_reduce(team, dst_l, src_l, n) == 0, "long double sum");
    }
    for (int i = 0; i < n; i++) {
        long double want = 0, scale = 0;
        for (int m = 0; m < members; m++) {
            double x = input(shmem_team_translate_pe(team, m, SHMEM_TEAM_WORLD), i, r);
            want += x;
            scale += fabs(x);
        }
        CHECK(fabsl(dd[i] - want) <= scale * 1e-15L, "double sum, round %d, element %d: %.17g, want %.17Lg", r, i,
              dd[i], want);
        CHECK(fabsl(dl[i] - 3 * want) <= 3 * scale * 1e-15L, "long double sum, round %d, element %d", r, i);
    }
    same_everywhere(dd, all_d, sizeof(double), sizeof(double), n, team, "double sum");
    same_everywhere(dl, all_l, sizeof(long double), 10, n, team, "long double sum");
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(npes <= 64, "at most 64 PEs");
    shmem_team_t evens = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
    for (int r = 0; r < ROUNDS; r++) {
        round_on(SHMEM_TEAM_WORLD, r, r % 2);
        if (evens != SHMEM_TEAM_INVALID)
            round_on(evens, r, (r / 2) % 2);
    }
    /* Products of floats near 1: order-dependent rounding again. */
    static float fs[MAXN], fd[MAXN], fall[64 * MAXN];
    for (int i = 0; i < MAXN; i++)
        fs[i] = 1.0f + (float)input(me, i, 99) * 1e-20f + 1e-7f * (float)((me * 13 + i) % 17);
    CHECK(shmem_float_prod_reduce(SHMEM_TEAM_WORLD, fd, fs, MAXN) == 0, "float prod");
    same_everywhere(fd, fall, sizeof(float), sizeof(float), MAXN, SHMEM_TEAM_WORLD, "float prod");
    if (evens != SHMEM_TEAM_INVALID)
        shmem_team_destroy(evens);
    shmem_finalize();
    if (me == 0)
        printf("reduce_bits: %d PEs ok\n", npes);
    return 0;
}
