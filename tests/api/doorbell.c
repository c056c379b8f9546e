/* Lost wakes of the doorbell (core/wait.c).  Every PE runs THREADS threads;
 * thread t of PE p pings thread t of PE p+1 and answers thread t of PE p-1:
 * each ping is a plain put of the writer's clock, sent after a pause long
 * enough for the receiver to have gone to sleep on its doorbell.  A wake the
 * writer missed shows as a ping seen only after the receiver's sleep timed
 * out (SHOAL_WAIT_SLEEP_US, set large by the test): the wake took longer
 * than LATE_FRACTION of that timeout.  Prints the count and the worst wake.
 * Every message must arrive, in order (the clocks only grow).  Some late
 * wakes fail the run only with "strict": on a loaded machine a woken thread
 * can wait that long for a core.  Most of them late fails it always: that is
 * a writer that never rings (a sleeper missing from the count writers look
 * at first, core/shoal.h shoal_notify), not load.
 *
 *   doorbell [ROUNDS [THREADS [strict]]]   (ctest runs a short one; e.g.
 *   SHOAL_WAIT_SLEEP_US=400000 oshrun -np 8 doorbell 200 4 strict on a quiet
 *   machine, and SHOAL_WAIT_FENCE=off to count wakes lost without the fence) */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shmem.h>

#include "check.h"

enum { MAX_THREADS = 8 };
#define LATE_FRACTION 0.5

static long ping[MAX_THREADS], pong[MAX_THREADS];   /* clocks (ns) of the last message */
static int rounds = 20, threads = 3, me, npes;
static bool strict;
static double timeout_ns;
static long late, worst_ns;

static long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void pause_us(unsigned *seed)
{
    struct timespec t = {0, (1000 + rand_r(seed) % 3000) * 1000L};   /* 1-4 ms: receivers are asleep */
    nanosleep(&t, NULL);
}

/* Waits for *word to change from old; returns its new value and scores the wake. */
static long receive(long *word, long old)
{
    shmem_long_wait_until(word, SHMEM_CMP_NE, old);
    long v = shmem_long_atomic_fetch(word, me), took = now_ns() - v;
    CHECK(v > old, "message went back in time: %ld after %ld", v, old);
    if (took > LATE_FRACTION * timeout_ns)
        __atomic_fetch_add(&late, 1, __ATOMIC_RELAXED);
    long w = __atomic_load_n(&worst_ns, __ATOMIC_RELAXED);
    while (took > w && !__atomic_compare_exchange_n(&worst_ns, &w, took, false, __ATOMIC_RELAXED,
                                                    __ATOMIC_RELAXED))
        ;
    return v;
}

static void *pair(void *arg)
{
    int t = (int)(long)arg, next = (me + 1) % npes, prev = (me + npes - 1) % npes;
    unsigned seed = 17u * (unsigned)me + (unsigned)t;
    long last_ping = 0, last_pong = 0;
    for (int r = 0; r < rounds; r++) {
        /* Even PEs ping first, odd ones answer first, so a ring of any size
         * has senders and sleepers at every moment. */
        for (int half = 0; half < 2; half++) {
            if ((half == 0) == (me % 2 == 0 || npes == 1)) {
                pause_us(&seed);
                shmem_long_p(&ping[t], now_ns(), next);
                last_pong = receive(&pong[t], last_pong);
            } else {
                last_ping = receive(&ping[t], last_ping);
                pause_us(&seed);
                shmem_long_p(&pong[t], now_ns(), prev);
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (argc > 1)
        rounds = atoi(argv[1]);
    if (argc > 2)
        threads = atoi(argv[2]) < MAX_THREADS ? atoi(argv[2]) : MAX_THREADS;
    strict = argc > 3 && !strcmp(argv[3], "strict");
    const char *sleep_us = getenv("SHOAL_WAIT_SLEEP_US");
    timeout_ns = (sleep_us ? atof(sleep_us) : 200) * 1000.0;
    pthread_t th[MAX_THREADS];
    for (long t = 0; t < threads; t++)
        pthread_create(&th[t], NULL, pair, (void *)t);
    for (int t = 0; t < threads; t++)
        pthread_join(th[t], NULL);
    printf("PE %d: %d wakes, %ld late (over %.0f ms), worst %.3f ms\n", me, 2 * rounds * threads, late,
           LATE_FRACTION * timeout_ns / 1e6, worst_ns / 1e6);
    CHECK(!strict || late == 0, "%ld wakes waited for the sleep timeout: a writer missed the doorbell", late);
    CHECK(late <= rounds * threads, "%ld of %d wakes waited for the sleep timeout: writers do not ring", late,
          2 * rounds * threads);
    shmem_finalize();
    return 0;
}
