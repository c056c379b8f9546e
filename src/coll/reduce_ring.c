/* Ring reduction (000 §IV-D): a reduce-scatter around the ring (in step s
 * each member sends its partial of block me-s to the right and reduces
 * block me-s-1 from the left), then an allgather of the finished blocks
 * around the ring.  2(P-1) latencies but only 2n(P-1)/P bytes per link:
 * the choice for long vectors across hosts.  Reduce-scatter partials go
 * through a two-region channel in the right neighbour's scratch (a credit
 * per region consumed); the allgather writes straight into dest. */
#include "coll_internal.h"

enum { F_RS = 0, F_CREDIT = 1, F_AG = 2 };

struct ring {
    const struct coll_call *c;
    const struct coll_reduce *r;
    size_t region;      /* elements per channel region */
    uint64_t sent, received;
};

static size_t blk_lo(const struct ring *g, int b)
{
    return (size_t)((unsigned __int128)g->r->count * b / g->c->n);
}

static size_t blk_cnt(const struct ring *g, int b)
{
    return blk_lo(g, b + 1) - blk_lo(g, b);
}

static void send_piece(struct ring *g, int blk, size_t j)
{
    size_t lo = j * g->region, cnt = blk_cnt(g, blk);
    if (lo >= cnt)
        return;
    size_t n = cnt - lo < g->region ? cnt - lo : g->region;
    if (g->sent >= 2)
        cc_await(g->c, F_CREDIT, 1);   /* the region I am about to reuse was consumed */
    char *slot = g->c->buf + (g->sent++ & 1) * g->region * g->r->elem;
    char *from = (char *)g->r->dest + (blk_lo(g, blk) + lo) * g->r->elem;
    cc_put_signal(g->c, (g->c->me + 1) % g->c->n, slot, from, n * g->r->elem, F_RS);
}

static void receive_piece(struct ring *g, int blk, size_t j)
{
    size_t lo = j * g->region, cnt = blk_cnt(g, blk);
    if (lo >= cnt)
        return;
    size_t n = cnt - lo < g->region ? cnt - lo : g->region;
    cc_await(g->c, F_RS, 1);
    char *slot = g->c->buf + (g->received++ & 1) * g->region * g->r->elem;
    coll_combine(g->r->op, g->r->dt, (char *)g->r->dest + (blk_lo(g, blk) + lo) * g->r->elem, slot, n);
    cc_signal(g->c, (g->c->me - 1 + g->c->n) % g->c->n, F_CREDIT);
}

void reduce_ring(const struct coll_call *c, const struct coll_reduce *r)
{
    int P = c->n, me = c->me;
    struct ring g = {.c = c, .r = r, .region = c->buf_bytes / 2 / r->elem};
    if (!g.region) {
        reduce_flat(c, r);
        return;
    }
    if (r->dest != r->src)
        memcpy(r->dest, r->src, r->count * r->elem);
    if (P == 1)
        return;
    for (int s = 0; s < P - 1; s++) {
        int out = (me - s + P) % P, in = (me - s - 1 + P) % P;
        size_t pieces_out = (blk_cnt(&g, out) + g.region - 1) / g.region;
        size_t pieces_in = (blk_cnt(&g, in) + g.region - 1) / g.region;
        size_t pieces = pieces_out > pieces_in ? pieces_out : pieces_in;
        for (size_t j = 0; j < pieces; j++) {
            send_piece(&g, out, j);
            receive_piece(&g, in, j);
        }
    }
    cc_await(c, F_CREDIT, g.sent < 2 ? g.sent : 2);   /* the last two credits */
    char *dest = r->dest;
    for (int s = 0; s < P - 1; s++) {
        int blk = (me + 1 - s + P) % P;
        char *at = dest + blk_lo(&g, blk) * r->elem;
        cc_put_signal(c, (me + 1) % P, at, at, blk_cnt(&g, blk) * r->elem, F_AG);
        cc_await(c, F_AG, 1);
    }
}
