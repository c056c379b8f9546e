/* Linear broadcast: every member tells the root it has arrived (its dest is
 * free); the root then writes the data into each dest, followed by a signal.
 * Two message latencies (one for active sets, whose dests are ready before
 * anyone calls); the root sends P-1 copies, so it suits small payloads and
 * small teams (and shared memory, where a copy is a memcpy). */
#include "coll_internal.h"

enum { F_ARRIVE = 0, F_DATA = 1 };

void bcast_linear(const struct coll_call *c, void *dest, const void *src, size_t n, int root, bool root_dest)
{
    if (c->me != root) {
        if (!c->dest_ready)
            cc_signal(c, root, F_ARRIVE);
        cc_await(c, F_DATA, 1);
        return;
    }
    if (!c->dest_ready)
        cc_await(c, F_ARRIVE, c->n - 1);
    for (int i = 1; i < c->n; i++)
        cc_put_signal(c, (root + i) % c->n, dest, src, n, F_DATA);
    if (root_dest && dest != src)   /* after the others' copies: theirs are awaited */
        memcpy(dest, src, n);
}
