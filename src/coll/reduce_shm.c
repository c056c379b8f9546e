/* Reduction of a few hundred bytes on a team that shares memory: every
 * member publishes its contribution in its ring (ring.c), then combines
 * everyone's itself, in member order, so every member computes the same
 * result bit for bit (floating point too).  One round, as in
 * fcollect_shm.c, against recursive doubling's log2 P rounds of waiting for
 * a partner: with more PEs than cores each of those waits may be for a
 * descheduled partner.  Every member waits for everyone's entry, so no one
 * leaves before all have entered (the slot rule). */
#include "coll_internal.h"

/* A few bytes of elements no wider than 8 sit in each stamp's line, aligned
 * enough to combine where they are; the rest is copied out first.  With P
 * PEs on 2 cores each PE's own instructions run P/2 times in a row on its
 * core, so they count: callgrind, 1-long sum-reduce at 8 PEs, 900 -> 685
 * instructions per call in the takes and reduce_shm (waits aside); 8
 * alternating pairs, 8-64 B: 0.89-0.94 at 8 PEs, 0.96-1.04 at 4 (noise
 * +-50% per pair). */
static bool in_place(const struct coll_reduce *r)
{
    return r->count * r->elem <= COLL_RING_HEAD && r->elem <= 8;
}

void reduce_shm(const struct coll_call *c, const struct coll_reduce *r)
{
    _Alignas(16) unsigned char theirs[COLL_RING_BYTES];   /* ring data is only 8-byte aligned */
    size_t bytes = r->count * r->elem;
    ring_publish(c, r->src, bytes);
    ring_take(c, 0, r->dest, 0, bytes);   /* my own published copy when I am member 0: dest may be src */
    for (int i = 1; i < c->n; i++) {
        const void *in = theirs;
        if (in_place(r))
            in = ring_head(c, i);
        else
            ring_take(c, i, theirs, 0, bytes);
        coll_combine(r->op, r->dt, r->dest, in, r->count);
    }
    ring_done(c);
}
