/* Split-phase barrier: a PE announces its arrival (start), keeps working,
 * and learns later (test/wait) that every member of the team has arrived.
 *
 * One algorithm per file, all non-blocking state machines that advance only
 * as far as the flags already delivered allow:
 *   split_barrier_put.c  dissemination, 64-bit puts into a double-buffered area
 *   split_barrier_amo.c  dissemination, atomic adds (the seed paper's AMO baseline)
 *   split_barrier_shm.c  one arrival counter, for teams whose members share memory
 * split_barrier.c owns the per-team state, the choice (SHOAL_SPLIT_BARRIER)
 * and progress: a pending barrier also advances inside every Shoal wait. */
#ifndef SHOAL_SPLIT_BARRIER_H
#define SHOAL_SPLIT_BARRIER_H

#include "../team/team.h"

/* This PE's part of a team's pSync slot reserved for split barriers (a team
 * extension, split_barrier.c).  Same offset on every member. */
struct shoal_split_area {
    uint64_t put[SHOAL_PSYNC_ROUNDS];   /* put variant: round flags, one buffer per slot */
    uint64_t amo[SHOAL_PSYNC_ROUNDS];   /* amo variant: round arrival counts (slot 0 only) */
    uint64_t arrive;                    /* shm variant: arrivals (slot 0 of the team's first PE) */
    uint64_t release;                   /* shm variant: last barrier completed there */
};
extern int shoal_split_team_ext;   /* the split barrier's extension id */

struct shoal_split_state;

/* One algorithm.  arrive signals this PE's arrival at barrier s->epoch;
 * advance consumes whatever has been delivered and returns true once the
 * barrier is complete.  Neither ever waits. */
struct shoal_split_algo {
    const char *name;
    void (*arrive)(struct shoal_split_state *s);
    bool (*advance)(struct shoal_split_state *s);
};

extern const struct shoal_split_algo shoal_split_put;
extern const struct shoal_split_algo shoal_split_amo;
extern const struct shoal_split_algo shoal_split_shm;

/* Per-team private state (the extension's state of the team), created at
 * the team's first split barrier. */
struct shoal_split_state {
    struct shoal_team *team;
    const struct shoal_split_algo *algo;
    uint64_t epoch;          /* split barriers this PE started on the team; only grows */
    int round;               /* dissemination: round whose incoming signal comes next */
    int n_rounds;            /* ceil(log2 n_pes) */
    bool pending;            /* started and not yet complete */
    bool unreported;         /* started, and no test/wait has told the caller it completed */
    unsigned failed_polls;   /* user's tests in a row that said "not yet" */
    struct shoal_split_state *prev, *next;   /* list of pending barriers */
};

/* The split area of this PE in slot `slot` of team t. */
SHOAL_INLINE struct shoal_split_area *shoal_split_area_of(struct shoal_team *t, int slot)
{
    return shoal_team_ext_area(t, shoal_split_team_ext, slot);
}

/* Member (me + d) mod n as a world PE, the partner a dissemination round signals. */
SHOAL_INLINE int shoal_split_partner(const struct shoal_split_state *s, int d)
{
    const struct shoal_team *t = s->team;
    return shoal_team_pe(t, (int)(((long)t->my_pe + d) % t->n_pes));
}

/* Entry points for the API layer.  t is valid and I am a member; routine
 * names the user's call in error messages.  No quiet here: the caller adds
 * it for barrier_all semantics. */
void shoal_split_start(struct shoal_team *t, const char *routine);
bool shoal_split_test(struct shoal_team *t);   /* true when no barrier is pending on t */
/* The user's test: shoal_split_test, and when the answer keeps being no
 * (at once on a host with more PEs than cores), yield: a caller polling in
 * a loop would otherwise hold the core that a PE we wait for needs. */
bool shoal_split_poll(struct shoal_team *t);
void shoal_split_wait(struct shoal_team *t);

/* The algorithm SHOAL_SPLIT_BARRIER chooses for team t (routine: for the error). */
const struct shoal_split_algo *shoal_split_choose(const struct shoal_team *t, const char *routine);


#endif
