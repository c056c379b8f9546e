/* shmem_team_split_2d: (x, y) = (pe mod xrange, pe / xrange), yrange =
 * ceil(N / xrange), xrange > N acting as N; at 22 PEs with xrange 5 the
 * paper's Fig. 1 teams exactly; 2-D splits of split teams (triplet and
 * colour-split parents); invalid xrange failing on every PE. */
#include "teams_util.h"

/* Fig. 1 of the teams paper, as (start, stride, size) triplets. */
static const int fig1_rows[5][3] = {{0, 1, 5}, {5, 1, 5}, {10, 1, 5}, {15, 1, 5}, {20, 1, 2}};
static const int fig1_cols[5][3] = {{0, 5, 5}, {1, 5, 5}, {2, 5, 4}, {3, 5, 4}, {4, 5, 4}};

static long slot;

static void check_fig1(shmem_team_t xt, shmem_team_t yt)
{
    int me = shmem_my_pe();
    const int *row = NULL, *col = NULL;
    for (int r = 0; r < 5; r++) {
        struct model m;
        model_triplet(&m, fig1_rows[r][0], fig1_rows[r][1], fig1_rows[r][2]);
        if (model_index(&m, me) >= 0) {
            CHECK(!row, "PE %d in two row teams of the figure", me);
            row = fig1_rows[r];
            check_team(xt, &m, "Fig. 1 row team");
        }
        model_triplet(&m, fig1_cols[r][0], fig1_cols[r][1], fig1_cols[r][2]);
        if (model_index(&m, me) >= 0) {
            CHECK(!col, "PE %d in two column teams of the figure", me);
            col = fig1_cols[r];
            check_team(yt, &m, "Fig. 1 column team");
        }
    }
    CHECK(row && col, "PE %d missing from the figure", me);
}

/* 2-D split of parent (whose members are world PEs pw[0..n-1]); checks both
 * teams against the rule and uses them: a ring put in each row, a team_sync
 * in each column. */
static void split_and_check(shmem_team_t parent, const struct model *pw, int xrange)
{
    int n = pw->n, p = shmem_team_my_pe(parent);
    int xr = xrange > n ? n : xrange, x = p % xr, y = p / xr;
    shmem_team_t xt = SHMEM_TEAM_INVALID, yt = SHMEM_TEAM_INVALID;
    int rc = shmem_team_split_2d(parent, xrange, NULL, 0, &xt, NULL, 0, &yt);
    CHECK(rc == 0, "split_2d xrange %d over %d PEs: rc %d", xrange, n, rc);
    struct model row = {0}, col = {0};
    for (int q = y * xr; q < n && q < (y + 1) * xr; q++)
        row.world[row.n++] = pw->world[q];
    for (int q = x; q < n; q += xr)
        col.world[col.n++] = pw->world[q];
    check_team(xt, &row, "x-axis team");
    check_team(yt, &col, "y-axis team");
    CHECK(shmem_team_my_pe(xt) == x && shmem_team_my_pe(yt) == y, "my_pe are the coordinates");
    CHECK(shmem_team_n_pes(yt) == (n - x + xr - 1) / xr, "column length");
    if (n == 22 && xrange == 5 && pw->world[0] == 0 && pw->world[21] == 21)
        check_fig1(xt, yt);
    /* use them: the row passes its members' world PEs around */
    slot = -1;
    shmem_team_sync(xt);
    shmem_long_p(&slot, shmem_my_pe(), shmem_team_translate_pe(xt, (x + 1) % row.n, SHMEM_TEAM_WORLD));
    shmem_quiet();
    shmem_team_sync(xt);
    CHECK_EQ_LONG(slot, row.world[(x + row.n - 1) % row.n]);
    shmem_team_sync(yt);
    shmem_team_destroy(xt);
    shmem_team_destroy(yt);
}

static void check_invalid_xrange(void)
{
    shmem_team_t xt = SHMEM_TEAM_WORLD, yt = SHMEM_TEAM_WORLD;
    int rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, NULL, 0, &xt, NULL, 0, &yt);
    CHECK(rc != 0 && xt == SHMEM_TEAM_INVALID && yt == SHMEM_TEAM_INVALID, "xrange 0 must fail");
    check_same_everywhere(rc != 0, "xrange 0 fails everywhere");
}

int main(void)
{
    shmem_init();
    int n = shmem_n_pes(), me = shmem_my_pe();
    struct model world;
    model_triplet(&world, 0, 1, n);
    int xranges[] = {1, 2, 3, 5, n, n + 3};
    for (size_t i = 0; i < sizeof xranges / sizeof *xranges; i++)
        split_and_check(SHMEM_TEAM_WORLD, &world, xranges[i]);
    check_invalid_xrange();

    /* parent = odd PEs reversed (a triplet with negative stride) */
    if (n >= 2) {
        int top = n % 2 ? n - 2 : n - 1;
        struct model odd;
        model_triplet(&odd, top, -2, (top + 1) / 2);
        shmem_team_t t;
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, top, -2, odd.n, NULL, 0, &t) == 0, "odd split");
        if (t != SHMEM_TEAM_INVALID)
            for (int xr = 1; xr <= odd.n + 1; xr++)
                split_and_check(t, &odd, xr);
        shmem_team_destroy(t);
    }
    /* parent = a colour-split team that is no triplet: PEs with pe % 3 != 1 */
    {
        struct model m = {0};
        for (int pe = 0; pe < n; pe++)
            if (pe % 3 != 1)
                m.world[m.n++] = pe;
        shmem_team_t t;
        CHECK(shmemx_team_split_color(SHMEM_TEAM_WORLD, me % 3 != 1 ? 7 : SHMEMX_COLOR_UNDEFINED, me, NULL, 0,
                                      &t) == 0, "colour split");
        if (me % 3 != 1) {
            check_team(t, &m, "colour parent");
            for (int xr = 1; xr <= 4; xr++)
                split_and_check(t, &m, xr);
        } else {
            CHECK(t == SHMEM_TEAM_INVALID, "undefined colour gets no team");
        }
        shmem_team_destroy(t);
    }
    shmem_barrier_all();
    if (me == 0)
        printf("team_2d: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}
