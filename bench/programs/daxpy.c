/* daxpy - the DAXPY application kernel of seed 003: data moved with
 * shmem_put, synchronised with shmem_barrier_all, and reduced with a sum
 * reduction.  Each iteration computes y += a * x on this PE's block, sums
 * y over all PEs, then passes its x block to the next PE (a ring shift by
 * put + barrier), so every block of x visits every PE.
 *
 * Reports time_s of the iteration loop (slowest PE) and total_s from
 * before shmem_init (003's figures include initialisation).  Verification
 * is exact: the final y and every reduced sum follow in closed form. */
#include "bench.h"

#define ALPHA 0.5

struct daxpy_case {
    struct bench_ctx *c;
    size_t n;           /* elements per PE */
    int iters;
    double *x[2];       /* symmetric: current block and the incoming one */
    double *y;          /* private */
    double *partial;    /* symmetric [2]: local sum, global sum */
    double *sums;       /* global sum after each iteration */
};

/* x as it starts on PE pe: small integers and halves, exact in double. */
static double x_initial(int pe, size_t i)
{
    return (double)(pe + 1) + 0.5 * (double)(i % 5);
}

static double run_iterations(struct daxpy_case *k)
{
    struct bench_ctx *c = k->c;
    int next = (c->me + 1) % c->npes;
    double t0;
    shmem_barrier_all();
    t0 = bench_now();
    for (int it = 0; it < k->iters; it++) {
        double *x = k->x[it % 2], *incoming = k->x[(it + 1) % 2], local = 0;
        for (size_t i = 0; i < k->n; i++) {
            k->y[i] += ALPHA * x[i];
            local += k->y[i];
        }
        k->partial[0] = local;
        bench_sum_doubles(c, &k->partial[1], &k->partial[0], 1);
        k->sums[it] = k->partial[1];
        shmem_putmem(incoming, x, k->n * sizeof(double), next);
        shmem_barrier_all();  /* the shifted block has arrived everywhere */
    }
    return bench_now() - t0;
}

/* After t iterations PE p has added the blocks of PEs p, p-1, ..., p-t+1. */
static double y_expected(const struct daxpy_case *k, int pe, size_t i, int t)
{
    double y = 0;
    for (int s = 0; s < t; s++)
        y += ALPHA * x_initial(((pe - s) % k->c->npes + k->c->npes) % k->c->npes, i);
    return y;
}

static void verify(struct daxpy_case *k)
{
    struct bench_ctx *c = k->c;
    double all_x = 0;
    size_t bad = 0;
    long bad_sums = 0;
    for (size_t i = 0; i < k->n; i++)
        bad += !bench_close(k->y[i], y_expected(k, c->me, i, k->iters), 1e-12);
    /* each iteration adds ALPHA * (sum of all x) to the total of y */
    for (int pe = 0; pe < c->npes; pe++)
        for (size_t i = 0; i < k->n; i++)
            all_x += x_initial(pe, i);
    for (int it = 0; it < k->iters; it++)
        bad_sums += !bench_close(k->sums[it], ALPHA * all_x * (it + 1), 1e-12);
    bench_check(c, bad == 0, "daxpy: %zu elements of y are wrong", bad);
    bench_check(c, bad_sums == 0, "daxpy: %ld reduced sums are wrong", bad_sums);
}

static void allocate(struct daxpy_case *k)
{
    struct bench_ctx *c = k->c;
    for (int b = 0; b < 2; b++)
        k->x[b] = shmem_malloc(k->n * sizeof(double));
    k->partial = shmem_malloc(2 * sizeof(double));
    k->y = calloc(k->n, sizeof(double));
    k->sums = calloc((size_t)k->iters, sizeof(double));
    if (!k->x[0] || !k->x[1] || !k->partial || !k->y || !k->sums) {
        fprintf(stderr, "daxpy: allocating %zu elements failed\n", k->n);
        shmem_global_exit(2);
    }
    for (size_t i = 0; i < k->n; i++)
        k->x[0][i] = x_initial(c->me, i);
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    double start = bench_now();
    struct bench_ctx c;
    struct daxpy_case k = { 0 };
    double loop_s;

    bench_init(&c, "daxpy", argc, argv);
    k.c = &c;
    k.n = (size_t)bench_arg_long(argc, argv, "elems", bench_by_mode(&c.o, 1000, 1 << 20, 4 << 20));
    k.iters = (int)bench_arg_long(argc, argv, "iterations", bench_by_mode(&c.o, 5, 20, 50));
    bench_tag_long(&c.tags, "iterations", k.iters);
    allocate(&k);
    loop_s = bench_max_over_pes(&c, run_iterations(&k));
    bench_emit(&c, "daxpy", "put_barrier_reduce", k.n * sizeof(double), "time_s", loop_s, k.iters);
    bench_emit(&c, "daxpy", "put_barrier_reduce_total", k.n * sizeof(double), "time_s",
               bench_max_over_pes(&c, bench_now() - start), k.iters);
    verify(&k);
    shmem_barrier_all();
    shmem_free(k.x[0]);
    shmem_free(k.x[1]);
    shmem_free(k.partial);
    return bench_finish(&c);
}
