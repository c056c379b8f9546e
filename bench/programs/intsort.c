/* intsort - an integer bucket sort in the style of NAS IS (004 section 6):
 * keys with a roughly Gaussian distribution (the mean of four uniform
 * numbers, as NAS IS draws them), a key range split evenly over the PEs,
 * and per iteration:
 *   1. count the keys bound for each PE;
 *   2. reserve room at each destination with an atomic fetch-add on its
 *      fill counter (the one-sided replacement of IS's all-to-all of
 *      counts);
 *   3. put the keys there (shmem_putmem_nbi), shmem_quiet, barrier;
 *   4. counting-sort the received keys locally.
 * Reports time_s per iteration (slowest PE) and Mkeys/s.  Verification:
 * every PE's keys are sorted and inside its range, ranges follow each
 * other across PEs, and the number and sum of keys are preserved. */
#include "bench.h"

struct sort_case {
    struct bench_ctx *c;
    size_t keys_per_pe;
    int max_key;          /* keys are in [0, max_key) */
    int iterations;
    int *keys;            /* private: this PE's generated keys */
    int *bucketed;        /* private: keys grouped by destination */
    size_t *count, *start;/* private: per destination */
    int *received;        /* symmetric: keys sent to this PE */
    size_t capacity;      /* of received */
    long *counters;       /* symmetric [2]: [0] fill counter, [1] overflow flag */
    int *sorted;          /* private */
    size_t n_received;
};

/* ---- key generation: NAS-like, deterministic per PE ------------------- */

static double uniform(unsigned long long *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / 9007199254740992.0;
}

static void generate_keys(struct sort_case *k)
{
    unsigned long long state = 314159265ull + 2718281ull * (unsigned long long)k->c->me;
    for (size_t i = 0; i < k->keys_per_pe; i++) {
        double sum = uniform(&state) + uniform(&state) + uniform(&state) + uniform(&state);
        k->keys[i] = (int)(sum / 4.0 * k->max_key);
    }
}

static int owner_of(const struct sort_case *k, int key)
{
    return (int)((long long)key * k->c->npes / k->max_key);
}

/* Smallest key owner_of maps to pe: ceil(pe * max_key / npes). */
static int range_start(const struct sort_case *k, int pe)
{
    return (int)(((long long)pe * k->max_key + k->c->npes - 1) / k->c->npes);
}

/* ---- one iteration ----------------------------------------------------- */

static void group_by_destination(struct sort_case *k)
{
    int n = k->c->npes;
    size_t *fill = calloc((size_t)n, sizeof(size_t));
    memset(k->count, 0, sizeof(size_t) * (size_t)n);
    for (size_t i = 0; i < k->keys_per_pe; i++)
        k->count[owner_of(k, k->keys[i])]++;
    for (int pe = 1; pe < n; pe++)
        k->start[pe] = k->start[pe - 1] + k->count[pe - 1];
    for (size_t i = 0; i < k->keys_per_pe; i++) {
        int pe = owner_of(k, k->keys[i]);
        k->bucketed[k->start[pe] + fill[pe]++] = k->keys[i];
    }
    free(fill);
}

/* Reserve room at every destination and put the keys there.  Starts at
 * the next PE so that not every PE hits PE 0 first. */
static void send_keys(struct sort_case *k)
{
    struct bench_ctx *c = k->c;
    for (int step = 0; step < c->npes; step++) {
        int pe = (c->me + step) % c->npes;
        long at;
        if (k->count[pe] == 0)
            continue;
        at = shmem_long_atomic_fetch_add(&k->counters[0], (long)k->count[pe], pe);
        if ((size_t)at + k->count[pe] > k->capacity) {  /* would overflow: flag it instead */
            shmem_long_atomic_set(&k->counters[1], 1, pe);
            continue;
        }
        shmem_putmem_nbi(k->received + at, k->bucketed + k->start[pe], k->count[pe] * sizeof(int),
                         pe);
    }
    shmem_quiet();
}

static void counting_sort(struct sort_case *k)
{
    int lo = range_start(k, k->c->me), hi = range_start(k, k->c->me + 1);
    size_t *histogram = calloc((size_t)(hi - lo + 1), sizeof(size_t));
    size_t out = 0;
    for (size_t i = 0; i < k->n_received; i++) {
        int key = k->received[i];
        histogram[key >= lo && key < hi ? key - lo : hi - lo]++;  /* strays: last slot */
    }
    for (int key = lo; key < hi; key++)
        for (size_t r = 0; r < histogram[key - lo]; r++)
            k->sorted[out++] = key;
    for (size_t r = 0; r < histogram[hi - lo]; r++)  /* keep strays so the check sees them */
        k->sorted[out++] = -1;
    free(histogram);
}

static double sort_once(struct sort_case *k)
{
    double t0;
    k->counters[0] = 0;
    k->counters[1] = 0;
    shmem_barrier_all();  /* every fill counter is reset before anyone adds */
    t0 = bench_now();
    group_by_destination(k);
    send_keys(k);
    shmem_barrier_all();  /* all keys have arrived */
    k->n_received = (size_t)k->counters[0];
    if (k->n_received > k->capacity)
        k->n_received = k->capacity;
    counting_sort(k);
    return bench_now() - t0;
}

/* ---- verification ----------------------------------------------------------- */

static long long key_sum(const int *keys, size_t n)
{
    long long s = 0;
    for (size_t i = 0; i < n; i++)
        s += keys[i];
    return s;
}

static void verify(struct sort_case *k)
{
    struct bench_ctx *c = k->c;
    static int last_key_of_prev;  /* symmetric: the previous PE writes its last key here */
    int lo = range_start(k, c->me);
    double counts[2], totals[2];
    size_t unsorted = 0;

    for (size_t i = 0; i < k->n_received; i++)
        unsorted += k->sorted[i] < lo || (i > 0 && k->sorted[i] < k->sorted[i - 1]);
    bench_check(c, k->counters[1] == 0, "intsort: receive buffer of %zu keys overflowed",
                k->capacity);
    bench_check(c, unsorted == 0, "intsort: %zu keys out of order or outside the PE's range",
                unsorted);

    last_key_of_prev = -1;
    shmem_barrier_all();
    if (c->me + 1 < c->npes && k->n_received > 0)
        shmem_int_p(&last_key_of_prev, k->sorted[k->n_received - 1], c->me + 1);
    shmem_barrier_all();
    bench_check(c, k->n_received == 0 || k->sorted[0] >= last_key_of_prev,
                "intsort: first key %d is below the previous PE's last key %d",
                k->n_received ? k->sorted[0] : 0, last_key_of_prev);

    counts[0] = bench_sum_over_pes(c, (double)k->keys_per_pe);
    counts[1] = bench_sum_over_pes(c, (double)k->n_received);
    totals[0] = bench_sum_over_pes(c, (double)key_sum(k->keys, k->keys_per_pe));
    totals[1] = bench_sum_over_pes(c, (double)key_sum(k->sorted, k->n_received));
    if (c->me == 0) {
        bench_check(c, counts[0] == counts[1], "intsort: %g keys in, %g out", counts[0], counts[1]);
        bench_check(c, totals[0] == totals[1], "intsort: key sum %g in, %g out", totals[0],
                    totals[1]);
    }
}

static void allocate(struct sort_case *k)
{
    int n = k->c->npes;
    /* The busiest (middle) PE receives up to ~2.7x the mean for this
     * distribution; 4x plus slack keeps it from overflowing. */
    k->capacity = k->keys_per_pe * 4 + 1024;
    k->keys = malloc(k->keys_per_pe * sizeof(int));
    k->bucketed = malloc(k->keys_per_pe * sizeof(int));
    k->count = calloc((size_t)n, sizeof(size_t));
    k->start = calloc((size_t)n, sizeof(size_t));
    k->sorted = malloc(k->capacity * sizeof(int));
    k->received = shmem_malloc(k->capacity * sizeof(int));
    k->counters = shmem_malloc(2 * sizeof(long));
    if (!k->keys || !k->bucketed || !k->count || !k->start || !k->sorted || !k->received ||
        !k->counters) {
        fprintf(stderr, "intsort: allocating for %zu keys failed\n", k->keys_per_pe);
        shmem_global_exit(2);
    }
}

int main(int argc, char **argv)
{
    struct bench_ctx c;
    struct sort_case k = { 0 };
    double total = 0, per_iter;

    bench_init(&c, "intsort", argc, argv);
    k.c = &c;
    k.keys_per_pe = (size_t)bench_arg_long(argc, argv, "keys",
                                           bench_by_mode(&c.o, 4096, 1 << 20, 1 << 22));
    k.max_key = (int)bench_arg_long(argc, argv, "max-key", bench_by_mode(&c.o, 1 << 11, 1 << 19,
                                                                         1 << 21));
    k.iterations = (int)bench_arg_long(argc, argv, "iterations", bench_by_mode(&c.o, 2, 5, 10));
    bench_tag_long(&c.tags, "max_key", k.max_key);
    allocate(&k);
    generate_keys(&k);
    sort_once(&k);  /* warm-up: first touch of every buffer */
    for (int it = 0; it < k.iterations; it++)
        total += sort_once(&k);
    per_iter = bench_max_over_pes(&c, total / k.iterations);
    bench_emit(&c, "sort", "amo_put", k.keys_per_pe * sizeof(int), "time_s", per_iter,
               k.iterations);
    bench_emit(&c, "sort", "amo_put", k.keys_per_pe * sizeof(int), "rate_Mkeys_per_s",
               (double)k.keys_per_pe * c.npes / per_iter / 1e6, k.iterations);
    verify(&k);
    shmem_barrier_all();
    shmem_free(k.received);
    shmem_free(k.counters);
    return bench_finish(&c);
}
