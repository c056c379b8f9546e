/* Locks under SHMEM_THREAD_MULTIPLE: several threads of every PE contend for
 * one lock (set_lock, and test_lock spins), each updating a counter on PE 0
 * with plain get and put.  Only mutual exclusion between all threads of all
 * PEs keeps the count exact; threads sharing their PE's queue node lose the
 * lock's queue (a hang or two holders). */
#include <pthread.h>
#include <sched.h>

#include "api_test.h"

enum { THREADS = 3, ROUNDS = 100 };

static long lock;
static long inside;    /* holders right now, on PE 0 */
static long counter;   /* on PE 0 */

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < ROUNDS; i++) {
        if ((i + id) % 3 == 0)
            while (shmem_test_lock(&lock))
                sched_yield();
        else
            shmem_set_lock(&lock);
        CHECK(shmem_long_atomic_fetch_inc(&inside, 0) == 0, "two threads hold the lock");
        long v = shmem_long_g(&counter, 0);
        if (i % 8 == 0)
            sched_yield();
        shmem_long_p(&counter, v + 1, 0);
        shmem_long_atomic_add(&inside, -1, 0);
        shmem_clear_lock(&lock);
    }
    return NULL;
}

int main(void)
{
    int provided;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d", provided);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    pthread_t t[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    shmem_barrier_all();
    if (me == 0)
        CHECK_EQ_LONG(counter, (long)ROUNDS * THREADS * npes);
    shmem_finalize();
    return 0;
}
