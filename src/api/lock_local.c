/* Per-PE ticket lines of the distributed locks, found by the lock's address.
 * Entries are made on first use and never freed (a program has few locks);
 * they are pushed onto their bucket's list with a compare-and-swap, so
 * lookups take no lock.  A bucket's list only grows at its head, so a
 * failed push re-reads the head and looks again. */
#include <stdint.h>
#include <stdlib.h>

#include "api.h"
#include "lock_local.h"

enum { BUCKETS = 256 };

struct line {
    const long *lock;
    uint32_t next_ticket;   /* handed to the next thread that queues */
    uint32_t serving;       /* the ticket whose thread may use the PE's node */
    struct line *next;      /* same bucket */
};
static struct line *buckets[BUCKETS];

static struct line *find(struct line *l, const long *lock)
{
    for (; l; l = l->next)
        if (l->lock == lock)
            return l;
    return NULL;
}

static struct line *line_of(const long *lock)
{
    struct line **b = &buckets[((uintptr_t)lock >> 3) % BUCKETS];
    struct line *head = __atomic_load_n(b, __ATOMIC_ACQUIRE), *fresh = NULL;
    for (;;) {
        struct line *l = find(head, lock);
        if (l) {
            free(fresh);   /* another thread added it first */
            return l;
        }
        if (!fresh && !(fresh = calloc(1, sizeof *fresh)))
            shoal_fatal("shmem_set_lock", "out of memory for a lock's thread queue");
        fresh->lock = lock;
        fresh->next = head;
        if (__atomic_compare_exchange_n(b, &head, fresh, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return fresh;
    }
}

void shoal_lock_local_take(const long *lock)
{
    struct line *l = line_of(lock);
    uint32_t mine = __atomic_fetch_add(&l->next_ticket, 1, __ATOMIC_RELAXED);
    SHOAL_WAIT_WHILE(__atomic_load_n(&l->serving, __ATOMIC_ACQUIRE) != mine);
}

bool shoal_lock_local_try(const long *lock)
{
    struct line *l = line_of(lock);
    uint32_t now = __atomic_load_n(&l->serving, __ATOMIC_ACQUIRE), expect = now;
    return __atomic_compare_exchange_n(&l->next_ticket, &expect, now + 1, false, __ATOMIC_ACQUIRE,
                                       __ATOMIC_RELAXED);
}

void shoal_lock_local_give(const long *lock)
{
    struct line *l = line_of(lock);
    __atomic_fetch_add(&l->serving, 1, __ATOMIC_RELEASE);
    shoal_notify(shoal.my_pe);   /* the next thread may sleep on this PE's doorbell */
}
