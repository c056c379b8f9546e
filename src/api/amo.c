/* Atomic memory operations: the blocking and nonblocking-fetch forms with
 * their shmem_ctx_ twins, and the deprecated names (shmem_int_fadd, ...).
 * Every AMO type is a 4- or 8-byte word and the core's shoal_amo works on
 * the raw bits, so float and double fetch/set/swap need nothing special,
 * and signed adds are the unsigned adds of two's complement. */
#include "typed.h"

SHOAL_INLINE void amo(const char *routine, shmem_ctx_t ctx, enum shoal_amo_op op, size_t size, void *dest,
                      void *fetch, const void *value, const void *cond, int pe, bool nbi)
{
    int wpe = shoal_api_pe(routine, ctx, pe);
    SHOAL_PROF_OP(routine, SHOAL_PROF_AMO, nbi, wpe, size);
    if (SHOAL_DEBUG_ON)
        shoal_api_check_amo(routine, dest, size, wpe);
    shoal_amo(shoal_ctx_of(ctx), op, size, dest, fetch, value, cond, wpe, nbi);
}

/* Inside a typed routine: ATOMIC(op, target, fetch, value, cond, nbi) on *target. */
#define ATOMIC(op, target, fetch, value, cond, nbi) \
    amo(SHOAL_ROUTINE, ctx, SHOAL_AMO_##op, sizeof *(target), (void *)(target), fetch, value, cond, pe, nbi)

#define AMO_WORD_CHECK(T, N) \
    _Static_assert(sizeof(T) == 4 || sizeof(T) == 8, "AMO type " #N " is not a 4- or 8-byte word");

/* fetch, set, swap (extamotypes) */
#define AMO_EXTENDED(T, N)                                                                         \
    AMO_WORD_CHECK(T, N)                                                                           \
    SHOAL_API_CTX(T, N##_atomic_fetch, (const T *source, int pe), {                               \
        T old;                                                                                     \
        ATOMIC(FETCH, source, &old, NULL, NULL, false);                                               \
        return old;                                                                                \
    })                                                                                             \
    SHOAL_API_CTX(void, N##_atomic_set, (T *dest, T value, int pe),                               \
                  { ATOMIC(SET, dest, NULL, &value, NULL, false); })                                  \
    SHOAL_API_CTX(T, N##_atomic_swap, (T *dest, T value, int pe), {                               \
        T old;                                                                                     \
        ATOMIC(SWAP, dest, &old, &value, NULL, false);                                                \
        return old;                                                                                \
    })                                                                                             \
    SHOAL_API_CTX(void, N##_atomic_fetch_nbi, (T *fetch, const T *source, int pe),                \
                  { ATOMIC(FETCH, source, fetch, NULL, NULL, true); })                                \
    SHOAL_API_CTX(void, N##_atomic_swap_nbi, (T *fetch, T *dest, T value, int pe),                \
                  { ATOMIC(SWAP, dest, fetch, &value, NULL, true); })

/* compare_swap, fetch_inc, inc, fetch_add, add (stdamotypes) */
#define AMO_STANDARD(T, N)                                                                         \
    SHOAL_API_CTX(T, N##_atomic_compare_swap, (T *dest, T cond, T value, int pe), {               \
        T old;                                                                                     \
        ATOMIC(CSWAP, dest, &old, &value, &cond, false);                                              \
        return old;                                                                                \
    })                                                                                             \
    SHOAL_API_CTX(T, N##_atomic_fetch_inc, (T *dest, int pe), {                                   \
        T old;                                                                                     \
        T one = 1;                                                                                 \
        ATOMIC(ADD, dest, &old, &one, NULL, false);                                                   \
        return old;                                                                                \
    })                                                                                             \
    SHOAL_API_CTX(void, N##_atomic_inc, (T *dest, int pe), {                                      \
        T one = 1;                                                                                 \
        ATOMIC(ADD, dest, NULL, &one, NULL, false);                                                   \
    })                                                                                             \
    SHOAL_API_CTX(T, N##_atomic_fetch_add, (T *dest, T value, int pe), {                          \
        T old;                                                                                     \
        ATOMIC(ADD, dest, &old, &value, NULL, false);                                                 \
        return old;                                                                                \
    })                                                                                             \
    SHOAL_API_CTX(void, N##_atomic_add, (T *dest, T value, int pe),                               \
                  { ATOMIC(ADD, dest, NULL, &value, NULL, false); })                                  \
    SHOAL_API_CTX(void, N##_atomic_compare_swap_nbi, (T *fetch, T *dest, T cond, T value, int pe), \
                  { ATOMIC(CSWAP, dest, fetch, &value, &cond, true); })                               \
    SHOAL_API_CTX(void, N##_atomic_fetch_inc_nbi, (T *fetch, T *dest, int pe), {                  \
        T one = 1;                                                                                 \
        ATOMIC(ADD, dest, fetch, &one, NULL, true);                                                   \
    })                                                                                             \
    SHOAL_API_CTX(void, N##_atomic_fetch_add_nbi, (T *fetch, T *dest, T value, int pe),           \
                  { ATOMIC(ADD, dest, fetch, &value, NULL, true); })

/* and, or, xor and their fetching forms (bitamotypes) */
#define AMO_BITWISE_OP(T, N, op, OP)                                                               \
    SHOAL_API_CTX(T, N##_atomic_fetch_##op, (T *dest, T value, int pe), {                         \
        T old;                                                                                     \
        ATOMIC(OP, dest, &old, &value, NULL, false);                                                  \
        return old;                                                                                \
    })                                                                                             \
    SHOAL_API_CTX(void, N##_atomic_##op, (T *dest, T value, int pe),                              \
                  { ATOMIC(OP, dest, NULL, &value, NULL, false); })                                   \
    SHOAL_API_CTX(void, N##_atomic_fetch_##op##_nbi, (T *fetch, T *dest, T value, int pe),        \
                  { ATOMIC(OP, dest, fetch, &value, NULL, true); })
#define AMO_BITWISE(T, N) AMO_BITWISE_OP(T, N, and, AND) AMO_BITWISE_OP(T, N, or, OR) AMO_BITWISE_OP(T, N, xor, XOR)

/* Deprecated names (no context forms): the default context, world PEs. */
#define AMO_DEPRECATED_EXTENDED(T, N)                                                              \
    SHOAL_API(T, shmem_##N##_fetch, (const T *source, int pe))                                     \
    {                                                                                              \
        return pshmem_##N##_atomic_fetch(source, pe);                                              \
    }                                                                                              \
    SHOAL_API(void, shmem_##N##_set, (T *dest, T value, int pe))                                   \
    {                                                                                              \
        pshmem_##N##_atomic_set(dest, value, pe);                                                  \
    }                                                                                              \
    SHOAL_API(T, shmem_##N##_swap, (T *dest, T value, int pe))                                     \
    {                                                                                              \
        return pshmem_##N##_atomic_swap(dest, value, pe);                                          \
    }
#define AMO_DEPRECATED_STANDARD(T, N)                                                              \
    SHOAL_API(T, shmem_##N##_cswap, (T *dest, T cond, T value, int pe))                            \
    {                                                                                              \
        return pshmem_##N##_atomic_compare_swap(dest, cond, value, pe);                            \
    }                                                                                              \
    SHOAL_API(T, shmem_##N##_finc, (T *dest, int pe))                                              \
    {                                                                                              \
        return pshmem_##N##_atomic_fetch_inc(dest, pe);                                            \
    }                                                                                              \
    SHOAL_API(void, shmem_##N##_inc, (T *dest, int pe))                                            \
    {                                                                                              \
        pshmem_##N##_atomic_inc(dest, pe);                                                         \
    }                                                                                              \
    SHOAL_API(T, shmem_##N##_fadd, (T *dest, T value, int pe))                                     \
    {                                                                                              \
        return pshmem_##N##_atomic_fetch_add(dest, value, pe);                                     \
    }                                                                                              \
    SHOAL_API(void, shmem_##N##_add, (T *dest, T value, int pe))                                   \
    {                                                                                              \
        pshmem_##N##_atomic_add(dest, value, pe);                                                  \
    }

SHOAL_FOR_AMOX(AMO_EXTENDED)
SHOAL_FOR_AMO(AMO_STANDARD)
SHOAL_FOR_AMOBIT(AMO_BITWISE)
SHOAL_FOR_AMOXDEP(AMO_DEPRECATED_EXTENDED)
SHOAL_FOR_AMODEP(AMO_DEPRECATED_STANDARD)
