/* Recursive-doubling collect: in step k members exchange everything they
 * hold with the member 2^k away, so the held range doubles; log2 P
 * latencies.  For P not a power of two, the first r = P - 2^floor(log2 P)
 * even members first hand their block to their odd neighbour and get the
 * whole result from it at the end (004 §5.1.2).  Blocks land directly in
 * the partner's dest; a virtual rank's blocks are contiguous there. */
#include "coll_internal.h"

enum { F_PRE_ENTER = 0, F_PRE = 1, F_POST = 2, F_ENTER = 4, F_STEP = 28 };

/* First real member of virtual rank v (the fold pairs 2v, 2v+1 for v < r). */
static int real_lo(int v, int r)
{
    return v < r ? 2 * v : v + r;
}

void collect_recdbl(const struct coll_call *c, const struct coll_blocks *b)
{
    int P = c->n, me = c->me, p2 = cc_pow2_floor(P), r = P - p2;
    char *dest = b->dest;
    if (b->mine && blk_len(b, me))
        memcpy(dest + blk_off(b, me), b->mine, blk_len(b, me));
    if (P == 1)
        return;
    if (me < 2 * r && me % 2 == 0) {   /* folded away: hand over, then receive everything */
        if (!c->dest_ready)
            cc_await(c, F_PRE_ENTER, 1);
        cc_put_signal(c, me + 1, dest + blk_off(b, me), dest + blk_off(b, me), blk_len(b, me), F_PRE);
        cc_await(c, F_POST, 1);
        return;
    }
    int v = me < 2 * r ? me / 2 : me - r, L = cc_log2_ceil(p2);
    for (int k = 0; k < L && !c->dest_ready; k++)   /* my dest is free: tell each partner writing into it */
        cc_signal(c, real_lo(v ^ (1 << k), r) + ((v ^ (1 << k)) < r), F_ENTER + k);
    if (me < 2 * r) {
        if (!c->dest_ready)
            cc_signal(c, me - 1, F_PRE_ENTER);
        cc_await(c, F_PRE, 1);
    }
    for (int k = 0; k < L; k++) {
        int q = v ^ (1 << k), lo_v = v & ~((1 << k) - 1);
        int qm = real_lo(q, r) + (q < r);   /* the partner's real member (the odd one of a pair) */
        int lo = real_lo(lo_v, r), hi = real_lo(lo_v + (1 << k), r);
        char *from = dest + blk_off(b, lo);
        if (!c->dest_ready)
            cc_await(c, F_ENTER + k, 1);
        cc_put_signal(c, qm, from, from, blk_span(b, lo, hi), F_STEP + k);
        cc_await(c, F_STEP + k, 1);
    }
    if (me < 2 * r)
        cc_put_signal(c, me - 1, dest, dest, blk_span(b, 0, P), F_POST);
}
