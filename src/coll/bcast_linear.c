/* Linear broadcast: the root writes the data to each member, followed by a
 * signal.  Straight into the dests once every member has told the root it
 * arrived (its dest is free): two message latencies (one for active sets,
 * whose dests are ready before anyone calls).  The root sends P-1 copies,
 * so it suits small payloads and small teams (and shared memory, where a
 * copy is a memcpy).
 *
 * Right after a barrier on the team (c->synced), over the network, data
 * that fits goes at once into the members' scratch, which each copies out
 * (cc_scratch_room): one latency.  The root then leaves before the members
 * have entered, against the slot rule of coll_internal.h; the barrier
 * before the call and the rule kept by the call after it (only a call
 * right after a barrier may break it) still let no writer of a later call
 * reach a member that has not taken its copy (without the barrier, the
 * root of back-to-back broadcasts overwrote copies not yet taken:
 * tests/coll/back_to_back_test.c across hosts). */
#include "coll_internal.h"

enum { F_ARRIVE = 0, F_DATA = 1 };

void bcast_linear(const struct coll_call *c, void *dest, const void *src, size_t n, int root, bool root_dest)
{
    bool scratch = c->synced && n <= cc_scratch_room(c, 1);
    if (c->me != root) {
        if (!c->dest_ready && !scratch)
            cc_signal(c, root, F_ARRIVE);
        cc_await(c, F_DATA, 1);
        if (scratch)
            memcpy(dest, c->buf, n);
        return;
    }
    if (!c->dest_ready && !scratch)
        cc_await(c, F_ARRIVE, c->n - 1);
    for (int i = 1; i < c->n; i++)
        cc_put_signal(c, (root + i) % c->n, scratch ? c->buf : dest, src, n, F_DATA);
    if (root_dest && dest != src)   /* after the others' copies: theirs are awaited */
        memcpy(dest, src, n);
}
