/* Recursive doubling with "left computes" (004 §5.1.2), for long vectors:
 * partners work on each other's dest directly instead of exchanging copies.
 * In step k the right partner says its partial is ready; the left one
 * reduces both partials, writes the result into both dests and says done.
 * No receive buffer, no extra copy: one pass that reads 2n and writes 2n
 * bytes per pair, two latencies per step.  Through shoal_ptr when the team
 * shares memory; otherwise the same steps with get and put.  Non-power-of-
 * two teams fold as in reduce_recdbl.c. */
#include "coll_internal.h"

enum { F_PRE_READY = 0, F_POST = 1, F_READY = 2, F_DONE = 26, BLOCK_BYTES = 8192 };

/* dest = mine op theirs on both members, in cache-sized blocks. */
static void left_computes(const struct coll_call *c, const struct coll_reduce *r, int partner, int done_flag)
{
    size_t per = BLOCK_BYTES / r->elem ? BLOCK_BYTES / r->elem : 1;
    char *mine = r->dest;
    char *theirs = c->shm ? shoal_ptr(mine, cc_pe(c, partner)) : NULL;
    void *tmp = theirs ? NULL : cc_tmp(per * r->elem, 0);
    for (size_t o = 0; o < r->count; o += per) {
        size_t cnt = r->count - o < per ? r->count - o : per, bytes = cnt * r->elem;
        char *a = mine + o * r->elem;
        if (theirs) {
            char *b = theirs + o * r->elem;
            coll_combine3(r->op, r->dt, a, a, b, cnt);
            memcpy(b, a, bytes);
        } else {
            shoal_get(COLL_CTX, tmp, a, bytes, cc_pe(c, partner), false);
            coll_combine(r->op, r->dt, a, tmp, cnt);
            cc_put(c, partner, a, a, bytes);
        }
    }
    if (!theirs)
        shoal_fence(COLL_CTX);   /* the signal after the data: a provider may reorder them */
    cc_signal(c, partner, done_flag);
}

static void reduce_from(const struct coll_call *c, const struct coll_reduce *r, int partner)
{
    size_t per = BLOCK_BYTES / r->elem ? BLOCK_BYTES / r->elem : 1;
    void *tmp = c->shm ? NULL : cc_tmp(per * r->elem, 0);
    for (size_t o = 0; o < r->count; o += per) {
        size_t cnt = r->count - o < per ? r->count - o : per;
        char *a = (char *)r->dest + o * r->elem;
        coll_combine(r->op, r->dt, a, cc_peer_view(c, partner, a, cnt * r->elem, tmp), cnt);
    }
}

void reduce_recdbl_ls(const struct coll_call *c, const struct coll_reduce *r)
{
    int P = c->n, me = c->me, p2 = cc_pow2_floor(P), rem = P - p2, L = cc_log2_ceil(p2);
    size_t bytes = r->count * r->elem;
    if (r->dest != r->src)
        memcpy(r->dest, r->src, bytes);
    if (me < 2 * rem && me % 2 == 0) {   /* folded away */
        cc_signal(c, me + 1, F_PRE_READY);
        cc_await(c, F_POST, 1);
        return;
    }
    if (me < 2 * rem) {
        cc_await(c, F_PRE_READY, 1);
        reduce_from(c, r, me - 1);
    }
    int v = me < 2 * rem ? me / 2 : me - rem;
    for (int k = 0; k < L; k++) {
        int q = v ^ (1 << k), qm = q < rem ? 2 * q + 1 : q + rem;
        if (v < q) {
            cc_await(c, F_READY + k, 1);
            left_computes(c, r, qm, F_DONE + k);
        } else {
            cc_signal(c, qm, F_READY + k);
            cc_await(c, F_DONE + k, 1);
        }
    }
    if (me < 2 * rem)
        cc_put_signal(c, me - 1, r->dest, r->dest, bytes, F_POST);
}
