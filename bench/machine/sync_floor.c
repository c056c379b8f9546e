/* sync_floor - the machine's floor for a small collective among N processes,
 * the number of PEs a collectives run uses, also more than the cores: the
 * simplest forms with plain loads and stores in one shared mapping, no SHMEM.
 *  - barrier: one arrival counter; the last to arrive bumps a release word;
 *  - broadcast: process 0 stores 8 bytes and a stamp, the others wait for it;
 *  - reduce: every process stores its long and a stamp, then reads all of
 *    them (one round; sum-reduce of one long).
 * A wait looks a few times with a pause, then yields at every look, as
 * Shoal's waits do when PEs outnumber cores; processes are pinned one to a
 * core when they fit, as oshrun pins PEs.  Timed the way the collectives
 * program times a call (bench_loop_separated): an untimed barrier, then the
 * call; the figure is the mean over processes of the time per call.
 *
 * The barriers (the untimed ones and the timed form) are counted on one
 * word, or ("dissemination") made of a flag per process and round, each
 * process stamping its partner's at distance 2^k: at 2 processes one store
 * and one wait each, where the counter costs a locked add on a shared line.
 *
 * With more processes than cores, who runs first after the barrier decides
 * where the context switches fall, inside the timed call or before it, so
 * each form is measured twice: "plain", and "first_leaves", where the
 * released processes yield (up to 4 times) until process 0 has left the
 * untimed barrier, Shoal's rule before a broadcast.  "floor" is the faster
 * of the two.  The best of MEASUREMENTS fresh sets of processes is
 * reported: a limit, not a typical value.
 *
 *   sync_floor --np N [--quick|--full|--verify-only]   (N = 1..MAX_PROCS) */
#include "../common/bench_core.h"
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define CACHE_LINE 64
#define MEASUREMENTS 3
enum { MAX_PROCS = 256, MAX_ROUNDS = 8, SPINS = 20, FIRST_YIELDS = 4 };
enum form { BARRIER, BROADCAST, REDUCE, FORMS };
static const char *const form_name[FORMS] = {"barrier", "broadcast", "reduce"};

struct slot {
    _Alignas(CACHE_LINE) volatile long stamp;
    volatile long value;
};

struct shared {
    _Alignas(CACHE_LINE) volatile long arrived;
    _Alignas(CACHE_LINE) volatile long released;
    _Alignas(CACHE_LINE) volatile long first_left;
    struct slot slot[MAX_PROCS];
    struct slot flag[MAX_PROCS][MAX_ROUNDS];   /* dissemination: stamped by the round's partner */
    _Alignas(CACHE_LINE) double seconds[MAX_PROCS];
    volatile long bad;
};

struct proc {
    struct shared *s;
    int me, n, first_leaves, dissemination;
    long epoch, calls;
};

static void wait_until_at_least(const volatile long *word, long value)
{
    for (int looks = 0; __atomic_load_n(word, __ATOMIC_ACQUIRE) < value; looks++) {
        if (looks < SPINS)
            bench_cpu_pause();
        else
            sched_yield();
    }
}

static void dissemination(struct proc *p, long epoch)
{
    for (int k = 0, d = 1; d < p->n; k++, d *= 2) {
        __atomic_store_n(&p->s->flag[(p->me + d) % p->n][k].stamp, epoch, __ATOMIC_RELEASE);
        wait_until_at_least(&p->s->flag[p->me][k].stamp, epoch);
    }
}

static void barrier(struct proc *p)
{
    long epoch = ++p->epoch;
    if (p->dissemination)
        dissemination(p, epoch);
    else if (__atomic_add_fetch(&p->s->arrived, 1, __ATOMIC_ACQ_REL) == epoch * p->n)
        __atomic_store_n(&p->s->released, epoch, __ATOMIC_RELEASE);
    else
        wait_until_at_least(&p->s->released, epoch);
    if (!p->first_leaves)
        return;
    if (p->me == 0)
        __atomic_store_n(&p->s->first_left, epoch, __ATOMIC_RELEASE);
    else
        for (int i = 0; i < FIRST_YIELDS && __atomic_load_n(&p->s->first_left, __ATOMIC_ACQUIRE) < epoch; i++)
            sched_yield();
}

static void publish(struct proc *p, int who, long value)
{
    p->s->slot[who].value = value;
    __atomic_store_n(&p->s->slot[who].stamp, p->calls, __ATOMIC_RELEASE);
}

static long take(struct proc *p, int who)
{
    wait_until_at_least(&p->s->slot[who].stamp, p->calls);
    return p->s->slot[who].value;
}

/* One call; checks its result against what every process contributed. */
static void call(struct proc *p, enum form f)
{
    long call = ++p->calls, got, want;
    switch (f) {
    case BARRIER:
        barrier(p);
        return;
    case BROADCAST:
        if (p->me == 0)
            publish(p, 0, call);
        got = take(p, 0);
        want = call;
        break;
    default:
        publish(p, p->me, call + p->me);
        got = 0;
        for (int i = 0; i < p->n; i++)
            got += take(p, i);
        want = call * p->n + (long)p->n * (p->n - 1) / 2;
        break;
    }
    if (got != want)
        __atomic_fetch_add(&p->s->bad, 1, __ATOMIC_RELAXED);
}

/* A slot's last reader must be done before its next call writes it: every
 * timed call sits between two barriers, as in the collectives program. */
static void run_proc(struct proc *p, enum form f, long iters)
{
    double spent = 0.0;
    for (long i = 0; i < iters; i++) {
        barrier(p);
        double t0 = bench_now();
        call(p, f);
        spent += bench_now() - t0;
    }
    barrier(p);
    p->s->seconds[p->me] = spent;
}

/* The ways the barriers run: the counter, with or without the first
 * leaving, and dissemination. */
enum variant { PLAIN, FIRST_LEAVES, DISSEMINATION, VARIANTS };
static const char *const variant_name[VARIANTS] = {"plain", "first_leaves", "dissemination"};

/* One measurement in a fresh set of n processes: mean seconds per call. */
static double measure(int n, enum form f, enum variant v, long iters, long *bad)
{
    int first_leaves = v == FIRST_LEAVES, dissem = v == DISSEMINATION;
    struct shared *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED) {
        perror("sync_floor: mmap");
        exit(2);
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int pinned = cpus > 0 && n <= cpus;
    pid_t kids[MAX_PROCS];
    for (int i = 1; i < n; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            struct proc p = {s, i, n, first_leaves, dissem, 0, 0};
            if (pinned)
                bench_pin_to_cpu(i);
            run_proc(&p, f, iters);
            _exit(0);
        }
    }
    struct proc p = {s, 0, n, first_leaves, dissem, 0, 0};
    if (pinned)
        bench_pin_to_cpu(0);
    run_proc(&p, f, iters);
    for (int i = 1; i < n; i++)
        waitpid(kids[i], NULL, 0);
    double total = 0.0;
    for (int i = 0; i < n; i++)
        total += s->seconds[i];
    *bad += s->bad;
    munmap(s, sizeof *s);
    return total / n / iters;
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
    if (n < 1 || n > MAX_PROCS) {
        fprintf(stderr, "sync_floor: --np %d is outside 1..%d\n", n, MAX_PROCS);
        return 2;
    }
    long iters = iters_for(&o, n), bad = 0;
    int measurements = o.mode == BENCH_VERIFY ? 1 : MEASUREMENTS;
    for (int f = 0; f < FORMS; f++) {
        double best[VARIANTS], floor = 1e300;
        for (int v = 0; v < VARIANTS; v++) {
            best[v] = 1e300;
            for (int m = 0; m < measurements; m++) {
                double t = measure(n, (enum form)f, (enum variant)v, iters, &bad);
                if (t < best[v])
                    best[v] = t;
            }
            bench_print_result("machine_sync", form_name[f], variant_name[v], 8, "latency_us", best[v] * 1e6, iters,
                               n, NULL);
            if (best[v] < floor)
                floor = best[v];
        }
        bench_print_result("machine_sync", form_name[f], "floor", 8, "latency_us", floor * 1e6, iters, n, NULL);
    }
    bench_print_verdict("machine_sync", bad, n);
    return bad ? 1 : 0;
}
