/* The out-of-line half of typed.h and api.h: reporting a bad context, PE or team. */
#include "typed.h"

void shoal_api_bad_ctx_pe(const char *routine, shmem_ctx_t ctx, int pe)
{
    shoal_require_init(routine);
    if (!ctx)
        shoal_fatal(routine, "the context is SHMEM_CTX_INVALID (did shmem_ctx_create fail?)");
    struct shoal_team *t = shoal_ctx_of(ctx)->team;
    shoal_fatal(routine, "PE %d is out of range: the context's team has PEs 0..%d", pe, t->n_pes - 1);
}

struct shoal_team *shoal_api_member_team(const char *routine, shmem_team_t team)
{
    if (SHOAL_DEBUG_ON)
        shoal_require_init(routine);
    struct shoal_team *t = team == SHMEM_TEAM_INVALID ? NULL : shoal_team_of(team);
    if (SHOAL_UNLIKELY(!t || t->my_pe < 0)) {
        if (SHOAL_DEBUG_ON)
            shoal_warn(routine, "%s; returning -1 (pass a team this PE belongs to)",
                       t ? "this PE is not a member of the team" : "the team is SHMEM_TEAM_INVALID");
        return NULL;
    }
    return t;
}
