/* Broadcast for large payloads (van de Geijn): the root scatters one block
 * to each member, then the members allgather the blocks around a ring.  The
 * root sends the payload once instead of P-1 times; every link carries
 * about 2n bytes.  Team broadcasts only: the root's dest takes part. */
#include "coll_internal.h"

enum { F_ARRIVE = 48, F_SCATTER = 49, RING_FLAGS = 0 };

void bcast_scatter_allgather(const struct coll_call *c, void *dest, const void *src, size_t n, int root)
{
    int P = c->n;
    size_t *off = cc_tmp(2 * P * sizeof(size_t), 3), *len = off + P;
    size_t block = (n + P - 1) / P;
    for (int i = 0; i < P; i++) {
        size_t lo = (size_t)i * block < n ? (size_t)i * block : n;
        size_t hi = lo + block < n ? lo + block : n;
        off[i] = lo;
        len[i] = hi - lo;
    }
    if (c->me == root) {
        if (dest != src)
            memcpy(dest, src, n);
        cc_await(c, F_ARRIVE, P - 1);
        for (int i = 1; i < P; i++) {
            int m = (root + i) % P;
            cc_put_signal(c, m, (char *)dest + off[m], (const char *)src + off[m], len[m], F_SCATTER);
        }
    } else {
        cc_signal(c, root, F_ARRIVE);
        cc_await(c, F_SCATTER, 1);
    }
    struct coll_blocks b = {.dest = dest, .mine = NULL, .off = off, .len = len};
    collect_ring(c, &b);
}
