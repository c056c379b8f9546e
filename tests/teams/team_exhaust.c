/* The pSync pool: creating teams until the pool is exhausted fails on every
 * PE at the same count (SHMEM_TEAMS_MAX of them, counting none of the
 * predefined teams); destroying one makes room again; thousands of
 * create/destroy cycles reuse blocks, and reused blocks must behave like new
 * ones (barriers and contexts on them); PEs whose availability differs
 * (teams of disjoint halves) still agree on a block free for all. */
#include "teams_util.h"

#define MAX_TEAMS 1024

static shmem_team_t teams[MAX_TEAMS];
static long mark[MAX_PES];

/* Duplicate WORLD until it fails; returns how many were made. */
static int fill_pool(void)
{
    int made = 0;
    for (;;) {
        shmem_team_t t;
        int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &t);
        if (rc != 0) {
            CHECK(t == SHMEM_TEAM_INVALID, "failed split must give SHMEM_TEAM_INVALID");
            break;
        }
        CHECK(made < MAX_TEAMS, "more than %d teams: is SHMEM_TEAMS_MAX set for this test?", MAX_TEAMS);
        teams[made++] = t;
    }
    return made;
}

/* A barrier and a ring put on team t, which must be a duplicate of WORLD. */
static void exercise(shmem_team_t t, long tag)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(shmem_team_n_pes(t) == n && shmem_team_my_pe(t) == me, "duplicate of WORLD");
    shmem_team_sync(t);
    shmem_long_p(&mark[me], tag, (me + 1) % n);
    shmem_quiet();
    shmem_team_sync(t);
    CHECK_EQ_LONG(mark[(me + n - 1) % n], tag);
    /* a collective on a block that earlier teams used */
    static long src, sum;
    src = tag + me;
    CHECK(shmem_long_sum_reduce(t, &sum, &src, 1) == 0, "sum_reduce on a reused block");
    CHECK_EQ_LONG(sum, (long)n * tag + (long)n * (n - 1) / 2);
}

static void exhaustion(long teams_max)
{
    int made = fill_pool();
    CHECK(made == teams_max, "made %d teams before failing; SHMEM_TEAMS_MAX is %ld", made, teams_max);
    check_same_everywhere(made, "teams made before exhaustion");
    /* 2-D needs two blocks: fails everywhere, both handles INVALID */
    shmem_team_destroy(teams[--made]);
    shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
    int rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &x, NULL, 0, &y);
    CHECK(rc != 0 && x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID, "split_2d with one block free");
    check_same_everywhere(rc != 0, "split_2d failure");
    /* one block free: a strided split fits, and a colour split after it does not */
    shmem_team_t t;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &t) == 0, "reuse one block");
    teams[made++] = t;
    rc = shmemx_team_split_color(SHMEM_TEAM_WORLD, 0, 0, NULL, 0, &t);
    CHECK(rc != 0 && t == SHMEM_TEAM_INVALID, "colour split with no block free");
    for (int i = 0; i < made; i += 1 + made / 8)
        exercise(teams[i], 100 + i);
    while (made > 0)
        shmem_team_destroy(teams[--made]);
    CHECK(fill_pool() == teams_max, "the whole pool is free again after destroying everything");
    for (int i = 0; i < teams_max; i++)
        shmem_team_destroy(teams[i]);
}

/* Create/destroy cycles: dup, halving chain, 2-D; each used once. */
static void churn(int cycles)
{
    int n = shmem_n_pes(), me = shmem_my_pe();
    for (int c = 0; c < cycles; c++) {
        shmem_team_t dup, half, x, y;
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &dup) == 0, "cycle %d dup", c);
        exercise(dup, c);
        int stride = 1 << (c % 4);
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, stride, (n + stride - 1) / stride, NULL, 0, &half) == 0,
              "cycle %d halving", c);
        if (half != SHMEM_TEAM_INVALID) {
            CHECK(shmem_team_my_pe(half) == me / stride, "halving member");
            shmem_team_sync(half);
        }
        CHECK(shmem_team_split_2d(dup, 2, NULL, 0, &x, NULL, 0, &y) == 0, "cycle %d 2-D", c);
        shmem_team_sync(x);
        shmem_team_sync(y);
        shmem_team_destroy(y);
        shmem_team_destroy(half);
        shmem_team_destroy(x);
        shmem_team_destroy(dup);
    }
}

/* Halves fill different blocks, then WORLD splits must find blocks free on
 * both halves; barriers on all of them interleaved would hang or fail if two
 * live teams of one PE shared a block. */
static void disjoint_halves(void)
{
    int n = shmem_n_pes(), me = shmem_my_pe();
    if (n < 2)
        return;
    shmem_team_t x, y;   /* rows of 2-D with xrange ceil(n/2): the lower and upper half */
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, (n + 1) / 2, NULL, 0, &x, NULL, 0, &y) == 0, "halves");
    shmem_team_t local[5];
    int nlocal = me < (n + 1) / 2 ? 5 : 2;   /* the lower half uses more blocks */
    for (int i = 0; i < nlocal; i++)
        CHECK(shmem_team_split_strided(x, 0, 1, shmem_team_n_pes(x), NULL, 0, &local[i]) == 0, "local dup");
    shmem_team_t w[3];
    for (int i = 0; i < 3; i++)
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &w[i]) == 0, "world dup");
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < nlocal; i++)
            shmem_team_sync(local[i]);
        for (int i = 0; i < 3; i++)
            exercise(w[i], 1000 * round + i);
        shmem_team_sync(x);
        shmem_team_sync(y);
    }
    for (int i = 0; i < 3; i++)
        shmem_team_destroy(w[i]);
    for (int i = 0; i < nlocal; i++)
        shmem_team_destroy(local[i]);
    shmem_team_destroy(x);
    shmem_team_destroy(y);
}

int main(void)
{
    shmem_init();
    const char *env = getenv("SHMEM_TEAMS_MAX");
    long teams_max = env ? atol(env) : 256;
    int n = shmem_n_pes();
    exhaustion(teams_max);
    disjoint_halves();
    churn(n <= 4 ? 1500 : n <= 8 ? 300 : 40);
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        printf("team_exhaust: %d PEs, SHMEM_TEAMS_MAX %ld ok\n", n, teams_max);
    shmem_finalize();
    return 0;
}
