/* Split-phase barriers (shmemx.h extension, seed paper 002): start
 * announces arrival and returns, test reports completion, wait blocks.
 * The world form has barrier_all semantics (quiet on the default context
 * at start, as the paper flushes there); the team form has team_sync
 * semantics (prior stores visible, no quiet). */
#include "api.h"
#include <shmemx.h>

#include "../sync/split_barrier.h"


SHOAL_API(void, shmemx_barrier_all_start, (void))
{
    if (SHOAL_DEBUG_ON)
        shoal_require_init("shmemx_barrier_all_start");
    shoal_quiet(&shoal_ctx_default);
    shoal_split_start(&shoal_team_world, "shmemx_barrier_all_start");
}

SHOAL_API(int, shmemx_barrier_all_test, (void))
{
    if (SHOAL_DEBUG_ON)
        shoal_require_init("shmemx_barrier_all_test");
    return shoal_split_poll(&shoal_team_world);
}

SHOAL_API(void, shmemx_barrier_all_wait, (void))
{
    if (SHOAL_DEBUG_ON)
        shoal_require_init("shmemx_barrier_all_wait");
    shoal_split_wait(&shoal_team_world);
}

SHOAL_API(int, shmemx_team_sync_start, (shmem_team_t team))
{
    struct shoal_team *t = shoal_api_member_team("shmemx_team_sync_start", team);
    if (!t)
        return -1;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);   /* my prior stores become visible before my arrival */
    shoal_split_start(t, "shmemx_team_sync_start");
    return 0;
}

/* 1 once every member has arrived, 0 before; -1 for an invalid team. */
SHOAL_API(int, shmemx_team_sync_test, (shmem_team_t team))
{
    struct shoal_team *t = shoal_api_member_team("shmemx_team_sync_test", team);
    if (!t)
        return -1;
    return shoal_split_poll(t);
}

SHOAL_API(int, shmemx_team_sync_wait, (shmem_team_t team))
{
    struct shoal_team *t = shoal_api_member_team("shmemx_team_sync_wait", team);
    if (!t)
        return -1;
    shoal_split_wait(t);
    return 0;
}
