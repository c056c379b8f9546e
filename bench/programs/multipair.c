/* multipair - the PGAS-Microbenchmarks of seed 004 (section 4): n pairs of
 * PEs communicate at the same time, PE i with PE i + n (n = npes / 2), for
 * latency and bandwidth of put and get; and the same transfers done as
 * plain loads and stores through shmem_ptr (004 Figure 2) when the library
 * maps the partner's memory.
 *
 * latency_us: mean over the senders of one transfer + completion.
 * bandwidth_MBps: all pairs together (bytes of every pair / slowest pair).
 * With an odd PE count the last PE idles; with one PE it pairs with itself. */
#include "bench.h"

#define MAX_MSG_SIZE ((size_t)1 << 20)
#define BW_WINDOW 16

struct pair_case {
    struct bench_ctx *c;
    int pairs;
    int partner;      /* -1 when this PE has no pair */
    int is_sender;    /* the lower PE of each pair moves the data */
    char *src, *dst;  /* symmetric */
    char *remote_dst; /* shmem_ptr of the partner's dst (may be NULL) */
    char *remote_src; /* shmem_ptr of the partner's src (may be NULL) */
    size_t size;
    int window;
};

/* Stores and loads through shmem_ptr need an ordering point to stand in
 * for shmem_quiet; a full fence also stops the compiler from merging the
 * repeated copies of the timed loop. */
static void memory_fence(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void transfer(struct pair_case *k, const char *op)
{
    switch (op[0]) {
    case 'p': shmem_putmem(k->dst, k->src, k->size, k->partner); break;
    case 'g': shmem_getmem(k->dst, k->src, k->size, k->partner); break;
    case 's': memcpy(k->remote_dst, k->src, k->size); break;  /* store */
    case 'l': memcpy(k->dst, k->remote_src, k->size); break;  /* load */
    default: break;
    }
}

static void complete(const char *op)
{
    if (op[0] == 'p')
        shmem_quiet();
    else if (op[0] == 's' || op[0] == 'l')
        memory_fence();
}

struct pair_loop {
    struct pair_case *k;
    const char *op;  /* "put", "get", "store", "load" */
};

static double loop_window(void *arg, long iters)
{
    struct pair_loop *l = arg;
    struct pair_case *k = l->k;
    double t0;
    shmem_barrier_all();
    t0 = bench_now();
    if (k->is_sender)
        for (long i = 0; i < iters; i++) {
            for (int w = 0; w < k->window; w++)
                transfer(k, l->op);
            complete(l->op);
        }
    return bench_now() - t0;
}

/* ---- verification: one transfer of a fresh pattern per op and size ---- */

/* Push ops (put, store) carry the sender's pattern to the receiver; pull
 * ops (get, load) carry the receiver's pattern back to the sender.  A PE
 * paired with itself plays both roles. */
static void verify_op(struct pair_case *k, const char *op, unsigned seed)
{
    struct bench_ctx *c = k->c;
    int me = c->me, pushes = op[0] == 'p' || op[0] == 's';
    int sender = k->is_sender ? me : k->partner;
    int receiver = k->is_sender ? k->partner : me;
    int filler = pushes ? sender : receiver, checker = pushes ? receiver : sender;
    shmem_barrier_all();
    memset(k->dst, 0, k->size);
    if (k->partner >= 0 && me == filler)
        bench_fill(k->src, k->size, seed + (unsigned)filler * 17u);
    shmem_barrier_all();
    if (k->is_sender) {
        k->window = 1;
        transfer(k, op);
        complete(op);
    }
    shmem_barrier_all();
    if (k->partner >= 0 && me == checker)
        bench_check_pattern(c, k->dst, k->size, seed + (unsigned)filler * 17u, op,
                            sender == receiver ? "self" : "pair");
    shmem_barrier_all();
}

/* ---- measurement --------------------------------------------------------- */

static void measure(struct pair_case *k, const char *op)
{
    struct bench_ctx *c = k->c;
    struct pair_loop l = { k, op };
    long max_iters = bench_by_mode(&c->o, 2, 200000, 1000000);
    struct bench_timing t;
    double my_latency, slowest;

    k->window = 1;
    t = bench_measure(c, loop_window, &l, max_iters);
    my_latency = k->is_sender ? t.seconds / t.iters * 1e6 : 0;
    /* mean over senders: non-senders contribute 0 to the sum */
    my_latency = bench_sum_over_pes(c, my_latency) / k->pairs;
    bench_emit(c, op, "heap", k->size, "latency_us", my_latency, t.iters);

    k->window = BW_WINDOW;
    t = bench_measure(c, loop_window, &l, max_iters / BW_WINDOW + 3);
    slowest = bench_max_over_pes(c, k->is_sender ? t.seconds : 0);
    bench_emit(c, op, "heap", k->size, "bandwidth_MBps",
               (double)k->pairs * t.iters * BW_WINDOW * (double)k->size / slowest / 1e6, t.iters);
    verify_op(k, op, (unsigned)k->size + (unsigned)op[0]);
}

/* shmem_ptr is only used when every sender can reach its partner that way. */
static int map_partner(struct pair_case *k)
{
    int ok = 1;
    if (k->is_sender) {
        k->remote_dst = shmem_ptr(k->dst, k->partner);
        k->remote_src = shmem_ptr(k->src, k->partner);
        ok = k->remote_dst && k->remote_src;
    }
    return bench_all_agree(k->c, ok);
}

static void sweep(struct pair_case *k, int use_ptr)
{
    struct bench_ctx *c = k->c;
    size_t min, max;
    bench_size_range(&c->o, 8, bench_by_mode(&c->o, 4 << 10, MAX_MSG_SIZE, MAX_MSG_SIZE), &min,
                     &max);
    for (k->size = min; k->size <= max; k->size = bench_next_size(&c->o, k->size, max)) {
        measure(k, use_ptr ? "store" : "put");
        measure(k, use_ptr ? "load" : "get");
        if (k->size == max)
            break;
    }
}

static void choose_partner(struct pair_case *k)
{
    int me = k->c->me, n = k->c->npes;
    k->pairs = n > 1 ? n / 2 : 1;
    if (n == 1)
        k->partner = 0;
    else if (me < k->pairs)
        k->partner = me + k->pairs;
    else if (me < 2 * k->pairs)
        k->partner = me - k->pairs;
    else
        k->partner = -1;  /* odd PE count: the last PE has no pair */
    k->is_sender = k->partner >= 0 && me < k->pairs;
}

int main(int argc, char **argv)
{
    struct bench_ctx c;
    struct pair_case k = { 0 };

    bench_init(&c, "multipair", argc, argv);
    k.c = &c;
    choose_partner(&k);
    bench_tag_long(&c.tags, "pairs", k.pairs);
    k.src = shmem_malloc(MAX_MSG_SIZE);
    k.dst = shmem_malloc(MAX_MSG_SIZE);
    if (!k.src || !k.dst) {
        fprintf(stderr, "multipair: shmem_malloc of 2 x %zu bytes failed\n", MAX_MSG_SIZE);
        shmem_global_exit(2);
    }
    sweep(&k, 0);
    if (map_partner(&k))
        sweep(&k, 1);
    else
        bench_skip(&c, "store", "shmem_ptr returned NULL: no load/store access to the partner");
    shmem_barrier_all();
    shmem_free(k.src);
    shmem_free(k.dst);
    return bench_finish(&c);
}
