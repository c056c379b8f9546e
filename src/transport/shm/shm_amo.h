/* Atomics on load/store-reachable memory: CPU atomics on the mapped word.
 * Always inlined with constant op and size, so each typed AMO compiles to a
 * single locked instruction. */
#ifndef SHOAL_SHM_AMO_H
#define SHOAL_SHM_AMO_H

#define SHOAL_SHM_AMO_CASE(T)                                                         \
    do {                                                                              \
        T *a_ = (T *)p;                                                               \
        T v_ = value ? *(const T *)value : 0, old_ = 0;                               \
        switch (op) {                                                                 \
        case SHOAL_AMO_FETCH: old_ = __atomic_load_n(a_, __ATOMIC_ACQUIRE); break;    \
        case SHOAL_AMO_SET: __atomic_store_n(a_, v_, __ATOMIC_RELEASE); break;        \
        case SHOAL_AMO_SWAP: old_ = __atomic_exchange_n(a_, v_, __ATOMIC_ACQ_REL); break; \
        case SHOAL_AMO_CSWAP:                                                         \
            old_ = *(const T *)cond;                                                  \
            __atomic_compare_exchange_n(a_, &old_, v_, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE); \
            break;                                                                    \
        case SHOAL_AMO_ADD: old_ = __atomic_fetch_add(a_, v_, __ATOMIC_ACQ_REL); break; \
        case SHOAL_AMO_AND: old_ = __atomic_fetch_and(a_, v_, __ATOMIC_ACQ_REL); break; \
        case SHOAL_AMO_OR: old_ = __atomic_fetch_or(a_, v_, __ATOMIC_ACQ_REL); break;   \
        case SHOAL_AMO_XOR: old_ = __atomic_fetch_xor(a_, v_, __ATOMIC_ACQ_REL); break; \
        }                                                                             \
        if (fetch)                                                                    \
            *(T *)fetch = old_;                                                       \
    } while (0)

SHOAL_INLINE void shoal_shm_amo(int op, size_t size, void *p, void *fetch, const void *value, const void *cond)
{
    if (size == 8)
        SHOAL_SHM_AMO_CASE(uint64_t);
    else
        SHOAL_SHM_AMO_CASE(uint32_t);
}

#endif
