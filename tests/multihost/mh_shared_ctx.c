/* Threads sharing one context across hosts (SHMEM_THREAD_MULTIPLE, the
 * default context): what one thread's completion waits may take for their
 * own.  Each round, on every PE:
 *   nbi fetch-adds  THREADS threads each issue FETCHES non-blocking
 *                   fetch-adds of 1 to the next PE's counter, then quiet;
 *                   after a barrier the values fetched here must be the
 *                   counter's values one each (a permutation of the range
 *                   the round covered).  A quiet once freed the slots of
 *                   answers still due when another thread's quiet had
 *                   freed them all and others had taken as many again.
 *   gets            the threads get blocks of different sizes at once from
 *                   the next PE and the one after (a near and a far host,
 *                   so their reads complete in any order) and check them.
 *                   A blocking get once ended at another thread's
 *                   completed read.
 *
 *   mh_shared_ctx [ROUNDS] */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { THREADS = 4, FETCHES = 600, BLOCK = 1 << 16 };

static long counter;
static long fetched[THREADS][FETCHES];
static unsigned char block[THREADS][BLOCK];   /* every PE's: byte i of thread t's is pattern(pe, t, i) */
static int me, npes;

static unsigned char pattern(int pe, int t, size_t i)
{
    return (unsigned char)(pe * 31 + t * 7 + i);
}

static void *fetch_adds(void *arg)
{
    long t = (long)arg;
    for (int i = 0; i < FETCHES; i++)
        shmem_long_atomic_fetch_add_nbi(&fetched[t][i], &counter, 1, (me + 1) % npes);
    shmem_quiet();
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

static void check_fetched(int round)
{
    static long all[THREADS * FETCHES];
    memcpy(all, fetched, sizeof all);
    qsort(all, THREADS * FETCHES, sizeof all[0], by_value);
    long first = (long)round * THREADS * FETCHES;   /* the counter's value when the round began */
    for (int i = 0; i < THREADS * FETCHES; i++)
        CHECK(all[i] == first + i, "round %d: the %d-th smallest value fetched is %ld, want %ld (a lost or "
              "misplaced answer)", round, i, all[i], first + i);
}

static void *gets(void *arg)
{
    long t = (long)arg;
    static unsigned char got[THREADS][BLOCK];
    int from = (me + 1 + (int)(t % 2)) % npes;   /* alternate threads: next PE, the one after */
    size_t n = t % 2 ? BLOCK : 64 + 8 * (size_t)t;   /* long and short reads at once */
    for (int k = 0; k < 40; k++) {
        memset(got[t], 0, n);
        shmem_getmem(got[t], block[t], n, from);
        for (size_t i = 0; i < n; i++)
            CHECK(got[t][i] == pattern(from, (int)t, i), "thread %ld, get %d of %zu bytes from PE %d: byte %zu is "
                  "%d, want %d", t, k, n, from, i, got[t][i], pattern(from, (int)t, i));
    }
    return NULL;
}

static void run_threads(void *(*fn)(void *))
{
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        CHECK(pthread_create(&th[t], NULL, fn, (void *)t) == 0, "pthread_create");
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
}

int main(int argc, char **argv)
{
    int provided, rounds = argc > 1 ? atoi(argv[1]) : 10;
    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0 && provided == SHMEM_THREAD_MULTIPLE,
          "SHMEM_THREAD_MULTIPLE not provided");
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (int t = 0; t < THREADS; t++)
        for (size_t i = 0; i < BLOCK; i++)
            block[t][i] = pattern(me, t, i);
    shmem_barrier_all();
    for (int r = 0; r < rounds; r++) {
        run_threads(fetch_adds);
        shmem_barrier_all();
        check_fetched(r);
        run_threads(gets);
        shmem_barrier_all();
    }
    CHECK_EQ_LONG(counter, (long)rounds * THREADS * FETCHES);
    shmem_finalize();
    return 0;
}
