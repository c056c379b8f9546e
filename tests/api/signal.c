/* Signals: put-with-signal for every RMA type, every size and mem, blocking
 * and nbi, default and explicit context, with SET and ADD; signal_add,
 * signal_set, signal_fetch and signal_wait_until.  A receiver waits on the
 * signal and must then see the data that signal was put with. */
#include <stdlib.h>

#include "api_test.h"

enum { ELEMS = 16, SLOTS = 128 };

/* Every transfer gets its own signal word and data slot, taken in the same
 * order on every PE. */
static uint64_t *sigs;
static unsigned char *data;   /* SLOTS slots of ELEMS * 16 bytes */
static int next_slot;

static int take_slot(void)
{
    CHECK(next_slot < SLOTS, "out of slots");
    return next_slot++;
}

static void *slot_data(int s)
{
    return data + (size_t)s * ELEMS * 16;
}

/* Odd slots: blocking on the default context; even: nbi on SHMEM_CTX_DEFAULT. */
#define SIG_TEST(T, N)                                                                             \
    static void sig_##N(void)                                                                      \
    {                                                                                              \
        int s = take_slot();                                                                       \
        T src[ELEMS], *dst = slot_data(s);                                                         \
        for (int i = 0; i < ELEMS; i++)                                                            \
            src[i] = (T)pattern(me, (size_t)i + s);                                                \
        if (s % 2)                                                                                 \
            shmem_##N##_put_signal(dst, src, ELEMS, &sigs[s], (uint64_t)s + 1, SHMEM_SIGNAL_SET, next_pe); \
        else                                                                                       \
            shmem_ctx_##N##_put_signal_nbi(SHMEM_CTX_DEFAULT, dst, src, ELEMS, &sigs[s], (uint64_t)s + 1, \
                                           SHMEM_SIGNAL_SET, next_pe);                             \
        uint64_t got = shmem_signal_wait_until(&sigs[s], SHMEM_CMP_EQ, (uint64_t)s + 1);           \
        CHECK(got == (uint64_t)s + 1, "signal " #N ": %llu", (unsigned long long)got);             \
        for (int i = 0; i < ELEMS; i++)                                                            \
            CHECK(dst[i] == (T)pattern(prev_pe, (size_t)i + s), "put_signal " #N " [%d]", i);       \
        shmem_quiet();                                                                             \
    }                                                                                              \
    static void sig_ctx_##N(void)                                                                  \
    {                                                                                              \
        int s = take_slot();                                                                       \
        T src[ELEMS], *dst = slot_data(s);                                                         \
        for (int i = 0; i < ELEMS; i++)                                                            \
            src[i] = (T)pattern(me, (size_t)i * 3 + s);                                            \
        if (s % 2)                                                                                 \
            shmem_ctx_##N##_put_signal(SHMEM_CTX_DEFAULT, dst, src, ELEMS, &sigs[s], 5, SHMEM_SIGNAL_ADD, next_pe); \
        else                                                                                       \
            shmem_##N##_put_signal_nbi(dst, src, ELEMS, &sigs[s], 5, SHMEM_SIGNAL_ADD, next_pe);   \
        shmem_signal_wait_until(&sigs[s], SHMEM_CMP_GE, 5);                                        \
        for (int i = 0; i < ELEMS; i++)                                                            \
            CHECK(dst[i] == (T)pattern(prev_pe, (size_t)i * 3 + s), "ctx put_signal " #N " [%d]", i); \
        shmem_quiet();                                                                             \
    }
RMA_TYPES(SIG_TEST)

static void fill(unsigned char *buf, size_t n, int pe, int s)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)pattern(pe, i + (size_t)s);
}

static void check_slot(int s, size_t n, const char *what)
{
    const unsigned char *dst = slot_data(s);
    shmem_signal_wait_until(&sigs[s], SHMEM_CMP_NE, 0);
    for (size_t i = 0; i < n; i++)
        CHECK(dst[i] == (unsigned char)pattern(prev_pe, i + (size_t)s), "%s byte %zu", what, i);
}

/* putSIZE_signal moves SIZE-bit elements: ELEMS of them fill ELEMS*SIZE/8 bytes. */
#define SIZED_SIG(bits)                                                                            \
    {                                                                                              \
        unsigned char src[ELEMS * 16], src_nbi[ELEMS * 16];                                        \
        int a = take_slot(), b = take_slot();                                                      \
        size_t n = ELEMS * bits / 8;                                                               \
        fill(src, n, me, a);                                                                       \
        shmem_put##bits##_signal(slot_data(a), src, ELEMS, &sigs[a], 1, SHMEM_SIGNAL_ADD, next_pe); \
        fill(src_nbi, n, me, b);                                                                   \
        shmem_ctx_put##bits##_signal_nbi(SHMEM_CTX_DEFAULT, slot_data(b), src_nbi, ELEMS, &sigs[b], 9, \
                                         SHMEM_SIGNAL_SET, next_pe);                               \
        check_slot(a, n, "put" #bits "_signal");                                                   \
        check_slot(b, n, "put" #bits "_signal_nbi");                                               \
        shmem_quiet();                                                                             \
    }

static void sized_and_mem(void)
{
    SIZED_SIG(8) SIZED_SIG(16) SIZED_SIG(32) SIZED_SIG(64) SIZED_SIG(128)
    static unsigned char src[5][ELEMS * 16];   /* one per transfer: nbi sources stay put until quiet */
    int a = take_slot(), b = take_slot(), c = take_slot(), d = take_slot();
    fill(src[0], 33, me, a);
    shmem_putmem_signal(slot_data(a), src[0], 33, &sigs[a], 1, SHMEM_SIGNAL_SET, next_pe);
    fill(src[1], 1, me, b);
    shmem_ctx_putmem_signal(SHMEM_CTX_DEFAULT, slot_data(b), src[1], 1, &sigs[b], 1, SHMEM_SIGNAL_ADD, next_pe);
    fill(src[2], 100, me, c);
    shmem_putmem_signal_nbi(slot_data(c), src[2], 100, &sigs[c], 1, SHMEM_SIGNAL_SET, next_pe);
    fill(src[3], 7, me, d);
    shmem_ctx_putmem_signal_nbi(SHMEM_CTX_DEFAULT, slot_data(d), src[3], 7, &sigs[d], 1, SHMEM_SIGNAL_ADD,
                                next_pe);
    check_slot(a, 33, "putmem_signal");
    check_slot(b, 1, "ctx putmem_signal");
    check_slot(c, 100, "putmem_signal_nbi");
    check_slot(d, 7, "ctx putmem_signal_nbi");
    /* zero bytes: only the signal moves */
    int e = take_slot();
    shmem_putmem_signal(slot_data(e), src[4], 0, &sigs[e], 3, SHMEM_SIGNAL_SET, next_pe);
    CHECK(shmem_signal_wait_until(&sigs[e], SHMEM_CMP_EQ, 3) == 3, "zero-byte put_signal");
    shmem_quiet();
}

/* Every PE adds into PE 0's signal: with put_signal ADD, signal_add and
 * shmem_ctx_signal_add; then PE 0 sets everyone's signal. */
static void many_to_one(void)
{
    int s = take_slot(), t = take_slot(), u = take_slot();
    long *gathered = shmem_calloc((size_t)npes, sizeof(long));
    long mine = 1000 + me;
    shmem_barrier_all();
    shmem_long_put_signal(gathered + me, &mine, 1, &sigs[s], 1, SHMEM_SIGNAL_ADD, 0);
    shmem_signal_add(&sigs[t], (uint64_t)me + 1, 0);
    shmem_ctx_signal_add(SHMEM_CTX_DEFAULT, &sigs[t], 100, 0);
    if (me == 0) {
        uint64_t want = (uint64_t)npes * (npes + 1) / 2 + 100u * (uint64_t)npes;
        CHECK(shmem_signal_wait_until(&sigs[s], SHMEM_CMP_EQ, (uint64_t)npes) == (uint64_t)npes, "put_signal ADD");
        for (int p = 0; p < npes; p++)
            CHECK_EQ_LONG(gathered[p], 1000 + p);
        CHECK(shmem_signal_wait_until(&sigs[t], SHMEM_CMP_GE, want) == want, "signal_add total");
        CHECK(shmem_signal_fetch(&sigs[t]) == want, "signal_fetch");
        for (int p = 0; p < npes; p++)
            p % 2 ? shmem_signal_set(&sigs[u], 42, p) : shmem_ctx_signal_set(SHMEM_CTX_DEFAULT, &sigs[u], 42, p);
    }
    CHECK(shmem_signal_wait_until(&sigs[u], SHMEM_CMP_EQ, 42) == 42, "signal_set");
    CHECK(shmem_signal_fetch(&sigs[u]) == 42, "signal_fetch after set");
    /* every comparison of signal_wait_until on a value already there */
    CHECK(shmem_signal_wait_until(&sigs[u], SHMEM_CMP_NE, 41) == 42, "NE");
    CHECK(shmem_signal_wait_until(&sigs[u], SHMEM_CMP_GT, 41) == 42, "GT");
    CHECK(shmem_signal_wait_until(&sigs[u], SHMEM_CMP_GE, 42) == 42, "GE");
    CHECK(shmem_signal_wait_until(&sigs[u], SHMEM_CMP_LT, 43) == 42, "LT");
    CHECK(shmem_signal_wait_until(&sigs[u], SHMEM_CMP_LE, 42) == 42, "LE");
    shmem_barrier_all();
    shmem_free(gathered);
}

int main(void)
{
    test_init();
    sigs = shmem_calloc(SLOTS, sizeof *sigs);
    data = shmem_calloc(SLOTS, ELEMS * 16);
    shmem_barrier_all();
#define RUN(T, N) sig_##N(); sig_ctx_##N();
    RMA_TYPES(RUN)
    sized_and_mem();
    many_to_one();
    shmem_free(data);
    shmem_free(sigs);
    shmem_finalize();
    if (me == 0)
        printf("api_signal: %d PEs ok\n", npes);
    return 0;
}
