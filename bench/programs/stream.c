/* stream - STREAM in SHMEM (004 section 4.2): Copy, Scale, Add and Triad
 * over arrays that each PE works through one fixed-size block at a time,
 * with an all-PE sum reduction after every block (the "periodically
 * occurring reduction" the seed found to dominate).
 *
 * Variants, by where the arrays a PE works on live:
 *   local      its own arrays (plain STREAM plus the reductions);
 *   putget     the next PE's arrays, moved with shmem_getmem/shmem_putmem
 *              through private scratch blocks;
 *   shmem_ptr  the next PE's arrays, read and written in place through
 *              shmem_ptr (004 Figure 2); skipped when shmem_ptr is NULL.
 * bandwidth_MBps counts STREAM's bytes (Copy/Scale 16, Add/Triad 24 per
 * element) over all PEs, best of the repetitions as STREAM reports. */
#include "bench.h"

#define SCALAR 3.0

enum kernel { COPY, SCALE, ADD, TRIAD, N_KERNELS };
static const char *const kernel_names[N_KERNELS] = { "copy", "scale", "add", "triad" };
static const int kernel_words[N_KERNELS] = { 2, 2, 3, 3 };

enum variant { LOCAL, PUTGET, SHMEM_PTR };
static const char *const variant_names[] = { "local", "putget", "shmem_ptr" };

struct stream_case {
    struct bench_ctx *ctx;
    enum variant variant;
    size_t n;              /* elements per PE array */
    size_t block;          /* elements per block */
    double *a, *b, *c;     /* this PE's symmetric arrays */
    double *ra, *rb, *rc;  /* the arrays worked on (own, or the owner's via shmem_ptr) */
    int owner;             /* whose arrays this PE works on */
    double *scratch[3];    /* private blocks for the putget variant */
    double *block_sum;     /* symmetric [2]: reduction source and result */
    long sum_failures;     /* reductions that did not give the expected value */
};

/* ---- the four kernels on one block, returning the block's sum ---------- */

static double run_kernel(enum kernel k, double *restrict z, const double *restrict x,
                         const double *restrict y, size_t n)
{
    double sum = 0;
    switch (k) {
    case COPY: for (size_t i = 0; i < n; i++) sum += z[i] = x[i]; break;
    case SCALE: for (size_t i = 0; i < n; i++) sum += z[i] = SCALAR * x[i]; break;
    case ADD: for (size_t i = 0; i < n; i++) sum += z[i] = x[i] + y[i]; break;
    case TRIAD: for (size_t i = 0; i < n; i++) sum += z[i] = x[i] + SCALAR * y[i]; break;
    default: break;
    }
    return sum;
}

/* STREAM's operands: copy c=a, scale b=s*c, add c=a+b, triad a=b+s*c. */
static void operands(const struct stream_case *s, enum kernel k, double **z, double **x,
                     double **y, int remote_view)
{
    double *a = remote_view ? s->ra : s->a, *b = remote_view ? s->rb : s->b;
    double *c = remote_view ? s->rc : s->c;
    switch (k) {
    case COPY: *z = c, *x = a, *y = NULL; break;
    case SCALE: *z = b, *x = c, *y = NULL; break;
    case ADD: *z = c, *x = a, *y = b; break;
    default: *z = a, *x = b, *y = c; break;
    }
}

static double block_in_place(struct stream_case *s, enum kernel k, size_t first, size_t n)
{
    double *z, *x, *y;
    operands(s, k, &z, &x, &y, 1);
    return run_kernel(k, z + first, x + first, y ? y + first : NULL, n);
}

/* Fetch the owner's operand blocks, compute privately, put the result. */
static double block_putget(struct stream_case *s, enum kernel k, size_t first, size_t n)
{
    double *z, *x, *y, sum;
    size_t bytes = n * sizeof(double);
    operands(s, k, &z, &x, &y, 0);  /* symmetric addresses, valid on the owner */
    shmem_getmem(s->scratch[1], x + first, bytes, s->owner);
    if (y)
        shmem_getmem(s->scratch[2], y + first, bytes, s->owner);
    sum = run_kernel(k, s->scratch[0], s->scratch[1], y ? s->scratch[2] : NULL, n);
    shmem_putmem_nbi(z + first, s->scratch[0], bytes, s->owner);
    shmem_quiet();  /* the scratch block is reused by the next block */
    return sum;
}

/* One kernel over the whole array: a reduction after every block.  Every
 * PE reduces the same number of times; the expected value of each
 * reduced sum is known (all elements are equal at each step). */
static double timed_kernel(struct stream_case *s, enum kernel k, double expected_elem)
{
    double t0, elapsed;
    long bad = 0;
    shmem_barrier_all();
    t0 = bench_now();
    for (size_t first = 0; first < s->n; first += s->block) {
        size_t n = s->n - first < s->block ? s->n - first : s->block;
        s->block_sum[0] = s->variant == PUTGET ? block_putget(s, k, first, n)
                                               : block_in_place(s, k, first, n);
        bench_sum_doubles(s->ctx, &s->block_sum[1], &s->block_sum[0], 1);
        bad += !bench_close(s->block_sum[1], expected_elem * (double)n * s->ctx->npes, 1e-9);
    }
    shmem_barrier_all();  /* all PEs' stores are complete and visible */
    elapsed = bench_now() - t0;
    s->sum_failures += bad;
    return elapsed;
}

/* ---- verification: STREAM's closed-form check ---------------------------- */

struct stream_values {
    double a, b, c;
};

static void advance(struct stream_values *v, enum kernel k)
{
    switch (k) {
    case COPY: v->c = v->a; break;
    case SCALE: v->b = SCALAR * v->c; break;
    case ADD: v->c = v->a + v->b; break;
    default: v->a = v->b + SCALAR * v->c; break;
    }
}

static double produced_value(const struct stream_values *v, enum kernel k)
{
    return k == COPY ? v->c : k == SCALE ? v->b : k == ADD ? v->c : v->a;
}

static void check_arrays(struct stream_case *s, const struct stream_values *v)
{
    struct bench_ctx *c = s->ctx;
    size_t bad = 0;
    for (size_t i = 0; i < s->n; i++)
        bad += !bench_close(s->a[i], v->a, 1e-12) || !bench_close(s->b[i], v->b, 1e-12) ||
               !bench_close(s->c[i], v->c, 1e-12);
    bench_check(c, bad == 0, "%s: %zu elements differ from a=%g b=%g c=%g", variant_names[s->variant],
                bad, v->a, v->b, v->c);
    bench_check(c, s->sum_failures == 0, "%s: %ld block reductions gave a wrong sum",
                variant_names[s->variant], s->sum_failures);
}

/* ---- one variant ------------------------------------------------------- */

static void reset_arrays(struct stream_case *s, struct stream_values *v)
{
    v->a = 1.0, v->b = 2.0, v->c = 0.0;
    for (size_t i = 0; i < s->n; i++)
        s->a[i] = v->a, s->b[i] = v->b, s->c[i] = v->c;
    s->sum_failures = 0;
    shmem_barrier_all();
}

static void run_variant(struct stream_case *s, int reps)
{
    struct bench_ctx *c = s->ctx;
    struct stream_values v;
    double best[N_KERNELS];
    reset_arrays(s, &v);
    for (int k = 0; k < N_KERNELS; k++)
        best[k] = 1e300;
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < N_KERNELS; k++) {
            double t;
            advance(&v, (enum kernel)k);
            t = timed_kernel(s, (enum kernel)k, produced_value(&v, (enum kernel)k));
            if (t < best[k])
                best[k] = t;
        }
    for (int k = 0; k < N_KERNELS; k++) {
        double bytes = (double)kernel_words[k] * sizeof(double) * (double)s->n * c->npes;
        bench_emit(c, kernel_names[k], variant_names[s->variant], s->block * sizeof(double),
                   "bandwidth_MBps", bytes / best[k] / 1e6, reps);
    }
    /* each PE checks its own arrays, written by whichever PE worked on them */
    check_arrays(s, &v);
    shmem_barrier_all();
}

/* Point ra/rb/rc at the arrays this variant works on; 0 if impossible. */
static int choose_view(struct stream_case *s)
{
    struct bench_ctx *c = s->ctx;
    int ok = 1;
    s->owner = s->variant == LOCAL ? c->me : (c->me + 1) % c->npes;
    s->ra = s->a, s->rb = s->b, s->rc = s->c;
    if (s->variant == SHMEM_PTR) {
        s->ra = shmem_ptr(s->a, s->owner);
        s->rb = shmem_ptr(s->b, s->owner);
        s->rc = shmem_ptr(s->c, s->owner);
        ok = s->ra && s->rb && s->rc;
    }
    return bench_all_agree(c, ok);
}

static void allocate(struct stream_case *s)
{
    size_t bytes = s->n * sizeof(double);
    s->a = shmem_malloc(bytes);
    s->b = shmem_malloc(bytes);
    s->c = shmem_malloc(bytes);
    s->block_sum = shmem_malloc(2 * sizeof(double));
    for (int i = 0; i < 3; i++)
        s->scratch[i] = malloc(s->block * sizeof(double));
    if (!s->a || !s->b || !s->c || !s->block_sum || !s->scratch[0] || !s->scratch[1] ||
        !s->scratch[2]) {
        fprintf(stderr, "stream: allocating 3 x %zu bytes failed\n", bytes);
        shmem_global_exit(2);
    }
}

int main(int argc, char **argv)
{
    struct bench_ctx c;
    struct stream_case s = { 0 };
    int reps;

    bench_init(&c, "stream", argc, argv);
    s.ctx = &c;
    s.n = (size_t)bench_arg_long(argc, argv, "elems", bench_by_mode(&c.o, 4096, 1 << 20, 4 << 20));
    s.block = (size_t)bench_arg_long(argc, argv, "block", bench_by_mode(&c.o, 512, 16384, 16384));
    reps = (int)bench_arg_long(argc, argv, "reps", bench_by_mode(&c.o, 2, 3, 10));
    if (s.block > s.n)
        s.block = s.n;
    bench_tag_long(&c.tags, "elems_per_pe", (long)s.n);
    allocate(&s);
    for (int v = LOCAL; v <= SHMEM_PTR; v++) {
        s.variant = (enum variant)v;
        if (choose_view(&s))
            run_variant(&s, reps);
        else
            bench_skip(&c, "triad", "shmem_ptr returned NULL: no load/store access to the next PE");
    }
    shmem_barrier_all();
    shmem_free(s.a);
    shmem_free(s.b);
    shmem_free(s.c);
    shmem_free(s.block_sum);
    return bench_finish(&c);
}
