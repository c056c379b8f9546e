/* A PE on the last host dies (SIGKILL) while the others wait for it: the
 * job must end promptly, with a message naming that PE.
 *   mh_die                       PE n-1 dies before a barrier the others are in
 *   mh_die reduce|bcast|fcollect|barrier PE
 *                                the others and PE loop on that active-set
 *                                collective over the whole job (host, leaders,
 *                                host across hosts); PE dies at a timer,
 *                                somewhere in the middle of one.
 *   mh_die exit                  PE n-1 calls shmem_global_exit(5) instead of dying */
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "check.h"

static long psync[SHMEM_REDUCE_SYNC_SIZE], pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long src[64], dst[64 * 64];

static void die(int sig)
{
    (void)sig;
    static const char msg[] = "mh_die: killed mid-collective\n";
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(9);
    raise(SIGKILL);
}

static void loop(const char *what, int victim, int me, int n)
{
    if (me == victim) {
        struct itimerval t = {.it_value = {.tv_usec = 300000}};
        signal(SIGALRM, die);
        setitimer(ITIMER_REAL, &t, NULL);
    }
    for (long k = 0;; k++) {
        src[0] = me + k;
        if (!strcmp(what, "reduce"))
            shmem_long_sum_to_all(dst, src, 1, 0, 0, n, pwrk, psync);
        else if (!strcmp(what, "bcast"))
            shmem_broadcast64(dst, src, 1, (int)(k % n), 0, 0, n, psync);
        else if (!strcmp(what, "fcollect"))
            shmem_fcollect64(dst, src, 1, 0, 0, n, psync);
        else
            shmem_barrier(0, 0, n, psync);
    }
}

int main(int argc, char **argv)
{
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    static long word;
    shmem_barrier_all();
    for (int pe = 0; pe < n; pe++)
        shmem_long_atomic_inc(&word, pe);   /* connections to everyone are in use */
    shmem_barrier_all();
    if (argc == 2 && !strcmp(argv[1], "exit") && me == n - 1) {
        fprintf(stderr, "mh_die: PE %d calls shmem_global_exit(5)\n", me);
        fflush(stderr);
        shmem_global_exit(5);
    }
    if (argc > 2) {
        if (me == 0)
            fprintf(stderr, "mh_die: PE %s dies during %s\n", argv[2], argv[1]);
        loop(argv[1], atoi(argv[2]), me, n);   /* never returns */
    }
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
