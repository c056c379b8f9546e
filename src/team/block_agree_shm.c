/* Block agreement for parents whose members all share memory: one OR
 * accumulator and an arrival counter in the parent's pool block on its first
 * member.  Each member ORs its busy bits in and counts itself; the last to
 * arrive copies the union out, clears the accumulator for the next
 * agreement, publishes the epoch and wakes the others, who wait only once
 * (on an oversubscribed host that beats log2 P dependent rounds).
 *
 * Two accumulators and two results, by epoch parity: agreement e+2 reuses
 * e's, and nobody reaches e+2 before every member has left e+1, hence read
 * e's result.  The counter and the epoch only grow; an OR's identity is
 * zero, so a freshly zeroed block needs no set-up. */
#include "team_impl.h"

struct agree_shm {
    uint64_t arrivals;   /* members arrived, over all agreements */
    uint64_t released;   /* last agreement whose result is out */
    uint64_t words[];    /* acc[2][w], then result[2][w] */
};

size_t shoal_block_agree_shm_bytes(void)
{
    return sizeof(struct agree_shm) + 4 * (size_t)shoal_pool_words() * sizeof(uint64_t);
}

void shoal_block_agree_shm(struct shoal_team *parent, uint64_t *busy, uint64_t epoch)
{
    int w = shoal_pool_words(), p = (int)(epoch & 1);
    struct agree_shm *a = shoal_ptr(shoal_pool_agree_area(parent->block), shoal_team_pe(parent, 0));
    uint64_t *acc = a->words + p * w, *result = a->words + (2 + p) * w;
    for (int i = 0; i < w; i++)
        if (busy[i])
            __atomic_fetch_or(&acc[i], busy[i], __ATOMIC_RELAXED);
    if (__atomic_add_fetch(&a->arrivals, 1, __ATOMIC_ACQ_REL) == epoch * (uint64_t)parent->n_pes) {
        for (int i = 0; i < w; i++) {
            result[i] = __atomic_load_n(&acc[i], __ATOMIC_RELAXED);
            acc[i] = 0;
        }
        __atomic_store_n(&a->released, epoch, __ATOMIC_RELEASE);
        for (int i = 0; i < parent->n_pes; i++)
            if (i != parent->my_pe)
                shoal_notify(shoal_team_pe(parent, i));
    } else {
        SHOAL_WAIT_WHILE_LOCAL(__atomic_load_n(&a->released, __ATOMIC_ACQUIRE) < epoch);
    }
    for (int i = 0; i < w; i++)
        busy[i] = result[i];
}
