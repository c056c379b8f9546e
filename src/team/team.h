/* Teams: an ordered set of world PEs, with a fast path for (start, stride,
 * size) triplets, and a block of the symmetric pSync pool that every member
 * agreed on at creation.
 *
 * The pool (pool.c) is an array of blocks in internal symmetric memory, one
 * block per team that may exist at once: SHOAL_PSYNC_PER_TEAM pSync slots
 * followed by the scratch of the block agreement (block_agree.c).  A slot
 * holds the areas of the team extensions (team_ext.c): the layers above
 * (collectives, split-phase barriers) keep their per-team symmetric scratch
 * and private state there without this layer knowing them.  Blocks 0..3
 * belong to the predefined teams; the other SHMEM_TEAMS_MAX blocks are handed
 * out at creation by an OR-reduction of the members' busy bits (block_agree.c). */
#ifndef SHOAL_TEAM_H
#define SHOAL_TEAM_H

#include "../core/shoal.h"

enum { SHOAL_PSYNC_ROUNDS = 32 };    /* dissemination rounds: enough for 2^32 PEs */

/* psync slots per team, so back-to-back collectives need no barrier.
 * A build may raise it: -DSHOAL_PSYNC_PER_TEAM=4. */
#ifndef SHOAL_PSYNC_PER_TEAM
#define SHOAL_PSYNC_PER_TEAM 2
#endif

/* ---- extensions (team_ext.c) ----
 * A layer above registers one before shmem_init lays out the pool (from a
 * constructor: every PE runs the same program, so the layout is the same on
 * every PE).  Its area in each pSync slot is at the same offset on every
 * member; flags written there with per-team epochs or counts need no reset
 * while the team lives, and must read zero when the next team gets the
 * block. */
enum { SHOAL_TEAM_EXT_MAX = 4 };
struct shoal_team_ext {
    const char *name;
    size_t bytes;                          /* symmetric scratch in each pSync slot */
    /* Team destroy, after the last barrier (nobody writes into the block any
     * more): zero what the team used of this PE's areas.  NULL: the team
     * layer zeroes all bytes of every slot. */
    void (*clear)(struct shoal_team *t);
    void (*team_fini)(struct shoal_team *t);   /* free the private state; destroy and finalize */
};
/* Returns the extension's id (its index in ext_state and the layout). */
int shoal_team_ext_register(const struct shoal_team_ext *ext);

/* Layout of a pSync slot: where each extension's area starts, and the
 * distance from one slot to the next. */
extern size_t shoal_team_ext_offset[SHOAL_TEAM_EXT_MAX];
extern size_t shoal_team_slot_bytes;

/* Pool blocks of the predefined teams; user teams get the blocks after them. */
enum {
    SHOAL_BLOCK_WORLD, SHOAL_BLOCK_SHARED, SHOAL_BLOCK_HOST, SHOAL_BLOCK_LEADERS,
    SHOAL_BLOCKS_PREDEFINED
};

/* Member lookup of a non-triplet team: (world PE, index) sorted by world PE. */
struct shoal_team_rank {
    int world, index;
};

struct shoal_team {
    int my_pe;              /* my index in the team; -1 when not a member */
    int n_pes;
    int start, stride;      /* member i is start + i*stride when members == NULL */
    int *members;           /* world PE of member i, for teams that are not triplets */
    bool all_local;         /* every member is load/store reachable from here */
    char *psync;            /* SHOAL_PSYNC_PER_TEAM consecutive slots (shoal_team_slot_bytes each) */
    uint64_t barrier_epoch; /* barriers completed on this team, by this PE */
    int num_contexts;       /* contexts the creator expects to use (a hint; INT_MAX: predefined teams) */
    void *ext_state[SHOAL_TEAM_EXT_MAX];   /* each extension's private per-team state */

    /* Team layer's own. */
    int block;              /* pool block; the same on every member */
    bool predefined;        /* WORLD, SHARED, HOST, LEADERS: the user never destroys these */
    uint64_t agree_epoch;   /* block agreements run with this team as parent; only grows */
    struct shoal_team_rank *by_world;   /* non-triplet teams: sorted lookup for translate */
    int ctx_lock;           /* guards the context list (a spin lock: held for a few stores) */
    int n_ctx, ctx_cap;
    struct shoal_ctx **ctx; /* contexts created on this team and not yet destroyed */
    struct shoal_team *live_next, *live_prev;   /* user teams alive on this PE */
};

/* The predefined teams.  SHARED and HOST hold every PE of my host (a
 * different object, and a different membership, on each host); LEADERS holds
 * the lowest world PE of every host and its handle is NULL on other PEs. */
extern struct shoal_team shoal_team_world;
extern struct shoal_team shoal_team_shared;
extern struct shoal_team shoal_team_host;
extern struct shoal_team *shoal_team_leaders_handle;

/* World PE of member i. */
SHOAL_INLINE int shoal_team_pe(const struct shoal_team *t, int i)
{
    return t->members ? t->members[i] : t->start + i * t->stride;
}

/* This PE's area of extension ext in pSync slot slot of t. */
SHOAL_INLINE void *shoal_team_ext_area(const struct shoal_team *t, int ext, int slot)
{
    return t->psync + (size_t)slot * shoal_team_slot_bytes + shoal_team_ext_offset[ext];
}

int shoal_team_index_of_slow(const struct shoal_team *t, int world_pe);

/* Index in t of world PE world_pe, or -1 when it is not a member. */
SHOAL_INLINE int shoal_team_index_of(const struct shoal_team *t, int world_pe)
{
    if (t->members)
        return shoal_team_index_of_slow(t, world_pe);
    long d = (long)world_pe - t->start;
    if (d % t->stride)
        return -1;
    long i = d / t->stride;
    return i >= 0 && i < t->n_pes ? (int)i : -1;
}

/* Bytes of internal symmetric memory the team layer needs (pSync pool,
 * colour-split exchange area); shmem_init reserves them (shoal_core_attach) before shoal_teams_init. */
size_t shoal_teams_internal_bytes(void);
void shoal_teams_init(void);
/* Last finalize: frees every team and context left (no communication). */
void shoal_teams_fini(void);

/* ---- creation (split.c) ---- */

/* One new team as this PE sees it, in parent ranks: members start + i*stride,
 * or ranks[i] when ranks != NULL.  n_pes == 0 when I am not a member. */
struct shoal_team_spec {
    int n_pes, my_pe;
    int start, stride;
    const int *ranks;
    int num_contexts;
};

/* Creates the teams described by specs[0..n-1] (collective over the whole
 * parent; every parent member passes the same n).  Teams whose members are
 * disjoint across PEs may share one spec index (2-D and colour splits): each
 * spec index gets one pool block.  out[i] is the new team or NULL when I am
 * not a member.  Returns 0, or -1 on every PE with all out[i] NULL when the
 * pool has no n blocks free on all members.  routine names the user's call. */
int shoal_team_create(struct shoal_team *parent, int n, const struct shoal_team_spec *specs,
                      struct shoal_team **out, const char *routine);

/* Colour split (split_color.c): members of my colour ordered by (key, parent
 * rank); color < 0 = no team.  Collective over the parent. */
int shoal_team_split_color(struct shoal_team *parent, int color, int key, int num_contexts,
                           struct shoal_team **out, const char *routine);

/* Collective over t: completes its traffic, destroys its shareable contexts
 * (through ctx_free), frees its pool block for reuse and the object. */
void shoal_team_destroy(struct shoal_team *t, void (*ctx_free)(struct shoal_ctx *));

/* ---- contexts of a team (team.c) ---- */
/* Adds ctx to t's list; false only when memory runs out (num_contexts is a
 * reservation hint, not a limit). */
bool shoal_team_ctx_add(struct shoal_team *t, struct shoal_ctx *ctx);
void shoal_team_ctx_remove(struct shoal_team *t, struct shoal_ctx *ctx);

/* Seconds this PE has spent in the bitmask reduction of team creation since
 * the program started (exported for bench/teams/team_create.c, which finds
 * it through a weak reference; not in the public headers). */
SHOAL_EXPORT double shoal_team_bitmask_seconds(void);

#endif
