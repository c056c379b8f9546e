/* team_create - team creation latency (000 Figure 3): a series of
 * shmem_team_split_strided calls from SHMEM_TEAM_WORLD, then all the
 * teams destroyed, repeated; the figure is the mean time per creation.
 *
 *   create_dup      every split duplicates the world team;
 *   create_halving  the i-th split takes stride 2^i (teams {0..N-1},
 *                   {0,2,4..}, {0,4,8..}, ... repeating), so fewer PEs
 *                   join each new team while all PEs of the parent call;
 *   destroy         mean time per shmem_team_destroy.
 * The "teams" field of each line is the number of teams created per round
 * (the seed used 64); size is 0.
 * Needs the OpenSHMEM 1.5 teams API; prints a skip line without it. */
#include "bench.h"

#if BENCH_HAVE_TEAMS

#define MAX_TEAMS 256

struct team_case {
    struct bench_ctx *c;
    int halving;              /* 0: duplicate world; 1: halving strides */
    int teams;                /* teams per round */
    int created;              /* teams the last round managed to create */
    shmem_team_t handle[MAX_TEAMS];
    double destroy_seconds;   /* accumulated by the creation loop */
    long destroyed;
};

/* Stride of the i-th split: 1 for duplicates, else 2^i below n_pes. */
static int stride_of(const struct team_case *k, int i)
{
    int levels = 1;
    if (!k->halving)
        return 1;
    while ((1 << levels) < k->c->npes)
        levels++;
    return 1 << (i % levels);
}

static int size_of(const struct team_case *k, int stride)
{
    return (k->c->npes + stride - 1) / stride;
}

static void destroy_all(struct team_case *k)
{
    double t0 = bench_now();
    for (int i = 0; i < k->created; i++)
        if (k->handle[i] != SHMEM_TEAM_INVALID)
            shmem_team_destroy(k->handle[i]);
    k->destroy_seconds += bench_now() - t0;
    k->destroyed += k->created;
}

/* One round: create k->teams teams (stopping early, on every PE alike,
 * if the library runs out of teams), time it, then destroy them. */
static double create_round(struct team_case *k)
{
    double t0, elapsed;
    shmem_barrier_all();
    t0 = bench_now();
    for (k->created = 0; k->created < k->teams; k->created++) {
        int stride = stride_of(k, k->created);
        if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, stride, size_of(k, stride), NULL, 0,
                                     &k->handle[k->created]) != 0)
            break;
    }
    elapsed = bench_now() - t0;
    shmem_barrier_all();
    destroy_all(k);
    return elapsed;
}

/* Timed loop: iters rounds; returns creation time per round summed. */
static double loop_rounds(void *arg, long iters)
{
    struct team_case *k = arg;
    double total = 0;
    for (long i = 0; i < iters; i++)
        total += create_round(k);
    return total;
}

/* Every team has the expected members, in order. */
static void verify_round(struct team_case *k)
{
    struct bench_ctx *c = k->c;
    shmem_barrier_all();
    for (k->created = 0; k->created < k->teams; k->created++) {
        int stride = stride_of(k, k->created), size = size_of(k, stride);
        shmem_team_t t;
        int member = c->me % stride == 0;
        if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, stride, size, NULL, 0, &t) != 0)
            break;
        k->handle[k->created] = t;
        bench_check(c, member == (t != SHMEM_TEAM_INVALID), "team %d (stride %d): membership",
                    k->created, stride);
        if (member && t != SHMEM_TEAM_INVALID) {
            bench_check(c, shmem_team_n_pes(t) == size, "team %d: %d PEs, expected %d",
                        k->created, shmem_team_n_pes(t), size);
            bench_check(c, shmem_team_my_pe(t) == c->me / stride, "team %d: my index %d, want %d",
                        k->created, shmem_team_my_pe(t), c->me / stride);
            bench_check(c, shmem_team_translate_pe(t, size - 1, SHMEM_TEAM_WORLD) ==
                               (size - 1) * stride,
                        "team %d: last member translates wrongly", k->created);
        }
    }
    bench_check(c, k->created == k->teams, "only %d of %d teams could be created", k->created,
                k->teams);
    shmem_barrier_all();
    destroy_all(k);
}

static void measure(struct team_case *k, const char *op)
{
    struct bench_ctx *c = k->c;
    struct bench_timing t;
    double per_team_us, destroy_us;
    k->destroy_seconds = 0, k->destroyed = 0;
    t = bench_measure(c, loop_rounds, k, bench_by_mode(&c->o, 1, 1000, 1000));
    per_team_us = t.seconds / ((double)t.iters * (k->created ? k->created : 1)) * 1e6;
    destroy_us = k->destroy_seconds / (k->destroyed ? k->destroyed : 1) * 1e6;
    bench_emit(c, op, "", 0, "latency_us", bench_mean_over_pes(c, per_team_us), t.iters);
    if (!k->halving)
        bench_emit(c, "destroy", "", 0, "latency_us", bench_mean_over_pes(c, destroy_us), t.iters);
    if (k->created < k->teams)
        bench_skip(c, op, "the library ran out of teams before the round was complete");
    verify_round(k);
}

int main(int argc, char **argv)
{
    struct bench_ctx c;
    struct team_case k = { 0 };
    bench_init(&c, "team_create", argc, argv);
    k.c = &c;
    k.teams = (int)bench_arg_long(argc, argv, "teams", bench_by_mode(&c.o, 4, 32, 64));
    if (k.teams > MAX_TEAMS)
        k.teams = MAX_TEAMS;
    bench_tag_long(&c.tags, "teams", k.teams);
    k.halving = 0;
    measure(&k, "create_dup");
    k.halving = 1;
    measure(&k, "create_halving");
    return bench_finish(&c);
}

#else /* no teams API */

int main(int argc, char **argv)
{
    struct bench_ctx c;
    bench_init(&c, "team_create", argc, argv);
    bench_skip(&c, "create_dup", "needs the OpenSHMEM 1.5 teams API");
    bench_skip(&c, "create_halving", "needs the OpenSHMEM 1.5 teams API");
    return bench_finish(&c);
}

#endif
