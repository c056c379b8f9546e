/* p2p_bandwidth - OSU-style streaming bandwidth between PE 0 and PE 1:
 * a window of transfers, then one shmem_quiet, repeated.  Put and get
 * (blocking and nbi), bidirectional put (both PEs stream at once), and the
 * message rate of the same loops for small sizes; heap and static buffers.
 *
 * The data moved by the timed loops is itself checked afterwards: the
 * source holds a pattern before timing starts and the destination must
 * hold it when the loop ends. */
#include "bench.h"

#define MAX_MSG_SIZE ((size_t)4 << 20)
#define MSG_RATE_MAX_SIZE ((size_t)8 << 10)

static char static_src[MAX_MSG_SIZE];
static char static_dst[MAX_MSG_SIZE];

struct bw_case {
    struct bench_ctx *c;
    int partner;
    char *src, *dst;
    const char *variant;
    size_t size;
    int window;  /* transfers in flight before each shmem_quiet */
};

/* Small messages need many in flight to reach a steady rate; large ones
 * saturate memory bandwidth with a few. */
static int window_for(size_t size)
{
    return size <= ((size_t)64 << 10) ? 64 : 16;
}

enum transfer { PUT, PUT_NBI, GET, GET_NBI, BIDIR_PUT };

static inline __attribute__((always_inline)) void transfer(struct bw_case *k, enum transfer op, int pe)
{
    switch (op) {
    case PUT: shmem_putmem(k->dst, k->src, k->size, pe); break;
    case PUT_NBI:
    case BIDIR_PUT: shmem_putmem_nbi(k->dst, k->src, k->size, pe); break;
    case GET: shmem_getmem(k->dst, k->src, k->size, pe); break;
    case GET_NBI: shmem_getmem_nbi(k->dst, k->src, k->size, pe); break;
    }
}

/* PE 0 issues a window of transfers then one shmem_quiet (a blocking get
 * needs none), iters times; for BIDIR_PUT its partner streams back at the
 * same time.  Inlined with a constant op, so each loop_ function below is
 * the plain loop of its one operation. */
static inline __attribute__((always_inline)) double window_loop(struct bw_case *k, long iters,
                                                                enum transfer op)
{
    int me = k->c->me;
    int target = op == BIDIR_PUT && me != 0 ? 0 : k->partner;
    double t0;
    shmem_barrier_all();
    t0 = bench_now();
    if (me == 0 || (op == BIDIR_PUT && me == k->partner))
        for (long i = 0; i < iters; i++) {
            for (int w = 0; w < k->window; w++)
                transfer(k, op, target);
            if (op != GET)
                shmem_quiet();
        }
    if (op == BIDIR_PUT)
        shmem_barrier_all();  /* the figure is the time until both are done */
    return bench_now() - t0;
}

static double loop_put(void *k, long iters) { return window_loop(k, iters, PUT); }
static double loop_put_nbi(void *k, long iters) { return window_loop(k, iters, PUT_NBI); }
static double loop_get(void *k, long iters) { return window_loop(k, iters, GET); }
static double loop_get_nbi(void *k, long iters) { return window_loop(k, iters, GET_NBI); }
static double loop_bidir_put(void *k, long iters) { return window_loop(k, iters, BIDIR_PUT); }

/* ---- verification of the data the timed loop moved ---------------------- */

enum direction { TO_PARTNER, FROM_PARTNER, BOTH_WAYS };

static unsigned seed_of(const struct bw_case *k, int op, int pe)
{
    return (unsigned)(k->size * 7 + (size_t)op * 3 + (size_t)pe * 101);
}

/* Before timing: each PE that sends fills its source with its pattern. */
static void prepare(struct bw_case *k, enum direction dir, int op)
{
    int me = k->c->me;
    int sends = (dir != FROM_PARTNER && me == 0) || (dir != TO_PARTNER && me == k->partner);
    shmem_barrier_all();
    if (sends)
        bench_fill(k->src, k->size, seed_of(k, op, me));
    memset(k->dst, 0, k->size);
    shmem_barrier_all();
}

/* After timing: each receiving PE holds its sender's pattern. */
static void check_received(struct bw_case *k, enum direction dir, int op, const char *name)
{
    struct bench_ctx *c = k->c;
    int me = c->me;
    int sender = -1;
    shmem_barrier_all();
    if (dir == TO_PARTNER && me == k->partner)
        sender = 0;
    else if (dir == FROM_PARTNER && me == 0)
        sender = k->partner;
    else if (dir == BOTH_WAYS && (me == 0 || me == k->partner))
        sender = me == 0 ? k->partner : 0;
    if (sender >= 0)
        bench_check_pattern(c, k->dst, k->size, seed_of(k, op, sender), name, k->variant);
    shmem_barrier_all();
}

static void measure_op(struct bw_case *k, const char *name, bench_loop_fn loop,
                       enum direction dir, int op)
{
    struct bench_ctx *c = k->c;
    long max_iters = bench_by_mode(&c->o, 2, 100000, 500000);
    struct bench_timing t;
    double transfers, directions = (dir == BOTH_WAYS && k->partner != 0) ? 2 : 1;

    prepare(k, dir, op);
    t = bench_measure(c, loop, k, max_iters);
    check_received(k, dir, op, name);
    transfers = (double)t.iters * k->window * directions;
    bench_emit(c, name, k->variant, k->size, "bandwidth_MBps",
               transfers * (double)k->size / t.seconds / 1e6, t.iters);
    if (k->size <= MSG_RATE_MAX_SIZE)
        bench_emit(c, name, k->variant, k->size, "rate_Mops", transfers / t.seconds / 1e6,
                   t.iters);
}

static void sweep_sizes(struct bw_case *k, int all_ops)
{
    struct bench_ctx *c = k->c;
    size_t min, max;
    bench_size_range(&c->o, 1, bench_by_mode(&c->o, 64 << 10, MAX_MSG_SIZE, MAX_MSG_SIZE),
                     &min, &max);
    for (k->size = min; k->size <= max; k->size = bench_next_size(&c->o, k->size, max)) {
        k->window = window_for(k->size);
        measure_op(k, "put", loop_put, TO_PARTNER, 1);
        measure_op(k, "get", loop_get, FROM_PARTNER, 2);
        if (all_ops) {
            measure_op(k, "put_nbi", loop_put_nbi, TO_PARTNER, 3);
            measure_op(k, "get_nbi", loop_get_nbi, FROM_PARTNER, 4);
            measure_op(k, "bidir_put", loop_bidir_put, BOTH_WAYS, 5);
        }
        if (k->size == max)
            break;
    }
}

int main(int argc, char **argv)
{
    struct bench_ctx c;
    struct bw_case k = { 0 };

    bench_init(&c, "p2p_bandwidth", argc, argv);
    k.c = &c;
    k.partner = c.npes > 1 ? 1 : 0;
    k.src = shmem_malloc(MAX_MSG_SIZE);
    k.dst = shmem_malloc(MAX_MSG_SIZE);
    if (!k.src || !k.dst) {
        fprintf(stderr, "p2p_bandwidth: shmem_malloc of 2 x %zu bytes failed\n", MAX_MSG_SIZE);
        shmem_global_exit(2);
    }
    k.variant = "heap";
    sweep_sizes(&k, 1);
    shmem_barrier_all();
    shmem_free(k.src);
    shmem_free(k.dst);

    k.src = static_src, k.dst = static_dst, k.variant = "static";
    sweep_sizes(&k, 0);
    return bench_finish(&c);
}
