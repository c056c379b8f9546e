/* Flat tree (004 §5.1.1): member 0 waits until everyone has arrived, reads
 * every member's source (in place through shoal_ptr when the team shares
 * memory, else with gets) and reduces, then writes the result into every
 * dest.  T = P alpha + 2n(P-1) beta + n(P-1) gamma: only for tiny teams,
 * but it needs no scratch at all, so it is also the fallback when a user's
 * pWrk is too small for anything else.  Blocked so the partial result stays
 * in cache while each source streams past it. */
#include "coll_internal.h"

enum { F_ARRIVE = 0, F_DATA = 1, BLOCK_BYTES = 16384 };

void reduce_flat(const struct coll_call *c, const struct coll_reduce *r)
{
    int P = c->n;
    size_t bytes = r->count * r->elem;
    if (c->me != 0) {
        cc_signal(c, 0, F_ARRIVE);
        cc_await(c, F_DATA, 1);
        return;
    }
    cc_await(c, F_ARRIVE, P - 1);
    size_t per = BLOCK_BYTES / r->elem ? BLOCK_BYTES / r->elem : 1;
    void *tmp = c->shm ? NULL : cc_tmp(per * r->elem, 0);
    for (size_t o = 0; o < r->count; o += per) {
        size_t cnt = r->count - o < per ? r->count - o : per;
        char *acc = (char *)r->dest + o * r->elem;
        const char *mine = (const char *)r->src + o * r->elem;
        if (acc != mine)
            memcpy(acc, mine, cnt * r->elem);
        for (int i = 1; i < P; i++)
            coll_combine(r->op, r->dt, acc, cc_peer_view(c, i, mine, cnt * r->elem, tmp), cnt);
    }
    for (int i = 1; i < P; i++)
        cc_put_signal(c, i, r->dest, r->dest, bytes, F_DATA);
}
