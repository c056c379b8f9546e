/* Did the launcher start the job Shoal thinks it did?  The PE count must be
 * the task count asked for, each PE's number its launcher rank (srun's
 * SLURM_PROCID), every PE must reach every other one, and a reduction
 * must give the sum computed here.
 *   launch_ranks NPES srun|oshrun */
#include <stdlib.h>
#include <string.h>

#include <shmem.h>

#include "check.h"

enum { MAX_PES = 256 };
static long seen[MAX_PES];   /* seen[i] = i + 1 once PE i has written it */
static long value, sum;

static void check_launcher(const char *launcher, int me, int n)
{
    const char *procid = getenv("SLURM_PROCID"), *ntasks = getenv("SLURM_NTASKS");
    if (strcmp(launcher, "srun") == 0) {
        CHECK(procid && ntasks && getenv("SLURM_STEP_ID"), "not started by srun (no SLURM_PROCID/NTASKS/STEP_ID)");
        CHECK(atoi(procid) == me && atoi(ntasks) == n, "srun rank %s of %s, Shoal PE %d of %d", procid, ntasks, me,
              n);
        const char *nodes = getenv("SLURM_STEP_NUM_NODES");
        if (nodes && atoi(nodes) == 1)   /* one node: every peer is mapped, not reached by network */
            for (int pe = 0; pe < n; pe++)
                CHECK(shmem_ptr(seen, pe) != NULL, "PE %d on the same node is not mapped", pe);
    } else {
        CHECK(getenv("SHOAL_LOCAL_FD") != NULL, "not started by oshrun's own launcher");
    }
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int want = atoi(argv[1]);
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(n == want, "shmem_n_pes() is %d, the job has %d tasks", n, want);
    CHECK(n <= MAX_PES, "more than %d PEs", MAX_PES);
    check_launcher(argv[2], me, n);

    for (int pe = 0; pe < n; pe++)
        shmem_long_p(&seen[me], me + 1, pe);
    shmem_barrier_all();
    for (int pe = 0; pe < n; pe++)
        CHECK_EQ_LONG(seen[pe], pe + 1);

    value = 3 * me + 1;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &sum, &value, 1);
    CHECK_EQ_LONG(sum, 3L * n * (n - 1) / 2 + n);
    shmem_finalize();
    return 0;
}
