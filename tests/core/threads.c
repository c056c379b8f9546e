/* SHMEM_THREAD_MULTIPLE: threads of every PE put and add concurrently. */
#include <pthread.h>

#include <shmem.h>

#include "check.h"

enum { THREADS = 4, ITERS = 2000 };
static long counter;
static long slots[THREADS * 64];

static void *work(void *arg)
{
    long t = (long)arg;
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < ITERS; i++) {
        shmem_long_atomic_inc(&counter, i % n);
        shmem_long_p(&slots[t * 64 + me % 64], i, (me + 1) % n);
    }
    shmem_quiet();
    return NULL;
}

int main(void)
{
    int provided;
    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0, "init_thread failed");
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d", provided);
    int q;
    shmem_query_thread(&q);
    CHECK(q == SHMEM_THREAD_MULTIPLE, "query_thread %d", q);
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, work, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long total = shmem_long_atomic_fetch(&counter, 0);
    for (int pe = 1; pe < n; pe++)
        total += shmem_long_atomic_fetch(&counter, pe);
    CHECK_EQ_LONG(total, (long)n * THREADS * ITERS);
    int from = (me + n - 1) % n;
    for (int t = 0; t < THREADS; t++)
        CHECK_EQ_LONG(slots[t * 64 + from % 64], ITERS - 1);
    shmem_finalize();
    return 0;
}
