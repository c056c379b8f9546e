/* p2p_latency - OSU-style point-to-point latency between PE 0 and PE 1
 * (003: "PE 0 issues shmem_putmem ... then calls shmem_quiet; PE 1 waits on
 * shmem_barrier"), for put/get, blocking and nbi, 1 B - 4 MiB, on heap and
 * on global (static) buffers; shmem_long_p / shmem_long_g; and a one-way
 * ping-pong latency to hold against the machine's cache-line ping-pong.
 *
 * Every figure is followed by a data check of the same operation.  Other
 * PEs (np > 2) idle in barriers; with one PE, PE 0 talks to itself. */
#include "bench.h"

#define MAX_MSG_SIZE ((size_t)4 << 20)

/* Global buffers: symmetric because they are static data, the second
 * kind of symmetric object besides the heap. */
static char static_src[MAX_MSG_SIZE];
static char static_dst[MAX_MSG_SIZE];
static long static_word;
static long pingpong_flag;
static long raw_flag;   /* the plain-load/store ping-pong's flag */

struct p2p_case {
    struct bench_ctx *c;
    int partner;       /* the PE PE 0 talks to */
    char *src, *dst;   /* symmetric buffers of the variant measured */
    long *word;        /* symmetric long for p/g */
    const char *variant; /* "heap" or "static", for messages */
    size_t size;
    long pingpong_round;
    long raw_round;
    volatile long *raw_theirs;   /* the partner's raw_flag through shmem_ptr, NULL when unreachable */
    int raw_pause;               /* spin with the CPU's pause hint */
};

enum p2p_op { OP_PUT, OP_PUT_NBI, OP_GET, OP_GET_NBI, OP_P, OP_G };

/* PE 0 issues iters operations (completing each: quiet after every put, p
 * and nbi get); the partner and any others wait.  Inlined with op a
 * constant, so each loop_* below is its own tight loop. */
static inline __attribute__((always_inline)) double timed_by_pe0(struct p2p_case *k, enum p2p_op op, long iters)
{
    volatile long sink = 0;  /* keeps g's loads from being optimised away */
    shmem_barrier_all();
    double t0 = bench_now();
    if (k->c->me == 0)
        for (long i = 0; i < iters; i++) {
            switch (op) {
            case OP_PUT: shmem_putmem(k->dst, k->src, k->size, k->partner); break;
            case OP_PUT_NBI: shmem_putmem_nbi(k->dst, k->src, k->size, k->partner); break;
            case OP_GET: shmem_getmem(k->dst, k->src, k->size, k->partner); break;
            case OP_GET_NBI: shmem_getmem_nbi(k->dst, k->src, k->size, k->partner); break;
            case OP_P: shmem_long_p(k->word, i, k->partner); break;
            case OP_G: sink += shmem_long_g(k->word, k->partner); break;
            }
            if (op != OP_GET && op != OP_G)
                shmem_quiet();
        }
    (void)sink;
    return bench_now() - t0;
}

static double loop_put(void *arg, long iters) { return timed_by_pe0(arg, OP_PUT, iters); }
static double loop_put_nbi(void *arg, long iters) { return timed_by_pe0(arg, OP_PUT_NBI, iters); }
static double loop_get(void *arg, long iters) { return timed_by_pe0(arg, OP_GET, iters); }
static double loop_get_nbi(void *arg, long iters) { return timed_by_pe0(arg, OP_GET_NBI, iters); }
static double loop_p(void *arg, long iters) { return timed_by_pe0(arg, OP_P, iters); }
static double loop_g(void *arg, long iters) { return timed_by_pe0(arg, OP_G, iters); }

/* PE 0 writes round r into the partner's flag and waits for the partner
 * to write r back: two one-way trips per round.  Written so that it also
 * works when PE 0 is its own partner. */
static double loop_pingpong(void *arg, long iters)
{
    struct p2p_case *k = arg;
    int me = k->c->me;
    double t0;
    shmem_barrier_all();
    t0 = bench_now();
    for (long i = 0; i < iters; i++) {
        long round = ++k->pingpong_round;
        if (me == 0)
            shmem_long_p(&pingpong_flag, round, k->partner);
        if (me == k->partner) {
            shmem_long_wait_until(&pingpong_flag, SHMEM_CMP_GE, round);
            shmem_long_p(&pingpong_flag, round, 0);
        }
        if (me == 0)
            shmem_long_wait_until(&pingpong_flag, SHMEM_CMP_GE, round);
    }
    return bench_now() - t0;
}

static inline void spin_hint(int pause)
{
    if (pause)
        bench_cpu_pause();
}

/* The same rounds with no library call: each side polls its own flag and
 * stores into the other's (cacheline_pingpong's "flag_per_side"). */
static double loop_pingpong_raw(void *arg, long iters)
{
    struct p2p_case *k = arg;
    volatile long *mine = &raw_flag;
    int me = k->c->me, pause = k->raw_pause;
    shmem_barrier_all();
    double t0 = bench_now();
    for (long i = 0; i < iters; i++) {
        long round = ++k->raw_round;
        if (me == 0) {
            *k->raw_theirs = round;
            while (*mine < round)
                spin_hint(pause);
        } else if (me == k->partner) {
            while (*mine < round)
                spin_hint(pause);
            *k->raw_theirs = round;
        }
    }
    return bench_now() - t0;
}

/* ---- verification: one more transfer of a fresh pattern, checked ---- */

static void verify_put(struct p2p_case *k, int nbi, unsigned seed)
{
    struct bench_ctx *c = k->c;
    if (c->me == 0) {
        bench_fill(k->src, k->size, seed);
        if (nbi)
            shmem_putmem_nbi(k->dst, k->src, k->size, k->partner);
        else
            shmem_putmem(k->dst, k->src, k->size, k->partner);
        shmem_quiet();
    }
    shmem_barrier_all();
    if (c->me == k->partner)
        bench_check_pattern(c, k->dst, k->size, seed, nbi ? "put_nbi" : "put", k->variant);
    shmem_barrier_all();
}

static void verify_get(struct p2p_case *k, int nbi, unsigned seed)
{
    struct bench_ctx *c = k->c;
    if (c->me == k->partner)
        bench_fill(k->src, k->size, seed);
    shmem_barrier_all();
    if (c->me == 0) {
        memset(k->dst, 0, k->size);
        if (nbi) {
            shmem_getmem_nbi(k->dst, k->src, k->size, k->partner);
            shmem_quiet();
        } else {
            shmem_getmem(k->dst, k->src, k->size, k->partner);
        }
        bench_check_pattern(c, k->dst, k->size, seed, nbi ? "get_nbi" : "get", k->variant);
    }
    shmem_barrier_all();
}

static void verify_p_and_g(struct p2p_case *k, long value)
{
    struct bench_ctx *c = k->c;
    if (c->me == 0) {
        shmem_long_p(k->word, value, k->partner);
        shmem_quiet();
        bench_check(c, shmem_long_g(k->word, k->partner) == value, "p then g of %ld", value);
    }
    shmem_barrier_all();
    if (c->me == k->partner)
        bench_check(c, *k->word == value, "p: partner holds %ld, expected %ld", *k->word, value);
    shmem_barrier_all();
}

/* ---- sweeps ------------------------------------------------------------ */

static void emit_latency(struct p2p_case *k, const char *op, const char *variant,
                         struct bench_timing t)
{
    bench_emit(k->c, op, variant, k->size, "latency_us", t.seconds / t.iters * 1e6, t.iters);
}

/* nbi: also the nonblocking forms (always on the heap; on static data in
 * full mode only, to keep --quick short). */
static void sweep_sizes(struct p2p_case *k, const char *variant, int nbi)
{
    k->variant = variant;
    struct bench_ctx *c = k->c;
    size_t min, max;
    long max_iters = bench_by_mode(&c->o, 2, 200000, 1000000);
    bench_size_range(&c->o, 1, bench_by_mode(&c->o, 64 << 10, MAX_MSG_SIZE, MAX_MSG_SIZE),
                     &min, &max);
    for (k->size = min; k->size <= max; k->size = bench_next_size(&c->o, k->size, max)) {
        unsigned seed = (unsigned)k->size * 13u;
        emit_latency(k, "put", variant, bench_measure(c, loop_put, k, max_iters));
        verify_put(k, 0, seed + 1);
        emit_latency(k, "get", variant, bench_measure(c, loop_get, k, max_iters));
        verify_get(k, 0, seed + 3);
        if (nbi) {
            emit_latency(k, "put_nbi", variant, bench_measure(c, loop_put_nbi, k, max_iters));
            verify_put(k, 1, seed + 2);
            emit_latency(k, "get_nbi", variant, bench_measure(c, loop_get_nbi, k, max_iters));
            verify_get(k, 1, seed + 4);
        }
        if (k->size == max)
            break;
    }
}

static void single_word_ops(struct p2p_case *k, const char *variant)
{
    struct bench_ctx *c = k->c;
    long max_iters = bench_by_mode(&c->o, 2, 1000000, 5000000);
    k->size = sizeof(long);
    emit_latency(k, "p", variant, bench_measure(c, loop_p, k, max_iters));
    emit_latency(k, "g", variant, bench_measure(c, loop_g, k, max_iters));
    verify_p_and_g(k, 4242 + c->npes);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

enum { PAIRED_BATCHES = 15 };

/* One batch of each of the three ping-pongs back to back; one-way us of
 * the library's, and its ratio to the faster plain one of the same batch. */
static double paired_batch(struct p2p_case *k, long n, double *lib, double *spin, double *pause)
{
    *lib = loop_pingpong(k, n) / n / 2 * 1e6;
    k->raw_pause = 0;
    *spin = loop_pingpong_raw(k, n) / n / 2 * 1e6;
    k->raw_pause = 1;
    *pause = loop_pingpong_raw(k, n) / n / 2 * 1e6;
    return *lib / (*spin < *pause ? *spin : *pause);
}

/* The library's ping-pong alone or, when the partner is load/store
 * reachable, in short batches alternating with the plain one (both
 * spins), so a change of placement hits both sides of a pair. */
static void pingpong(struct p2p_case *k)
{
    struct bench_ctx *c = k->c;
    struct bench_timing t = bench_measure(c, loop_pingpong, k,
                                          bench_by_mode(&c->o, 2, 1000000, 5000000));
    k->size = sizeof(long);
    k->raw_theirs = c->npes > 1 ? shmem_ptr(&raw_flag, c->me == 0 ? k->partner : 0) : NULL;
    /* every PE must take the same branch: the loops hold barriers */
    int paired = bench_all_agree(c, k->raw_theirs != NULL || (c->me != 0 && c->me != k->partner)) && c->npes > 1;
    if (!paired) {
        /* one round = two one-way trips */
        bench_emit(c, "pingpong", "static", k->size, "latency_us", t.seconds / t.iters / 2 * 1e6, t.iters);
    } else {
        double lib[PAIRED_BATCHES], spin[PAIRED_BATCHES], pause[PAIRED_BATCHES], ratio[PAIRED_BATCHES];
        long n = t.iters / 4 > 100 ? t.iters / 4 : t.iters;
        for (int b = 0; b < PAIRED_BATCHES; b++)
            ratio[b] = paired_batch(k, n, &lib[b], &spin[b], &pause[b]);
        bench_emit(c, "pingpong", "static", k->size, "latency_us", median_of(lib, PAIRED_BATCHES), n);
        bench_emit(c, "pingpong", "raw_spin", k->size, "latency_us", median_of(spin, PAIRED_BATCHES), n);
        bench_emit(c, "pingpong", "raw_pause", k->size, "latency_us", median_of(pause, PAIRED_BATCHES), n);
        bench_emit(c, "pingpong", "paired", k->size, "ratio", median_of(ratio, PAIRED_BATCHES), n);
    }
    shmem_barrier_all();
    bench_check(c, pingpong_flag == k->pingpong_round || (c->me != 0 && c->me != k->partner),
                "ping-pong flag %ld after %ld rounds", pingpong_flag, k->pingpong_round);
    bench_check(c, raw_flag == k->raw_round || !paired || (c->me != 0 && c->me != k->partner),
                "raw ping-pong flag %ld after %ld rounds", raw_flag, k->raw_round);
}

int main(int argc, char **argv)
{
    struct bench_ctx c;
    struct p2p_case k = { 0 };
    char *heap_src, *heap_dst;
    long *heap_word;

    bench_init(&c, "p2p_latency", argc, argv);
    heap_src = shmem_malloc(MAX_MSG_SIZE);
    heap_dst = shmem_malloc(MAX_MSG_SIZE);
    heap_word = shmem_malloc(sizeof(long));
    if (!heap_src || !heap_dst || !heap_word) {
        fprintf(stderr, "p2p_latency: shmem_malloc of 2 x %zu bytes failed\n", MAX_MSG_SIZE);
        shmem_global_exit(2);
    }
    k.c = &c;
    k.partner = c.npes > 1 ? 1 : 0;

    pingpong(&k);
    k.src = heap_src, k.dst = heap_dst, k.word = heap_word;
    single_word_ops(&k, "heap");
    sweep_sizes(&k, "heap", 1);
    k.src = static_src, k.dst = static_dst, k.word = &static_word;
    single_word_ops(&k, "static");
    sweep_sizes(&k, "static", c.o.mode != BENCH_QUICK);

    shmem_barrier_all();
    shmem_free(heap_src);
    shmem_free(heap_dst);
    shmem_free(heap_word);
    return bench_finish(&c);
}
