/* Pairwise-exchange alltoall(s): step s sends my block for member
 * (me + s) straight into its dest once that member has entered, so at each
 * step every member writes to a different one and no PE is a hot spot.
 * Strided forms move elements with the core's strided put.  Every member
 * waits for every other's block, so none leaves before all have entered
 * (the slot rule of coll_internal.h). */
#include "coll_internal.h"

enum { F_ENTER = 0, F_DATA = 1 };

static void copy_block(const struct coll_call *c, int to, char *dst, const char *src, ptrdiff_t dst_stride,
                       ptrdiff_t src_stride, size_t elem, size_t nelems)
{
    if (dst_stride == 1 && src_stride == 1) {
        cc_put_signal(c, to, dst, src, elem * nelems, F_DATA);
        return;
    }
    shoal_put_strided(COLL_CTX, dst, src, dst_stride, src_stride, elem, 1, nelems, cc_pe(c, to));
    shoal_fence(COLL_CTX);
    cc_signal(c, to, F_DATA);
}

static void send_to(const struct coll_call *c, int to, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                    size_t elem, size_t nelems)
{
    size_t dblock = nelems * dst * elem, sblock = nelems * sst * elem;
    copy_block(c, to, (char *)dest + c->me * dblock, (const char *)src + to * sblock, dst, sst, elem, nelems);
}

/* On a team that shares memory a member says it has entered by stamping
 * its ring entry (ring.c), and I write to each as soon as its stamp is
 * there, in the rotation's order among those that are: with more PEs than
 * cores the first members to run move their data while the others are
 * still on their way (16 PEs on 2 cores, 64 KiB blocks, 5 alternating
 * runs: 0.72x the time of waiting for everyone first; 4 PEs 0.75-0.80x). */
static void send_as_entered(const struct coll_call *c, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                            size_t elem, size_t nelems)
{
    int P = c->n, k = 0;
    int *left = cc_tmp((size_t)P * sizeof(int), 0);
    for (int s = 1; s < P; s++)
        left[k++] = (c->me + s) % P;
    ring_publish(c, src, 0);
    while (k) {
        int j = ring_first_ready(c, left, k), to = left[j];
        memmove(&left[j], &left[j + 1], (size_t)(--k - j) * sizeof(int));   /* keep the rotation */
        send_to(c, to, dest, src, dst, sst, elem, nelems);
    }
    ring_done(c);
}

/* Elsewhere P - 1 signals say it, and I write once all have (at once when
 * every dest was ready before anyone called: active sets). */
static void send_after_all(const struct coll_call *c, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                           size_t elem, size_t nelems)
{
    int P = c->n;
    for (int s = 1; s < P && !c->dest_ready; s++)
        cc_signal(c, (c->me + s) % P, F_ENTER);
    if (!c->dest_ready)
        cc_await(c, F_ENTER, P - 1);
    for (int s = 1; s < P; s++)
        send_to(c, (c->me + s) % P, dest, src, dst, sst, elem, nelems);
}

/* Over the network, contiguous blocks that fit a sender's share of the
 * receivers' scratch (cc_scratch_room) go there at once instead of
 * waiting for the entry signals, and each member copies its shares out:
 * one latency instead of two. */
static bool via_scratch(const struct coll_call *c, void *dest, const void *src, size_t block)
{
    size_t room = cc_scratch_room(c, c->n);
    if (!room || block > room)
        return false;
    int P = c->n, me = c->me;
    for (int s = 1; s < P; s++) {
        int to = (me + s) % P;
        cc_put_signal(c, to, c->buf + (size_t)me * room, (const char *)src + (size_t)to * block, block, F_DATA);
    }
    memmove((char *)dest + (size_t)me * block, (const char *)src + (size_t)me * block, block);
    cc_await(c, F_DATA, P - 1);
    for (int i = 0; i < P; i++)
        if (i != me)
            memcpy((char *)dest + (size_t)i * block, c->buf + (size_t)i * room, block);
    return true;
}

void alltoall_pairwise(const struct coll_call *c, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                       size_t elem, size_t nelems)
{
    int P = c->n, me = c->me;
    size_t dblock = nelems * dst * elem, sblock = nelems * sst * elem;
    if (dst == 1 && sst == 1 && via_scratch(c, dest, src, dblock))
        return;
    if (!c->dest_ready && c->bcast_ring && c->shm)
        send_as_entered(c, dest, src, dst, sst, elem, nelems);
    else
        send_after_all(c, dest, src, dst, sst, elem, nelems);
    char *d = (char *)dest + me * dblock;
    const char *s = (const char *)src + me * sblock;
    if (dst == 1 && sst == 1)
        memmove(d, s, elem * nelems);
    else
        for (size_t i = 0; i < nelems; i++)
            memmove(d + i * dst * elem, s + i * sst * elem, elem);
    cc_await(c, F_DATA, P - 1);
}
