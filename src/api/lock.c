/* Distributed locks: a first-come-first-served queue lock (the MCS design)
 * on the user's symmetric long.
 *
 * The long, zero on every PE before first use, is never read whole: it is
 * two 32-bit words, and only AMOs on world PEs change them.
 *   tail  (second word, on PE 0 only): 0 when the lock is free, else
 *         1 + the PE at the end of the queue.
 *   node  (first word, on every PE): that PE's place in the queue:
 *         bit 0      set while the PE waits for its predecessor
 *         bits 1-31  1 + the PE queued right behind it (0: nobody yet).
 * A PE joins by swapping itself into the tail and, if there was a
 * predecessor, writing itself into the predecessor's node and waiting on
 * its own node, which only its predecessor changes.  So waiting PEs spin on
 * local memory, and the lock passes in the order PEs reached the tail.
 *
 * The queue has one node per PE, so under SHMEM_THREAD_MULTIPLE the threads
 * of a PE first queue among themselves (lock_local.c: a ticket per thread)
 * and only the thread at the head of that line uses the PE's node. */
#include "api.h"
#include "lock_local.h"

_Static_assert(sizeof(long) >= 2 * sizeof(uint32_t), "a lock must hold two 32-bit words");

enum { HOME_PE = 0, WAITING = 1 };

static uint32_t *node_word(long *lock) { return (uint32_t *)lock; }
static uint32_t *tail_word(long *lock) { return (uint32_t *)lock + 1; }

/* One 32-bit AMO on world PE pe; returns the old value. */
static uint32_t amo32(enum shoal_amo_op op, uint32_t *word, uint32_t value, uint32_t cond, int pe)
{
    uint32_t old = 0;
    shoal_amo(&shoal_ctx_default, op, sizeof old, word, &old, &value, &cond, pe, false);
    return old;
}

static uint32_t my_node(long *lock)
{
    return __atomic_load_n(node_word(lock), __ATOMIC_ACQUIRE);
}

static void check_lock(const char *routine, long *lock)
{
    if (SHOAL_DEBUG_ON)
        shoal_api_check_amo(routine, lock, sizeof *lock, HOME_PE);
}

static void set_lock(long *lock)
{
    uint32_t me = (uint32_t)shoal.my_pe + 1;
    amo32(SHOAL_AMO_SET, node_word(lock), WAITING, 0, shoal.my_pe);
    uint32_t prev = amo32(SHOAL_AMO_SWAP, tail_word(lock), me, 0, HOME_PE);
    if (prev == 0)
        return;
    amo32(SHOAL_AMO_OR, node_word(lock), me << 1, 0, (int)prev - 1);
    SHOAL_WAIT_WHILE(my_node(lock) & WAITING);
}

/* 0 when this call took the lock, 1 when someone holds or awaits it. */
static int test_lock(long *lock)
{
    uint32_t me = (uint32_t)shoal.my_pe + 1;
    amo32(SHOAL_AMO_SET, node_word(lock), 0, 0, shoal.my_pe);
    return amo32(SHOAL_AMO_CSWAP, tail_word(lock), me, 0, HOME_PE) == 0 ? 0 : 1;
}

static void clear_lock(long *lock)
{
    uint32_t me = (uint32_t)shoal.my_pe + 1;
    uint32_t next = my_node(lock) >> 1;
    if (next == 0) {
        if (amo32(SHOAL_AMO_CSWAP, tail_word(lock), 0, me, HOME_PE) == me)
            return;   /* nobody queued: the lock is free */
        /* Someone swapped into the tail and is about to link behind us. */
        SHOAL_WAIT_WHILE((next = my_node(lock) >> 1) == 0);
    }
    amo32(SHOAL_AMO_AND, node_word(lock), ~(uint32_t)WAITING, 0, (int)next - 1);
}

/* Threads share the PE's node only when several may call at once. */
static bool threads_contend(void)
{
    return shoal.thread_level == SHMEM_THREAD_MULTIPLE;
}

SHOAL_API(void, shmem_set_lock, (long *lock))
{
    check_lock("shmem_set_lock", lock);
    if (threads_contend())
        shoal_lock_local_take(lock);
    set_lock(lock);
}

SHOAL_API(int, shmem_test_lock, (long *lock))
{
    check_lock("shmem_test_lock", lock);
    if (!threads_contend())
        return test_lock(lock);
    if (!shoal_lock_local_try(lock))
        return 1;   /* another thread of this PE holds or awaits it */
    if (test_lock(lock) == 0)
        return 0;
    shoal_lock_local_give(lock);
    return 1;
}

SHOAL_API(void, shmem_clear_lock, (long *lock))
{
    check_lock("shmem_clear_lock", lock);
    shoal_quiet(&shoal_ctx_default);   /* the critical section's updates land before the next holder's */
    clear_lock(lock);
    if (threads_contend())
        shoal_lock_local_give(lock);
}
