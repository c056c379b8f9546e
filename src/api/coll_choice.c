/* shmemx_collective_algorithm: SHMEM_<COLLECTIVE>_ALGORITHM from now on,
 * for a phase of a program, or a benchmark or tuning run that compares
 * algorithms in one process (oshtune_probe --algorithms), where the
 * machine's placement of the PEs is the same for all of them. */
#include "api.h"
#include <shmemx.h>

#include "../coll/coll.h"

SHOAL_API(int, shmemx_collective_algorithm, (const char *collective, const char *algorithm))
{
    shoal_require_init("shmemx_collective_algorithm");
    if (!collective || !algorithm)
        return -1;
    return shoal_coll_force(collective, algorithm) ? 0 : -1;
}
