/* Linear collect: once every member has said it entered (its dest is free),
 * each member writes its own block straight into every other member's dest,
 * starting with its right neighbour so the writers spread out.  One latency
 * after the entry signals, P-1 messages per member: small teams, small
 * blocks.  Uses only its own block's offset, so it also serves callers
 * that know no other offsets. */
#include "coll_internal.h"

enum { F_ENTER = 0, F_DATA = 1 };

void collect_linear(const struct coll_call *c, const struct coll_blocks *b)
{
    int P = c->n, me = c->me;
    char *mine = (char *)b->dest + blk_off(b, me);
    size_t len = blk_len(b, me);
    if (b->mine && len)
        memcpy(mine, b->mine, len);
    if (!c->dest_ready) {
        for (int i = 1; i < P; i++)
            cc_signal(c, (me + i) % P, F_ENTER);
        cc_await(c, F_ENTER, P - 1);
    }
    for (int i = 1; i < P; i++)
        cc_put_signal(c, (me + i) % P, mine, mine, len, F_DATA);
    cc_await(c, F_DATA, P - 1);
}
