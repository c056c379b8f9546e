/* A PE on the last host dies (SIGKILL) while the others wait for it in a
 * barrier: the job must end promptly, with a message naming that PE. */
#include <signal.h>
#include <unistd.h>

#include "check.h"

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    static long word;
    shmem_barrier_all();
    for (int pe = 0; pe < n; pe++)
        shmem_long_atomic_inc(&word, pe);   /* connections to everyone are in use */
    shmem_barrier_all();
    if (me == n - 1) {
        fprintf(stderr, "mh_die: PE %d kills itself\n", me);
        fflush(stderr);
        raise(SIGKILL);
    }
    shmem_barrier_all();   /* never completes */
    fprintf(stderr, "FAIL PE %d: a barrier completed without PE %d\n", me, n - 1);
    shmem_finalize();
    return 0;
}
