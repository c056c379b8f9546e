/* plain_sync.h - the simplest forms of a small collective with plain loads
 * and stores in one mapping every process shares, no SHMEM: the machine's
 * floor.  bench/machine/sync_floor.c runs them in processes of its own;
 * the collectives program runs them in its PEs through shmem_ptr, in
 * batches alternating with the library's calls, so both see the same
 * placement (programs/collectives.c).
 *  - barrier: one arrival counter; the last to arrive bumps a release word
 *    (or "dissemination": a flag per process and round);
 *  - broadcast: process 0 stores 8 bytes and a stamp, the others wait for it;
 *  - reduce: every process stores its long and a stamp, then reads all of
 *    them (one round; sum-reduce of one long).
 * A wait looks a few times with a pause, then yields at every look, as
 * Shoal's waits do when PEs outnumber cores.  Timed the way the
 * collectives program times a call: an untimed barrier, then the call.
 * "first_leaves": the released processes yield (up to 4 times) until
 * process 0 has left the untimed barrier, Shoal's rule before a broadcast
 * when PEs outnumber cores. */
#ifndef PLAIN_SYNC_H
#define PLAIN_SYNC_H

#include "bench_core.h"

#define PLAIN_CACHE_LINE 64
enum { PLAIN_MAX_PROCS = 256, PLAIN_MAX_ROUNDS = 8, PLAIN_SPINS = 20, PLAIN_FIRST_YIELDS = 4 };
enum plain_form { PLAIN_BARRIER, PLAIN_BROADCAST, PLAIN_REDUCE, PLAIN_FORMS };
static const char *const plain_form_name[PLAIN_FORMS] = {"barrier", "broadcast", "reduce"};

struct plain_slot {
    _Alignas(PLAIN_CACHE_LINE) volatile long stamp;
    volatile long value;
};

struct plain_shared {
    _Alignas(PLAIN_CACHE_LINE) volatile long arrived;
    _Alignas(PLAIN_CACHE_LINE) volatile long released;
    _Alignas(PLAIN_CACHE_LINE) volatile long first_left;
    struct plain_slot slot[PLAIN_MAX_PROCS];
    struct plain_slot flag[PLAIN_MAX_PROCS][PLAIN_MAX_ROUNDS];   /* dissemination: stamped by the round's partner */
    _Alignas(PLAIN_CACHE_LINE) double seconds[PLAIN_MAX_PROCS];
    volatile long bad;
};

struct plain_proc {
    struct plain_shared *s;
    int me, n, first_leaves, dissemination;
    long epoch, calls;
};

static inline void plain_wait(const volatile long *word, long value)
{
    for (int looks = 0; __atomic_load_n(word, __ATOMIC_ACQUIRE) < value; looks++) {
        if (looks < PLAIN_SPINS)
            bench_cpu_pause();
        else
            sched_yield();
    }
}

static inline void plain_dissemination(struct plain_proc *p, long epoch)
{
    for (int k = 0, d = 1; d < p->n; k++, d *= 2) {
        __atomic_store_n(&p->s->flag[(p->me + d) % p->n][k].stamp, epoch, __ATOMIC_RELEASE);
        plain_wait(&p->s->flag[p->me][k].stamp, epoch);
    }
}

static inline void plain_barrier(struct plain_proc *p)
{
    long epoch = ++p->epoch;
    if (p->dissemination)
        plain_dissemination(p, epoch);
    else if (__atomic_add_fetch(&p->s->arrived, 1, __ATOMIC_ACQ_REL) == epoch * p->n)
        __atomic_store_n(&p->s->released, epoch, __ATOMIC_RELEASE);
    else
        plain_wait(&p->s->released, epoch);
    if (!p->first_leaves)
        return;
    if (p->me == 0)
        __atomic_store_n(&p->s->first_left, epoch, __ATOMIC_RELEASE);
    else
        for (int i = 0; i < PLAIN_FIRST_YIELDS && __atomic_load_n(&p->s->first_left, __ATOMIC_ACQUIRE) < epoch; i++)
            sched_yield();
}

static inline void plain_publish(struct plain_proc *p, int who, long value)
{
    p->s->slot[who].value = value;
    __atomic_store_n(&p->s->slot[who].stamp, p->calls, __ATOMIC_RELEASE);
}

static inline long plain_take(struct plain_proc *p, int who)
{
    plain_wait(&p->s->slot[who].stamp, p->calls);
    return p->s->slot[who].value;
}

/* One call; checks its result against what every process contributed. */
static inline void plain_call(struct plain_proc *p, enum plain_form f)
{
    long call = ++p->calls, got, want;
    switch (f) {
    case PLAIN_BARRIER:
        plain_barrier(p);
        return;
    case PLAIN_BROADCAST:
        if (p->me == 0)
            plain_publish(p, 0, call);
        got = plain_take(p, 0);
        want = call;
        break;
    default:
        plain_publish(p, p->me, call + p->me);
        got = 0;
        for (int i = 0; i < p->n; i++)
            got += plain_take(p, i);
        want = call * p->n + (long)p->n * (p->n - 1) / 2;
        break;
    }
    if (got != want)
        __atomic_fetch_add(&p->s->bad, 1, __ATOMIC_RELAXED);
}

/* A slot's last reader must be done before its next call writes it: every
 * timed call sits between two barriers, as in the collectives program. */
static inline void plain_run(struct plain_proc *p, enum plain_form f, long iters)
{
    double spent = 0.0;
    for (long i = 0; i < iters; i++) {
        plain_barrier(p);
        double t0 = bench_now();
        plain_call(p, f);
        spent += bench_now() - t0;
    }
    plain_barrier(p);
    p->s->seconds[p->me] = spent;
}

/* Mean seconds per call over the n processes of the last plain_run of
 * iters calls on s (once every process has written its time). */
static inline double plain_mean_seconds(const struct plain_shared *s, int n, long iters)
{
    double total = 0.0;
    for (int i = 0; i < n; i++)
        total += s->seconds[i];
    return total / n / iters;
}

/* The ways the barriers run: the counter, with or without the first
 * leaving, and dissemination. */
enum plain_variant { V_COUNTER, V_FIRST_LEAVES, V_DISSEMINATION, V_VARIANTS };
static const char *const plain_variant_name[V_VARIANTS] = {"plain", "first_leaves", "dissemination"};

#endif
