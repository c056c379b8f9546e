/* Alltoall of small blocks on a team that shares memory: every member
 * publishes its whole source in its ring (ring.c) and copies its own block
 * out of every other member's entry.  One round in which nobody writes
 * another's memory, against pairwise exchange's "everyone has entered"
 * round followed by the data round.  Every member waits for everyone's
 * entry, so no one leaves before all have entered (the slot rule). */
#include "coll_internal.h"

void alltoall_shm(const struct coll_call *c, void *dest, const void *src, size_t block)
{
    int P = c->n, me = c->me;
    ring_publish(c, src, (size_t)P * block);
    cc_copy((char *)dest + (size_t)me * block, (const char *)src + (size_t)me * block, block);
    for (int s = 1; s < P; s++) {
        int from = (me + s) % P;
        ring_take(c, from, (char *)dest + (size_t)from * block, (size_t)me * block, block);
    }
    ring_done(c);
}
