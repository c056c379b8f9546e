/* Starting a split barrier while the previous one on the same team is
 * still pending.  Under SHMEM_DEBUG the job must stop with a message that
 * names the call and the fix (ctest matches it); without it, the earlier
 * barrier is completed first and both barriers still synchronize. */
#include <shmem.h>
#include <shmemx.h>

#include "check.h"

static long arrivals;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int k = 1; k <= 3; k++) {
        for (int pe = 0; pe < n; pe++)
            shmem_long_atomic_inc(&arrivals, pe);
        shmemx_barrier_all_start();
        if (k == 2 || n == 1)
            continue;   /* barrier 2 is left pending: barrier 3 starts on top of it */
        shmemx_barrier_all_wait();
        CHECK(arrivals >= n * k, "barrier %d: %ld arrivals, want at least %d", k, arrivals, n * k);
    }
    shmemx_barrier_all_wait();
    shmem_barrier_all();
    CHECK(arrivals == 3 * n, "%ld arrivals, want %d", arrivals, 3 * n);
    if (me == 0)
        printf("split_double_start: earlier barrier completed first\n");
    shmem_finalize();
    return 0;
}
