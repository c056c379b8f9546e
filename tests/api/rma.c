/* RMA: every typed routine of every stdrmatypes type, blocking and nbi,
 * default and explicit context, sizes 0, 1, odd and large; strided and
 * interleaved-block transfers; the sized and mem routines; heap, global
 * and static buffers.  Each PE writes to (or reads from) its next PE, and
 * every result is checked against the pattern the sender must have used. */
#include <stdlib.h>

#include "api_test.h"

enum { LARGE = 1021, NREGIONS = 4, SENTINEL = 111 };
static const size_t region_len[NREGIONS] = {0, 1, 7, LARGE};

/* Regions sit one element apart, so a transfer that overruns its region
 * lands on a sentinel. */
static size_t region_off(int r)
{
    size_t off = 0;
    for (int k = 0; k < r; k++)
        off += region_len[k] + 1;
    return off;
}
#define TOTAL (region_off(NREGIONS))

/* Variants 0..3: blocking, blocking on SHMEM_CTX_DEFAULT, nbi, nbi on the context. */
#define RMA_TEST(T, N)                                                                             \
    static void put_##N(int v, T *d, const T *s, size_t n, int pe)                                 \
    {                                                                                              \
        switch (v) {                                                                               \
        case 0: shmem_##N##_put(d, s, n, pe); break;                                               \
        case 1: shmem_ctx_##N##_put(SHMEM_CTX_DEFAULT, d, s, n, pe); break;                        \
        case 2: shmem_##N##_put_nbi(d, s, n, pe); break;                                           \
        default: shmem_ctx_##N##_put_nbi(SHMEM_CTX_DEFAULT, d, s, n, pe); break;                   \
        }                                                                                          \
    }                                                                                              \
    static void get_##N(int v, T *d, const T *s, size_t n, int pe)                                 \
    {                                                                                              \
        switch (v) {                                                                               \
        case 0: shmem_##N##_get(d, s, n, pe); break;                                               \
        case 1: shmem_ctx_##N##_get(SHMEM_CTX_DEFAULT, d, s, n, pe); break;                        \
        case 2: shmem_##N##_get_nbi(d, s, n, pe); break;                                           \
        default: shmem_ctx_##N##_get_nbi(SHMEM_CTX_DEFAULT, d, s, n, pe); break;                   \
        }                                                                                          \
    }                                                                                              \
    static void fill_##N(T *buf, size_t n, int pe)                                                 \
    {                                                                                              \
        for (size_t i = 0; i < n; i++)                                                             \
            buf[i] = (T)pattern(pe, i);                                                            \
    }                                                                                              \
    static void clear_##N(T *buf, size_t n)                                                        \
    {                                                                                              \
        for (size_t i = 0; i < n; i++)                                                             \
            buf[i] = (T)SENTINEL;                                                                  \
    }                                                                                              \
    /* buf holds, region by region, elements 0.. of pe's pattern, sentinels between. */           \
    static void check_regions_##N(const T *buf, int pe, const char *what)                          \
    {                                                                                              \
        for (int r = 0; r < NREGIONS; r++) {                                                       \
            const T *reg = buf + region_off(r);                                                    \
            for (size_t i = 0; i < region_len[r]; i++)                                             \
                CHECK(reg[i] == (T)pattern(pe, i), "%s " #N ": region %d element %zu", what, r, i); \
            CHECK(reg[region_len[r]] == (T)SENTINEL, "%s " #N ": overran region %d", what, r);     \
        }                                                                                          \
    }                                                                                              \
    static void contiguous_##N(T *dst, T *sym, T *loc)                                             \
    {                                                                                              \
        for (int v = 0; v < 4; v++) {                                                              \
            clear_##N(dst, TOTAL);                                                                 \
            shmem_barrier_all();                                                                   \
            for (int r = 0; r < NREGIONS; r++)                                                     \
                put_##N(v, dst + region_off(r), loc, region_len[r], next_pe);                      \
            if (v >= 2)                                                                            \
                shmem_quiet();                                                                     \
            shmem_barrier_all();                                                                   \
            check_regions_##N(dst, prev_pe, "put");                                                \
        }                                                                                          \
        for (int v = 0; v < 4; v++) {                                                              \
            clear_##N(loc, TOTAL);                                                                 \
            for (int r = 0; r < NREGIONS; r++)                                                     \
                get_##N(v, loc + region_off(r), sym, region_len[r], next_pe);                      \
            if (v >= 2)                                                                            \
                shmem_quiet();                                                                     \
            check_regions_##N(loc, next_pe, "get");                                                \
        }                                                                                          \
    }                                                                                              \
    static void single_##N(T *dst, T *sym)                                                         \
    {                                                                                              \
        clear_##N(dst, 8);                                                                         \
        shmem_barrier_all();                                                                       \
        shmem_##N##_p(dst + 1, (T)pattern(me, 1), next_pe);                                        \
        shmem_ctx_##N##_p(SHMEM_CTX_DEFAULT, dst + 2, (T)pattern(me, 2), next_pe);                 \
        shmem_barrier_all();                                                                       \
        CHECK(dst[0] == (T)SENTINEL && dst[3] == (T)SENTINEL, "p " #N " overran");                 \
        CHECK(dst[1] == (T)pattern(prev_pe, 1) && dst[2] == (T)pattern(prev_pe, 2), "p " #N);      \
        CHECK(shmem_##N##_g(sym + 5, next_pe) == (T)pattern(next_pe, 5), "g " #N);                 \
        CHECK(shmem_ctx_##N##_g(SHMEM_CTX_DEFAULT, sym + 6, next_pe) == (T)pattern(next_pe, 6), "ctx g " #N); \
    }                                                                                              \
    /* iput: dest stride 2, source stride 3; ibput: blocks of 3, dest stride 5, source 4. */      \
    static void strided_##N(T *dst, T *sym, T *loc)                                                \
    {                                                                                              \
        clear_##N(dst, 64);                                                                        \
        shmem_barrier_all();                                                                       \
        shmem_##N##_iput(dst, loc, 2, 3, 5, next_pe);                                              \
        shmem_ctx_##N##_ibput(SHMEM_CTX_DEFAULT, dst + 32, loc, 5, 4, 3, 4, next_pe);              \
        shmem_barrier_all();                                                                       \
        for (size_t i = 0; i < 10; i++)                                                            \
            CHECK(dst[i] == (i % 2 ? (T)SENTINEL : (T)pattern(prev_pe, i / 2 * 3)), "iput " #N " [%zu]", i); \
        for (size_t i = 0; i < 20; i++)                                                            \
            CHECK(dst[32 + i] == (i % 5 < 3 ? (T)pattern(prev_pe, i / 5 * 4 + i % 5) : (T)SENTINEL), \
                  "ibput " #N " [%zu]", i);                                                        \
        clear_##N(loc, 64);                                                                        \
        shmem_ctx_##N##_iget(SHMEM_CTX_DEFAULT, loc, sym, 2, 3, 5, next_pe);                       \
        shmem_##N##_ibget(loc + 32, sym, 5, 4, 3, 4, next_pe);                                     \
        for (size_t i = 0; i < 10; i++)                                                            \
            CHECK(loc[i] == (i % 2 ? (T)SENTINEL : (T)pattern(next_pe, i / 2 * 3)), "iget " #N " [%zu]", i); \
        for (size_t i = 0; i < 20; i++)                                                            \
            CHECK(loc[32 + i] == (i % 5 < 3 ? (T)pattern(next_pe, i / 5 * 4 + i % 5) : (T)SENTINEL), \
                  "ibget " #N " [%zu]", i);                                                        \
        shmem_##N##_iput(dst, loc, 1, 1, 0, next_pe); /* nelems 0: nothing moves */                \
        shmem_##N##_ibget(loc, sym, 1, 1, 0, 4, next_pe);                                          \
    }                                                                                              \
    static void test_##N(void)                                                                     \
    {                                                                                              \
        T *dst = shmem_malloc(TOTAL * sizeof(T)), *sym = shmem_malloc(TOTAL * sizeof(T));         \
        T *loc = malloc(TOTAL * sizeof(T));                                                        \
        CHECK(dst && sym && loc, "allocation");                                                    \
        fill_##N(sym, TOTAL, me);                                                                  \
        fill_##N(loc, TOTAL, me);                                                                  \
        contiguous_##N(dst, sym, loc);                                                             \
        single_##N(dst, sym);                                                                      \
        fill_##N(loc, TOTAL, me);                                                                  \
        strided_##N(dst, sym, loc);                                                                \
        shmem_barrier_all();                                                                       \
        free(loc);                                                                                 \
        shmem_free(sym);                                                                           \
        shmem_free(dst);                                                                           \
    }
RMA_TYPES(RMA_TEST)

/* ---- sized and mem: byte patterns, so each element size is visible ---- */
static unsigned char byte_pattern(int pe, size_t i)
{
    return (unsigned char)(pe * 37 + i * 11 + 1);
}

static void check_bytes(const unsigned char *buf, size_t n, int pe, const char *what)
{
    for (size_t i = 0; i < n; i++)
        CHECK(buf[i] == byte_pattern(pe, i), "%s: byte %zu is %d", what, i, buf[i]);
}

enum { SIZED_ELEMS = 9 };

static void sized_one(int bytes, unsigned char *dst, unsigned char *sym, unsigned char *loc)
{
    size_t n = SIZED_ELEMS * (size_t)bytes;
    memset(dst, 0, 4 * n);
    shmem_barrier_all();
    switch (bytes) {
    case 1: shmem_put8(dst, loc, SIZED_ELEMS, next_pe); shmem_ctx_put8_nbi(SHMEM_CTX_DEFAULT, dst + n, loc, SIZED_ELEMS, next_pe); break;
    case 2: shmem_put16(dst, loc, SIZED_ELEMS, next_pe); shmem_ctx_put16_nbi(SHMEM_CTX_DEFAULT, dst + n, loc, SIZED_ELEMS, next_pe); break;
    case 4: shmem_put32(dst, loc, SIZED_ELEMS, next_pe); shmem_ctx_put32_nbi(SHMEM_CTX_DEFAULT, dst + n, loc, SIZED_ELEMS, next_pe); break;
    case 8: shmem_ctx_put64(SHMEM_CTX_DEFAULT, dst, loc, SIZED_ELEMS, next_pe); shmem_put64_nbi(dst + n, loc, SIZED_ELEMS, next_pe); break;
    case 16: shmem_ctx_put128(SHMEM_CTX_DEFAULT, dst, loc, SIZED_ELEMS, next_pe); shmem_put128_nbi(dst + n, loc, SIZED_ELEMS, next_pe); break;
    }
    shmem_quiet();
    shmem_barrier_all();
    check_bytes(dst, n, prev_pe, "putSIZE");
    check_bytes(dst + n, n, prev_pe, "putSIZE_nbi");
    CHECK(dst[2 * n] == 0, "putSIZE overran");

    memset(loc, 0, 2 * n);
    switch (bytes) {
    case 1: shmem_get8(loc, sym, SIZED_ELEMS, next_pe); shmem_ctx_get8_nbi(SHMEM_CTX_DEFAULT, loc + n, sym, SIZED_ELEMS, next_pe); break;
    case 2: shmem_get16(loc, sym, SIZED_ELEMS, next_pe); shmem_ctx_get16_nbi(SHMEM_CTX_DEFAULT, loc + n, sym, SIZED_ELEMS, next_pe); break;
    case 4: shmem_get32(loc, sym, SIZED_ELEMS, next_pe); shmem_ctx_get32_nbi(SHMEM_CTX_DEFAULT, loc + n, sym, SIZED_ELEMS, next_pe); break;
    case 8: shmem_ctx_get64(SHMEM_CTX_DEFAULT, loc, sym, SIZED_ELEMS, next_pe); shmem_get64_nbi(loc + n, sym, SIZED_ELEMS, next_pe); break;
    case 16: shmem_ctx_get128(SHMEM_CTX_DEFAULT, loc, sym, SIZED_ELEMS, next_pe); shmem_get128_nbi(loc + n, sym, SIZED_ELEMS, next_pe); break;
    }
    shmem_quiet();
    check_bytes(loc, n, next_pe, "getSIZE");
    check_bytes(loc + n, n, next_pe, "getSIZE_nbi");
}

/* Element e of a strided transfer is bytes e*stride*size .. +size. */
static void check_strided(const unsigned char *buf, int bytes, ptrdiff_t stride, size_t nelems,
                          const unsigned char *from, ptrdiff_t from_stride, const char *what)
{
    for (size_t e = 0; e < nelems; e++)
        CHECK(memcmp(buf + e * stride * bytes, from + e * from_stride * bytes, bytes) == 0, "%s: element %zu",
              what, e);
}

static void sized_strided(int bytes, unsigned char *dst, unsigned char *sym, unsigned char *loc)
{
    unsigned char *mine = malloc(64 * 16), *theirs = malloc(64 * 16);
    for (size_t i = 0; i < 64 * 16; i++)
        mine[i] = byte_pattern(me, i), theirs[i] = byte_pattern(next_pe, i);
    memset(dst, 0, 64 * 16);
    shmem_barrier_all();
    switch (bytes) {
    case 1: shmem_iput8(dst, loc, 2, 3, 5, next_pe); shmem_ibput8(dst + 512, loc, 4, 1, 2, 3, next_pe); break;
    case 2: shmem_ctx_iput16(SHMEM_CTX_DEFAULT, dst, loc, 2, 3, 5, next_pe); shmem_ctx_ibput16(SHMEM_CTX_DEFAULT, dst + 512, loc, 4, 1, 2, 3, next_pe); break;
    case 4: shmem_iput32(dst, loc, 2, 3, 5, next_pe); shmem_ibput32(dst + 512, loc, 4, 1, 2, 3, next_pe); break;
    case 8: shmem_iput64(dst, loc, 2, 3, 5, next_pe); shmem_ibput64(dst + 512, loc, 4, 1, 2, 3, next_pe); break;
    case 16: shmem_ctx_iput128(SHMEM_CTX_DEFAULT, dst, loc, 2, 3, 5, next_pe); shmem_ctx_ibput128(SHMEM_CTX_DEFAULT, dst + 512, loc, 4, 1, 2, 3, next_pe); break;
    }
    shmem_barrier_all();
    unsigned char *prev = malloc(64 * 16);
    for (size_t i = 0; i < 64 * 16; i++)
        prev[i] = byte_pattern(prev_pe, i);
    check_strided(dst, bytes, 2, 5, prev, 3, "iputSIZE");
    /* ibput blocks of 2, dest stride 4, source stride 1 */
    for (size_t b = 0; b < 3; b++)
        CHECK(memcmp(dst + 512 + b * 4 * bytes, prev + b * 1 * bytes, 2 * bytes) == 0, "ibputSIZE block %zu", b);

    memset(loc, 0, 64 * 16);
    switch (bytes) {
    case 1: shmem_iget8(loc, sym, 2, 3, 5, next_pe); shmem_ibget8(loc + 512, sym, 4, 1, 2, 3, next_pe); break;
    case 2: shmem_ctx_iget16(SHMEM_CTX_DEFAULT, loc, sym, 2, 3, 5, next_pe); shmem_ctx_ibget16(SHMEM_CTX_DEFAULT, loc + 512, sym, 4, 1, 2, 3, next_pe); break;
    case 4: shmem_iget32(loc, sym, 2, 3, 5, next_pe); shmem_ibget32(loc + 512, sym, 4, 1, 2, 3, next_pe); break;
    case 8: shmem_iget64(loc, sym, 2, 3, 5, next_pe); shmem_ibget64(loc + 512, sym, 4, 1, 2, 3, next_pe); break;
    case 16: shmem_ctx_iget128(SHMEM_CTX_DEFAULT, loc, sym, 2, 3, 5, next_pe); shmem_ctx_ibget128(SHMEM_CTX_DEFAULT, loc + 512, sym, 4, 1, 2, 3, next_pe); break;
    }
    check_strided(loc, bytes, 2, 5, theirs, 3, "igetSIZE");
    for (size_t b = 0; b < 3; b++)
        CHECK(memcmp(loc + 512 + b * 4 * bytes, theirs + b * 1 * bytes, 2 * bytes) == 0, "ibgetSIZE block %zu", b);
    for (size_t i = 0; i < 64 * 16; i++)
        loc[i] = mine[i];
    free(prev);
    free(theirs);
    free(mine);
}

static void test_sized(void)
{
    unsigned char *dst = shmem_malloc(64 * 16 * 4), *sym = shmem_malloc(64 * 16);
    unsigned char *loc = malloc(64 * 16 * 4);
    for (size_t i = 0; i < 64 * 16; i++)
        sym[i] = loc[i] = byte_pattern(me, i);
    static const int sizes[] = {1, 2, 4, 8, 16};
    for (int k = 0; k < 5; k++) {
        sized_one(sizes[k], dst, sym, loc);
        for (size_t i = 0; i < 64 * 16; i++)
            loc[i] = byte_pattern(me, i);
        sized_strided(sizes[k], dst, sym, loc);
    }
    shmem_barrier_all();
    free(loc);
    shmem_free(sym);
    shmem_free(dst);
}

/* putmem/getmem of 4 MiB and of odd sizes, blocking and nbi. */
static void test_mem(void)
{
    size_t big = 4u << 20;
    unsigned char *dst = shmem_malloc(big), *sym = shmem_malloc(big), *loc = malloc(big);
    for (size_t i = 0; i < big; i++)
        sym[i] = loc[i] = byte_pattern(me, i);
    memset(dst, 0, big);
    shmem_barrier_all();
    shmem_putmem(dst, loc, big / 2, next_pe);
    shmem_ctx_putmem_nbi(SHMEM_CTX_DEFAULT, dst + big / 2, loc + big / 2, big / 2 - 3, next_pe);
    shmem_putmem(dst, loc, 0, next_pe);
    shmem_quiet();
    shmem_barrier_all();
    check_bytes(dst, big - 3, prev_pe, "putmem");
    CHECK(dst[big - 1] == 0 && dst[big - 3] == 0, "putmem overran");
    memset(loc, 0, big);
    shmem_ctx_getmem(SHMEM_CTX_DEFAULT, loc, sym, 13, next_pe);
    shmem_getmem_nbi(loc + 13, sym + 13, big - 13, next_pe);
    shmem_quiet();
    check_bytes(loc, big, next_pe, "getmem");
    shmem_barrier_all();
    free(loc);
    shmem_free(sym);
    shmem_free(dst);
}

/* Global and static variables are symmetric too. */
long global_longs[300];
static double static_doubles[17];
static short static_shorts[5] = {1, 2, 3, 4, 5};

static void test_globals(void)
{
    long mine[300];
    for (int i = 0; i < 300; i++)
        mine[i] = (long)me * 1000 + i;
    shmem_barrier_all();
    shmem_long_put(global_longs, mine, 300, next_pe);
    shmem_double_p(&static_doubles[16], me + 0.5, next_pe);
    shmem_short_iput(static_shorts, (short[]){(short)me, -1, (short)me}, 2, 2, 2, next_pe);
    shmem_barrier_all();
    for (int i = 0; i < 300; i++)
        CHECK_EQ_LONG(global_longs[i], (long)prev_pe * 1000 + i);
    CHECK(static_doubles[16] == prev_pe + 0.5, "static double");
    CHECK(static_shorts[0] == prev_pe && static_shorts[1] == 2 && static_shorts[2] == prev_pe, "static iput");
    long got[300];
    shmem_long_get(got, global_longs, 300, next_pe);
    for (int i = 0; i < 300; i++)
        CHECK_EQ_LONG(got[i], (long)me * 1000 + i);
    CHECK(shmem_double_g(&static_doubles[16], prev_pe) == ((prev_pe + npes - 1) % npes) + 0.5, "static g");
    shmem_barrier_all();
}

int main(void)
{
    test_init();
#define RUN(T, N) test_##N();
    RMA_TYPES(RUN)
    test_sized();
    test_mem();
    test_globals();
    shmem_finalize();
    if (me == 0)
        printf("api_rma: %d PEs ok\n", npes);
    return 0;
}
