/* Prefix sums (sum_inscan / sum_exscan) by recursive doubling: every
 * member keeps the sum of the members below it (E) and the sum of its
 * current group (T); in step k partners exchange T, and the upper one adds
 * it to E.  log2 P latencies, and every member's result depends on every
 * member, so nobody leaves before all have entered.  For P not a power of
 * two the first r even members fold into their odd neighbour, which
 * returns E to them at the end.  Vectors longer than the scratch go in
 * chunks, double-buffered by chunk parity. */
#include "coll_internal.h"

enum { F_PRE = 0, F_POST = 1, F_STEP = 2 };

struct scan_regions {
    char *pre[2], *post[2], *step[32][2];
    size_t chunk;   /* elements per chunk */
};

static bool carve(const struct coll_call *c, int L, size_t elem, struct scan_regions *g)
{
    size_t nreg = 2 * (size_t)(L + 2), each = (c->buf_bytes / nreg) / elem * elem;
    if (!each)
        return false;
    g->chunk = each / elem;
    char *p = c->buf;
    for (int par = 0; par < 2; par++) {
        g->pre[par] = p, p += each;
        g->post[par] = p, p += each;
        for (int k = 0; k < L; k++)
            g->step[k][par] = p, p += each;
    }
    return true;
}

void scan_recdbl(const struct coll_call *c, enum shoal_dtype dt, void *dest, const void *src, size_t count,
                 bool inclusive)
{
    int P = c->n, me = c->me, p2 = cc_pow2_floor(P), r = P - p2, L = cc_log2_ceil(p2);
    size_t elem = coll_dtype_size(dt);
    struct scan_regions g;
    if (!carve(c, L, elem, &g))
        shoal_fatal("shmem_sum_scan", "no room for scan scratch (%zu bytes for %d PEs)", c->buf_bytes, P);
    bool folded = me < 2 * r && me % 2 == 0, pair = me < 2 * r && me % 2 == 1;
    int v = me < 2 * r ? me / 2 : me - r;
    char *X = cc_tmp(g.chunk * elem, 0), *E = cc_tmp(g.chunk * elem, 1), *T = cc_tmp(g.chunk * elem, 2);
    for (size_t o = 0, ci = 0; o < count; o += g.chunk, ci++) {
        size_t cnt = count - o < g.chunk ? count - o : g.chunk, bytes = cnt * elem;
        int par = (int)(ci & 1);
        char *out = (char *)dest + o * elem;
        memcpy(X, (const char *)src + o * elem, bytes);   /* src may be dest */
        if (folded) {
            cc_put_signal(c, me + 1, g.pre[par], X, bytes, F_PRE);
            cc_await(c, F_POST, 1);
            if (inclusive)
                coll_combine3(SHOAL_OP_SUM, dt, out, g.post[par], X, cnt);
            else
                memcpy(out, g.post[par], bytes);
            continue;
        }
        memcpy(T, X, bytes);
        if (pair) {
            cc_await(c, F_PRE, 1);
            coll_combine(SHOAL_OP_SUM, dt, T, g.pre[par], cnt);
        }
        memset(E, 0, bytes);   /* zero is all-bits-zero for every arithmetic type */
        for (int k = 0; k < L; k++) {
            int q = v ^ (1 << k), qm = q < r ? 2 * q + 1 : q + r;
            cc_put_signal(c, qm, g.step[k][par], T, bytes, F_STEP + k);
            cc_await(c, F_STEP + k, 1);
            if (q < v)
                coll_combine(SHOAL_OP_SUM, dt, E, g.step[k][par], cnt);
            coll_combine(SHOAL_OP_SUM, dt, T, g.step[k][par], cnt);
        }
        if (pair)
            cc_put_signal(c, me - 1, g.post[par], E, bytes, F_POST);
        if (inclusive) {
            coll_combine3(SHOAL_OP_SUM, dt, out, E, X, cnt);
            if (pair)
                coll_combine(SHOAL_OP_SUM, dt, out, g.pre[par], cnt);
        } else {
            memcpy(out, E, bytes);
            if (pair)
                coll_combine(SHOAL_OP_SUM, dt, out, g.pre[par], cnt);
        }
    }
}
