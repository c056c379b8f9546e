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
 * Same notices, sizes, neighbour choice, checks and JSON lines as the
 * SHMEM program, with variant "mpi_ibarrier" / "mpi_blocking". */
#include <math.h>
#include <mpi.h>

#include "../common/bench_core.h"

enum { MAX_BYTES = 1024 };

struct notice {
    uint32_t stamp, sender, size, slot, check;
};
_Static_assert(sizeof(struct notice) == 20, "the paper's notices are 20 bytes");

struct exchange {
    int me, npes, fanout;
    long iters, warmup;
    uint32_t stamp;
    int blocking;
    struct notice *inbox;
    unsigned char *outbox;
    MPI_Win inbox_win, outbox_win;
    uint32_t *taken;
    uint64_t rng;
    long counts[4];   /* notices sent, received, bytes sent, received */
    long bad_bytes;
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
    struct notice nts[64];
    pick_neighbours(x, to);
    for (int s = 0; s < x->fanout; s++) {
        uint32_t size = 1 + (uint32_t)(next_random(x) % MAX_BYTES);
        bench_fill(x->outbox + (size_t)s * MAX_BYTES, size, pattern_seed((uint32_t)x->me, stamp, (uint32_t)s));
        nts[s] = (struct notice){stamp, (uint32_t)x->me, size, (uint32_t)s, 0};
        nts[s].check = notice_hash(stamp, nts[s].sender, size, nts[s].slot);
        x->counts[0]++;
        x->counts[2] += size;
    }
    MPI_Win_sync(x->outbox_win);   /* my stores to the outbox before anyone's get */
    for (int s = 0; s < x->fanout; s++)
        MPI_Put(&nts[s], sizeof nts[s], MPI_BYTE, to[s], (MPI_Aint)x->me * sizeof(struct notice),
                sizeof nts[s], MPI_BYTE, x->inbox_win);
    MPI_Win_flush_all(x->inbox_win);
}

static void receive(struct exchange *x, const struct notice *nt)
{
    unsigned char buf[MAX_BYTES];
    MPI_Get(buf, (int)nt->size, MPI_BYTE, (int)nt->sender, (MPI_Aint)nt->slot * MAX_BYTES, (int)nt->size,
            MPI_BYTE, x->outbox_win);
    MPI_Win_flush((int)nt->sender, x->outbox_win);
    if (bench_first_mismatch(buf, nt->size, pattern_seed(nt->sender, nt->stamp, nt->slot)) >= 0)
        x->bad_bytes++;
    x->counts[1]++;
    x->counts[3] += nt->size;
}

static void probe_and_receive(struct exchange *x, uint32_t stamp)
{
    MPI_Win_sync(x->inbox_win);
    for (int pe = 0; pe < x->npes; pe++) {
        struct notice nt;
        if (x->taken[pe] == stamp || __atomic_load_n(&x->inbox[pe].stamp, __ATOMIC_ACQUIRE) != stamp)
            continue;
        memcpy(&nt, (const void *)&x->inbox[pe], sizeof nt);
        if (nt.stamp != stamp || nt.check != notice_hash(nt.stamp, nt.sender, nt.size, nt.slot))
            continue;
        x->taken[pe] = stamp;
        receive(x, &nt);
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
                     &x->inbox_win);
    MPI_Win_allocate((MPI_Aint)(x->fanout ? x->fanout : 1) * MAX_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                     &x->outbox, &x->outbox_win);
    memset(x->inbox, 0, (size_t)x->npes * sizeof(struct notice));
    MPI_Win_lock_all(MPI_MODE_NOCHECK, x->inbox_win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, x->outbox_win);
    MPI_Win_sync(x->inbox_win);
    MPI_Barrier(MPI_COMM_WORLD);
    x->taken = calloc((size_t)x->npes, sizeof *x->taken);
}

static int report(struct exchange *x, double t, const char *mode)
{
    double t_max;
    long totals[4], bad;
    MPI_Reduce(&t, &t_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(x->counts, totals, 4, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&x->bad_bytes, &bad, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (x->me != 0)
        return 0;
    long failures = (totals[0] != totals[1]) + (totals[2] != totals[3]) + bad;
    if (failures)
        fprintf(stderr, "sparse_exchange_mpi: VERIFY FAIL: notices %ld/%ld, bytes %ld/%ld, bad buffers %ld\n",
                totals[1], totals[0], totals[3], totals[2], bad);
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
    MPI_Comm_rank(MPI_COMM_WORLD, &x.me);
    MPI_Comm_size(MPI_COMM_WORLD, &x.npes);
    struct bench_opts o = bench_parse_opts(argc, argv);
    const char *variant = bench_arg_str(argc, argv, "variant");
    x.blocking = variant && strcmp(variant, "blocking") == 0;
    x.iters = bench_arg_long(argc, argv, "iters", bench_by_mode(&o, 20, 1000, 1000));
    x.warmup = bench_arg_long(argc, argv, "warmup", x.iters / 5);
    x.fanout = x.npes > 1 ? (int)fmax(1.0, floor(log2((double)x.npes))) : 0;
    if (x.fanout > 64)
        x.fanout = 64;
    x.rng = 0x853C49E6748FEA9Bull ^ (uint64_t)(x.me + 1) * 0x9E3779B97F4A7C15ull;
    setup(&x);
    for (long it = 0; it < x.warmup; it++)
        iteration(&x, ++x.stamp);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long it = 0; it < x.iters; it++)
        iteration(&x, ++x.stamp);
    double t = MPI_Wtime() - t0;
    int status = report(&x, t, bench_mode_name(o.mode));
    MPI_Win_unlock_all(x.inbox_win);
    MPI_Win_unlock_all(x.outbox_win);
    MPI_Win_free(&x.inbox_win);
    MPI_Win_free(&x.outbox_win);
    free(x.taken);
    MPI_Finalize();
    return status;
}
