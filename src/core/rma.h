/* RMA and AMO entry points of the core: a shared-memory fast path inlined
 * into the API layer, and an out-of-line call to the network transport for
 * PEs that are not load/store reachable.  Included by shoal.h. */
#ifndef SHOAL_CORE_RMA_H
#define SHOAL_CORE_RMA_H

#include "../transport/shm/shm_amo.h"

/* A communication context.  The default context is shoal_ctx_default; a
 * context's team turns its PE numbers into world PEs. */
struct shoal_ctx {
    struct shoal_team *team;
    long options;
    void *net;          /* network transport's per-context state (endpoint, counters) */
    int creator_thread_private;
    /* A context of SHMEM_TEAM_SHARED: an atomicity domain of its own, all on
     * this host, so its AMOs may use CPU atomics (set by the API layer). */
    bool host_atomics;
    /* Every AMO and signal on this context is awaited by its target within
     * the same call (the collectives' flags): the target's wait confirms it,
     * so the transport need not (a quiet does not flush them). */
    bool awaited;
};
extern struct shoal_ctx shoal_ctx_default;

/* The network transport (transport/ofi) fills this in at init when the job
 * spans hosts; addresses travel as (segment, offset). */
struct shoal_remote_ops {
    void (*put)(struct shoal_ctx *ctx, int seg, size_t off, const void *src, size_t n, int pe, bool nbi);
    void (*get)(struct shoal_ctx *ctx, void *dst, int seg, size_t off, size_t n, int pe, bool nbi);
    void (*amo)(struct shoal_ctx *ctx, enum shoal_amo_op op, size_t size, int seg, size_t off,
                void *fetch, const void *value, const void *cond, int pe, bool nbi);
    /* Data then an 8-byte signal (SHOAL_SIG_SET/ADD), the signal applied after the data. */
    void (*put_signal)(struct shoal_ctx *ctx, int seg, size_t off, const void *src, size_t n, int sig_seg,
                       size_t sig_off, uint64_t signal, int sig_op, int pe, bool nbi);
    void (*fence)(struct shoal_ctx *ctx);
    void (*quiet)(struct shoal_ctx *ctx);
    /* The heap is in use up to offset `end`: what lies below must be
     * reachable from other hosts when this returns.  Collective: every PE
     * calls it at the same point of the same allocation with the same end. */
    void (*heap_used)(size_t end);
};
extern const struct shoal_remote_ops *shoal_remote;

/* The network transport's life cycle (transport/ofi; without libfabric a
 * stub that explains how to get it).  shoal_ofi_init runs at init when the
 * job spans hosts: it installs shoal_remote and sets shoal.amo_via_network;
 * it reports any failure itself and returns 0. */
int shoal_ofi_init(void);
/* Finalize in two steps around the last synchronization (api/lifecycle.c):
 * quiet_all completes this PE's traffic, which peers serve until they pass
 * that synchronization; fini then closes without talking to anyone.
 * Both do nothing when the transport is not up. */
void shoal_ofi_quiet_all(void);
void shoal_ofi_fini(void);
/* After a symmetric allocation (collective, api/memory.c): peers on other
 * hosts may reach every block allocated so far. */
void shoal_remote_heap_grown(void);
/* A context's own network endpoint (ctx->net), for the contexts layer: call
 * create when a context is made and destroy (after its quiet) when it goes.
 * Both are cheap no-ops when the job is on one host. */
int shoal_ctx_net_create(struct shoal_ctx *ctx);
void shoal_ctx_net_destroy(struct shoal_ctx *ctx);

/* Out of line: remote PEs, and the error path for non-symmetric addresses. */
void shoal_put_slow(struct shoal_ctx *ctx, void *dst, const void *src, size_t n, int pe, bool nbi);
void shoal_get_slow(struct shoal_ctx *ctx, void *dst, const void *src, size_t n, int pe, bool nbi);
void shoal_amo_slow(struct shoal_ctx *ctx, enum shoal_amo_op op, size_t size, void *dst, void *fetch,
                    const void *value, const void *cond, int pe, bool nbi);

SHOAL_INLINE void shoal_put(struct shoal_ctx *ctx, void *dst, const void *src, size_t n, int pe, bool nbi)
{
    void *p = shoal_ptr(dst, pe);
    if (SHOAL_LIKELY(p)) {
        shoal_poll();   /* communication calls advance pending work (e.g. split barriers) */
        memcpy(p, src, n);
        shoal_notify(pe);
        return;
    }
    shoal_put_slow(ctx, dst, src, n, pe, nbi);   /* polls after sending (rma.c) */
}

SHOAL_INLINE void shoal_get(struct shoal_ctx *ctx, void *dst, const void *src, size_t n, int pe, bool nbi)
{
    const void *p = shoal_ptr(src, pe);
    if (SHOAL_LIKELY(p)) {
        shoal_poll();
        memcpy(dst, p, n);
        return;
    }
    shoal_get_slow(ctx, dst, src, n, pe, nbi);
}

/* op on the size-byte integer at dst of pe; fetch (may be NULL) gets the old value. */
SHOAL_INLINE void shoal_amo(struct shoal_ctx *ctx, enum shoal_amo_op op, size_t size, void *dst, void *fetch,
                            const void *value, const void *cond, int pe, bool nbi)
{
    void *p = shoal_ptr(dst, pe);
    if (SHOAL_LIKELY(p && !shoal.amo_via_network)) {
        shoal_poll();
        shoal_shm_amo(op, size, p, fetch, value, cond);
        if (op != SHOAL_AMO_FETCH)
            shoal_notify(pe);
        return;
    }
    shoal_amo_slow(ctx, op, size, dst, fetch, value, cond, pe, nbi);
}

/* Strided transfer of nblocks blocks of bsize elements of elem bytes;
 * strides in elements.  iput/iget are bsize == 1. */
void shoal_put_strided(struct shoal_ctx *ctx, void *dst, const void *src, ptrdiff_t dst_stride,
                       ptrdiff_t src_stride, size_t elem, size_t bsize, size_t nblocks, int pe);
void shoal_get_strided(struct shoal_ctx *ctx, void *dst, const void *src, ptrdiff_t dst_stride,
                       ptrdiff_t src_stride, size_t elem, size_t bsize, size_t nblocks, int pe);

/* Data then signal, ordered: the signal is delivered after the data. */
void shoal_put_signal(struct shoal_ctx *ctx, void *dst, const void *src, size_t n, uint64_t *sig_addr,
                      uint64_t signal, int sig_op, int pe, bool nbi);

/* Ordering.  Shared-memory stores are ordered by the CPU; the network
 * transport is asked too when the job has one. */
void shoal_fence(struct shoal_ctx *ctx);
void shoal_quiet(struct shoal_ctx *ctx);   /* shoal_complete, then a progress point */
/* What quiet guarantees, without its progress call: for a barrier, whose
 * wait polls at once (on net a progress call is a socket poll, ~0.4 us). */
void shoal_complete(struct shoal_ctx *ctx);

#endif
