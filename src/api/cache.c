/* The deprecated cache management routines (removed from the spec's
 * synopses in 1.3, still called by old programs).  Symmetric memory is
 * ordinary cache-coherent memory here, and remote writes reach it through
 * the coherent memory system or the NIC, so there is nothing to flush or
 * invalidate: each is a no-op. */
#include "api.h"

SHOAL_API(void, shmem_clear_cache_inv, (void))
{
}

SHOAL_API(void, shmem_set_cache_inv, (void))
{
}

SHOAL_API(void, shmem_clear_cache_line_inv, (void *dest))
{
}

SHOAL_API(void, shmem_set_cache_line_inv, (void *dest))
{
}

SHOAL_API(void, shmem_udcflush, (void))
{
}

SHOAL_API(void, shmem_udcflush_line, (void *dest))
{
}
