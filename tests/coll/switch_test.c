/* shmemx_collective_algorithm: every PE switches every collective's
 * algorithm between calls (each name the environment variable takes, auto
 * among them), with no barrier between the calls, and every result is
 * checked: one algorithm may follow another in a team's pSync slots.
 * Names not known return -1 and change nothing. */
#include <shmemx.h>
#include <string.h>

#include "check.h"

enum { ROUNDS = 300, NRED = 5, NB = 40 };

static const char *const barrier_algs[] = {"auto", "shm", "dissem", "tree", NULL};
static const char *const bcast_algs[] = {"auto", "shm", "pull", "linear", "binomial", "scatter_allgather", NULL};
static const char *const reduce_algs[] = {"auto", "shm", "flat", "recdbl", "ring", "bruck", "rsag", NULL};
static const char *const collect_algs[] = {"auto", "shm", "linear", "ring", "recdbl", "bruck", NULL};
static const char *const alltoall_algs[] = {"auto", "shm", "pairwise", NULL};

static void use(const char *coll, const char *const *algs, long r)
{
    int n = 0;
    while (algs[n])
        n++;
    const char *alg = algs[r % n];
    CHECK(shmemx_collective_algorithm(coll, alg) == 0, "%s %s refused", coll, alg);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *rs = shmem_malloc(NRED * sizeof(long)), *rd = shmem_malloc(NRED * sizeof(long));
    char *bs = shmem_malloc(NB), *bd = shmem_malloc(NB);
    long *fs = shmem_malloc(2 * (size_t)n * sizeof(long)), *fd = shmem_malloc(2 * (size_t)n * sizeof(long));
    static long token;
    CHECK(rs && rd && bs && bd && fs && fd, "shmem_malloc");
    CHECK(shmemx_collective_algorithm("reduce", "no-such") == -1, "an unknown algorithm was taken");
    CHECK(shmemx_collective_algorithm("no-such", "auto") == -1, "an unknown collective was taken");
    CHECK(shmemx_collective_algorithm("reduce", NULL) == -1, "a NULL name was taken");
    for (long r = 0; r < ROUNDS; r++) {
        use("reduce", reduce_algs, r);
        for (int i = 0; i < NRED; i++)
            rs[i] = me * 100 + r + i;
        CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, rd, rs, NRED) == 0, "reduce rc");
        for (int i = 0; i < NRED; i++)
            CHECK(rd[i] == 100L * n * (n - 1) / 2 + (long)n * (r + i), "round %ld: sum[%d] %ld", r, i, rd[i]);

        use("broadcast", bcast_algs, r + 1);
        int root = (int)(r % n);
        for (int i = 0; i < NB; i++)
            bs[i] = (char)(me + r + i), bd[i] = 0;
        CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, bd, bs, NB, root) == 0, "broadcast rc");
        for (int i = 0; i < NB; i++)
            CHECK(bd[i] == (char)(root + r + i), "round %ld: broadcast byte %d is %d", r, i, bd[i]);

        use("fcollect", collect_algs, r + 2);
        fs[0] = me * 7 + r;
        CHECK(shmem_long_fcollect(SHMEM_TEAM_WORLD, fd, fs, 1) == 0, "fcollect rc");
        for (int j = 0; j < n; j++)
            CHECK(fd[j] == j * 7 + r, "round %ld: fcollect block %d is %ld", r, j, fd[j]);

        use("collect", collect_algs, r + 3);
        size_t mine = (size_t)(me + r) % 3 == 0 ? 0 : 1 + (size_t)(me % 2);
        for (size_t i = 0; i < mine; i++)
            fs[i] = me * 10 + (long)i + r;
        CHECK(shmem_long_collect(SHMEM_TEAM_WORLD, fd, fs, mine) == 0, "collect rc");
        for (int j = 0, at = 0; j < n; j++) {
            int len = (j + r) % 3 == 0 ? 0 : 1 + j % 2;
            for (int i = 0; i < len; i++, at++)
                CHECK(fd[at] == j * 10 + i + r, "round %ld: collect member %d element %d is %ld", r, j, i, fd[at]);
        }

        use("alltoall", alltoall_algs, r + 4);
        for (int j = 0; j < n; j++)
            fs[j] = me * 1000 + j * 10 + r;
        CHECK(shmem_long_alltoall(SHMEM_TEAM_WORLD, fd, fs, 1) == 0, "alltoall rc");
        for (int j = 0; j < n; j++)
            CHECK(fd[j] == j * 1000 + me * 10 + r, "round %ld: alltoall block from %d is %ld", r, j, fd[j]);

        use("barrier", barrier_algs, r + 5);
        shmem_long_p(&token, r, (me + 1) % n);
        shmem_barrier_all();
        CHECK(token == r, "round %ld: barrier let the token %ld through late", r, token);
    }
    shmem_finalize();
    return 0;
}
