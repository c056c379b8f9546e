/* The deprecated cache routines link and do nothing harmful: old programs
 * call them around puts they then read (the pattern of the 1.0-era
 * examples), and the data must still be there. */
#include "api_test.h"

static long box[4];

int main(void)
{
    test_init();
    shmem_set_cache_inv();
    shmem_set_cache_line_inv(&box[0]);
    for (int i = 0; i < 4; i++)
        shmem_long_p(&box[i], me * 10L + i, next_pe);
    shmem_barrier_all();
    shmem_udcflush();
    shmem_udcflush_line(&box[1]);
    shmem_clear_cache_line_inv(&box[2]);
    shmem_clear_cache_inv();
    for (int i = 0; i < 4; i++)
        CHECK_EQ_LONG(box[i], prev_pe * 10L + i);
    shmem_barrier_all();
    shmem_finalize();
    if (me == 0)
        printf("api_cache: %d PEs ok\n", npes);
    return 0;
}
