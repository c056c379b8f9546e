/* Bruck collect: in step k each member sends the min(2^k, P - 2^k) blocks
 * it holds, starting at its own, to the member 2^k to its left.
 * ceil(log2 P) latencies for any P, no folding.  The blocks go straight to
 * their final place in the receiver's dest (in at most two pieces when the
 * range wraps), so no final rotation is needed. */
#include "coll_internal.h"

enum { F_ENTER = 0, F_STEP = 24 };

/* Member range [from, from + cnt) mod P: one or two contiguous spans. */
static void send_range(const struct coll_call *c, const struct coll_blocks *b, int to, int from, int cnt, int flag)
{
    int P = c->n, end = from + cnt;
    char *dest = b->dest;
    if (end > P) {
        size_t first = blk_span(b, from, P);
        if (first) {
            cc_put(c, to, dest + blk_off(b, from), dest + blk_off(b, from), first);
            shoal_fence(COLL_CTX);
        }
        from = 0;
        end -= P;
    }
    cc_put_signal(c, to, dest + blk_off(b, from), dest + blk_off(b, from), blk_span(b, from, end), flag);
}

void collect_bruck(const struct coll_call *c, const struct coll_blocks *b)
{
    int P = c->n, me = c->me;
    if (b->mine && blk_len(b, me))
        memcpy((char *)b->dest + blk_off(b, me), b->mine, blk_len(b, me));
    int k = 0;
    for (int d = 1; d < P && !c->dest_ready; d <<= 1, k++)   /* member me + d writes into my dest in step k */
        cc_signal(c, (me + d) % P, F_ENTER + k);
    k = 0;
    for (int d = 1; d < P; d <<= 1, k++) {
        int cnt = d < P - d ? d : P - d;
        if (!c->dest_ready)
            cc_await(c, F_ENTER + k, 1);
        send_range(c, b, (me - d + P) % P, me, cnt, F_STEP + k);
        cc_await(c, F_STEP + k, 1);
    }
}
