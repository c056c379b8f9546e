/* reduce_algorithms - the reduction study of seed 004 §5 (Fig. 7-10):
 * latency of an int sum all-reduce over all PEs against the array size,
 * 1 to 2^20 ints (the paper's "block size"; size below is in bytes).
 *
 * The program runs whatever algorithm the library picks.  The runner
 * repeats it for Shoal once per SHMEM_REDUCE_ALGORITHM value (flat, recdbl,
 * bruck, rsag: the paper's FT, RD, BR, RSAG; also ring), each with load/store
 * through shmem_ptr (Shoal's default on one host) and with put/get only
 * (SHOAL_COLL_NO_LOADSTORE=1): Fig. 8 and 9.  The peer runs it once with its
 * own choice, the MPI baselines of Fig. 7 and 10.
 *
 * Timing: back-to-back calls with nothing in between (coll_bench.h's
 * coll_loop_back_to_back: as applications such as NAS IS issue them, so an
 * algorithm that leaves work for the next call pays for it), all PEs
 * starting together after a barrier; the figure is the slowest PE's mean
 * time per call.  This is the
 * method of the constants in Shoal's src/coll/select.c; the collectives
 * program gives the OSU form (a barrier before every call).
 *
 * Checks, at every size: BACK_TO_BACK_CHECKS calls in a row, each from its
 * own source into its own result, compared with the sum computed here; the
 * sources must come back unchanged.  --verify-only adds odd element counts
 * (uneven chunks for the halving algorithms).  --api=active-set uses
 * shmem_int_sum_to_all (the default when the library has no teams). */
#include "coll_bench.h"

enum { BACK_TO_BACK_CHECKS = 3 };

/* Element counts checked in --verify-only besides the powers of two. */
static const size_t odd_counts[] = { 3, 7, 33, 1001 };

struct reduction {
    struct bench_ctx *c;
    enum coll_api api;
    int *src, *dst;     /* symmetric, BACK_TO_BACK_CHECKS arrays of max_count each */
    struct coll_sets sets;  /* active-set API: alternating pSync/pWrk */
    size_t max_count;
    size_t count;       /* ints per call */
};

/* One call on every PE: dst[0..count) = sum over PEs of src[0..count). */
static void reduce_once(struct reduction *r, int *dst, const int *src)
{
#if BENCH_HAVE_TEAMS
    if (r->api == API_TEAMS) {
        shmem_int_sum_reduce(SHMEM_TEAM_WORLD, dst, src, r->count);
        return;
    }
#endif
#if BENCH_HAVE_ACTIVE_SET
    int set = coll_next_set(&r->sets);
    shmem_int_sum_to_all(dst, src, (int)r->count, 0, 0, r->c->npes, r->sets.pwrk[set], coll_psync[set]);
#endif
}

/* ---- checks ------------------------------------------------------------- */

/* PE pe's element i for call k: small enough that the sum of 2^20 elements
 * over any sensible PE count stays inside an int. */
static int element(int pe, size_t i, int k)
{
    return pe * 3 + (int)(i % 1000) + k * 7;
}

static int expected_sum(int npes, size_t i, int k)
{
    return 3 * npes * (npes - 1) / 2 + npes * ((int)(i % 1000) + k * 7);
}

static void check_result(struct reduction *r, const int *dst, const int *src, int k)
{
    struct bench_ctx *c = r->c;
    long bad_sum = -1, bad_src = -1;
    size_t at;
    for (size_t i = 0; i < r->count && bad_sum < 0; i++)
        if (dst[i] != expected_sum(c->npes, i, k))
            bad_sum = (long)i;
    for (size_t i = 0; i < r->count && bad_src < 0; i++)
        if (src[i] != element(c->me, i, k))
            bad_src = (long)i;
    at = bad_sum < 0 ? 0 : (size_t)bad_sum;
    bench_check(c, bad_sum < 0, "sum of %zu ints, call %d of %d in a row: element %zu is %d, "
                "expected %d", r->count, k + 1, BACK_TO_BACK_CHECKS, at, dst[at],
                expected_sum(c->npes, at, k));
    at = bad_src < 0 ? 0 : (size_t)bad_src;
    bench_check(c, bad_src < 0, "sum of %zu ints changed its source: element %zu is %d, "
                "expected %d", r->count, at, src[at], element(c->me, at, k));
}

/* Calls in a row with nothing between them, as in the timed loop, so a
 * call that still uses a partner's buffers from the previous one shows. */
static void verify(struct reduction *r)
{
    struct bench_ctx *c = r->c;
    for (int k = 0; k < BACK_TO_BACK_CHECKS; k++) {
        int *src = r->src + (size_t)k * r->max_count, *dst = r->dst + (size_t)k * r->max_count;
        for (size_t i = 0; i < r->count; i++) {
            src[i] = element(c->me, i, k);
            dst[i] = -1;
        }
    }
    shmem_barrier_all();
    for (int k = 0; k < BACK_TO_BACK_CHECKS; k++)
        reduce_once(r, r->dst + (size_t)k * r->max_count, r->src + (size_t)k * r->max_count);
    shmem_barrier_all();
    for (int k = 0; k < BACK_TO_BACK_CHECKS; k++)
        check_result(r, r->dst + (size_t)k * r->max_count, r->src + (size_t)k * r->max_count, k);
    shmem_barrier_all();
}

/* ---- timing --------------------------------------------------------------- */

static void timed_call(void *arg)
{
    struct reduction *r = arg;
    reduce_once(r, r->dst, r->src);
}

static void measure(struct reduction *r)
{
    struct bench_ctx *c = r->c;
    long max_iters = bench_by_mode(&c->o, 2, 200000, 1000000);
    struct coll_call call = { timed_call, r };
    struct bench_timing t = bench_measure(c, coll_loop_back_to_back, &call, max_iters);
    double slowest_us = bench_max_over_pes(c, t.seconds / t.iters * 1e6);
    bench_emit(c, "int_sum_reduce", "", r->count * sizeof(int), "latency_us", slowest_us,
               t.iters);
}

/* ---- set-up --------------------------------------------------------------- */

static void allocate(struct reduction *r)
{
    size_t ints = r->max_count * BACK_TO_BACK_CHECKS;
    r->src = shmem_malloc(ints * sizeof(int));
    r->dst = shmem_malloc(ints * sizeof(int));
    if (!r->src || !r->dst) {
        fprintf(stderr, "reduce_algorithms: shmem_malloc of 2 x %zu ints failed\n", ints);
        shmem_global_exit(2);
    }
    memset(r->src, 0, ints * sizeof(int));
    coll_sets_init(r->c, &r->sets, r->max_count, sizeof(int));
}

/* The paper's sweep: powers of two from 1 int, in bytes. */
static void sweep(struct reduction *r, size_t min_bytes, size_t max_bytes)
{
    struct bench_ctx *c = r->c;
    for (size_t bytes = min_bytes; bytes <= max_bytes;
         bytes = bench_next_size(&c->o, bytes, max_bytes)) {
        r->count = bytes / sizeof(int);
        measure(r);
        verify(r);
        if (bytes >= max_bytes)
            break;
    }
    if (c->o.mode != BENCH_VERIFY)
        return;
    for (size_t i = 0; i < sizeof odd_counts / sizeof odd_counts[0]; i++)
        if (odd_counts[i] <= r->max_count) {
            r->count = odd_counts[i];
            verify(r);
        }
}

/* Algorithm actually asked for, echoed in every line (a tag, not part of
 * the figure's key: the runner's label names the run). */
static void tag_settings(struct bench_ctx *c, enum coll_api api)
{
    const char *alg = getenv("SHMEM_REDUCE_ALGORITHM");
    const char *no_ls = getenv("SHOAL_COLL_NO_LOADSTORE");
    bench_tag_str(&c->tags, "api", api == API_TEAMS ? "teams" : "active-set");
    bench_tag_str(&c->tags, "algorithm", alg && *alg ? alg : "library default");
    bench_tag_str(&c->tags, "transfer", no_ls && strcmp(no_ls, "0") && strcmp(no_ls, "off")
                  ? "put/get" : "library default");
}

int main(int argc, char **argv)
{
    struct bench_ctx c;
    struct reduction r = { 0 };
    size_t min_bytes, max_bytes;

    bench_init(&c, "reduce_algorithms", argc, argv);
    r.c = &c;
    r.api = coll_choose_api(&c);
    tag_settings(&c, r.api);
    bench_size_range(&c.o, sizeof(int), (size_t)bench_by_mode(&c.o, 4096, 512 << 10, 4 << 20),
                     &min_bytes, &max_bytes);
    min_bytes = min_bytes < sizeof(int) ? sizeof(int) : min_bytes / sizeof(int) * sizeof(int);
    max_bytes = max_bytes < min_bytes ? min_bytes : max_bytes / sizeof(int) * sizeof(int);
    r.max_count = max_bytes / sizeof(int);
    if (c.o.mode == BENCH_VERIFY && r.max_count < 1001)
        r.max_count = 1001;  /* room for the odd counts */
    allocate(&r);
    sweep(&r, min_bytes, max_bytes);
    shmem_barrier_all();
    shmem_free(r.src);
    shmem_free(r.dst);
    coll_sets_free(&r.sets);
    return bench_finish(&c);
}
