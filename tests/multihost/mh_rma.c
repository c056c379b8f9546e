/* RMA, AMO, signals and waits between PEs on different hosts (and on the
 * same host, since every AMO goes through the network once a job spans
 * hosts).  Every check compares with a value computed here independently.
 * Runs at any PE count and placement. */
#include <stdint.h>
#include <string.h>

#include <shmemx.h>

#include "check.h"

enum { SMALL = 5, MEDIUM = 1000, LARGE = 1 << 20 };

static long global_in[MEDIUM];   /* symmetric globals reached over the network too */
static int global_counter;

static int me, n;

static long pattern(int pe, size_t i)
{
    return (long)pe * 1000003L + (long)i * 7L + 1;
}

/* Puts of several sizes (inject, plain, large) to the next PE and to the
 * PE half-way round (on another host in block placement). */
static void test_put_get(long *heap)
{
    static const size_t sizes[] = {SMALL, MEDIUM, LARGE / sizeof(long)};
    int targets[2] = {(me + 1) % n, (me + n / 2) % n};
    for (int t = 0; t < 2; t++) {
        int to = targets[t], from = t == 0 ? (me - 1 + n) % n : (me - n / 2 + n) % n;
        for (size_t s = 0; s < 3; s++) {
            size_t cnt = sizes[s];
            long *src = malloc(cnt * sizeof(long));
            for (size_t i = 0; i < cnt; i++)
                src[i] = pattern(me, i) + (long)s;
            shmem_barrier_all();
            if (s == 1)
                shmem_long_put_nbi(heap, src, cnt, to);
            else
                shmem_long_put(heap, src, cnt, to);
            shmem_quiet();
            shmem_barrier_all();
            for (size_t i = 0; i < cnt; i++)
                CHECK(heap[i] == pattern(from, i) + (long)s, "put of %zu longs from PE %d: [%zu] = %ld, want %ld",
                      cnt, from, i, heap[i], pattern(from, i) + (long)s);
            /* Read back what the target now holds (my data). */
            long *back = calloc(cnt, sizeof(long));
            if (s == 2)
                shmem_long_get_nbi(back, heap, cnt, to), shmem_quiet();
            else
                shmem_long_get(back, heap, cnt, to);
            CHECK(memcmp(back, src, cnt * sizeof(long)) == 0, "get of %zu longs from PE %d differs", cnt, to);
            free(back);
            free(src);
        }
    }
    /* Single elements and globals. */
    shmem_barrier_all();
    shmem_long_p(&global_in[me % MEDIUM], pattern(me, 0), (me + 1) % n);
    shmem_barrier_all();
    int from = (me - 1 + n) % n;
    CHECK_EQ_LONG(global_in[from % MEDIUM], pattern(from, 0));
    CHECK_EQ_LONG(shmem_long_g(&global_in[me % MEDIUM], (me + 1) % n), pattern(me, 0));
}

/* Every AMO, 4 and 8 bytes, each PE hitting one word on every PE. */
static void test_amo(void)
{
    int *ic = shmem_calloc(8, sizeof(int));
    long *lc = shmem_calloc(8, sizeof(long));
    unsigned *ub = shmem_malloc(3 * sizeof(unsigned));
    unsigned long *ulb = shmem_malloc(3 * sizeof(unsigned long));
    ub[0] = ub[1] = 0;
    ub[2] = ~0u;
    ulb[0] = ulb[1] = 0;
    ulb[2] = ~0ul;
    shmem_barrier_all();
    for (int pe = 0; pe < n; pe++) {
        shmem_int_atomic_add(&ic[0], 2, pe);
        shmem_long_atomic_add(&lc[0], 3, pe);
        shmem_int_atomic_inc(&ic[1], pe);
        shmem_long_atomic_inc(&lc[1], pe);
        int fi = shmem_int_atomic_fetch_add(&ic[2], me + 1, pe);
        long fl = shmem_long_atomic_fetch_inc(&lc[2], pe);
        CHECK(fi >= 0 && fi <= n * (n + 1) / 2, "fetch_add fetched %d", fi);
        CHECK(fl >= 0 && fl < n, "fetch_inc fetched %ld", fl);
        unsigned bit = 1u << (me % 32);
        shmem_uint_atomic_or(&ub[0], bit, pe);
        shmem_uint_atomic_xor(&ub[1], bit, pe);
        shmem_uint_atomic_and(&ub[2], ~bit, pe);
        unsigned long lbit = 1ul << (me % 64);
        (void)shmem_ulong_atomic_fetch_or(&ulb[0], lbit, pe);
        (void)shmem_ulong_atomic_fetch_xor(&ulb[1], lbit, pe);
        (void)shmem_ulong_atomic_fetch_and(&ulb[2], ~lbit, pe);
        /* Exactly one PE wins each compare-and-swap from 0. */
        if (shmem_int_atomic_compare_swap(&ic[3], 0, me + 1, pe) == 0)
            shmem_int_atomic_inc(&ic[4], pe);
        if (shmem_long_atomic_compare_swap(&lc[3], 0, me + 1, pe) == 0)
            shmem_long_atomic_inc(&lc[4], pe);
    }
    shmem_barrier_all();
    unsigned want_bits = 0;
    unsigned long want_lbits = 0;
    for (int pe = 0; pe < n; pe++) {
        want_bits ^= 1u << (pe % 32);
        want_lbits ^= 1ul << (pe % 64);
    }
    unsigned or_bits = 0;
    unsigned long or_lbits = 0;
    for (int pe = 0; pe < n; pe++)
        or_bits |= 1u << (pe % 32), or_lbits |= 1ul << (pe % 64);
    CHECK_EQ_LONG(ic[0], 2 * n);
    CHECK_EQ_LONG(lc[0], 3 * n);
    CHECK_EQ_LONG(ic[1], n);
    CHECK_EQ_LONG(lc[1], n);
    CHECK_EQ_LONG(ic[2], n * (n + 1) / 2);
    CHECK_EQ_LONG(lc[2], n);
    CHECK_EQ_LONG(ub[0], or_bits);
    CHECK_EQ_LONG(ub[1], want_bits);
    CHECK_EQ_LONG(ub[2], ~or_bits);
    CHECK_EQ_LONG(ulb[0], or_lbits);
    CHECK_EQ_LONG(ulb[1], want_lbits);
    CHECK_EQ_LONG(ulb[2], ~or_lbits);
    CHECK(ic[3] >= 1 && ic[3] <= n, "compare_swap winner %d", ic[3]);
    CHECK_EQ_LONG(ic[4], 1);
    CHECK_EQ_LONG(lc[4], 1);

    /* set / fetch / swap: each PE owns slot 5 of its right neighbour. */
    int right = (me + 1) % n, left = (me - 1 + n) % n;
    shmem_barrier_all();
    shmem_int_atomic_set(&ic[5], 100 + me, right);
    shmem_long_atomic_set(&lc[5], 1000 + me, right);
    shmem_barrier_all();
    CHECK_EQ_LONG(ic[5], 100 + left);
    shmem_barrier_all();   /* before my left neighbour swaps my slot */
    CHECK_EQ_LONG(shmem_int_atomic_fetch(&ic[5], right), 100 + me);
    CHECK_EQ_LONG(shmem_long_atomic_fetch(&lc[5], right), 1000 + me);
    CHECK_EQ_LONG(shmem_int_atomic_swap(&ic[5], 7, right), 100 + me);
    CHECK_EQ_LONG(shmem_long_atomic_swap(&lc[5], 8, right), 1000 + me);
    CHECK_EQ_LONG(shmem_long_atomic_fetch(&lc[5], right), 8);

    /* Non-blocking fetching AMOs: results valid after quiet. */
    shmem_barrier_all();
    enum { K = 300 };   /* more than the transport's operand slots */
    long *fetched = malloc(K * sizeof(long));
    for (int i = 0; i < K; i++)
        shmem_long_atomic_fetch_add_nbi(&fetched[i], &lc[6], 1, right);
    int fetched_i;
    shmem_int_atomic_fetch_inc_nbi(&fetched_i, &ic[6], right);
    shmem_quiet();
    for (int i = 0; i < K; i++)
        CHECK_EQ_LONG(fetched[i], i);   /* only I touch my right neighbour's lc[6] */
    CHECK_EQ_LONG(fetched_i, 0);
    free(fetched);
    shmem_barrier_all();
    CHECK_EQ_LONG(lc[6], K);

    /* A global counter, incremented by everyone on PE 0. */
    shmem_int_atomic_inc(&global_counter, 0);
    shmem_barrier_all();
    if (me == 0)
        CHECK_EQ_LONG(global_counter, n);
    shmem_free(ic);
    shmem_free(lc);
    shmem_free(ub);
    shmem_free(ulb);
}

/* Data then signal to the right; wait for mine from the left. */
static void test_signal_and_wait(long *heap)
{
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    int *flag = shmem_calloc(1, sizeof(int));
    long data[MEDIUM];
    int right = (me + 1) % n, left = (me - 1 + n) % n;
    for (int round = 1; round <= 3; round++) {
        for (int i = 0; i < MEDIUM; i++)
            data[i] = pattern(me, (size_t)i) * round;
        shmem_putmem_signal(heap, data, sizeof data, sig, (uint64_t)round, SHMEM_SIGNAL_SET, right);
        shmem_signal_wait_until(sig, SHMEM_CMP_EQ, (uint64_t)round);
        for (int i = 0; i < MEDIUM; i++)
            CHECK(heap[i] == pattern(left, (size_t)i) * round, "signal round %d: [%d] = %ld", round, i, heap[i]);
        shmem_barrier_all();   /* the left PE may now overwrite heap */
    }
    /* put; fence; flag; the flag's waiter must see the data. */
    shmem_long_put(heap + MEDIUM, data, MEDIUM, right);
    shmem_fence();
    shmem_int_atomic_set(flag, 1, right);
    shmem_int_wait_until(flag, SHMEM_CMP_EQ, 1);
    for (int i = 0; i < MEDIUM; i++)
        CHECK(heap[MEDIUM + i] == pattern(left, (size_t)i) * 3, "fence: [%d] = %ld", i, heap[MEDIUM + i]);
    shmem_barrier_all();
    shmem_free(sig);
    shmem_free(flag);
}

/* Contexts get their own endpoints; quiet on one completes its puts. */
static void test_contexts(long *heap)
{
    shmem_ctx_t ctx;
    if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0)
        return;   /* no contexts available: nothing to test here */
    int right = (me + 1) % n, left = (me - 1 + n) % n;
    long v[SMALL];
    for (int i = 0; i < SMALL; i++)
        v[i] = pattern(me, (size_t)i) + 99;
    shmem_barrier_all();
    shmem_ctx_long_put_nbi(ctx, heap, v, SMALL, right);
    shmem_ctx_quiet(ctx);
    long got = shmem_ctx_long_atomic_fetch_add(ctx, &heap[SMALL], 5, right);
    (void)got;
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (int i = 0; i < SMALL; i++)
        CHECK_EQ_LONG(heap[i], pattern(left, (size_t)i) + 99);
    shmem_ctx_destroy(ctx);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    long *heap = shmem_calloc(LARGE / sizeof(long) + MEDIUM * 2, sizeof(long));
    double t0 = shmemx_wtime();
    test_put_get(heap);
    double t1 = shmemx_wtime();
    test_amo();
    double t2 = shmemx_wtime();
    test_signal_and_wait(heap);
    double t3 = shmemx_wtime();
    test_contexts(heap);
    double t4 = shmemx_wtime();
    if (getenv("MH_TIMING"))
        printf("PE %d: put/get %.3f s, amo %.3f s, signal %.3f s, contexts %.3f s\n", me, t1 - t0, t2 - t1,
               t3 - t2, t4 - t3);
    shmem_barrier_all();
    if (me == 0)
        printf("mh_rma: %d PEs OK\n", n);
    shmem_free(heap);
    shmem_finalize();
    return 0;
}
