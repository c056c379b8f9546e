/* Publish-and-copy through the ring of small entries every member keeps
 * in its pSync area (struct coll_bcast_entry): the owner copies data in
 * and stamps it with the call's epoch; readers wait for the stamp, copy out
 * and count their copy, and the owner reuses an entry only once every copy
 * of its previous use is taken.  Nobody writes anybody else's buffers, so
 * no one waits for anyone to arrive.  Used by bcast_shm.c and
 * alltoall_shm.c; shared memory only. */
#include "coll_internal.h"

struct coll_bcast_entry *ring_entry(const struct coll_call *c)
{
    return &c->bcast_ring[c->epoch % COLL_BCAST_RING];
}

void ring_publish(const struct coll_call *c, const void *src, size_t n, int readers)
{
    size_t slot = c->epoch % COLL_BCAST_RING;
    struct coll_bcast_entry *e = &c->bcast_ring[slot];
    uint64_t copies = c->bcast_expect[slot];
    if (__atomic_load_n(&e->done, __ATOMIC_ACQUIRE) < copies)
        SHOAL_WAIT_WHILE(__atomic_load_n(&e->done, __ATOMIC_ACQUIRE) < copies);
    memcpy(e->data, src, n);
    __atomic_store_n(&e->ready, c->epoch, __ATOMIC_RELEASE);
    c->bcast_expect[slot] = copies + (uint64_t)readers;
    for (int i = 0; i < c->n; i++)
        if (i != c->me)
            shoal_notify(cc_pe(c, i));
}

void ring_take(const struct coll_call *c, int owner, void *dest, size_t off, size_t n)
{
    int pe = cc_pe(c, owner);
    struct coll_bcast_entry *e = shoal_ptr(ring_entry(c), pe);
    if (__atomic_load_n(&e->ready, __ATOMIC_ACQUIRE) < c->epoch)
        SHOAL_WAIT_WHILE(__atomic_load_n(&e->ready, __ATOMIC_ACQUIRE) < c->epoch);
    memcpy(dest, e->data + off, n);
    __atomic_fetch_add(&e->done, 1, __ATOMIC_RELEASE);   /* after the copy: the owner may overwrite */
    shoal_notify(pe);
}
