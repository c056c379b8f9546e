/* Team destroy zeroes only what the team used (issue 12, item 13): a team
 * whose members only synchronised touches a few pages of its pSync block at
 * destroy, not the whole block (2 x 66 KiB: each slot's data scratch is most
 * of it).  Measured as this process's resident shared memory (RssShmem)
 * across destroying TEAMS such teams.  Then blocks that carried every kind
 * of collective are reused by new teams, whose results are checked: what
 * destroy leaves unzeroed must not matter. */
#include <stdio.h>

#include "teams_util.h"

#define TEAMS 48
/* A build may give teams more pSync slots (-DSHOAL_PSYNC_PER_TEAM=4, src/team/team.h); each slot's
 * barrier words are a page or two more to zero. */
#ifndef SHOAL_PSYNC_PER_TEAM
#define SHOAL_PSYNC_PER_TEAM 2
#endif
/* barrier words, split area, agreement, last barrier: 4 with 2 slots, 8-9 with 4 */
#define PAGES_PER_DESTROY (2 * SHOAL_PSYNC_PER_TEAM + 4)

static long rss_shmem_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "RssShmem: %ld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

static long src[64], dst[64 * MAX_PES];

static void dup_world(shmem_team_t *t, int n)
{
    for (int i = 0; i < n; i++)
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &t[i]) == 0,
              "dup %d of WORLD", i);
}

/* Every collective kind on t, checked; round makes values differ between uses of a block. */
static void use_fully(shmem_team_t t, int round)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < 64; i++)
        src[i] = 1000L * round + 10L * me + i;
    CHECK(shmem_long_broadcast(t, dst, src, 8, round % n) == 0, "broadcast");
    for (int i = 0; i < 8; i++)
        CHECK(dst[i] == 1000L * round + 10L * (round % n) + i, "broadcast round %d: [%d] = %ld", round, i, dst[i]);
    CHECK(shmem_long_sum_reduce(t, dst, src, 4) == 0, "sum_reduce");
    for (int i = 0; i < 4; i++) {
        long want = 0;
        for (int p = 0; p < n; p++)
            want += 1000L * round + 10L * p + i;
        CHECK(dst[i] == want, "sum_reduce round %d: [%d] = %ld, want %ld", round, i, dst[i], want);
    }
    CHECK(shmem_long_fcollect(t, dst, src, 2) == 0, "fcollect");
    for (int p = 0; p < n; p++)
        CHECK(dst[2 * p + 1] == 1000L * round + 10L * p + 1, "fcollect round %d: from %d", round, p);
    for (int p = 0; p < n; p++)
        src[p] = 1000L * round + 10L * me + p;
    CHECK(shmem_long_alltoall(t, dst, src, 1) == 0, "alltoall");
    for (int p = 0; p < n; p++)
        CHECK(dst[p] == 1000L * round + 10L * p + me, "alltoall round %d: from %d = %ld", round, p, dst[p]);
    shmem_team_sync(t);
}

int main(void)
{
    shmem_init();
    CHECK(shmem_n_pes() <= MAX_PES, "at most %d PEs", MAX_PES);
    shmem_team_t t[TEAMS];
    for (int round = 1; round <= 2; round++) {   /* round 2 reuses round 1's blocks */
        dup_world(t, TEAMS);
        for (int i = 0; i < TEAMS; i++)
            use_fully(t[i], round * TEAMS + i);
        for (int i = 0; i < TEAMS; i++)
            shmem_team_destroy(t[i]);
    }
    /* Fresh blocks (not yet used by any team), synchronised only. */
    shmem_team_t fresh[TEAMS];
    dup_world(t, TEAMS);
    dup_world(fresh, TEAMS);
    for (int i = 0; i < TEAMS; i++) {
        shmem_team_sync(fresh[i]);
        shmem_team_sync(fresh[i]);
    }
    shmem_barrier_all();
    long before = rss_shmem_kib();
    for (int i = 0; i < TEAMS; i++)
        shmem_team_destroy(fresh[i]);
    long after = rss_shmem_kib();
    CHECK(before >= 0, "RssShmem not found in /proc/self/status");
    double pages = (double)(after - before) / 4.0 / TEAMS;
    CHECK(pages <= PAGES_PER_DESTROY, "destroying a team that only synchronised touched %.1f pages of shared "
          "memory, want at most %d", pages, PAGES_PER_DESTROY);
    for (int i = 0; i < TEAMS; i++)
        shmem_team_destroy(t[i]);
    if (shmem_my_pe() == 0)
        printf("team_destroy_pages: %.1f pages touched per destroy (at most %d)\n", pages, PAGES_PER_DESTROY);
    shmem_finalize();
    return 0;
}
