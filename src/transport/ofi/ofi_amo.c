/* Atomic memory operations through the network.
 *
 * Providers whose atomics the target's software applies anyway send
 * Shoal's own messages instead (ofi_am.c).  With native (NIC) atomics,
 * *every* AMO of a job that spans hosts comes here, also those to PEs on
 * this host and to this PE itself (shoal.amo_via_network): a word is then
 * only ever changed atomically by one agent, the target's NIC, so CPU
 * atomics and NIC atomics never race (DESIGN.md, "Many hosts").
 *
 * Non-fetching AMOs are injected (the operand is copied at once).  Fetching
 * ones write into the caller's fetch buffer; a blocking one waits for its
 * reads, a non-blocking one keeps its operands in a slot of the endpoint
 * until the next quiet. */
#include <stdio.h>

#include "ofi.h"

static enum fi_datatype datatype_of(size_t size)
{
    switch (size) {
    case 1: return FI_UINT8;
    case 2: return FI_UINT16;
    case 4: return FI_UINT32;
    default: return FI_UINT64;
    }
}

static enum fi_op fi_op_of(enum shoal_amo_op op)
{
    switch (op) {
    case SHOAL_AMO_FETCH: return FI_ATOMIC_READ;
    case SHOAL_AMO_SET:
    case SHOAL_AMO_SWAP: return FI_ATOMIC_WRITE;
    case SHOAL_AMO_CSWAP: return FI_CSWAP;
    case SHOAL_AMO_ADD: return FI_SUM;
    case SHOAL_AMO_AND: return FI_BAND;
    case SHOAL_AMO_OR: return FI_BOR;
    default: return FI_BXOR;
    }
}

static const char *name_of(enum shoal_amo_op op)
{
    static const char *const names[] = {"fetch", "set", "swap", "compare_swap", "add", "and", "or", "xor"};
    return names[op];
}

/* Where an AMO whose operands or answer must outlive the call keeps them
 * until quiet.  Returns with the endpoint's operand lock held: the caller
 * posts the operation and counts it before unlocking, so a quiet that sees
 * the slot taken also waits for its operation. */
struct shoal_ofi_operand *shoal_ofi_operand_slot(struct shoal_ofi_ep *e, const void *value, const void *cond,
                                                 size_t size)
{
    pthread_mutex_lock(&e->operand_lock);
    while (e->operands_used == SHOAL_OFI_OPERANDS) {
        pthread_mutex_unlock(&e->operand_lock);
        shoal_ofi_quiet_ep(e, "shmem_atomic_nbi");   /* frees every slot */
        pthread_mutex_lock(&e->operand_lock);
    }
    struct shoal_ofi_operand *slot = &e->operand[e->operands_used++];
    *slot = (struct shoal_ofi_operand){.ep = e, .size = (uint32_t)size};
    if (value)
        memcpy(&slot->value, value, size);
    if (cond)
        memcpy(&slot->cond, cond, size);
    return slot;
}

struct amo_target {
    fi_addr_t addr;
    uint64_t raddr, key;
    enum fi_datatype dt;
    size_t size;
    int pe;
};

static ssize_t post_amo(struct shoal_ofi_ep *e, const struct amo_target *t, enum shoal_amo_op op,
                        const void *value, const void *cond, void *fetch)
{
    enum fi_op fop = fi_op_of(op);
    void *ctx = shoal_ofi_ctx_of(t->pe);
    if (op == SHOAL_AMO_CSWAP)
        return fi_compare_atomic(e->ep, value, 1, NULL, cond, NULL, fetch, NULL, t->addr, t->raddr, t->key, t->dt,
                                 fop, ctx);
    if (fetch)
        return fi_fetch_atomic(e->ep, value, 1, NULL, fetch, NULL, t->addr, t->raddr, t->key, t->dt, fop, ctx);
    /* Injected, and still counted only once delivered (see post_write in ofi_rma.c). */
    struct fi_ioc ioc = {(void *)value, 1};
    struct fi_rma_ioc rma = {t->raddr, 1, t->key};
    struct fi_msg_atomic msg = {.msg_iov = &ioc, .iov_count = 1, .addr = t->addr, .rma_iov = &rma,
                                .rma_iov_count = 1, .datatype = t->dt, .op = fop, .context = ctx};
    return fi_atomicmsg(e->ep, &msg, FI_DELIVERY_COMPLETE | (t->size <= shoal_ofi.inject_size ? FI_INJECT : 0));
}

void shoal_ofi_amo(struct shoal_ctx *ctx, enum shoal_amo_op op, size_t size, int seg, size_t off, void *fetch,
                   const void *value, const void *cond, int pe, bool nbi)
{
    struct shoal_ofi_ep *e = shoal_ofi_ep_of(ctx);
    if (shoal_ofi.am) {
        /* here, not in shoal_ofi_am_amo: a put-with-signal's completion
         * sends its signal through that from inside a CQ read */
        shoal_ofi_fence_before(e, pe, SHOAL_OFI_MESSAGED, "shmem_atomic");
        shoal_ofi_am_amo(e, op, size, seg, off, fetch, value, cond, pe, nbi, ctx && ctx->awaited);
        return;
    }
    struct amo_target t = {shoal_ofi.addr[pe], shoal_ofi_raddr(pe, seg, off), shoal_ofi_key(pe, seg, off),
                           datatype_of(size), size, pe};
    static const uint64_t unused_operand;
    uint64_t scratch_result;
    if ((op == SHOAL_AMO_FETCH || op == SHOAL_AMO_CSWAP) && !fetch)
        fetch = &scratch_result, nbi = false;   /* the old value is unwanted, but the op still returns one */
    if (op == SHOAL_AMO_FETCH)
        value = &unused_operand;                /* ignored by FI_ATOMIC_READ, yet must point somewhere */
    bool slotted = (fetch && nbi) || (!fetch && size > shoal_ofi.inject_size);   /* operands outlive the call */
    if (slotted) {
        struct shoal_ofi_operand *slot = shoal_ofi_operand_slot(e, value, cond, size);
        value = &slot->value;
        cond = cond ? &slot->cond : NULL;
    }
    unsigned tries = 0;
    ssize_t rc;
    __atomic_fetch_add(fetch ? &e->reads : &e->writes, 1, __ATOMIC_RELEASE);   /* before it can complete */
    while ((rc = post_amo(e, &t, op, value, cond, fetch)) == -FI_EAGAIN)
        shoal_ofi_retry_pause(e, &tries, "shmem_atomic");
    if (rc != 0) {
        char what[64];
        snprintf(what, sizeof what, "atomic %s of %zu bytes", name_of(op), size);
        shoal_ofi_failed("shmem_atomic", pe, what, (int)rc);
    }
    if (slotted)
        pthread_mutex_unlock(&e->operand_lock);
    if (fetch && !nbi)
        shoal_ofi_wait_reads(e, "shmem_atomic");
}

/* Every operation Shoal issues, on 4- and 8-byte words (1 and 2 bytes are
 * best effort).  Names the first missing one in missing. */
bool shoal_ofi_atomics_supported(char *missing, size_t len)
{
    static const enum shoal_amo_op ops[] = {SHOAL_AMO_FETCH, SHOAL_AMO_SET, SHOAL_AMO_SWAP, SHOAL_AMO_CSWAP,
                                            SHOAL_AMO_ADD, SHOAL_AMO_AND, SHOAL_AMO_OR, SHOAL_AMO_XOR};
    static const size_t sizes[] = {4, 8};
    for (size_t s = 0; s < 2; s++) {
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
            struct fi_atomic_attr attr;
            enum shoal_amo_op op = ops[i];
            uint64_t flags = op == SHOAL_AMO_CSWAP ? FI_COMPARE_ATOMIC
                             : op == SHOAL_AMO_FETCH || op == SHOAL_AMO_SWAP ? FI_FETCH_ATOMIC : 0;
            int rc = fi_query_atomic(shoal_ofi.domain, datatype_of(sizes[s]), fi_op_of(op), &attr, flags);
            if (rc == 0 && !(op == SHOAL_AMO_ADD || op == SHOAL_AMO_AND || op == SHOAL_AMO_OR ||
                             op == SHOAL_AMO_XOR))
                continue;
            if (rc == 0)   /* arithmetic and bitwise ops are also used fetching */
                rc = fi_query_atomic(shoal_ofi.domain, datatype_of(sizes[s]), fi_op_of(op), &attr,
                                     FI_FETCH_ATOMIC);
            if (rc != 0) {
                bool plain = op == SHOAL_AMO_FETCH || op == SHOAL_AMO_SWAP || op == SHOAL_AMO_CSWAP;
                snprintf(missing, len, "atomic %s%s on %zu-byte integers", plain ? "" : "fetch-", name_of(op),
                         sizes[s]);
                return false;
            }
        }
    }
    return true;
}
