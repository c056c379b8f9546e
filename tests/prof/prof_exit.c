/* Profiles written without shmem_finalize.
 *   prof_exit implicit: start_pes, puts, then return from main (the library
 *                       finalizes at exit): every PE writes its profile.
 *   prof_exit global:   puts, a barrier, then PE 0 calls shmem_global_exit(0)
 *                       while the others wait: PE 0 writes its profile (and
 *                       its trace part) before the job goes down. */
#include <string.h>
#include <unistd.h>

#include <shmem.h>

enum { PUTS = 250 };
static long word;

int main(int argc, char **argv)
{
    int global = argc > 1 && !strcmp(argv[1], "global");
    if (global)
        shmem_init();
    else
        start_pes(0);
    int me = shmem_my_pe(), n = shmem_n_pes();
    long v = me;
    for (int i = 0; i < PUTS; i++)
        shmem_long_p(&word, v, (me + 1) % n);
    shmem_barrier_all();
    if (global) {
        if (me == 0)
            shmem_global_exit(0);
        for (;;)
            pause();   /* stopped by the launcher when PE 0 exits */
    }
    return 0;   /* no shmem_finalize */
}
