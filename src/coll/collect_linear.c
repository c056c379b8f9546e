/* Linear collect: each member writes its own block into every other
 * member, starting with its right neighbour so the writers spread out.
 * Straight into their dests once every member has said it entered (its
 * dest is free), or, over the network with blocks that fit, at once into
 * the receivers' scratch, which the receiver copies out (cc_scratch_room):
 * one latency instead of two.  P-1 messages per member: small teams, small
 * blocks.  Into dests it uses only its own block's offset, so it also
 * serves callers that know no other offsets. */
#include "coll_internal.h"

enum { F_ENTER = 0, F_DATA = 1 };

/* Every block fits a sender's share of the scratch.  The room is checked
 * first: a caller that knows only its own block's length (shoal_coll_collect
 * on teams too large to gather the sizes) has less than a line per member,
 * so none. */
static bool via_scratch(const struct coll_call *c, const struct coll_blocks *b, size_t room)
{
    if (!room)
        return false;
    for (int i = 0; i < c->n; i++)
        if (blk_len(b, i) > room)
            return false;
    return true;
}

void collect_linear(const struct coll_call *c, const struct coll_blocks *b)
{
    int P = c->n, me = c->me;
    char *mine = (char *)b->dest + blk_off(b, me);
    size_t len = blk_len(b, me), room = cc_scratch_room(c, P);
    bool scratch = via_scratch(c, b, room);
    if (b->mine && len)
        memcpy(mine, b->mine, len);
    if (!c->dest_ready && !scratch) {
        for (int i = 1; i < P; i++)
            cc_signal(c, (me + i) % P, F_ENTER);
        cc_await(c, F_ENTER, P - 1);
    }
    for (int i = 1; i < P; i++)
        cc_put_signal(c, (me + i) % P, scratch ? c->buf + (size_t)me * room : mine, mine, len, F_DATA);
    cc_await(c, F_DATA, P - 1);
    for (int i = 0; scratch && i < P; i++)
        if (i != me)
            memcpy((char *)b->dest + blk_off(b, i), c->buf + (size_t)i * room, blk_len(b, i));
}
