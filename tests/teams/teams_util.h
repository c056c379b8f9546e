/* What the team tests share: an independent model of a team (its world PEs
 * in order, computed without the library), comparison of a team handle
 * against that model, and "same on every PE" checks built on put + barrier. */
#ifndef TEAMS_UTIL_H
#define TEAMS_UTIL_H

#include <shmem.h>
#include <shmemx.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MAX_PES 64

/* A team as the test expects it: world PEs of members 0..n-1. */
struct model {
    int n;
    int world[MAX_PES];
};

static inline void model_triplet(struct model *m, int start, int stride, int size)
{
    m->n = size;
    for (int i = 0; i < size; i++)
        m->world[i] = start + i * stride;
}

static inline int model_index(const struct model *m, int world_pe)
{
    for (int i = 0; i < m->n; i++)
        if (m->world[i] == world_pe)
            return i;
    return -1;
}

/* team must be exactly the model, as seen from this PE (which is a member). */
static inline void check_team(shmem_team_t team, const struct model *m, const char *what)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    CHECK(team != SHMEM_TEAM_INVALID, "%s: got SHMEM_TEAM_INVALID, want a team of %d", what, m->n);
    CHECK(shmem_team_n_pes(team) == m->n, "%s: n_pes %d, want %d", what, shmem_team_n_pes(team), m->n);
    CHECK(shmem_team_my_pe(team) == model_index(m, me), "%s: my_pe %d, want %d", what,
          shmem_team_my_pe(team), model_index(m, me));
    for (int i = 0; i < m->n; i++) {
        int w = shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD);
        CHECK(w == m->world[i], "%s: member %d is world PE %d, want %d", what, i, w, m->world[i]);
    }
    for (int w = 0; w < npes; w++) {
        int i = shmem_team_translate_pe(SHMEM_TEAM_WORLD, w, team);
        CHECK(i == model_index(m, w), "%s: world PE %d is member %d, want %d", what, w, i, model_index(m, w));
    }
    CHECK(shmem_team_translate_pe(team, -1, SHMEM_TEAM_WORLD) == -1, "%s: translate of -1", what);
    CHECK(shmem_team_translate_pe(team, m->n, SHMEM_TEAM_WORLD) == -1, "%s: translate of n_pes", what);
}

/* Every PE's value of v lands in vals[] on every PE. */
static long util_gather_buf[MAX_PES];
static inline void gather_all(long v, long *vals)
{
    int npes = shmem_n_pes(), me = shmem_my_pe();
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++)
        shmem_long_p(&util_gather_buf[me], v, pe);
    shmem_barrier_all();
    memcpy(vals, util_gather_buf, npes * sizeof *vals);
    shmem_barrier_all();
}

/* v must be the same on every PE (e.g. a split's return code). */
static inline void check_same_everywhere(long v, const char *what)
{
    long vals[MAX_PES];
    gather_all(v, vals);
    for (int pe = 0; pe < shmem_n_pes(); pe++)
        CHECK(vals[pe] == v, "%s: PE %d has %ld, I have %ld", what, pe, vals[pe], v);
}

#endif
