/* What quiet must prove has landed, and the proof.
 *
 * Two kinds of operation count as done at the initiator before they are
 * done at the target: messages (ofi_am.c: applied when the target reads its
 * CQ) and, where the provider allows it, RMA writes posted without
 * FI_DELIVERY_COMPLETE.  Each endpoint keeps the PEs it sent either to
 * since its last flush; quiet flushes those PEs and only those.
 *
 * Writes: a delivery-complete write makes the target send an
 * acknowledgement, which over tcp;ofi_rxm is a second TCP message on the
 * path of every put (measured, bench/multihost/mh_fabric.c: an 8-byte
 * write ping-pong one-way 6.0 us plain, 15.9 us delivery-complete; a
 * put-then-wait_until ping-pong through Shoal 17.4 us).  So where the
 * provider transmits an RMA read behind earlier writes (FI_ORDER_RMA_RAW)
 * and serves a connection's operations one at a time in arrival order
 * (tcp, whose target copies a write's data in before it reads the next
 * header; net, libfabric 1.17's fork of tcp, which became tcp in 1.18;
 * sockets), writes go without the flag and quiet reads 8 bytes
 * back from each PE written: the read's answer is sent after every earlier
 * write on that connection was placed (DESIGN.md, "Completion").  Others
 * (verbs, efa, cxi: not measured here) keep delivery-complete writes,
 * unless SHOAL_OFI_FLUSH_READ=on. */
#include <stdlib.h>
#include <string.h>

#include "ofi.h"

bool shoal_ofi_flush_read_wanted(void)
{
    const struct fi_info *i = shoal_ofi.info;
    bool ordered = (i->tx_attr->msg_order & (FI_ORDER_RMA_RAW | FI_ORDER_RAW)) != 0;
    bool in_order_target = strstr(shoal_ofi.prov, "tcp") || strstr(shoal_ofi.prov, "sockets") ||
                           !strncmp(shoal_ofi.prov, "net", 3);
    bool on = shoal_ofi_setting(shoal_cfg.ofi_flush_read, ordered && in_order_target);
    if (on && !ordered)
        shoal_fatal("shmem_init", "SHOAL_OFI_FLUSH_READ=on needs reads ordered behind writes (FI_ORDER_RMA_RAW), "
                    "which libfabric provider %s does not offer; use auto", shoal_ofi.prov);
    return on;
}

int shoal_ofi_flush_init(struct shoal_ofi_ep *e)
{
    pthread_mutex_init(&e->dirty_lock, NULL);
    e->dirty = calloc((size_t)shoal.n_pes, 1);
    e->pending = calloc((size_t)shoal.n_pes, sizeof *e->pending);
    return e->dirty && e->pending ? 0 : -FI_ENOMEM;
}

void shoal_ofi_flush_fini(struct shoal_ofi_ep *e)
{
    free(e->dirty);
    free(e->pending);
    pthread_mutex_destroy(&e->dirty_lock);
}

/* After the operation is posted: a flush that finds the mark is then sure
 * to come after it; one that ran between the post and the mark leaves the
 * mark to the next. */
void shoal_ofi_mark(struct shoal_ofi_ep *e, int pe, unsigned what)
{
    if ((__atomic_load_n(&e->dirty[pe], __ATOMIC_RELAXED) & what) == what)
        return;
    pthread_mutex_lock(&e->dirty_lock);
    if (!(e->dirty[pe] & SHOAL_OFI_LISTED)) {   /* a fence may have flushed pe alone: it stays listed */
        e->pending[e->npending] = pe;
        __atomic_store_n(&e->npending, e->npending + 1, __ATOMIC_RELEASE);   /* flush looks without the lock */
    }
    __atomic_store_n(&e->dirty[pe], (uint8_t)(e->dirty[pe] | what | SHOAL_OFI_LISTED), __ATOMIC_RELAXED);
    pthread_mutex_unlock(&e->dirty_lock);
}

/* 8 bytes from pe's heap base, behind every earlier write on the connection. */
static void post_flush_read(struct shoal_ofi_ep *e, int pe, const char *routine)
{
    shoal_ofi_post_read(e, &e->flush_sink, sizeof e->flush_sink, pe, SHOAL_SEG_HEAP, 0, routine);
}

/* Ask every PE marked since the last flush; the caller then waits for the
 * answers (messages) and reads.  Take the list, then send unlocked: sending
 * may run progress hooks, which may mark this endpoint themselves. */
void shoal_ofi_flush(struct shoal_ofi_ep *e, const char *routine)
{
    if (!__atomic_load_n(&e->npending, __ATOMIC_ACQUIRE))
        return;
    int few[64], *list = few;
    uint8_t few_what[64], *what = few_what;
    pthread_mutex_lock(&e->dirty_lock);
    unsigned n = e->npending;
    if (n > 64 && (!(list = malloc(n * sizeof *list)) || !(what = malloc(n))))
        shoal_fatal(routine, "out of memory for %u flushes", n);
    for (unsigned i = 0; i < n; i++) {
        list[i] = e->pending[i];
        what[i] = e->dirty[list[i]] & (SHOAL_OFI_MESSAGED | SHOAL_OFI_WROTE);
        __atomic_store_n(&e->dirty[list[i]], 0, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&e->npending, 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&e->dirty_lock);
    for (unsigned i = 0; i < n; i++) {
        if (what[i] & SHOAL_OFI_WROTE)
            post_flush_read(e, list[i], routine);
        if (what[i] & SHOAL_OFI_MESSAGED)
            shoal_ofi_am_send_flush(e, list[i], routine);
    }
    if (list != few) {
        free(list);
        free(what);
    }
}

/* ---- fence ----
 *
 * Where the provider serves a connection in order and AMOs are messages
 * (tcp;ofi_rxm), fence need not be a quiet: writes after writes to one PE
 * are placed in order (FI_ORDER_RMA_WAW), messages after messages are
 * applied in order (FI_ORDER_SAS).  What is not ordered is a write after a
 * message (the message is applied when the target reads its CQ, maybe
 * after the write landed) and, on rxm, a message after a write (no
 * send-after-write order; net has it, FI_ORDER_SAW).  So fence only
 * records that it happened, and the next put or message to a PE first
 * settles what that PE is owed: put after messages waits for their flush,
 * a message after writes (without FI_ORDER_SAW) for their read-back (and
 * for acknowledged writes still in flight).  A put, fence, flag put to
 * one PE costs nothing more than the two puts (it was a quiet: a round
 * trip).  Quiet settles everything and so ends the fence. */
bool shoal_ofi_lazy_fence(void)
{
    return shoal_ofi.am && shoal_ofi.flush_read;
}

/* Take pe's marks among `bits`; what was taken. */
static unsigned take_marks(struct shoal_ofi_ep *e, int pe, unsigned bits)
{
    if (!(__atomic_load_n(&e->dirty[pe], __ATOMIC_RELAXED) & bits))
        return 0;
    pthread_mutex_lock(&e->dirty_lock);
    unsigned taken = e->dirty[pe] & bits;
    __atomic_store_n(&e->dirty[pe], (uint8_t)(e->dirty[pe] & ~taken), __ATOMIC_RELAXED);
    pthread_mutex_unlock(&e->dirty_lock);
    return taken;
}

void shoal_ofi_fence_owed(struct shoal_ofi_ep *e, int pe, unsigned next, const char *routine)
{
    shoal_ofi_await_signals_sent(e, routine);   /* they become messages */
    if (next == SHOAL_OFI_WROTE) {
        if (take_marks(e, pe, SHOAL_OFI_MESSAGED))
            shoal_ofi_am_send_flush(e, pe, routine);
        shoal_ofi_am_await_flushes(e, routine);   /* non-blocking fetching AMOs are messages too */
        return;
    }
    if (shoal_ofi.sends_after_writes)
        return;   /* the provider delivers the message behind the writes */
    shoal_ofi_wait_writes(e, routine);   /* acknowledged writes are not marked */
    if (take_marks(e, pe, SHOAL_OFI_WROTE)) {
        post_flush_read(e, pe, routine);
        shoal_ofi_wait_reads(e, routine);
    }
}
