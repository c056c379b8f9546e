/* heat2d - the 2D heat conduction kernel of seed 003: Jacobi steps on a
 * square plate whose rows are distributed over the PEs; each step puts
 * this PE's edge rows into the neighbours' halo rows (shmem_putmem) and
 * synchronises with shmem_barrier_all, the pattern the seed found to be
 * barrier-bound at scale.  The top edge is held at 100 degrees, the other
 * edges at 0.
 *
 * Reports time_s of the time-step loop (slowest PE) and total_s from
 * before shmem_init to the end of the loop (003 counts initialisation).
 * Verification: PE 0 recomputes the whole plate serially and compares
 * every PE's rows, fetched with shmem_getmem. */
#include "bench.h"

#define TOP_TEMPERATURE 100.0

struct plate {
    struct bench_ctx *c;
    int side;          /* grid points per row and rows overall */
    int steps;
    int first_row;     /* global index of this PE's first row */
    int rows;          /* rows owned by this PE */
    int max_rows;      /* the largest share: every PE allocates it */
    double *grid[2];   /* symmetric: (max_rows + 2) rows each, halos at both ends */
};

static void share_rows(int side, int npes, int pe, int *first, int *rows)
{
    int base = side / npes, extra = side % npes;
    *rows = base + (pe < extra);
    *first = pe * base + (pe < extra ? pe : extra);
}

static double *row_of(double *grid, int side, int local_row)
{
    return grid + (size_t)local_row * side;
}

/* The hot edge lies just above global row 0: it is PE 0's top halo,
 * which nobody overwrites.  Global row side-1 is the cold bottom edge. */
static void initialise(struct plate *p)
{
    size_t cells = (size_t)(p->max_rows + 2) * p->side;
    for (int b = 0; b < 2; b++) {
        memset(p->grid[b], 0, cells * sizeof(double));
        if (p->c->me == 0)
            for (int j = 0; j < p->side; j++)
                row_of(p->grid[b], p->side, 0)[j] = TOP_TEMPERATURE;
    }
    shmem_barrier_all();
}

/* Edge rows travel to the neighbours' halos of the same buffer; a
 * neighbour's bottom halo follows its own share of rows. */
static void exchange_halos(struct plate *p, double *grid)
{
    int me = p->c->me, n = p->c->npes, first_above, rows_above;
    size_t bytes = (size_t)p->side * sizeof(double);
    if (me > 0) {  /* my first row becomes the bottom halo of the PE above */
        share_rows(p->side, n, me - 1, &first_above, &rows_above);
        shmem_putmem(row_of(grid, p->side, rows_above + 1), row_of(grid, p->side, 1), bytes,
                     me - 1);
    }
    if (me < n - 1)  /* my last row becomes the top halo of the PE below */
        shmem_putmem(row_of(grid, p->side, 0), row_of(grid, p->side, p->rows), bytes, me + 1);
}

static void jacobi_step(struct plate *p, const double *old, double *new_grid)
{
    int side = p->side;
    for (int i = 1; i <= p->rows; i++) {
        const double *up = row_of((double *)old, side, i - 1);
        const double *mid = row_of((double *)old, side, i);
        const double *down = row_of((double *)old, side, i + 1);
        double *out = row_of(new_grid, side, i);
        int global_row = p->first_row + i - 1;
        if (global_row == side - 1)  /* the cold bottom edge stays fixed */
            continue;
        for (int j = 1; j < side - 1; j++)
            out[j] = 0.25 * (up[j] + down[j] + mid[j - 1] + mid[j + 1]);
    }
}

static double run_steps(struct plate *p)
{
    double t0;
    shmem_barrier_all();
    t0 = bench_now();
    for (int s = 0; s < p->steps; s++) {
        double *old = p->grid[s % 2], *new_grid = p->grid[(s + 1) % 2];
        exchange_halos(p, old);
        shmem_barrier_all();  /* halos are in place; the previous step is done */
        jacobi_step(p, old, new_grid);
    }
    shmem_barrier_all();
    return bench_now() - t0;
}

/* ---- verification --------------------------------------------------------- */

/* The same plate on one PE: row 0 is the hot edge (the parallel code's
 * top halo of PE 0), rows 1..side hold global rows 0..side-1. */
static double *serial_solution(int side, int steps)
{
    size_t cells = (size_t)(side + 1) * side;
    double *a = calloc(cells, sizeof(double)), *b = calloc(cells, sizeof(double));
    for (int j = 0; j < side; j++)
        a[j] = b[j] = TOP_TEMPERATURE;
    for (int s = 0; s < steps; s++) {
        double *t;
        for (int i = 1; i < side; i++)  /* row side (global side-1) stays cold */
            for (int j = 1; j < side - 1; j++)
                b[(size_t)i * side + j] = 0.25 * (a[(size_t)(i - 1) * side + j] +
                                                  a[(size_t)(i + 1) * side + j] +
                                                  a[(size_t)i * side + j - 1] +
                                                  a[(size_t)i * side + j + 1]);
        t = a, a = b, b = t;
    }
    free(b);
    return a;
}

static void verify(struct plate *p)
{
    struct bench_ctx *c = p->c;
    double *final = p->grid[p->steps % 2];
    shmem_barrier_all();
    if (c->me == 0) {
        double *want = serial_solution(p->side, p->steps);
        double *rows = malloc((size_t)(p->max_rows + 2) * p->side * sizeof(double));
        long bad = 0;
        for (int pe = 0; pe < c->npes; pe++) {
            int first, n;
            share_rows(p->side, c->npes, pe, &first, &n);
            shmem_getmem(rows, final, (size_t)(n + 2) * p->side * sizeof(double), pe);
            for (int i = 0; i < n; i++)
                for (int j = 0; j < p->side; j++)
                    /* same operations in the same order: bit-identical */
                    bad += rows[(size_t)(i + 1) * p->side + j] !=
                           want[(size_t)(first + i + 1) * p->side + j];
        }
        bench_check(c, bad == 0, "heat2d: %ld grid points differ from the serial solution", bad);
        free(rows);
        free(want);
    }
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    double start = bench_now();  /* before shmem_init, as 003's totals */
    struct bench_ctx c;
    struct plate p = { 0 };
    double loop_s;

    bench_init(&c, "heat2d", argc, argv);
    p.c = &c;
    /* in verify mode heat must reach every PE's rows for the halos to matter */
    p.side = (int)bench_arg_long(argc, argv, "side", bench_by_mode(&c.o, 32, 512, 2048));
    p.steps = (int)bench_arg_long(argc, argv, "steps", bench_by_mode(&c.o, 80, 200, 500));
    if (p.side < c.npes + 2)
        p.side = c.npes + 2;
    share_rows(p.side, c.npes, c.me, &p.first_row, &p.rows);
    p.max_rows = p.side / c.npes + (p.side % c.npes != 0);
    for (int b = 0; b < 2; b++)
        p.grid[b] = shmem_malloc((size_t)(p.max_rows + 2) * p.side * sizeof(double));
    if (!p.grid[0] || !p.grid[1]) {
        fprintf(stderr, "heat2d: shmem_malloc of the grid failed\n");
        shmem_global_exit(2);
    }
    bench_tag_long(&c.tags, "steps", p.steps);
    initialise(&p);
    loop_s = bench_max_over_pes(&c, run_steps(&p));
    bench_emit(&c, "jacobi", "put_barrier", (size_t)p.side, "time_s", loop_s, p.steps);
    bench_emit(&c, "jacobi", "put_barrier_total", (size_t)p.side, "time_s",
               bench_max_over_pes(&c, bench_now() - start), p.steps);
    verify(&p);
    shmem_free(p.grid[0]);
    shmem_free(p.grid[1]);
    return bench_finish(&c);
}
