/* Argument errors the API layer reports (run with SHMEM_DEBUG=1 where the
 * check is a debug check).  argv[1] picks the mistake; ctest expects the
 * job to fail with a message naming it (and the routine the user called). */
#include <stdlib.h>
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
    else if (!strcmp(what, "pe-negative"))
        shmem_long_p(sym, 1, -1);
    else if (!strcmp(what, "ctx-pe-range"))
        shmem_ctx_long_p(SHMEM_CTX_DEFAULT, sym, 1, npes + 5);
    else if (!strcmp(what, "amo-misaligned"))
        shmem_int_atomic_add((int *)((char *)&sym[0] + 2), 1, next_pe);
    else if (!strcmp(what, "signal-misaligned"))
        shmem_signal_add((uint64_t *)((char *)&sym[0] + 4), 1, next_pe);
    else if (!strcmp(what, "alltoall-private")) {
        long src[64] = {0}, dst[64];
        shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, 1);
    } else if (!strcmp(what, "alltoall-private-large")) {
        size_t n = (size_t)1 << 16;   /* longs per PE: past every shared-scratch path */
        long *src = calloc(n * npes, sizeof(long)), *dst = malloc(n * npes * sizeof(long));
        shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, n);
    } else if (!strcmp(what, "reduce-private")) {
        long src[4] = {0}, dst[4];
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 4);
    } else if (!strcmp(what, "team-destroyed")) {
        shmem_team_t t;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t);
        shmem_team_destroy(t);
        shmem_long_sum_reduce(t, &sym[0], &sym[1], 1);
    } else if (!strcmp(what, "team-destroyed-sync")) {
        shmem_team_t t;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t);
        shmem_team_destroy(t);
        shmem_team_sync(t);
    } else if (!strcmp(what, "team-garbage"))
        shmem_team_n_pes((shmem_team_t)&sym[2]);
    else if (!strcmp(what, "team-garbage-ctx")) {
        shmem_ctx_t c;
        shmem_team_create_ctx((shmem_team_t)local, 0, &c);
    }
    shmem_finalize();
    return 0;
}
