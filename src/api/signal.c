/* Signaling: put-with-signal (typed, sized, mem; blocking and nbi; each
 * with its shmem_ctx_ form), signal_add/set on a remote signal word, and
 * signal_fetch on a local one.  A signal is a uint64_t updated only by
 * atomic operations, so it participates in the AMO atomicity domain. */
#include "typed.h"

_Static_assert(SHMEM_SIGNAL_SET == SHOAL_SIG_SET && SHMEM_SIGNAL_ADD == SHOAL_SIG_ADD,
               "the core's signal operators must equal the spec's constants");

static void bad_sig_op(const char *routine, int sig_op)
{
    shoal_fatal(routine, "sig_op is %d: use SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD", sig_op);
}

SHOAL_INLINE void put_signal(const char *routine, shmem_ctx_t ctx, void *dest, const void *source, size_t bytes,
                             uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, bool nbi)
{
    int wpe = shoal_api_pe(routine, ctx, pe);
    SHOAL_PROF_OP(routine, SHOAL_PROF_SIGNAL, nbi, wpe, bytes + sizeof signal);
    if (SHOAL_DEBUG_ON) {
        if (bytes)
            shoal_check_remote(routine, dest, bytes, wpe);
        shoal_api_check_amo(routine, sig_addr, sizeof *sig_addr, wpe);
        if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
            bad_sig_op(routine, sig_op);
    }
    shoal_put_signal(shoal_ctx_of(ctx), dest, source, bytes, sig_addr, signal, sig_op, wpe, nbi);
}

#define PUT_SIGNAL(name, elem_bytes, T)                                                            \
    SHOAL_API_CTX(void, name,                                                                      \
                  (T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal,   \
                   int sig_op, int pe),                                                            \
                  { put_signal(SHOAL_ROUTINE, ctx, dest, source, nelems * (elem_bytes), sig_addr,  \
                               signal, sig_op, pe, false); })                                      \
    SHOAL_API_CTX(void, name##_nbi,                                                                \
                  (T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal,   \
                   int sig_op, int pe),                                                            \
                  { put_signal(SHOAL_ROUTINE, ctx, dest, source, nelems * (elem_bytes), sig_addr,  \
                               signal, sig_op, pe, true); })

#define PUT_SIGNAL_TYPED(T, N) PUT_SIGNAL(N##_put_signal, sizeof(T), T)
SHOAL_FOR_RMA(PUT_SIGNAL_TYPED)

#define PUT_SIGNAL_SIZED(bits) PUT_SIGNAL(put##bits##_signal, bits / 8, void)
SHOAL_SIZES(PUT_SIGNAL_SIZED)

PUT_SIGNAL(putmem_signal, 1, void)

/* ---- signal words ---- */
SHOAL_INLINE void signal_update(const char *routine, shmem_ctx_t ctx, enum shoal_amo_op op, uint64_t *sig_addr,
                                uint64_t signal, int pe)
{
    int wpe = shoal_api_pe(routine, ctx, pe);
    SHOAL_PROF_OP(routine, SHOAL_PROF_SIGNAL, false, wpe, sizeof signal);
    if (SHOAL_DEBUG_ON)
        shoal_api_check_amo(routine, sig_addr, sizeof *sig_addr, wpe);
    shoal_amo(shoal_ctx_of(ctx), op, sizeof *sig_addr, sig_addr, NULL, &signal, NULL, wpe, false);
}

SHOAL_API_CTX(void, signal_add, (uint64_t *sig_addr, uint64_t signal, int pe),
              { signal_update(SHOAL_ROUTINE, ctx, SHOAL_AMO_ADD, sig_addr, signal, pe); })
SHOAL_API_CTX(void, signal_set, (uint64_t *sig_addr, uint64_t signal, int pe),
              { signal_update(SHOAL_ROUTINE, ctx, SHOAL_AMO_SET, sig_addr, signal, pe); })

SHOAL_API(uint64_t, shmem_signal_fetch, (const uint64_t *sig_addr))
{
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}
