/* ctx_msgrate - do contexts make a multithreaded PE faster?  Message rate
 * of 8-byte non-blocking puts from the lower half of the PEs to partners in
 * the upper half (PE p -> p + N/2; one PE talks to itself), in windows of
 * WINDOW puts closed by a quiet, with
 *   1thread         one thread on its own context;
 *   2threads_ctx    two threads, each on its own context (the case contexts
 *                   exist for: one thread's quiet does not wait for the other);
 *   2threads_shared two threads on SHMEM_CTX_DEFAULT (the control).
 * Needs SHMEM_THREAD_MULTIPLE.  metric msgs_per_s: puts per second summed
 * over the sending PEs.  The received words are checked after each figure.
 *
 * --fake-hosts: before init, put every PE on its own pseudo-host (Shoal's
 * SHOAL_HOST_ID, from the launcher's SHOAL_PE) so the puts cross the network
 * transport on one machine; other libraries ignore it. */
#include <pthread.h>

#include "bench.h"

#define WINDOW 64
#define MAX_THREADS 2

static long dst[MAX_THREADS][WINDOW];   /* written by my partner's threads */

struct rate_case {
    struct bench_ctx *c;
    int threads, own_ctx;
    int partner;                /* -1: I only receive */
    long iters;                 /* windows per thread, set per loop call */
};

struct worker {
    struct rate_case *k;
    int id;
    shmem_ctx_t ctx;
    double start, end;         /* when this thread began and finished its windows */
    long src[WINDOW];
};

static struct worker workers[MAX_THREADS];
static pthread_barrier_t start_line;

/* Threads start together (thread creation is not timed); each notes when
 * it began and finished. */
static void *send_windows(void *arg)
{
    struct worker *w = arg;
    pthread_barrier_wait(&start_line);
    w->start = bench_now();
    for (long it = 0; it < w->k->iters; it++) {
        for (int j = 0; j < WINDOW; j++)
            shmem_ctx_putmem_nbi(w->ctx, &dst[w->id][j], &w->src[j], sizeof(long), w->k->partner);
        shmem_ctx_quiet(w->ctx);
    }
    w->end = bench_now();
    return NULL;
}

/* Returns the time from the first thread's start to the last one's end. */
static double loop_rate(void *arg, long iters)
{
    struct rate_case *k = arg;
    pthread_t th[MAX_THREADS];
    double first = 0, last = 0;
    k->iters = iters;
    shmem_barrier_all();
    if (k->partner >= 0) {
        pthread_barrier_init(&start_line, NULL, (unsigned)k->threads);
        for (int i = 1; i < k->threads; i++)
            pthread_create(&th[i], NULL, send_windows, &workers[i]);
        send_windows(&workers[0]);
        for (int i = 1; i < k->threads; i++)
            pthread_join(th[i], NULL);
        pthread_barrier_destroy(&start_line);
        first = workers[0].start;
        last = workers[0].end;
        for (int i = 1; i < k->threads; i++) {
            first = workers[i].start < first ? workers[i].start : first;
            last = workers[i].end > last ? workers[i].end : last;
        }
    }
    shmem_barrier_all();
    return last - first;
}

static void run(struct bench_ctx *c, int threads, int own_ctx, const char *variant)
{
    struct rate_case k = {.c = c, .threads = threads, .own_ctx = own_ctx, .partner = -1};
    int half = c->npes / 2;
    if (c->npes == 1)
        k.partner = 0;
    else if (c->me < half)
        k.partner = c->me + half;
    for (int i = 0; i < threads; i++) {
        workers[i].k = &k;
        workers[i].id = i;
        workers[i].ctx = SHMEM_CTX_DEFAULT;
        for (int j = 0; j < WINDOW; j++)
            workers[i].src[j] = 1000000L * (threads * 10 + own_ctx) + 1000L * i + j + c->me;
        if (own_ctx && shmem_ctx_create(SHMEM_CTX_PRIVATE, &workers[i].ctx) != 0) {
            bench_check(c, 0, "shmem_ctx_create failed");
            return;
        }
    }
    struct bench_timing t = bench_measure(c, loop_rate, &k, 1L << 22);
    /* verify: every word holds what my sender's thread last put */
    int sender = c->npes == 1 ? 0 : c->me >= half && c->me < 2 * half ? c->me - half : -1;
    if (sender >= 0)
        for (int i = 0; i < threads; i++)
            for (int j = 0; j < WINDOW; j++)
                bench_check(c, dst[i][j] == 1000000L * (threads * 10 + own_ctx) + 1000L * i + j + sender,
                            "%s: thread %d word %d is %ld", variant, i, j, dst[i][j]);
    double msgs = k.partner >= 0 ? (double)t.iters * WINDOW * threads / t.seconds : 0;
    bench_emit(c, "put8_nbi", variant, sizeof(long), "msgs_per_s", bench_sum_over_pes(c, msgs),
               t.iters * WINDOW * threads);
    for (int i = 0; i < threads; i++)
        if (own_ctx)
            shmem_ctx_destroy(workers[i].ctx);
}

static void fake_hosts(int argc, char **argv)
{
    const char *pe = getenv("SHOAL_PE");
    if (bench_arg_flag(argc, argv, "fake-hosts") && pe) {
        char id[32];
        snprintf(id, sizeof id, "msgrate-host-%s", pe);
        setenv("SHOAL_HOST_ID", id, 1);
    }
}

/* SHMEM_THREAD_MULTIPLE comes from an init_thread before bench_init, whose
 * shmem_init then nests (OpenSHMEM 1.6 init/finalize pairs); the matching
 * finalize follows bench_finish's. */
#define NESTED_INIT (SHMEM_MAJOR_VERSION * 100 + SHMEM_MINOR_VERSION >= 106)

int main(int argc, char **argv)
{
    struct bench_ctx c;
    int provided = -1;
    fake_hosts(argc, argv);
    if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0)
        return 1;
    bench_init(&c, "ctx_msgrate", argc, argv);
    bench_tag_long(&c.tags, "window", WINDOW);
    bench_tag_str(&c.tags, "hosts", bench_arg_flag(argc, argv, "fake-hosts") ? "fake" : "launcher");
    if (provided != SHMEM_THREAD_MULTIPLE) {
        bench_skip(&c, "put8_nbi", "SHMEM_THREAD_MULTIPLE not provided");
    } else {
        run(&c, 1, 1, "1thread");
        run(&c, 2, 1, "2threads_ctx");
        run(&c, 2, 0, "2threads_shared");
    }
    int status = bench_finish(&c);
#if NESTED_INIT
    shmem_finalize();
#endif
    return status;
}
