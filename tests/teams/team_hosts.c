/* Predefined teams when a launcher interleaves hosts so that a host's PEs
 * are not a triplet (the case where the paper's implementation falls back
 * to the self PE).  Each PE claims a host through SHOAL_HOST_ID before init:
 * host(pe) = (pe + pe/2) mod 2, i.e. {0,3,4,7,..} and {1,2,5,6,..}.  SHARED
 * and HOST must hold every PE of my host, LEADERS PEs 0 and 1; collectives,
 * splits and team contexts must work on them, across the network too. */
#include <stdio.h>
#include <stdlib.h>

#include "teams_util.h"

static long box[MAX_PES];

static int host_of(int pe) { return (pe + pe / 2) % 2; }

static void claim_host(void)
{
    const char *pe = getenv("SHOAL_PE");   /* set by oshrun for each PE */
    char id[32];
    snprintf(id, sizeof id, "team-hosts-%d", pe ? host_of(atoi(pe)) : 0);
    setenv("SHOAL_HOST_ID", id, 1);
}

static void ring(shmem_team_t t, const struct model *m, long tag)
{
    int me = shmem_team_my_pe(t), n = m->n;
    shmem_ctx_t ctx;
    CHECK(shmem_team_create_ctx(t, 0, &ctx) == 0, "context on a predefined team");
    shmem_team_sync(t);
    shmem_ctx_long_p(ctx, &box[0], tag + shmem_my_pe(), (me + 1) % n);
    shmem_ctx_quiet(ctx);
    shmem_team_sync(t);
    CHECK_EQ_LONG(box[0], tag + m->world[(me + n - 1) % n]);
    shmem_team_sync(t);
    shmem_ctx_destroy(ctx);
}

int main(void)
{
    claim_host();
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    struct model host = {0}, leaders = {0};
    for (int pe = 0; pe < n; pe++) {
        if (host_of(pe) == host_of(me))
            host.world[host.n++] = pe;
        if (pe < 2)
            leaders.world[leaders.n++] = pe;
    }
    check_team(SHMEMX_TEAM_HOST, &host, "HOST");
    check_team(SHMEM_TEAM_SHARED, &host, "SHARED");
    for (int pe = 0; pe < n; pe++)
        CHECK((shmem_ptr(&box, pe) != NULL) == (host_of(pe) == host_of(me)), "shmem_ptr to PE %d", pe);
    if (me < 2)
        check_team(SHMEMX_TEAM_LEADERS, &leaders, "LEADERS");
    else
        CHECK(SHMEMX_TEAM_LEADERS == SHMEM_TEAM_INVALID, "non-leader has LEADERS");

    ring(SHMEM_TEAM_SHARED, &host, 100);
    ring(SHMEMX_TEAM_HOST, &host, 200);
    if (me < 2)
        ring(SHMEMX_TEAM_LEADERS, &leaders, 300);
    struct model world;
    model_triplet(&world, 0, 1, n);
    ring(SHMEM_TEAM_WORLD, &world, 400);

    /* a split of SHARED (every other member) and a colour split across hosts */
    shmem_team_config_t cfg = {.num_contexts = 1};
    shmem_team_t half, byhost;
    int hn = host.n;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_SHARED, 0, 2, (hn + 1) / 2, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &half) == 0,
          "split of SHARED");
    if (shmem_team_my_pe(SHMEM_TEAM_SHARED) % 2 == 0) {
        struct model hm = {0};
        for (int i = 0; i < hn; i += 2)
            hm.world[hm.n++] = host.world[i];
        check_team(half, &hm, "half of SHARED");
        ring(half, &hm, 500);
    }
    shmem_team_destroy(half);
    CHECK(shmemx_team_split_color(SHMEM_TEAM_WORLD, me % 3, -me, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &byhost) == 0,
          "colour split across hosts");
    struct model cm = {0};
    for (int pe = n - 1; pe >= 0; pe--)
        if (pe % 3 == me % 3)
            cm.world[cm.n++] = pe;
    check_team(byhost, &cm, "colour team across hosts");
    ring(byhost, &cm, 600);
    shmem_team_destroy(byhost);

    shmem_barrier_all();
    if (me == 0)
        printf("team_hosts: %d PEs on 2 hosts ok\n", n);
    shmem_finalize();
    return 0;
}
