/* A token travels around the ring of PEs 100 times: put + wait_until. */
#include <stdio.h>

#include <shmem.h>

int main(void)
{
    static long token;
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    const long laps = 100;
    for (long lap = 1; lap <= laps; lap++) {
        if (me == 0) {
            shmem_long_p(&token, lap, (me + 1) % n);
            shmem_long_wait_until(&token, SHMEM_CMP_EQ, lap);
        } else {
            shmem_long_wait_until(&token, SHMEM_CMP_EQ, lap);
            shmem_long_p(&token, lap, (me + 1) % n);
        }
    }
    if (me == 0)
        printf("token went %ld times around %d PEs\n", laps, n);
    shmem_finalize();
    return 0;
}
