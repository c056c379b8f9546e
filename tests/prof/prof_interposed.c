/* The program the interposer watches: 1234 shmem_putmem to the right
 * neighbour, 7 shmem_barrier_all. */
#include <shmem.h>

static long word;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long v = me;
    for (int i = 0; i < 1234; i++)
        shmem_putmem(&word, &v, sizeof v, (me + 1) % n);
    for (int i = 0; i < 7; i++)
        shmem_barrier_all();
    shmem_finalize();
    return 0;
}
