/* A program that fails on purpose, for the launcher tests (launcher.sh):
 *   segv   PE 1 dereferences NULL while the others wait in a barrier
 *   exit3  PE 1 calls exit(3) while the others wait in a barrier
 *   gexit  the last PE calls shmem_global_exit(7) while the others wait on a flag
 *   hang   every PE waits forever (oshrun gets killed from outside)
 *   nofin  PE 2 returns from main instead of calling shmem_finalize (finalized at exit)
 *   nofin_all  every PE returns from main without shmem_finalize
 *   exit0  PE 1 calls exit(0) where the others call shmem_finalize
 *   init2  every PE calls shmem_init twice and shmem_finalize once
 *   nofin_stuck  PE 2 returns from main while the others still wait in a barrier for it
 *   _exit0  PE 1 calls _exit(0), skipping the implicit finalize
 *   badsize  init with an invalid SHMEM_SYMMETRIC_SIZE (set by the script) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <shmem.h>

static long flag;

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    shmem_init();
    if (!strcmp(mode, "init2"))
        shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    printf("PE %d ready\n", me);
    fflush(stdout);
    shmem_barrier_all();
    if (!strcmp(mode, "segv") && me == 1)
        *(volatile int *)0 = 1;
    if (!strcmp(mode, "exit3") && me == 1)
        exit(3);
    if (!strcmp(mode, "nofin_stuck") && me == 2)
        return 0;
    if (!strcmp(mode, "gexit") && me == n - 1) {
        usleep(100000);
        shmem_global_exit(7);
    }
    if (!strcmp(mode, "gexit") || !strcmp(mode, "hang"))
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
    shmem_barrier_all();
    if ((!strcmp(mode, "nofin") && me == 2) || !strcmp(mode, "nofin_all"))
        return 0;
    if (!strcmp(mode, "exit0") && me == 1)
        exit(0);
    if (!strcmp(mode, "_exit0") && me == 1)
        _exit(0);
    shmem_finalize();
    return 0;
}
