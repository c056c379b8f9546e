/* What the stand-alone multi-host programs (mh_link, mh_peer, mh_small, mh_teams)
 * share: a microsecond clock, the order statistics of per-call times and
 * the timing of one collective call.
 * Plain C: mh_link uses no SHMEM library and mh_peer builds with any
 * library's oshcc, so neither can lean on bench/common. */
#ifndef MH_CLOCK_H
#define MH_CLOCK_H

#include <stdlib.h>
#include <time.h>

static inline double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sorts v[0..n) in place (percentile p is then v[n * p / 100]). */
static inline void sort_times(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
}

/* How the SHMEM programs time one collective call: alone, after an
 * untimed barrier, into times[i] (both in the caller's scope; mh_link,
 * which has no SHMEM library, never expands it). */
#define MH_TIMED(call)                   \
    do {                                 \
        shmem_barrier_all();             \
        double t0_ = now_us();           \
        call;                            \
        times[i] = now_us() - t0_;       \
    } while (0)

/* The median of v[0..n), which it sorts. */
static inline double median(double *v, size_t n)
{
    sort_times(v, n);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
