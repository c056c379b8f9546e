/* OpenSHMEM 1.6: init/finalize pairs repeat; the last finalize destroys every
 * team (and their contexts) and a later init starts afresh: predefined
 * teams are back, the whole pSync pool is free again (run with
 * SHMEM_TEAMS_MAX=4: a second life could not make its teams otherwise). */
#include "teams_util.h"

static long box;

static void one_life(int life)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    struct model w;
    model_triplet(&w, 0, 1, n);
    check_team(SHMEM_TEAM_WORLD, &w, "WORLD after init");
    shmem_team_config_t cfg = {.num_contexts = 1};
    shmem_team_t t[3];
    for (int i = 0; i < 3; i++)   /* left alive on purpose: finalize destroys them */
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &t[i]) == 0,
              "life %d split %d", life, i);
    shmem_ctx_t ctx;
    CHECK(shmem_team_create_ctx(t[2], 0, &ctx) == 0, "context left alive too");
    shmem_ctx_long_p(ctx, &box, 100 * life + me, n - 1 - (me + 1) % n);   /* world PE me+1 */
    shmem_ctx_quiet(ctx);
    shmem_team_sync(t[1]);
    CHECK_EQ_LONG(box, 100 * life + (me + n - 1) % n);
    shmem_team_sync(t[0]);
}

int main(void)
{
    for (int life = 1; life <= 3; life++) {
        shmem_init();
        one_life(life);
        if (life == 2) {   /* a nested pair: the inner finalize is only a barrier */
            shmem_init();
            shmem_finalize();
            shmem_team_t t;
            CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, &t) == 0, "still initialized");
        }
        if (shmem_my_pe() == 0 && life == 3)
            printf("team_reinit: %d PEs ok\n", shmem_n_pes());
        shmem_finalize();
    }
    return 0;
}
