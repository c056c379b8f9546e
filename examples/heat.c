/* 2D heat conduction, rows distributed over PEs: each step exchanges halo
 * rows with puts, then a sum reduction reports the total heat (conserved). */
#include <stdio.h>
#include <stdlib.h>

#include <shmem.h>

enum { COLS = 256, ROWS_PER_PE = 64, STEPS = 200 };

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    /* rows 0 and ROWS_PER_PE+1 are halos */
    double (*grid)[COLS] = shmem_calloc((ROWS_PER_PE + 2) * COLS, sizeof(double));
    double (*next)[COLS] = calloc((ROWS_PER_PE + 2) * COLS, sizeof(double));
    double *heat = shmem_malloc(sizeof(double)), *total = shmem_malloc(sizeof(double));
    if (me == 0)
        for (int c = COLS / 4; c < 3 * COLS / 4; c++)
            grid[1][c] = 1000.0;
    for (int step = 0; step < STEPS; step++) {
        shmem_barrier_all();
        if (me > 0)
            shmem_double_put(grid[ROWS_PER_PE + 1], grid[1], COLS, me - 1);
        if (me < n - 1)
            shmem_double_put(grid[0], grid[ROWS_PER_PE], COLS, me + 1);
        shmem_barrier_all();
        for (int r = 1; r <= ROWS_PER_PE; r++)
            for (int c = 0; c < COLS; c++) {
                int global_row = me * ROWS_PER_PE + r - 1;
                double up = (global_row == 0) ? grid[r][c] : grid[r - 1][c];
                double down = (global_row == n * ROWS_PER_PE - 1) ? grid[r][c] : grid[r + 1][c];
                double left = c ? grid[r][c - 1] : grid[r][c], right = c < COLS - 1 ? grid[r][c + 1] : grid[r][c];
                next[r][c] = grid[r][c] + 0.1 * (up + down + left + right - 4 * grid[r][c]);
            }
        shmem_barrier_all();
        for (int r = 1; r <= ROWS_PER_PE; r++)
            for (int c = 0; c < COLS; c++)
                grid[r][c] = next[r][c];
    }
    *heat = 0;
    for (int r = 1; r <= ROWS_PER_PE; r++)
        for (int c = 0; c < COLS; c++)
            *heat += grid[r][c];
    shmem_barrier_all();
    shmem_double_sum_reduce(SHMEM_TEAM_WORLD, total, heat, 1);
    if (me == 0)
        printf("heat after %d steps on %d PEs: %.6f (started with %.6f)\n", STEPS, n, *total, 1000.0 * COLS / 2);
    shmem_free(total);
    shmem_free(heat);
    shmem_free(grid);
    free(next);
    shmem_finalize();
    return 0;
}
