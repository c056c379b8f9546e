/* mh_init - what the network path costs as a job grows: shmem_init's wall
 * time, each PE's resident memory after init, and the first all-to-all
 * exchange (an AMO from every PE to every PE: with SHOAL_OFI_PRECONNECT=off
 * this is where connections are made on demand, and where rxm's
 * simultaneous-connect collisions would show as stalls), then the memory
 * again.  Maximum and mean over PEs.  Lines of JSON:
 *   {"op":"init_ms"|"rss_init_MiB"|"first_alltoall_ms"|"rss_after_MiB","max":X,"mean":Y,"pes":N} */
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static double pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE], v, vmax, vsum;
static long word;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double rss_mib(void)
{
    char line[256];
    double kib = 0;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6))
            sscanf(line + 6, "%lf", &kib);
    if (f)
        fclose(f);
    return kib / 1024;
}

static void report(const char *op, double value)
{
    int n = shmem_n_pes();
    v = value;
    shmem_barrier_all();
    shmem_double_max_to_all(&vmax, &v, 1, 0, 0, n, pwrk, psync);
    shmem_barrier_all();
    shmem_double_sum_to_all(&vsum, &v, 1, 0, 0, n, pwrk, psync);
    if (shmem_my_pe() == 0)
        printf("{\"op\":\"%s\",\"max\":%.2f,\"mean\":%.2f,\"pes\":%d}\n", op, vmax, vsum / n, n);
    shmem_barrier_all();
}

int main(void)
{
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    double t0 = now_ms();
    shmem_init();
    double init = now_ms() - t0, rss0 = rss_mib();
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_barrier_all();
    t0 = now_ms();
    for (int d = 1; d <= n; d++)
        shmem_long_atomic_add(&word, 1, (me + d) % n);
    shmem_quiet();
    shmem_barrier_all();
    double a2a = now_ms() - t0;
    report("init_ms", init);
    report("rss_init_MiB", rss0);
    report("first_alltoall_ms", a2a);
    report("rss_after_MiB", rss_mib());
    if (word != n)
        fprintf(stderr, "mh_init: PE %d: %ld adds arrived, want %d\n", me, word, n);
    shmem_finalize();
    return word != n;
}
