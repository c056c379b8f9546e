/* Every collective against a reference each PE computes on its own: team
 * broadcast/collect/fcollect/alltoall(s), reductions of every type and
 * operator of the spec's table (in place too), scans, sync, and the
 * deprecated active-set forms (pSync must come back all SHMEM_SYNC_VALUE).
 * Runs on WORLD and on split teams (strided, 2-D rows and columns, colour
 * splits in reversed order), round after round with no synchronisation
 * between collectives on different teams.  The algorithm under test is
 * forced from outside (SHMEM_*_ALGORITHM); this program does not care.
 * Inputs are small integers (and 1/2 for products) so even floating-point
 * results are exact whatever the order of reduction. */
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>
#include <shmemx.h>

#include "check.h"
#include "coll_bytes.h"

/* The type table's rows by family: SHOAL_FOR_<FAMILY>(m) expands to
 * m(C type, TYPENAME) per row (generated from src/core/types.def, as the
 * library's typed routines are). */
#include <shoal_type_families.h>

enum { MAXN = 70000 };
static char *big_a, *big_b, *ref;   /* symmetric work areas */
static long psync1[SHMEM_REDUCE_SYNC_SIZE], psync2[SHMEM_REDUCE_SYNC_SIZE];
static int me, npes, quick;


/* Member j's input element i (salt varies per call). */
static long val(int j, size_t i, int salt)
{
    return (long)((j * 31 + (long)i * 7 + salt) % 11) - 5;
}
static long pval(int j, size_t i, int salt)
{
    return ((j + (long)i + salt) % 3 == 0) ? 2 : 1;
}
static unsigned long bval(int j, size_t i, int salt)
{
    return (unsigned long)(j * 37 + (long)i * 11 + salt) * 2654435761u >> 7;
}

static void check_psync(const char *what)
{
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) {
        CHECK(psync1[i] == SHMEM_SYNC_VALUE && psync2[i] == SHMEM_SYNC_VALUE,
              "%s left pSync[%d] = %ld / %ld", what, i, psync1[i], psync2[i]);
    }
}

/* ---- reductions: one function per type, from the type table ---- */

#define FILL(T, buf, n, j, op, salt)                                                         \
    for (size_t i_ = 0; i_ < (n); i_++)                                                      \
        (buf)[i_] = (op) == 5 ? (T)val(j, i_, salt)                                          \
                  : (op) == 6 ? (T)pval(j, i_, salt)                                         \
                  : (op) <= 2 ? (T)bval(j, i_, salt) : (T)val(j, i_, salt);

#define SAME(T, a, b) (memcmp(&(a), &(b), sizeof(T)) == 0 || (a) == (b))

/* Wrapping integer arithmetic like the library's, exact for our inputs otherwise. */
#define COMBINE_FN(T, name)                                                                                    \
    static T combine_##name(int op, T a, T b)                                                                  \
    {                                                                                                          \
        switch (op) {                                                                                          \
        case 0: return (T)(BITS(a) & BITS(b));                                                                 \
        case 1: return (T)(BITS(a) | BITS(b));                                                                 \
        case 2: return (T)(BITS(a) ^ BITS(b));                                                                 \
        case 3: return ORD(a) < ORD(b) ? b : a;                                                                \
        case 4: return ORD(b) < ORD(a) ? b : a;                                                                \
        case 5: return ISFLT(a) ? (T)(a + b) : (T)((unsigned long long)a + (unsigned long long)b);            \
        default: return ISFLT(a) ? (T)(a * b) : (T)((unsigned long long)a * (unsigned long long)b);           \
        }                                                                                                      \
    }
#define ISFLT(x) _Generic((x), float: 1, double: 1, long double: 1, float _Complex: 1, double _Complex: 1, default: 0)
#define ORD(x) _Generic((x), float _Complex: 0, double _Complex: 0, default: (x))
#define BITS(x) _Generic((x), float: 0, double: 0, long double: 0, float _Complex: 0, double _Complex: 0, default: (x))

#define SHOAL_TYPE(T, name, ...) COMBINE_FN(T, name)
#include "../../src/core/types.def"
#undef SHOAL_TYPE

/* The largest size only for long and double: the others stop at 1000. */
#define MAXN_OF(name) ((!strcmp(#name, "long") || !strcmp(#name, "double")) && !quick ? MAXN : 1000)

/* reduce_CLASS_TYPENAME: every operator of one class (bit: ops 0-2 and/or/xor,
 * minmax: 3-4, arith: 5-6 sum/prod) for one type, at every size up to maxn,
 * against the reference each PE combines from every member's input. */
#define REDUCE_FN(T, name, class, first, last, CALLS)                                                          \
    static void reduce_##class##_##name(const struct team *tm, int salt)                                       \
    {                                                                                                          \
        static const size_t sizes[] = {0, 1, 3, 7, 8, 17, 256, 257, 1000, 1024, 1025, 5000, MAXN}; /* longs: 7 in a ring head, 256 auto's ring limit, 1024 an entry */ \
        T *src = (T *)big_a, *dst = (T *)big_b, *want = (T *)ref;                                             \
        for (int op = first; op <= last; op++)                                                                 \
            for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {                                     \
                size_t n = sizes[si];                                                                          \
                if (n > (size_t)MAXN_OF(name))                                                                 \
                    break;                                                                                     \
                bool inplace = si % 2 == 1;                                                                    \
                T *d = inplace ? src : dst;                                                                    \
                FILL(T, src, n, tm->my, op, salt + (int)si);                                                   \
                if (!inplace)                                                                                  \
                    for (size_t i = 0; i < n; i++)                                                             \
                        dst[i] = (T)99;                                                                        \
                for (int j = 0; j < tm->n; j++) {                                                              \
                    T *x = (T *)malloc((n ? n : 1) * sizeof(T));                                               \
                    FILL(T, x, n, j, op, salt + (int)si);                                                      \
                    for (size_t i = 0; i < n; i++)                                                             \
                        want[i] = j == 0 ? x[i] : combine_##name(op, want[i], x[i]);                           \
                    free(x);                                                                                   \
                }                                                                                              \
                int rc = -1;                                                                                   \
                switch (op) { CALLS(name) }                                                                    \
                CHECK(rc == 0, "%s reduce op %d returned %d", #name, op, rc);                                  \
                for (size_t i = 0; i < n; i++)                                                                 \
                    CHECK(SAME(T, d[i], want[i]), "team %s: %s op %d n %zu%s: element %zu wrong", tm->label,     \
                          #name, op, n, inplace ? " in place" : "", i);                                       \
            }                                                                                                  \
    }

/* The calls, per class (only those the spec defines exist). */
#define CALL(name, opname, code) case code: rc = shmem_##name##_##opname##_reduce(tm->t, d, src, n); break;
#define CALLS_BIT(name) CALL(name, and, 0) CALL(name, or, 1) CALL(name, xor, 2)
#define CALLS_MINMAX(name) CALL(name, max, 3) CALL(name, min, 4)
#define CALLS_ARITH(name) CALL(name, sum, 5) CALL(name, prod, 6)
#define REDUCE_BIT(T, name) REDUCE_FN(T, name, bit, 0, 2, CALLS_BIT)
#define REDUCE_MINMAX(T, name) REDUCE_FN(T, name, minmax, 3, 4, CALLS_MINMAX)
#define REDUCE_ARITH(T, name) REDUCE_FN(T, name, arith, 5, 6, CALLS_ARITH)
SHOAL_FOR_RBIT(REDUCE_BIT)
SHOAL_FOR_RMINMAX(REDUCE_MINMAX)
SHOAL_FOR_RARITH(REDUCE_ARITH)

/* ---- scans ---- */
#define SCAN_TYPE(T, name)                                                                                \
    static void scan_##name(const struct team *tm, int salt)                                                   \
    {                                                                                                          \
        static const size_t sizes[] = {0, 1, 5, 300, 9000};                                                    \
        T *src = (T *)big_a, *dst = (T *)big_b;                                                                \
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)                                           \
            for (int inc = 0; inc < 2; inc++) {                                                                \
                size_t n = sizes[si];                                                                          \
                bool inplace = si == 2;                                                                        \
                T *d = inplace ? src : dst;                                                                    \
                for (size_t i = 0; i < n; i++)                                                                 \
                    src[i] = (T)val(tm->my, i, salt);                                                          \
                int rc = inc ? shmem_##name##_sum_inscan(tm->t, d, src, n)                                     \
                             : shmem_##name##_sum_exscan(tm->t, d, src, n);                                    \
                CHECK(rc == 0, "scan rc %d", rc);                                                              \
                for (size_t i = 0; i < n; i++) {                                                               \
                    T w = (T)0;                                                                                \
                    for (int j = 0; j < tm->my + inc; j++)                                                     \
                        w = combine_##name(5, w, (T)val(j, i, salt));                                          \
                    CHECK(SAME(T, d[i], w), "team %s: %s %s n %zu: element %zu wrong", tm->label, #name,        \
                          inc ? "inscan" : "exscan", n, i);                                                    \
                }                                                                                              \
            }                                                                                                  \
    }
SHOAL_FOR_RARITH(SCAN_TYPE)

static void reductions(const struct team *tm, int salt)
{
#define CALL_BIT(T, name) reduce_bit_##name(tm, salt);
#define CALL_MINMAX(T, name) reduce_minmax_##name(tm, salt);
#define CALL_ARITH(T, name) reduce_arith_##name(tm, salt);
    SHOAL_FOR_RBIT(CALL_BIT)
    SHOAL_FOR_RMINMAX(CALL_MINMAX)
    SHOAL_FOR_RARITH(CALL_ARITH)
}

static void scans(const struct team *tm, int salt)
{
#define CALL_SCAN(T, name) scan_##name(tm, salt);
    SHOAL_FOR_RARITH(CALL_SCAN)
}

/* ---- data movement ---- */

static void broadcasts(const struct team *tm, int salt)
{
    /* 56 / 8192: a ring entry's head and the whole entry (coll_internal.h);
     * from 512 KiB binomial goes over the network in 256 KiB pieces
     * (bcast_binomial.c): 3 uneven ones, and 8 */
    static const size_t sizes[] = {0, 1, 7, 56, 57, 64, 1000, 4096, 4097, 8192, 8193, 70001, 1000003, MAXN * 32 - 1};
    unsigned char *src = (unsigned char *)big_a, *dst = (unsigned char *)big_b;
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (int r = 0; r < 2; r++)
            check_bcast(tm, dst, src, sizes[si], r ? tm->n - 1 : 0, salt);
    size_t n = 70001;
    for (int r = 0; r < 2; r++) {   /* in place: dest == source */
        int root = r ? tm->n - 1 : 0;
        for (size_t i = 0; i < n; i++)
            dst[i] = pat(tm->my, i, salt + 1);
        CHECK(shmem_broadcastmem(tm->t, dst, dst, n, root) == 0, "broadcast rc");
        for (size_t i = 0; i < n; i++)
            CHECK(dst[i] == pat(root, i, salt + 1), "team %s: broadcast in place from root %d: byte %zu is %d",
                  tm->label, root, i, dst[i]);
    }
    /* A root source outside the symmetric heap (the spec asks for a
     * symmetric one; older programs pass a private buffer there, and other
     * members' sources are never read), at a size every algorithm moves. */
    unsigned char *mine = malloc(n);
    CHECK(mine != NULL, "malloc");
    int root = tm->n / 2;
    for (size_t i = 0; i < n; i++) {
        mine[i] = pat(tm->my, i, salt + 2);
        dst[i] = 0xee;
    }
    CHECK(shmem_broadcastmem(tm->t, dst, tm->my == root ? mine : src, n, root) == 0, "broadcast rc");
    for (size_t i = 0; i < n; i++)
        CHECK(dst[i] == pat(root, i, salt + 2), "team %s: broadcast from a private root source: byte %zu is %d",
              tm->label, i, dst[i]);
    free(mine);
}

/* Many small broadcasts back to back with rotating roots and sizes, the
 * same buffers every time, reductions and syncs mixed in at odd intervals:
 * a root that runs ahead must never disturb a member still copying. */
static void broadcast_storm(const struct team *tm, int salt)
{
    unsigned char *src = (unsigned char *)big_a, *dst = (unsigned char *)big_b;
    long *sum_in = (long *)(big_a + 4096), *sum_out = (long *)(big_b + 4096);
    int iters = quick ? 60 : 300;
    for (int it = 0; it < iters; it++) {
        int root = (it * 7 + salt) % tm->n;
        size_t n = 1 + (size_t)(it * 37 + salt) % 600;
        for (size_t i = 0; i < n; i++) {
            src[i] = pat(tm->my, i, salt + it);
            dst[i] = 0;
        }
        CHECK(shmem_broadcastmem(tm->t, dst, src, n, root) == 0, "broadcast rc");
        for (size_t i = 0; i < n; i++)
            CHECK(dst[i] == pat(root, i, salt + it), "team %s: storm %d: broadcast n %zu root %d: byte %zu is %d, want %d",
                  tm->label, it, n, root, i, dst[i], pat(root, i, salt + it));
        if (it % 7 == 3) {
            *sum_in = tm->my + it;
            CHECK(shmem_long_sum_reduce(tm->t, sum_out, sum_in, 1) == 0, "reduce rc");
            long want = (long)tm->n * (tm->n - 1) / 2 + (long)tm->n * it;
            CHECK(*sum_out == want, "team %s: storm %d: sum %ld, want %ld", tm->label, it, *sum_out, want);
        }
        if (it % 13 == 5)
            CHECK(shmem_team_sync(tm->t) == 0, "team_sync");
    }
}

static void collects(const struct team *tm, int salt)
{
    /* 56, 512, 8192: a ring entry's head, what auto publishes with a core per PE, the whole entry;
     * 504: what a collect's first round carries */
    static const size_t sizes[] = {0, 1, 13, 56, 57, 504, 505, 512, 513, 4096, 4097, 8192, 8193};
    unsigned char *src = (unsigned char *)big_a, *dst = (unsigned char *)big_b;
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        check_fcollect(tm, dst, src, sizes[si], salt);
    for (int round = 0; round < 3; round++)
        check_collect(tm, dst, src, salt + round);
}

static void alltoalls(const struct team *tm, int salt)
{
    /* then many small ones back to back, the same buffers each time */
    static const size_t sizes[] = {0, 1, 7, 24, 512, 513, 1024, 1025, 2000};   /* 8 x 7, 8 x 1024: a ring entry's head, a whole entry */
    enum { FIXED = sizeof sizes / sizeof *sizes };
    unsigned char *src = (unsigned char *)big_a, *dst = (unsigned char *)big_b;
    for (size_t si = 0; si < FIXED + (quick ? 20 : 100); si++) {
        size_t n = si < FIXED ? sizes[si] : 1 + (si * 29 + (size_t)salt) % 70;
        for (int j = 0; j < tm->n; j++)
            for (size_t i = 0; i < n; i++)
                src[j * n + i] = pat(tm->my * 100 + j, i, salt + (int)si);
        CHECK(shmem_alltoallmem(tm->t, dst, src, n) == 0, "alltoall rc");
        for (int j = 0; j < tm->n; j++)
            for (size_t i = 0; i < n; i++)
                CHECK(dst[j * n + i] == pat(j * 100 + tm->my, i, salt + (int)si),
                      "team %s: alltoall %zu, n %zu: from %d byte %zu", tm->label, si, n, j, i);
    }
    /* strided: dst stride 2, src stride 3, 5 int64 per PE */
    int64_t *s64 = (int64_t *)big_a, *d64 = (int64_t *)big_b;
    size_t ne = 5;
    for (int j = 0; j < tm->n; j++)
        for (size_t i = 0; i < ne; i++)
            s64[(j * ne + i) * 3] = tm->my * 1000 + j * 10 + (int64_t)i + salt;
    for (size_t i = 0; i < ne * tm->n * 2; i++)
        d64[i] = -1;
    CHECK(shmem_int64_alltoalls(tm->t, d64, s64, 2, 3, ne) == 0, "alltoalls rc");
    for (int j = 0; j < tm->n; j++)
        for (size_t i = 0; i < ne; i++) {
            CHECK(d64[(j * ne + i) * 2] == j * 1000 + tm->my * 10 + (int64_t)i + salt, "team %s: alltoalls", tm->label);
            CHECK(d64[(j * ne + i) * 2 + 1] == -1, "team %s: alltoalls wrote a gap", tm->label);
        }
}

/* ---- deprecated active-set forms on (start, logstride, size) ---- */

static void active_set(int start, int logstride, int size, int salt)
{
    int stride = 1 << logstride, my = (me - start) / stride;
    if (me < start || (me - start) % stride || my >= size)
        return;
    long *ps[2] = {psync1, psync2};
    long *src = (long *)big_a, *dst = (long *)big_b;
    static long wrk1[MAXN / 2 + 16], wrk2[MAXN / 2 + 16];
    long *wrk[2] = {wrk1, wrk2};
    for (int k = 0; k < 6; k++) {   /* alternate pSync/pWrk pairs, no barrier in between */
        long *p = ps[k & 1];
        int n = k < 3 ? 1 + k * 7 : 3000;
        for (int i = 0; i < n; i++)
            src[i] = val(my, i, salt + k);
        shmem_long_sum_to_all(dst, src, n, start, logstride, size, wrk[k & 1], p);
        for (int i = 0; i < n; i++) {
            long w = 0;
            for (int j = 0; j < size; j++)
                w += val(j, i, salt + k);
            CHECK(dst[i] == w, "active set (%d,%d,%d): sum_to_all n %d element %d: %ld, want %ld", start, logstride,
                  size, n, i, dst[i], w);
        }
    }
    shmem_barrier(start, logstride, size, psync1);
    shmem_barrier(start, logstride, size, psync1);   /* the same pSync, back to back: allowed for barriers */
    double *fs = (double *)big_a, *fd = (double *)big_b;
    for (int i = 0; i < 10; i++)
        fs[i] = (double)val(my, i, salt);
    shmem_double_max_to_all(fd, fs, 10, start, logstride, size, (double *)wrk1, psync2);
    for (int i = 0; i < 10; i++) {
        double w = -1e9;
        for (int j = 0; j < size; j++)
            w = (double)val(j, i, salt) > w ? (double)val(j, i, salt) : w;
        CHECK(fd[i] == w, "double_max_to_all");
    }
    shmem_barrier(start, logstride, size, psync1);
    int64_t *b = (int64_t *)big_a, *bd = (int64_t *)big_b;
    int root = size - 1;
    for (int i = 0; i < 100; i++) {
        b[i] = my * 1000 + i;
        bd[i] = -7;
    }
    /* Active-set collectives may write a dest before its owner calls: the
     * caller must make every dest ready first (here: a barrier). */
    shmem_barrier(start, logstride, size, psync1);
    shmem_broadcast64(bd, b, 100, root, start, logstride, size, psync2);
    for (int i = 0; i < 100; i++)
        CHECK(bd[i] == (my == root ? -7 : root * 1000 + i), "broadcast64 (root's dest must stay)");
    shmem_barrier(start, logstride, size, psync2);
    shmem_fcollect64(bd, b, 3, start, logstride, size, psync1);
    for (int j = 0; j < size; j++)
        for (int i = 0; i < 3; i++)
            CHECK(bd[j * 3 + i] == j * 1000 + i, "fcollect64");
    shmem_barrier(start, logstride, size, psync2);
    int32_t *c = (int32_t *)big_a, *cd = (int32_t *)big_b;
    for (int i = 0; i < my % 3 + 1; i++)
        c[i] = my * 10 + i;
    shmem_collect32(cd, c, my % 3 + 1, start, logstride, size, psync2);
    for (int j = 0, at = 0; j < size; j++)
        for (int i = 0; i < j % 3 + 1; i++, at++)
            CHECK(cd[at] == j * 10 + i, "collect32");
    shmem_barrier(start, logstride, size, psync1);
    for (int j = 0; j < size; j++)
        for (int i = 0; i < 2; i++)
            b[j * 2 + i] = my * 100 + j * 10 + i;
    shmem_alltoall64(bd, b, 2, start, logstride, size, psync1);
    for (int j = 0; j < size; j++)
        for (int i = 0; i < 2; i++)
            CHECK(bd[j * 2 + i] == j * 100 + my * 10 + i, "alltoall64");
    shmem_barrier(start, logstride, size, psync2);
}

static void run_team(const struct team *tm, int salt)
{
    if (tm->t == SHMEM_TEAM_INVALID)
        return;
    CHECK(shmem_team_sync(tm->t) == 0, "team_sync");
    broadcasts(tm, salt);
    broadcast_storm(tm, salt);
    collects(tm, salt);
    alltoalls(tm, salt);
    reductions(tm, salt);
    scans(tm, salt);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    quick = npes > 8 || getenv("COLL_TEST_QUICK");
    big_a = shmem_malloc(MAXN * 32);
    big_b = shmem_malloc(MAXN * 32);
    ref = malloc(MAXN * 32);
    struct team teams[8];
    int nt = 0;
    teams[nt++] = (struct team){SHMEM_TEAM_WORLD, "world"};
    if (npes >= 2) {
        shmem_team_t evens, odds_rev, rows, cols, colour;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
        teams[nt++] = (struct team){evens, "evens"};
        shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1 - (npes % 2 == 0 ? 0 : 1), -2, npes / 2, NULL, 0,
                                 &odds_rev);
        teams[nt++] = (struct team){odds_rev, "odds-reversed"};
        shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &rows, NULL, 0, &cols);
        teams[nt++] = (struct team){rows, "2d-row"};
        teams[nt++] = (struct team){cols, "2d-column"};
        shmemx_team_split_color(SHMEM_TEAM_WORLD, me % 3 == 1 ? 1 : 0, npes - me, NULL, 0, &colour);
        teams[nt++] = (struct team){colour, "colour"};
    }
    for (int i = 0; i < nt; i++) {
        teams[i].my = shmem_team_my_pe(teams[i].t);
        teams[i].n = shmem_team_n_pes(teams[i].t);
    }
    shmem_barrier_all();
    int rounds = quick ? 1 : 2;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < nt; i++)
            run_team(&teams[i], r * 10 + i);
    shmem_barrier_all();
    active_set(0, 0, npes, 3);
    shmem_barrier_all();
    check_psync("active-set collectives on all PEs");
    shmem_barrier_all();   /* before anyone reuses the pSync */
    if (npes >= 3)
        active_set(1, 1, (npes - 1 + 1) / 2, 5);
    shmem_barrier_all();
    check_psync("active-set collectives on odd PEs");
    if (me == 0)
        printf("coll_test: %d PEs, %d teams: OK\n", npes, nt);
    shmem_finalize();
    return 0;
}
