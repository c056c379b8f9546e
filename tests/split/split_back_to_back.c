/* Back-to-back split barriers: each PE starts barrier k+1 as soon as it
 * left barrier k, while slower PEs may still be leaving k.  Before
 * starting barrier k every PE adds 1 to a counter on every PE; after
 * leaving barrier k mine must hold at least n*k adds (everyone arrived at
 * k) and at most n*(k+1) (nobody got past k+1).  Completion alternates
 * between wait and test loops, and now and then a PE dawdles so the
 * others run ahead into the next barrier. */
#include <shmem.h>
#include <shmemx.h>
#include <unistd.h>

#include "check.h"

static long counter;

static void leave(long k, int me)
{
    if ((k + me) % 2)
        shmemx_barrier_all_wait();
    else
        while (!shmemx_barrier_all_test())
            ;
}

int main(int argc, char **argv)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long iters = argc > 1 ? atol(argv[1]) : 2000;
    for (long k = 1; k <= iters; k++) {
        for (int pe = 0; pe < n; pe++)
            shmem_long_atomic_add(&counter, 1, (me + pe) % n);
        shmemx_barrier_all_start();
        if (k % 97 == (long)me % 97)
            usleep(200);
        leave(k, me);
        long got = shmem_long_atomic_fetch(&counter, me);
        CHECK(got >= n * k && got <= n * (k + 1), "barrier %ld: %ld arrivals counted, want %ld..%ld", k,
              got, n * k, n * (k + 1));
    }
    shmem_barrier_all();
    CHECK(counter == n * iters, "final count %ld, want %ld", counter, n * iters);
    if (me == 0)
        printf("split_back_to_back: %ld barriers on %d PEs ok\n", iters, n);
    shmem_finalize();
    return 0;
}
