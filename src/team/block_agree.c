/* Block agreement: every parent member contributes the pool blocks it has in
 * use, and every member learns the union, so all pick the same free block
 * (the paper's §IV-C AND-reduction over the availability bitmask, done
 * here as an OR over its complement so that zeroed memory is the identity).
 *
 * Two algorithms, each in its own file:
 *   block_agree_shm.c     parents whose members all share memory: one OR
 *                        accumulator and an arrival counter on the parent's
 *                        first PE; each member waits once.
 *   block_agree_dissem.c  any parent, over shared memory or the network:
 *                        dissemination, ceil(log2 P) rounds of puts.
 * SHOAL_TEAM_AGREE=auto|shm|dissem picks (see use_shm).  The time spent
 * here is what the team-creation benchmark reports. */
#include <string.h>
#include <time.h>

#include "team_impl.h"

static uint64_t bitmask_ns;   /* atomic: threads may create teams at once */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

size_t shoal_block_agree_bytes(void)
{
    size_t a = shoal_block_agree_shm_bytes(), b = shoal_block_agree_dissem_bytes();
    return a > b ? a : b;
}

/* auto: the counter when PEs outnumber cores or the parent is large (one
 * wake-up per member instead of log2 P waits on partners that may be
 * descheduled), dissemination otherwise (one line transfer per round).  The
 * counter needs every member load/store reachable; elsewhere dissemination
 * is the only choice. */
static bool use_shm(const struct shoal_team *parent)
{
    const char *choice = shoal_cfg.team_agree ? shoal_cfg.team_agree : "auto";
    if (!parent->all_local || !strcmp(choice, "dissem"))
        return false;
    return !strcmp(choice, "shm") || shoal.oversubscribed || parent->n_pes > 8;
}

void shoal_block_agree(struct shoal_team *parent, uint64_t *busy)
{
    if (parent->n_pes == 1)
        return;
    double t0 = now();
    uint64_t epoch = ++parent->agree_epoch;
    if (use_shm(parent))
        shoal_block_agree_shm(parent, busy, epoch);
    else
        shoal_block_agree_dissem(parent, busy, epoch);
    __atomic_fetch_add(&bitmask_ns, (uint64_t)((now() - t0) * 1e9), __ATOMIC_RELAXED);
}

double shoal_team_bitmask_seconds(void)
{
    return __atomic_load_n(&bitmask_ns, __ATOMIC_RELAXED) * 1e-9;
}
