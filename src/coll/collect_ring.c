/* Ring collect: in step s each member passes block (me - s) to its right
 * neighbour, straight into the neighbour's dest.  P-1 latencies, every
 * block crosses every link once: bandwidth-optimal for large blocks. */
#include "coll_internal.h"

enum { F_ENTER = 0, F_DATA = 1 };

void collect_ring(const struct coll_call *c, const struct coll_blocks *b)
{
    int P = c->n, me = c->me, right = (me + 1) % P;
    char *dest = b->dest;
    if (b->mine && blk_len(b, me))
        memcpy(dest + blk_off(b, me), b->mine, blk_len(b, me));
    if (P == 1)
        return;
    if (!c->dest_ready) {
        cc_signal(c, (me - 1 + P) % P, F_ENTER);   /* my left neighbour writes into my dest */
        cc_await(c, F_ENTER, 1);
    }
    for (int s = 0; s < P - 1; s++) {
        int blk = (me - s + P) % P;
        cc_put_signal(c, right, dest + blk_off(b, blk), dest + blk_off(b, blk), blk_len(b, blk), F_DATA);
        cc_await(c, F_DATA, 1);
    }
}
