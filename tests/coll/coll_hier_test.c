/* Barrier, broadcast, collect and fcollect as the hierarchical algorithms
 * see them: on WORLD, on strided teams and on a colour split in reversed
 * order (so a host's leader is not its lowest world PE), broadcasting from
 * every root (roots that are not leaders, on every host), collects with
 * uneven and zero sizes, and each kind of collective issued back to back on
 * the teams in turn with no synchronisation in between.  Each PE checks
 * every result against values it computes itself.  Meant for jobs that span
 * hosts (tests/multihost, host_map.sh, SHOAL_COLL_FAKE_HOSTS); correct on
 * one host as well.
 *   coll_hier_test [ROUNDS]   (default 2) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>
#include <shmemx.h>

#include "check.h"
#include "coll_bytes.h"

enum { MAX_TEAMS = 4, MAX_PES = 64, BIG = 3000 };

static unsigned char *src, *dst;   /* symmetric */
static long *stamps[MAX_TEAMS];    /* barrier check: one word per member of each team, symmetric */

/* Nobody leaves the barrier before everyone has arrived: every member puts
 * its round number into my stamps (and quiets) before its barrier. */
static void check_barrier(const struct team *tm, long *stamp, long round)
{
    for (int j = 0; j < tm->n; j++)
        shmem_long_p(&stamp[tm->my], round, shmem_team_translate_pe(tm->t, j, SHMEM_TEAM_WORLD));
    shmem_quiet();
    CHECK(shmem_team_sync(tm->t) == 0, "team_sync");
    for (int j = 0; j < tm->n; j++) {
        long s = __atomic_load_n(&stamp[j], __ATOMIC_ACQUIRE);
        /* a member already past this barrier may have stamped the next round */
        CHECK(s == round || s == round + 1, "team %s: after barrier %ld, member %d has stamped %ld", tm->label,
              round, j, s);
    }
}

static int add_team(struct team *teams, int nt, shmem_team_t t, const char *label)
{
    teams[nt] = (struct team){.t = t, .label = label};
    if (t != SHMEM_TEAM_INVALID) {
        teams[nt].my = shmem_team_my_pe(t);
        teams[nt].n = shmem_team_n_pes(t);
    }
    stamps[nt] = shmem_calloc(MAX_PES, sizeof(long));   /* collective: every PE allocates */
    return nt + 1;
}

int main(int argc, char **argv)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes(), rounds = argc > 1 ? atoi(argv[1]) : 2;
    CHECK(npes <= MAX_PES, "at most %d PEs", MAX_PES);
    src = shmem_malloc(BIG * MAX_PES);
    dst = shmem_malloc(BIG * MAX_PES);
    struct team teams[MAX_TEAMS];
    int nt = add_team(teams, 0, SHMEM_TEAM_WORLD, "world");
    shmem_team_t t = SHMEM_TEAM_INVALID;
    if (npes >= 3)   /* all but PE 0: the first host loses its leader */
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, npes - 1, NULL, 0, &t);
    nt = add_team(teams, nt, t, "all-but-0");
    t = SHMEM_TEAM_INVALID;
    if (npes >= 2)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &t);
    nt = add_team(teams, nt, t, "evens");
    t = SHMEM_TEAM_INVALID;
    shmemx_team_split_color(SHMEM_TEAM_WORLD, me % 3 == 1, npes - me, NULL, 0, &t);   /* reversed order */
    nt = add_team(teams, nt, t, "colour");
    shmem_barrier_all();

    for (int r = 0; r < rounds; r++) {
        /* Each kind on every team in turn, back to back. */
        for (int i = 0; i < nt; i++)
            if (teams[i].t != SHMEM_TEAM_INVALID)
                check_barrier(&teams[i], stamps[i], r + 1);
        for (int root = 0; root < npes; root++)
            for (int i = 0; i < nt; i++)
                if (teams[i].t != SHMEM_TEAM_INVALID && root < teams[i].n) {
                    check_bcast(&teams[i], dst, src, 8, root, r + root);
                    check_bcast(&teams[i], dst, src, root % 2 ? BIG : 100, root, r + root + 1);
                }
        for (int i = 0; i < nt; i++)
            if (teams[i].t != SHMEM_TEAM_INVALID)
                check_fcollect(&teams[i], dst, src, 8, r + i);
        for (int i = 0; i < nt; i++)
            if (teams[i].t != SHMEM_TEAM_INVALID)
                check_fcollect(&teams[i], dst, src, BIG / 2 + 1, r + i);
        for (int s = 0; s < 3; s++)
            for (int i = 0; i < nt; i++)
                if (teams[i].t != SHMEM_TEAM_INVALID)
                    check_collect(&teams[i], dst, src, r * 3 + s + i);
        /* Mixed kinds alternating between two teams. */
        for (int k = 0; k < 4; k++) {
            const struct team *a = &teams[0], *b = &teams[nt - 1];
            check_fcollect(a, dst, src, 16, k);
            if (b->t != SHMEM_TEAM_INVALID)
                check_bcast(b, dst, src, 24, k % b->n, k);
            check_collect(a, dst, src, k);
            if (b->t != SHMEM_TEAM_INVALID)
                check_collect(b, dst, src, k + 1);
            check_bcast(a, dst, src, 40, (k * 5) % npes, k);
        }
    }
    shmem_barrier_all();
    if (me == 0)
        printf("coll_hier_test: %d PEs, %d teams, %d rounds: OK\n", npes, nt, rounds);
    shmem_finalize();
    return 0;
}
