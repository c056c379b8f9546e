/* Locks: mutual exclusion and a counter updated with plain get/put under
 * contention, on a heap lock and on a global one, acquired by set_lock and
 * by spinning on test_lock; test_lock's return values. */
#include <sched.h>

#include "api_test.h"

enum { ROUNDS = 200 };

long global_lock;
static long inside;    /* PEs in the critical section, on PE 0 */
static long counter;   /* updated without atomics, on PE 0 */

/* Read-modify-write with get and put, slowed down so that PEs without
 * mutual exclusion would interleave: only the lock keeps the count exact. */
static void critical_section(int round)
{
    CHECK(shmem_long_atomic_fetch_inc(&inside, 0) == 0, "two PEs hold the lock");
    long v = shmem_long_g(&counter, 0);
    for (volatile int spin = 0; spin < 2000; spin++)
        ;
    if (round % 16 == 0)
        sched_yield();
    shmem_long_p(&counter, v + 1, 0);
    shmem_long_atomic_add(&inside, -1, 0);
}

static void contend(long *lock, bool use_test)
{
    counter = 0;
    shmem_barrier_all();
    for (int i = 0; i < ROUNDS; i++) {
        if (use_test && i % 2)
            while (shmem_test_lock(lock))
                ;
        else
            shmem_set_lock(lock);
        critical_section(i);
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
    if (me == 0)
        CHECK_EQ_LONG(counter, (long)ROUNDS * npes);
    shmem_barrier_all();
}

static void test_lock_values(long *lock)
{
    if (npes == 1) {
        CHECK(shmem_test_lock(lock) == 0, "free lock not taken");
        shmem_clear_lock(lock);
        return;
    }
    shmem_barrier_all();
    if (me == 0)
        shmem_set_lock(lock);
    shmem_barrier_all();
    if (me != 0)
        CHECK(shmem_test_lock(lock) == 1, "held lock reported free");
    shmem_barrier_all();
    if (me == 0)
        shmem_clear_lock(lock);
    shmem_barrier_all();
    if (me == npes - 1) {
        CHECK(shmem_test_lock(lock) == 0, "released lock not taken");
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
}

int main(void)
{
    test_init();
    long *heap_lock = shmem_calloc(1, sizeof(long));
    contend(heap_lock, false);
    contend(&global_lock, true);
    test_lock_values(heap_lock);
    test_lock_values(&global_lock);
    contend(heap_lock, true);
    shmem_free(heap_lock);
    shmem_finalize();
    if (me == 0)
        printf("api_lock: %d PEs ok\n", npes);
    return 0;
}
