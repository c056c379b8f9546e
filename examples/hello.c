/* Every PE says hello, then PE 0 gathers everyone's number with a put. */
#include <stdio.h>

#include <shmem.h>

int main(void)
{
    static int seen[1024];
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    printf("hello from PE %d of %d\n", me, n);
    shmem_int_p(&seen[me % 1024], me + 1, 0);
    shmem_barrier_all();
    if (me == 0) {
        int sum = 0;
        for (int i = 0; i < n && i < 1024; i++)
            sum += seen[i];
        printf("PE 0 got a put from every PE: sum %d (expected %d)\n", sum, n * (n + 1) / 2);
    }
    shmem_finalize();
    return 0;
}
