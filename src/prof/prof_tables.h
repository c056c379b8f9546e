/* The profile's state, shared by prof.c (recording), prof_write.c (the
 * JSON file) and the counters API: nothing outside prof/ includes this. */
#ifndef SHOAL_PROF_TABLES_H
#define SHOAL_PROF_TABLES_H

#include "prof.h"

enum { SHOAL_PROF_ROUTINES = 512, SHOAL_PROF_COLLS = 128 };

struct shoal_prof_count {
    uint64_t n, bytes;
};

struct shoal_prof_routine {
    const char *name;
    uint64_t calls, bytes, ns;   /* ns: spans only */
};

struct shoal_prof_coll {
    const char *routine;
    const struct shoal_team *team;
    const char *alg;             /* NULL: the routine chose none (e.g. a one-PE team) */
    char team_label[24];
    int team_pes;
    uint64_t calls, bytes, ns;
};

struct shoal_prof_state {
    bool enabled;                     /* asked for at init: written at finalize */
    uint64_t t_init;
    struct shoal_prof_count *ops;     /* [kind][nbi][target PE] */
    uint64_t issued[SHOAL_PROF_KINDS];   /* the same counts summed over targets (for pcntr) */
    struct shoal_prof_routine routines[SHOAL_PROF_ROUTINES];
    struct shoal_prof_routine routine_overflow;
    struct {
        uint64_t calls, ns;
    } waits[SHOAL_PROF_WAITS];
    int coll_lock, n_colls;
    struct shoal_prof_coll colls[SHOAL_PROF_COLLS];
    struct shoal_prof_totals completed;   /* issued before the last quiet or barrier */
    void (*world_barrier)(void);          /* given at init: prof sits below the collectives */
};
extern struct shoal_prof_state shoal_prof;

static inline size_t shoal_prof_op_index(int kind, bool nbi, int pe)
{
    return ((size_t)kind * 2 + nbi) * (size_t)shoal.n_pes + (size_t)pe;
}

extern const char *const shoal_prof_kind_names[SHOAL_PROF_KINDS];
extern const char *const shoal_prof_wait_names[SHOAL_PROF_WAITS];
void shoal_prof_team_label(const struct shoal_team *t, char *out, size_t len, int *n_pes);
void shoal_prof_mark_completed(void);
void shoal_prof_write(const char *when);

#endif
