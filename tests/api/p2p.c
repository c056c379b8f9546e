/* Point-to-point synchronization, every routine for every stdamotypes type:
 *  - local semantics: each comparison true and false, empty sets, status
 *    masks, the return values of _any/_some/_all and their _vector forms,
 *    fairness of _any;
 *  - waiting for real: each PE waits for updates its previous PE makes with
 *    AMOs (with shmem_p for the deprecated short and unsigned short, which
 *    have every point-to-point routine but no AMOs);
 *  - the deprecated forms (shmem_wait, shmem_TYPENAME_wait, the long
 *    shmem_wait_until, short/ushort wait_until and test). */
#include <stdlib.h>

#include "api_test.h"

#define P2P_TEST(T, N, SET, UPDATE)                                                                \
    static void compare_##N(T *iv)                                                                 \
    {                                                                                              \
        iv[0] = (T)5;                                                                              \
        static const int cmps[6] = {SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_GE,        \
                                    SHMEM_CMP_LT, SHMEM_CMP_LE};                                   \
        /* against 4, 5 and 6: EQ NE GT GE LT LE */                                               \
        static const int want[3][6] = {{0, 1, 1, 1, 0, 0}, {1, 0, 0, 1, 0, 1}, {0, 1, 0, 0, 1, 1}}; \
        for (int v = 0; v < 3; v++)                                                                \
            for (int c = 0; c < 6; c++)                                                            \
                CHECK(shmem_##N##_test(iv, cmps[c], (T)(4 + v)) == want[v][c], "test " #N " cmp %d value %d", \
                      cmps[c], 4 + v);                                                             \
        shmem_##N##_wait_until(iv, SHMEM_CMP_GE, (T)5);                                            \
        shmem_##N##_wait_until(iv, SHMEM_CMP_LT, (T)9);                                            \
    }                                                                                              \
    /* iv = {1, 2, 3, 2}: "== 2" holds at 1 and 3 */                                               \
    static void sets_##N(T *iv)                                                                    \
    {                                                                                              \
        size_t idx[4] = {9, 9, 9, 9};                                                              \
        const int mask_odd[4] = {0, 1, 0, 1}, mask_all[4] = {1, 1, 1, 1}, mask_1[4] = {0, 1, 0, 0}; \
        const T vals[4] = {1, 0, 3, 2}, none[4] = {0, 0, 0, 0};                                    \
        iv[0] = 1, iv[1] = 2, iv[2] = 3, iv[3] = 2;                                                \
        CHECK(shmem_##N##_test_all(iv, 0, NULL, SHMEM_CMP_EQ, (T)7) == 1, "test_all empty " #N);   \
        CHECK(shmem_##N##_test_all(iv, 4, mask_all, SHMEM_CMP_EQ, (T)7) == 1, "test_all masked " #N); \
        CHECK(shmem_##N##_test_all(iv, 4, NULL, SHMEM_CMP_GE, (T)1) == 1, "test_all " #N);         \
        CHECK(shmem_##N##_test_all(iv, 4, NULL, SHMEM_CMP_EQ, (T)2) == 0, "test_all false " #N);   \
        CHECK(shmem_##N##_test_all(iv, 4, mask_odd, SHMEM_CMP_NE, (T)2) == 1, "test_all mask " #N); \
        CHECK(shmem_##N##_test_any(iv, 0, NULL, SHMEM_CMP_EQ, (T)2) == SIZE_MAX, "test_any empty " #N); \
        CHECK(shmem_##N##_test_any(iv, 4, NULL, SHMEM_CMP_EQ, (T)7) == SIZE_MAX, "test_any none " #N); \
        CHECK(shmem_##N##_test_any(iv, 4, mask_odd, SHMEM_CMP_EQ, (T)2) == SIZE_MAX, "test_any masked " #N); \
        CHECK(shmem_##N##_test_any(iv, 4, NULL, SHMEM_CMP_EQ, (T)3) == 2, "test_any " #N);         \
        CHECK(shmem_##N##_test_some(iv, 0, idx, NULL, SHMEM_CMP_EQ, (T)2) == 0, "test_some empty " #N); \
        CHECK(shmem_##N##_test_some(iv, 4, idx, mask_all, SHMEM_CMP_EQ, (T)2) == 0, "test_some masked " #N); \
        CHECK(shmem_##N##_test_some(iv, 4, idx, NULL, SHMEM_CMP_EQ, (T)2) == 2 && idx[0] == 1 && idx[1] == 3, \
              "test_some " #N);                                                                    \
        CHECK(shmem_##N##_test_some(iv, 4, idx, mask_1, SHMEM_CMP_EQ, (T)2) == 1 && idx[0] == 3,   \
              "test_some mask " #N);                                                               \
        /* vectors: iv == vals holds at 0, 2 and 3 */                                              \
        CHECK(shmem_##N##_test_all_vector(iv, 0, NULL, SHMEM_CMP_EQ, vals) == 1, "test_all_vector empty " #N); \
        CHECK(shmem_##N##_test_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, vals) == 0, "test_all_vector " #N); \
        CHECK(shmem_##N##_test_all_vector(iv, 4, mask_1, SHMEM_CMP_EQ, vals) == 1, "test_all_vector mask " #N); \
        CHECK(shmem_##N##_test_all_vector(iv, 4, NULL, SHMEM_CMP_GT, none) == 1, "test_all_vector GT " #N); \
        CHECK(shmem_##N##_test_any_vector(iv, 4, NULL, SHMEM_CMP_LT, none) == SIZE_MAX, "test_any_vector none " #N); \
        CHECK(shmem_##N##_test_any_vector(iv, 4, mask_all, SHMEM_CMP_EQ, vals) == SIZE_MAX,        \
              "test_any_vector masked " #N);                                                       \
        CHECK(shmem_##N##_test_any_vector(iv, 0, NULL, SHMEM_CMP_EQ, vals) == SIZE_MAX, "test_any_vector empty " #N); \
        size_t k = shmem_##N##_test_any_vector(iv, 4, NULL, SHMEM_CMP_EQ, vals);                   \
        CHECK(k == 0 || k == 2 || k == 3, "test_any_vector " #N ": %zu", k);                      \
        CHECK(shmem_##N##_test_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ, vals) == 3 && idx[0] == 0 && \
                  idx[1] == 2 && idx[2] == 3, "test_some_vector " #N);                             \
        CHECK(shmem_##N##_test_some_vector(iv, 4, idx, mask_odd, SHMEM_CMP_EQ, vals) == 2 && idx[1] == 2, \
              "test_some_vector mask " #N);                                                        \
        CHECK(shmem_##N##_test_some_vector(iv, 0, idx, NULL, SHMEM_CMP_EQ, vals) == 0, "test_some_vector empty " #N); \
        /* the wait forms, on conditions that already hold or on empty sets */                    \
        shmem_##N##_wait_until_all(iv, 4, NULL, SHMEM_CMP_GT, (T)0);                               \
        shmem_##N##_wait_until_all(iv, 0, NULL, SHMEM_CMP_EQ, (T)7);                               \
        shmem_##N##_wait_until_all(iv, 4, mask_all, SHMEM_CMP_EQ, (T)7);                           \
        shmem_##N##_wait_until_all_vector(iv, 4, mask_1, SHMEM_CMP_EQ, vals);                      \
        shmem_##N##_wait_until_all_vector(iv, 0, NULL, SHMEM_CMP_EQ, none);                        \
        CHECK(shmem_##N##_wait_until_any(iv, 4, NULL, SHMEM_CMP_EQ, (T)1) == 0, "wait_until_any " #N); \
        CHECK(shmem_##N##_wait_until_any(iv, 0, NULL, SHMEM_CMP_EQ, (T)1) == SIZE_MAX, "wait_until_any empty " #N); \
        CHECK(shmem_##N##_wait_until_any(iv, 4, mask_all, SHMEM_CMP_EQ, (T)1) == SIZE_MAX,         \
              "wait_until_any masked " #N);                                                        \
        CHECK(shmem_##N##_wait_until_any_vector(iv, 4, mask_odd, SHMEM_CMP_EQ, vals) % 2 == 0,     \
              "wait_until_any_vector " #N);                                                        \
        CHECK(shmem_##N##_wait_until_any_vector(iv, 0, NULL, SHMEM_CMP_EQ, vals) == SIZE_MAX,      \
              "wait_until_any_vector empty " #N);                                                  \
        CHECK(shmem_##N##_wait_until_some(iv, 4, idx, NULL, SHMEM_CMP_GE, (T)2) == 3 && idx[0] == 1 && \
                  idx[1] == 2 && idx[2] == 3, "wait_until_some " #N);                              \
        CHECK(shmem_##N##_wait_until_some(iv, 0, idx, NULL, SHMEM_CMP_GE, (T)2) == 0, "wait_until_some empty " #N); \
        CHECK(shmem_##N##_wait_until_some(iv, 4, idx, mask_all, SHMEM_CMP_GE, (T)2) == 0,          \
              "wait_until_some masked " #N);                                                       \
        CHECK(shmem_##N##_wait_until_some_vector(iv, 4, idx, mask_1, SHMEM_CMP_EQ, vals) == 3,     \
              "wait_until_some_vector " #N);                                                       \
        CHECK(shmem_##N##_wait_until_some_vector(iv, 0, idx, NULL, SHMEM_CMP_EQ, vals) == 0,       \
              "wait_until_some_vector empty " #N);                                                 \
    }                                                                                              \
    /* Repeated _any calls must eventually return every satisfied index. */                       \
    static void fairness_##N(T *iv)                                                                \
    {                                                                                              \
        int hit_wait[4] = {0}, hit_test[4] = {0};                                                  \
        iv[0] = 2, iv[1] = 0, iv[2] = 2, iv[3] = 2;                                                \
        for (int i = 0; i < 12; i++) {                                                             \
            hit_wait[shmem_##N##_wait_until_any(iv, 4, NULL, SHMEM_CMP_EQ, (T)2)]++;               \
            hit_test[shmem_##N##_test_any(iv, 4, NULL, SHMEM_CMP_EQ, (T)2)]++;                     \
        }                                                                                          \
        CHECK(hit_wait[0] && hit_wait[2] && hit_wait[3] && !hit_wait[1], "wait_until_any fairness " #N); \
        CHECK(hit_test[0] && hit_test[2] && hit_test[3] && !hit_test[1], "test_any fairness " #N);  \
    }                                                                                              \
    /* The previous PE fills my ivars while I wait. */                                            \
    static void remote_##N(T *iv)                                                                  \
    {                                                                                              \
        size_t idx[4];                                                                             \
        const T want[4] = {7, 7, 5, 7};                                                            \
        const int skip_2[4] = {0, 0, 1, 0}, skip_all_but_2[4] = {1, 1, 0, 1};                      \
        size_t k;                                                                                  \
        iv[0] = iv[1] = iv[2] = iv[3] = 0;                                                         \
        shmem_barrier_all();                                                                       \
        SET(N, &iv[2], (T)5, next_pe);                                                             \
        shmem_##N##_wait_until(&iv[2], SHMEM_CMP_EQ, (T)5);                                        \
        CHECK(shmem_##N##_wait_until_any(iv, 4, skip_all_but_2, SHMEM_CMP_NE, (T)0) == 2, "remote any " #N); \
        k = shmem_##N##_wait_until_any(iv, 4, NULL, SHMEM_CMP_NE, (T)0);                           \
        CHECK(k < 4 && iv[k] != 0, "remote any unmasked " #N);                                     \
        UPDATE(N, iv, next_pe);                                                                    \
        shmem_##N##_wait_until_all(iv, 4, NULL, SHMEM_CMP_GE, (T)5);                               \
        CHECK(shmem_##N##_wait_until_some(iv, 4, idx, NULL, SHMEM_CMP_GE, (T)5) == 4, "remote some " #N); \
        shmem_##N##_wait_until_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, want);                        \
        CHECK(shmem_##N##_wait_until_any_vector(iv, 4, skip_2, SHMEM_CMP_EQ, want) != 2, "remote any_vector " #N); \
        CHECK(shmem_##N##_wait_until_some_vector(iv, 4, idx, skip_2, SHMEM_CMP_EQ, want) == 3,     \
              "remote some_vector " #N);                                                           \
        shmem_barrier_all();                                                                       \
    }                                                                                              \
    static void test_##N(void)                                                                     \
    {                                                                                              \
        static T iv[4];                                                                            \
        compare_##N(iv);                                                                           \
        sets_##N(iv);                                                                              \
        fairness_##N(iv);                                                                          \
        remote_##N(iv);                                                                            \
    }
/* AMO types: iv = {7, 7, ?, 7} by a set, an add and a compare-and-swap. */
#define AMO_SET(N, ivar, v, pe) shmem_##N##_atomic_set(ivar, v, pe)
#define AMO_UPDATE(N, iv, pe)                                                                      \
    shmem_##N##_atomic_set(&iv[0], 7, pe);                                                         \
    shmem_##N##_atomic_add(&iv[1], 7, pe);                                                         \
    shmem_##N##_atomic_compare_swap(&iv[3], 0, 7, pe)
#define AMO_TEST(T, N) P2P_TEST(T, N, AMO_SET, AMO_UPDATE)
AMO_TYPES(AMO_TEST)

/* short, unsigned short: plain puts */
#define P_SET(N, ivar, v, pe) shmem_##N##_p(ivar, v, pe)
#define P_UPDATE(N, iv, pe)                                                                        \
    shmem_##N##_p(&iv[0], 7, pe);                                                                  \
    shmem_##N##_p(&iv[1], 7, pe);                                                                  \
    shmem_##N##_p(&iv[3], 7, pe)
#define P2PDEP_TEST(T, N) P2P_TEST(T, N, P_SET, P_UPDATE)
P2PDEP_TYPES(P2PDEP_TEST)

/* A relay through the deprecated forms: PE 0 starts, each PE waits for its
 * previous one, then passes on. */
static long dep_long;
static short dep_short;
static unsigned short dep_ushort;
static int dep_int;
static long long dep_longlong;

static void deprecated(void)
{
    CHECK(shmem_short_test(&dep_short, SHMEM_CMP_EQ, 0) == 1, "short test");
    CHECK(shmem_ushort_test(&dep_ushort, SHMEM_CMP_GT, 0) == 0, "ushort test");
    shmem_barrier_all();
    if (me != 0) {
        shmem_wait(&dep_long, 0);
        shmem_wait_until(&dep_long, SHMEM_CMP_EQ, 1);
        shmem_short_wait(&dep_short, 0);
        shmem_short_wait_until(&dep_short, SHMEM_CMP_EQ, 2);
        shmem_ushort_wait_until(&dep_ushort, SHMEM_CMP_GE, 3);
        shmem_int_wait(&dep_int, 0);
        shmem_long_wait(&dep_long, 0);
        shmem_longlong_wait(&dep_longlong, 0);
        CHECK(dep_int == 4 && dep_longlong == 5, "relay values");
    }
    if (npes > 1 && next_pe != 0) {
        shmem_short_p(&dep_short, 2, next_pe);
        shmem_ushort_p(&dep_ushort, 3, next_pe);
        shmem_int_atomic_set(&dep_int, 4, next_pe);
        shmem_longlong_atomic_set(&dep_longlong, 5, next_pe);
        shmem_fence();
        shmem_long_atomic_set(&dep_long, 1, next_pe);
    }
    shmem_barrier_all();
}

int main(void)
{
    test_init();
#define RUN(T, N) test_##N();
    AMO_TYPES(RUN)
    P2PDEP_TYPES(RUN)
    deprecated();
    shmem_finalize();
    if (me == 0)
        printf("api_p2p: %d PEs ok\n", npes);
    return 0;
}
