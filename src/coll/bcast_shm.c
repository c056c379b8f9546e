/* Broadcast of a few hundred bytes on a team that shares memory: the root
 * publishes the data in its ring (ring.c) and every member copies it into
 * its own dest.  No PE writes another's dest, so the root need not wait for
 * the others to arrive, and members that the scheduler runs late (more PEs
 * than cores) delay nobody.
 *
 * Leaving early would still break the slot rule of coll_internal.h for the
 * calls that follow (they may write into the previous call's pSync slot),
 * so no member leaves before every member has left the team's previous
 * call.  A barrier on the team since that call proves it for free (the
 * common "barrier, then broadcast"); otherwise members count their arrival
 * in the root's entry, and the root and (from 3 members on) the members
 * wait for the count.  Members leaving at once broke it: with recursive
 * doubling's reductions between broadcasts at 5 PEs, a member still in a
 * reduction had its scratch overwritten by the next one. */
#include "coll_internal.h"

static void await_count(const struct coll_ring_entry *e, uint64_t arrivals)
{
    if (__atomic_load_n(&e->arrived, __ATOMIC_ACQUIRE) < arrivals)
        SHOAL_WAIT_WHILE_LOCAL(__atomic_load_n(&e->arrived, __ATOMIC_ACQUIRE) < arrivals);
}

static void announce_arrival(const struct coll_call *c, int root)
{
    __atomic_fetch_add(&ring_peer_entry(c, root)->arrived, 1, __ATOMIC_RELEASE);
    shoal_notify(cc_pe(c, root));
}

void bcast_shm(const struct coll_call *c, void *dest, const void *src, size_t n, int root)
{
    if (c->me == root) {
        uint64_t arrivals = 0;
        if (!c->synced) {   /* before the publish, whose stamp releases it to the members */
            arrivals = c->ring_arrivals[c->epoch % COLL_BCAST_RING] += (uint64_t)(c->n - 1);
            __atomic_store_n(&ring_entry(c)->expected, arrivals, __ATOMIC_RELAXED);
        }
        ring_publish(c, src, n);
        if (dest != src)
            cc_copy(dest, src, n);
        if (!c->synced)
            await_count(ring_entry(c), arrivals);
        ring_done(c);
        return;
    }
    if (!c->synced)
        announce_arrival(c, root);
    ring_take(c, root, dest, 0, n);
    if (!c->synced && c->n > 2) {   /* with two, my own arrival was the last */
        const struct coll_ring_entry *e = ring_peer_entry(c, root);
        await_count(e, __atomic_load_n(&e->expected, __ATOMIC_RELAXED));
    }
    ring_done(c);
}
