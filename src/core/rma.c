/* Out-of-line halves of RMA and AMO: the network path, error reports,
 * strided transfers, put-with-signal and ordering. */
#include "shoal.h"

const struct shoal_remote_ops *shoal_remote;

/* A PE is unreachable for an address when it is not symmetric, or when no
 * transport serves the PE; say which. */
static _Noreturn void unreachable(const char *routine, const void *addr, int pe)
{
    size_t off;
    shoal_require_init(routine);   /* before init or after finalize nothing is reachable */
    if (pe < 0 || pe >= shoal.n_pes)
        shoal_fatal(routine, "PE %d is out of range: this job has PEs 0..%d", pe, shoal.n_pes - 1);
    if (shoal_seg_of(addr, &off) < 0)
        shoal_fatal(routine, "address %p is not symmetric: use memory from shmem_malloc or a "
                             "global/static variable", addr);
    shoal_fatal(routine, "PE %d is on another host and no network transport is active", pe);
}

static int remote_seg(const char *routine, const void *addr, size_t *off, int pe)
{
    int s = shoal_seg_of(addr, off);
    if (s < 0 || !shoal_remote || pe < 0 || pe >= shoal.n_pes)
        unreachable(routine, addr, pe);
    return s;
}

static void remote_put(struct shoal_ctx *ctx, void *dst, const void *src, size_t n, int pe, bool nbi)
{
    size_t off;
    int s = remote_seg("shmem_put", dst, &off, pe);
    shoal_remote->put(ctx, s, off, src, n, pe, nbi);
}

static void remote_get(struct shoal_ctx *ctx, void *dst, const void *src, size_t n, int pe, bool nbi)
{
    size_t off;
    int s = remote_seg("shmem_get", src, &off, pe);
    shoal_remote->get(ctx, dst, s, off, n, pe, nbi);
}

/* A communication call is a progress point (the shared-memory paths of
 * rma.h poll first).  Here the operation goes out first: on net and tcp a
 * poll is a socket poll, and made before the send it delayed every remote
 * get and fetching AMO by one (bench/multihost/mh_overhead.c measures what
 * they cost above the bare libfabric operations).  A call that waited for
 * its answer polled while it waited. */
void shoal_put_slow(struct shoal_ctx *ctx, void *dst, const void *src, size_t n, int pe, bool nbi)
{
    remote_put(ctx, dst, src, n, pe, nbi);
    shoal_poll();
}

void shoal_get_slow(struct shoal_ctx *ctx, void *dst, const void *src, size_t n, int pe, bool nbi)
{
    remote_get(ctx, dst, src, n, pe, nbi);
    if (nbi)
        shoal_poll();
}

void shoal_amo_slow(struct shoal_ctx *ctx, enum shoal_amo_op op, size_t size, void *dst, void *fetch,
                    const void *value, const void *cond, int pe, bool nbi)
{
    /* A context of SHMEM_TEAM_SHARED is an atomicity domain of its own, all
     * on this host: CPU atomics, even while other AMOs go through a NIC. */
    void *p = ctx && ctx->host_atomics ? shoal_ptr(dst, pe) : NULL;
    if (p) {
        shoal_poll();
        shoal_shm_amo(op, size, p, fetch, value, cond);
        if (op != SHOAL_AMO_FETCH)
            shoal_notify(pe);
        return;
    }
    size_t off;
    int s = remote_seg("shmem_atomic", dst, &off, pe);
    shoal_remote->amo(ctx, op, size, s, off, fetch, value, cond, pe, nbi);
    if (!fetch || nbi)
        shoal_poll();
}

/* nblocks blocks of bsize elements, block b at b * stride elements from each
 * base; pe's side (dst for a put, src for a get) is copied with memcpy when
 * it is mapped here, else through the network transport. */
static void strided(struct shoal_ctx *ctx, bool put, char *d, const char *s, ptrdiff_t dst_stride,
                    ptrdiff_t src_stride, size_t elem, size_t bsize, size_t nblocks, int pe)
{
    char *peer = shoal_ptr(put ? (const void *)d : s, pe);
    char *to = peer && put ? peer : d;
    const char *from = peer && !put ? peer : s;
    for (size_t b = 0; b < nblocks; b++) {
        size_t dd = b * dst_stride * elem, sd = b * src_stride * elem;
        if (peer)
            memcpy(to + dd, from + sd, bsize * elem);
        else
            (put ? remote_put : remote_get)(ctx, d + dd, s + sd, bsize * elem, pe, true);   /* no poll per block */
    }
    if (peer && put)
        shoal_notify(pe);
    else if (!peer && shoal_remote)
        shoal_remote->quiet(ctx);
}

void shoal_put_strided(struct shoal_ctx *ctx, void *dst, const void *src, ptrdiff_t dst_stride,
                       ptrdiff_t src_stride, size_t elem, size_t bsize, size_t nblocks, int pe)
{
    strided(ctx, true, dst, src, dst_stride, src_stride, elem, bsize, nblocks, pe);
}

void shoal_get_strided(struct shoal_ctx *ctx, void *dst, const void *src, ptrdiff_t dst_stride,
                       ptrdiff_t src_stride, size_t elem, size_t bsize, size_t nblocks, int pe)
{
    strided(ctx, false, dst, src, dst_stride, src_stride, elem, bsize, nblocks, pe);
}

void shoal_put_signal(struct shoal_ctx *ctx, void *dst, const void *src, size_t n, uint64_t *sig_addr,
                      uint64_t signal, int sig_op, int pe, bool nbi)
{
    void *p = shoal_ptr(dst, pe);
    uint64_t *sig = shoal_ptr(sig_addr, pe);
    if (p && sig && !shoal.amo_via_network) {
        memcpy(p, src, n);
        if (sig_op == SHOAL_SIG_ADD)
            __atomic_fetch_add(sig, signal, __ATOMIC_RELEASE);
        else
            __atomic_store_n(sig, signal, __ATOMIC_RELEASE);
        shoal_notify(pe);
        return;
    }
    size_t off, sig_off;
    int s = remote_seg("shmem_put_signal", dst, &off, pe);
    int sig_s = remote_seg("shmem_put_signal", sig_addr, &sig_off, pe);
    shoal_poll();
    shoal_remote->put_signal(ctx, s, off, src, n, sig_s, sig_off, signal, sig_op, pe, nbi);
}

void shoal_fence(struct shoal_ctx *ctx)
{
    __atomic_thread_fence(__ATOMIC_RELEASE);
    if (shoal_remote)
        shoal_remote->fence(ctx);
}

void shoal_remote_heap_grown(void)
{
    if (shoal_remote && shoal_remote->heap_used)
        shoal_remote->heap_used(shoal_heap_high_water());
}

void shoal_complete(struct shoal_ctx *ctx)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (shoal_remote)
        shoal_remote->quiet(ctx);
}

void shoal_quiet(struct shoal_ctx *ctx)
{
    shoal_complete(ctx);
    shoal_poll();
}
