/* SHMEM_SYMMETRIC_SIZE is honoured with the spec's syntax: the test is run
 * with SHMEM_SYMMETRIC_SIZE=1.5m (see CMakeLists.txt), so 1.4 MiB fits and
 * 1.6 MiB does not; exhaustion returns NULL on every PE. */
#include <shmem.h>

#include "check.h"

int main(void)
{
    shmem_init();
    void *fits = shmem_malloc((size_t)(1.4 * 1048576));
    CHECK(fits != NULL, "1.4 MiB did not fit in a 1.5m heap");
    shmem_free(fits);
    void *too_big = shmem_malloc((size_t)(1.6 * 1048576));
    CHECK(too_big == NULL, "1.6 MiB fit in a 1.5m heap");
    shmem_finalize();
    return 0;
}
