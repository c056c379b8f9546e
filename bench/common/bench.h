/* bench.h - what every OpenSHMEM benchmark program shares: start-up,
 * agreeing on iteration counts, timing loops, gathering per-PE figures,
 * verification bookkeeping and small reductions for the application
 * kernels.  Only standard OpenSHMEM 1.4/1.5 API is used, so the programs
 * build with any library's oshcc. */
#ifndef BENCH_H
#define BENCH_H

#include "bench_core.h"
#include <shmem.h>

/* The specification version the library's shmem.h declares, as 104, 105...
 * Features newer than 1.4 (teams, nonblocking fetching AMOs) are detected
 * from it at compile time; programs print a skip line when they are
 * missing. */
#if defined(SHMEM_MAJOR_VERSION) && defined(SHMEM_MINOR_VERSION)
#define BENCH_SPEC_VERSION (SHMEM_MAJOR_VERSION * 100 + SHMEM_MINOR_VERSION)
#else
#define BENCH_SPEC_VERSION 0
#endif

#if BENCH_SPEC_VERSION >= 105
#define BENCH_HAVE_TEAMS 1
#define BENCH_HAVE_NBI_AMO 1
#else
#define BENCH_HAVE_TEAMS 0
#define BENCH_HAVE_NBI_AMO 0
#endif

/* The 1.4 active-set collectives are deprecated since 1.5; a library may
 * drop them, so use them only when their constants exist. */
#if defined(SHMEM_REDUCE_SYNC_SIZE) && defined(SHMEM_BCAST_SYNC_SIZE) && \
    defined(SHMEM_COLLECT_SYNC_SIZE) && defined(SHMEM_ALLTOALL_SYNC_SIZE)
#define BENCH_HAVE_ACTIVE_SET 1
#else
#define BENCH_HAVE_ACTIVE_SET 0
#endif

#define BENCH_MAX_REPORTED_FAILURES 10

struct bench_ctx {
    const char *name;        /* "bench" field of every result line */
    int me, npes;
    struct bench_opts o;
    struct bench_tags tags;  /* appended to every result line */
    long failures;           /* local verification failures */
    /* Symmetric gather slots, npes entries each, read on PE 0; two sets
     * used in turn for the same reason as bench_agreed_value. */
    double *gather_doubles[2];
    long *gather_longs[2];
    int gather_turn;
};

/* Symmetric slots through which PE 0 hands a decision to every PE.  Two
 * of them, used in turn, so that one barrier per agreement suffices: PE 0
 * can only overwrite a slot two agreements later, after a barrier every
 * PE entered once it had read it. */
static long bench_agreed_value[2];
static int bench_agree_turn;

static inline void bench_print_library(const struct bench_ctx *c)
{
    char name[SHMEM_MAX_NAME_LEN + 1] = "";
    int major = 0, minor = 0;
    shmem_info_get_name(name);
    shmem_info_get_version(&major, &minor);
    for (char *p = name; *p; p++)  /* keep the JSON line valid */
        if (*p == '"' || *p == '\\')
            *p = '\'';
    printf("{\"bench\":\"%s\",\"info\":\"library\",\"name\":\"%s\",\"spec\":\"%d.%d\","
           "\"teams\":%d,\"mode\":\"%s\",\"pes\":%d}\n",
           c->name, name, major, minor, BENCH_HAVE_TEAMS, bench_mode_name(c->o.mode), c->npes);
}

static inline void bench_init(struct bench_ctx *c, const char *name, int argc, char **argv)
{
    bench_core_init();
    memset(c, 0, sizeof *c);
    shmem_init();
    c->name = name;
    c->me = shmem_my_pe();
    c->npes = shmem_n_pes();
    c->o = bench_parse_opts(argc, argv);
    for (int t = 0; t < 2; t++) {
        c->gather_doubles[t] = shmem_malloc(sizeof(double) * (size_t)c->npes);
        c->gather_longs[t] = shmem_malloc(sizeof(long) * (size_t)c->npes);
    }
    if (!c->gather_doubles[0] || !c->gather_doubles[1] || !c->gather_longs[0] ||
        !c->gather_longs[1]) {
        fprintf(stderr, "%s: shmem_malloc of %d gather slots failed\n", name, c->npes);
        shmem_global_exit(2);
    }
    if (c->me == 0)
        bench_print_library(c);
    shmem_barrier_all();
}

/* ---- agreement and gathers (built on put + barrier only, so they do not
 * depend on the collectives being measured) ---------------------------- */

/* Every PE returns PE 0's value. */
static inline long bench_agree_long(struct bench_ctx *c, long value_on_root)
{
    long *slot = &bench_agreed_value[bench_agree_turn ^= 1];
    if (c->me == 0)
        for (int pe = 0; pe < c->npes; pe++)
            shmem_long_p(slot, value_on_root, pe);
    shmem_barrier_all();  /* completes the puts */
    return *slot;
}

/* PE 0 receives every PE's value; returns the slots (valid on PE 0). */
static inline double *bench_gather_double(struct bench_ctx *c, double v)
{
    double *slots = c->gather_doubles[c->gather_turn ^= 1];
    shmem_double_p(&slots[c->me], v, 0);
    shmem_barrier_all();
    return slots;
}

static inline long *bench_gather_long(struct bench_ctx *c, long v)
{
    long *slots = c->gather_longs[c->gather_turn ^= 1];
    shmem_long_p(&slots[c->me], v, 0);
    shmem_barrier_all();
    return slots;
}

/* Mean over all PEs, valid on PE 0 (the OSU convention for collectives). */
static inline double bench_mean_over_pes(struct bench_ctx *c, double v)
{
    double sum = 0, *all = bench_gather_double(c, v);
    for (int pe = 0; pe < c->npes; pe++)
        sum += all[pe];
    return sum / c->npes;
}

static inline double bench_max_over_pes(struct bench_ctx *c, double v)
{
    double max = -1e300, *all = bench_gather_double(c, v);
    for (int pe = 0; pe < c->npes; pe++)
        if (all[pe] > max)
            max = all[pe];
    return max;
}

static inline double bench_sum_over_pes(struct bench_ctx *c, double v)
{
    double sum = 0, *all = bench_gather_double(c, v);
    for (int pe = 0; pe < c->npes; pe++)
        sum += all[pe];
    return sum;
}

/* 1 on every PE when ok is true on every PE. */
static inline int bench_all_agree(struct bench_ctx *c, int ok)
{
    long all_ok = 1, *all = bench_gather_long(c, ok ? 1 : 0);
    if (c->me == 0)
        for (int pe = 0; pe < c->npes; pe++)
            all_ok &= all[pe];
    return (int)bench_agree_long(c, all_ok);
}

/* ---- timing ----------------------------------------------------------- */

/* A timed loop runs `iters` iterations of one figure on every PE (all PEs
 * call it, whatever their role) and returns the seconds this PE measured. */
typedef double (*bench_loop_fn)(void *state, long iters);

struct bench_timing {
    double seconds;  /* this PE's elapsed time for `iters` iterations */
    long iters;
};

/* Iterations PE 0 picks from a short probe; every PE gets the same count,
 * since the peers of a one-sided protocol must agree on how many rounds
 * there are.  The first probe also serves as warm-up (page faults,
 * connection set-up). */
static inline long bench_calibrate(struct bench_ctx *c, bench_loop_fn loop, void *state,
                                   long max_iters)
{
    const long probe = 4, min_iters = 3;
    double first = loop(state, 1);
    /* The first calls at a new size can pay for page faults and their
     * settling over several calls (a 4 MiB put on one host: 6.8 ms, then
     * 0.55, 0.24, 0.15, 0.11 ...), and a large size gets few timed
     * iterations: warm up until a call is no longer much faster than the
     * one before (PE 0's clock decides, as below). */
    for (int w = 0; w < 8; w++) {
        double again = loop(state, 1);
        int faster = (int)bench_agree_long(c, again < 0.8 * first);
        first = again;
        if (!faster)
            break;
    }
    /* PE 0 decides from its own clock and every PE follows: either the
     * count (first call already slow) or -1, "probe further".  A PE that
     * took another branch would fall one barrier out of step. */
    long decision = bench_agree_long(c, first < c->o.budget_s / 8 ? -1
                                        : bench_iters_for_budget(c->o.budget_s, first, min_iters,
                                                                 max_iters));
    if (decision >= 0)
        return decision;
    first = loop(state, probe) / probe;
    return bench_agree_long(c, bench_iters_for_budget(c->o.budget_s, first, min_iters, max_iters));
}

/* Iterations to run: the fixed count asked for, or calibrated. */
static inline long bench_plan(struct bench_ctx *c, bench_loop_fn loop, void *state, long max_iters)
{
    long planned = c->o.fixed_iters > 0 ? c->o.fixed_iters : bench_calibrate(c, loop, state, max_iters);
    return planned > max_iters ? max_iters : planned;
}

/* Run the planned iterations in two halves; PE 0 skips the second when the
 * first already took the whole budget: a figure calibrated in a quiet
 * moment cannot run away when the machine gets busy (other jobs,
 * oversubscribed PEs). */
static inline struct bench_timing bench_run_planned(struct bench_ctx *c, bench_loop_fn loop, void *state,
                                                    long planned)
{
    struct bench_timing t;
    int fixed = c->o.fixed_iters > 0;
    t.iters = (!fixed && planned >= 8) ? planned / 2 : planned;
    t.seconds = loop(state, t.iters);
    if (t.iters < planned && !bench_agree_long(c, t.seconds > c->o.budget_s)) {
        t.seconds += loop(state, planned - t.iters);
        t.iters = planned;
    }
    return t;
}

/* Run a loop long enough to fill the time budget. */
static inline struct bench_timing bench_measure(struct bench_ctx *c, bench_loop_fn loop,
                                                void *state, long max_iters)
{
    return bench_run_planned(c, loop, state, bench_plan(c, loop, state, max_iters));
}

/* OSU-style timing of a collective call: all PEs start together after an
 * untimed barrier and each times its own call.  The loop returns wall
 * time (barriers included) so the time budget bounds the real run time,
 * and adds the calls' own time to op_seconds for the figure.  The very
 * first call is left out of the figure: it pays for page faults and
 * first-touch set-up (bench_measure_separated leaves out the calibration's
 * calls too). */
struct bench_separated {
    void (*call)(void *arg);  /* one call of the collective on every PE */
    void *arg;
    double op_seconds;
    long op_calls;
    int warmed_up;
};

static inline double bench_loop_separated(void *state, long iters)
{
    struct bench_separated *l = state;
    double start = bench_now();
    for (long i = 0; i < iters; i++) {
        double t0;
        shmem_barrier_all();
        t0 = bench_now();
        l->call(l->arg);
        if (l->warmed_up) {
            l->op_seconds += bench_now() - t0;
            l->op_calls++;
        }
        l->warmed_up = 1;
    }
    shmem_barrier_all();
    return bench_now() - start;
}

/* A separated loop measured: the calls of the calibration and warm-up
 * are left out of the figure. */
static inline struct bench_timing bench_measure_separated(struct bench_ctx *c, struct bench_separated *l,
                                                          long max_iters)
{
    long planned = bench_plan(c, bench_loop_separated, l, max_iters);
    l->op_seconds = 0.0;
    l->op_calls = 0;
    return bench_run_planned(c, bench_loop_separated, l, planned);
}

/* Mean over PEs of the per-call time in microseconds (valid on PE 0). */
static inline double bench_separated_mean_us(struct bench_ctx *c, const struct bench_separated *l)
{
    double mine = l->op_calls ? l->op_seconds / l->op_calls * 1e6 : 0.0;
    return bench_mean_over_pes(c, mine);
}

/* ---- output and verification ------------------------------------------- */

static inline void bench_emit(const struct bench_ctx *c, const char *op, const char *variant,
                              size_t size, const char *metric, double value, long iters)
{
    if (c->me == 0)
        bench_print_result(c->name, op, variant, size, metric, value, iters, c->npes, &c->tags);
}

static inline void bench_skip(const struct bench_ctx *c, const char *op, const char *why)
{
    if (c->me == 0)
        bench_print_skip(c->name, op, c->npes, why);
}

/* True when the runner asked to leave this figure out (--skip=op/variant,
 * a comma-separated list; a bare op skips all its variants), for example
 * an operation known to crash one peer library.  Prints the skip line. */
static inline int bench_skip_requested(const struct bench_ctx *c, const char *op,
                                       const char *variant)
{
    const char *list = bench_arg_str(c->o.argc, c->o.argv, "skip");
    char full[128];
    size_t op_len = strlen(op), full_len;
    snprintf(full, sizeof full, "%s/%s", op, variant ? variant : "");
    full_len = strlen(full);
    for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        size_t len = strchr(p, ',') ? (size_t)(strchr(p, ',') - p) : strlen(p);
        if ((len == op_len && strncmp(p, op, len) == 0) ||
            (len == full_len && strncmp(p, full, len) == 0)) {
            char why[200];
            snprintf(why, sizeof why, "%s skipped on request (--skip)", full);
            bench_skip(c, op, why);
            return 1;
        }
    }
    return 0;
}

/* Record a failed check; the first few are described on stderr. */
static inline int bench_check(struct bench_ctx *c, int ok, const char *fmt, ...)
{
    if (ok)
        return 1;
    if (c->failures++ < BENCH_MAX_REPORTED_FAILURES) {
        va_list ap;
        fprintf(stderr, "%s: PE %d: VERIFY FAIL: ", c->name, c->me);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
    return 0;
}

/* Check that a buffer holds bench_fill(seed), naming the operation and
 * its variant and describing the first wrong byte. */
static inline int bench_check_pattern(struct bench_ctx *c, const void *buf, size_t n,
                                      unsigned seed, const char *op, const char *variant)
{
    long bad = bench_first_mismatch(buf, n, seed);
    return bench_check(c, bad < 0, "%s (%s) of %zu bytes: byte %ld is %u, expected %u", op,
                       variant, n, bad, bad < 0 ? 0u : ((const unsigned char *)buf)[bad],
                       bad < 0 ? 0u : bench_pattern_byte((size_t)bad, seed));
}

/* Print the verdict (PE 0), finalize, and give main's exit status:
 * non-zero on every PE that saw a failure and on PE 0 if any PE did. */
static inline int bench_finish(struct bench_ctx *c)
{
    long total = 0, *all;
    int status;
    all = bench_gather_long(c, c->failures);
    if (c->me == 0) {
        for (int pe = 0; pe < c->npes; pe++)
            total += all[pe];
        bench_print_verdict(c->name, total, c->npes);
    }
    status = (c->failures || total) ? 1 : 0;
    fflush(stdout);
    shmem_barrier_all();
    for (int t = 0; t < 2; t++) {
        shmem_free(c->gather_doubles[t]);
        shmem_free(c->gather_longs[t]);
    }
    shmem_finalize();
    return status;
}

/* ---- reductions for the application kernels --------------------------- */

/* Small all-reduce sum over all PEs, through the teams API when present,
 * else the 1.4 active-set routine with two alternating pSync arrays. */
#define BENCH_SMALL_REDUCE_MAX 64

#if !BENCH_HAVE_TEAMS && BENCH_HAVE_ACTIVE_SET
static long bench_reduce_psync[2][SHMEM_REDUCE_SYNC_SIZE];
static double bench_reduce_dwrk[2][BENCH_SMALL_REDUCE_MAX + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static int bench_reduce_next;

/* Back-to-back active-set reductions alternate between two pSync/pWrk
 * sets (the idiom of the OSU benchmark, 000 Algorithm 1) instead of
 * paying a barrier per call.  Returns the set to use now. */
static inline int bench_next_reduce_slot(void)
{
    static int ready;
    if (!ready) {  /* first use: both arrays need SHMEM_SYNC_VALUE everywhere */
        for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
            bench_reduce_psync[0][i] = bench_reduce_psync[1][i] = SHMEM_SYNC_VALUE;
        ready = 1;
        shmem_barrier_all();
    }
    bench_reduce_next ^= 1;
    return bench_reduce_next;
}
#endif

/* dst and src must be symmetric; n <= BENCH_SMALL_REDUCE_MAX. */
static inline void bench_sum_doubles(struct bench_ctx *c, double *dst, const double *src, int n)
{
#if BENCH_HAVE_TEAMS
    (void)c;
    shmem_double_sum_reduce(SHMEM_TEAM_WORLD, dst, src, (size_t)n);
#elif BENCH_HAVE_ACTIVE_SET
    int slot = bench_next_reduce_slot();
    shmem_double_sum_to_all(dst, src, n, 0, 0, c->npes, bench_reduce_dwrk[slot],
                            bench_reduce_psync[slot]);
#else
#error "neither teams nor active-set reductions are available"
#endif
}

/* Relative difference test for floating-point verification. */
static inline int bench_close(double got, double want, double rel_tol)
{
    double scale = want < 0 ? -want : want;
    double diff = got - want;
    if (diff < 0)
        diff = -diff;
    return diff <= rel_tol * (scale > 1 ? scale : 1);
}

#endif /* BENCH_H */
