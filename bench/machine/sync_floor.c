/* sync_floor - the machine's floor for a small collective among N processes,
 * the number of PEs a collectives run uses, also more than the cores: the
 * forms of plain_sync.h (plain loads and stores in one shared mapping, no
 * SHMEM) in processes of its own, pinned one to a core when they fit, as
 * oshrun pins PEs; the figure is the mean over processes of the time per
 * call.  Each form runs three ways: the counter barrier ("plain"), the
 * same with process 0 leaving first ("first_leaves"), and dissemination
 * barriers; "floor" is the fastest.  The best of MEASUREMENTS fresh sets
 * of processes is reported: a limit, not a typical value.  (The
 * collectives program runs the same forms in its own PEs, beside its
 * calls: variant "paired".)
 *
 *   sync_floor --np N [--quick|--full|--verify-only]   (N = 1..PLAIN_MAX_PROCS) */
#include "../common/plain_sync.h"
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define MEASUREMENTS 3

/* One measurement in a fresh set of n processes: mean seconds per call. */
static double measure(int n, enum plain_form f, enum plain_variant v, long iters, long *bad)
{
    int first_leaves = v == V_FIRST_LEAVES, dissem = v == V_DISSEMINATION;
    struct plain_shared *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED) {
        perror("sync_floor: mmap");
        exit(2);
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int pinned = cpus > 0 && n <= cpus;
    pid_t kids[PLAIN_MAX_PROCS];
    for (int i = 1; i < n; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            struct plain_proc p = {s, i, n, first_leaves, dissem, 0, 0};
            if (pinned)
                bench_pin_to_cpu(i);
            plain_run(&p, f, iters);
            _exit(0);
        }
    }
    struct plain_proc p = {s, 0, n, first_leaves, dissem, 0, 0};
    if (pinned)
        bench_pin_to_cpu(0);
    plain_run(&p, f, iters);
    for (int i = 1; i < n; i++)
        waitpid(kids[i], NULL, 0);
    double mean = plain_mean_seconds(s, n, iters);
    *bad += s->bad;
    munmap(s, sizeof *s);
    return mean;
}

static long iters_for(const struct bench_opts *o, int n)
{
    if (o->fixed_iters > 0)
        return o->fixed_iters;
    long per_proc = o->mode == BENCH_FULL ? 200000 : o->mode == BENCH_QUICK ? 40000 : 20;
    long iters = per_proc / (n > 1 ? n : 1);
    return iters < 10 ? 10 : iters;
}

int main(int argc, char **argv)
{
    struct bench_opts o = bench_parse_opts(argc, argv);
    bench_core_init();
    int n = (int)bench_arg_long(argc, argv, "np", 2);
    if (n < 1 || n > PLAIN_MAX_PROCS) {
        fprintf(stderr, "sync_floor: --np %d is outside 1..%d\n", n, PLAIN_MAX_PROCS);
        return 2;
    }
    long iters = iters_for(&o, n), bad = 0;
    int measurements = o.mode == BENCH_VERIFY ? 1 : MEASUREMENTS;
    for (int f = 0; f < PLAIN_FORMS; f++) {
        double best[V_VARIANTS], floor = 1e300;
        for (int v = 0; v < V_VARIANTS; v++) {
            best[v] = 1e300;
            for (int m = 0; m < measurements; m++) {
                double t = measure(n, (enum plain_form)f, (enum plain_variant)v, iters, &bad);
                if (t < best[v])
                    best[v] = t;
            }
            bench_print_result("machine_sync", plain_form_name[f], plain_variant_name[v], 8, "latency_us",
                               best[v] * 1e6, iters, n, NULL);
            if (best[v] < floor)
                floor = best[v];
        }
        bench_print_result("machine_sync", plain_form_name[f], "floor", 8, "latency_us", floor * 1e6, iters, n, NULL);
    }
    bench_print_verdict("machine_sync", bad, n);
    return bad ? 1 : 0;
}
