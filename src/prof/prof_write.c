/* The profile file: DIR/pe<N>.json, one per PE, written at finalize (and at
 * shmem_global_exit, and on shmem_pcontrol(2)).  oshprof reads and merges
 * them; the format is described in docs/PROFILING.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prof_tables.h"
#include "../team/team.h"

const char *const shoal_prof_kind_names[SHOAL_PROF_KINDS] = {"put", "get", "amo", "signal"};
const char *const shoal_prof_wait_names[SHOAL_PROF_WAITS] = {"wait", "barrier", "collective", "quiet"};

void shoal_prof_team_label(const struct shoal_team *t, char *out, size_t len, int *n_pes)
{
    *n_pes = t ? t->n_pes : 0;
    if (!t)
        snprintf(out, len, "active_set");
    else if (t == &shoal_team_world)
        snprintf(out, len, "world");
    else if (t == &shoal_team_shared)
        snprintf(out, len, "shared");
    else if (t == &shoal_team_host)
        snprintf(out, len, "host");
    else if (t == shoal_team_leaders_handle)
        snprintf(out, len, "leaders");
    else
        snprintf(out, len, "team%d", t->block);   /* the pool block is the same on every member */
}

static void write_targets(FILE *f)
{
    fprintf(f, "  \"targets\": [");
    const char *sep = "\n";
    for (int pe = 0; pe < shoal.n_pes; pe++) {
        const char *inner = "";
        for (int k = 0; k < SHOAL_PROF_KINDS; k++)
            for (int nbi = 0; nbi < 2; nbi++) {
                struct shoal_prof_count c = shoal_prof.ops[shoal_prof_op_index(k, nbi, pe)];
                if (!c.n)
                    continue;
                if (!*inner)
                    fprintf(f, "%s    {\"pe\": %d", sep, pe), sep = ",\n";
                inner = ", ";
                fprintf(f, ", \"%s%s\": {\"count\": %llu, \"bytes\": %llu}", shoal_prof_kind_names[k],
                        nbi ? "_nbi" : "", (unsigned long long)c.n, (unsigned long long)c.bytes);
            }
        if (*inner)
            fprintf(f, "}");
    }
    fprintf(f, "\n  ],\n");
}

static void write_waits(FILE *f)
{
    fprintf(f, "  \"waits\": {");
    for (int w = 0; w < SHOAL_PROF_WAITS; w++)
        fprintf(f, "%s\"%s\": {\"calls\": %llu, \"seconds\": %.9f}", w ? ", " : "", shoal_prof_wait_names[w],
                (unsigned long long)shoal_prof.waits[w].calls, shoal_prof.waits[w].ns * 1e-9);
    fprintf(f, "},\n");
}

static void write_collectives(FILE *f)
{
    fprintf(f, "  \"collectives\": [");
    for (int i = 0; i < shoal_prof.n_colls; i++) {
        const struct shoal_prof_coll *c = &shoal_prof.colls[i];
        fprintf(f, "%s\n    {\"routine\": \"%s\", \"team\": \"%s\", \"team_pes\": %d, \"algorithm\": \"%s\", "
                   "\"calls\": %llu, \"bytes\": %llu, \"seconds\": %.9f}",
                i ? "," : "", c->routine, c->team_label, c->team_pes, c->alg ? c->alg : "none",
                (unsigned long long)c->calls, (unsigned long long)c->bytes, c->ns * 1e-9);
    }
    fprintf(f, "\n  ],\n");
}

static void write_routine(FILE *f, const struct shoal_prof_routine *r, const char *name, const char **sep)
{
    fprintf(f, "%s\n    {\"routine\": \"%s\", \"calls\": %llu, \"bytes\": %llu, \"seconds\": %.9f}", *sep, name,
            (unsigned long long)r->calls, (unsigned long long)r->bytes, r->ns * 1e-9);
    *sep = ",";
}

static void write_routines(FILE *f)
{
    const char *sep = "";
    fprintf(f, "  \"routines\": [");
    for (int i = 0; i < SHOAL_PROF_ROUTINES; i++)
        if (shoal_prof.routines[i].name)
            write_routine(f, &shoal_prof.routines[i], shoal_prof.routines[i].name, &sep);
    if (shoal_prof.routine_overflow.calls)
        write_routine(f, &shoal_prof.routine_overflow, "(other routines)", &sep);
    fprintf(f, "\n  ]\n");
}

/* mkdir -p: PEs race to create it, so "exists" is success. */
static int make_dir(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Written to a temporary name and renamed, so a reader never sees half a file. */
void shoal_prof_write(const char *when)
{
    const char *dir = shoal_cfg.profile;
    if (!dir || !*dir)
        return;
    if (make_dir(dir) != 0) {
        shoal_warn(when, "SHOAL_PROFILE=%s: cannot create the directory (%s); no profile written", dir,
                   strerror(errno));
        return;
    }
    char path[4096], tmp[4200], host[64] = "";
    snprintf(path, sizeof path, "%s/pe%d.json", dir, shoal.my_pe);
    snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        shoal_warn(when, "SHOAL_PROFILE=%s: cannot write %s (%s); no profile written", dir, tmp, strerror(errno));
        return;
    }
    gethostname(host, sizeof host - 1);
    fprintf(f, "{\n  \"format\": \"shoal-profile-1\",\n  \"pe\": %d,\n  \"n_pes\": %d,\n  \"host\": %d,\n"
               "  \"hostname\": \"%s\",\n  \"written_at\": \"%s\",\n  \"seconds\": %.9f,\n",
            shoal.my_pe, shoal.n_pes, shoal.my_host, host, when, (shoal_prof_now() - shoal_prof.t_init) * 1e-9);
    write_targets(f);
    write_waits(f);
    write_collectives(f);
    write_routines(f);
    fprintf(f, "}\n");
    if (fclose(f) != 0 || rename(tmp, path) != 0)
        shoal_warn(when, "SHOAL_PROFILE=%s: could not finish %s (%s)", dir, path, strerror(errno));
}
