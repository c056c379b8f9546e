/* Fcollect of small blocks on a team that shares memory: every member
 * publishes its block in its ring (ring.c) and copies every other member's
 * block out of their entries.  One round in which nobody writes another's
 * memory, against the exchange algorithms' signal per step: a member that
 * the scheduler runs late (more PEs than cores) delays only the reads of
 * its own block.  Every member waits for everyone's entry, so no one leaves
 * before all have entered (the slot rule). */
#include "coll_internal.h"

void fcollect_shm(const struct coll_call *c, const struct coll_blocks *b)
{
    int P = c->n, me = c->me;
    size_t block = b->len0;
    ring_publish(c, b->mine, block);
    cc_copy((char *)b->dest + (size_t)me * block, b->mine, block);
    for (int s = 1; s < P; s++) {
        int from = (me + s) % P;
        ring_take(c, from, (char *)b->dest + (size_t)from * block, 0, block);
    }
    ring_done(c);
}
