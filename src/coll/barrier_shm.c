/* Barrier for teams whose members all share memory: one counter on the
 * team's first PE.  The last arrival publishes the epoch; everyone else
 * waits on it (waking through the doorbell, so oversubscribed PEs sleep). */
#include "coll.h"

void shoal_barrier_shm(struct shoal_team *t)
{
    int root = shoal_team_pe(t, 0);
    uint64_t epoch = ++t->barrier_epoch;
    struct shoal_psync *r = shoal_ptr(&t->psync[0], root);
    if (__atomic_add_fetch(&r->arrive, 1, __ATOMIC_ACQ_REL) == epoch * (uint64_t)t->n_pes) {
        __atomic_store_n(&r->release, epoch, __ATOMIC_RELEASE);
        for (int i = 0; i < t->n_pes; i++)
            shoal_notify(shoal_team_pe(t, i));
        return;
    }
    SHOAL_WAIT_WHILE(__atomic_load_n(&r->release, __ATOMIC_ACQUIRE) < epoch);
}
