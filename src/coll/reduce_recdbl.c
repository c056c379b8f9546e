/* Recursive doubling (004 §5.1.2, 000 §IV-D), message form: in step k
 * partners 2^k apart exchange their partial results and both reduce, so
 * after log2 P steps everyone has the result; log2 P latencies, the best
 * for short vectors.  P not a power of two: the first r = P - 2^floor(log2 P)
 * even members first send their vector to their odd neighbour, and get the
 * result back from it at the end.  Partials travel into the partner's pSync
 * scratch, one region per step and chunk parity; longer vectors go in
 * chunks; a few bytes on shared memory travel with their signal in one
 * cache line.  Partners reduce in the same order, so all members get the
 * same bits.  (reduce_recdbl_ls.c is the load/store form for long vectors.) */
#include "coll_internal.h"

enum { F_PRE = 0, F_POST = 1, F_STEP = 2 };

/* Elements per chunk when each of 2(L+1) regions gets an equal share; 0 if
 * the scratch cannot hold even one element per region. */
size_t recdbl_chunk(size_t buf_bytes, int n, size_t elem)
{
    int L = cc_log2_ceil(cc_pow2_floor(n));
    return buf_bytes / (2 * (size_t)(L + 1)) / elem;
}

/* The whole algorithm for a vector that fits one line: mailbox 0 for the
 * fold, 1 + k for step k, 1 + L for the result handed back. */
static void recdbl_lines(const struct coll_call *c, const struct coll_reduce *r)
{
    int P = c->n, me = c->me, p2 = cc_pow2_floor(P), rem = P - p2, L = cc_log2_ceil(p2);
    size_t bytes = r->count * r->elem;
    char *acc = r->dest;
    if (acc != r->src)
        memcpy(acc, r->src, bytes);
    if (me < 2 * rem && me % 2 == 0) {
        cc_line_put(c, me + 1, 0, acc, bytes);
        memcpy(acc, cc_line_wait(c, 1 + L), bytes);
        return;
    }
    if (me < 2 * rem)
        coll_combine(r->op, r->dt, acc, cc_line_wait(c, 0), r->count);
    int v = me < 2 * rem ? me / 2 : me - rem;
    for (int k = 0; k < L; k++) {
        int q = v ^ (1 << k), qm = q < rem ? 2 * q + 1 : q + rem;
        cc_line_put(c, qm, 1 + k, acc, bytes);
        const void *in = cc_line_wait(c, 1 + k);
        if (q < v)
            coll_combine3(r->op, r->dt, acc, in, acc, r->count);
        else
            coll_combine(r->op, r->dt, acc, in, r->count);
    }
    if (me < 2 * rem)
        cc_line_put(c, me - 1, 1 + L, acc, bytes);
}

void reduce_recdbl(const struct coll_call *c, const struct coll_reduce *r)
{
    if (cc_lines_ok(c, r->count * r->elem)) {
        recdbl_lines(c, r);
        return;
    }
    reduce_pairwise_chunked(c, r, false);
}

/* The chunked schedule shared with Bruck (reduce_bruck.c): fold the
 * non-power-of-two members in, log2 P steps through scratch regions, hand
 * the result back.  Only the partner of each step differs. */
void reduce_pairwise_chunked(const struct coll_call *c, const struct coll_reduce *r, bool bruck)
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
            cc_await(c, F_POST, 1);   /* the result is in my dest */
            continue;
        }
        if (pair) {
            cc_await(c, F_PRE, 1);
            coll_combine(r->op, r->dt, acc, pre, cnt);
        }
        for (int k = 0; k < L; k++) {
            /* recursive doubling: exchange with v ^ 2^k; Bruck: send to v - 2^k */
            int q = bruck ? (v - (1 << k) + p2) % p2 : v ^ (1 << k), qm = q < rem ? 2 * q + 1 : q + rem;
            char *in = c->buf + (2 * (size_t)(k + 1) + (ci & 1)) * region;
            cc_put_signal(c, qm, in, acc, bytes, F_STEP + k);
            cc_await(c, F_STEP + k, 1);
            if (!bruck && q < v)   /* partners reduce in the same order: same bits */
                coll_combine3(r->op, r->dt, acc, in, acc, cnt);
            else
                coll_combine(r->op, r->dt, acc, in, cnt);
        }
        if (pair)
            cc_put_signal(c, me - 1, acc, acc, bytes, F_POST);
    }
}
