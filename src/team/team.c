/* Predefined teams and the pSync pool. */
#include <stdlib.h>

#include "team.h"

SHOAL_EXPORT struct shoal_team shoal_team_world;

static bool all_reachable(const struct shoal_team *t)
{
    for (int i = 0; i < t->n_pes; i++)
        if (!shoal.peers[shoal_team_pe(t, i)].base[SHOAL_SEG_HEAP])
            return false;
    return true;
}

size_t shoal_teams_internal_bytes(void)
{
    return (size_t)(shoal_cfg.teams_max + 1) * SHOAL_PSYNC_PER_TEAM * sizeof(struct shoal_psync);
}

void shoal_teams_init(void)
{
    struct shoal_team *w = &shoal_team_world;
    *w = (struct shoal_team){.my_pe = shoal.my_pe, .n_pes = shoal.n_pes, .start = 0, .stride = 1};
    w->psync = shoal_internal_alloc(SHOAL_PSYNC_PER_TEAM * sizeof *w->psync);
    w->all_local = all_reachable(w);
}

void shoal_teams_fini(void)
{
}
