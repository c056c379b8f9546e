/* Contexts on teams whose num_contexts is 0 or small: num_contexts is a
 * reservation hint, so shmem_team_create_ctx succeeds on a team split with
 * config = NULL, and more contexts than reserved work too.  Each context
 * moves data with team-relative PE numbers, checked against the team's
 * world numbering computed here. */
#include "api_test.h"

#define EXTRA 6

static long inbox[EXTRA + 1];

/* Every member puts (its world PE * 100 + k) through ctx k to the next
 * member of team, whose members are world PEs first, first+stride, ... */
static void ring(shmem_team_t team, shmem_ctx_t *ctx, int nctx, int first, int stride)
{
    int tme = shmem_team_my_pe(team), tn = shmem_team_n_pes(team);
    for (int k = 0; k < nctx; k++)
        inbox[k] = -1;
    shmem_team_sync(team);
    for (int k = 0; k < nctx; k++) {
        shmem_ctx_long_p(ctx[k], &inbox[k], me * 100L + k, (tme + 1) % tn);
        shmem_ctx_quiet(ctx[k]);
    }
    shmem_team_sync(team);
    int from = first + ((tme + tn - 1) % tn) * stride;
    for (int k = 0; k < nctx; k++)
        CHECK(inbox[k] == from * 100L + k, "ctx %d: inbox %ld, want %d", k, inbox[k], from * 100 + k);
}

static void on_team(const shmem_team_config_t *config, long mask, int want_hint)
{
    /* the even PEs of WORLD (odd PEs get SHMEM_TEAM_INVALID) */
    shmem_team_t team;
    int size = (npes + 1) / 2;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, size, config, mask, &team) == 0, "split");
    if (team == SHMEM_TEAM_INVALID) {
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
        CHECK(shmem_team_create_ctx(team, 0, &ctx) != 0 && ctx == SHMEM_CTX_INVALID, "ctx on INVALID");
        return;
    }
    shmem_team_config_t got = {.num_contexts = -5};
    CHECK(shmem_team_get_config(team, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 && got.num_contexts == want_hint,
          "num_contexts %d, want %d", got.num_contexts, want_hint);
    shmem_ctx_t ctx[EXTRA + 1];
    for (int k = 0; k <= EXTRA; k++)
        CHECK(shmem_team_create_ctx(team, k % 2 ? SHMEM_CTX_PRIVATE : 0, &ctx[k]) == 0 && ctx[k] != SHMEM_CTX_INVALID,
              "context %d on a team with num_contexts %d", k, want_hint);
    shmem_team_t back;
    CHECK(shmem_ctx_get_team(ctx[EXTRA], &back) == 0 && back == team, "ctx_get_team");
    ring(team, ctx, EXTRA + 1, 0, 2);
    for (int k = 0; k < EXTRA; k++)
        shmem_ctx_destroy(ctx[k]);
    shmem_team_destroy(team);   /* takes ctx[EXTRA] with it */
}

int main(void)
{
    test_init();
    on_team(NULL, 0, 0);
    shmem_team_config_t none = {.num_contexts = 0}, one = {.num_contexts = 1};
    on_team(&none, SHMEM_TEAM_NUM_CONTEXTS, 0);
    on_team(&one, SHMEM_TEAM_NUM_CONTEXTS, 1);
    on_team(&one, 0, 0);   /* the mask leaves the config out */
    shmem_barrier_all();
    shmem_finalize();
    if (me == 0)
        printf("api_team_ctx: %d PEs ok\n", npes);
    return 0;
}
