/* A PE waiting in a barrier while a PE on another host hammers it with
 * fetch-adds for longer than a waiter polls before sleeping (0.1 s): once
 * woken from that sleep it must poll again by itself, its progress thread
 * standing back.  (It once stayed counted as asleep for the rest of the
 * wait: the thread then woke at every arrival to serve beside it, and each
 * fetch-add took 76 us on average instead of 30.)  Checked by counting, not
 * timing: the target's other threads (the progress thread looking every
 * 0.5 ms, the launcher's) may switch a few times per millisecond and some
 * more, not 3 times per fetch-add as they did.
 *   mh_wake [fetch-adds]   (2 PEs, one per host) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <shmem.h>

#include "check.h"

static long word;

/* Context switches of this process's threads other than the calling one. */
static long other_threads_switches(void)
{
    long total = 0;
    char self[32];
    snprintf(self, sizeof self, "%d", (int)getpid());
    DIR *d = opendir("/proc/self/task");
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, self))
            continue;
        char path[300], line[128];
        snprintf(path, sizeof path, "/proc/self/task/%s/status", e->d_name);
        FILE *f = fopen(path, "r");
        while (f && fgets(line, sizeof line, f)) {
            long v;
            if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1 ||
                sscanf(line, "nonvoluntary_ctxt_switches: %ld", &v) == 1)
                total += v;
        }
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return total;
}

int main(int argc, char **argv)
{
    long ops = argc > 1 ? atol(argv[1]) : 40000;
    shmem_init();
    int me = shmem_my_pe();
    CHECK(shmem_n_pes() == 2, "run on 2 PEs, one per host (got %d)", shmem_n_pes());
    shmem_barrier_all();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long before = other_threads_switches(), sum = 0;
    if (me == 0)
        for (long i = 0; i < ops; i++)
            sum += shmem_long_atomic_fetch_add(&word, 1, 1);
    shmem_barrier_all();
    long switches = other_threads_switches() - before;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    if (me == 1) {
        CHECK(word == ops, "word %ld after %ld fetch-adds", word, ops);
        printf("mh_wake: %ld fetch-adds in %ld ms; the target's other threads switched %ld times\n", ops, ms,
               switches);
        CHECK(switches < ops / 8 + 4 * ms, "the target's other threads switched %ld times during %ld fetch-adds "
              "(%ld ms): its progress thread served beside the polling PE", switches, ops, ms);
    }
    if (me == 0)
        CHECK(sum == ops * (ops - 1) / 2, "fetch-add results sum to %ld", sum);
    shmem_finalize();
    return 0;
}
