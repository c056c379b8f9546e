/* Reduction of a few hundred bytes on a team that shares memory: every
 * member publishes its contribution in its ring (ring.c), then combines
 * everyone's itself, in member order, so every member computes the same
 * result bit for bit (floating point too).  One round, as in
 * fcollect_shm.c, against recursive doubling's log2 P rounds of waiting for
 * a partner: with more PEs than cores each of those waits may be for a
 * descheduled partner.  Every member waits for everyone's entry, so no one
 * leaves before all have entered (the slot rule). */
#include "coll_internal.h"

void reduce_shm(const struct coll_call *c, const struct coll_reduce *r)
{
    _Alignas(16) unsigned char theirs[COLL_RING_BYTES];   /* ring data is only 8-byte aligned */
    size_t bytes = r->count * r->elem;
    ring_publish(c, r->src, bytes);
    ring_take(c, 0, r->dest, 0, bytes);   /* my own published copy when I am member 0: dest may be src */
    for (int i = 1; i < c->n; i++) {
        ring_take(c, i, theirs, 0, bytes);
        coll_combine(r->op, r->dt, r->dest, theirs, r->count);
    }
    ring_done(c);
}
