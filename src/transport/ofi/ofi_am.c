/* AMOs and signals as messages that the target's own progress applies.
 *
 * On providers whose atomics are emulated in software anyway (tcp;ofi_rxm,
 * verbs;ofi_rxm, efa: the provider's progress on the target applies them),
 * Shoal sends its own small message instead and the target applies it with
 * the same CPU atomics its on-host neighbours use.  That makes the target's
 * CPU the one atomicity agent for its words, so on-host AMOs stay CPU
 * atomics in a multi-host job, and a put-with-signal is one message (data
 * and signal applied in that order by one handler) instead of put, fence
 * (a round trip) and AMO.
 *
 * Ordering rests on FI_ORDER_SAS only: messages from one endpoint to one
 * target are received, and so applied, in order.  A message is applied
 * when the target reads its CQ, which may be after a later RMA read or
 * write from the same initiator has been served, so quiet and fence send a
 * flush to every PE messaged since the last one and wait for its answer
 * (DESIGN.md, "Many hosts").  Fetching AMOs are answered with the old
 * value; the answer's token is the asker's operand record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ofi.h"

enum am_kind { AM_AMO, AM_FETCH, AM_PUT_SIGNAL, AM_PUT, AM_FLUSH, AM_ANSWER };
enum { AM_HEADER = 32 };

struct am_msg {
    uint8_t kind, op, size, seg;   /* put(_signal): seg = data seg | signal seg << 4 (data size: the message's) */
    int32_t from;
    uint64_t off;
    uint64_t token;                /* fetch, flush, answer: the asker's record; put_signal: signal offset */
    uint64_t value;                /* operand, signal, or the old value in an answer */
    unsigned char tail[SHOAL_OFI_AM_BUF - AM_HEADER];   /* compare_swap's condition; put_signal's data */
};   /* a put_signal from a bounce buffer: the header, then up to SHOAL_OFI_AM_RX_BYTES - AM_HEADER bytes */
_Static_assert(sizeof(struct am_msg) == SHOAL_OFI_AM_BUF, "a message fills one receive buffer");

/* Providers whose atomics are done by the NIC: everything else applies
 * network atomics in software on the target (fi_query_atomic cannot tell). */
static bool native_atomics(const char *prov)
{
    /* cxi: the NIC applies them.  sockets: the provider's own progress
     * threads apply them (auto progress), so they never wait for the target
     * PE to poll, as Shoal's messages would (measured: mh_atomicity at 2,1,3
     * took 13-40 s and sometimes over 75 s with messages). */
    static const char *const native[] = {"cxi", "sockets"};
    for (size_t i = 0; i < sizeof native / sizeof native[0]; i++)
        if (strstr(prov, native[i]))
            return true;
    return false;
}

bool shoal_ofi_am_wanted(void)
{
    const struct fi_info *i = shoal_ofi.info;
    const char *mode = shoal_cfg.ofi_atomics;
    bool can = (i->caps & FI_MSG) && (i->tx_attr->msg_order & FI_ORDER_SAS) && i->tx_attr->inject_size >= 40;
    if (!strcasecmp(mode, "native"))
        return false;
    if (!strcasecmp(mode, "software")) {
        if (!can)
            shoal_fatal("shmem_init", "SHOAL_OFI_ATOMICS=software needs ordered messages (FI_ORDER_SAS) of at "
                                      "least 40 bytes, which libfabric provider %s does not offer; use auto",
                        shoal_ofi.prov);
        return true;
    }
    if (strcasecmp(mode, "auto") != 0)
        shoal_fatal("shmem_init", "SHOAL_OFI_ATOMICS=\"%s\": use auto, native or software", mode);
    return can && !native_atomics(shoal_ofi.prov);
}

/* ---- receiving ---- */

static bool is_rx_buffer(const void *p)
{
    const char *b = (const char *)shoal_ofi.am_rx;
    return b && (const char *)p >= b && (const char *)p < b + SHOAL_OFI_AM_RX * SHOAL_OFI_AM_RX_BYTES;
}

static void post_rx(void *buf)
{
    struct iovec iov = {buf, SHOAL_OFI_AM_RX_BYTES};
    struct fi_msg msg = {.msg_iov = &iov, .iov_count = 1, .addr = FI_ADDR_UNSPEC, .context = buf};
    ssize_t rc;
    unsigned tries = 0;
    while ((rc = fi_recvmsg(shoal_ofi.main_ep.ep, &msg, FI_COMPLETION)) == -FI_EAGAIN) {
        fi_cntr_read(shoal_ofi.main_ep.wcntr);   /* drives progress without reading the CQ again */
        shoal_ofi_pause(&tries);
    }
    if (rc != 0)
        shoal_ofi_failed("shmem (network progress)", -1, "posting a receive buffer", (int)rc);
}

int shoal_ofi_am_start(void)
{
    shoal_ofi.am_rx = calloc(SHOAL_OFI_AM_RX, SHOAL_OFI_AM_RX_BYTES);
    if (!shoal_ofi.am_rx)
        return -FI_ENOMEM;
    for (int i = 0; i < SHOAL_OFI_AM_RX; i++)
        post_rx(shoal_ofi.am_rx[i]);
    return 0;
}

void shoal_ofi_am_stop(void)   /* after the main endpoint is closed */
{
    free(shoal_ofi.am_rx);
    shoal_ofi.am_rx = NULL;
}

/* From inside a CQ read: retrying must not read the CQ again (that would
 * nest handlers), so a full send queue is drained through the counter. */
static void answer(int pe, uint64_t token, uint64_t value)
{
    struct am_msg m = {.kind = AM_ANSWER, .from = shoal.my_pe, .token = token, .value = value};
    ssize_t rc;
    unsigned tries = 0;
    while ((rc = fi_inject(shoal_ofi.main_ep.ep, &m, AM_HEADER, shoal_ofi.addr[pe])) == -FI_EAGAIN) {
        fi_cntr_read(shoal_ofi.main_ep.wcntr);
        shoal_ofi_pause(&tries);
    }
    if (rc != 0)
        shoal_ofi_failed("shmem (network progress)", pe, "fi_inject (answer)", (int)rc);
}

static void *local(int seg, uint64_t off)
{
    return (char *)shoal.seg_base[seg] + off;
}

static void take_answer(const struct am_msg *m)
{
    struct shoal_ofi_operand *r = (struct shoal_ofi_operand *)(uintptr_t)m->token;
    struct shoal_ofi_ep *e = r->ep;
    if (r->fetch)
        memcpy(r->fetch, &m->value, r->size);
    __atomic_fetch_add(&e->am_answered, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&r->answered, 1, __ATOMIC_RELEASE);   /* last: a blocking asker may now drop r */
}

bool shoal_ofi_am_owns(const void *op_context)
{
    return is_rx_buffer(op_context);
}

void shoal_ofi_am_received(void *buf, size_t len)
{
    const struct am_msg *m = buf;
    uint64_t old = 0;
    if (m->kind != AM_ANSWER)
        __atomic_fetch_add(&shoal_requests_served, 1, __ATOMIC_RELAXED);
    switch (m->kind) {
    case AM_AMO:
    case AM_FETCH:
        shoal_shm_amo(m->op, m->size, local(m->seg, m->off), &old, &m->value, m->tail);
        if (m->kind == AM_FETCH)
            answer(m->from, m->token, old);
        break;
    case AM_PUT:
    case AM_PUT_SIGNAL:
        memcpy(local(m->seg & 15, m->off), (const char *)buf + AM_HEADER, len - AM_HEADER);
        if (m->kind == AM_PUT)
            break;
        shoal_shm_amo(m->op == SHOAL_SIG_ADD ? SHOAL_AMO_ADD : SHOAL_AMO_SET, 8, local(m->seg >> 4, m->token),
                      NULL, &m->value, NULL);   /* release: the data is visible first */
        break;
    case AM_FLUSH:
        answer(m->from, m->token, 0);   /* everything this sender sent before is applied */
        break;
    case AM_ANSWER:
        take_answer(m);
        break;
    }
    if (m->kind != AM_ANSWER && m->kind != AM_FLUSH)
        shoal_notify(shoal.my_pe);
    post_rx(buf);
}

/* ---- sending ---- */

static void send_msg(struct shoal_ofi_ep *e, int pe, const struct am_msg *m, size_t len, const char *routine)
{
    unsigned tries = 0;
    ssize_t rc;
    while ((rc = fi_inject(e->ep, m, len, shoal_ofi.addr[pe])) == -FI_EAGAIN)
        shoal_ofi_retry_pause(e, &tries, routine);
    if (rc != 0)
        shoal_ofi_failed(routine, pe, "fi_inject (message)", (int)rc);
}

static void await_answer(struct shoal_ofi_ep *e, const uint32_t *answered, int pe, const char *routine)
{
    unsigned tries = 0;
    uint64_t yield_at = shoal_ofi_peer_yield_at(pe);
    while (!__atomic_load_n(answered, __ATOMIC_ACQUIRE))
        shoal_ofi_answer_pause(e, &tries, yield_at, routine);
}

void shoal_ofi_am_amo(struct shoal_ofi_ep *e, enum shoal_amo_op op, size_t size, int seg, size_t off, void *fetch,
                      const void *value, const void *cond, int pe, bool nbi, bool awaited)
{
    struct am_msg m = {.kind = fetch ? AM_FETCH : AM_AMO, .op = (uint8_t)op, .size = (uint8_t)size,
                       .seg = (uint8_t)seg, .from = shoal.my_pe, .off = off};
    size_t len = AM_HEADER;
    if (value && op != SHOAL_AMO_FETCH)
        memcpy(&m.value, value, size);
    if (op == SHOAL_AMO_CSWAP) {
        memcpy(m.tail, cond, size);
        len += size;
    }
    if (!fetch) {   /* applied some time after; quiet flushes, unless its target waits for it */
        send_msg(e, pe, &m, len, "shmem_atomic");
        if (!awaited)
            shoal_ofi_mark(e, pe, SHOAL_OFI_MESSAGED);
        return;
    }
    struct shoal_ofi_operand mine = {.fetch = fetch, .ep = e, .size = (uint32_t)size};
    struct shoal_ofi_operand *r = nbi ? shoal_ofi_operand_slot(e, NULL, NULL, size) : &mine;
    if (nbi) {
        r->fetch = fetch;
        r->ep = e;
    }
    m.token = (uintptr_t)r;
    __atomic_fetch_add(&e->am_asked, 1, __ATOMIC_RELEASE);
    send_msg(e, pe, &m, len, "shmem_atomic");
    if (nbi)
        pthread_mutex_unlock(&e->operand_lock);
    else
        await_answer(e, &r->answered, pe, "shmem_atomic");
}

static size_t inline_max(void)
{
    size_t room = shoal_ofi.inject_size < SHOAL_OFI_AM_BUF ? shoal_ofi.inject_size : SHOAL_OFI_AM_BUF;
    return room - AM_HEADER;
}

/* A message carrying the data from a bounce buffer of e, which its send's
 * completion gives back (ofi_progress.c): one message where the data was
 * a write and then a signal, each a send of its own (over tcp a system
 * call and the stack's work twice).  false: no buffer at hand. */
static bool send_long(struct shoal_ofi_ep *e, const struct am_msg *m, const void *src, size_t n, int pe,
                      const char *routine)
{
    char *b = shoal_ofi_bounce_take(e);
    if (!b)
        return false;
    memcpy(b, m, AM_HEADER);
    memcpy(b + AM_HEADER, src, n);
    struct iovec iov = {b, AM_HEADER + n};
    struct fi_msg msg = {.msg_iov = &iov, .iov_count = 1, .addr = shoal_ofi.addr[pe], .context = b};
    unsigned tries = 0;
    ssize_t rc;
    if (e != &shoal_ofi.main_ep)
        __atomic_fetch_add(&shoal_ofi.side_completions, 1, __ATOMIC_RELEASE);
    while ((rc = fi_sendmsg(e->ep, &msg, FI_COMPLETION)) == -FI_EAGAIN)
        shoal_ofi_retry_pause(e, &tries, routine);
    if (rc != 0)
        shoal_ofi_failed(routine, pe, "fi_sendmsg (message)", (int)rc);
    return true;
}

/* Whether n bytes of data travel in one message: injected, or from a
 * bounce buffer where that is wanted. */
static bool fits_a_message(size_t n)
{
    return n <= inline_max() || (shoal_ofi.am_long && n <= SHOAL_OFI_AM_RX_BYTES - AM_HEADER);
}

/* m with n bytes (fits_a_message) of data after its header; false: no
 * bounce buffer at hand, not sent. */
static bool send_data(struct shoal_ofi_ep *e, struct am_msg *m, const void *src, size_t n, int pe,
                      const char *routine)
{
    if (n > inline_max())
        return send_long(e, m, src, n, pe, routine);
    memcpy(m->tail, src, n);
    send_msg(e, pe, m, AM_HEADER + n, routine);
    return true;
}

/* rxm sends a message above its eager size (2 KiB as Shoal sizes it, ofi_init.c)
 * by rendezvous, a round trip more than the write it replaces. */
bool shoal_ofi_am_long_wanted(void)
{
    return shoal_ofi.am && !strstr(shoal_ofi.prov, "ofi_rxm");
}

/* One message when the data fits in it; false otherwise. */
bool shoal_ofi_am_put_signal(struct shoal_ofi_ep *e, int seg, size_t off, const void *src, size_t n, int sig_seg,
                             size_t sig_off, uint64_t signal, int sig_op, int pe, bool awaited)
{
    if (!fits_a_message(n))
        return false;
    struct am_msg m = {.kind = AM_PUT_SIGNAL, .op = (uint8_t)sig_op, .seg = (uint8_t)(seg | sig_seg << 4),
                       .from = shoal.my_pe, .off = off, .token = sig_off, .value = signal};
    shoal_ofi_fence_before(e, pe, SHOAL_OFI_MESSAGED, "shmem_put_signal");
    if (!send_data(e, &m, src, n, pe, "shmem_put_signal"))
        return false;
    if (!awaited)
        shoal_ofi_mark(e, pe, SHOAL_OFI_MESSAGED);
    return true;
}

/* A put after a fence, to a PE sent messages before it, would wait for
 * their flush, a round trip (a message is applied when the target reads
 * it, so the write could land first).  As a message itself it is applied
 * after them: put, fence, AMO flag in a loop, where each round's put
 * follows the last round's flag.  false: a put as usual. */
bool shoal_ofi_am_put_behind_messages(struct shoal_ofi_ep *e, int seg, size_t off, const void *src, size_t n, int pe)
{
    if (!shoal_ofi.am || __atomic_load_n(&e->fences, __ATOMIC_ACQUIRE) == __atomic_load_n(&e->fences_done,
                                                                                           __ATOMIC_ACQUIRE) ||
        !(__atomic_load_n(&e->dirty[pe], __ATOMIC_RELAXED) & SHOAL_OFI_MESSAGED) || !fits_a_message(n))
        return false;
    struct am_msg m = {.kind = AM_PUT, .seg = (uint8_t)seg, .from = shoal.my_pe, .off = off};
    shoal_ofi_fence_before(e, pe, SHOAL_OFI_MESSAGED, "shmem_put");   /* behind earlier writes too */
    if (!send_data(e, &m, src, n, pe, "shmem_put"))
        return false;
    shoal_ofi_mark(e, pe, SHOAL_OFI_MESSAGED);
    return true;
}

/* Answered once every message sent to pe before it is applied (messages
 * to one target are applied in order). */
void shoal_ofi_am_send_flush(struct shoal_ofi_ep *e, int pe, const char *routine)
{
    struct shoal_ofi_operand *r = &e->am_flush_answer;
    r->ep = e;
    struct am_msg m = {.kind = AM_FLUSH, .from = shoal.my_pe, .token = (uintptr_t)r};
    __atomic_fetch_add(&e->am_asked, 1, __ATOMIC_RELEASE);
    send_msg(e, pe, &m, AM_HEADER, routine);
}

/* Every answer asked for so far has come: flushes, and fetching AMOs still
 * outstanding. */
void shoal_ofi_am_await_flushes(struct shoal_ofi_ep *e, const char *routine)
{
    /* Answers are counted, not named: another thread's later question may
     * be answered before mine, so wait until every question asked so far
     * is (answers read first; questions are counted before they are sent). */
    unsigned tries = 0;
    uint64_t yield_at = shoal_ofi_peer_yield_at(-1);
    while (__atomic_load_n(&e->am_answered, __ATOMIC_ACQUIRE) < __atomic_load_n(&e->am_asked, __ATOMIC_ACQUIRE))
        shoal_ofi_answer_pause(e, &tries, yield_at, routine);
}
