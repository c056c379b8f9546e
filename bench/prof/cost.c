/* The cost of profiling on the two hottest calls, for docs/PROFILING.md:
 *   cost put N       PE 0 does N 8-byte shmem_putmem to PE 1, then a quiet
 *   cost barrier N   every PE does N shmem_barrier_all
 * PE 0 prints nanoseconds per call.  compare.sh runs two builds or two
 * settings alternately and reports the medians and their ratio. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>
#include <shmemx.h>

static long word;

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    long n = atol(argv[2]);
    shmem_init();
    shmem_barrier_all();
    double t0 = shmemx_wtime();
    if (!strcmp(argv[1], "put")) {
        long v = 1;
        if (shmem_my_pe() == 0)
            for (long i = 0; i < n; i++)
                shmem_putmem(&word, &v, sizeof v, 1 % shmem_n_pes());
        shmem_quiet();
    } else {
        for (long i = 0; i < n; i++)
            shmem_barrier_all();
    }
    double t = shmemx_wtime() - t0;
    if (shmem_my_pe() == 0)
        printf("%.2f\n", t / n * 1e9);
    shmem_finalize();
    return 0;
}
