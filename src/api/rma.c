/* Remote memory access: put, get, p, g, their strided (iput, iget),
 * interleaved-block (ibput, ibget) and nonblocking forms, typed, sized and
 * untyped (mem), each with its shmem_ctx_ form.  All of them turn into
 * byte counts and call the core's shoal_put / shoal_get. */
#include "typed.h"

/* Puts and gets differ only in which side is remote: `to_pe` is a
 * constant at every call, so each inlined copy keeps one branch of each. */
SHOAL_INLINE void transfer(bool to_pe, const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
                           size_t bytes, int pe, bool nbi)
{
    int wpe = shoal_api_pe(routine, ctx, pe);
    SHOAL_PROF_OP(routine, to_pe ? SHOAL_PROF_PUT : SHOAL_PROF_GET, nbi, wpe, bytes);
    if (bytes == 0)
        return;
    if (SHOAL_DEBUG_ON)
        shoal_check_remote(routine, to_pe ? dest : source, bytes, wpe);
    if (to_pe)
        shoal_put(shoal_ctx_of(ctx), dest, source, bytes, wpe, nbi);
    else
        shoal_get(shoal_ctx_of(ctx), dest, source, bytes, wpe, nbi);
}

/* Bytes from the first to the last element a strided transfer touches. */
static size_t strided_extent(ptrdiff_t stride, size_t elem, size_t bsize, size_t nblocks)
{
    ptrdiff_t s = stride < 0 ? -stride : stride;
    return ((nblocks - 1) * (size_t)s + bsize) * elem;
}

/* Strides count elements; iput/iget move blocks of one element. */
SHOAL_INLINE void transfer_strided(bool to_pe, const char *routine, shmem_ctx_t ctx, void *dest,
                                   const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t elem, size_t bsize,
                                   size_t nblocks, int pe)
{
    int wpe = shoal_api_pe(routine, ctx, pe);
    SHOAL_PROF_OP(routine, to_pe ? SHOAL_PROF_PUT : SHOAL_PROF_GET, false, wpe, elem * bsize * nblocks);
    if (nblocks == 0 || bsize == 0)
        return;
    if (SHOAL_DEBUG_ON)
        shoal_check_remote(routine, to_pe ? dest : source,
                           strided_extent(to_pe ? dst : sst, elem, bsize, nblocks), wpe);
    if (to_pe)
        shoal_put_strided(shoal_ctx_of(ctx), dest, source, dst, sst, elem, bsize, nblocks, wpe);
    else
        shoal_get_strided(shoal_ctx_of(ctx), dest, source, dst, sst, elem, bsize, nblocks, wpe);
}
#define put(...) transfer(true, __VA_ARGS__)
#define get(...) transfer(false, __VA_ARGS__)
#define put_strided(...) transfer_strided(true, __VA_ARGS__)
#define get_strided(...) transfer_strided(false, __VA_ARGS__)

/* ---- typed: one family for every row of stdrmatypes ---- */
#define RMA_TYPED(T, N)                                                                            \
    SHOAL_API_CTX(void, N##_put, (T *dest, const T *source, size_t nelems, int pe),               \
                  { put(SHOAL_ROUTINE, ctx, dest, source, nelems * sizeof(T), pe, false); })       \
    SHOAL_API_CTX(void, N##_put_nbi, (T *dest, const T *source, size_t nelems, int pe),           \
                  { put(SHOAL_ROUTINE, ctx, dest, source, nelems * sizeof(T), pe, true); })        \
    SHOAL_API_CTX(void, N##_get, (T *dest, const T *source, size_t nelems, int pe),               \
                  { get(SHOAL_ROUTINE, ctx, dest, source, nelems * sizeof(T), pe, false); })       \
    SHOAL_API_CTX(void, N##_get_nbi, (T *dest, const T *source, size_t nelems, int pe),           \
                  { get(SHOAL_ROUTINE, ctx, dest, source, nelems * sizeof(T), pe, true); })        \
    SHOAL_API_CTX(void, N##_p, (T *dest, T value, int pe),                                        \
                  { put(SHOAL_ROUTINE, ctx, dest, &value, sizeof(T), pe, false); })                \
    SHOAL_API_CTX(T, N##_g, (const T *source, int pe), {                                          \
        T value;                                                                                   \
        get(SHOAL_ROUTINE, ctx, &value, source, sizeof(T), pe, false);                             \
        return value;                                                                              \
    })                                                                                             \
    SHOAL_API_CTX(void, N##_iput,                                                                  \
                  (T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
                  { put_strided(SHOAL_ROUTINE, ctx, dest, source, dst, sst, sizeof(T), 1, nelems, pe); }) \
    SHOAL_API_CTX(void, N##_iget,                                                                  \
                  (T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
                  { get_strided(SHOAL_ROUTINE, ctx, dest, source, dst, sst, sizeof(T), 1, nelems, pe); }) \
    SHOAL_API_CTX(void, N##_ibput,                                                                 \
                  (T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                   int pe),                                                                        \
                  { put_strided(SHOAL_ROUTINE, ctx, dest, source, dst, sst, sizeof(T), bsize, nblocks, pe); }) \
    SHOAL_API_CTX(void, N##_ibget,                                                                 \
                  (T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                   int pe),                                                                        \
                  { get_strided(SHOAL_ROUTINE, ctx, dest, source, dst, sst, sizeof(T), bsize, nblocks, pe); })

SHOAL_FOR_RMA(RMA_TYPED)

/* ---- sized: putSIZE moves SIZE-bit elements ---- */
#define RMA_SIZED(bits)                                                                            \
    SHOAL_API_CTX(void, put##bits, (void *dest, const void *source, size_t nelems, int pe),       \
                  { put(SHOAL_ROUTINE, ctx, dest, source, nelems * (bits / 8), pe, false); })      \
    SHOAL_API_CTX(void, put##bits##_nbi, (void *dest, const void *source, size_t nelems, int pe), \
                  { put(SHOAL_ROUTINE, ctx, dest, source, nelems * (bits / 8), pe, true); })       \
    SHOAL_API_CTX(void, get##bits, (void *dest, const void *source, size_t nelems, int pe),       \
                  { get(SHOAL_ROUTINE, ctx, dest, source, nelems * (bits / 8), pe, false); })      \
    SHOAL_API_CTX(void, get##bits##_nbi, (void *dest, const void *source, size_t nelems, int pe), \
                  { get(SHOAL_ROUTINE, ctx, dest, source, nelems * (bits / 8), pe, true); })       \
    SHOAL_API_CTX(void, iput##bits,                                                                \
                  (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
                  { put_strided(SHOAL_ROUTINE, ctx, dest, source, dst, sst, bits / 8, 1, nelems, pe); }) \
    SHOAL_API_CTX(void, iget##bits,                                                                \
                  (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
                  { get_strided(SHOAL_ROUTINE, ctx, dest, source, dst, sst, bits / 8, 1, nelems, pe); }) \
    SHOAL_API_CTX(void, ibput##bits,                                                               \
                  (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,     \
                   size_t nblocks, int pe),                                                        \
                  { put_strided(SHOAL_ROUTINE, ctx, dest, source, dst, sst, bits / 8, bsize, nblocks, pe); }) \
    SHOAL_API_CTX(void, ibget##bits,                                                               \
                  (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,     \
                   size_t nblocks, int pe),                                                        \
                  { get_strided(SHOAL_ROUTINE, ctx, dest, source, dst, sst, bits / 8, bsize, nblocks, pe); })

SHOAL_SIZES(RMA_SIZED)

/* ---- untyped: nelems counts bytes ---- */
SHOAL_API_CTX(void, putmem, (void *dest, const void *source, size_t nelems, int pe),
              { put(SHOAL_ROUTINE, ctx, dest, source, nelems, pe, false); })
SHOAL_API_CTX(void, putmem_nbi, (void *dest, const void *source, size_t nelems, int pe),
              { put(SHOAL_ROUTINE, ctx, dest, source, nelems, pe, true); })
SHOAL_API_CTX(void, getmem, (void *dest, const void *source, size_t nelems, int pe),
              { get(SHOAL_ROUTINE, ctx, dest, source, nelems, pe, false); })
SHOAL_API_CTX(void, getmem_nbi, (void *dest, const void *source, size_t nelems, int pe),
              { get(SHOAL_ROUTINE, ctx, dest, source, nelems, pe, true); })
