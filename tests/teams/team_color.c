/* shmemx_team_split_color: teams of PEs passing the same colour, ordered by
 * key then parent rank, usually not triplets; every other routine must
 * accept them: translate_pe, team_ptr, team_sync, strided and colour splits
 * of them, RMA and AMO through their contexts with team-relative PEs. */
#include "teams_util.h"

static long inbox[MAX_PES];
static long hits;

/* The colouring under test: colour by (pe*pe + pe/3) mod k, so classes are
 * scattered; keys scramble the order; PE n-1 (when n > 2) takes no colour. */
static int colour_of(int pe, int n, int k)
{
    if (n > 2 && pe == n - 1)
        return SHMEMX_COLOR_UNDEFINED;
    return (pe * pe + pe / 3) % k;
}
static int key_of(int pe) { return (pe * 7) % 5 - 2; }   /* repeats: ties go by parent rank */

/* Expected team of world PE me: same colour, sorted by (key, pe). */
static void expect(struct model *m, int me, int n, int k)
{
    m->n = 0;
    if (colour_of(me, n, k) < 0)
        return;
    for (int pe = 0; pe < n; pe++)
        if (colour_of(pe, n, k) == colour_of(me, n, k))
            m->world[m->n++] = pe;
    for (int i = 1; i < m->n; i++)      /* insertion sort by (key, pe) */
        for (int j = i; j > 0; j--) {
            int a = m->world[j - 1], b = m->world[j];
            if (key_of(a) < key_of(b) || (key_of(a) == key_of(b) && a < b))
                break;
            m->world[j - 1] = b;
            m->world[j] = a;
        }
}

/* Members pass world PEs around the team through a team context and count
 * themselves on member 0 with an AMO. */
static void use_team(shmem_team_t t, const struct model *m)
{
    shmem_ctx_t ctx;
    int me = shmem_team_my_pe(t), n = m->n;
    CHECK(shmem_team_create_ctx(t, SHMEM_CTX_SERIALIZED, &ctx) == 0, "context on a colour team");
    long before = hits;
    shmem_team_sync(t);
    shmem_ctx_long_put(ctx, &inbox[1], (long[]){shmem_my_pe()}, 1, (me + 1) % n);
    shmem_ctx_long_atomic_inc(ctx, &hits, 0);
    shmem_ctx_quiet(ctx);
    shmem_team_sync(t);
    CHECK_EQ_LONG(inbox[1], m->world[(me + n - 1) % n]);
    inbox[1] = -1;
    if (me == 0)
        CHECK_EQ_LONG(hits - before, n);
    long got = shmem_ctx_long_g(ctx, &inbox[2], (me + 1) % n);
    CHECK_EQ_LONG(got, 1000 + m->world[(me + 1) % n]);
    for (int i = 0; i < n; i++)
        CHECK(shmem_team_ptr(t, inbox, i) == shmem_ptr(inbox, m->world[i]), "team_ptr %d", i);
    /* collectives over a team that is no triplet */
    static long src, sum, root_val;
    long want = 0;
    for (int i = 0; i < n; i++)
        want += m->world[i];
    src = shmem_my_pe();
    CHECK(shmem_long_sum_reduce(t, &sum, &src, 1) == 0, "sum_reduce");
    CHECK_EQ_LONG(sum, want);
    CHECK(shmem_long_broadcast(t, &root_val, &src, 1, n - 1) == 0, "broadcast");
    CHECK_EQ_LONG(root_val, m->world[n - 1]);
    shmem_team_sync(t);
    shmem_ctx_destroy(ctx);
}

static void colour_round(int k)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    struct model m;
    expect(&m, me, n, k);
    shmem_team_config_t cfg = {.num_contexts = 2};
    shmem_team_t t = SHMEM_TEAM_WORLD;
    int rc = shmemx_team_split_color(SHMEM_TEAM_WORLD, colour_of(me, n, k), key_of(me), &cfg,
                                     SHMEM_TEAM_NUM_CONTEXTS, &t);
    CHECK(rc == 0, "split_color k=%d rc %d", k, rc);
    check_same_everywhere(rc, "colour split rc");
    if (m.n == 0) {
        CHECK(t == SHMEM_TEAM_INVALID, "undefined colour must give SHMEM_TEAM_INVALID");
        return;
    }
    check_team(t, &m, "colour team");
    shmem_team_config_t got = {0};
    CHECK(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 && got.num_contexts == 2, "config");
    use_team(t, &m);

    /* strided split of the colour team: its odd members, reversed */
    int tn = m.n, top = tn % 2 ? tn - 2 : tn - 1;
    if (top >= 1) {
        shmem_team_t s;
        CHECK(shmem_team_split_strided(t, top, -2, (top + 1) / 2, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &s) == 0,
              "strided split of a colour team");
        int mine = shmem_team_my_pe(t);
        if (mine % 2 == 1) {
            struct model sm = {0};
            for (int i = top; i >= 1; i -= 2)
                sm.world[sm.n++] = m.world[i];
            check_team(s, &sm, "strided child of a colour team");
            CHECK(shmem_team_translate_pe(s, 0, t) == top, "child -> colour team");
            use_team(s, &sm);
        } else {
            CHECK(s == SHMEM_TEAM_INVALID, "even members are outside");
        }
        shmem_team_destroy(s);
    }
    /* colour split of the colour team: members by index parity, keyed in reverse */
    shmem_team_t c;
    int mine = shmem_team_my_pe(t);
    CHECK(shmemx_team_split_color(t, mine % 2, -mine, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &c) == 0, "nested colour");
    struct model cm = {0};
    for (int i = tn - 1; i >= 0; i--)
        if (i % 2 == mine % 2)
            cm.world[cm.n++] = m.world[i];
    check_team(c, &cm, "colour child of a colour team");
    use_team(c, &cm);
    shmem_team_destroy(c);
    shmem_team_destroy(t);
}

/* Everyone the same colour, all keys equal: the parent's order. */
static void one_colour(void)
{
    shmem_team_t t;
    struct model m;
    model_triplet(&m, 0, 1, shmem_n_pes());
    CHECK(shmemx_team_split_color(SHMEM_TEAM_WORLD, 3, 0, NULL, 0, &t) == 0, "one colour");
    check_team(t, &m, "one colour = WORLD order");
    shmem_ctx_t ctx;
    CHECK(shmem_team_create_ctx(t, 0, &ctx) == 0 && ctx != SHMEM_CTX_INVALID,
          "default config (num_contexts 0, a hint) still gives a context");
    shmem_ctx_destroy(ctx);
    shmem_team_destroy(t);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    inbox[2] = 1000 + me;
    shmem_barrier_all();
    one_colour();
    for (int k = 1; k <= 4; k++)
        colour_round(k);
    for (int rep = 0; rep < 50; rep++)   /* many back-to-back colour splits reuse the exchange */
        colour_round(2 + rep % 3);
    shmem_barrier_all();
    if (me == 0)
        printf("team_color: %d PEs ok\n", shmem_n_pes());
    shmem_finalize();
    return 0;
}
