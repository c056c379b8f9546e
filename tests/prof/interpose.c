/* A profiling-interface tool, the way Score-P and TAU attach: it defines
 * shmem_putmem and shmem_barrier_all, counts them, and calls pshmem_*.
 * LD_PRELOADed ahead of Shoal; it reports its counts when the program
 * finalizes. */
#include <stdio.h>

#include <pshmem.h>
#include <shmem.h>

static long putmem_calls, barrier_calls;

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe)
{
    putmem_calls++;
    pshmem_putmem(dest, source, nelems, pe);
}

void shmem_barrier_all(void)
{
    barrier_calls++;
    pshmem_barrier_all();
}

void shmem_finalize(void)
{
    printf("interposer: PE %d saw putmem %ld barrier_all %ld\n", pshmem_my_pe(), putmem_calls, barrier_calls);
    fflush(stdout);
    pshmem_finalize();
}
