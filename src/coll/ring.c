/* Publish-and-copy through the ring of small entries every member keeps
 * in its pSync area (struct coll_ring_entry): the owner copies data in
 * and stamps it with the call's epoch; readers wait for the stamp and copy
 * out.  Nobody writes anybody else's buffers, so no one waits for anyone to
 * arrive.  At the end of each ring call every member records the epoch in
 * its own ring_taken word for that entry index (a plain store into its own
 * line: a shared counter would make each reader wait for the owner's
 * line), and an owner reuses an entry only once every member's word shows
 * the entry's previous use (members make ring calls in the same order, so
 * a later epoch there means that one is finished).  A barrier on the team
 * since its previous call proves the same for every earlier call, so then
 * the owner skips the look: those words change at every call, so reading
 * them costs a line transfer per member before the data goes out (2 PEs,
 * barrier then broadcast 8 B: one of the root's two transfers).  Used by
 * bcast_shm.c, alltoall_shm.c, fcollect_shm.c, collect_shm.c and
 * reduce_shm.c; shared memory only. */
#include "coll_internal.h"

struct coll_ring_entry *ring_entry(const struct coll_call *c)
{
    return &c->bcast_ring[c->epoch % COLL_BCAST_RING];
}

static void await_taken(const struct coll_call *c, size_t entry, uint64_t epoch)
{
    for (int i = 0; i < c->n; i++) {
        if (i == c->me)
            continue;
        const uint64_t *w = shoal_ptr(&c->ring_taken[entry], cc_pe(c, i));
        if (__atomic_load_n(w, __ATOMIC_ACQUIRE) < epoch)
            SHOAL_WAIT_WHILE_LOCAL(__atomic_load_n(w, __ATOMIC_ACQUIRE) < epoch);
    }
}

/* Data in and out of an entry: head line first, then the tail. */
static void entry_write(const struct coll_call *c, size_t entry, const void *src, size_t n)
{
    size_t head = n < COLL_RING_HEAD ? n : COLL_RING_HEAD;
    cc_copy(c->bcast_ring[entry].data, src, head);
    if (n > head)
        memcpy(c->ring_tail[entry], (const char *)src + head, n - head);
}

static void entry_read(const struct coll_call *c, const struct coll_ring_entry *e, int owner, size_t entry,
                       void *dest, size_t off, size_t n)
{
    if (off < COLL_RING_HEAD) {
        size_t head = n < COLL_RING_HEAD - off ? n : COLL_RING_HEAD - off;
        cc_copy(dest, e->data + off, head);
        dest = (char *)dest + head;
        off += head;
        n -= head;
    }
    if (n)
        memcpy(dest, (const char *)shoal_ptr(c->ring_tail[entry], cc_pe(c, owner)) + (off - COLL_RING_HEAD), n);
}

void ring_publish(const struct coll_call *c, const void *src, size_t n)
{
    size_t entry = c->epoch % COLL_BCAST_RING;
    struct coll_ring_entry *e = &c->bcast_ring[entry];
    if (c->ring_last_use[entry] && !c->synced)
        await_taken(c, entry, c->ring_last_use[entry]);
    entry_write(c, entry, src, n);
    __atomic_store_n(&e->ready, c->epoch, __ATOMIC_RELEASE);
    c->ring_last_use[entry] = c->epoch;
    for (int i = 0; i < c->n; i++)
        if (i != c->me)
            shoal_notify(cc_pe(c, i));
}

struct coll_ring_entry *ring_peer_entry(const struct coll_call *c, int owner)
{
    if (c->peer_ring)
        return c->peer_ring[owner] + c->epoch % COLL_BCAST_RING;
    return shoal_ptr(ring_entry(c), cc_pe(c, owner));
}

/* Member owner's entry of this call, once its stamp is there. */
static const struct coll_ring_entry *await_entry(const struct coll_call *c, int owner)
{
    const struct coll_ring_entry *e = ring_peer_entry(c, owner);
    if (__atomic_load_n(&e->ready, __ATOMIC_ACQUIRE) < c->epoch)
        SHOAL_WAIT_WHILE_LOCAL(__atomic_load_n(&e->ready, __ATOMIC_ACQUIRE) < c->epoch);
    return e;
}

void ring_take(const struct coll_call *c, int owner, void *dest, size_t off, size_t n)
{
    const struct coll_ring_entry *e = await_entry(c, owner);
    entry_read(c, e, owner, c->epoch % COLL_BCAST_RING, dest, off, n);
}

const void *ring_head(const struct coll_call *c, int owner)
{
    return await_entry(c, owner)->data;
}

static int first_ready(const struct coll_call *c, const int *members, int k)
{
    for (int j = 0; j < k; j++)
        if (__atomic_load_n(&ring_peer_entry(c, members[j])->ready, __ATOMIC_ACQUIRE) >= c->epoch)
            return j;
    return -1;
}

int ring_first_ready(const struct coll_call *c, const int *members, int k)
{
    int j = first_ready(c, members, k);
    if (j < 0)
        SHOAL_WAIT_WHILE_LOCAL((j = first_ready(c, members, k)) < 0);
    return j;
}

void ring_done(const struct coll_call *c)
{
    size_t entry = c->epoch % COLL_BCAST_RING;
    __atomic_store_n(&c->ring_taken[entry], c->epoch, __ATOMIC_RELEASE);   /* after the copies */
    for (int i = 0; i < c->n; i++)   /* an owner may sleep waiting to reuse the entry */
        if (i != c->me)
            shoal_notify(cc_pe(c, i));
}
