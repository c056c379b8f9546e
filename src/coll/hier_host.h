/* The host-local steps of the hierarchical collectives (bcast_hier.c,
 * collect_hier.c; barrier_hier.c keeps to the barrier words).  When a job spans hosts every AMO goes
 * through the network (the atomicity rule, DESIGN.md "Many hosts"), even
 * to a PE on my host, so a flag AMO would turn each shared-memory step into
 * a network round trip.  These steps count on the one-line mailboxes
 * instead: their signal words are only ever touched by CPU atomics on this
 * host, never by the NIC.  Without load/store (SHOAL_COLL_NO_LOADSTORE)
 * they fall back to the counting flags.  Private to src/coll/. */
#ifndef SHOAL_COLL_HIER_HOST_H
#define SHOAL_COLL_HIER_HOST_H

#include "coll_internal.h"

/* Tell host member i one more thing happened on its line (or flag) idx. */
SHOAL_INLINE void host_signal(const struct coll_call *c, int i, int idx)
{
    if (!c->shm || !c->line) {
        cc_signal(c, i, idx);
        return;
    }
    int pe = cc_pe(c, i);
    struct coll_line *l = shoal_ptr(&c->line[idx], pe);
    __atomic_fetch_add(&l->sig, 1, __ATOMIC_RELEASE);
    shoal_notify(pe);
}

/* Wait for count more signals on my line (or flag) idx. */
SHOAL_INLINE void host_await(const struct coll_call *c, int idx, uint64_t count)
{
    if (!c->shm || !c->line) {
        cc_await(c, idx, count);
        return;
    }
    if (!count)
        return;
    struct coll_line *l = &c->line[idx];
    uint64_t want = c->line_seen[idx] += count;
    if (__atomic_load_n(&l->sig, __ATOMIC_ACQUIRE) < want)
        SHOAL_WAIT_WHILE_LOCAL(__atomic_load_n(&l->sig, __ATOMIC_ACQUIRE) < want);
}

/* Copy n bytes into host member i's symmetric dst, then signal idx. */
SHOAL_INLINE void host_put_signal(const struct coll_call *c, int i, void *dst, const void *src, size_t n, int idx)
{
    if (!c->shm || !c->line) {
        cc_put_signal(c, i, dst, src, n, idx);
        return;
    }
    if (n)
        memcpy(shoal_ptr(dst, cc_pe(c, i)), src, n);
    host_signal(c, i, idx);
}

#endif
