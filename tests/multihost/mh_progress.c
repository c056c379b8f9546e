/* Remote operations complete while the target computes and makes no call:
 * the last PE (on another host than PE 0) spins on a plain load of a flag
 * for up to 20 s; PE 0 meanwhile does fetching AMOs, gets and puts on it,
 * then raises the flag with an AMO.  Only the target's progress thread can
 * serve those, so the target must see the flag long before its deadline.
 * argv[1] "off": the thread is off, and the target must time out instead
 * (checks that the test really tests the thread). */
#include <stdbool.h>
#include <shmemx.h>
#include <string.h>

#include "check.h"

static long flag, counter, data[64];

int main(int argc, char **argv)
{
    bool thread_off = argc > 1 && strcmp(argv[1], "off") == 0;
    shmem_init();
    int me = shmem_my_pe(), target = shmem_n_pes() - 1;
    shmem_barrier_all();
    if (me == target) {
        double end = shmemx_wtime() + (thread_off ? 2.0 : 20.0);
        while (*(volatile long *)&flag == 0 && shmemx_wtime() < end)
            ;   /* computing: no OpenSHMEM call */
        bool seen = *(volatile long *)&flag != 0;
        CHECK(seen != thread_off, "the target %s the flag while computing (progress thread %s)",
              seen ? "saw" : "never saw", thread_off ? "off" : "on");
        CHECK(thread_off || counter == 50, "counter %ld, want 50", counter);
    } else if (me == 0) {
        long buf[64];
        for (int i = 0; i < 50; i++)
            CHECK_EQ_LONG(shmem_long_atomic_fetch_inc(&counter, target), i);
        for (int i = 0; i < 64; i++)
            buf[i] = i * 3;
        shmem_long_put(data, buf, 64, target);
        shmem_quiet();
        shmem_long_get(buf, data, 64, target);
        for (int i = 0; i < 64; i++)
            CHECK_EQ_LONG(buf[i], i * 3);
        shmem_long_atomic_set(&flag, 1, target);
        shmem_quiet();
    }
    shmem_barrier_all();
    if (me == 0)
        printf("mh_progress: the computing target was served (thread %s)\n", thread_off ? "off: not served, as expected" : "on");
    shmem_finalize();
    return 0;
}
