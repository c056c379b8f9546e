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
 * line per figure; the MPI_Ibarrier control is sparse_exchange_mpi.c, and
 * what the two share is exchange.h. */
#include "../common/bench.h"   /* first: it sets _GNU_SOURCE, which sched.h's CPU_* need */

#include <sched.h>
#include <shmemx.h>

#include "exchange.h"

static void send_notices(struct exchange *x, uint32_t stamp)
{
    int to[MAX_FANOUT];
    pick_neighbours(x, to);
    for (int b = 0; b < x->fanout; b++) {
        struct notice nt = make_notice(x, stamp, b);
        shmem_putmem(&x->inbox[x->me], &nt, sizeof nt, to[b]);
    }
}

/* Receive every complete notice of this iteration not taken yet. */
static void probe_and_receive(struct exchange *x, uint32_t stamp)
{
    unsigned char buf[MAX_BYTES];
    struct notice nt;
    for (int pe = 0; pe < x->npes; pe++)
        if (take_notice(x, pe, stamp, &nt)) {
            shmem_getmem(buf, x->outbox + (size_t)nt.buffer * MAX_BYTES, nt.size, (int)nt.sender);
            count_received(x, &nt, buf);
        }
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
    double total[COUNTS];
    for (int i = 0; i < COUNTS; i++)
        total[i] = bench_sum_over_pes(c, (double)x->count[i]);
    bench_check(c, x->bad_buffers == 0, "%ld received buffers held wrong bytes", x->bad_buffers);
    if (c->me == 0) {
        bench_check(c, total[NOTICES_SENT] == total[NOTICES_RECEIVED], "%.0f notices sent, %.0f received",
                    total[NOTICES_SENT], total[NOTICES_RECEIVED]);
        bench_check(c, total[BYTES_SENT] == total[BYTES_RECEIVED], "%.0f bytes sent, %.0f received",
                    total[BYTES_SENT], total[BYTES_RECEIVED]);
    }
}

int main(int argc, char **argv)
{
    struct bench_ctx c;
    struct exchange x = {0};
    bench_init(&c, "sparse_exchange", argc, argv);
    exchange_init(&x, c.me, c.npes, argc, argv, &c.o);
    bool bind = bench_arg_flag(argc, argv, "bind");
    if (bind)
        bind_to_core(c.me);
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
