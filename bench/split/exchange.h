/* What the two dynamic sparse data exchange programs share (seed paper 002,
 * Fig. 1): the notices, the choice of neighbours and sizes, the patterns
 * and the counts that are checked at the end.  sparse_exchange.c moves
 * the notices and data with OpenSHMEM and a split barrier,
 * sparse_exchange_mpi.c with MPI one-sided calls and MPI_Ibarrier; only
 * the communication differs. */
#ifndef EXCHANGE_H
#define EXCHANGE_H

#include <math.h>
#include <stdbool.h>

#include "../common/bench_core.h"

enum { MAX_BYTES = 1024, MAX_FANOUT = 64 };

/* 20 bytes, as in the paper.  stamp is the iteration + 1 (0 = empty inbox
 * entry), buffer the index of the sender's outbox buffer, and check a hash
 * of the rest, so a probe never accepts a notice whose bytes are still
 * arriving. */
struct notice {
    uint32_t stamp, sender, size, buffer, check;
};
_Static_assert(sizeof(struct notice) == 20, "the paper's notices are 20 bytes");

enum { NOTICES_SENT, NOTICES_RECEIVED, BYTES_SENT, BYTES_RECEIVED, COUNTS };

struct exchange {
    int me, npes, fanout;
    long iters, warmup;         /* timed iterations; untimed ones before them */
    uint32_t stamp;             /* iteration + 1, over warm-up and timed runs */
    bool blocking;              /* --variant blocking: no overlap */
    struct notice *inbox;       /* symmetric: one entry per sender */
    unsigned char *outbox;      /* symmetric: fanout buffers of MAX_BYTES */
    uint32_t *taken;            /* local: stamp last received from each sender */
    uint64_t rng;
    long count[COUNTS];
    long bad_buffers;           /* received buffers that held wrong bytes */
};

/* The options both programs take (--variant, --iters, --warmup) and what
 * follows from the PE count; inbox, outbox and taken are the caller's. */
static inline void exchange_init(struct exchange *x, int me, int npes, int argc, char **argv,
                                 const struct bench_opts *o)
{
    const char *variant = bench_arg_str(argc, argv, "variant");
    x->me = me;
    x->npes = npes;
    x->blocking = variant && strcmp(variant, "blocking") == 0;
    x->iters = bench_arg_long(argc, argv, "iters", bench_by_mode(o, 20, 1000, 1000));
    x->warmup = bench_arg_long(argc, argv, "warmup", x->iters / 5);
    x->fanout = npes > 1 ? (int)fmax(1.0, floor(log2((double)npes))) : 0;
    if (x->fanout > MAX_FANOUT)
        x->fanout = MAX_FANOUT;
    x->rng = 0x853C49E6748FEA9Bull ^ (uint64_t)(me + 1) * 0x9E3779B97F4A7C15ull;
}

static inline uint32_t notice_hash(uint32_t stamp, uint32_t sender, uint32_t size, uint32_t buffer)
{
    uint64_t h = stamp * 0x9E3779B97F4A7C15ull ^ sender * 0xC2B2AE3D27D4EB4Full;
    h ^= (uint64_t)size << 32 | buffer;
    h *= 0xFF51AFD7ED558CCDull;
    return (uint32_t)(h ^ h >> 29) | 1;
}

static inline unsigned pattern_seed(uint32_t sender, uint32_t stamp, uint32_t buffer)
{
    return sender * 7919u + stamp * 104729u + buffer * 31u;
}

static inline uint64_t next_random(struct exchange *x)
{
    x->rng ^= x->rng << 13;
    x->rng ^= x->rng >> 7;
    x->rng ^= x->rng << 17;
    return x->rng;
}

/* fanout distinct neighbours other than me (partial Fisher-Yates). */
static inline void pick_neighbours(struct exchange *x, int *out)
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

/* The notice for outbox buffer b of this iteration, whose bytes (a random
 * size) are written here and counted as sent. */
static inline struct notice make_notice(struct exchange *x, uint32_t stamp, int b)
{
    uint32_t size = 1 + (uint32_t)(next_random(x) % MAX_BYTES);
    struct notice nt = {stamp, (uint32_t)x->me, size, (uint32_t)b, 0};
    bench_fill(x->outbox + (size_t)b * MAX_BYTES, size, pattern_seed(nt.sender, stamp, nt.buffer));
    nt.check = notice_hash(stamp, nt.sender, size, nt.buffer);
    x->count[NOTICES_SENT]++;
    x->count[BYTES_SENT] += size;
    return nt;
}

/* True, with the notice in *nt, when sender pe's notice of this iteration
 * is complete in my inbox and not taken yet (it is taken now). */
static inline bool take_notice(struct exchange *x, int pe, uint32_t stamp, struct notice *nt)
{
    if (x->taken[pe] == stamp || __atomic_load_n(&x->inbox[pe].stamp, __ATOMIC_ACQUIRE) != stamp)
        return false;
    memcpy(nt, (const void *)&x->inbox[pe], sizeof *nt);
    if (nt->stamp != stamp || nt->check != notice_hash(nt->stamp, nt->sender, nt->size, nt->buffer))
        return false;   /* still arriving */
    x->taken[pe] = stamp;
    return true;
}

/* The bytes fetched for notice nt: checked against the sender's pattern, counted. */
static inline void count_received(struct exchange *x, const struct notice *nt, const unsigned char *buf)
{
    if (bench_first_mismatch(buf, nt->size, pattern_seed(nt->sender, nt->stamp, nt->buffer)) >= 0)
        x->bad_buffers++;
    x->count[NOTICES_RECEIVED]++;
    x->count[BYTES_RECEIVED] += nt->size;
}

#endif
