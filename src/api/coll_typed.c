/* The typed faces of the collectives: team-based broadcast, collect,
 * fcollect, alltoall(s), reductions and scans (typed and mem), and the
 * deprecated active-set forms (broadcast32 ..., *_to_all, shmem_barrier and the
 * active-set shmem_sync).  Each turns element counts into bytes or a data
 * type and calls the algorithms behind coll/coll.h. */
#include "typed.h"
#include "../coll/coll.h"

/* ---- team-based ---- */

/* Under SHMEM_DEBUG: the len bytes at buf must be symmetric (the algorithms
 * reach them on other PEs by offset). */
static void check_symmetric(const char *routine, const void *buf, size_t len)
{
    if (len)
        shoal_check_remote(routine, buf, len, shoal.my_pe);
}

/* Under SHMEM_DEBUG: a collective's dest and source buffers (their own lengths). */
SHOAL_INLINE void check_buffers(const char *routine, const void *dest, size_t dest_len, const void *source,
                                size_t source_len)
{
    if (SHOAL_DEBUG_ON) {
        check_symmetric(routine, dest, dest_len);
        check_symmetric(routine, source, source_len);
    }
}

/* Bytes from the first to the last element of n elements at stride (in elements). */
static size_t strided_bytes(ptrdiff_t stride, size_t elem, size_t n)
{
    size_t s = (size_t)(stride < 0 ? -stride : stride);
    return n ? ((n - 1) * s + 1) * elem : 0;
}

SHOAL_INLINE int broadcast(const char *routine, shmem_team_t team, void *dest, const void *source, size_t bytes,
                           int root)
{
    struct shoal_team *t = shoal_api_member_team(routine, team);
    if (!t)
        return -1;
    if (SHOAL_DEBUG_ON && (root < 0 || root >= t->n_pes))
        shoal_fatal(routine, "PE_root %d is not in the team (PEs 0..%d)", root, t->n_pes - 1);
    check_buffers(routine, dest, bytes, source, bytes);
    int rc;
    SHOAL_PROF_SPAN(routine, SHOAL_PROF_COLL, t, bytes, rc = SHOAL_AS_USER_CALL(routine, shoal_coll_broadcast(t, dest, source, bytes, root)));
    return rc;
}

SHOAL_INLINE int collect(const char *routine, shmem_team_t team, void *dest, const void *source, size_t bytes,
                         bool fixed)
{
    struct shoal_team *t = shoal_api_member_team(routine, team);
    if (!t)
        return -1;
    check_buffers(routine, dest, fixed ? bytes * t->n_pes : bytes, source, bytes);   /* collect: sizes differ */
    int rc;
    SHOAL_PROF_SPAN(routine, SHOAL_PROF_COLL, t, bytes,
                    rc = fixed ? SHOAL_AS_USER_CALL(routine, shoal_coll_fcollect(t, dest, source, bytes))
                               : SHOAL_AS_USER_CALL(routine, shoal_coll_collect(t, dest, source, bytes)));
    return rc;
}

SHOAL_INLINE int alltoall(const char *routine, shmem_team_t team, void *dest, const void *source, size_t bytes)
{
    struct shoal_team *t = shoal_api_member_team(routine, team);
    if (!t)
        return -1;
    check_buffers(routine, dest, bytes * t->n_pes, source, bytes * t->n_pes);
    int rc;
    SHOAL_PROF_SPAN(routine, SHOAL_PROF_COLL, t, bytes * t->n_pes, rc = SHOAL_AS_USER_CALL(routine, shoal_coll_alltoall(t, dest, source, bytes)));
    return rc;
}

SHOAL_INLINE int alltoalls(const char *routine, shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                           ptrdiff_t sst, size_t elem, size_t nelems)
{
    struct shoal_team *t = shoal_api_member_team(routine, team);
    if (!t)
        return -1;
    check_buffers(routine, dest, strided_bytes(dst, elem, nelems * t->n_pes), source,
                  strided_bytes(sst, elem, nelems * t->n_pes));
    int rc;
    SHOAL_PROF_SPAN(routine, SHOAL_PROF_COLL, t, elem * nelems * t->n_pes, rc = SHOAL_AS_USER_CALL(routine, shoal_coll_alltoalls(t, dest, source, dst, sst, elem, nelems)));
    return rc;
}

SHOAL_INLINE int reduce(const char *routine, shmem_team_t team, enum shoal_op op, enum shoal_dtype dt, size_t elem,
                        void *dest, const void *source, size_t nreduce)
{
    struct shoal_team *t = shoal_api_member_team(routine, team);
    if (!t)
        return -1;
    check_buffers(routine, dest, nreduce * elem, source, nreduce * elem);
    int rc;
    SHOAL_PROF_SPAN(routine, SHOAL_PROF_COLL, t, nreduce * elem, rc = SHOAL_AS_USER_CALL(routine, shoal_coll_reduce(t, op, dt, dest, source, nreduce)));
    return rc;
}

SHOAL_INLINE int scan(const char *routine, shmem_team_t team, enum shoal_dtype dt, size_t elem, void *dest,
                      const void *source, size_t nelems, bool inclusive)
{
    struct shoal_team *t = shoal_api_member_team(routine, team);
    if (!t)
        return -1;
    check_buffers(routine, dest, nelems * elem, source, nelems * elem);
    int rc;
    SHOAL_PROF_SPAN(routine, SHOAL_PROF_COLL, t, nelems * elem, rc = SHOAL_AS_USER_CALL(routine, shoal_coll_scan(t, dt, dest, source, nelems, inclusive)));
    return rc;
}

#define COLL_TYPED(T, N)                                                                           \
    SHOAL_API(int, shmem_##N##_broadcast,                                                          \
              (shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root))           \
    {                                                                                              \
        return broadcast(SHOAL_ROUTINE, team, dest, source, nelems * sizeof(T), PE_root);          \
    }                                                                                              \
    SHOAL_API(int, shmem_##N##_collect, (shmem_team_t team, T *dest, const T *source, size_t nelems)) \
    {                                                                                              \
        return collect(SHOAL_ROUTINE, team, dest, source, nelems * sizeof(T), false);              \
    }                                                                                              \
    SHOAL_API(int, shmem_##N##_fcollect, (shmem_team_t team, T *dest, const T *source, size_t nelems)) \
    {                                                                                              \
        return collect(SHOAL_ROUTINE, team, dest, source, nelems * sizeof(T), true);               \
    }                                                                                              \
    SHOAL_API(int, shmem_##N##_alltoall, (shmem_team_t team, T *dest, const T *source, size_t nelems)) \
    {                                                                                              \
        return alltoall(SHOAL_ROUTINE, team, dest, source, nelems * sizeof(T));                    \
    }                                                                                              \
    SHOAL_API(int, shmem_##N##_alltoalls,                                                          \
              (shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems)) \
    {                                                                                              \
        return alltoalls(SHOAL_ROUTINE, team, dest, source, dst, sst, sizeof(T), nelems);          \
    }

#define REDUCE(T, N, op, OP)                                                                       \
    SHOAL_API(int, shmem_##N##_##op##_reduce, (shmem_team_t team, T *dest, const T *source, size_t nreduce)) \
    {                                                                                              \
        return reduce(SHOAL_ROUTINE, team, SHOAL_OP_##OP, SHOAL_DT_##N, sizeof(T), dest, source, nreduce);    \
    }
#define REDUCE_BIT(T, N) REDUCE(T, N, and, AND) REDUCE(T, N, or, OR) REDUCE(T, N, xor, XOR)
#define REDUCE_MINMAX(T, N) REDUCE(T, N, max, MAX) REDUCE(T, N, min, MIN)
#define REDUCE_ARITH(T, N)                                                                         \
    REDUCE(T, N, sum, SUM)                                                                         \
    REDUCE(T, N, prod, PROD)                                                                       \
    SHOAL_API(int, shmem_##N##_sum_inscan, (shmem_team_t team, T *dest, const T *source, size_t nelems)) \
    {                                                                                              \
        return scan(SHOAL_ROUTINE, team, SHOAL_DT_##N, sizeof(T), dest, source, nelems, true);                \
    }                                                                                              \
    SHOAL_API(int, shmem_##N##_sum_exscan, (shmem_team_t team, T *dest, const T *source, size_t nelems)) \
    {                                                                                              \
        return scan(SHOAL_ROUTINE, team, SHOAL_DT_##N, sizeof(T), dest, source, nelems, false);               \
    }

SHOAL_API(int, shmem_broadcastmem, (shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root))
{
    return broadcast(SHOAL_ROUTINE, team, dest, source, nelems, PE_root);
}

SHOAL_API(int, shmem_collectmem, (shmem_team_t team, void *dest, const void *source, size_t nelems))
{
    return collect(SHOAL_ROUTINE, team, dest, source, nelems, false);
}

SHOAL_API(int, shmem_fcollectmem, (shmem_team_t team, void *dest, const void *source, size_t nelems))
{
    return collect(SHOAL_ROUTINE, team, dest, source, nelems, true);
}

SHOAL_API(int, shmem_alltoallmem, (shmem_team_t team, void *dest, const void *source, size_t nelems))
{
    return alltoall(SHOAL_ROUTINE, team, dest, source, nelems);
}

SHOAL_API(int, shmem_alltoallsmem,
          (shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems))
{
    return alltoalls(SHOAL_ROUTINE, team, dest, source, dst, sst, 1, nelems);
}

/* ---- deprecated active-set forms ---- */

/* PEs PE_start + i * 2^logPE_stride, i < PE_size, must all exist. */
static struct shoal_active_set active_set(const char *routine, int start, int logstride, int size, long *psync)
{
    if (SHOAL_DEBUG_ON) {
        shoal_require_init(routine);
        long last = start + (long)(size - 1) * (1L << logstride);
        if (start < 0 || size < 1 || logstride < 0 || logstride > 30 || last >= shoal.n_pes)
            shoal_fatal(routine, "the active set (PE_start %d, logPE_stride %d, PE_size %d) names PEs "
                        "outside 0..%d", start, logstride, size, shoal.n_pes - 1);
    }
    return (struct shoal_active_set){.start = start, .logstride = logstride, .size = size, .psync = psync};
}

#define AS_PARAMS int PE_start, int logPE_stride, int PE_size, long *pSync
#define AS(routine) active_set(routine, PE_start, logPE_stride, PE_size, pSync)
/* The body of an active-set routine runs between these, naming the user's call in errors. */
#define AS_BEGIN                                                                                   \
    struct shoal_active_set as = AS(SHOAL_ROUTINE);                                                \
    const char *outer = shoal_api_enter(SHOAL_ROUTINE)
#define AS_END shoal_api_leave(outer)
/* Active sets are no team: the profile books them to "active_set". */
#define AS_SPAN(what, bytes, stmt) SHOAL_PROF_SPAN(SHOAL_ROUTINE, what, NULL, bytes, stmt)

SHOAL_API(void, shmem_barrier, (AS_PARAMS))
{
    AS_BEGIN;
    AS_SPAN(SHOAL_PROF_BARRIER, 0, { shoal_complete(&shoal_ctx_default); shoal_coll_barrier_as(&as); });
    AS_END;
}

SHOAL_API(void, shmem_sync, (AS_PARAMS))
{
    AS_BEGIN;
    AS_SPAN(SHOAL_PROF_BARRIER, 0, shoal_coll_barrier_as(&as));
    AS_END;
}

/* broadcast32 moves 4-byte elements, broadcast64 8-byte ones. */
#define AS_SIZED(bits)                                                                             \
    SHOAL_API(void, shmem_broadcast##bits,                                                         \
              (void *dest, const void *source, size_t nelems, int PE_root, AS_PARAMS))             \
    {                                                                                              \
        AS_BEGIN;                                                                                  \
        AS_SPAN(SHOAL_PROF_COLL, nelems * (bits / 8),                                              \
                shoal_coll_broadcast_as(&as, dest, source, nelems * (bits / 8), PE_root));         \
        AS_END;                                                                                    \
    }                                                                                              \
    SHOAL_API(void, shmem_collect##bits, (void *dest, const void *source, size_t nelems, AS_PARAMS)) \
    {                                                                                              \
        AS_BEGIN;                                                                                  \
        AS_SPAN(SHOAL_PROF_COLL, nelems * (bits / 8),                                              \
                shoal_coll_collect_as(&as, dest, source, nelems * (bits / 8)));                    \
        AS_END;                                                                                    \
    }                                                                                              \
    SHOAL_API(void, shmem_fcollect##bits, (void *dest, const void *source, size_t nelems, AS_PARAMS)) \
    {                                                                                              \
        AS_BEGIN;                                                                                  \
        AS_SPAN(SHOAL_PROF_COLL, nelems * (bits / 8),                                              \
                shoal_coll_fcollect_as(&as, dest, source, nelems * (bits / 8)));                   \
        AS_END;                                                                                    \
    }                                                                                              \
    SHOAL_API(void, shmem_alltoall##bits, (void *dest, const void *source, size_t nelems, AS_PARAMS)) \
    {                                                                                              \
        AS_BEGIN;                                                                                  \
        AS_SPAN(SHOAL_PROF_COLL, nelems * (bits / 8) * PE_size,                                    \
                shoal_coll_alltoall_as(&as, dest, source, nelems * (bits / 8)));                   \
        AS_END;                                                                                    \
    }                                                                                              \
    SHOAL_API(void, shmem_alltoalls##bits,                                                         \
              (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, AS_PARAMS)) \
    {                                                                                              \
        AS_BEGIN;                                                                                  \
        AS_SPAN(SHOAL_PROF_COLL, nelems * (bits / 8) * PE_size,                                    \
                shoal_coll_alltoalls_as(&as, dest, source, dst, sst, bits / 8, nelems));           \
        AS_END;                                                                                    \
    }
AS_SIZED(32)
AS_SIZED(64)

#define TO_ALL(T, N, op, OP)                                                                       \
    SHOAL_API(void, shmem_##N##_##op##_to_all,                                                     \
              (T *dest, const T *source, int nreduce, int PE_start, int logPE_stride, int PE_size, T *pWrk, \
               long *pSync))                                                                       \
    {                                                                                              \
        AS_BEGIN;                                                                                  \
        AS_SPAN(SHOAL_PROF_COLL, (size_t)nreduce * sizeof(T),                                      \
                shoal_coll_reduce_as(&as, SHOAL_OP_##OP, SHOAL_DT_##N, dest, source, (size_t)nreduce, pWrk)); \
        AS_END;                                                                                    \
    }
#define TO_ALL_BIT(T, N) TO_ALL(T, N, and, AND) TO_ALL(T, N, or, OR) TO_ALL(T, N, xor, XOR)
#define TO_ALL_MINMAX(T, N) TO_ALL(T, N, max, MAX) TO_ALL(T, N, min, MIN)
#define TO_ALL_ARITH(T, N) TO_ALL(T, N, sum, SUM) TO_ALL(T, N, prod, PROD)

SHOAL_FOR_RMA(COLL_TYPED)
SHOAL_FOR_RBIT(REDUCE_BIT)
SHOAL_FOR_RMINMAX(REDUCE_MINMAX)
SHOAL_FOR_RARITH(REDUCE_ARITH)
SHOAL_FOR_ASBIT(TO_ALL_BIT)
SHOAL_FOR_ASMINMAX(TO_ALL_MINMAX)
SHOAL_FOR_ASARITH(TO_ALL_ARITH)
