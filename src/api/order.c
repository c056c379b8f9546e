/* Memory ordering, and the world barrier/sync. */
#include "api.h"
#include "../coll/coll.h"

SHOAL_API(void, shmem_fence, (void)) { shoal_fence(&shoal_ctx_default); }
SHOAL_API(void, shmem_quiet, (void))
{
    SHOAL_PROF_SPAN("shmem_quiet", SHOAL_PROF_QUIET, NULL, 0, shoal_quiet(&shoal_ctx_default));
}

SHOAL_API(void, shmem_ctx_fence, (shmem_ctx_t ctx))
{
    if (ctx != SHMEM_CTX_INVALID)
        shoal_fence(shoal_ctx_of(ctx));
}

SHOAL_API(void, shmem_ctx_quiet, (shmem_ctx_t ctx))
{
    if (ctx != SHMEM_CTX_INVALID)
        SHOAL_PROF_SPAN("shmem_ctx_quiet", SHOAL_PROF_QUIET, NULL, 0, shoal_quiet(shoal_ctx_of(ctx)));
}

/* Quiet restricted to some PEs: a full quiet of the context completes them too. */
SHOAL_API(void, shmem_ctx_pe_quiet, (shmem_ctx_t ctx, const int *target_pes, size_t npes))
{
    (void)target_pes;
    if (npes && ctx != SHMEM_CTX_INVALID)
        SHOAL_PROF_SPAN("shmem_ctx_pe_quiet", SHOAL_PROF_QUIET, NULL, 0, shoal_quiet(shoal_ctx_of(ctx)));
}

SHOAL_API(void, shmem_pe_quiet, (const int *target_pes, size_t npes))
{
    pshmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, target_pes, npes);
}

SHOAL_API(void, shmem_barrier_all, (void))
{
    if (SHOAL_DEBUG_ON)
        shoal_require_init("shmem_barrier_all");
    SHOAL_PROF_SPAN("shmem_barrier_all", SHOAL_PROF_BARRIER, &shoal_team_world, 0,
                    { shoal_complete(&shoal_ctx_default); shoal_team_barrier(&shoal_team_world); });
}

SHOAL_API(void, shmem_sync_all, (void))
{
    if (SHOAL_DEBUG_ON)
        shoal_require_init("shmem_sync_all");
    __atomic_thread_fence(__ATOMIC_SEQ_CST);   /* make my prior stores visible */
    SHOAL_PROF_SPAN("shmem_sync_all", SHOAL_PROF_BARRIER, &shoal_team_world, 0,
                    shoal_team_barrier(&shoal_team_world));
}
