/* Predefined teams (WORLD, SHARED, HOST/NODE, LEADERS), team_ptr,
 * get_config, team_sync, and what every team routine does with
 * SHMEM_TEAM_INVALID.  Hosts here come from the launcher (one machine, so
 * one host unless SHOAL_HOST_ID says otherwise); the expected SHARED team is
 * computed from shmem_ptr, the spec's definition. */
#include "teams_util.h"

static long word;
static long ring[MAX_PES];

static void check_world(void)
{
    struct model m;
    model_triplet(&m, 0, 1, shmem_n_pes());
    check_team(SHMEM_TEAM_WORLD, &m, "WORLD");
}

/* SHARED = every PE whose symmetric memory I can load/store, in world order. */
static void check_shared(void)
{
    struct model m = {0};
    for (int pe = 0; pe < shmem_n_pes(); pe++)
        if (shmem_ptr(&word, pe))
            m.world[m.n++] = pe;
    check_team(SHMEM_TEAM_SHARED, &m, "SHARED");
    check_team(SHMEMX_TEAM_HOST, &m, "HOST");   /* same membership on Linux */
    check_team(SHMEMX_TEAM_NODE, &m, "NODE");
    CHECK(SHMEM_TEAM_SHARED != SHMEMX_TEAM_HOST, "SHARED and HOST should be separate objects");
    for (int i = 0; i < m.n; i++) {
        void *p = shmem_team_ptr(SHMEM_TEAM_SHARED, &word, i);
        CHECK(p && p == shmem_ptr(&word, m.world[i]), "team_ptr(SHARED, %d) = %p", i, p);
    }
}

/* LEADERS: the lowest world PE of every host; INVALID elsewhere.  (The
 * multi-host test checks its whole membership.) */
static void check_leaders(void)
{
    int me = shmem_my_pe(), first = -1;
    for (int pe = shmem_n_pes() - 1; pe >= 0; pe--)
        if (shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEMX_TEAM_HOST) >= 0)
            first = pe;
    if (me == first) {
        CHECK(SHMEMX_TEAM_LEADERS != SHMEM_TEAM_INVALID, "PE %d leads its host but has no LEADERS team", me);
        int i = shmem_team_my_pe(SHMEMX_TEAM_LEADERS);
        CHECK(shmem_team_translate_pe(SHMEMX_TEAM_LEADERS, i, SHMEM_TEAM_WORLD) == me, "LEADERS: my entry");
        CHECK(shmem_team_translate_pe(SHMEMX_TEAM_LEADERS, 0, SHMEM_TEAM_WORLD) == 0, "PE 0 always leads");
    } else {
        CHECK(SHMEMX_TEAM_LEADERS == SHMEM_TEAM_INVALID, "PE %d is no leader but has a LEADERS team", me);
    }
}

static void check_team_ptr_and_config(void)
{
    int npes = shmem_n_pes();
    for (int pe = 0; pe < npes; pe++)
        CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, &word, pe) == shmem_ptr(&word, pe), "team_ptr(WORLD, %d)", pe);
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, &word, -1) == NULL, "team_ptr(WORLD, -1)");
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, &word, npes) == NULL, "team_ptr(WORLD, npes)");
    long local;
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, &local, 0) == NULL, "team_ptr of a stack address");

    shmem_team_config_t cfg = {.num_contexts = -7};
    CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, 0, NULL) == 0, "get_config mask 0, NULL config");
    CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, 0, &cfg) == 0 && cfg.num_contexts == -7,
          "get_config mask 0 must not touch config");
    CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &cfg) == 0, "get_config(WORLD)");
    CHECK(cfg.num_contexts > 0, "WORLD allows contexts (shmem_ctx_create): num_contexts %d", cfg.num_contexts);
}

/* team_sync over WORLD and SHARED orders my stores before their loads. */
static void check_sync(void)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    for (int round = 1; round <= 20; round++) {
        shmem_long_p(&ring[me], round * 1000 + me, (me + 1) % npes);
        shmem_quiet();
        CHECK(shmem_team_sync(round % 2 ? SHMEM_TEAM_WORLD : SHMEM_TEAM_SHARED) == 0, "team_sync");
        if (round % 2 == 0 && shmem_team_n_pes(SHMEM_TEAM_SHARED) != npes)
            shmem_team_sync(SHMEM_TEAM_WORLD);
        int from = (me + npes - 1) % npes;
        CHECK_EQ_LONG(ring[from], round * 1000 + from);
        shmem_team_sync(SHMEM_TEAM_WORLD);
    }
}

/* API.md §5.14: every routine's answer to SHMEM_TEAM_INVALID. */
static void check_invalid(void)
{
    shmem_team_t inv = SHMEM_TEAM_INVALID, t = SHMEM_TEAM_WORLD, t2 = SHMEM_TEAM_WORLD;
    shmem_team_config_t cfg = {0};
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    CHECK(shmem_team_my_pe(inv) == -1, "my_pe(INVALID)");
    CHECK(shmem_team_n_pes(inv) == -1, "n_pes(INVALID)");
    CHECK(shmem_team_get_config(inv, SHMEM_TEAM_NUM_CONTEXTS, &cfg) != 0, "get_config(INVALID)");
    CHECK(shmem_team_translate_pe(inv, 0, SHMEM_TEAM_WORLD) == -1, "translate from INVALID");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, inv) == -1, "translate to INVALID");
    CHECK(shmem_team_split_strided(inv, 0, 1, 1, NULL, 0, &t) != 0 && t == SHMEM_TEAM_INVALID,
          "split_strided(INVALID)");
    CHECK(shmem_team_split_2d(inv, 1, NULL, 0, &t, NULL, 0, &t2) != 0 && t == SHMEM_TEAM_INVALID &&
              t2 == SHMEM_TEAM_INVALID, "split_2d(INVALID)");
    t = SHMEM_TEAM_WORLD;
    CHECK(shmemx_team_split_color(inv, 0, 0, NULL, 0, &t) != 0 && t == SHMEM_TEAM_INVALID,
          "split_color(INVALID)");
    shmem_team_destroy(inv);   /* no-op */
    CHECK(shmem_team_create_ctx(inv, 0, &ctx) != 0 && ctx == SHMEM_CTX_INVALID, "create_ctx(INVALID)");
    CHECK(shmem_team_ptr(inv, &word, 0) == NULL, "team_ptr(INVALID)");
    CHECK(shmem_team_sync(inv) != 0, "team_sync(INVALID)");
    t = SHMEM_TEAM_WORLD;
    CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &t) != 0 && t == SHMEM_TEAM_INVALID, "ctx_get_team(INVALID)");
    CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &t) == 0 && t == SHMEM_TEAM_WORLD, "ctx_get_team(DEFAULT)");
    shmem_ctx_destroy(SHMEM_CTX_INVALID);   /* no-op */
    shmem_ctx_session_start(SHMEM_CTX_INVALID, SHMEM_CTX_SESSION_BATCH, NULL, 0);
    shmem_ctx_session_stop(SHMEM_CTX_INVALID);
}

int main(void)
{
    shmem_init();
    check_world();
    check_shared();
    check_leaders();
    check_team_ptr_and_config();
    check_sync();
    check_invalid();
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        printf("team_predefined: %d PEs ok\n", shmem_n_pes());
    shmem_finalize();
    return 0;
}
