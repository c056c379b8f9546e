/* Barrier for teams whose members all share memory: one arrival counter and
 * one generation word on the team's first PE.  The last to arrive resets the
 * counter and bumps the generation; the others wait for the bump (waking
 * through the doorbell, so oversubscribed PEs sleep).  Nothing depends on
 * values left by an earlier team that used the same pSync slot. */
#include "coll_internal.h"

void shoal_barrier_shm(struct shoal_team *t)
{
    int n = t->n_pes;
    struct shoal_psync *r = shoal_ptr(coll_psync(t, 0), shoal_team_pe(t, 0));
    t->barrier_epoch++;
    uint64_t gen = __atomic_load_n(&r->release, __ATOMIC_ACQUIRE);
    if (__atomic_add_fetch(&r->arrive, 1, __ATOMIC_ACQ_REL) == (uint64_t)n) {
        __atomic_store_n(&r->arrive, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&r->release, gen + 1, __ATOMIC_RELEASE);
        for (int i = 0; i < n; i++)
            if (i != t->my_pe)
                shoal_notify(shoal_team_pe(t, i));
        return;
    }
    SHOAL_WAIT_WHILE_LOCAL(__atomic_load_n(&r->release, __ATOMIC_ACQUIRE) == gen);
}
