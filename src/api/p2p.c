/* Point-to-point synchronization: wait_until and test on one local
 * symmetric variable, their _all/_any/_some forms over an array (with a
 * status mask) and the _vector forms (one comparison value per element),
 * signal_wait_until, and the deprecated shmem_wait family.
 *
 * Each type supplies one comparison (sat); the set logic is written once,
 * type-free, and always inlined, so each typed entry point compiles to a
 * loop over its own type with no indirect calls. */
#include "typed.h"

/* ivars[i] satisfies cmp against values[i * stride] (stride 0: one value). */
typedef bool (*sat_fn)(const char *routine, const void *ivars, size_t i, int cmp, const void *values,
                       size_t stride);

static _Noreturn void bad_cmp(const char *routine, int cmp)
{
    shoal_fatal(routine, "cmp is %d: use one of SHMEM_CMP_EQ, _NE, _GT, _GE, _LT, _LE", cmp);
}

/* Updates arrive from other PEs (stores, RMA, AMOs): an acquire load makes
 * the data they ordered before the update visible after it. */
#define P2P_SAT(T, N)                                                                              \
    static inline bool N##_sat(const char *routine, const void *ivars, size_t i, int cmp,          \
                               const void *values, size_t stride)                                 \
    {                                                                                              \
        T v = __atomic_load_n((const T *)ivars + i, __ATOMIC_ACQUIRE);                             \
        T ref = ((const T *)values)[i * stride];                                                   \
        switch (cmp) {                                                                             \
        case SHMEM_CMP_EQ: return v == ref;                                                        \
        case SHMEM_CMP_NE: return v != ref;                                                        \
        case SHMEM_CMP_GT: return v > ref;                                                         \
        case SHMEM_CMP_GE: return v >= ref;                                                        \
        case SHMEM_CMP_LT: return v < ref;                                                         \
        case SHMEM_CMP_LE: return v <= ref;                                                        \
        }                                                                                          \
        bad_cmp(routine, cmp);                                                                     \
    }

/* ---- the set logic, for every type ---- */
SHOAL_INLINE bool included(const int *status, size_t i)
{
    return !status || !status[i];   /* a nonzero status entry leaves that element out */
}

SHOAL_INLINE bool none_included(size_t n, const int *status)
{
    for (size_t i = 0; i < n; i++)
        if (included(status, i))
            return false;
    return true;
}

SHOAL_INLINE bool all_sat(sat_fn sat, const char *routine, const void *ivars, size_t n, const int *status,
                          int cmp, const void *values, size_t stride)
{
    for (size_t i = 0; i < n; i++)
        if (included(status, i) && !sat(routine, ivars, i, cmp, values, stride))
            return false;
    return true;
}

/* Scans from just past the element the last _any call returned, so a
 * series of calls returns every satisfied element in turn (the spec's
 * fairness) instead of always the first. */
static _Thread_local size_t rotor;

SHOAL_INLINE size_t any_sat(sat_fn sat, const char *routine, const void *ivars, size_t n, const int *status,
                            int cmp, const void *values, size_t stride, size_t start)
{
    for (size_t k = 0; k < n; k++) {
        size_t i = (start + k) % n;
        if (included(status, i) && sat(routine, ivars, i, cmp, values, stride)) {
            rotor = i + 1;
            return i;
        }
    }
    return SIZE_MAX;
}

SHOAL_INLINE size_t some_sat(sat_fn sat, const char *routine, const void *ivars, size_t n, size_t *indices,
                             const int *status, int cmp, const void *values, size_t stride)
{
    size_t found = 0;
    for (size_t i = 0; i < n; i++)
        if (included(status, i) && sat(routine, ivars, i, cmp, values, stride))
            indices[found++] = i;
    return found;
}

/* A wait on local memory, timed when profiling (who will write is not known here). */
#define P2P_WAIT_WHILE(routine, cond) \
    SHOAL_PROF_SPAN(routine, SHOAL_PROF_WAIT, NULL, 0, SHOAL_WAIT_WHILE(cond))

SHOAL_INLINE void check_ivars(const char *routine, const void *ivars, size_t bytes)
{
    if (SHOAL_DEBUG_ON && bytes)
        shoal_check_remote(routine, ivars, bytes, shoal.my_pe);
}

SHOAL_INLINE void wait_all(sat_fn sat, const char *routine, const void *ivars, size_t n, const int *status,
                           int cmp, const void *values, size_t stride)
{
    P2P_WAIT_WHILE(routine, !all_sat(sat, routine, ivars, n, status, cmp, values, stride));
}

SHOAL_INLINE size_t wait_any(sat_fn sat, const char *routine, const void *ivars, size_t n, const int *status,
                             int cmp, const void *values, size_t stride)
{
    if (none_included(n, status))
        return SIZE_MAX;
    size_t start = rotor, found;
    P2P_WAIT_WHILE(routine,
                   (found = any_sat(sat, routine, ivars, n, status, cmp, values, stride, start)) == SIZE_MAX);
    return found;
}

SHOAL_INLINE size_t wait_some(sat_fn sat, const char *routine, const void *ivars, size_t n, size_t *indices,
                              const int *status, int cmp, const void *values, size_t stride)
{
    if (none_included(n, status))
        return 0;
    size_t found;
    P2P_WAIT_WHILE(routine, (found = some_sat(sat, routine, ivars, n, indices, status, cmp, values, stride)) == 0);
    return found;
}

SHOAL_INLINE size_t test_any(sat_fn sat, const char *routine, const void *ivars, size_t n, const int *status,
                             int cmp, const void *values, size_t stride)
{
    shoal_poll();
    return any_sat(sat, routine, ivars, n, status, cmp, values, stride, rotor);
}

/* ---- typed entry points ---- */
#define P2P_SINGLE(T, N)                                                                           \
    SHOAL_API(void, shmem_##N##_wait_until, (T *ivar, int cmp, T cmp_value))                       \
    {                                                                                              \
        check_ivars(SHOAL_ROUTINE, ivar, sizeof(T));                                               \
        P2P_WAIT_WHILE(SHOAL_ROUTINE, !N##_sat(SHOAL_ROUTINE, ivar, 0, cmp, &cmp_value, 0));      \
    }                                                                                              \
    SHOAL_API(int, shmem_##N##_test, (T *ivar, int cmp, T cmp_value))                              \
    {                                                                                              \
        check_ivars(SHOAL_ROUTINE, ivar, sizeof(T));                                               \
        shoal_poll();                                                                              \
        return N##_sat(SHOAL_ROUTINE, ivar, 0, cmp, &cmp_value, 0);                                \
    }

/* One routine and its _vector form: BODY(sat, values, stride) gets
 * &cmp_value, 0 in the first and cmp_values, 1 in the second. */
#define P2P_SET_PAIR(T, N, ret, name, params, vparams, BODY)                                       \
    SHOAL_API(ret, shmem_##N##_##name, params)                                                     \
    {                                                                                              \
        check_ivars(SHOAL_ROUTINE, ivars, nelems * sizeof(T));                                     \
        BODY(N##_sat, &cmp_value, 0)                                                               \
    }                                                                                              \
    SHOAL_API(ret, shmem_##N##_##name##_vector, vparams)                                           \
    {                                                                                              \
        check_ivars(SHOAL_ROUTINE, ivars, nelems * sizeof(T));                                     \
        BODY(N##_sat, cmp_values, 1)                                                               \
    }

#define WAIT_ALL(sat, values, stride) wait_all(sat, SHOAL_ROUTINE, ivars, nelems, status, cmp, values, stride);
#define WAIT_ANY(sat, values, stride)                                                              \
    return wait_any(sat, SHOAL_ROUTINE, ivars, nelems, status, cmp, values, stride);
#define WAIT_SOME(sat, values, stride)                                                             \
    return wait_some(sat, SHOAL_ROUTINE, ivars, nelems, indices, status, cmp, values, stride);
#define TEST_ALL(sat, values, stride)                                                              \
    shoal_poll();                                                                                  \
    return all_sat(sat, SHOAL_ROUTINE, ivars, nelems, status, cmp, values, stride);
#define TEST_ANY(sat, values, stride)                                                              \
    return test_any(sat, SHOAL_ROUTINE, ivars, nelems, status, cmp, values, stride);
#define TEST_SOME(sat, values, stride)                                                             \
    shoal_poll();                                                                                  \
    return some_sat(sat, SHOAL_ROUTINE, ivars, nelems, indices, status, cmp, values, stride);

#define P2P_PARAMS(T) (T *ivars, size_t nelems, const int *status, int cmp, T cmp_value)
#define P2P_VPARAMS(T) (T *ivars, size_t nelems, const int *status, int cmp, const T *cmp_values)
#define P2P_SOME_PARAMS(T) (T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T cmp_value)
#define P2P_SOME_VPARAMS(T)                                                                        \
    (T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const T *cmp_values)

#define P2P_SET(T, N)                                                                              \
    P2P_SET_PAIR(T, N, void, wait_until_all, P2P_PARAMS(T), P2P_VPARAMS(T), WAIT_ALL)              \
    P2P_SET_PAIR(T, N, size_t, wait_until_any, P2P_PARAMS(T), P2P_VPARAMS(T), WAIT_ANY)            \
    P2P_SET_PAIR(T, N, size_t, wait_until_some, P2P_SOME_PARAMS(T), P2P_SOME_VPARAMS(T), WAIT_SOME) \
    P2P_SET_PAIR(T, N, int, test_all, P2P_PARAMS(T), P2P_VPARAMS(T), TEST_ALL)                     \
    P2P_SET_PAIR(T, N, size_t, test_any, P2P_PARAMS(T), P2P_VPARAMS(T), TEST_ANY)                  \
    P2P_SET_PAIR(T, N, size_t, test_some, P2P_SOME_PARAMS(T), P2P_SOME_VPARAMS(T), TEST_SOME)

/* Deprecated shmem_TYPENAME_wait: wait until *ivar differs from cmp_value. */
#define P2P_WAIT_DEPRECATED(T, N)                                                                  \
    SHOAL_API(void, shmem_##N##_wait, (T *ivar, T cmp_value))                                      \
    {                                                                                              \
        check_ivars(SHOAL_ROUTINE, ivar, sizeof(T));                                               \
        P2P_WAIT_WHILE(SHOAL_ROUTINE, !N##_sat(SHOAL_ROUTINE, ivar, 0, SHMEM_CMP_NE, &cmp_value, 0)); \
    }

/* Every point-to-point type gets every routine; its sat comes first, as
 * the routines (and shmem_TYPENAME_wait) use it.  The standard AMO types
 * and the deprecated short/ushort (P2PDEP) are disjoint. */
#define P2P_ROUTINES(T, N) P2P_SAT(T, N) P2P_SINGLE(T, N) P2P_SET(T, N)
SHOAL_FOR_AMO(P2P_ROUTINES)
SHOAL_FOR_P2PDEP(P2P_ROUTINES)
SHOAL_FOR_WAITDEP(P2P_WAIT_DEPRECATED)

/* Returns the value that satisfied the comparison, not a later one. */
SHOAL_API(uint64_t, shmem_signal_wait_until, (uint64_t *sig_addr, int cmp, uint64_t cmp_value))
{
    uint64_t seen;
    check_ivars(SHOAL_ROUTINE, sig_addr, sizeof *sig_addr);
    P2P_WAIT_WHILE(SHOAL_ROUTINE, ((seen = __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE)),
                                   !uint64_sat(SHOAL_ROUTINE, &seen, 0, cmp, &cmp_value, 0)));
    return seen;
}

/* ---- deprecated long forms ---- */
SHOAL_API(void, shmem_wait_until, (long *ivar, int cmp, long cmp_value))
{
    check_ivars(SHOAL_ROUTINE, ivar, sizeof *ivar);
    P2P_WAIT_WHILE(SHOAL_ROUTINE, !long_sat(SHOAL_ROUTINE, ivar, 0, cmp, &cmp_value, 0));
}

SHOAL_API(void, shmem_wait, (long *ivar, long cmp_value))
{
    check_ivars(SHOAL_ROUTINE, ivar, sizeof *ivar);
    P2P_WAIT_WHILE(SHOAL_ROUTINE, !long_sat(SHOAL_ROUTINE, ivar, 0, SHMEM_CMP_NE, &cmp_value, 0));
}
