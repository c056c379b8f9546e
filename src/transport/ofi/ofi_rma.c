/* Puts and gets to PEs on other hosts.
 *
 * Small puts are injected (the provider copies the source at once).  A
 * blocking put up to SHOAL_OFI_BOUNCE_SIZE is copied into a buffer of the
 * endpoint and written from there, so it returns at once (the spec asks
 * only that the source be reusable) instead of after a delivery round
 * trip; the buffer comes back when the write's completion is read.  Other
 * puts are written from the caller's buffer, and a blocking one waits for
 * its writes.  Gets land directly in the destination; a blocking get waits
 * for its reads. */
#include <stdlib.h>

#include "ofi.h"

/* The next piece of an operation at (seg, off) with n bytes left: at most
 * the provider's largest message, and never across a registered region. */
static size_t piece_len(int seg, size_t off, size_t n)
{
    size_t left = shoal_ofi_region_left(seg, off), most = left < shoal_ofi.max_msg ? left : shoal_ofi.max_msg;
    return n < most ? n : most;
}

/* A write counted complete must be visible at the target, or quiet would
 * not be quiet (measured with tcp;ofi_rxm: fi_inject_write counts the write
 * at once, and a read through another endpoint right after quiet saw the
 * old value 3 times in 3000).  So it goes with FI_DELIVERY_COMPLETE, or
 * marked for quiet's read-back where the provider allows (ofi_flush.c).
 * on_done: the context of a completion to read (a bounce buffer to give
 * back, a signal to send), or NULL for none; `delivered`: the completion
 * must mean the data is at the target (a signal follows it). */
static void post_write(struct shoal_ofi_ep *e, const char *src, size_t len, int pe, int seg, size_t off,
                       void *on_done, bool delivered)
{
    uint64_t raddr = shoal_ofi_raddr(pe, seg, off), key = shoal_ofi_key(pe, seg, off);
    struct iovec iov = {(void *)src, len};
    struct fi_rma_iov rma = {raddr, len, key};
    struct fi_msg_rma msg = {.msg_iov = &iov, .iov_count = 1, .addr = shoal_ofi.addr[pe], .rma_iov = &rma,
                             .rma_iov_count = 1, .context = on_done ? on_done : shoal_ofi_ctx_of(pe)};
    bool read_back = shoal_ofi.flush_read && !delivered && !shoal_ofi_ack_this_write(e);
    uint64_t flags = (read_back ? FI_INJECT_COMPLETE : FI_DELIVERY_COMPLETE) |
                     (len <= shoal_ofi.inject_size ? FI_INJECT : 0) | (on_done ? FI_COMPLETION : 0);
    unsigned tries = 0;
    ssize_t rc;
    if (on_done && e != &shoal_ofi.main_ep)
        __atomic_fetch_add(&shoal_ofi.side_completions, 1, __ATOMIC_RELEASE);
    __atomic_fetch_add(&e->writes, 1, __ATOMIC_RELEASE);   /* before it can complete: see all_complete */
    while ((rc = fi_writemsg(e->ep, &msg, flags)) == -FI_EAGAIN)
        shoal_ofi_retry_pause(e, &tries, "shmem_put");
    if (rc != 0)
        shoal_ofi_failed("shmem_put", pe, "fi_writemsg", (int)rc);
    if (read_back)
        shoal_ofi_mark(e, pe, SHOAL_OFI_WROTE);
}

void shoal_ofi_post_read(struct shoal_ofi_ep *e, void *dst, size_t len, int pe, int seg, size_t off,
                         const char *routine)
{
    uint64_t raddr = shoal_ofi_raddr(pe, seg, off), key = shoal_ofi_key(pe, seg, off);
    unsigned tries = 0;
    ssize_t rc;
    __atomic_fetch_add(&e->reads, 1, __ATOMIC_RELEASE);   /* before it can complete: see all_complete */
    while ((rc = fi_read(e->ep, dst, len, NULL, shoal_ofi.addr[pe], raddr, key, shoal_ofi_ctx_of(pe))) == -FI_EAGAIN)
        shoal_ofi_retry_pause(e, &tries, routine);
    if (rc != 0)
        shoal_ofi_failed(routine, pe, "fi_read", (int)rc);
}

bool shoal_ofi_bounce_owns(struct shoal_ofi_ep *e, const void *op_context)
{
    const char *p = op_context, *b = __atomic_load_n(&e->bounce, __ATOMIC_ACQUIRE);   /* the progress thread reads too */
    return b && p >= b && p < b + SHOAL_OFI_BOUNCES * SHOAL_OFI_BOUNCE_SIZE;
}

void shoal_ofi_bounce_release(struct shoal_ofi_ep *e, const void *buf)
{
    unsigned i = (unsigned)(((const char *)buf - e->bounce) / SHOAL_OFI_BOUNCE_SIZE);
    __atomic_fetch_or(&e->bounce_free, 1u << i, __ATOMIC_RELEASE);
}

/* A free buffer of e, or NULL when there are none at hand. */
char *shoal_ofi_bounce_take(struct shoal_ofi_ep *e)
{
    if (!__atomic_load_n(&e->bounce, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&e->operand_lock);
        char *made = e->bounce ? NULL : malloc((size_t)SHOAL_OFI_BOUNCES * SHOAL_OFI_BOUNCE_SIZE);
        if (made) {
            __atomic_store_n(&e->bounce_free, (uint32_t)((1ull << SHOAL_OFI_BOUNCES) - 1), __ATOMIC_RELEASE);
            __atomic_store_n(&e->bounce, made, __ATOMIC_RELEASE);   /* published last */
        }
        pthread_mutex_unlock(&e->operand_lock);
        if (!__atomic_load_n(&e->bounce, __ATOMIC_ACQUIRE))
            return NULL;
    }
    uint32_t free_bits = __atomic_load_n(&e->bounce_free, __ATOMIC_ACQUIRE);
    for (unsigned tries = 0; tries < 4; tries++) {
        if (!free_bits) {
            shoal_ofi_drain(e);   /* completions give buffers back */
            free_bits = __atomic_load_n(&e->bounce_free, __ATOMIC_ACQUIRE);
            continue;
        }
        unsigned i = (unsigned)__builtin_ctz(free_bits);
        if (__atomic_compare_exchange_n(&e->bounce_free, &free_bits, free_bits & ~(1u << i), false,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return e->bounce + (size_t)i * SHOAL_OFI_BOUNCE_SIZE;
    }
    return NULL;
}

static void ofi_put(struct shoal_ctx *ctx, int seg, size_t off, const void *src, size_t n, int pe, bool nbi)
{
    struct shoal_ofi_ep *e = shoal_ofi_ep_of(ctx);
    const char *s = src;
    char *bounce = NULL;
    if (shoal_ofi_am_put_behind_messages(e, seg, off, src, n, pe))
        return;
    shoal_ofi_fence_before(e, pe, SHOAL_OFI_WROTE, "shmem_put");
    if (!nbi && n > shoal_ofi.inject_size && n <= SHOAL_OFI_BOUNCE_SIZE && piece_len(seg, off, n) == n &&
        (bounce = shoal_ofi_bounce_take(e))) {
        memcpy(bounce, src, n);
        post_write(e, bounce, n, pe, seg, off, bounce, false);
        return;
    }
    bool from_caller = false;   /* some bytes are still read from src after we return */
    for (size_t done = 0; done < n;) {
        size_t len = piece_len(seg, off + done, n - done);
        post_write(e, s + done, len, pe, seg, off + done, NULL, false);
        from_caller |= len > shoal_ofi.inject_size;
        done += len;
    }
    if (from_caller && !nbi)
        shoal_ofi_wait_writes(e, "shmem_put");
}

static void ofi_get(struct shoal_ctx *ctx, void *dst, int seg, size_t off, size_t n, int pe, bool nbi)
{
    struct shoal_ofi_ep *e = shoal_ofi_ep_of(ctx);
    char *d = dst;
    for (size_t done = 0; done < n;) {
        size_t len = piece_len(seg, off + done, n - done);
        shoal_ofi_post_read(e, d + done, len, pe, seg, off + done, "shmem_get");
        done += len;
    }
    if (!nbi && n > 0)
        shoal_ofi_wait_reads(e, "shmem_get");
}

/* Fence: later puts and AMOs to a PE may not overtake earlier ones.  When
 * the provider does not promise that ordering (FI_ORDER_WAW; tcp;ofi_rxm
 * does not once atomics are asked for), or messages are outstanding (a
 * message is applied when the target reads it, after writes that follow
 * it may have landed), complete what is outstanding. */
static void ofi_fence(struct shoal_ctx *ctx)
{
    struct shoal_ofi_ep *e = shoal_ofi_ep_of(ctx);
    if (shoal_ofi_lazy_fence())
        __atomic_fetch_add(&e->fences, 1, __ATOMIC_RELEASE);   /* settled PE by PE (ofi_flush.c) */
    else if (!shoal_ofi.ordered_writes || shoal_ofi.am)
        shoal_ofi_quiet_ep(e, "shmem_fence");   /* non-blocking fetching AMOs count too */
}

static void ofi_quiet(struct shoal_ctx *ctx)
{
    shoal_ofi_quiet_ep(shoal_ofi_ep_of(ctx), "shmem_quiet");
}

bool shoal_ofi_signal_owns(struct shoal_ofi_ep *e, const void *op_context)
{
    const struct shoal_ofi_signal *p = op_context;
    return p >= e->signals && p < e->signals + SHOAL_OFI_SIGNALS;
}

static void signal_free(struct shoal_ofi_ep *e, struct shoal_ofi_signal *s)
{
    __atomic_fetch_and(&e->signals_used, ~(1u << (s - e->signals)), __ATOMIC_RELEASE);
}

static struct shoal_ofi_signal *signal_take(struct shoal_ofi_ep *e)
{
    unsigned tries = 0;
    for (;;) {
        uint32_t used = __atomic_load_n(&e->signals_used, __ATOMIC_ACQUIRE);
        if (used == UINT32_MAX) {
            shoal_ofi_retry_pause(e, &tries, "shmem_put_signal");   /* completions free records */
            continue;
        }
        unsigned i = (unsigned)__builtin_ctz(~used);
        if (__atomic_compare_exchange_n(&e->signals_used, &used, used | 1u << i, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            return &e->signals[i];
    }
}

void shoal_ofi_signal_written(struct shoal_ofi_ep *e, void *op_context)
{
    struct shoal_ofi_signal *s = op_context;
    enum shoal_amo_op op = s->sig_op == SHOAL_SIG_ADD ? SHOAL_AMO_ADD : SHOAL_AMO_SET;
    if (s->bounce)
        shoal_ofi_bounce_release(e, s->bounce);
    shoal_ofi_am_amo(e, op, 8, s->sig_seg, s->sig_off, NULL, &s->signal, NULL, s->pe, false, s->awaited);
    bool waiter = s->waiter;
    __atomic_fetch_sub(&e->signals_unsent, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&s->sent, 1, __ATOMIC_RELEASE);
    if (!waiter)
        signal_free(e, s);
}

/* One message when the data fits in one (ofi_am.c).  Else, where the
 * provider delivers a message behind the writes posted before it on the
 * endpoint (FI_ORDER_SAW: net), the writes and the signal message go back
 * to back: 1 x 1 hosts, put_signal ping-pong one way, 2 KiB 22.1 -> 17.7
 * us, 256 KiB 66 -> 53 (4 alternating runs).  Elsewhere one write goes
 * first and its completion sends the signal: rxm orders no send behind a
 * write, nor supports FI_FENCE, and waiting here for every write of the
 * endpoint would order against other PEs too.  A blocking call returns
 * when the source is reusable: at once with a bounce copy. */
static void ofi_put_signal(struct shoal_ctx *ctx, int seg, size_t off, const void *src, size_t n, int sig_seg,
                           size_t sig_off, uint64_t signal, int sig_op, int pe, bool nbi)
{
    struct shoal_ofi_ep *e = shoal_ofi_ep_of(ctx);
    if (shoal_ofi.am && shoal_ofi_am_put_signal(e, seg, off, src, n, sig_seg, sig_off, signal, sig_op, pe, ctx && ctx->awaited))
        return;   /* (the fence check is inside: one message) */
    bool signal_behind = shoal_ofi.am && shoal_ofi.sends_after_writes;   /* the message follows the writes */
    if (signal_behind || !shoal_ofi.am || piece_len(seg, off, n) < n) {   /* or more than one write */
        ofi_put(ctx, seg, off, src, n, pe, nbi);
        if (!signal_behind)
            ofi_fence(ctx);
        shoal_ofi_amo(ctx, sig_op == SHOAL_SIG_ADD ? SHOAL_AMO_ADD : SHOAL_AMO_SET, 8, sig_seg, sig_off, NULL,
                      &signal, NULL, pe, nbi);
        return;
    }
    /* The signal follows its own data's delivery, which follows every
     * earlier write on the connection: a write's check covers both. */
    shoal_ofi_fence_before(e, pe, SHOAL_OFI_WROTE, "shmem_put_signal");
    struct shoal_ofi_signal *s = signal_take(e);
    *s = (struct shoal_ofi_signal){.sig_off = sig_off, .signal = signal, .pe = pe, .sig_seg = sig_seg,
                                   .sig_op = sig_op, .awaited = ctx && ctx->awaited};
    const void *from = src;
    if (!nbi && n <= SHOAL_OFI_BOUNCE_SIZE && (s->bounce = shoal_ofi_bounce_take(e))) {
        memcpy(s->bounce, src, n);
        from = s->bounce;
    }
    s->waiter = !nbi && !s->bounce;
    __atomic_fetch_add(&e->signals_unsent, 1, __ATOMIC_RELEASE);
    post_write(e, from, n, pe, seg, off, s, true);
    if (!s->waiter)
        return;
    unsigned tries = 0;
    while (!__atomic_load_n(&s->sent, __ATOMIC_ACQUIRE))
        shoal_ofi_retry_pause(e, &tries, "shmem_put_signal");
    signal_free(e, s);
}

const struct shoal_remote_ops shoal_ofi_ops = {
    .put = ofi_put,
    .get = ofi_get,
    .amo = shoal_ofi_amo,
    .put_signal = ofi_put_signal,
    .fence = ofi_fence,
    .quiet = ofi_quiet,
    .heap_used = shoal_ofi_mr_heap_used,
};
