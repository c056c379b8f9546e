/* Pairwise-exchange alltoall(s): once every member has entered, step s
 * sends my block for member (me + s) straight into its dest, so at each
 * step every member writes to a different one and no PE is a hot spot.
 * Strided forms move elements with the core's strided put. */
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

void alltoall_pairwise(const struct coll_call *c, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                       size_t elem, size_t nelems)
{
    int P = c->n, me = c->me;
    size_t dblock = nelems * dst * elem, sblock = nelems * sst * elem;
    for (int s = 1; s < P && !c->dest_ready; s++)
        cc_signal(c, (me + s) % P, F_ENTER);
    if (!c->dest_ready)
        cc_await(c, F_ENTER, P - 1);
    for (int s = 1; s < P; s++) {
        int to = (me + s) % P;
        copy_block(c, to, (char *)dest + me * dblock, (const char *)src + to * sblock, dst, sst, elem, nelems);
    }
    char *d = (char *)dest + me * dblock;
    const char *s = (const char *)src + me * sblock;
    if (dst == 1 && sst == 1)
        memmove(d, s, elem * nelems);
    else
        for (size_t i = 0; i < nelems; i++)
            memmove(d + i * dst * elem, s + i * sst * elem, elem);
    cc_await(c, F_DATA, P - 1);
}
