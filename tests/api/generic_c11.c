/* The C11 type-generic interfaces of shmem.h, compiled with -std=c11
 * -pedantic -Werror.  Every generic name is called, with and without a
 * leading context where the spec allows one, for every type of its table
 * (spelled as the table spells it, so int32_t and size_t must resolve to
 * their standard types).  RMA, AMO, signal and point-to-point calls run and
 * their results are checked; the collectives are compiled and linked only
 * (they are tested with the collectives). */
#include <shmemx.h>

#include "api_test.h"

enum { SLOTS = 12, SENT = 111 };

/* Slots 0-1 put, 2 ctx put, 3 p, 4 ctx p, 5 put_nbi, 6 ctx put_nbi,
 * 7 iput, 8 ctx iput, 9 ibput, 10 ctx ibput; 11 stays untouched. */
#define RMA_GENERIC(T, N)                                                                          \
    static void rma_##N(void)                                                                      \
    {                                                                                              \
        static T dst[SLOTS], sym[SLOTS];                                                           \
        T loc[SLOTS], got[SLOTS];                                                                  \
        const T *csym = sym;                                                                       \
        for (int i = 0; i < SLOTS; i++) {                                                          \
            sym[i] = (T)pattern(me, (size_t)i);                                                    \
            loc[i] = (T)pattern(me, (size_t)i + 1);                                                \
            dst[i] = got[i] = (T)SENT;                                                             \
        }                                                                                          \
        shmem_barrier_all();                                                                       \
        shmem_put(dst, loc, 2, next_pe);                                                           \
        shmem_put(SHMEM_CTX_DEFAULT, dst + 2, loc + 2, 1, next_pe);                                \
        shmem_p(dst + 3, loc[3], next_pe);                                                         \
        shmem_p(SHMEM_CTX_DEFAULT, dst + 4, loc[4], next_pe);                                      \
        shmem_put_nbi(dst + 5, loc + 5, 1, next_pe);                                               \
        shmem_put_nbi(SHMEM_CTX_DEFAULT, dst + 6, loc + 6, 1, next_pe);                            \
        shmem_iput(dst + 7, loc + 7, 1, 1, 1, next_pe);                                            \
        shmem_iput(SHMEM_CTX_DEFAULT, dst + 8, loc + 8, 1, 1, 1, next_pe);                         \
        shmem_ibput(dst + 9, loc + 9, 1, 1, 1, 1, next_pe);                                        \
        shmem_ibput(SHMEM_CTX_DEFAULT, dst + 10, loc + 10, 1, 1, 1, 1, next_pe);                   \
        shmem_quiet();                                                                             \
        shmem_barrier_all();                                                                       \
        for (int i = 0; i < SLOTS - 1; i++)                                                        \
            CHECK(dst[i] == (T)pattern(prev_pe, (size_t)i + 1), "generic put " #N " slot %d", i);   \
        CHECK(dst[SLOTS - 1] == (T)SENT, "generic put " #N " overran");                            \
        shmem_get(got, sym, 2, next_pe);                                                           \
        shmem_get(SHMEM_CTX_DEFAULT, got + 2, csym + 2, 1, next_pe);                               \
        got[3] = shmem_g(sym + 3, next_pe);                                                        \
        got[4] = shmem_g(SHMEM_CTX_DEFAULT, csym + 4, next_pe);                                    \
        shmem_get_nbi(got + 5, sym + 5, 1, next_pe);                                               \
        shmem_get_nbi(SHMEM_CTX_DEFAULT, got + 6, sym + 6, 1, next_pe);                            \
        shmem_iget(got + 7, sym + 7, 1, 1, 1, next_pe);                                            \
        shmem_iget(SHMEM_CTX_DEFAULT, got + 8, sym + 8, 1, 1, 1, next_pe);                         \
        shmem_ibget(got + 9, sym + 9, 1, 1, 1, 1, next_pe);                                        \
        shmem_ibget(SHMEM_CTX_DEFAULT, got + 10, sym + 10, 1, 1, 1, 1, next_pe);                   \
        shmem_quiet();                                                                             \
        for (int i = 0; i < SLOTS - 1; i++)                                                        \
            CHECK(got[i] == (T)pattern(next_pe, (size_t)i), "generic get " #N " slot %d", i);       \
        shmem_barrier_all();                                                                       \
    }
RMA_TYPES(RMA_GENERIC)

/* AMOs on this PE's own variable: the results show the right routine ran. */
#define AMOX_GENERIC(T, N)                                                                         \
    static void amox_##N(void)                                                                     \
    {                                                                                              \
        static T x;                                                                                \
        T f = 0;                                                                                   \
        const T *cx = &x;                                                                          \
        shmem_atomic_set(&x, (T)3, me);                                                            \
        CHECK(shmem_atomic_fetch(cx, me) == (T)3, "atomic_fetch " #N);                             \
        shmem_atomic_set(SHMEM_CTX_DEFAULT, &x, (T)4, me);                                         \
        CHECK(shmem_atomic_fetch(SHMEM_CTX_DEFAULT, &x, me) == (T)4, "ctx atomic_fetch " #N);      \
        CHECK(shmem_atomic_swap(&x, (T)5, me) == (T)4, "atomic_swap " #N);                         \
        CHECK(shmem_atomic_swap(SHMEM_CTX_DEFAULT, &x, (T)6, me) == (T)5, "ctx atomic_swap " #N);  \
        shmem_atomic_fetch_nbi(&f, cx, me);                                                        \
        shmem_quiet();                                                                             \
        CHECK(f == (T)6, "atomic_fetch_nbi " #N);                                                  \
        shmem_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, &f, &x, me);                                     \
        shmem_atomic_swap_nbi(&f, &x, (T)7, me);                                                   \
        shmem_quiet();                                                                             \
        CHECK(f == (T)6, "atomic_swap_nbi " #N);                                                   \
        shmem_atomic_swap_nbi(SHMEM_CTX_DEFAULT, &f, &x, (T)8, me);                                \
        shmem_quiet();                                                                             \
        CHECK(f == (T)7 && x == (T)8, "ctx atomic_swap_nbi " #N);                                  \
    }
AMOX_TYPES(AMOX_GENERIC)

#define AMO_GENERIC(T, N)                                                                          \
    static void amo_##N(void)                                                                      \
    {                                                                                              \
        static T x;                                                                                \
        T f = 0;                                                                                   \
        x = (T)10;                                                                                 \
        CHECK(shmem_atomic_compare_swap(&x, (T)10, (T)11, me) == (T)10, "atomic_compare_swap " #N); \
        CHECK(shmem_atomic_compare_swap(SHMEM_CTX_DEFAULT, &x, (T)11, (T)12, me) == (T)11, "ctx cswap " #N); \
        CHECK(shmem_atomic_fetch_inc(&x, me) == (T)12, "atomic_fetch_inc " #N);                    \
        CHECK(shmem_atomic_fetch_inc(SHMEM_CTX_DEFAULT, &x, me) == (T)13, "ctx fetch_inc " #N);    \
        shmem_atomic_inc(&x, me);                                                                  \
        shmem_atomic_inc(SHMEM_CTX_DEFAULT, &x, me);                                               \
        CHECK(shmem_atomic_fetch_add(&x, (T)2, me) == (T)16, "atomic_fetch_add " #N);              \
        CHECK(shmem_atomic_fetch_add(SHMEM_CTX_DEFAULT, &x, (T)2, me) == (T)18, "ctx fetch_add " #N); \
        shmem_atomic_add(&x, (T)1, me);                                                            \
        shmem_atomic_add(SHMEM_CTX_DEFAULT, &x, (T)1, me);                                         \
        shmem_atomic_compare_swap_nbi(&f, &x, (T)22, (T)30, me);                                   \
        shmem_quiet();                                                                             \
        CHECK(f == (T)22 && x == (T)30, "atomic_compare_swap_nbi " #N);                            \
        shmem_atomic_compare_swap_nbi(SHMEM_CTX_DEFAULT, &f, &x, (T)30, (T)40, me);                \
        shmem_atomic_fetch_inc_nbi(&f, &x, me);                                                    \
        shmem_quiet();                                                                             \
        CHECK(f == (T)40, "atomic_fetch_inc_nbi " #N);                                             \
        shmem_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, &f, &x, me);                                 \
        shmem_quiet();                                                                             \
        shmem_atomic_fetch_add_nbi(&f, &x, (T)5, me);                                              \
        shmem_quiet();                                                                             \
        CHECK(f == (T)42, "atomic_fetch_add_nbi " #N);                                             \
        shmem_atomic_fetch_add_nbi(SHMEM_CTX_DEFAULT, &f, &x, (T)5, me);                           \
        shmem_quiet();                                                                             \
        CHECK(f == (T)47 && x == (T)52, "ctx atomic_fetch_add_nbi " #N);                           \
    }
AMO_TYPES(AMO_GENERIC)

/* Point-to-point: every Table p2psynctypes type, the deprecated short and
 * unsigned short included. */
#define P2P_GENERIC(T, N)                                                                          \
    static void p2p_##N(void)                                                                      \
    {                                                                                              \
        static T x, arr[3]; /* ivars must be symmetric */                                          \
        const T vals[3] = {1, 52, 4};                                                              \
        size_t idx[3];                                                                             \
        int status[3] = {0, 0, 1};                                                                 \
        x = 52, arr[0] = 1, arr[1] = 52, arr[2] = 3;                                               \
        shmem_wait_until(&x, SHMEM_CMP_EQ, (T)52);                                                 \
        CHECK(shmem_test(&x, SHMEM_CMP_GT, (T)51) == 1, "test " #N);                               \
        shmem_wait_until_all(arr, 3, NULL, SHMEM_CMP_GE, (T)1);                                    \
        CHECK(shmem_wait_until_any(arr, 3, NULL, SHMEM_CMP_EQ, (T)52) == 1, "wait_until_any " #N); \
        CHECK(shmem_wait_until_some(arr, 3, idx, status, SHMEM_CMP_LT, (T)52) == 1, "wait_until_some " #N); \
        shmem_wait_until_all_vector(arr, 3, status, SHMEM_CMP_EQ, vals);                           \
        CHECK(shmem_wait_until_any_vector(arr, 3, NULL, SHMEM_CMP_NE, vals) == 2, "wait_until_any_vector " #N); \
        CHECK(shmem_wait_until_some_vector(arr, 3, idx, NULL, SHMEM_CMP_EQ, vals) == 2, "wait_until_some_vector " #N); \
        CHECK(shmem_test_all(arr, 3, NULL, SHMEM_CMP_GT, (T)0) == 1, "test_all " #N);              \
        CHECK(shmem_test_any(arr, 3, status, SHMEM_CMP_EQ, (T)3) == SIZE_MAX, "test_any " #N);     \
        CHECK(shmem_test_some(arr, 3, idx, NULL, SHMEM_CMP_NE, (T)52) == 2, "test_some " #N);      \
        CHECK(shmem_test_all_vector(arr, 3, status, SHMEM_CMP_EQ, vals) == 1, "test_all_vector " #N); \
        CHECK(shmem_test_any_vector(arr, 3, NULL, SHMEM_CMP_GT, vals) == SIZE_MAX, "test_any_vector " #N); \
        CHECK(shmem_test_some_vector(arr, 3, idx, NULL, SHMEM_CMP_LE, vals) == 3, "test_some_vector " #N); \
    }
AMO_TYPES(P2P_GENERIC)
P2PDEP_TYPES(P2P_GENERIC)

#define AMOBIT_GENERIC(T, N)                                                                       \
    static void amobit_##N(void)                                                                   \
    {                                                                                              \
        static T x;                                                                                \
        T f = 0;                                                                                   \
        x = (T)0x0F;                                                                               \
        CHECK(shmem_atomic_fetch_and(&x, (T)0x3C, me) == (T)0x0F, "atomic_fetch_and " #N);         \
        CHECK(shmem_atomic_fetch_and(SHMEM_CTX_DEFAULT, &x, (T)0xFF, me) == (T)0x0C, "ctx fetch_and " #N); \
        CHECK(shmem_atomic_fetch_or(&x, (T)0x01, me) == (T)0x0C, "atomic_fetch_or " #N);           \
        CHECK(shmem_atomic_fetch_or(SHMEM_CTX_DEFAULT, &x, (T)0x02, me) == (T)0x0D, "ctx fetch_or " #N); \
        CHECK(shmem_atomic_fetch_xor(&x, (T)0x0F, me) == (T)0x0F, "atomic_fetch_xor " #N);         \
        CHECK(shmem_atomic_fetch_xor(SHMEM_CTX_DEFAULT, &x, (T)0x01, me) == (T)0x00, "ctx fetch_xor " #N); \
        shmem_atomic_and(&x, (T)0, me);                                                            \
        shmem_atomic_or(&x, (T)0x30, me);                                                          \
        shmem_atomic_xor(&x, (T)0x10, me);                                                         \
        shmem_atomic_and(SHMEM_CTX_DEFAULT, &x, (T)0x70, me);                                      \
        shmem_atomic_or(SHMEM_CTX_DEFAULT, &x, (T)0x04, me);                                       \
        shmem_atomic_xor(SHMEM_CTX_DEFAULT, &x, (T)0x01, me);                                      \
        CHECK(x == (T)0x25, "and/or/xor " #N);                                                     \
        shmem_atomic_fetch_and_nbi(&f, &x, (T)0x0F, me);                                           \
        shmem_quiet();                                                                             \
        CHECK(f == (T)0x25, "fetch_and_nbi " #N);                                                  \
        shmem_atomic_fetch_or_nbi(&f, &x, (T)0x10, me);                                            \
        shmem_quiet();                                                                             \
        CHECK(f == (T)0x05, "fetch_or_nbi " #N);                                                   \
        shmem_atomic_fetch_xor_nbi(&f, &x, (T)0x15, me);                                           \
        shmem_quiet();                                                                             \
        CHECK(f == (T)0x15 && x == 0, "fetch_xor_nbi " #N);                                        \
        shmem_atomic_fetch_and_nbi(SHMEM_CTX_DEFAULT, &f, &x, (T)0, me);                           \
        shmem_atomic_fetch_or_nbi(SHMEM_CTX_DEFAULT, &f, &x, (T)0, me);                            \
        shmem_atomic_fetch_xor_nbi(SHMEM_CTX_DEFAULT, &f, &x, (T)0, me);                           \
        shmem_quiet();                                                                             \
    }
AMOBIT_TYPES(AMOBIT_GENERIC)

/* The deprecated generic AMO names: fetch/set/swap on float, double, int,
 * long, long long; the others on int, long, long long. */
#define DEP_GENERIC(T, N)                                                                          \
    static void dep_##N(void)                                                                      \
    {                                                                                              \
        static T x;                                                                                \
        shmem_set(&x, (T)2, me);                                                                   \
        CHECK(shmem_fetch(&x, me) == (T)2 && shmem_swap(&x, (T)3, me) == (T)2, "deprecated " #N);  \
    }
#define DEP_INT_GENERIC(T, N)                                                                      \
    DEP_GENERIC(T, N)                                                                              \
    static void depi_##N(void)                                                                     \
    {                                                                                              \
        static T x;                                                                                \
        x = 1;                                                                                     \
        CHECK(shmem_cswap(&x, (T)1, (T)5, me) == (T)1 && shmem_finc(&x, me) == (T)5, "cswap/finc " #N); \
        shmem_inc(&x, me);                                                                         \
        shmem_add(&x, (T)3, me);                                                                   \
        CHECK(shmem_fadd(&x, (T)1, me) == (T)10, "inc/add/fadd " #N);                              \
    }
DEP_GENERIC(float, float)
DEP_GENERIC(double, double)
DEP_INT_GENERIC(int, int)
DEP_INT_GENERIC(long, long)
DEP_INT_GENERIC(long long, longlong)

static void signals(void)
{
    static uint64_t sig[6];
    static long dst[4];
    long src[4] = {me, me + 1, me + 2, me + 3};
    shmem_barrier_all();
    shmem_put_signal(dst, src, 1, &sig[0], 1, SHMEM_SIGNAL_SET, next_pe);
    shmem_put_signal(SHMEM_CTX_DEFAULT, dst + 1, src + 1, 1, &sig[1], 1, SHMEM_SIGNAL_ADD, next_pe);
    shmem_put_signal_nbi(dst + 2, src + 2, 1, &sig[2], 1, SHMEM_SIGNAL_SET, next_pe);
    shmem_put_signal_nbi(SHMEM_CTX_DEFAULT, dst + 3, src + 3, 1, &sig[3], 1, SHMEM_SIGNAL_SET, next_pe);
    shmem_signal_add(&sig[4], 2, next_pe);
    shmem_signal_add(SHMEM_CTX_DEFAULT, &sig[4], 3, next_pe);
    shmem_signal_set(&sig[5], 7, next_pe);
    shmem_signal_set(SHMEM_CTX_DEFAULT, &sig[5], 8, next_pe);
    for (int i = 0; i < 4; i++) {
        shmem_signal_wait_until(&sig[i], SHMEM_CMP_EQ, 1);
        CHECK(dst[i] == prev_pe + i, "put_signal %d", i);
    }
    CHECK(shmem_signal_wait_until(&sig[4], SHMEM_CMP_EQ, 5) == 5, "signal_add");
    CHECK(shmem_signal_wait_until(&sig[5], SHMEM_CMP_EQ, 8) == 8, "signal_set");
    shmem_quiet();
    shmem_barrier_all();
}

/* Compiled and linked, never run: the collectives' generics. */
void compile_only_collectives(shmem_team_t team, long *psync);
void compile_only_collectives(shmem_team_t team, long *psync)
{
    static int32_t i32[4];
    static float f[4];
    static unsigned char uc[4];
    static size_t sz[4];
    static double _Complex zc[4];
    static long double ld[4];
    shmem_alltoall(team, i32, i32 + 2, 1);
    shmem_alltoalls(team, f, f + 2, 1, 1, 1);
    shmem_broadcast(team, uc, uc + 2, 1, 0);
    shmem_collect(team, sz, sz + 2, 1);
    shmem_fcollect(team, ld, ld + 2, 1);
    shmem_and_reduce(team, uc, uc + 2, 1);
    shmem_or_reduce(team, i32, i32 + 2, 1);   /* int32_t: listed in the bitwise table */
    shmem_xor_reduce(team, sz, sz + 2, 1);
    shmem_max_reduce(team, f, f + 2, 1);
    shmem_min_reduce(team, ld, ld + 2, 1);
    shmem_sum_reduce(team, zc, zc + 2, 1);
    shmem_prod_reduce(team, i32, i32 + 2, 1);
    shmem_sum_inscan(team, f, f + 2, 1);
    shmem_sum_exscan(team, zc, zc + 2, 1);
    shmem_sync(team);
    shmem_sync(0, 0, 1, psync);
    shmem_wait_until((long *)psync, SHMEM_CMP_EQ, 0L);
    shmem_wait_until((short *)psync, SHMEM_CMP_EQ, (short)0);   /* deprecated short form */
    shmemx_team_sync_start(SHMEMX_TEAM_NODE);
}

int main(void)
{
    test_init();
#define RUN_RMA(T, N) rma_##N();
#define RUN_AMOX(T, N) amox_##N();
#define RUN_AMO(T, N) amo_##N();
#define RUN_AMOBIT(T, N) amobit_##N();
    RMA_TYPES(RUN_RMA)
    AMOX_TYPES(RUN_AMOX)
    AMO_TYPES(RUN_AMO)
    AMOBIT_TYPES(RUN_AMOBIT)
#define RUN_P2P(T, N) p2p_##N();
    AMO_TYPES(RUN_P2P)
    P2PDEP_TYPES(RUN_P2P)
    dep_float();
    dep_double();
    dep_int();
    depi_int();
    dep_long();
    depi_long();
    dep_longlong();
    depi_longlong();
    signals();
    shmem_finalize();
    if (me == 0)
        printf("api_generic_c11: %d PEs ok\n", npes);
    return 0;
}
