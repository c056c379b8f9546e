/* Latency of one collective at a range of payload sizes, one JSON object
 * per line:
 *   {"bench":"reduce_alg","alg":"rsag","api":"team","pes":4,"size":8,"metric":"latency_us","value":1.23}
 * Usage: coll_algs KIND [MAX_BYTES]   KIND: barrier bcast reduce collect fcollect alltoall
 * The algorithm is whatever the library picks; with Shoal, force one with
 * SHMEM_<COLL>_ALGORITHM (the "alg" field echoes it; bench/coll/run.sh loops
 * over them).  Builds with any OpenSHMEM: libraries older than 1.5 (no
 * teams) are measured through the active-set routines ("api":"active").
 * Each size: warm-up, then back-to-back calls with no synchronisation in
 * between (as applications issue them), in 7 batches; the figure is the
 * median over batches of the slowest PE's mean (robust to a busy machine). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <shmem.h>

#if defined(SHMEM_MAJOR_VERSION) && (SHMEM_MAJOR_VERSION * 100 + SHMEM_MINOR_VERSION) >= 105
#define HAVE_TEAMS 1
#else
#define HAVE_TEAMS 0
#endif

static long psync[2][SHMEM_REDUCE_SYNC_SIZE];
static long pwrk[2][SHMEM_REDUCE_MIN_WRKDATA_SIZE + (1 << 20)];
static double t_mine, t_max;
static double dwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long psync_r[SHMEM_REDUCE_SYNC_SIZE];

enum { BATCHES = 7 };

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double now_us(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec * 1e6 + tv.tv_usec;
}

static void one(const char *kind, void *dst, void *src, size_t bytes, int i)
{
    int npes = shmem_n_pes();
    size_t n8 = bytes / 8;
    int p = i & 1;
    if (!strcmp(kind, "barrier")) {
        shmem_barrier_all();
    } else if (!strcmp(kind, "bcast")) {
#if HAVE_TEAMS
        shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, bytes, 0);
#else
        shmem_broadcast64(dst, src, n8, 0, 0, 0, npes, psync[p]);
#endif
    } else if (!strcmp(kind, "reduce")) {
#if HAVE_TEAMS
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, n8);
#else
        shmem_long_sum_to_all(dst, src, (int)n8, 0, 0, npes, pwrk[p], psync[p]);
#endif
    } else if (!strcmp(kind, "collect") || !strcmp(kind, "fcollect")) {
#if HAVE_TEAMS
        if (kind[0] == 'c')
            shmem_collectmem(SHMEM_TEAM_WORLD, dst, src, bytes);
        else
            shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, bytes);
#else
        if (kind[0] == 'c')
            shmem_collect64(dst, src, n8, 0, 0, npes, psync[p]);
        else
            shmem_fcollect64(dst, src, n8, 0, 0, npes, psync[p]);
#endif
    } else if (!strcmp(kind, "alltoall")) {
#if HAVE_TEAMS
        shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, bytes);
#else
        shmem_alltoall64(dst, src, n8, 0, 0, npes, psync[p]);
#endif
    }
}

int main(int argc, char **argv)
{
    const char *kind = argc > 1 ? argv[1] : "reduce";
    size_t max = argc > 2 ? strtoul(argv[2], NULL, 0) : (size_t)1 << 19;
    shmem_init();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[0][i] = psync[1][i] = psync_r[i] = SHMEM_SYNC_VALUE;
    int me = shmem_my_pe(), npes = shmem_n_pes();
    size_t per_pe = !strcmp(kind, "collect") || !strcmp(kind, "fcollect") || !strcmp(kind, "alltoall") ? npes : 1;
    char *src = shmem_malloc(max * per_pe), *dst = shmem_malloc(max * per_pe);
    memset(src, 1, max * per_pe);
    const char *env = !strcmp(kind, "barrier")  ? "SHMEM_BARRIER_ALGORITHM"
                      : !strcmp(kind, "bcast")  ? "SHMEM_BCAST_ALGORITHM"
                      : !strcmp(kind, "reduce") ? "SHMEM_REDUCE_ALGORITHM"
                      : !strcmp(kind, "collect") ? "SHMEM_COLLECT_ALGORITHM"
                      : !strcmp(kind, "fcollect") ? "SHMEM_FCOLLECT_ALGORITHM"
                                                   : "SHMEM_ALLTOALL_ALGORITHM";
    const char *alg = getenv(env) ? getenv(env) : "auto";
    char libname[SHMEM_MAX_NAME_LEN + 1] = "";
    shmem_info_get_name(libname);
    for (char *c = libname; *c; c++)
        if (*c == '"' || *c == '\\')
            *c = ' ';
    shmem_barrier_all();
    for (size_t bytes = 8; bytes <= max; bytes *= (strcmp(kind, "barrier") ? 4 : max)) {
        int iters = bytes <= 4096 ? 2000 : bytes <= 65536 ? 300 : 60;
        if (npes > 4)
            iters /= 2;
        for (int i = 0; i < iters / 10 + 2; i++)
            one(kind, dst, src, bytes, i);
        double batch[BATCHES];
        for (int b = 0; b < BATCHES; b++) {
            shmem_barrier_all();
            double t0 = now_us();
            for (int i = 0; i < iters / BATCHES + 1; i++)
                one(kind, dst, src, bytes, i);
            t_mine = (now_us() - t0) / (iters / BATCHES + 1);
            shmem_barrier_all();
            shmem_double_max_to_all(&t_max, &t_mine, 1, 0, 0, npes, dwrk, psync_r);
            batch[b] = t_max;
        }
        qsort(batch, BATCHES, sizeof *batch, by_value);
        t_max = batch[BATCHES / 2];
        if (me == 0)
            printf("{\"bench\":\"%s_alg\",\"alg\":\"%s\",\"api\":\"%s\",\"library\":\"%s\",\"pes\":%d,\"size\":%zu,"
                   "\"metric\":\"latency_us\",\"value\":%.3f}\n",
                   kind, alg, HAVE_TEAMS ? "team" : "active", libname, npes, bytes, t_max);
        fflush(stdout);
        shmem_barrier_all();
    }
    shmem_finalize();
    return 0;
}
