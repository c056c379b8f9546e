/* The out-of-line half of typed.h and api.h: reporting a bad context, PE,
 * team or atomic word. */
#include "typed.h"

void shoal_api_bad_ctx_pe(const char *routine, shmem_ctx_t ctx, int pe)
{
    shoal_require_init(routine);
    if (!ctx)
        shoal_fatal(routine, "the context is SHMEM_CTX_INVALID (did shmem_ctx_create fail?)");
    struct shoal_team *t = shoal_ctx_of(ctx)->team;
    if (t == &shoal_team_world)
        shoal_fatal(routine, "PE %d is out of range: this job has PEs 0..%d; pass a PE number in that range",
                    pe, t->n_pes - 1);
    shoal_fatal(routine, "PE %d is out of range: the context's team has PEs 0..%d (PE numbers of a "
                "shmem_ctx_ call are relative to the context's team); pass a PE number in that range",
                pe, t->n_pes - 1);
}

struct shoal_team *shoal_api_member_team(const char *routine, shmem_team_t team)
{
    if (SHOAL_DEBUG_ON)
        shoal_require_init(routine);
    struct shoal_team *t = shoal_api_team(routine, team);
    if (SHOAL_UNLIKELY(!t || t->my_pe < 0)) {
        if (SHOAL_DEBUG_ON)
            shoal_warn(routine, "%s; returning -1 (pass a team this PE belongs to)",
                       t ? "this PE is not a member of the team" : "the team is SHMEM_TEAM_INVALID");
        return NULL;
    }
    return t;
}

void shoal_api_check_amo(const char *routine, const void *addr, size_t size, int pe)
{
    shoal_check_remote(routine, addr, size, pe);
    if ((uintptr_t)addr % size)
        shoal_fatal(routine, "address %p is not aligned to %zu bytes: an atomic operation needs a naturally "
                    "aligned object of its type (do not point into the middle of a struct or array element)",
                    addr, size);
}
