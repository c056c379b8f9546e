/* shmem_team_split_strided: the paper's triplet example (3,2,4) -> {3,5,7,9},
 * PEs outside the new team, negative strides, stride 0, invalid triplets
 * failing identically on every PE, nested splits, translate_pe between
 * sibling teams, team_sync, team_ptr and RMA/AMO through team contexts with
 * team-relative PE numbers. */
#include "teams_util.h"

static long inbox[MAX_PES];
static long counter;

/* Split WORLD by a triplet; check the result against the model on every
 * PE (members and non-members) and the return code everywhere. */
static shmem_team_t split_world(int start, int stride, int size, int num_contexts, struct model *m)
{
    shmem_team_config_t cfg = {.num_contexts = num_contexts};
    shmem_team_t t = SHMEM_TEAM_WORLD;
    int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, &cfg,
                                      num_contexts ? SHMEM_TEAM_NUM_CONTEXTS : 0, &t);
    CHECK(rc == 0, "split (%d,%d,%d) returned %d", start, stride, size, rc);
    check_same_everywhere(rc, "split return code");
    model_triplet(m, start, stride, size);
    if (model_index(m, shmem_my_pe()) < 0)
        CHECK(t == SHMEM_TEAM_INVALID, "non-member got a team from (%d,%d,%d)", start, stride, size);
    else
        check_team(t, m, "strided split");
    return t;
}

/* A split that must fail: nonzero and INVALID on every PE. */
static void split_must_fail(shmem_team_t parent, int start, int stride, int size)
{
    shmem_team_t t = SHMEM_TEAM_WORLD;
    int rc = shmem_team_split_strided(parent, start, stride, size, NULL, 0, &t);
    CHECK(rc != 0 && t == SHMEM_TEAM_INVALID, "invalid triplet (%d,%d,%d) gave rc %d", start, stride, size, rc);
    check_same_everywhere(rc != 0, "failure on every PE");
}

/* Each member puts its world PE to the next member through a context of
 * the team (team-relative PE numbers) and adds 1 to member 0's counter. */
static void ring_through_ctx(shmem_team_t team, const struct model *m)
{
    shmem_ctx_t ctx;
    int me = shmem_team_my_pe(team), n = m->n;
    CHECK(shmem_team_create_ctx(team, 0, &ctx) == 0, "team_create_ctx with num_contexts 1");
    shmem_team_t back;
    CHECK(shmem_ctx_get_team(ctx, &back) == 0 && back == team, "ctx_get_team");
    shmem_ctx_t extra;   /* num_contexts is a hint: a second context works too */
    CHECK(shmem_team_create_ctx(team, 0, &extra) == 0 && extra != SHMEM_CTX_INVALID,
          "a second context on a team configured for 1");
    shmem_ctx_destroy(extra);
    long before = counter;
    shmem_team_sync(team);
    shmem_ctx_long_p(ctx, &inbox[0], shmem_my_pe(), (me + 1) % n);
    shmem_ctx_long_atomic_add(ctx, &counter, 1, 0);
    shmem_ctx_quiet(ctx);
    shmem_team_sync(team);
    CHECK_EQ_LONG(inbox[0], m->world[(me + n - 1) % n]);
    inbox[0] = -1;   /* the next ring writes after the next team_sync, so this cannot hide it */
    if (me == 0)
        CHECK_EQ_LONG(counter - before, n);
    for (int i = 0; i < n; i++)
        CHECK(shmem_team_ptr(team, inbox, i) == shmem_ptr(inbox, m->world[i]), "team_ptr member %d", i);
    shmem_team_sync(team);
    shmem_ctx_destroy(ctx);
    CHECK(shmem_team_create_ctx(team, SHMEM_CTX_PRIVATE, &ctx) == 0, "context after destroying the first");
    shmem_ctx_destroy(ctx);
}

static void paper_example(void)
{
    if (shmem_n_pes() < 10)
        return;
    struct model m;
    shmem_team_t t = split_world(3, 2, 4, 0, &m);
    int want[] = {3, 5, 7, 9};
    for (int i = 0; i < 4; i++)
        CHECK(m.world[i] == want[i], "model");
    shmem_team_destroy(t);
}

static void outside_negative_zero(void)
{
    int n = shmem_n_pes();
    struct model m;
    shmem_team_t t;
    /* everyone but PE 0 */
    if (n > 1) {
        t = split_world(1, 1, n - 1, 1, &m);
        if (t != SHMEM_TEAM_INVALID)
            ring_through_ctx(t, &m);
        shmem_team_destroy(t);
    }
    /* reversed world */
    t = split_world(n - 1, -1, n, 1, &m);
    CHECK(shmem_team_my_pe(t) == n - 1 - shmem_my_pe(), "reversed order");
    ring_through_ctx(t, &m);
    shmem_team_destroy(t);
    /* odd PEs from the top, negative stride 2 */
    int top = (n - 1) % 2 ? n - 1 : n - 2;
    if (top >= 1) {
        t = split_world(top, -2, (top + 1) / 2, 1, &m);
        if (t != SHMEM_TEAM_INVALID)
            ring_through_ctx(t, &m);
        shmem_team_destroy(t);
    }
    /* stride 0, size 1: the last PE alone */
    t = split_world(n - 1, 0, 1, 0, &m);
    shmem_team_destroy(t);
    /* even PEs */
    t = split_world(0, 2, (n + 1) / 2, 1, &m);
    if (t != SHMEM_TEAM_INVALID)
        ring_through_ctx(t, &m);
    shmem_team_destroy(t);
}

static void invalid_triplets(void)
{
    int n = shmem_n_pes();
    split_must_fail(SHMEM_TEAM_WORLD, 0, 1, 0);        /* size 0 */
    split_must_fail(SHMEM_TEAM_WORLD, 0, 1, n + 1);    /* past the end */
    split_must_fail(SHMEM_TEAM_WORLD, -1, 1, 1);       /* start below 0 */
    split_must_fail(SHMEM_TEAM_WORLD, n, 1, 1);        /* start past the end */
    split_must_fail(SHMEM_TEAM_WORLD, 0, -1, 2);       /* would wrap below 0 */
    if (n > 1)
        split_must_fail(SHMEM_TEAM_WORLD, 0, 0, 2);    /* stride 0 with size 2 */
}

/* Nested: evens of WORLD, then every other member of that (world 0,4,8..),
 * then that team reversed; translate between the levels and sideways. */
static void nested(void)
{
    int n = shmem_n_pes();
    struct model evens, quarter, rev;
    shmem_team_t a = split_world(0, 2, (n + 1) / 2, 0, &evens);
    shmem_team_t b = SHMEM_TEAM_INVALID, c = SHMEM_TEAM_INVALID;
    int na = (n + 1) / 2;
    model_triplet(&quarter, 0, 4, (na + 1) / 2);
    if (a != SHMEM_TEAM_INVALID) {
        shmem_team_config_t cfg = {.num_contexts = 1};
        CHECK(shmem_team_split_strided(a, 0, 2, (na + 1) / 2, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &b) == 0, "nested");
        if (shmem_my_pe() % 4 == 0)
            check_team(b, &quarter, "nested quarter");
        else
            CHECK(b == SHMEM_TEAM_INVALID, "nested non-member");
    }
    if (b != SHMEM_TEAM_INVALID) {
        int nb = shmem_team_n_pes(b);
        CHECK(shmem_team_split_strided(b, nb - 1, -1, nb, NULL, 0, &c) == 0, "nested reversed");
        rev.n = nb;
        for (int i = 0; i < nb; i++)
            rev.world[i] = quarter.world[nb - 1 - i];
        check_team(c, &rev, "nested reversed");
        for (int i = 0; i < nb; i++) {
            CHECK(shmem_team_translate_pe(c, i, b) == nb - 1 - i, "c -> b");
            CHECK(shmem_team_translate_pe(c, i, a) == 2 * (nb - 1 - i), "c -> a");
            CHECK(shmem_team_translate_pe(b, i, c) == nb - 1 - i, "b -> c");
        }
        for (int i = 0; i < na; i++)
            CHECK(shmem_team_translate_pe(a, i, b) == (i % 2 ? -1 : i / 2), "a -> b (odd members are outside)");
        ring_through_ctx(b, &quarter);
    }
    shmem_team_destroy(c);
    shmem_team_destroy(b);
    shmem_team_destroy(a);
}

/* Two overlapping siblings: evens and the upper half; translate sideways. */
static void siblings(void)
{
    int n = shmem_n_pes();
    struct model evens, upper;
    shmem_team_t a = split_world(0, 2, (n + 1) / 2, 0, &evens);
    shmem_team_t b = split_world(n / 2, 1, n - n / 2, 0, &upper);
    if (a != SHMEM_TEAM_INVALID && b != SHMEM_TEAM_INVALID)
        for (int i = 0; i < evens.n; i++)
            CHECK(shmem_team_translate_pe(a, i, b) == model_index(&upper, evens.world[i]), "evens -> upper %d", i);
    shmem_team_destroy(b);
    shmem_team_destroy(a);
}

int main(void)
{
    shmem_init();
    if (shmem_n_pes() > MAX_PES)
        shmem_global_exit(2);
    paper_example();
    outside_negative_zero();
    invalid_triplets();
    nested();
    siblings();
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        printf("team_split: %d PEs ok\n", shmem_n_pes());
    shmem_finalize();
    return 0;
}
