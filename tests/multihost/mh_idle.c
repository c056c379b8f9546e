/* A PE with nothing to do, waiting in a barrier while PEs on two hosts
 * work, must go to sleep after its polling time (0.1 s) and stay asleep:
 * its progress thread once rang it at every look (each millisecond) though
 * no traffic had come, every ring sent it back to polling, and such idle
 * PEs took the cores from the working ones (2 hosts x 2 PEs on 2 cores:
 * puts and gets at 250 us instead of 25, in about one run of three).
 * PE 0 hammers PE 2 (another host, block placement) with fetch-adds and
 * samples the state of PE 1 (its host mate, idle) in /proc: asleep in at
 * least half of the samples taken after the first half.  Asleep, it (its
 * progress thread included) wakes seldom: the thread's timeout grows while
 * no traffic comes and the PE's sleeps grow with its wait; at 1,000 and
 * 5,000 a second their wakes were the tail of the working PEs' calls on a
 * crowded host.  Fewer than one wake per millisecond over that half.
 *   mh_idle [fetch-adds]   (4 PEs, 2 hosts x 2, block) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <shmem.h>

#include "check.h"
#include "wakes.h"

static long word;

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
static int pids[4];

/* The scheduler state letter of process pid (R running, S sleeping, ...). */
static char state_of(int pid)
{
    char path[64], buf[512], st = '?';
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (f && fgets(buf, sizeof buf, f)) {
        char *close = strrchr(buf, ')');
        if (close && close[1])
            st = close[2];
    }
    if (f)
        fclose(f);
    return st;
}

int main(int argc, char **argv)
{
    long ops = argc > 1 ? atol(argv[1]) : 40000;
    shmem_init();
    int me = shmem_my_pe();
    CHECK(shmem_n_pes() == 4, "run on 4 PEs, 2 hosts x 2 (got %d)", shmem_n_pes());
    int mine = (int)getpid();
    for (int pe = 0; pe < 4; pe++)
        shmem_int_p(&pids[me], mine, pe);
    shmem_barrier_all();
    CHECK(me != 0 || (shmem_ptr(&word, 1) != NULL && shmem_ptr(&word, 2) == NULL),
          "PE 1 must share PE 0's host, PE 2 not (run 2 hosts x 2, block)");
    long samples = 0, asleep = 0, sum = 0, wakes = 0;
    double since = 0;
    if (me == 0)
        for (long i = 0; i < ops; i++) {
            sum += shmem_long_atomic_fetch_add(&word, 1, 2);
            if (i == ops / 2) {
                wakes = wakes_of(pids[1]);
                since = now_us();
            }
            if (i >= ops / 2 && i % 100 == 0) {
                char st = state_of(pids[1]);
                samples++;
                asleep += st == 'S' || st == 'D';
            }
        }
    if (me == 0 && wakes >= 0)
        wakes = wakes_of(pids[1]) - wakes;
    double ms = (now_us() - since) / 1000;
    shmem_barrier_all();
    if (me == 0) {
        printf("mh_idle: %ld fetch-adds; idle PE 1 asleep in %ld of %ld samples, woke %ld times in %.0f ms\n", ops,
               asleep, samples, wakes, ms);
        CHECK(sum == ops * (ops - 1) / 2, "fetch-add results sum to %ld", sum);
        CHECK(asleep * 2 >= samples, "idle PE 1 was asleep in only %ld of %ld samples: it kept polling", asleep,
              samples);
        CHECK(wakes < ms, "idle PE 1 woke %ld times in %.0f ms: its sleeps or its thread's are too short", wakes, ms);
    }
    if (me == 2)
        CHECK(word == ops, "word %ld after %ld fetch-adds", word, ops);
    shmem_finalize();
    return 0;
}
