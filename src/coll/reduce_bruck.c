/* Bruck-style reduction (004 §5.1.3): in step k each member sends its
 * partial result to the member 2^k to its left (mod the power of two) and
 * reduces what arrives from 2^k to its right; after log2 P steps each holds
 * the reduction of all.  Same cost as recursive doubling, but each member
 * talks to two different members per step.  Non-power-of-two teams fold as
 * in recursive doubling; scratch regions and chunking as there. */
#include "coll_internal.h"

enum { F_PRE = 0, F_POST = 1, F_STEP = 2 };

void reduce_bruck(const struct coll_call *c, const struct coll_reduce *r)
{
    int P = c->n, me = c->me, p2 = cc_pow2_floor(P), rem = P - p2, L = cc_log2_ceil(p2);
    size_t chunk = recdbl_chunk(c->buf_bytes, P, r->elem), region = chunk * r->elem;
    bool folded = me < 2 * rem && me % 2 == 0, pair = me < 2 * rem && me % 2 == 1;
    int v = me < 2 * rem ? me / 2 : me - rem;
    if (!chunk) {   /* a pWrk too small for one element per region */
        reduce_flat(c, r);
        return;
    }
    if (r->dest != r->src)
        memcpy(r->dest, r->src, r->count * r->elem);
    for (size_t o = 0, ci = 0; o < r->count; o += chunk, ci++) {
        size_t cnt = r->count - o < chunk ? r->count - o : chunk, bytes = cnt * r->elem;
        char *acc = (char *)r->dest + o * r->elem, *pre = c->buf + (ci & 1) * region;
        if (folded) {
            cc_put_signal(c, me + 1, pre, acc, bytes, F_PRE);
            cc_await(c, F_POST, 1);
            continue;
        }
        if (pair) {
            cc_await(c, F_PRE, 1);
            coll_combine(r->op, r->dt, acc, pre, cnt);
        }
        for (int k = 0; k < L; k++) {
            int q = (v - (1 << k) + p2) % p2, qm = q < rem ? 2 * q + 1 : q + rem;
            char *in = c->buf + (2 * (size_t)(k + 1) + (ci & 1)) * region;
            cc_put_signal(c, qm, in, acc, bytes, F_STEP + k);
            cc_await(c, F_STEP + k, 1);
            coll_combine(r->op, r->dt, acc, in, cnt);
        }
        if (pair)
            cc_put_signal(c, me - 1, acc, acc, bytes, F_POST);
    }
}
