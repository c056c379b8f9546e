/* oshtune_probe: times one collective on SHMEM_TEAM_WORLD at the sizes
 * given, with whatever algorithm the library picks (oshtune forces each in
 * turn through SHMEM_<COLL>_ALGORITHM), and checks every result.
 *
 *   oshrun -np P oshtune_probe KIND [--ms MS] [--batches B] [--env VAR=VALUE]...
 *                            [--algorithms A,B,...] BYTES...
 *   KIND: barrier, bcast, reduce (long sums), collect, fcollect, alltoall
 *   --env sets VAR before shmem_init, whatever the launcher (Open MPI's
 *   mpirun passes no variable to other hosts unless told, srun passes all).
 *   --algorithms times each named algorithm (auto: the library's choice,
 *   under SHOAL_TUNING_FILE if set) in this one process, batch after batch
 *   in turn (shmemx_collective_algorithm): the PEs' placement on the
 *   machine, which moves a figure by up to 2x between processes on a small
 *   VM, is then the same for all of them.
 *
 * PE 0 prints "KIND BYTES US" (with --algorithms "KIND BYTES US ALGORITHM")
 * per size: the median over B batches of the
 * slowest PE's mean time per call, calls back to back (as applications
 * issue them: an algorithm that leaves work for the next call pays for it)
 * after a barrier.  A wrong result prints "oshtune_probe: wrong ..." and
 * the exit status is 1, so a tuning run never ranks a broken algorithm
 * (with --algorithms the others still print). */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_ALGS = 16, MAX_BATCHES = 64 };
enum kind { BARRIER, BCAST, REDUCE, COLLECT, FCOLLECT, ALLTOALL };
static const char *kind_names[] = {"barrier", "bcast", "reduce", "collect", "fcollect", "alltoall"};

struct probe {
    enum kind kind;
    size_t bytes;            /* per call: the vector, or each PE's block */
    unsigned char *src, *dst;
    int me, npes;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void call(struct probe *p)
{
    switch (p->kind) {
    case BARRIER: shmem_barrier_all(); break;
    case BCAST: shmem_broadcastmem(SHMEM_TEAM_WORLD, p->dst, p->src, p->bytes, 0); break;
    case REDUCE: shmem_long_sum_reduce(SHMEM_TEAM_WORLD, (long *)p->dst, (long *)p->src, p->bytes / sizeof(long)); break;
    case COLLECT: shmem_collectmem(SHMEM_TEAM_WORLD, p->dst, p->src, p->bytes); break;
    case FCOLLECT: shmem_fcollectmem(SHMEM_TEAM_WORLD, p->dst, p->src, p->bytes); break;
    case ALLTOALL: shmem_alltoallmem(SHMEM_TEAM_WORLD, p->dst, p->src, p->bytes); break;
    }
}

/* ---- checks: a byte pattern that differs by PE, block and position ---- */

static unsigned char pattern(int pe, size_t block, size_t i) { return (unsigned char)(pe * 31 + block * 7 + i % 251); }

static void fill(struct probe *p)
{
    size_t blocks = p->kind == ALLTOALL ? (size_t)p->npes : 1;
    for (size_t b = 0; b < blocks; b++)
        for (size_t i = 0; i < p->bytes; i++)
            p->src[b * p->bytes + i] = pattern(p->me, b, i);
    if (p->kind == REDUCE)
        for (size_t i = 0; i < p->bytes / sizeof(long); i++)
            ((long *)p->src)[i] = p->me + (long)i;
    memset(p->dst, 0xee, p->bytes * p->npes);
}

/* First wrong byte (or long), or -1. */
static long first_wrong(const struct probe *p)
{
    switch (p->kind) {
    case BARRIER: return -1;
    case BCAST:
        for (size_t i = 0; i < p->bytes; i++)
            if (p->me != 0 && p->dst[i] != pattern(0, 0, i))
                return (long)i;
        return -1;
    case REDUCE:
        for (size_t i = 0; i < p->bytes / sizeof(long); i++)
            if (((long *)p->dst)[i] != (long)p->npes * (p->npes - 1) / 2 + (long)i * p->npes)
                return (long)i;
        return -1;
    default:   /* block q of dest: PE q's block (its block for me, in an alltoall) */
        for (int q = 0; q < p->npes; q++)
            for (size_t i = 0; i < p->bytes; i++)
                if (p->dst[q * p->bytes + i] != pattern(q, p->kind == ALLTOALL ? (size_t)p->me : 0, i))
                    return (long)(q * p->bytes + i);
        return -1;
    }
}

static int check(struct probe *p)
{
    fill(p);
    shmem_barrier_all();
    call(p);
    shmem_barrier_all();
    long at = first_wrong(p);
    if (at >= 0)
        fprintf(stderr, "oshtune_probe: wrong %s result on PE %d at %zu bytes: element %ld\n", kind_names[p->kind],
                p->me, p->bytes, at);
    static int bad, any_bad;
    bad = at >= 0;
    shmem_int_max_reduce(SHMEM_TEAM_WORLD, &any_bad, &bad, 1);
    return any_bad;
}

/* ---- timing ---- */

static double slowest(double mine)
{
    static double in, out;
    in = mine;
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, &out, &in, 1);
    return out;
}

static double batch(struct probe *p, long iters)
{
    shmem_barrier_all();
    double t0 = now();
    for (long i = 0; i < iters; i++)
        call(p);
    return slowest((now() - t0) / iters);
}

/* Calls per batch, from the fastest of a few batches of ~1 ms (their
 * length found by doubling): a first look at a few calls also timed the
 * barrier's skew and the first calls' page faults, ~1-2 ms, and with it
 * the first algorithm of an --algorithms list ran batches of 4-30 calls,
 * each charged that overhead (2 PEs, 8-B reduction: 0.5-1.3 us against
 * 0.25 for the same algorithm later in the list).  batch() returns the
 * slowest PE's time, the same on every PE, so every PE counts alike. */
static long iterations(struct probe *p, double seconds)
{
    long n = 1;
    double t = batch(p, n);
    while (t * n < 1e-3 && n < 100000) {
        n *= 2;
        t = batch(p, n);
    }
    for (int k = 0; k < 3; k++) {
        double again = batch(p, n);
        t = again < t ? again : t;
    }
    long iters = t > 0 ? (long)(seconds / t) : 100000;
    return iters < 1 ? 1 : iters > 100000 ? 100000 : iters;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_us(struct probe *p, double ms, int batches)
{
    double t[64];
    long iters = iterations(p, ms * 1e-3);
    for (int b = 0; b < batches; b++)
        t[b] = batch(p, iters);
    qsort(t, batches, sizeof t[0], cmp_double);
    return t[batches / 2] * 1e6;
}

/* ---- several algorithms in one process ---- */

static const char *const coll_names[] = {"barrier", "broadcast", "reduce", "collect", "fcollect", "alltoall"};

static void force(const struct probe *p, const char *alg)
{
    if (shmemx_collective_algorithm(coll_names[p->kind], alg) != 0) {
        if (p->me == 0)
            fprintf(stderr, "oshtune_probe: %s has no algorithm \"%s\"\n", kind_names[p->kind], alg);
        shmem_global_exit(2);
    }
}

/* Each algorithm checked, then timed in turn, batch by batch; returns
 * whether one was wrong (it prints no figure). */
static int compare(struct probe *p, char **algs, int n, double ms, int batches)
{
    static double t[MAX_ALGS][MAX_BATCHES];
    long iters[MAX_ALGS];
    int wrong[MAX_ALGS], any = 0;
    for (int a = 0; a < n; a++) {
        force(p, algs[a]);
        wrong[a] = check(p);
        any |= wrong[a];
        iters[a] = wrong[a] ? 0 : iterations(p, ms * 1e-3);
    }
    for (int b = 0; b < batches; b++)
        for (int a = 0; a < n; a++)
            if (!wrong[a]) {
                force(p, algs[a]);
                t[a][b] = batch(p, iters[a]);
            }
    for (int a = 0; a < n; a++) {
        if (wrong[a])
            continue;
        force(p, algs[a]);
        if (check(p)) {
            any = 1;
            continue;
        }
        qsort(t[a], batches, sizeof t[a][0], cmp_double);
        if (p->me == 0)
            printf("%s %zu %.3f %s\n", kind_names[p->kind], p->kind == BARRIER ? 0 : p->bytes,
                   t[a][batches / 2] * 1e6, algs[a]);
    }
    fflush(stdout);
    return any;
}

/* ---- main ---- */

static int usage(void)
{
    fprintf(stderr, "usage: oshtune_probe barrier|bcast|reduce|collect|fcollect|alltoall [--ms MS] "
                    "[--batches B] [--env VAR=VALUE]... [--algorithms A,B,...] BYTES...\n");
    return 2;
}

int main(int argc, char **argv)
{
    struct probe p = {0};
    double ms = 20;
    int batches = 5, first = 2, wrong = 0, nalgs = 0;
    char *algs[MAX_ALGS];
    if (argc < 3)
        return usage();
    for (p.kind = 0; p.kind <= ALLTOALL && strcmp(argv[1], kind_names[p.kind]); p.kind++) {}
    if (p.kind > ALLTOALL)
        return usage();
    for (; first + 1 < argc && argv[first][0] == '-'; first += 2)
        if (!strcmp(argv[first], "--ms"))
            ms = atof(argv[first + 1]);
        else if (!strcmp(argv[first], "--batches"))
            batches = atoi(argv[first + 1]);
        else if (!strcmp(argv[first], "--env") && strchr(argv[first + 1], '='))
            putenv(argv[first + 1]);
        else if (!strcmp(argv[first], "--algorithms"))
            for (char *a = strtok(argv[first + 1], ","); a && nalgs < MAX_ALGS; a = strtok(NULL, ","))
                algs[nalgs++] = a;
        else
            return usage();
    batches = batches < 1 ? 1 : batches > MAX_BATCHES ? MAX_BATCHES : batches;
    size_t max = 8;
    for (int a = first; a < argc; a++)
        max = strtoul(argv[a], NULL, 0) > max ? strtoul(argv[a], NULL, 0) : max;
    shmem_init();
    p.me = shmem_my_pe();
    p.npes = shmem_n_pes();
    p.src = shmem_malloc(max * p.npes);
    p.dst = shmem_malloc(max * p.npes);
    for (int a = first; a < argc && (!wrong || nalgs); a++) {
        p.bytes = strtoul(argv[a], NULL, 0);
        if (p.kind == REDUCE)
            p.bytes = (p.bytes + sizeof(long) - 1) / sizeof(long) * sizeof(long);
        if (nalgs) {
            wrong |= compare(&p, algs, nalgs, ms, batches);
            continue;
        }
        wrong = check(&p);
        double us = median_us(&p, ms, batches);
        wrong |= check(&p);
        if (p.me == 0 && !wrong)
            printf("%s %zu %.3f\n", kind_names[p.kind], p.kind == BARRIER ? 0 : p.bytes, us);
        fflush(stdout);
    }
    shmem_free(p.src);
    shmem_free(p.dst);
    shmem_finalize();
    return wrong ? 1 : 0;
}
