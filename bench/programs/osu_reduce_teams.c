/* osu_reduce_teams - the OSU float sum-reduce benchmark in the two forms
 * of 000 section V-B:
 *   alg1_active_set    Algorithm 1: shmem_float_sum_to_all over all PEs,
 *                      alternating two pSync and two pWrk arrays;
 *   alg2_host_leaders  Algorithm 2: reduce inside SHMEM_TEAM_SHARED, then
 *                      among one leader per shared team (the seed's
 *                      SHMEMX_TEAM_HOST / SHMEMX_TEAM_LEADERS, built here
 *                      with standard 1.5 calls).
 * As in the seed, Algorithm 2 leaves the full sum on the leaders only.
 * Algorithm 1 needs the 1.4 active-set routines and Algorithm 2 the teams
 * API; each is skipped with a message when the library lacks it.
 * size is in bytes (4-byte floats); the figure is the mean over PEs. */
#include "coll_bench.h"

struct reduce_case {
    struct bench_ctx *c;
    float *src, *dst;      /* symmetric */
    size_t count;          /* floats per reduction */
    struct coll_sets sets; /* Algorithm 1's alternating pSync/pWrk */
#if BENCH_HAVE_TEAMS
    shmem_team_t shared;   /* the PEs sharing memory with this one */
    shmem_team_t leaders;  /* first PE of every shared team; INVALID elsewhere */
#endif
};

#if BENCH_HAVE_ACTIVE_SET
static void alg1_call(void *arg)
{
    struct reduce_case *k = arg;
    int set = coll_next_set(&k->sets);  /* back-to-back calls alternate, as Algorithm 1 does */
    shmem_float_sum_to_all(k->dst, k->src, (int)k->count, 0, 0, k->c->npes, k->sets.pwrk[set],
                           coll_psync[set]);
}
#endif

#if BENCH_HAVE_TEAMS
static void alg2_call(void *arg)
{
    struct reduce_case *k = arg;
    shmem_float_sum_reduce(k->shared, k->dst, k->src, k->count);
    if (k->leaders != SHMEM_TEAM_INVALID)
        shmem_float_sum_reduce(k->leaders, k->dst, k->dst, k->count);
}

/* Leaders = first PE of each shared team.  A strided split can only build
 * that team when shared teams are equal-sized blocks of consecutive PEs,
 * which is how launchers place PEs on hosts; 0 when that is not so. */
static int build_leaders(struct reduce_case *k)
{
    struct bench_ctx *c = k->c;
    int block, first, regular;
    k->shared = SHMEM_TEAM_SHARED;
    block = shmem_team_n_pes(k->shared);
    first = shmem_team_translate_pe(k->shared, 0, SHMEM_TEAM_WORLD);
    regular = block > 0 && c->npes % block == 0 && first == c->me - shmem_team_my_pe(k->shared) &&
              first % block == 0;
    if (!bench_all_agree(c, regular))
        return 0;
    return shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, block, c->npes / block, NULL, 0,
                                    &k->leaders) == 0;
}
#endif

/* src[i] = me + 1 + i % 7: the sum over PEs is exact in float for any
 * PE count this suite runs. */
static float expected_sum(int npes, size_t i)
{
    return (float)npes * (npes + 1) / 2 + (float)npes * (float)(i % 7);
}

static void fill_source(struct reduce_case *k)
{
    for (size_t i = 0; i < k->count; i++)
        k->src[i] = (float)(k->c->me + 1) + (float)(i % 7);
}

static void check_sum(struct reduce_case *k, const char *alg)
{
    long bad = -1;
    for (size_t i = 0; i < k->count && bad < 0; i++)
        if (k->dst[i] != expected_sum(k->c->npes, i))
            bad = (long)i;
    bench_check(k->c, bad < 0, "%s of %zu floats: element %ld is %g, expected %g", alg, k->count,
                bad, bad < 0 ? 0.0 : k->dst[bad], bad < 0 ? 0.0 : expected_sum(k->c->npes, bad));
}

static int holds_full_sum(const struct reduce_case *k, int result_everywhere)
{
#if BENCH_HAVE_TEAMS
    if (!result_everywhere)
        return k->leaders != SHMEM_TEAM_INVALID;
#endif
    (void)k;
    return result_everywhere;
}

static void sweep(struct reduce_case *k, const char *variant, void (*call)(void *),
                  int result_everywhere)
{
    struct bench_ctx *c = k->c;
    size_t min, max;
    bench_size_range(&c->o, 4, bench_by_mode(&c->o, 4096, 256 << 10, 1 << 20), &min, &max);
    for (size_t bytes = min; bytes <= max; bytes = bench_next_size(&c->o, bytes, max)) {
        struct bench_separated sep = { call, k, 0.0, 0, 0 };
        struct bench_timing t;
        k->count = bytes / sizeof(float);
        fill_source(k);
        t = bench_measure_separated(c, &sep, bench_by_mode(&c->o, 2, 100000, 500000));
        bench_emit(c, "sum_reduce", variant, bytes, "latency_us", bench_separated_mean_us(c, &sep),
                   t.iters);
        shmem_barrier_all();
        call(k);  /* one more call, whose result is checked */
        shmem_barrier_all();
        if (holds_full_sum(k, result_everywhere))
            check_sum(k, variant);
        if (bytes >= max)
            break;
    }
}

static void allocate(struct reduce_case *k)
{
    size_t max_bytes = 1 << 20;
    if (k->c->o.max_size > max_bytes)
        max_bytes = k->c->o.max_size;
    k->src = shmem_malloc(max_bytes);
    k->dst = shmem_malloc(max_bytes);
    if (!k->src || !k->dst) {
        fprintf(stderr, "osu_reduce_teams: shmem_malloc of 2 x %zu bytes failed\n", max_bytes);
        shmem_global_exit(2);
    }
    coll_sets_init(k->c, &k->sets, max_bytes / sizeof(float), sizeof(float));
}

int main(int argc, char **argv)
{
    struct bench_ctx c;
    struct reduce_case k = { 0 };
    bench_init(&c, "osu_reduce_teams", argc, argv);
    k.c = &c;
    allocate(&k);
#if BENCH_HAVE_ACTIVE_SET
    sweep(&k, "alg1_active_set", alg1_call, 1);
#else
    bench_skip(&c, "sum_reduce", "alg1_active_set needs the 1.4 active-set reductions");
#endif
#if BENCH_HAVE_TEAMS
    if (build_leaders(&k)) {
        sweep(&k, "alg2_host_leaders", alg2_call, 0);
        if (k.leaders != SHMEM_TEAM_INVALID)
            shmem_team_destroy(k.leaders);
    } else {
        bench_skip(&c, "sum_reduce", "alg2_host_leaders: shared teams are not regular blocks");
    }
#else
    bench_skip(&c, "sum_reduce", "alg2_host_leaders needs the OpenSHMEM 1.5 teams API");
#endif
    shmem_barrier_all();
    shmem_free(k.src);
    shmem_free(k.dst);
    coll_sets_free(&k.sets);
    return bench_finish(&c);
}
