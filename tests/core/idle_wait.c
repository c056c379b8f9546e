/* A PE that waits long sleeps long: each sleep of a wait nobody rings
 * lasts an eighth of the time it has slept so far (up to
 * SHOAL_WAIT_SLEEP_MAX_US), so a PE idle for 0.6 s wakes tens of times,
 * not the 3,000 of a fixed 200-us sleep, whose wakes took the cores from
 * the PEs that work.  The data it waits for comes as a plain store through
 * shmem_ptr, which rings no doorbell: the waiter must still see it.
 *   idle_wait [ms]   (any PE count; PE 0 stores after ms, default 600) */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <shmem.h>

#include "check.h"
#include "wakes.h"

static long flag;

int main(int argc, char **argv)
{
    long ms = argc > 1 ? atol(argv[1]) : 600;
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_barrier_all();
    if (me == 0) {
        struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&t, NULL);
        for (int pe = 1; pe < npes; pe++) {
            long *there = shmem_ptr(&flag, pe);
            CHECK(there != NULL, "PE %d is on this host: shmem_ptr must reach it", pe);
            __atomic_store_n(there, pe, __ATOMIC_RELEASE);
        }
    } else {
        long before = wakes_of(getpid());
        shmem_long_wait_until(&flag, SHMEM_CMP_NE, 0);
        long woke = wakes_of(getpid()) - before;
        CHECK_EQ_LONG(flag, me);
        /* 0.6 s: ~60 sleeps (8 at 200 us, then growing by an eighth); 1 per
         * ms would be the old rate's fifth. */
        CHECK(before < 0 || woke < ms, "PE %d slept and woke %ld times in a wait of %ld ms", me, woke, ms);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
