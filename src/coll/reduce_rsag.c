/* Rabenseifner (004 §5.1.4): a reduce-scatter by distance doubling and
 * vector halving, then an allgather by distance halving and vector
 * doubling; 2 log2 P latencies but only about 2n bytes moved and n reduced
 * per member, the best for long vectors.  As in the paper's optimised form:
 *  - members read the partner's half straight from its dest (shoal_ptr;
 *    get otherwise), so there is no work buffer and no copy;
 *  - the last reduce-scatter step and the first allgather step are merged:
 *    the pair at distance P/2 each reduce one half of their common range
 *    and store the result into both dests (a symmetric "left computes", so
 *    both cores work);
 *  - the allgather pulls the partner's finished range.
 * Ranges: at level k a member owns the part of [0, count) picked by bits
 * 0..k-1 of its virtual rank (bit j = 0: lower half).  Non-power-of-two
 * teams fold as in reduce_recdbl.c. */
#include "coll_internal.h"

enum { F_PRE_READY = 0, F_POST = 1, F_RS = 2, F_MID_READY = 26, F_MID_DONE = 27, F_AG = 28, F_AG_DONE = 52 };

struct range {
    size_t lo, hi;
};

/* v's range at level k, and the half of it v keeps at level k + 1. */
static struct range level(size_t count, int v, int k)
{
    struct range g = {0, count};
    for (int j = 0; j < k; j++) {
        size_t mid = g.lo + (g.hi - g.lo) / 2;
        if (v >> j & 1)
            g.lo = mid;
        else
            g.hi = mid;
    }
    return g;
}

/* Where member m's partial result lives at the first step: its source,
 * unless it took in a folded neighbour's vector (then its dest).  Reading
 * sources directly saves the copy of source into dest that every member
 * would otherwise make first: a quarter of the memory traffic at 2 PEs. */
static bool partial_in_dest(int m, int rem)
{
    return m < 2 * rem;
}

/* dest[g] = (my partial)[g] op (member m's partial)[g]; first: nothing has
 * been reduced into my dest yet (partials may still sit in the sources). */
static void reduce_part(const struct coll_call *c, const struct coll_reduce *r, int m, struct range g, bool first)
{
    int rem = c->n - cc_pow2_floor(c->n);
    size_t cnt = g.hi - g.lo, bytes = cnt * r->elem, off = g.lo * r->elem;
    char *a = (char *)r->dest + off;
    const char *mine = first && !partial_in_dest(c->me, rem) ? (const char *)r->src + off : a;
    const char *theirs_addr = first && !partial_in_dest(m, rem) ? (const char *)r->src + off : a;
    void *tmp = c->shm ? NULL : cc_tmp(bytes, 0);
    coll_combine3(r->op, r->dt, a, mine, cc_peer_view(c, m, theirs_addr, bytes, tmp), cnt);
}

static void copy_part(const struct coll_call *c, const struct coll_reduce *r, int m, struct range g)
{
    size_t bytes = (g.hi - g.lo) * r->elem;
    char *a = (char *)r->dest + g.lo * r->elem;
    if (!bytes)
        return;
    if (c->shm)
        memcpy(a, shoal_ptr(a, cc_pe(c, m)), bytes);
    else
        shoal_get(COLL_CTX, a, a, bytes, cc_pe(c, m), false);
}

/* Middle stage: reduce my half of the common range into both dests. */
static void merged_middle(const struct coll_call *c, const struct coll_reduce *r, int m, struct range g, bool first)
{
    size_t bytes = (g.hi - g.lo) * r->elem;
    char *a = (char *)r->dest + g.lo * r->elem;
    reduce_part(c, r, m, g, first);
    if (c->shm)
        memcpy(shoal_ptr(a, cc_pe(c, m)), a, bytes);
    else {
        cc_put(c, m, a, a, bytes);
        shoal_fence(COLL_CTX);   /* before the done signal: a provider may reorder them */
    }
}

void reduce_rsag(const struct coll_call *c, const struct coll_reduce *r)
{
    int P = c->n, me = c->me, p2 = cc_pow2_floor(P), rem = P - p2, L = cc_log2_ceil(p2);
    size_t bytes = r->count * r->elem;
    if (me < 2 * rem && me % 2 == 0) {   /* folded: my neighbour reads my source */
        cc_signal(c, me + 1, F_PRE_READY);
        cc_await(c, F_POST, 1);
        return;
    }
    if (me < 2 * rem) {
        cc_await(c, F_PRE_READY, 1);
        int m = me - 1;   /* its partial is its source: fold it into my dest along with mine */
        void *tmp = c->shm ? NULL : cc_tmp(bytes, 0);
        coll_combine3(r->op, r->dt, r->dest, r->src, cc_peer_view(c, m, r->src, bytes, tmp), r->count);
    }
    int v = me < 2 * rem ? me / 2 : me - rem;
#define MEMBER(q) ((q) < rem ? 2 * (q) + 1 : (q) + rem)
    for (int k = 0; k + 1 < L; k++) {   /* reduce-scatter */
        int q = MEMBER(v ^ (1 << k));
        cc_signal(c, q, F_RS + k);
        cc_await(c, F_RS + k, 1);
        reduce_part(c, r, q, level(r->count, v, k + 1), k == 0);
    }
    if (L > 0) {   /* merged last reduce-scatter / first allgather step */
        int q = MEMBER(v ^ (1 << (L - 1)));
        cc_signal(c, q, F_MID_READY);
        cc_await(c, F_MID_READY, 1);
        merged_middle(c, r, q, level(r->count, v, L), L == 1);
        cc_signal(c, q, F_MID_DONE);
        cc_await(c, F_MID_DONE, 1);
    }
    for (int k = L - 2; k >= 0; k--) {   /* allgather: pull the partner's finished range */
        int pv = v ^ (1 << k), q = MEMBER(pv);
        cc_signal(c, q, F_AG + k);
        cc_await(c, F_AG + k, 1);
        copy_part(c, r, q, level(r->count, pv, k + 1));
        cc_signal(c, q, F_AG_DONE);
    }
    cc_await(c, F_AG_DONE, L > 1 ? L - 1 : 0);   /* nobody still reads my dest */
#undef MEMBER
    if (me < 2 * rem)
        cc_put_signal(c, me - 1, r->dest, r->dest, bytes, F_POST);
}
