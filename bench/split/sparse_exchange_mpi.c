/* The control of seed paper 002's Table 1: the same dynamic sparse data
 * exchange (sparse_exchange.c) written with MPI one-sided communication
 * and MPI_Ibarrier, for a system MPI (Debian's Open MPI: build with mpicc).
 *
 * Notices are MPI_Put into the receiver's inbox window and completed with
 * MPI_Win_flush_all before MPI_Ibarrier (the counterpart of the quiet in
 * shmemx_barrier_all_start); data is fetched with MPI_Get + MPI_Win_flush.
 * Windows live in one passive-target epoch (lock_all) for the whole run.
 *
 *   --variant ibarrier  (default) MPI_Ibarrier, tested inside the probe loop
 *   --variant blocking  MPI_Barrier, no overlap
 *   --iters N           timed iterations (1000; --verify: 20)
 *   --warmup N          untimed iterations first (iters / 5)
 *
 * Same notices, sizes, neighbour choice and checks as the SHMEM program
 * (exchange.h), and its JSON lines, with variant "mpi_ibarrier" / "mpi_blocking". */
#include "exchange.h"   /* first: bench_core.h sets _GNU_SOURCE */

#include <mpi.h>

static MPI_Win inbox_win, outbox_win;

static void send_notices(struct exchange *x, uint32_t stamp)
{
    int to[MAX_FANOUT];
    struct notice nts[MAX_FANOUT];
    pick_neighbours(x, to);
    for (int b = 0; b < x->fanout; b++)
        nts[b] = make_notice(x, stamp, b);
    MPI_Win_sync(outbox_win);   /* my stores to the outbox before anyone's get */
    for (int b = 0; b < x->fanout; b++)
        MPI_Put(&nts[b], sizeof nts[b], MPI_BYTE, to[b], (MPI_Aint)x->me * sizeof(struct notice),
                sizeof nts[b], MPI_BYTE, inbox_win);
    MPI_Win_flush_all(inbox_win);
}

static void probe_and_receive(struct exchange *x, uint32_t stamp)
{
    unsigned char buf[MAX_BYTES];
    struct notice nt;
    MPI_Win_sync(inbox_win);
    for (int pe = 0; pe < x->npes; pe++)
        if (take_notice(x, pe, stamp, &nt)) {
            MPI_Get(buf, (int)nt.size, MPI_BYTE, (int)nt.sender, (MPI_Aint)nt.buffer * MAX_BYTES, (int)nt.size,
                    MPI_BYTE, outbox_win);
            MPI_Win_flush((int)nt.sender, outbox_win);
            count_received(x, &nt, buf);
        }
}

static void iteration(struct exchange *x, uint32_t stamp)
{
    send_notices(x, stamp);
    if (x->blocking) {
        MPI_Barrier(MPI_COMM_WORLD);
        probe_and_receive(x, stamp);
    } else {
        MPI_Request req;
        int done = 0;
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        do {
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
            probe_and_receive(x, stamp);
        } while (!done);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void setup(struct exchange *x)
{
    MPI_Win_allocate((MPI_Aint)x->npes * sizeof(struct notice), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &x->inbox,
                     &inbox_win);
    MPI_Win_allocate((MPI_Aint)(x->fanout ? x->fanout : 1) * MAX_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                     &x->outbox, &outbox_win);
    memset(x->inbox, 0, (size_t)x->npes * sizeof(struct notice));
    MPI_Win_lock_all(MPI_MODE_NOCHECK, inbox_win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, outbox_win);
    MPI_Win_sync(inbox_win);
    MPI_Barrier(MPI_COMM_WORLD);
    x->taken = calloc((size_t)x->npes, sizeof *x->taken);
}

static int report(struct exchange *x, double t, const char *mode)
{
    double t_max;
    long totals[COUNTS], bad;
    MPI_Reduce(&t, &t_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(x->count, totals, COUNTS, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&x->bad_buffers, &bad, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (x->me != 0)
        return 0;
    long failures = (totals[NOTICES_SENT] != totals[NOTICES_RECEIVED]) +
                    (totals[BYTES_SENT] != totals[BYTES_RECEIVED]) + bad;
    if (failures)
        fprintf(stderr, "sparse_exchange_mpi: VERIFY FAIL: notices %ld/%ld, bytes %ld/%ld, bad buffers %ld\n",
                totals[NOTICES_RECEIVED], totals[NOTICES_SENT], totals[BYTES_RECEIVED], totals[BYTES_SENT], bad);
    struct bench_tags tags = {""};
    bench_tag_long(&tags, "fanout", x->fanout);
    bench_tag_str(&tags, "mode", mode);
    bench_tag_str(&tags, "bind", getenv("SPARSE_EXCHANGE_BIND") ? getenv("SPARSE_EXCHANGE_BIND") : "mpirun");
    const char *variant = x->blocking ? "mpi_blocking" : "mpi_ibarrier";
    bench_print_result("sparse_exchange", "sparse_exchange", variant, 0, "time_s", t_max, x->iters, x->npes, &tags);
    bench_print_result("sparse_exchange", "sparse_exchange", variant, 0, "us_per_iter", t_max / (double)x->iters * 1e6,
                       x->iters, x->npes, &tags);
    bench_print_verdict("sparse_exchange_mpi", failures, x->npes);
    return failures != 0;
}

int main(int argc, char **argv)
{
    struct exchange x = {0};
    bench_core_init();
    MPI_Init(&argc, &argv);
    int me, npes;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &npes);
    struct bench_opts o = bench_parse_opts(argc, argv);
    exchange_init(&x, me, npes, argc, argv, &o);
    setup(&x);
    for (long it = 0; it < x.warmup; it++)
        iteration(&x, ++x.stamp);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long it = 0; it < x.iters; it++)
        iteration(&x, ++x.stamp);
    double t = MPI_Wtime() - t0;
    int status = report(&x, t, bench_mode_name(o.mode));
    MPI_Win_unlock_all(inbox_win);
    MPI_Win_unlock_all(outbox_win);
    MPI_Win_free(&inbox_win);
    MPI_Win_free(&outbox_win);
    free(x.taken);
    MPI_Finalize();
    return status;
}
