/* footprint - memory per PE of a hello world with shmem_barrier_all and
 * shmem_collect (seed 003's memory-scalability test).  The runner starts
 * it at several PE counts and symmetric heap sizes (SHMEM_SYMMETRIC_SIZE).
 *
 * Reports, over PEs: rss_MiB (resident set, mean and max), pss_MiB (shared
 * pages divided among the processes mapping them: the fair share of a
 * shared-memory heap, mean) and hwm_MiB (peak resident set, max).  size is
 * the heap size asked for in bytes (0: the library's default).
 * Verification: the collected values are every PE's number, in order. */
#include "bench.h"

/* Value in kB of "field:" in a /proc file, or -1. */
static long proc_kb(const char *path, const char *field)
{
    char line[256];
    size_t len = strlen(field);
    long kb = -1;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, len) == 0 && line[len] == ':') {
            kb = strtol(line + len + 1, NULL, 10);
            break;
        }
    fclose(f);
    return kb;
}

static size_t heap_size_asked(void)
{
    const char *s = getenv("SHMEM_SYMMETRIC_SIZE");
    if (!s)
        s = getenv("SMA_SYMMETRIC_SIZE");
    return s ? (size_t)bench_parse_size(s) : 0;
}

#if !BENCH_HAVE_TEAMS && BENCH_HAVE_ACTIVE_SET
static long collect_psync[SHMEM_COLLECT_SYNC_SIZE];
#endif

/* Each PE contributes its number; returns 1 when the result is right. */
static int hello_collect(struct bench_ctx *c)
{
    long *mine = shmem_malloc(sizeof(long));
    long *all = shmem_malloc(sizeof(long) * (size_t)c->npes);
    int ok = 1;
    *mine = c->me;
#if BENCH_HAVE_TEAMS
    shmem_barrier_all();
    shmem_long_collect(SHMEM_TEAM_WORLD, all, mine, 1);
#else
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++)
        collect_psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_collect64(all, mine, 1, 0, 0, c->npes, collect_psync);
#endif
    shmem_barrier_all();
    for (int pe = 0; pe < c->npes; pe++)
        ok &= all[pe] == pe;
    shmem_free(mine);
    shmem_free(all);
    return ok;
}

static void emit_memory(struct bench_ctx *c, size_t heap)
{
    double rss = proc_kb("/proc/self/status", "VmRSS") / 1024.0;
    double hwm = proc_kb("/proc/self/status", "VmHWM") / 1024.0;
    double pss = proc_kb("/proc/self/smaps_rollup", "Pss") / 1024.0;
    double rss_mean = bench_mean_over_pes(c, rss), rss_max = bench_max_over_pes(c, rss);
    double pss_mean = bench_mean_over_pes(c, pss), hwm_max = bench_max_over_pes(c, hwm);
    bench_emit(c, "hello", "mean", heap, "rss_MiB", rss_mean, 1);
    bench_emit(c, "hello", "max", heap, "rss_MiB", rss_max, 1);
    if (pss >= 0)
        bench_emit(c, "hello", "mean", heap, "pss_MiB", pss_mean, 1);
    bench_emit(c, "hello", "max", heap, "hwm_MiB", hwm_max, 1);
}

int main(int argc, char **argv)
{
    struct bench_ctx c;
    int ok;
    bench_init(&c, "footprint", argc, argv);
    shmem_barrier_all();
    ok = hello_collect(&c);
    bench_check(&c, ok, "collect did not return every PE's number in order");
    shmem_barrier_all();
    emit_memory(&c, heap_size_asked());
    return bench_finish(&c);
}
