/* Communication profile, timeline and counters (issue 15; DESIGN.md,
 * "Profiling").  The API layer reports each user call here: one-sided
 * operations as (kind, target, bytes), waits, barriers, collectives and
 * quiet as timed spans.  prof.c keeps the counts (SHOAL_PROFILE writes them
 * at finalize, shmemx_pcntr_* reads them), trace.c the per-PE ring of
 * events behind SHOAL_TRACE.
 *
 * Off (the default), every hook is one predictable branch on
 * shoal_prof_on: the recording code sits out of line. */
#ifndef SHOAL_PROF_H
#define SHOAL_PROF_H

#include "../core/shoal.h"

struct shoal_team;

/* What a one-sided operation was; each counted blocking and nbi apart. */
enum shoal_prof_kind { SHOAL_PROF_PUT, SHOAL_PROF_GET, SHOAL_PROF_AMO, SHOAL_PROF_SIGNAL, SHOAL_PROF_KINDS };

/* Where waiting time goes. */
enum shoal_prof_wait { SHOAL_PROF_WAIT, SHOAL_PROF_BARRIER, SHOAL_PROF_COLL, SHOAL_PROF_QUIET, SHOAL_PROF_WAITS };

/* Recording now: set at init when SHOAL_PROFILE, SHOAL_TRACE or
 * SHOAL_COUNTERS asks for it, cleared and set again by shmem_pcontrol. */
extern bool shoal_prof_on;

void shoal_prof_op(const char *routine, enum shoal_prof_kind kind, bool nbi, int pe, size_t bytes);

/* A timed span: begin stamps the clock, end books the time to the routine,
 * the wait class and (for barriers and collectives) the team. */
struct shoal_prof_span {
    const char *routine;
    enum shoal_prof_wait what;
    const struct shoal_team *team;
    size_t bytes;
    uint64_t t0;
    unsigned choice0;   /* shoal_prof_choices.n at the begin */
};
void shoal_prof_begin(struct shoal_prof_span *s);
void shoal_prof_end(struct shoal_prof_span *s);
/* The collective selector logs every algorithm it picks, recording or not:
 * three plain stores cost less than a second branch on the off path.  A span
 * names the first choice made after it began (the outermost, when a
 * hierarchical collective chooses again inside).  Per thread: under
 * SHMEM_THREAD_MULTIPLE, threads run collectives at once. */
struct shoal_prof_choices {
    unsigned n;
    const char *alg[8];
};
extern __thread struct shoal_prof_choices shoal_prof_choices;
SHOAL_INLINE void shoal_prof_choice(const char *alg)
{
    shoal_prof_choices.alg[shoal_prof_choices.n++ % 8] = alg;
}

/* ---- hooks for the API layer ---- */
#define SHOAL_PROF_OP(routine, kind, nbi, pe, bytes)                                               \
    do {                                                                                           \
        if (SHOAL_UNLIKELY(shoal_prof_on))                                                         \
            shoal_prof_op(routine, kind, nbi, pe, bytes);                                          \
    } while (0)

/* Runs stmt, timed as a span when recording.  stmt appears twice, so the
 * off path is stmt itself behind the one branch. */
#define SHOAL_PROF_SPAN(routine, what, team, bytes, stmt)                                         \
    do {                                                                                           \
        if (SHOAL_UNLIKELY(shoal_prof_on)) {                                                       \
            struct shoal_prof_span shoal_span_ = {routine, what, team, bytes, 0, 0};               \
            shoal_prof_begin(&shoal_span_);                                                        \
            stmt;                                                                                  \
            shoal_prof_end(&shoal_span_);                                                          \
        } else {                                                                                   \
            stmt;                                                                                  \
        }                                                                                          \
    } while (0)

/* ---- lifecycle (api/lifecycle.c) ---- */
/* After the teams: aligns the trace clocks with world_barrier (the layer
 * above gives its own, so prof names no collective). */
void shoal_prof_init(void (*world_barrier)(void));
void shoal_prof_finalize(void);    /* collective: writes the profile and the trace */
void shoal_prof_exit(void);        /* shmem_global_exit: this PE writes what it has, alone */
void shoal_prof_control(int level);   /* shmem_pcontrol */

/* ---- counters for shmemx_pcntr_* (sums over targets) ---- */
struct shoal_prof_totals {
    uint64_t put, get, amo, signal;     /* operations issued by this PE */
};
void shoal_prof_totals(struct shoal_prof_totals *out);      /* issued so far */
void shoal_prof_completed(struct shoal_prof_totals *out);   /* issued before the last quiet or barrier */

/* ---- inside prof/ ---- */
uint64_t shoal_prof_now(void);   /* ns, this PE's clock */
void shoal_trace_init(void);
void shoal_trace_op(const char *routine, enum shoal_prof_kind kind, int pe, size_t bytes);
void shoal_trace_span(const struct shoal_prof_span *s, const char *alg, uint64_t t1);
void shoal_trace_write(bool collective);
extern bool shoal_trace_on;

#endif
