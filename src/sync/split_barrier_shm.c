/* Split barrier for teams whose members all share memory: one arrival
 * counter on the team's first PE, updated with CPU atomics through the
 * mapping.  Arrival is one atomic add; the last of n arrivals publishes the
 * epoch and rings every member's doorbell, so sleeping waiters wake.  The
 * counter reaches epoch * n exactly at the last arrival, because nobody can
 * arrive at barrier e+1 before barrier e was released. */
#include "split_barrier.h"

static struct shoal_split_area *root_area(struct shoal_split_state *s)
{
    struct shoal_team *t = s->team;
    return shoal_ptr(shoal_split_area_of(t, 0), shoal_team_pe(t, 0));
}

static void shm_arrive(struct shoal_split_state *s)
{
    struct shoal_team *t = s->team;
    struct shoal_split_area *r = root_area(s);
    if (__atomic_add_fetch(&r->arrive, 1, __ATOMIC_ACQ_REL) != s->epoch * (uint64_t)t->n_pes)
        return;
    __atomic_store_n(&r->release, s->epoch, __ATOMIC_RELEASE);
    for (int i = 0; i < t->n_pes; i++)
        shoal_notify(shoal_team_pe(t, i));
}

static bool shm_advance(struct shoal_split_state *s)
{
    return __atomic_load_n(&root_area(s)->release, __ATOMIC_ACQUIRE) >= s->epoch;
}

const struct shoal_split_algo shoal_split_shm = {"shm", shm_arrive, shm_advance};
