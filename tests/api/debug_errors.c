/* Argument errors the API layer reports (run with SHMEM_DEBUG=1 where the
 * check is a debug check).  argv[1] picks the mistake; ctest expects the
 * job to fail with a message naming it. */
#include <string.h>

#include "api_test.h"

static long sym[4];

int main(int argc, char **argv)
{
    long local[4] = {0};
    const char *what = argc > 1 ? argv[1] : "";
    test_init();
    if (!strcmp(what, "not-symmetric"))
        shmem_long_put(local, sym, 4, next_pe);
    else if (!strcmp(what, "pe-range"))
        shmem_long_put(sym, local, 4, npes);
    else if (!strcmp(what, "ctx-invalid"))
        shmem_ctx_long_put(SHMEM_CTX_INVALID, sym, local, 4, next_pe);
    else if (!strcmp(what, "past-end"))
        shmem_long_get(local, sym, (size_t)1 << 40, next_pe);
    else if (!strcmp(what, "bad-cmp"))
        shmem_long_wait_until(sym, 42, 0);
    else if (!strcmp(what, "bad-sig-op"))
        shmem_putmem_signal(sym, local, 8, (uint64_t *)&sym[1], 1, 7, next_pe);
    shmem_finalize();
    return 0;
}
