/* collectives - latency vs size of barrier, broadcast, sum reduction,
 * collect, fcollect and alltoall over all PEs (003's collective figures;
 * the runner repeats it at every PE count asked for, and, for Shoal, once
 * per algorithm chosen through environment variables).
 *
 * OSU method (bench_loop_separated): a barrier before each call (not
 * timed), each PE times its own call, the figure is the mean over PEs
 * (latency_us); period_us beside it is the loop's time per call, barrier
 * included.  Barrier latency is the time of back-to-back barriers.
 * --api=teams uses the OpenSHMEM 1.5 team
 * routines, --api=active-set the 1.4 routines with pSync; the default
 * takes teams when the library has them.  size is in bytes: per PE for
 * collect/fcollect, per pair of PEs for alltoall, the whole array for
 * broadcast and reduce (8-byte longs).
 *
 * At 8 bytes each collective is also measured against the machine's floor
 * in the same processes (plain_sync.h through shmem_ptr), in short batches
 * alternating with the library's calls: variant "paired", metric
 * "ratio_to_floor", the median over batches of library / floor (the
 * fastest of its ways; "paired_<way>" against each).  On a VM
 * the cache line's trip moves 4x with where the vCPUs land, within one run;
 * a ratio to a floor measured beside it does not. */
#include "coll_bench.h"
#include "../common/plain_sync.h"

struct coll_case {
    struct bench_ctx *c;
    enum coll_api api;
    char *src, *dst;     /* symmetric, big enough for the largest size */
    struct coll_sets sets;  /* active-set API: alternating pSync/pWrk */
    size_t size;         /* bytes, see the header comment */
    long barrier_round;  /* for the barrier check */
    struct plain_shared *floor;   /* my copy of the plain-store floor's words, or NULL */
    int paired;                   /* every PE reaches PE 0's copy: measure against it */
    struct plain_proc floor_procs[V_VARIANTS];
};

struct coll_op {
    const char *name;
    void (*run)(struct coll_case *k);     /* one call on every PE */
    void (*verify)(struct coll_case *k);  /* one checked call */
    size_t max_size[3];                   /* per mode: verify, quick, full */
};

static size_t n_longs(const struct coll_case *k)
{
    return k->size / sizeof(long);
}

/* ---- one call of each collective, in either API ------------------------ */

static void run_barrier(struct coll_case *k)
{
    (void)k;
    shmem_barrier_all();
}

static void run_broadcast(struct coll_case *k)
{
#if BENCH_HAVE_TEAMS
    if (k->api == API_TEAMS) {
        shmem_broadcastmem(SHMEM_TEAM_WORLD, k->dst, k->src, k->size, 0);
        return;
    }
#endif
#if BENCH_HAVE_ACTIVE_SET
    shmem_broadcast64(k->dst, k->src, n_longs(k), 0, 0, 0, k->c->npes, coll_psync[coll_next_set(&k->sets)]);
#endif
}

static void run_reduce(struct coll_case *k)
{
#if BENCH_HAVE_TEAMS
    if (k->api == API_TEAMS) {
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, (long *)k->dst, (long *)k->src, n_longs(k));
        return;
    }
#endif
#if BENCH_HAVE_ACTIVE_SET
    int set = coll_next_set(&k->sets);
    shmem_long_sum_to_all((long *)k->dst, (long *)k->src, (int)n_longs(k), 0, 0, k->c->npes,
                          k->sets.pwrk[set], coll_psync[set]);
#endif
}

static void run_collect(struct coll_case *k)
{
#if BENCH_HAVE_TEAMS
    if (k->api == API_TEAMS) {
        shmem_collectmem(SHMEM_TEAM_WORLD, k->dst, k->src, k->size);
        return;
    }
#endif
#if BENCH_HAVE_ACTIVE_SET
    shmem_collect64(k->dst, k->src, n_longs(k), 0, 0, k->c->npes, coll_psync[coll_next_set(&k->sets)]);
#endif
}

static void run_fcollect(struct coll_case *k)
{
#if BENCH_HAVE_TEAMS
    if (k->api == API_TEAMS) {
        shmem_fcollectmem(SHMEM_TEAM_WORLD, k->dst, k->src, k->size);
        return;
    }
#endif
#if BENCH_HAVE_ACTIVE_SET
    shmem_fcollect64(k->dst, k->src, n_longs(k), 0, 0, k->c->npes, coll_psync[coll_next_set(&k->sets)]);
#endif
}

static void run_alltoall(struct coll_case *k)
{
#if BENCH_HAVE_TEAMS
    if (k->api == API_TEAMS) {
        shmem_alltoallmem(SHMEM_TEAM_WORLD, k->dst, k->src, k->size);
        return;
    }
#endif
#if BENCH_HAVE_ACTIVE_SET
    shmem_alltoall64(k->dst, k->src, n_longs(k), 0, 0, k->c->npes, coll_psync[coll_next_set(&k->sets)]);
#endif
}

/* ---- checked calls --------------------------------------------------------- */

static unsigned seed_of(const struct coll_case *k, int pe, int block)
{
    return (unsigned)(k->size * 5 + (size_t)pe * 131 + (size_t)block * 7);
}

/* Each PE leaves a token in its right neighbour before the barrier; after
 * it, the token from the left neighbour must be there. */
static void verify_barrier(struct coll_case *k)
{
    struct bench_ctx *c = k->c;
    long *token = (long *)k->dst;
    long round = ++k->barrier_round;
    int left = (c->me + c->npes - 1) % c->npes;
    shmem_barrier_all();
    shmem_long_p(token, round * 1000 + c->me, (c->me + 1) % c->npes);
    shmem_barrier_all();
    bench_check(c, *token == round * 1000 + left, "barrier: token %ld, expected %ld", *token,
                round * 1000 + left);
    shmem_barrier_all();
}

static void verify_broadcast(struct coll_case *k)
{
    struct bench_ctx *c = k->c;
    memset(k->dst, 0, k->size);
    bench_fill(k->src, k->size, seed_of(k, 0, 0));
    shmem_barrier_all();
    run_broadcast(k);
    shmem_barrier_all();
    if (c->me != 0 || k->api == API_TEAMS)  /* 1.4: the root's dst is untouched */
        bench_check_pattern(c, k->dst, k->size, seed_of(k, 0, 0), "broadcast", "from PE 0");
}

static void verify_reduce(struct coll_case *k)
{
    struct bench_ctx *c = k->c;
    long *src = (long *)k->src, *dst = (long *)k->dst, n = c->npes;
    long bad = -1;
    for (size_t i = 0; i < n_longs(k); i++)
        src[i] = c->me * 3 + (long)i;
    shmem_barrier_all();
    run_reduce(k);
    shmem_barrier_all();
    for (size_t i = 0; i < n_longs(k) && bad < 0; i++)
        if (dst[i] != 3 * n * (n - 1) / 2 + n * (long)i)
            bad = (long)i;
    bench_check(c, bad < 0, "sum reduce of %zu longs: element %ld is %ld, expected %ld",
                n_longs(k), bad, bad < 0 ? 0 : dst[bad], 3 * n * (n - 1) / 2 + n * bad);
}

/* collect and fcollect: block p of the result is PE p's contribution. */
static void verify_gather(struct coll_case *k, void (*run)(struct coll_case *), const char *name)
{
    struct bench_ctx *c = k->c;
    bench_fill(k->src, k->size, seed_of(k, c->me, 0));
    memset(k->dst, 0, k->size * (size_t)c->npes);
    shmem_barrier_all();
    run(k);
    shmem_barrier_all();
    for (int pe = 0; pe < c->npes; pe++)
        bench_check_pattern(c, k->dst + k->size * pe, k->size, seed_of(k, pe, 0), name,
                            "a PE's block");
}

static void verify_collect(struct coll_case *k)
{
    verify_gather(k, run_collect, "collect");
}

static void verify_fcollect(struct coll_case *k)
{
    verify_gather(k, run_fcollect, "fcollect");
}

/* Block j of PE i's source goes to block i of PE j's result. */
static void verify_alltoall(struct coll_case *k)
{
    struct bench_ctx *c = k->c;
    for (int j = 0; j < c->npes; j++)
        bench_fill(k->src + k->size * j, k->size, seed_of(k, c->me, j));
    memset(k->dst, 0, k->size * (size_t)c->npes);
    shmem_barrier_all();
    run_alltoall(k);
    shmem_barrier_all();
    for (int i = 0; i < c->npes; i++)
        bench_check_pattern(c, k->dst + k->size * i, k->size, seed_of(k, i, c->me), "alltoall",
                            "a PE's block");
}

/* ---- timing ----------------------------------------------------------------- */

struct coll_loop {
    struct coll_case *k;
    const struct coll_op *op;
};

static void call_once(void *arg)
{
    struct coll_loop *l = arg;
    l->op->run(l->k);
}

/* ---- against the machine's floor, in the same processes ------------------ */

enum { FLOOR_BATCHES = 7 };

/* Mean over PEs (valid on PE 0) of one call's microseconds over n calls,
 * timed by measure()'s own loops. */
static double library_batch(struct coll_case *k, const struct coll_op *op, long n)
{
    struct coll_loop l = { k, op };
    if (op->run == run_barrier) {
        struct coll_call back_to_back = { call_once, &l };
        return bench_mean_over_pes(k->c, coll_loop_back_to_back(&back_to_back, n) / n * 1e6);
    }
    struct bench_separated sep = { call_once, &l, 0.0, 0, 1 };
    bench_loop_separated(&sep, n);
    return bench_separated_mean_us(k->c, &sep);
}

/* Each way of the plain form, us per call (valid on PE 0); returns the
 * fastest.  Each way has its own shared words: a counter barrier counts
 * every barrier run on them. */
static double floor_batch(struct coll_case *k, enum plain_form form, long n, double us[V_VARIANTS])
{
    double best = 1e300;
    for (int v = 0; v < V_VARIANTS; v++) {
        struct plain_proc *p = &k->floor_procs[v];
        shmem_barrier_all();
        plain_run(p, form, n);
        shmem_barrier_all();   /* every process's seconds written */
        us[v] = plain_mean_seconds(p->s, p->n, n) * 1e6;
        if (us[v] < best)
            best = us[v];
    }
    return best;
}

static enum plain_form floor_form(const struct coll_op *op)
{
    if (op->run == run_barrier)
        return PLAIN_BARRIER;
    return strcmp(op->name, "broadcast") == 0 ? PLAIN_BROADCAST : PLAIN_REDUCE;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return v[n / 2];
}

/* "paired": against the fastest way; "paired_<way>" against each way.
 * They differ most for a broadcast, whose fastest way is first_leaves: the
 * call then starts with its root already gone, the members' wait for it
 * spent in the untimed barrier instead (the period, barrier and call, is
 * the same), while a library's call follows the library's own barrier. */
static void against_floor(struct coll_case *k, const struct coll_op *op)
{
    struct bench_ctx *c = k->c;
    long n = 4000 / c->npes;
    n = c->o.mode == BENCH_VERIFY ? 5 : n < 50 ? 50 : n > 2000 ? 2000 : n;   /* verify: the floor's results checked */
    double ratio[FLOOR_BATCHES], by_way[V_VARIANTS][FLOOR_BATCHES];
    for (int b = 0; b < FLOOR_BATCHES; b++) {
        double lib = library_batch(k, op, n), us[V_VARIANTS];
        ratio[b] = lib / floor_batch(k, floor_form(op), n, us);
        for (int v = 0; v < V_VARIANTS; v++)
            by_way[v][b] = lib / us[v];
    }
    bench_emit(c, op->name, "paired", k->size, "ratio_to_floor", median_of(ratio, FLOOR_BATCHES), n);
    for (int v = 0; v < V_VARIANTS; v++) {
        char variant[48];
        snprintf(variant, sizeof variant, "paired_%s", plain_variant_name[v]);
        bench_emit(c, op->name, variant, k->size, "ratio_to_floor", median_of(by_way[v], FLOOR_BATCHES), n);
    }
    long bad = 0;
    for (int v = 0; v < V_VARIANTS; v++)
        bad += k->floor_procs[v].s->bad;
    bench_check(c, bad == 0, "plain-store floor of %s: %ld wrong results", op->name, bad);
}

/* The floor's words: PE 0's copy, which every PE reaches by shmem_ptr;
 * none when some PE cannot (then no paired figures). */
static void floor_setup(struct coll_case *k)
{
    struct bench_ctx *c = k->c;
    if (c->npes < 2 || c->npes > PLAIN_MAX_PROCS)
        return;
    struct plain_shared *mine = shmem_malloc(V_VARIANTS * sizeof *mine);
    if (mine)
        memset(mine, 0, V_VARIANTS * sizeof *mine);
    struct plain_shared *s = mine ? shmem_ptr(mine, 0) : NULL;
    k->floor = mine;
    if (!bench_all_agree(c, s != NULL))
        return;
    for (int v = 0; v < V_VARIANTS; v++)
        k->floor_procs[v] = (struct plain_proc){s + v, c->me, c->npes, v == V_FIRST_LEAVES, v == V_DISSEMINATION, 0, 0};
    k->paired = 1;
}

static void measure(struct coll_case *k, const struct coll_op *op)
{
    struct bench_ctx *c = k->c;
    struct coll_loop l = { k, op };
    struct coll_call back_to_back = { call_once, &l };
    struct bench_separated sep = { call_once, &l, 0.0, 0, 0 };
    long max_iters = bench_by_mode(&c->o, 2, 100000, 500000);
    struct bench_timing t;
    double mean_us;
    if (op->run == run_barrier) {  /* back-to-back: a barrier cannot be separated by barriers */
        t = bench_measure(c, coll_loop_back_to_back, &back_to_back, max_iters);
        mean_us = bench_mean_over_pes(c, t.seconds / t.iters * 1e6);
    } else {
        t = bench_measure_separated(c, &sep, max_iters);
        mean_us = bench_separated_mean_us(c, &sep);
    }
    bench_emit(c, op->name, "", k->size, "latency_us", mean_us, t.iters);
    /* The loop's period, a barrier and a call.  A member of a team call
     * waits in the call for the last to arrive, while a 1.4 call whose
     * dests are ready by promise leaves that wait to the next barrier, so
     * the call times of the two forms split one period differently. */
    if (op->run != run_barrier)
        bench_emit(c, op->name, "", k->size, "period_us", bench_mean_over_pes(c, t.seconds / t.iters * 1e6),
                   t.iters);
    if (k->size == sizeof(long) && k->paired)
        against_floor(k, op);
    op->verify(k);
}

static const struct coll_op coll_ops[] = {
    { "barrier", run_barrier, verify_barrier, { 8, 8, 8 } },
    { "broadcast", run_broadcast, verify_broadcast, { 4096, 1 << 20, 4 << 20 } },
    { "reduce", run_reduce, verify_reduce, { 4096, 512 << 10, 8 << 20 } },
    { "collect", run_collect, verify_collect, { 1024, 64 << 10, 1 << 20 } },
    { "fcollect", run_fcollect, verify_fcollect, { 1024, 64 << 10, 1 << 20 } },
    { "alltoall", run_alltoall, verify_alltoall, { 1024, 64 << 10, 256 << 10 } },
};
#define N_COLL_OPS (sizeof coll_ops / sizeof coll_ops[0])

static size_t max_size_of(const struct bench_ctx *c, const struct coll_op *op)
{
    size_t max = op->max_size[c->o.mode];
    return c->o.max_size && c->o.max_size < max ? c->o.max_size : max;
}

static void sweep(struct coll_case *k, const struct coll_op *op)
{
    struct bench_ctx *c = k->c;
    size_t max = max_size_of(c, op);
    size_t min = c->o.min_size > sizeof(long) ? c->o.min_size / sizeof(long) * sizeof(long)
                                              : sizeof(long);
    if (min > max)
        min = max;
    for (k->size = min; k->size <= max; k->size = bench_next_size(&c->o, k->size, max)) {
        measure(k, op);
        if (k->size >= max)
            break;
    }
}

/* ---- set-up --------------------------------------------------------------- */

static void allocate(struct coll_case *k, const char *only)
{
    struct bench_ctx *c = k->c;
    size_t bytes = 0, reduce_longs = 0;
    for (size_t i = 0; i < N_COLL_OPS; i++) {
        size_t max = max_size_of(c, &coll_ops[i]);
        if (only && strcmp(only, coll_ops[i].name) != 0)
            continue;
        if (max * (size_t)c->npes > bytes)
            bytes = max * (size_t)c->npes;
        if (coll_ops[i].run == run_reduce)
            reduce_longs = max / sizeof(long);
    }
    k->src = shmem_malloc(bytes);
    k->dst = shmem_malloc(bytes);
    if (!k->src || !k->dst) {
        fprintf(stderr, "collectives: shmem_malloc of 2 x %zu bytes failed\n", bytes);
        shmem_global_exit(2);
    }
    memset(k->src, 0, bytes);
    coll_sets_init(c, &k->sets, reduce_longs, sizeof(long));
}

int main(int argc, char **argv)
{
    struct bench_ctx c;
    struct coll_case k = { 0 };
    const char *only;

    bench_init(&c, "collectives", argc, argv);
    only = bench_arg_str(argc, argv, "op");  /* measure a single collective */
    k.c = &c;
    k.api = coll_choose_api(&c);
    bench_tag_str(&c.tags, "api", k.api == API_TEAMS ? "teams" : "active-set");
    allocate(&k, only);
    floor_setup(&k);
    for (size_t i = 0; i < N_COLL_OPS; i++)
        if ((!only || strcmp(only, coll_ops[i].name) == 0) &&
            !bench_skip_requested(&c, coll_ops[i].name, ""))
            sweep(&k, &coll_ops[i]);
    shmem_barrier_all();
    shmem_free(k.src);
    shmem_free(k.dst);
    if (k.floor)
        shmem_free(k.floor);
    coll_sets_free(&k.sets);
    return bench_finish(&c);
}
