/* Algorithm choice for each collective. */
#include "coll.h"

void shoal_team_barrier(struct shoal_team *t)
{
    if (t->n_pes <= 1)
        return;
    if (t->all_local)
        shoal_barrier_shm(t);
    else
        shoal_barrier_dissem(t);
}
