/* The timeline behind SHOAL_TRACE=FILE: each PE keeps its last
 * SHOAL_TRACE_EVENTS events in a ring (older ones are dropped and counted),
 * writes them at finalize as FILE.pe<N> in Chrome's trace-event format
 * (one process track per PE), and PE 0 joins the parts into FILE when it
 * can read them all (one file system); otherwise `oshprof --merge-trace
 * FILE` joins them later.
 *
 * Clocks: PEs on different hosts read different clocks.  At init every PE
 * stamps the exit of a few world barriers and PE 0's stamps become the
 * reference: the median difference is this PE's offset, so the trace's
 * times are all on PE 0's clock, to within a barrier's release skew. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "prof_tables.h"
#include "../boot/boot.h"

bool shoal_trace_on;

struct trace_event {
    uint64_t t0, t1;            /* aligned ns; t1 == 0: an instant */
    const char *name, *alg;
    uint64_t bytes;
    int32_t pe;                 /* target of an operation */
    uint8_t kind;               /* shoal_prof_kind of an instant, shoal_prof_wait of a span */
    char team[19];
};

static struct trace_event *ring;
static uint64_t ring_size, ring_next;   /* ring_next: events ever recorded */
static int64_t clock_offset;            /* add to this PE's clock to read PE 0's */
static uint64_t epoch;                  /* PE 0's time at the alignment: the trace's 0 */

/* The tests' stand-in for a host with another clock: odd PEs run ahead. */
static uint64_t raw_now(void)
{
    return shoal_prof_now() + (shoal.my_pe & 1 ? (uint64_t)shoal_cfg.trace_test_skew_us * 1000u : 0);
}

static uint64_t aligned_now(void)
{
    return raw_now() + (uint64_t)clock_offset;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

enum { ALIGN_ROUNDS = 9 };

static void align_clocks(void)
{
    uint64_t mine[ALIGN_ROUNDS];
    for (int r = 0; r < ALIGN_ROUNDS; r++) {
        shoal_prof.world_barrier();
        mine[r] = raw_now();
    }
    uint64_t *all = malloc(sizeof mine * shoal.n_pes);
    if (!all)
        shoal_fatal("shmem_init", "out of memory aligning the trace clocks (unset SHOAL_TRACE)");
    shoal_boot_allgather(mine, all, sizeof mine);
    int64_t diff[ALIGN_ROUNDS];
    for (int r = 0; r < ALIGN_ROUNDS; r++)
        diff[r] = (int64_t)(all[r] - mine[r]);
    qsort(diff, ALIGN_ROUNDS, sizeof diff[0], cmp_i64);
    clock_offset = diff[ALIGN_ROUNDS / 2];
    epoch = all[0];
    free(all);
}

void shoal_trace_init(void)
{
    free(ring);
    ring = NULL;
    ring_next = 0;
    shoal_trace_on = shoal_cfg.trace && *shoal_cfg.trace;
    if (!shoal_trace_on)
        return;
    if (shoal_cfg.trace_events < 1)
        shoal_fatal("shmem_init", "SHOAL_TRACE_EVENTS=%ld: give the number of events each PE keeps (>= 1)",
                    shoal_cfg.trace_events);
    ring_size = (uint64_t)shoal_cfg.trace_events;
    ring = calloc(ring_size, sizeof *ring);
    if (!ring)
        shoal_fatal("shmem_init", "out of memory for %llu trace events; lower SHOAL_TRACE_EVENTS",
                    (unsigned long long)ring_size);
    align_clocks();
}

static struct trace_event *next_event(void)
{
    uint64_t i = __atomic_fetch_add(&ring_next, 1, __ATOMIC_RELAXED);
    return &ring[i % ring_size];
}

void shoal_trace_op(const char *routine, enum shoal_prof_kind kind, int pe, size_t bytes)
{
    struct trace_event *e = next_event();
    *e = (struct trace_event){.t0 = aligned_now(), .name = routine, .bytes = bytes, .pe = pe, .kind = kind};
}

void shoal_trace_span(const struct shoal_prof_span *s, const char *alg, uint64_t t1)
{
    struct trace_event *e = next_event();
    int pes;
    *e = (struct trace_event){.t0 = s->t0 + (uint64_t)clock_offset, .t1 = t1 + (uint64_t)clock_offset,
                              .name = s->routine, .alg = alg, .bytes = s->bytes, .pe = -1, .kind = s->what};
    /* raw clock stamps of the span: apply the same test skew the instants get */
    if (shoal.my_pe & 1) {
        e->t0 += (uint64_t)shoal_cfg.trace_test_skew_us * 1000u;
        e->t1 += (uint64_t)shoal_cfg.trace_test_skew_us * 1000u;
    }
    if (s->what == SHOAL_PROF_BARRIER || s->what == SHOAL_PROF_COLL)
        shoal_prof_team_label(s->team, e->team, sizeof e->team, &pes);
}

/* Microseconds since the trace's 0, to the nanosecond. */
static void print_us(FILE *f, const char *key, int64_t ns)
{
    fprintf(f, "\"%s\": %s%lld.%03lld", key, ns < 0 ? "-" : "", (long long)(llabs(ns) / 1000),
            (long long)(llabs(ns) % 1000));
}

static void write_event(FILE *f, const struct trace_event *e)
{
    fprintf(f, "{\"pid\": %d, \"tid\": 0, \"name\": \"%s\", ", shoal.my_pe, e->name);
    print_us(f, "ts", (int64_t)(e->t0 - epoch));
    if (e->t1) {
        fprintf(f, ", \"ph\": \"X\", \"cat\": \"%s\", ", shoal_prof_wait_names[e->kind]);
        print_us(f, "dur", (int64_t)(e->t1 - e->t0));
        fprintf(f, ", \"args\": {\"bytes\": %llu", (unsigned long long)e->bytes);
        if (e->team[0])
            fprintf(f, ", \"team\": \"%s\", \"algorithm\": \"%s\"", e->team, e->alg ? e->alg : "none");
        fprintf(f, "}},\n");
    } else {
        fprintf(f, ", \"ph\": \"i\", \"s\": \"t\", \"cat\": \"%s\", \"args\": {\"to\": %d, \"bytes\": %llu}},\n",
                shoal_prof_kind_names[e->kind], e->pe, (unsigned long long)e->bytes);
    }
}

/* This PE's part: its track's name, the note on dropped events, the events
 * oldest first; every line ends with a comma (the joiner closes the list). */
static int write_part(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    uint64_t n = ring_next < ring_size ? ring_next : ring_size, first = ring_next - n;
    fprintf(f, "{\"pid\": %d, \"tid\": 0, \"ph\": \"M\", \"name\": \"process_name\", "
               "\"args\": {\"name\": \"PE %d\"}},\n", shoal.my_pe, shoal.my_pe);
    fprintf(f, "{\"pid\": %d, \"tid\": 0, \"ph\": \"M\", \"name\": \"process_sort_index\", \"args\": "
               "{\"sort_index\": %d}},\n", shoal.my_pe, shoal.my_pe);
    if (first > 0)
        fprintf(f, "{\"pid\": %d, \"tid\": 0, \"ph\": \"i\", \"s\": \"p\", \"ts\": 0, "
                   "\"name\": \"events dropped\", \"cat\": \"shoal\", "
                   "\"args\": {\"dropped\": %llu, \"kept\": %llu, \"SHOAL_TRACE_EVENTS\": %llu}},\n",
                shoal.my_pe, (unsigned long long)first, (unsigned long long)n, (unsigned long long)ring_size);
    for (uint64_t i = first; i < ring_next; i++)
        write_event(f, &ring[i % ring_size]);
    return fclose(f);
}

/* PE 0 joins every part into the trace when it can read them all. */
static void join_parts(const char *file)
{
    FILE *out = fopen(file, "w");
    if (!out) {
        shoal_warn("shmem_finalize", "SHOAL_TRACE=%s: cannot write it (%s)", file, strerror(errno));
        return;
    }
    fprintf(out, "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"writer\": \"Shoal\", \"pes\": %d}, "
                 "\"traceEvents\": [\n", shoal.n_pes);
    char path[4200], buf[65536];
    int missing = 0;
    for (int pe = 0; pe < shoal.n_pes; pe++) {
        snprintf(path, sizeof path, "%s.pe%d", file, pe);
        FILE *in = fopen(path, "r");
        if (!in) {
            missing++;
            continue;
        }
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, n, out);
        fclose(in);
    }
    fprintf(out, "{\"pid\": 0, \"tid\": 0, \"ph\": \"M\", \"name\": \"shoal_trace_end\", \"args\": {}}\n]}\n");
    fclose(out);
    if (missing) {
        shoal_warn("shmem_finalize", "SHOAL_TRACE=%s: the parts of %d PEs are not visible here (other hosts?); "
                   "copy FILE.pe<N> next to it and run oshprof --merge-trace %s", file, missing, file);
        return;
    }
    for (int pe = 0; pe < shoal.n_pes; pe++) {
        snprintf(path, sizeof path, "%s.pe%d", file, pe);
        unlink(path);
    }
}

void shoal_trace_write(bool collective)
{
    if (!shoal_trace_on)
        return;
    shoal_trace_on = false;
    const char *file = shoal_cfg.trace;
    char path[4200];
    snprintf(path, sizeof path, "%s.pe%d", file, shoal.my_pe);
    if (write_part(path) != 0)
        shoal_warn(collective ? "shmem_finalize" : "shmem_global_exit", "SHOAL_TRACE=%s: cannot write %s (%s)",
                   file, path, strerror(errno));
    if (!collective)
        return;
    shoal_prof.world_barrier();   /* every part is written */
    if (shoal.my_pe == 0)
        join_parts(file);
    free(ring);
    ring = NULL;
}
