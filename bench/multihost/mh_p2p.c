/* mh_p2p - point-to-point figures between two hosts: PE 0 and the first
 * PE that does not share memory with it (found with shmem_ptr, so the
 * program runs under any placement; on one host it falls back to the last
 * PE and says so in the variant).
 *   put, get            latency of one blocking put + quiet / get, 8 B - 1 MiB
 *   put_bw, get_bw      bandwidth of a window of 32 nbi operations + quiet
 *   fetch_add, fetch, swap, compare_swap, add   AMO latency (add: + quiet)
 *   pingpong            one-way latency of p + wait_until bounced back
 * Other PEs idle in barriers.  Every figure is followed by a data check. */
#include "../common/bench.h"

#define MAX_MSG ((size_t)1 << 20)
enum { WINDOW = 32 };

static long word, flag;

struct mh_case {
    struct bench_ctx *c;
    int partner;
    const char *variant;   /* "inter-host", or "same-host" when there is no other host */
    char *src, *dst;       /* symmetric */
    size_t size;
    long round;
};

static int active(const struct mh_case *k) { return k->c->me == 0; }

enum op { PUT, GET, PUT_BW, GET_BW, FETCH_ADD, FETCH, SWAP, CSWAP, ADD };

/* PE 0 issues iters operations (bandwidth ones: windows of WINDOW nbi
 * transfers), with a quiet where the operation needs one to complete.
 * Inlined with a constant op, so each loop_ function below is the plain
 * loop of its one operation. */
static inline __attribute__((always_inline)) double timed_by_pe0(struct mh_case *k, long iters, enum op op)
{
    volatile long sink = 0;  /* keeps fetches from being optimised away */
    int window = op == PUT_BW || op == GET_BW ? WINDOW : 1;
    shmem_barrier_all();
    double t0 = bench_now();
    if (active(k))
        for (long i = 0; i < iters; i++) {
            for (int w = 0; w < window; w++)
                switch (op) {
                case PUT: shmem_putmem(k->dst, k->src, k->size, k->partner); break;
                case GET: shmem_getmem(k->dst, k->src, k->size, k->partner); break;
                case PUT_BW: shmem_putmem_nbi(k->dst, k->src, k->size, k->partner); break;
                case GET_BW: shmem_getmem_nbi(k->dst, k->src, k->size, k->partner); break;
                case FETCH_ADD: sink += shmem_long_atomic_fetch_add(&word, 1, k->partner); break;
                case FETCH: sink += shmem_long_atomic_fetch(&word, k->partner); break;
                case SWAP: sink += shmem_long_atomic_swap(&word, i, k->partner); break;
                case CSWAP: sink += shmem_long_atomic_compare_swap(&word, -1, i, k->partner); break;
                case ADD: shmem_long_atomic_add(&word, 1, k->partner); break;
                }
            if (op == PUT || op == PUT_BW || op == GET_BW || op == ADD)
                shmem_quiet();
        }
    (void)sink;
    return bench_now() - t0;
}

static double loop_put(void *k, long iters) { return timed_by_pe0(k, iters, PUT); }
static double loop_get(void *k, long iters) { return timed_by_pe0(k, iters, GET); }
static double loop_put_bw(void *k, long iters) { return timed_by_pe0(k, iters, PUT_BW); }
static double loop_get_bw(void *k, long iters) { return timed_by_pe0(k, iters, GET_BW); }
static double loop_fetch_add(void *k, long iters) { return timed_by_pe0(k, iters, FETCH_ADD); }
static double loop_fetch(void *k, long iters) { return timed_by_pe0(k, iters, FETCH); }
static double loop_swap(void *k, long iters) { return timed_by_pe0(k, iters, SWAP); }
static double loop_cswap(void *k, long iters) { return timed_by_pe0(k, iters, CSWAP); }
static double loop_add(void *k, long iters) { return timed_by_pe0(k, iters, ADD); }

/* Round r: PE 0 puts r into the partner's flag and waits for it to come back. */
static double loop_pingpong(void *arg, long iters)
{
    struct mh_case *k = arg;
    int me = k->c->me;
    shmem_barrier_all();
    double t0 = bench_now();
    for (long i = 0; i < iters; i++) {
        long r = ++k->round;
        if (me == 0) {
            shmem_long_p(&flag, r, k->partner);
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r);
        } else if (me == k->partner) {
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r);
            shmem_long_p(&flag, r, 0);
        }
    }
    return bench_now() - t0;
}

static void check_transfer(struct mh_case *k, unsigned seed)
{
    struct bench_ctx *c = k->c;
    if (active(k)) {
        bench_fill(k->src, k->size, seed);
        shmem_putmem(k->dst, k->src, k->size, k->partner);
        shmem_quiet();
        memset(k->src, 0, k->size);
        shmem_getmem(k->src, k->dst, k->size, k->partner);
        bench_check_pattern(c, k->src, k->size, seed, "put then get", k->variant);
    }
    shmem_barrier_all();
    if (c->me == k->partner)
        bench_check_pattern(c, k->dst, k->size, seed, "put", k->variant);
    shmem_barrier_all();
}

static void sweep(struct mh_case *k)
{
    struct bench_ctx *c = k->c;
    size_t min, max;
    long max_iters = bench_by_mode(&c->o, 2, 100000, 500000);
    bench_size_range(&c->o, 8, bench_by_mode(&c->o, 4096, MAX_MSG, MAX_MSG), &min, &max);
    for (k->size = min; k->size <= max; k->size = bench_next_size(&c->o, k->size, max)) {
        struct bench_timing t = bench_measure(c, loop_put, k, max_iters);
        bench_emit(c, "put", k->variant, k->size, "latency_us", t.seconds / t.iters * 1e6, t.iters);
        t = bench_measure(c, loop_get, k, max_iters);
        bench_emit(c, "get", k->variant, k->size, "latency_us", t.seconds / t.iters * 1e6, t.iters);
        t = bench_measure(c, loop_put_bw, k, max_iters / WINDOW + 2);
        bench_emit(c, "put_bw", k->variant, k->size, "bandwidth_MBps",
                   (double)k->size * WINDOW * t.iters / t.seconds / 1e6, t.iters);
        t = bench_measure(c, loop_get_bw, k, max_iters / WINDOW + 2);
        bench_emit(c, "get_bw", k->variant, k->size, "bandwidth_MBps",
                   (double)k->size * WINDOW * t.iters / t.seconds / 1e6, t.iters);
        check_transfer(k, (unsigned)k->size * 7u);
        if (k->size == max)
            break;
    }
}

static void amos(struct mh_case *k)
{
    static const struct {
        const char *op;
        bench_loop_fn fn;
    } ops[] = {{"fetch_add", loop_fetch_add}, {"fetch", loop_fetch}, {"swap", loop_swap},
               {"compare_swap", loop_cswap}, {"add", loop_add}};
    struct bench_ctx *c = k->c;
    long max_iters = bench_by_mode(&c->o, 2, 200000, 1000000);
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        struct bench_timing t = bench_measure(c, ops[i].fn, k, max_iters);
        bench_emit(c, ops[i].op, k->variant, sizeof(long), "latency_us", t.seconds / t.iters * 1e6, t.iters);
    }
    /* Check: a known number of increments lands exactly. */
    shmem_barrier_all();
    if (c->me == k->partner)
        word = 0;
    shmem_barrier_all();
    if (active(k)) {
        for (int i = 0; i < 100; i++)
            shmem_long_atomic_add(&word, 3, k->partner);
        shmem_quiet();
        long got = shmem_long_atomic_fetch(&word, k->partner);
        bench_check(c, got == 300, "100 atomic adds of 3 gave %ld", got);
    }
    shmem_barrier_all();
}

static void pingpong(struct mh_case *k)
{
    struct bench_ctx *c = k->c;
    struct bench_timing t = bench_measure(c, loop_pingpong, k, bench_by_mode(&c->o, 2, 200000, 1000000));
    bench_emit(c, "pingpong", k->variant, sizeof(long), "latency_us", t.seconds / t.iters / 2 * 1e6, t.iters);
    shmem_barrier_all();
    bench_check(c, c->me != 0 || flag == k->round, "ping-pong flag %ld after %ld rounds", flag, k->round);
}

int main(int argc, char **argv)
{
    struct bench_ctx c;
    struct mh_case k = {.c = &c};
    bench_init(&c, "mh_p2p", argc, argv);
    k.src = shmem_malloc(MAX_MSG);
    k.dst = shmem_malloc(MAX_MSG);
    int other = -1;
    for (int pe = 1; pe < c.npes && other < 0; pe++)
        if (!shmem_ptr(&word, pe))
            other = pe;
    k.partner = (int)bench_agree_long(&c, other >= 0 ? other : c.npes - 1);
    k.variant = bench_agree_long(&c, other >= 0) ? "inter-host" : "same-host";
    bench_tag_long(&c.tags, "partner", k.partner);
    sweep(&k);
    amos(&k);
    pingpong(&k);
    shmem_free(k.src);
    shmem_free(k.dst);
    return bench_finish(&c);
}
