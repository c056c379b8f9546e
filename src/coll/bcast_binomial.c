/* Binomial-tree broadcast.  Arrivals are gathered up the tree (a subtree
 * reports once all of it has arrived), then the data goes down it, largest
 * subtree first: 2 ceil(log2 P) latencies, and no PE sends more than
 * log2 P copies.  Gathering the arrivals first is what lets a member leave
 * only once every member has entered (see coll_internal.h). */
#include "coll_internal.h"

enum { F_ARRIVE = 0, F_DATA = 1 };

void bcast_binomial(const struct coll_call *c, void *dest, const void *src, size_t n, int root, bool root_dest)
{
    int P = c->n, r = (c->me - root + P) % P;   /* rank relative to the root */
    int low = 1;                                /* children are r + d for d >= low */
    while (low <= r)
        low <<= 1;
    int kids = 0;
    for (int d = low; r + d < P; d <<= 1)
        kids++;
    if (!c->dest_ready)
        cc_await(c, F_ARRIVE, kids);
    if (r > 0) {
        int parent = r - (low >> 1);
        if (!c->dest_ready)
            cc_signal(c, (parent + root) % P, F_ARRIVE);
        cc_await(c, F_DATA, 1);
    }
    const void *from = r == 0 ? src : dest;
    int top = low;
    while (r + top * 2 < P)
        top <<= 1;
    for (int d = top; d >= low; d >>= 1)
        if (r + d < P)
            cc_put_signal(c, (r + d + root) % P, dest, from, n, F_DATA);
    if (r == 0 && root_dest && dest != src)   /* after the sends: the subtrees' copies are awaited */
        memcpy(dest, src, n);
}
