/* atomics - latency and rate of every atomic memory operation, 32- and
 * 64-bit (unsigned int / unsigned long, the types every 1.4 library has
 * for all AMOs), issued by PE 0 at a variable on PE 1 (003: "PE0 issues
 * atomic operation to PE 1; PE 1 waits on shmem_barrier").
 *
 *   latency_us: one operation and its completion (shmem_quiet for the
 *               non-fetching and nbi ones; the return for fetching ones).
 *   rate_Mops:  a window of operations, then one shmem_quiet (blocking
 *               fetching operations: back to back, the latency loop).
 *
 * The nonblocking fetching AMOs are OpenSHMEM 1.5; on older libraries they
 * are reported as skipped.  After each figure a short known sequence of
 * the same operation checks the fetched values and the final value. */
#include "bench.h"

#define RATE_WINDOW 64
#define VERIFY_OPS 8  /* < 32 so every bit-op touches a distinct bit */

/* What an operation does to the target, which fixes the operand of the
 * i-th call and the value the target holds after i calls. */
enum amo_semantics { SEM_ADD, SEM_INC, SEM_SET, SEM_AND, SEM_OR, SEM_XOR,
                     SEM_CSWAP, SEM_SWAP, SEM_FETCH };
enum amo_kind { AMO_NONFETCH, AMO_FETCH, AMO_FETCH_NBI };

typedef unsigned long long amo_val;
/* Issue one AMO; blocking fetching ops return the old value, nbi ones
 * leave it in *fetch_slot after the next shmem_quiet. */
typedef amo_val (*amo_issue_fn)(void *target, amo_val operand, amo_val cond, int pe,
                                void *fetch_slot);

struct amo_op {
    const char *name;
    enum amo_kind kind;
    enum amo_semantics sem;
    amo_issue_fn issue;
};

/* ---- one issue function per operation and width, generated ------------ */

#define AMO_NONFETCH_FN(W, T, TN, OP)                                                     \
    static amo_val amo##W##_##OP(void *t, amo_val v, amo_val c, int pe, void *f)          \
    {                                                                                     \
        (void)c, (void)f;                                                                 \
        shmem_##TN##_atomic_##OP((T *)t, (T)v, pe);                                       \
        return 0;                                                                         \
    }
#define AMO_FETCH_FN(W, T, TN, OP)                                                        \
    static amo_val amo##W##_##OP(void *t, amo_val v, amo_val c, int pe, void *f)          \
    {                                                                                     \
        (void)c, (void)f;                                                                 \
        return shmem_##TN##_atomic_##OP((T *)t, (T)v, pe);                                \
    }

#define AMO_WIDTH_FNS(W, T, TN)                                                           \
    AMO_NONFETCH_FN(W, T, TN, add)                                                        \
    AMO_NONFETCH_FN(W, T, TN, set)                                                        \
    AMO_NONFETCH_FN(W, T, TN, and)                                                        \
    AMO_NONFETCH_FN(W, T, TN, or)                                                         \
    AMO_NONFETCH_FN(W, T, TN, xor)                                                        \
    AMO_FETCH_FN(W, T, TN, fetch_add)                                                     \
    AMO_FETCH_FN(W, T, TN, swap)                                                          \
    AMO_FETCH_FN(W, T, TN, fetch_and)                                                     \
    AMO_FETCH_FN(W, T, TN, fetch_or)                                                      \
    AMO_FETCH_FN(W, T, TN, fetch_xor)                                                     \
    static amo_val amo##W##_inc(void *t, amo_val v, amo_val c, int pe, void *f)           \
    {                                                                                     \
        (void)v, (void)c, (void)f;                                                        \
        shmem_##TN##_atomic_inc((T *)t, pe);                                              \
        return 0;                                                                         \
    }                                                                                     \
    static amo_val amo##W##_fetch_inc(void *t, amo_val v, amo_val c, int pe, void *f)     \
    {                                                                                     \
        (void)v, (void)c, (void)f;                                                        \
        return shmem_##TN##_atomic_fetch_inc((T *)t, pe);                                 \
    }                                                                                     \
    static amo_val amo##W##_fetch(void *t, amo_val v, amo_val c, int pe, void *f)         \
    {                                                                                     \
        (void)v, (void)c, (void)f;                                                        \
        return shmem_##TN##_atomic_fetch((const T *)t, pe);                               \
    }                                                                                     \
    static amo_val amo##W##_compare_swap(void *t, amo_val v, amo_val c, int pe, void *f)  \
    {                                                                                     \
        (void)f;                                                                          \
        return shmem_##TN##_atomic_compare_swap((T *)t, (T)c, (T)v, pe);                  \
    }

AMO_WIDTH_FNS(32, unsigned int, uint)
AMO_WIDTH_FNS(64, unsigned long, ulong)

#if BENCH_HAVE_NBI_AMO
#define AMO_NBI_FN(W, T, TN, OP)                                                          \
    static amo_val amo##W##_##OP##_nbi(void *t, amo_val v, amo_val c, int pe, void *f)    \
    {                                                                                     \
        (void)c;                                                                          \
        shmem_##TN##_atomic_##OP##_nbi((T *)f, (T *)t, (T)v, pe);                         \
        return 0;                                                                         \
    }
#define AMO_WIDTH_NBI_FNS(W, T, TN)                                                       \
    AMO_NBI_FN(W, T, TN, fetch_add)                                                       \
    AMO_NBI_FN(W, T, TN, swap)                                                            \
    AMO_NBI_FN(W, T, TN, fetch_and)                                                       \
    AMO_NBI_FN(W, T, TN, fetch_or)                                                        \
    AMO_NBI_FN(W, T, TN, fetch_xor)                                                       \
    static amo_val amo##W##_fetch_inc_nbi(void *t, amo_val v, amo_val c, int pe, void *f) \
    {                                                                                     \
        (void)v, (void)c;                                                                 \
        shmem_##TN##_atomic_fetch_inc_nbi((T *)f, (T *)t, pe);                            \
        return 0;                                                                         \
    }                                                                                     \
    static amo_val amo##W##_fetch_nbi(void *t, amo_val v, amo_val c, int pe, void *f)     \
    {                                                                                     \
        (void)v, (void)c;                                                                 \
        shmem_##TN##_atomic_fetch_nbi((T *)f, (const T *)t, pe);                          \
        return 0;                                                                         \
    }                                                                                     \
    static amo_val amo##W##_compare_swap_nbi(void *t, amo_val v, amo_val c, int pe,       \
                                             void *f)                                     \
    {                                                                                     \
        shmem_##TN##_atomic_compare_swap_nbi((T *)f, (T *)t, (T)c, (T)v, pe);             \
        return 0;                                                                         \
    }
AMO_WIDTH_NBI_FNS(32, unsigned int, uint)
AMO_WIDTH_NBI_FNS(64, unsigned long, ulong)
#endif

#define AMO_TABLE(W)                                                                      \
    { "add", AMO_NONFETCH, SEM_ADD, amo##W##_add },                                       \
    { "inc", AMO_NONFETCH, SEM_INC, amo##W##_inc },                                       \
    { "set", AMO_NONFETCH, SEM_SET, amo##W##_set },                                       \
    { "and", AMO_NONFETCH, SEM_AND, amo##W##_and },                                       \
    { "or", AMO_NONFETCH, SEM_OR, amo##W##_or },                                          \
    { "xor", AMO_NONFETCH, SEM_XOR, amo##W##_xor },                                       \
    { "fetch", AMO_FETCH, SEM_FETCH, amo##W##_fetch },                                    \
    { "fetch_add", AMO_FETCH, SEM_ADD, amo##W##_fetch_add },                              \
    { "fetch_inc", AMO_FETCH, SEM_INC, amo##W##_fetch_inc },                              \
    { "swap", AMO_FETCH, SEM_SWAP, amo##W##_swap },                                       \
    { "compare_swap", AMO_FETCH, SEM_CSWAP, amo##W##_compare_swap },                      \
    { "fetch_and", AMO_FETCH, SEM_AND, amo##W##_fetch_and },                              \
    { "fetch_or", AMO_FETCH, SEM_OR, amo##W##_fetch_or },                                 \
    { "fetch_xor", AMO_FETCH, SEM_XOR, amo##W##_fetch_xor }

#define AMO_NBI_TABLE(W)                                                                  \
    { "fetch_nbi", AMO_FETCH_NBI, SEM_FETCH, amo##W##_fetch_nbi },                        \
    { "fetch_add_nbi", AMO_FETCH_NBI, SEM_ADD, amo##W##_fetch_add_nbi },                  \
    { "fetch_inc_nbi", AMO_FETCH_NBI, SEM_INC, amo##W##_fetch_inc_nbi },                  \
    { "swap_nbi", AMO_FETCH_NBI, SEM_SWAP, amo##W##_swap_nbi },                           \
    { "compare_swap_nbi", AMO_FETCH_NBI, SEM_CSWAP, amo##W##_compare_swap_nbi },          \
    { "fetch_and_nbi", AMO_FETCH_NBI, SEM_AND, amo##W##_fetch_and_nbi },                  \
    { "fetch_or_nbi", AMO_FETCH_NBI, SEM_OR, amo##W##_fetch_or_nbi },                     \
    { "fetch_xor_nbi", AMO_FETCH_NBI, SEM_XOR, amo##W##_fetch_xor_nbi }

static const struct amo_op ops32[] = {
    AMO_TABLE(32),
#if BENCH_HAVE_NBI_AMO
    AMO_NBI_TABLE(32),
#endif
};
static const struct amo_op ops64[] = {
    AMO_TABLE(64),
#if BENCH_HAVE_NBI_AMO
    AMO_NBI_TABLE(64),
#endif
};

static const char *const nbi_names[] = { "fetch_nbi", "fetch_add_nbi", "fetch_inc_nbi",
                                         "swap_nbi", "compare_swap_nbi", "fetch_and_nbi",
                                         "fetch_or_nbi", "fetch_xor_nbi" };

/* ---- operand and expected-value rules ---------------------------------- */

static amo_val initial_value(enum amo_semantics sem)
{
    return sem == SEM_AND ? ~0ull : 5;  /* AND clears bits of all-ones */
}

static amo_val operand_of(enum amo_semantics sem, amo_val i, int width)
{
    amo_val bit = 1ull << (i % (amo_val)width);
    switch (sem) {
    case SEM_ADD: return 1;
    case SEM_SET: case SEM_SWAP: return i + 100;
    case SEM_AND: return ~bit;
    case SEM_OR: case SEM_XOR: return bit;
    case SEM_CSWAP: return initial_value(sem) + i + 1;  /* new value */
    default: return 0;
    }
}

/* compare_swap's condition: the value the target holds before call i. */
static amo_val cond_of(enum amo_semantics sem, amo_val i)
{
    return initial_value(sem) + i;
}

/* Target value after the first i calls (i < 32), which is also what the
 * i-th fetching call returns. */
static amo_val value_after(enum amo_semantics sem, amo_val i, int width)
{
    amo_val init = initial_value(sem), low_bits = (1ull << i) - 1;
    amo_val v;
    switch (sem) {
    case SEM_ADD: case SEM_INC: case SEM_CSWAP: v = init + i; break;
    case SEM_SET: case SEM_SWAP: v = i == 0 ? init : i - 1 + 100; break;
    case SEM_AND: v = init & ~low_bits; break;
    case SEM_OR: v = init | low_bits; break;
    case SEM_XOR: v = init ^ low_bits; break;
    default: v = init; break;
    }
    return width == 32 ? (amo_val)(unsigned int)v : v;
}

/* ---- one case: an operation of one width --------------------------------- */

static unsigned int target32;
static unsigned long target64;

struct amo_case {
    struct bench_ctx *c;
    const struct amo_op *op;
    int width, partner;
    void *target;
    amo_val issued;  /* calls so far: operands continue across timed loops */
    amo_val fetched[RATE_WINDOW];
};

static void reset_target(struct amo_case *k)
{
    amo_val init = initial_value(k->op->sem);
    shmem_barrier_all();
    if (k->c->me == k->partner) {
        if (k->width == 32)
            target32 = (unsigned int)init;
        else
            target64 = (unsigned long)init;
    }
    k->issued = 0;
    shmem_barrier_all();
}

static amo_val issue_next(struct amo_case *k, int slot)
{
    amo_val i = k->issued++;
    enum amo_semantics sem = k->op->sem;
    return k->op->issue(k->target, operand_of(sem, i, k->width), cond_of(sem, i), k->partner,
                        &k->fetched[slot]);
}

static double loop_latency(void *arg, long iters)
{
    struct amo_case *k = arg;
    int needs_quiet = k->op->kind != AMO_FETCH;
    double t0;
    shmem_barrier_all();
    t0 = bench_now();
    if (k->c->me == 0)
        for (long i = 0; i < iters; i++) {
            issue_next(k, 0);
            if (needs_quiet)
                shmem_quiet();
        }
    return bench_now() - t0;
}

static double loop_rate(void *arg, long iters)
{
    struct amo_case *k = arg;
    double t0;
    shmem_barrier_all();
    t0 = bench_now();
    if (k->c->me == 0)
        for (long i = 0; i < iters; i++) {
            for (int w = 0; w < RATE_WINDOW; w++)
                issue_next(k, w);
            shmem_quiet();
        }
    return bench_now() - t0;
}

/* What an nbi call left in its slot: the slot holds a T of the width. */
static amo_val fetched_value(const struct amo_case *k, int slot)
{
    unsigned int v32;
    if (k->width == 64)
        return k->fetched[slot];
    memcpy(&v32, &k->fetched[slot], sizeof v32);
    return v32;
}

/* A fresh sequence of VERIFY_OPS calls: every fetched value and the final
 * target value must follow the operation's rule. */
static void verify_op(struct amo_case *k)
{
    struct bench_ctx *c = k->c;
    const char *name = k->op->name;
    reset_target(k);
    if (c->me == 0) {
        for (int i = 0; i < VERIFY_OPS; i++) {
            amo_val got = issue_next(k, i);
            if (k->op->kind == AMO_FETCH)
                bench_check(c, got == value_after(k->op->sem, (amo_val)i, k->width),
                            "%s/%d call %d fetched %llu, expected %llu", name, k->width, i, got,
                            value_after(k->op->sem, (amo_val)i, k->width));
        }
        shmem_quiet();
        for (int i = 0; k->op->kind == AMO_FETCH_NBI && i < VERIFY_OPS; i++) {
            amo_val got = fetched_value(k, i);
            bench_check(c, got == value_after(k->op->sem, (amo_val)i, k->width),
                        "%s/%d call %d fetched %llu, expected %llu", name, k->width, i, got,
                        value_after(k->op->sem, (amo_val)i, k->width));
        }
    }
    shmem_barrier_all();
    if (c->me == k->partner) {
        amo_val final = k->width == 32 ? target32 : target64;
        amo_val want = value_after(k->op->sem, VERIFY_OPS, k->width);
        bench_check(c, final == want, "%s/%d: target %llu after %d calls, expected %llu", name,
                    k->width, final, VERIFY_OPS, want);
    }
    shmem_barrier_all();
}

static void measure_op(struct amo_case *k)
{
    struct bench_ctx *c = k->c;
    const char *variant = k->width == 32 ? "uint32" : "uint64";
    long max_iters = bench_by_mode(&c->o, 2, 1000000, 5000000);
    struct bench_timing t;

    reset_target(k);
    t = bench_measure(c, loop_latency, k, max_iters);
    bench_emit(c, k->op->name, variant, (size_t)k->width / 8, "latency_us",
               t.seconds / t.iters * 1e6, t.iters);
    /* A blocking fetching AMO cannot be pipelined: its rate is the latency
     * loop's.  The others get a windowed loop of their own. */
    if (k->op->kind != AMO_FETCH) {
        reset_target(k);
        t = bench_measure(c, loop_rate, k, max_iters / RATE_WINDOW + 3);
        t.iters *= RATE_WINDOW;
    }
    bench_emit(c, k->op->name, variant, (size_t)k->width / 8, "rate_Mops",
               (double)t.iters / t.seconds / 1e6, t.iters);
    verify_op(k);
}

static void measure_width(struct bench_ctx *c, const struct amo_op *ops, size_t n_ops,
                          int width, void *target)
{
    struct amo_case k = { 0 };
    k.c = c;
    k.width = width;
    k.target = target;
    k.partner = c->npes > 1 ? 1 : 0;
    for (size_t i = 0; i < n_ops; i++) {
        k.op = &ops[i];
        if (!bench_skip_requested(c, k.op->name, width == 32 ? "uint32" : "uint64"))
            measure_op(&k);
    }
}

int main(int argc, char **argv)
{
    struct bench_ctx c;
    bench_init(&c, "atomics", argc, argv);
    measure_width(&c, ops32, sizeof ops32 / sizeof ops32[0], 32, &target32);
    measure_width(&c, ops64, sizeof ops64 / sizeof ops64[0], 64, &target64);
    if (!BENCH_HAVE_NBI_AMO)
        for (size_t i = 0; i < sizeof nbi_names / sizeof nbi_names[0]; i++)
            bench_skip(&c, nbi_names[i], "nonblocking fetching AMOs need OpenSHMEM 1.5");
    return bench_finish(&c);
}
