/* Team forms of the split barrier on teams made by shmem_team_split_strided.
 *
 * The world is split into even and odd PEs.  On my team, each round every
 * member adds 1 to an arrival counter on every member, quiets (team_sync
 * has no quiet of its own), starts the team's split barrier and tests it
 * until done; my counter must then hold exactly the team's size times the
 * rounds of that parity (see split_arrival.c).  Meanwhile a world split
 * barrier is pending too, so two barriers progress at once, and an invalid
 * team must be refused by all three calls.  The same rounds then run on
 * teams that are not (start, stride, size) triplets: colour me % 3, members
 * in reverse world order (shmemx_team_split_color), and on
 * SHMEM_TEAM_SHARED. */
#include <shmem.h>
#include <shmemx.h>

#include "check.h"

enum { ROUNDS = 30 };

static long arrivals[2];

static void check_invalid_team(void)
{
    CHECK(shmemx_team_sync_start(SHMEM_TEAM_INVALID) != 0, "start accepted SHMEM_TEAM_INVALID");
    CHECK(shmemx_team_sync_test(SHMEM_TEAM_INVALID) != 0, "test accepted SHMEM_TEAM_INVALID");
    CHECK(shmemx_team_sync_wait(SHMEM_TEAM_INVALID) != 0, "wait accepted SHMEM_TEAM_INVALID");
}

static void team_round(shmem_team_t team, int r)
{
    int size = shmem_team_n_pes(team);
    for (int i = 0; i < size; i++)
        shmem_long_atomic_inc(&arrivals[r & 1], shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD));
    shmem_quiet();
    if (r % 4 == 0)
        shmemx_barrier_all_start();   /* a world barrier pending alongside */
    CHECK(shmemx_team_sync_start(team) == 0, "round %d: team start failed", r);
    if (r % 2)
        CHECK(shmemx_team_sync_wait(team) == 0, "round %d: team wait failed", r);
    else
        while (shmemx_team_sync_test(team) != 1)
            ;
    long want = (long)size * (r / 2 + 1);
    CHECK(arrivals[r & 1] == want, "round %d: %ld arrivals on my team of %d, want %ld", r, arrivals[r & 1],
          size, want);
    if (r % 4 == 0)
        shmemx_barrier_all_wait();
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_team_t even = SHMEM_TEAM_INVALID, odd = SHMEM_TEAM_INVALID;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &even) == 0, "even split");
    if (n > 1)
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd) == 0, "odd split");
    shmem_team_t mine = me % 2 ? odd : even;
    CHECK(mine != SHMEM_TEAM_INVALID, "PE %d got no team", me);
    check_invalid_team();
    for (int r = 0; r < ROUNDS; r++)
        team_round(mine, r);
    shmem_barrier_all();
    /* Fresh counters for the next team: nobody adds to them until all are here. */
    arrivals[0] = arrivals[1] = 0;
    shmem_barrier_all();
    shmem_team_t colour;
    CHECK(shmemx_team_split_color(SHMEM_TEAM_WORLD, me % 3, -me, NULL, 0, &colour) == 0, "colour split");
    CHECK(shmem_team_my_pe(colour) == shmem_team_n_pes(colour) - 1 - me / 3, "colour team order: I am %d of %d",
          shmem_team_my_pe(colour), shmem_team_n_pes(colour));
    for (int r = 0; r < ROUNDS; r++)
        team_round(colour, r);
    shmem_barrier_all();
    arrivals[0] = arrivals[1] = 0;
    shmem_barrier_all();
    for (int r = 0; r < ROUNDS; r++)
        team_round(SHMEM_TEAM_SHARED, r);
    shmem_barrier_all();
    /* The world team through the team form. */
    CHECK(shmemx_team_sync_start(SHMEM_TEAM_WORLD) == 0, "world team start");
    CHECK(shmemx_team_sync_wait(SHMEM_TEAM_WORLD) == 0, "world team wait");
    shmem_barrier_all();
    if (me == 0)
        printf("split_team: %d rounds on even/odd, colour and shared teams of %d PEs ok\n", ROUNDS, n);
    shmem_team_destroy(colour);
    shmem_team_destroy(mine);
    shmem_finalize();
    return 0;
}
