/* team_create - the team-creation latency experiment of the teams paper
 * (000, Fig. 3): each iteration creates 64 teams with
 * shmem_team_split_strided from SHMEM_TEAM_WORLD, then destroys them;
 *   dup      every team duplicates WORLD;
 *   halving  team i has stride 2^(i mod L) over WORLD, {0..N-1}, {0,2,4..},
 *            {0,4,8..} .. down to one PE, then again (L = floor(log2 N) + 1).
 * Reported: mean time per creation (create_us, mean over PEs) and, when the
 * library exposes it, the part spent in the pSync-availability bitmask
 * reduction (bitmask_us; Shoal's shoal_team_bitmask_seconds, found through a
 * weak reference so the program builds and runs with any OpenSHMEM 1.5).
 * Destruction is timed separately (destroy_us). */
#include "bench.h"

#define TEAMS_PER_ITER 64

/* Shoal's counter of seconds in the bitmask reduction; NULL elsewhere. */
extern double shoal_team_bitmask_seconds(void) __attribute__((weak));

static double bitmask_now(void)
{
    return shoal_team_bitmask_seconds ? shoal_team_bitmask_seconds() : 0.0;
}

#if BENCH_HAVE_TEAMS
struct create_case {
    struct bench_ctx *c;
    int halving;
    int failed;              /* a split failed (library limit): skip the figure */
    double bitmask_s;        /* reduction seconds inside the timed creations */
    double destroy_s;
    shmem_team_t teams[TEAMS_PER_ITER];
};

static int log2_floor(int n)
{
    int l = 0;
    while ((2 << l) <= n)
        l++;
    return l;
}

static int create_one(struct create_case *k, int i)
{
    int n = k->c->npes, stride = 1;
    if (k->halving)
        stride = 1 << (i % (log2_floor(n) + 1));
    return shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, stride, (n + stride - 1) / stride, NULL, 0,
                                    &k->teams[i]);
}

/* Every PE times its own creations (creation is collective over WORLD, so
 * all PEs run the same count). */
static double loop_create(void *arg, long iters)
{
    struct create_case *k = arg;
    double total = 0;
    for (long it = 0; it < iters; it++) {
        int made = 0;
        shmem_barrier_all();
        double b0 = bitmask_now(), t0 = bench_now();
        while (made < TEAMS_PER_ITER && create_one(k, made) == 0)
            made++;
        total += bench_now() - t0;
        k->bitmask_s += bitmask_now() - b0;
        if (made < TEAMS_PER_ITER)
            k->failed = 1;
        double d0 = bench_now();
        for (int i = made - 1; i >= 0; i--)
            shmem_team_destroy(k->teams[i]);
        k->destroy_s += bench_now() - d0;
    }
    return total;
}

/* bench_measure calibrates the iteration count (and warms up); the figure
 * comes from one more run of that count, so the bitmask and destroy
 * counters cover exactly the timed creations. */
static void run(struct bench_ctx *c, int halving, long max_iters)
{
    const char *variant = halving ? "halving" : "dup";
    struct create_case k = {.c = c, .halving = halving};
    long iters = bench_measure(c, loop_create, &k, max_iters).iters;
    k.bitmask_s = k.destroy_s = 0;
    double seconds = loop_create(&k, iters);
    if (!bench_all_agree(c, !k.failed)) {
        bench_skip(c, variant, "team creation failed (library team limit below 64?)");
        return;
    }
    long creations = iters * TEAMS_PER_ITER;
    double create_us = bench_mean_over_pes(c, seconds / creations * 1e6);
    double destroy_us = bench_mean_over_pes(c, k.destroy_s / creations * 1e6);
    bench_emit(c, "create", variant, 0, "create_us", create_us, creations);
    bench_emit(c, "destroy", variant, 0, "destroy_us", destroy_us, creations);
    if (shoal_team_bitmask_seconds) {
        double bitmask_us = bench_mean_over_pes(c, k.bitmask_s / creations * 1e6);
        bench_emit(c, "create", variant, 0, "bitmask_us", bitmask_us, creations);
    } else {
        bench_skip(c, "bitmask", "the library does not expose its bitmask reduction time");
    }
}
#endif

int main(int argc, char **argv)
{
    struct bench_ctx c;
    bench_init(&c, "team_create", argc, argv);
#if BENCH_HAVE_TEAMS
    bench_tag_long(&c.tags, "teams_per_iter", TEAMS_PER_ITER);
    long max_iters = bench_by_mode(&c.o, 2, 200, 1000);   /* the paper: 1000 iterations */
    run(&c, 0, max_iters);
    run(&c, 1, max_iters);
#else
    bench_skip(&c, "create", "the library predates OpenSHMEM 1.5 teams");
#endif
    return bench_finish(&c);
}
