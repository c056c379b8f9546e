/* Dynamic sparse data exchange with a split-phase barrier: the micro-
 * benchmark of seed paper 002 (Fig. 1, Table 1), after Hoefler, Siebert and
 * Lumsdaine's DSDE problem.
 *
 * Every iteration each PE picks log2(P) distinct random neighbours and
 * sends each a 20-byte notice with shmem_putmem saying "I have 1..1024
 * bytes for you at this offset".  It then starts the split barrier and
 * loops: test the barrier, then receive every notice that has arrived by
 * getting the data from its sender.  Start completes the PE's puts, so once
 * the barrier is complete every notice addressed to this PE is in its
 * inbox; a last probe after completion takes the rest.  A blocking
 * barrier_all then tells senders that their buffers have been read.
 *
 *   --variant split     the split barrier (Shoal's shmemx_barrier_all_*);
 *                       the algorithm is SHOAL_SPLIT_BARRIER's (put, amo, shm)
 *   --variant blocking  no overlap: notices, barrier_all, receive, barrier_all
 *   --iters N           timed iterations (1000; --verify: 20)
 *   --warmup N          untimed iterations first (iters / 5): page faults
 *                       and the scheduler's placement of the PEs settle
 *   --bind              pin PE i to core i mod cores (what mpirun does by
 *                       default for 2 ranks; run.sh binds both or neither)
 *
 * Every byte is checked against the pattern its sender wrote, and the job
 * checks that the notices and bytes received equal those sent.  One JSON
 * line per figure; the MPI_Ibarrier control is sparse_exchange_mpi.c. */
#include "../common/bench.h"   /* first: it sets _GNU_SOURCE, which sched.h's CPU_* need */

#include <math.h>
#include <sched.h>
#include <shmemx.h>
#include <stdbool.h>

enum { MAX_BYTES = 1024 };

/* 20 bytes, as in the paper.  stamp is the iteration + 1 (0 = empty slot)
 * and check a hash of the rest, so a probe never accepts a notice whose
 * bytes are still arriving. */
struct notice {
    uint32_t stamp, sender, size, slot, check;
};
_Static_assert(sizeof(struct notice) == 20, "the paper's notices are 20 bytes");

struct exchange {
    int me, npes, fanout;
    long iters, warmup;         /* timed iterations; untimed ones before them */
    uint32_t stamp;             /* iteration + 1, over warm-up and timed runs */
    bool blocking;
    struct notice *inbox;       /* symmetric: one slot per sender */
    unsigned char *outbox;      /* symmetric: fanout buffers of MAX_BYTES */
    uint32_t *taken;            /* local: stamp last received from each sender */
    uint64_t rng;
    long notices_sent, notices_received, bytes_sent, bytes_received, bad_bytes;
};

static uint32_t notice_hash(uint32_t stamp, uint32_t sender, uint32_t size, uint32_t slot)
{
    uint64_t h = stamp * 0x9E3779B97F4A7C15ull ^ sender * 0xC2B2AE3D27D4EB4Full;
    h ^= (uint64_t)size << 32 | slot;
    h *= 0xFF51AFD7ED558CCDull;
    return (uint32_t)(h ^ h >> 29) | 1;
}

static unsigned pattern_seed(uint32_t sender, uint32_t stamp, uint32_t slot)
{
    return sender * 7919u + stamp * 104729u + slot * 31u;
}

static uint64_t next_random(struct exchange *x)
{
    x->rng ^= x->rng << 13;
    x->rng ^= x->rng >> 7;
    x->rng ^= x->rng << 17;
    return x->rng;
}

/* fanout distinct neighbours other than me (partial Fisher-Yates). */
static void pick_neighbours(struct exchange *x, int *out)
{
    int n = x->npes - 1, *all = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        all[i] = i < x->me ? i : i + 1;
    for (int i = 0; i < x->fanout; i++) {
        int j = i + (int)(next_random(x) % (uint64_t)(n - i));
        int t = all[i];
        all[i] = all[j];
        all[j] = t;
        out[i] = all[i];
    }
    free(all);
}

static void send_notices(struct exchange *x, uint32_t stamp)
{
    int to[64];
    pick_neighbours(x, to);
    for (int s = 0; s < x->fanout; s++) {
        uint32_t size = 1 + (uint32_t)(next_random(x) % MAX_BYTES);
        bench_fill(x->outbox + (size_t)s * MAX_BYTES, size, pattern_seed((uint32_t)x->me, stamp, (uint32_t)s));
        struct notice nt = {stamp, (uint32_t)x->me, size, (uint32_t)s, 0};
        nt.check = notice_hash(stamp, nt.sender, size, nt.slot);
        shmem_putmem(&x->inbox[x->me], &nt, sizeof nt, to[s]);
        x->notices_sent++;
        x->bytes_sent += size;
    }
}

static void receive(struct exchange *x, const struct notice *nt)
{
    unsigned char buf[MAX_BYTES];
    shmem_getmem(buf, x->outbox + (size_t)nt->slot * MAX_BYTES, nt->size, (int)nt->sender);
    long bad = bench_first_mismatch(buf, nt->size, pattern_seed(nt->sender, nt->stamp, nt->slot));
    if (bad >= 0)
        x->bad_bytes++;
    x->notices_received++;
    x->bytes_received += nt->size;
}

/* Receive every complete notice of this iteration not taken yet; how many. */
static int probe_and_receive(struct exchange *x, uint32_t stamp)
{
    int got = 0;
    for (int pe = 0; pe < x->npes; pe++) {
        struct notice nt;
        if (x->taken[pe] == stamp || __atomic_load_n(&x->inbox[pe].stamp, __ATOMIC_ACQUIRE) != stamp)
            continue;
        memcpy(&nt, (const void *)&x->inbox[pe], sizeof nt);
        if (nt.stamp != stamp || nt.check != notice_hash(nt.stamp, nt.sender, nt.size, nt.slot))
            continue;   /* still arriving */
        x->taken[pe] = stamp;
        receive(x, &nt);
        got++;
    }
    return got;
}

static void iteration_split(struct exchange *x, uint32_t stamp)
{
    int done;
    send_notices(x, stamp);
    shmemx_barrier_all_start();
    do {
        done = shmemx_barrier_all_test();
        probe_and_receive(x, stamp);
    } while (!done);
    shmem_barrier_all();
}

static void iteration_blocking(struct exchange *x, uint32_t stamp)
{
    send_notices(x, stamp);
    shmem_barrier_all();
    probe_and_receive(x, stamp);
    shmem_barrier_all();
}

static double run(struct exchange *x, long iters)
{
    shmem_barrier_all();
    double t0 = bench_now();
    for (long it = 0; it < iters; it++) {
        if (x->blocking)
            iteration_blocking(x, ++x->stamp);
        else
            iteration_split(x, ++x->stamp);
    }
    return bench_now() - t0;
}

/* Two PEs that polls on one core take turns by time slices; pinning
 * keeps each on its own core when there are enough. */
static void bind_to_core(int me)
{
    cpu_set_t online, one;
    if (sched_getaffinity(0, sizeof online, &online) != 0)
        return;
    int want = me % CPU_COUNT(&online), seen = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &online) || seen++ != want)
            continue;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        sched_setaffinity(0, sizeof one, &one);
        return;
    }
}

static const char *variant_name(const struct exchange *x)
{
    static char name[64];
    const char *algo = getenv("SHOAL_SPLIT_BARRIER");
    if (x->blocking)
        return "blocking";
    snprintf(name, sizeof name, "split_%s", algo && *algo ? algo : "auto");
    return name;
}

static void verify_totals(struct bench_ctx *c, struct exchange *x)
{
    double sent = bench_sum_over_pes(c, (double)x->notices_sent);
    double received = bench_sum_over_pes(c, (double)x->notices_received);
    double bytes_sent = bench_sum_over_pes(c, (double)x->bytes_sent);
    double bytes_received = bench_sum_over_pes(c, (double)x->bytes_received);
    bench_check(c, x->bad_bytes == 0, "%ld received buffers held wrong bytes", x->bad_bytes);
    if (c->me == 0) {
        bench_check(c, sent == received, "%.0f notices sent, %.0f received", sent, received);
        bench_check(c, bytes_sent == bytes_received, "%.0f bytes sent, %.0f received", bytes_sent,
                    bytes_received);
    }
}

int main(int argc, char **argv)
{
    struct bench_ctx c;
    struct exchange x = {0};
    bench_init(&c, "sparse_exchange", argc, argv);
    const char *variant = bench_arg_str(argc, argv, "variant");
    x.me = c.me;
    x.npes = c.npes;
    x.blocking = variant && strcmp(variant, "blocking") == 0;
    x.iters = bench_arg_long(argc, argv, "iters", bench_by_mode(&c.o, 20, 1000, 1000));
    x.warmup = bench_arg_long(argc, argv, "warmup", x.iters / 5);
    bool bind = bench_arg_flag(argc, argv, "bind");
    if (bind)
        bind_to_core(c.me);
    x.fanout = c.npes > 1 ? (int)fmax(1.0, floor(log2((double)c.npes))) : 0;
    if (x.fanout > 64)
        x.fanout = 64;
    x.rng = 0x853C49E6748FEA9Bull ^ (uint64_t)(c.me + 1) * 0x9E3779B97F4A7C15ull;
    x.inbox = shmem_calloc((size_t)c.npes, sizeof *x.inbox);
    x.outbox = shmem_malloc((size_t)(x.fanout ? x.fanout : 1) * MAX_BYTES);
    x.taken = calloc((size_t)c.npes, sizeof *x.taken);
    bench_tag_long(&c.tags, "fanout", x.fanout);
    bench_tag_str(&c.tags, "bind", bind ? "core" : "none");
    run(&x, x.warmup);
    double t = run(&x, x.iters);
    double t_max = bench_max_over_pes(&c, t);
    verify_totals(&c, &x);
    bench_emit(&c, "sparse_exchange", variant_name(&x), 0, "time_s", t_max, x.iters);
    bench_emit(&c, "sparse_exchange", variant_name(&x), 0, "us_per_iter", t_max / (double)x.iters * 1e6,
               x.iters);
    shmem_barrier_all();
    shmem_free(x.inbox);
    shmem_free(x.outbox);
    free(x.taken);
    return bench_finish(&c);
}
