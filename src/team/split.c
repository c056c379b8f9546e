/* Team creation and destruction.
 *
 * Creation is collective over the whole parent: every parent member takes
 * part in the block agreement (block_agree.c), members of a new team naming
 * the pool blocks they have in use and the others naming none, so the union
 * is exactly "busy at some member" and every parent member sees the same
 * answer: success and failure are identical on all PEs.  The agreement also
 * acts as a barrier over the parent, which colour splits rely on.
 *
 * No lock is held across an agreement (a blocking collective): under
 * SHMEM_THREAD_MULTIPLE two threads may create teams from different parents
 * at once, in different orders on different PEs.  A member holds the agreed
 * blocks tentatively (pool.c), and a second agreement tells every member
 * whether all could; if one could not, all give them back and try again.
 *
 * Destruction is collective over the team: after a dissemination barrier
 * nobody writes into this PE's block any more (each member there reads only
 * its own flags, and every flag addressed to me arrived before I left), so
 * the block can be zeroed and offered to the next team.  That barrier is
 * the team layer's own, on words of the block used once in a team's life
 * (so they hold 0 or 1), not the collectives' (the layer above) nor the
 * agreement's (its counter variant publishes in the first member's block,
 * which that member could zero while the others still read it). */
#include <sched.h>
#include <stdlib.h>

#include "team_impl.h"

/* Lowest n clear bits of busy (only the SHMEM_TEAMS_MAX valid ones) as pool
 * blocks; returns how many were found. */
static int lowest_free(const uint64_t *busy, int n, int *blocks)
{
    int found = 0;
    for (int w = 0; w < shoal_pool_words() && found < n; w++)
        for (uint64_t free_bits = ~busy[w]; free_bits && found < n; free_bits &= free_bits - 1) {
            long b = (long)w * 64 + __builtin_ctzll(free_bits);
            if (b >= shoal_cfg.teams_max)
                break;
            blocks[found++] = SHOAL_BLOCKS_PREDEFINED + (int)b;
        }
    return found;
}

/* Team membership from a parent-relative spec; the triplet of a triplet
 * parent is computed directly (the fast path). */
static void set_membership(struct shoal_team *t, const struct shoal_team *parent,
                           const struct shoal_team_spec *s)
{
    if (!s->ranks && !parent->members) {
        t->n_pes = s->n_pes;
        t->start = parent->start + s->start * parent->stride;
        t->stride = s->n_pes > 1 ? parent->stride * s->stride : 1;
        return;
    }
    int *world = malloc(s->n_pes * sizeof *world);
    for (int i = 0; i < s->n_pes; i++)
        world[i] = shoal_team_pe(parent, s->ranks ? s->ranks[i] : s->start + i * s->stride);
    shoal_team_set_members(t, world, s->n_pes);
}

static struct shoal_team *build(const struct shoal_team *parent, const struct shoal_team_spec *s, int block)
{
    struct shoal_team *t = calloc(1, sizeof *t);
    set_membership(t, parent, s);
    t->my_pe = s->my_pe;
    t->block = block;
    t->psync = shoal_pool_psync(block);
    t->num_contexts = s->num_contexts;
    t->all_local = shoal_team_all_reachable(t);
    shoal_pool_lock();
    shoal_team_link(t);
    shoal_pool_unlock();
    return t;
}

static void report_exhausted(const struct shoal_team *parent, int wanted, const char *routine)
{
    if (SHOAL_DEBUG_ON && parent->my_pe == 0)
        shoal_warn(routine, "out of teams: the new team%s need%s %d pSync slot%s free on all %s members, and "
                   "SHMEM_TEAMS_MAX=%ld teams may exist at once (destroy teams no longer needed, or raise "
                   "SHMEM_TEAMS_MAX); the call fails on every PE of the parent team",
                   wanted > 1 ? "s" : "", wanted > 1 ? "" : "s", wanted, wanted > 1 ? "s" : "",
                   wanted > 1 ? "their" : "its", shoal_cfg.teams_max);
}

/* One round: agree on the lowest blocks free at every member, hold mine
 * tentatively, and (when threads may create teams at once) agree on
 * whether every member could.  Returns 1 (done,
 * blocks kept), 0 (a conflict somewhere: try again) or -1 (too few free). */
static int claim_round(struct shoal_team *parent, int n, const struct shoal_team_spec *specs, int *blocks,
                       uint64_t *busy)
{
    int w = shoal_pool_words(), mine[n], n_mine = 0;
    memset(busy, 0, w * sizeof *busy);   /* non-members: no constraint */
    for (int i = 0; i < n; i++)
        if (specs[i].n_pes > 0 && n_mine++ == 0)
            shoal_pool_busy(busy);
    shoal_block_agree(parent, busy);
    if (lowest_free(busy, n, blocks) < n)
        return -1;
    n_mine = 0;
    for (int i = 0; i < n; i++)
        if (specs[i].n_pes > 0)
            mine[n_mine++] = blocks[i];
    bool held = shoal_pool_try_claim(mine, n_mine, parent->block), all_held = held;
    if (shoal.thread_level >= 3) {   /* SHMEM_THREAD_MULTIPLE: another thread may have got one */
        memset(busy, held ? 0 : 0xff, w * sizeof *busy);
        shoal_block_agree(parent, busy);
        all_held = busy[0] == 0;
    }
    if (held)   /* a claim that failed took nothing: the blocks may be another creation's */
        shoal_pool_settle(mine, n_mine, all_held);
    return all_held;
}

int shoal_team_create(struct shoal_team *parent, int n, const struct shoal_team_spec *specs,
                      struct shoal_team **out, const char *routine)
{
    uint64_t *busy = calloc(shoal_pool_words() + 1, sizeof *busy);
    int blocks[n], rc;
    for (int i = 0; i < n; i++)
        out[i] = NULL;
    while ((rc = claim_round(parent, n, specs, blocks, busy)) == 0)
        sched_yield();   /* another creation on this PE got a block first */
    free(busy);
    if (rc < 0) {
        report_exhausted(parent, n, routine);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (specs[i].n_pes > 0)
            out[i] = build(parent, &specs[i], blocks[i]);
    return 0;
}

static void last_barrier(struct shoal_team *t)
{
    static const uint64_t one = 1;
    uint64_t *words = shoal_pool_last_words(t->block);
    for (int k = 0, d = 1; d < t->n_pes; k++, d <<= 1) {
        int to = shoal_team_pe(t, (int)(((long)t->my_pe + d) % t->n_pes));
        shoal_amo(&shoal_ctx_default, SHOAL_AMO_SET, 8, &words[k], NULL, &one, NULL, to, false);
        SHOAL_WAIT_WHILE(__atomic_load_n(&words[k], __ATOMIC_ACQUIRE) == 0);
    }
}

void shoal_team_destroy(struct shoal_team *t, void (*ctx_free)(struct shoal_ctx *))
{
    while (t->n_ctx > 0)
        ctx_free(t->ctx[t->n_ctx - 1]);   /* removes itself from t's list */
    shoal_quiet(&shoal_ctx_default);      /* no put of mine may land in the block after it is reused */
    last_barrier(t);
    shoal_pool_release(t);
    shoal_team_free_object(t);
}
