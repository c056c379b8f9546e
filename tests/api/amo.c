/* AMOs: every operation on every type of its table, blocking and nbi,
 * default and explicit context, and the deprecated names; then contention:
 * every PE fetch_adds one counter on PE 0, and the fetched values must be
 * exactly 0, 1, ..., total-1 and the final count the total. */
#include <stdlib.h>

#include "api_test.h"

/* fetch, set, swap (+nbi) on extamotypes: each PE owns one slot on its next PE. */
#define EXT_TEST(T, N)                                                                             \
    static void ext_##N(void)                                                                      \
    {                                                                                              \
        static T slot[2];                                                                          \
        T v = (T)(me + 1), w = (T)(me + 7), fetched = 0;                                           \
        shmem_barrier_all();                                                                       \
        shmem_##N##_atomic_set(&slot[0], v, next_pe);                                              \
        shmem_ctx_##N##_atomic_set(SHMEM_CTX_DEFAULT, &slot[1], w, next_pe);                       \
        shmem_barrier_all();                                                                       \
        CHECK(slot[0] == (T)(prev_pe + 1) && slot[1] == (T)(prev_pe + 7), "set " #N);              \
        shmem_barrier_all(); /* checked before anyone swaps */                                     \
        CHECK(shmem_##N##_atomic_fetch(&slot[0], next_pe) == v, "fetch " #N);                      \
        CHECK(shmem_ctx_##N##_atomic_fetch(SHMEM_CTX_DEFAULT, &slot[1], next_pe) == w, "ctx fetch " #N); \
        shmem_##N##_atomic_fetch_nbi(&fetched, &slot[1], next_pe);                                 \
        shmem_quiet();                                                                             \
        CHECK(fetched == w, "fetch_nbi " #N);                                                      \
        CHECK(shmem_##N##_atomic_swap(&slot[0], (T)3, next_pe) == v, "swap " #N);                  \
        CHECK(shmem_ctx_##N##_atomic_swap(SHMEM_CTX_DEFAULT, &slot[0], (T)4, next_pe) == (T)3, "ctx swap " #N); \
        CHECK(shmem_##N##_atomic_swap(&slot[0], (T)5, next_pe) == (T)4, "swap again " #N);         \
        shmem_ctx_##N##_atomic_swap_nbi(SHMEM_CTX_DEFAULT, &fetched, &slot[0], (T)6, next_pe);     \
        shmem_quiet();                                                                             \
        CHECK(fetched == (T)5, "swap_nbi " #N);                                                    \
        shmem_##N##_atomic_fetch_nbi(&fetched, &slot[0], next_pe);                                 \
        shmem_quiet();                                                                             \
        CHECK(fetched == (T)6, "swap_nbi result " #N);                                             \
        shmem_barrier_all();                                                                       \
        CHECK(slot[0] == (T)6, "final " #N);                                                       \
    }
AMOX_TYPES(EXT_TEST)

/* compare_swap, fetch_inc, inc, fetch_add, add (+nbi) on stdamotypes. */
#define STD_TEST(T, N)                                                                             \
    static void std_##N(void)                                                                      \
    {                                                                                              \
        static T slot, counter;                                                                    \
        T fetched = 0;                                                                             \
        slot = (T)10;                                                                              \
        counter = 0;                                                                               \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_##N##_atomic_compare_swap(&slot, (T)9, (T)20, next_pe) == (T)10, "cswap miss " #N); \
        CHECK(shmem_##N##_atomic_compare_swap(&slot, (T)10, (T)20, next_pe) == (T)10, "cswap hit " #N); \
        CHECK(shmem_ctx_##N##_atomic_compare_swap(SHMEM_CTX_DEFAULT, &slot, (T)20, (T)30, next_pe) == (T)20, \
              "ctx cswap " #N);                                                                    \
        shmem_##N##_atomic_compare_swap_nbi(&fetched, &slot, (T)30, (T)40, next_pe);               \
        shmem_quiet();                                                                             \
        CHECK(fetched == (T)30, "cswap_nbi " #N);                                                  \
        CHECK(shmem_##N##_atomic_compare_swap(&slot, (T)40, (T)50, next_pe) == (T)40, "cswap again " #N); \
        /* every PE adds 7 ones, then 2+3+4, 5+6+7 and 1+1: 36 in all, to PE 0's counter */        \
        shmem_##N##_atomic_inc(&counter, 0);                                                       \
        shmem_ctx_##N##_atomic_inc(SHMEM_CTX_DEFAULT, &counter, 0);                                \
        shmem_##N##_atomic_inc(&counter, 0);                                                       \
        (void)shmem_##N##_atomic_fetch_inc(&counter, 0);                                           \
        (void)shmem_ctx_##N##_atomic_fetch_inc(SHMEM_CTX_DEFAULT, &counter, 0);                    \
        (void)shmem_##N##_atomic_fetch_inc(&counter, 0);                                           \
        shmem_ctx_##N##_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, &fetched, &counter, 0);            \
        shmem_##N##_atomic_add(&counter, (T)2, 0);                                                 \
        shmem_ctx_##N##_atomic_add(SHMEM_CTX_DEFAULT, &counter, (T)3, 0);                          \
        shmem_##N##_atomic_add(&counter, (T)4, 0);                                                 \
        (void)shmem_##N##_atomic_fetch_add(&counter, (T)5, 0);                                     \
        (void)shmem_ctx_##N##_atomic_fetch_add(SHMEM_CTX_DEFAULT, &counter, (T)6, 0);              \
        (void)shmem_##N##_atomic_fetch_add(&counter, (T)7, 0);                                     \
        shmem_##N##_atomic_fetch_add_nbi(&fetched, &counter, (T)1, 0);                             \
        shmem_ctx_##N##_atomic_fetch_add_nbi(SHMEM_CTX_DEFAULT, &fetched, &counter, (T)1, 0);      \
        shmem_quiet();                                                                             \
        shmem_barrier_all();                                                                       \
        CHECK(slot == (T)50, "cswap chain " #N);                                                   \
        if (me == 0)                                                                               \
            CHECK(counter == (T)(36 * npes), "counter " #N ": %lld", (long long)counter);          \
        shmem_barrier_all(); /* checked before anyone changes slot again */                        \
        /* fetch_inc on a private slot: the old values in order */                                \
        T seq = shmem_##N##_atomic_fetch(&slot, next_pe);                                          \
        for (int i = 0; i < 5; i++)                                                                \
            CHECK(shmem_##N##_atomic_fetch_inc(&slot, next_pe) == (T)(seq + i), "fetch_inc " #N);  \
        shmem_barrier_all();                                                                       \
    }
AMO_TYPES(STD_TEST)

/* and, or, xor (+fetch, +nbi) on bitamotypes: PE p owns bit p % bits. */
#define BIT_TEST(T, N)                                                                             \
    static void bit_##N(void)                                                                      \
    {                                                                                              \
        static T word;                                                                             \
        T bit = (T)1 << (me % (8 * sizeof(T))), all = 0, fetched = 0;                              \
        for (int p = 0; p < npes; p++)                                                             \
            all |= (T)1 << (p % (8 * sizeof(T)));                                                  \
        word = 0;                                                                                  \
        shmem_barrier_all();                                                                       \
        shmem_##N##_atomic_or(&word, bit, 0);                                                      \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_##N##_atomic_fetch(&word, 0) == all, "or " #N);                                \
        shmem_barrier_all();                                                                       \
        shmem_ctx_##N##_atomic_xor(SHMEM_CTX_DEFAULT, &word, bit, 0);                              \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_##N##_atomic_fetch(&word, 0) == 0, "xor " #N);                                 \
        shmem_barrier_all();                                                                       \
        CHECK((shmem_##N##_atomic_fetch_or(&word, bit, 0) & bit) == 0, "fetch_or old " #N);        \
        shmem_barrier_all();                                                                       \
        (void)shmem_ctx_##N##_atomic_fetch_xor(SHMEM_CTX_DEFAULT, &word, (T)~(T)0, 0);             \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_##N##_atomic_fetch(&word, 0) == (T)(npes % 2 ? ~all : all), "fetch_or/xor " #N); \
        shmem_barrier_all();                                                                       \
        if (me == 0)                                                                               \
            shmem_##N##_atomic_set(&word, (T)~(T)0, 0);                                            \
        shmem_barrier_all();                                                                       \
        shmem_##N##_atomic_and(&word, (T)~bit, 0);                                                 \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_##N##_atomic_fetch(&word, 0) == (T)~all, "and " #N);                           \
        shmem_barrier_all();                                                                       \
        /* on my own slot of the next PE: exact old values */                                     \
        static T mine;                                                                             \
        mine = (T)0xF0;                                                                            \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_##N##_atomic_fetch_and(&mine, (T)0x3C, next_pe) == (T)0xF0, "fetch_and " #N);  \
        CHECK(shmem_ctx_##N##_atomic_fetch_and(SHMEM_CTX_DEFAULT, &mine, (T)0xFF, next_pe) == (T)0x30, "ctx fetch_and " #N); \
        CHECK(shmem_ctx_##N##_atomic_fetch_or(SHMEM_CTX_DEFAULT, &mine, (T)0x01, next_pe) == (T)0x30, "fetch_or " #N); \
        CHECK(shmem_##N##_atomic_fetch_xor(&mine, (T)0x11, next_pe) == (T)0x31, "fetch_xor " #N);  \
        shmem_##N##_atomic_fetch_and_nbi(&fetched, &mine, (T)0xFF, next_pe);                       \
        shmem_quiet();                                                                             \
        CHECK(fetched == (T)0x20, "fetch_and_nbi " #N);                                            \
        shmem_ctx_##N##_atomic_fetch_or_nbi(SHMEM_CTX_DEFAULT, &fetched, &mine, (T)0x02, next_pe); \
        shmem_quiet();                                                                             \
        CHECK(fetched == (T)0x20, "fetch_or_nbi " #N);                                             \
        shmem_##N##_atomic_fetch_xor_nbi(&fetched, &mine, (T)0x22, next_pe);                       \
        shmem_quiet();                                                                             \
        CHECK(fetched == (T)0x22, "fetch_xor_nbi " #N);                                            \
        shmem_ctx_##N##_atomic_or(SHMEM_CTX_DEFAULT, &mine, (T)0x100, next_pe);                    \
        shmem_ctx_##N##_atomic_and(SHMEM_CTX_DEFAULT, &mine, (T)0x1FF, next_pe);                   \
        shmem_ctx_##N##_atomic_fetch_xor_nbi(SHMEM_CTX_DEFAULT, &fetched, &mine, (T)0, next_pe);   \
        shmem_quiet();                                                                             \
        CHECK(fetched == (T)0x100, "ctx fetch_xor_nbi " #N);                                       \
        shmem_barrier_all();                                                                       \
    }
AMOBIT_TYPES(BIT_TEST)

/* The deprecated names: fetch/set/swap on float, double, int, long and
 * long long; cswap/finc/inc/fadd/add on int, long and long long. */
#define DEP_EXT_TEST(T, N)                                                                         \
    static void dep_ext_##N(void)                                                                  \
    {                                                                                              \
        static T slot;                                                                             \
        shmem_barrier_all();                                                                       \
        shmem_##N##_set(&slot, (T)(me + 2), next_pe);                                              \
        shmem_barrier_all();                                                                       \
        CHECK(slot == (T)(prev_pe + 2), "deprecated set " #N);                                     \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_##N##_fetch(&slot, next_pe) == (T)(me + 2), "deprecated fetch " #N);           \
        CHECK(shmem_##N##_swap(&slot, (T)1, next_pe) == (T)(me + 2), "deprecated swap " #N);       \
        shmem_barrier_all();                                                                       \
    }
#define DEP_STD_TEST(T, N)                                                                         \
    DEP_EXT_TEST(T, N)                                                                             \
    static void dep_std_##N(void)                                                                  \
    {                                                                                              \
        static T slot, counter;                                                                    \
        slot = 1;                                                                                  \
        counter = 0;                                                                               \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_##N##_cswap(&slot, (T)1, (T)3, next_pe) == (T)1, "deprecated cswap " #N);      \
        CHECK(shmem_##N##_finc(&slot, next_pe) == (T)3, "deprecated finc " #N);                    \
        shmem_##N##_inc(&counter, 0);                                                              \
        shmem_##N##_add(&counter, (T)2, 0);                                                        \
        CHECK(shmem_##N##_fadd(&slot, (T)10, next_pe) == (T)4, "deprecated fadd " #N);             \
        shmem_barrier_all();                                                                       \
        CHECK(slot == (T)14, "deprecated chain " #N);                                              \
        if (me == 0)                                                                               \
            CHECK(counter == (T)(3 * npes), "deprecated inc/add " #N);                             \
        shmem_barrier_all();                                                                       \
    }
DEP_EXT_TEST(float, float)
DEP_EXT_TEST(double, double)
DEP_STD_TEST(int, int)
DEP_STD_TEST(long, long)
DEP_STD_TEST(long long, longlong)

/* Contention: every PE fetch_adds 1 ROUNDS times on one counter on PE 0 and
 * records the values it got in PE 0's seen[] (all distinct, all < total). */
enum { ROUNDS = 500 };

static void contention(void)
{
    long total = (long)ROUNDS * npes;
    long *counter = shmem_calloc(1, sizeof(long));
    unsigned char *seen = shmem_calloc((size_t)total, 1);
    shmem_barrier_all();
    for (int i = 0; i < ROUNDS; i++) {
        long ticket = shmem_long_atomic_fetch_add(counter, 1, 0);
        CHECK(ticket >= 0 && ticket < total, "ticket %ld", ticket);
        shmem_char_p((char *)seen + ticket, 1, 0);
    }
    shmem_barrier_all();
    if (me == 0) {
        CHECK_EQ_LONG(*counter, total);
        for (long t = 0; t < total; t++)
            CHECK(seen[t] == 1, "ticket %ld handed out %d times", t, seen[t]);
    }
    /* signed wrap-around and unsigned 64-bit add go through the same bits */
    static int64_t big;
    static unsigned int small;
    if (me == 0) {
        big = INT64_MAX - npes;
        small = 0;
    }
    shmem_barrier_all();
    shmem_int64_atomic_add(&big, 1, 0);
    shmem_uint_atomic_add(&small, 0xFFFFFFFFu, 0);   /* -1 in 32 bits */
    shmem_barrier_all();
    if (me == 0) {
        CHECK(big == INT64_MAX, "int64 add: %lld", (long long)big);
        CHECK(small == (unsigned)(0u - (unsigned)npes), "uint add wraps: %u", small);
    }
    shmem_barrier_all();
    shmem_free(seen);
    shmem_free(counter);
}

/* float/double swap moves bits exactly */
static void float_bits(void)
{
    static double d;
    static float f;
    d = 0.0;
    f = 0.0f;
    shmem_barrier_all();
    shmem_double_atomic_set(&d, -1.0 / 3.0, next_pe);
    shmem_float_atomic_set(&f, 1e-30f, next_pe);
    shmem_barrier_all();
    CHECK(d == -1.0 / 3.0 && f == 1e-30f, "float bits");
    CHECK(shmem_double_atomic_swap(&d, 2.5, me) == -1.0 / 3.0, "double swap");
    CHECK(shmem_float_atomic_fetch(&f, prev_pe) == 1e-30f, "float fetch");
    shmem_barrier_all();
}

int main(void)
{
    test_init();
#define RUN_EXT(T, N) ext_##N();
#define RUN_STD(T, N) std_##N();
#define RUN_BIT(T, N) bit_##N();
    AMOX_TYPES(RUN_EXT)
    AMO_TYPES(RUN_STD)
    AMOBIT_TYPES(RUN_BIT)
    dep_ext_float();
    dep_ext_double();
    dep_ext_int();
    dep_std_int();
    dep_ext_long();
    dep_std_long();
    dep_ext_longlong();
    dep_std_longlong();
    contention();
    float_bits();
    shmem_finalize();
    if (me == 0)
        printf("api_amo: %d PEs ok\n", npes);
    return 0;
}
