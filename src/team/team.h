/* Teams: an ordered set of world PEs, with a fast path for (start, stride,
 * size) triplets, and slots of the symmetric pSync pool that every member
 * agreed on at creation. */
#ifndef SHOAL_TEAM_H
#define SHOAL_TEAM_H

#include "../core/shoal.h"
#include "../coll/coll_scratch.h"    /* SHOAL_COLL_SCRATCH_BYTES (collectives' own layout) */
#include "../sync/split_scratch.h"   /* SHOAL_SPLIT_SCRATCH_BYTES (split-phase barrier's) */

enum { SHOAL_PSYNC_ROUNDS = 32 };    /* dissemination rounds: enough for 2^32 PEs */
enum { SHOAL_PSYNC_PER_TEAM = 2 };   /* slots per team, so back-to-back collectives need no barrier */

/* One slot of the pSync pool: symmetric scratch at the same offset on every
 * PE.  Flags are written with per-team epochs that only grow, so a slot is
 * never reset. */
struct shoal_psync {
    uint64_t barrier[SHOAL_PSYNC_ROUNDS];
    uint64_t arrive;      /* shared-memory barrier: arrivals counter (on the team's first PE) */
    uint64_t release;     /* shared-memory barrier: epoch released (on the team's first PE) */
    _Alignas(64) char coll[SHOAL_COLL_SCRATCH_BYTES];
    _Alignas(64) char split[SHOAL_SPLIT_SCRATCH_BYTES];
};

struct shoal_team {
    int my_pe;              /* my index in the team; -1 when not a member */
    int n_pes;
    int start, stride;      /* member i is start + i*stride when members == NULL */
    int *members;           /* world PE of member i, for teams that are not triplets */
    bool all_local;         /* every member is load/store reachable from here */
    struct shoal_psync *psync;   /* SHOAL_PSYNC_PER_TEAM consecutive slots */
    uint64_t barrier_epoch; /* barriers completed on this team, by this PE */
    int num_contexts;
    void *coll_state;       /* collectives' private per-team state */
    void *split_state;      /* split-phase barrier's private per-team state */
};

extern struct shoal_team shoal_team_world;

/* World PE of member i. */
SHOAL_INLINE int shoal_team_pe(const struct shoal_team *t, int i)
{
    return t->members ? t->members[i] : t->start + i * t->stride;
}

/* Bytes of internal symmetric memory the team layer needs (pSync pool). */
size_t shoal_teams_internal_bytes(void);
void shoal_teams_init(void);
void shoal_teams_fini(void);

#endif
