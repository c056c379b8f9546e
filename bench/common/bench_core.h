/* bench_core.h - timing, options, JSON result lines and size sweeps shared
 * by every benchmark program, including the plain-C machine references
 * that must not depend on any OpenSHMEM library.
 *
 * Everything is static inline so that each program stays a single C file
 * compiled with nothing but this header (and bench.h for SHMEM programs). */
#ifndef BENCH_CORE_H
#define BENCH_CORE_H

#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <time.h>

/* ---- run modes ------------------------------------------------------- */

/* verify: tiny sizes and a handful of iterations, for CI (results checked,
 * never timed).  quick: a few minutes for the whole suite on 2 cores.
 * full: larger sizes, longer time budgets. */
enum bench_mode { BENCH_VERIFY, BENCH_QUICK, BENCH_FULL };

struct bench_opts {
    enum bench_mode mode;
    double budget_s;     /* wall time aimed at per measured figure */
    long fixed_iters;    /* > 0: use exactly this many iterations */
    size_t min_size;     /* bytes; 0 = program default */
    size_t max_size;     /* bytes; 0 = program default for the mode */
    int argc;
    char **argv;
};

static inline const char *bench_mode_name(enum bench_mode m)
{
    return m == BENCH_VERIFY ? "verify" : m == BENCH_QUICK ? "quick" : "full";
}

/* Value of "--name=value" or "--name value"; NULL when absent. */
static inline const char *bench_arg_str(int argc, char **argv, const char *name)
{
    size_t len = strlen(name);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, name, len) != 0)
            continue;
        if (a[2 + len] == '=')
            return a + 3 + len;
        if (a[2 + len] == '\0' && i + 1 < argc)
            return argv[i + 1];
    }
    return NULL;
}

static inline int bench_arg_flag(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], "--", 2) == 0 && strcmp(argv[i] + 2, name) == 0)
            return 1;
    return 0;
}

/* Sizes accept k/m/g suffixes (powers of 1024) so "4m" means 4 MiB. */
static inline long long bench_parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    switch (*end) {
    case 'k': case 'K': v *= 1024.0; break;
    case 'm': case 'M': v *= 1024.0 * 1024.0; break;
    case 'g': case 'G': v *= 1024.0 * 1024.0 * 1024.0; break;
    default: break;
    }
    return (long long)v;
}

static inline long bench_arg_long(int argc, char **argv, const char *name, long dflt)
{
    const char *v = bench_arg_str(argc, argv, name);
    return v ? (long)bench_parse_size(v) : dflt;
}

static inline struct bench_opts bench_parse_opts(int argc, char **argv)
{
    struct bench_opts o = { BENCH_QUICK, 0.0, 0, 0, 0, argc, argv };
    const char *mode = bench_arg_str(argc, argv, "mode");
    if (bench_arg_flag(argc, argv, "full") || (mode && strcmp(mode, "full") == 0))
        o.mode = BENCH_FULL;
    if (bench_arg_flag(argc, argv, "verify-only") || bench_arg_flag(argc, argv, "verify") ||
        (mode && strcmp(mode, "verify") == 0))
        o.mode = BENCH_VERIFY;
    /* Default budgets keep a --quick suite run within minutes; each figure
     * still gets enough iterations to average out timer resolution. */
    o.budget_s = o.mode == BENCH_FULL ? 0.25 : o.mode == BENCH_QUICK ? 0.02 : 0.0;
    o.budget_s = bench_arg_long(argc, argv, "budget-ms", (long)(o.budget_s * 1000)) / 1000.0;
    o.fixed_iters = bench_arg_long(argc, argv, "iters", o.mode == BENCH_VERIFY ? 2 : 0);
    o.min_size = (size_t)bench_arg_long(argc, argv, "min-size", 0);
    o.max_size = (size_t)bench_arg_long(argc, argv, "max-size", 0);
    return o;
}

/* Pick a per-mode default: tiny for CI, moderate for quick, large for full. */
static inline long bench_by_mode(const struct bench_opts *o, long verify, long quick, long full)
{
    return o->mode == BENCH_VERIFY ? verify : o->mode == BENCH_QUICK ? quick : full;
}

/* ---- time ------------------------------------------------------------ */

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the CPU ---------------------------------------------------------- */

/* One look of a spin: tells the core the loop waits. */
static inline void bench_cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static inline void bench_pin_to_cpu(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
}

/* Iterations that fill the time budget, given a measured time per
 * iteration; clamped so slow cases still repeat and fast ones end. */
static inline long bench_iters_for_budget(double budget_s, double per_iter_s,
                                          long min_iters, long max_iters)
{
    double n = per_iter_s > 0 ? budget_s / per_iter_s : (double)max_iters;
    if (n < (double)min_iters)
        return min_iters;
    if (n > (double)max_iters)
        return max_iters;
    return (long)n;
}

/* ---- size sweeps ----------------------------------------------------- */

/* Next size of a sweep: doubling in full mode; otherwise doubling up to
 * 64 bytes (so 8 bytes, the size most targets name, is always measured)
 * and x4 above.  Always ends exactly on max so the largest size is
 * measured in every mode. */
static inline size_t bench_next_size(const struct bench_opts *o, size_t size, size_t max)
{
    size_t next = (o->mode == BENCH_FULL || size < 64) ? size * 2 : size * 4;
    if (size < max && next > max)
        return max;
    return next;
}

/* Clamp a program's default range by --min-size / --max-size. */
static inline void bench_size_range(const struct bench_opts *o, size_t dflt_min,
                                    size_t dflt_max, size_t *min, size_t *max)
{
    *min = o->min_size ? o->min_size : dflt_min;
    *max = o->max_size ? o->max_size : dflt_max;
    if (*min > *max)
        *min = *max;
}

/* ---- result lines ------------------------------------------------------ */

/* Extra "key":value pairs appended to every result line of a program
 * (for example "api":"team" or "pairs":2), already JSON-formatted. */
struct bench_tags {
    char json[512];
};

static inline void bench_tag_str(struct bench_tags *t, const char *key, const char *val)
{
    size_t used = strlen(t->json);
    snprintf(t->json + used, sizeof t->json - used, ",\"%s\":\"%s\"", key, val);
}

static inline void bench_tag_long(struct bench_tags *t, const char *key, long val)
{
    size_t used = strlen(t->json);
    snprintf(t->json + used, sizeof t->json - used, ",\"%s\":%ld", key, val);
}

/* One measured figure as one JSON object on one line: the runner's only
 * input.  stdout is line-buffered (see bench_core_init) so lines printed
 * before a crash in finalize still reach the runner. */
static inline void bench_print_result(const char *bench, const char *op, const char *variant,
                                      size_t size, const char *metric, double value,
                                      long iters, int pes, const struct bench_tags *tags)
{
    printf("{\"bench\":\"%s\",\"op\":\"%s\",\"variant\":\"%s\",\"size\":%zu,"
           "\"metric\":\"%s\",\"value\":%.6g,\"iters\":%ld,\"pes\":%d%s}\n",
           bench, op, variant ? variant : "", size, metric, value, iters, pes,
           tags ? tags->json : "");
}

static inline void bench_print_skip(const char *bench, const char *op, int pes, const char *why)
{
    printf("{\"bench\":\"%s\",\"op\":\"%s\",\"skip\":\"%s\",\"pes\":%d}\n", bench, op, why, pes);
}

static inline void bench_print_verdict(const char *bench, long failures, int pes)
{
    printf("{\"bench\":\"%s\",\"verify\":\"%s\",\"failures\":%ld,\"pes\":%d}\n", bench,
           failures ? "fail" : "pass", failures, pes);
}

static inline void bench_core_init(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
}

/* ---- data patterns ------------------------------------------------------ */

/* Byte i of a buffer filled for (seed): differs between sizes, ops and
 * PEs so stale data from an earlier step never passes a check. */
static inline unsigned char bench_pattern_byte(size_t i, unsigned seed)
{
    return (unsigned char)((i * 131u + seed * 7u + (i >> 8)) & 0xffu);
}

static inline void bench_fill(void *buf, size_t n, unsigned seed)
{
    unsigned char *b = buf;
    for (size_t i = 0; i < n; i++)
        b[i] = bench_pattern_byte(i, seed);
}

/* Index of the first wrong byte, or -1 when the buffer holds the pattern. */
static inline long bench_first_mismatch(const void *buf, size_t n, unsigned seed)
{
    const unsigned char *b = buf;
    for (size_t i = 0; i < n; i++)
        if (b[i] != bench_pattern_byte(i, seed))
            return (long)i;
    return -1;
}

#endif /* BENCH_CORE_H */
