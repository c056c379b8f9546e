/* memcpy_bw - the machine's limit for moving data inside one process:
 * memcpy bandwidth between two private buffers, 1 KiB to 64 MiB.  A put
 * between PEs on one host is at best one such copy, so Shoal's large-put
 * bandwidth is read as a fraction of this figure.
 *
 * Plain C, no SHMEM.  Bytes counted once per copy (as put bandwidth is);
 * the best of several measurements is reported.  The copied data is
 * checked after the last copy. */
#include "../common/bench_core.h"

#define MEASUREMENTS 5

static double time_copies(char *dst, const char *src, size_t size, long copies)
{
    double t0 = bench_now();
    for (long i = 0; i < copies; i++) {
        memcpy(dst, src, size);
        __asm__ __volatile__("" ::"r"(dst) : "memory");  /* keep every copy */
    }
    return bench_now() - t0;
}

/* Copies that take about budget seconds, from one timed probe copy. */
static long copies_for(const struct bench_opts *o, char *dst, const char *src, size_t size)
{
    double one = time_copies(dst, src, size, 1);
    return bench_iters_for_budget(o->budget_s / MEASUREMENTS, one, 2, 1000000);
}

int main(int argc, char **argv)
{
    struct bench_opts o = bench_parse_opts(argc, argv);
    size_t min, max;
    long failures = 0;
    char *src, *dst;

    bench_core_init();
    if (o.mode == BENCH_VERIFY)
        o.budget_s = 0.001;
    bench_size_range(&o, 1024, bench_by_mode(&o, 1 << 20, 64 << 20, 64 << 20), &min, &max);
    src = malloc(max);
    dst = malloc(max);
    if (!src || !dst) {
        fprintf(stderr, "memcpy_bw: cannot allocate 2 x %zu bytes\n", max);
        return 2;
    }
    bench_fill(src, max, 1);
    memset(dst, 0, max);  /* touch every page before timing */
    for (size_t size = min; size <= max; size = bench_next_size(&o, size, max)) {
        long copies = copies_for(&o, dst, src, size);
        double best = 1e300;
        for (int m = 0; m < MEASUREMENTS; m++) {
            double t = time_copies(dst, src, size, copies);
            if (t < best)
                best = t;
        }
        bench_print_result("machine_memcpy", "memcpy", "private", size, "bandwidth_MBps",
                           (double)size * copies / best / 1e6, copies, 1, NULL);
        failures += bench_first_mismatch(dst, size, 1) >= 0;
        if (size == max)
            break;
    }
    bench_print_verdict("machine_memcpy", failures, 1);
    return failures ? 1 : 0;
}
