/* Picks the bootstrap from the environment, in order of specificity, or
 * the one SHOAL_BOOTSTRAP names. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot.h"
#include "../core/shoal.h"

/* Launchers tried in this order; the network bootstraps add themselves here. */
static const struct shoal_boot *const candidates[] = {
    &shoal_boot_local,
#ifdef SHOAL_HAVE_PMIX
    &shoal_boot_pmix,
#endif
#ifdef SHOAL_HAVE_PMI
    &shoal_boot_pmi2,   /* before PMI-1: it only claims environments that ask for PMI-2 */
    &shoal_boot_pmi,
#endif
    &shoal_boot_single,
};
enum { N_CANDIDATES = sizeof candidates / sizeof candidates[0] };
static const struct shoal_boot *boot;

/* SHOAL_BOOTSTRAP (core/env.def) is read here, before the configuration,
 * which needs the bootstrap first to name the PE in its errors. */
static const struct shoal_boot *forced(const char *name)
{
    char names[256] = "auto";
    for (int i = 0; i < N_CANDIDATES; i++) {
        if (strcmp(candidates[i]->name, name) == 0)
            return candidates[i];
        size_t n = strlen(names);
        snprintf(names + n, sizeof names - n, ", %s", candidates[i]->name);
    }
    /* One write: PEs failing together must not interleave their lines. */
    shoal_fatal("shmem_init", "SHOAL_BOOTSTRAP=\"%s\" is not a bootstrap of this build; use one of %s", name,
                names);
}

static const struct shoal_boot *detected(void)
{
    for (int i = 0; i < N_CANDIDATES; i++)
        if (candidates[i]->detect())
            return candidates[i];
    return &shoal_boot_single;
}

int shoal_boot_init(int *rank, int *size)
{
    if (!boot) {
        const char *name = getenv("SHOAL_BOOTSTRAP");
        boot = name && *name && strcmp(name, "auto") != 0 ? forced(name) : detected();
        if (!boot)
            return -1;
    }
    return boot->init(rank, size);
}

const char *shoal_boot_name(void) { return boot ? boot->name : "none"; }
void shoal_boot_allgather(const void *in, void *out, size_t len) { boot->allgather(in, out, len); }
void shoal_boot_barrier(void) { boot->barrier(); }
void shoal_boot_fini(void) { boot->fini(); }

/* Asking the launcher to end the job can itself hang (a launcher that no
 * longer answers, a PMIx call that never completes): the PE then stayed,
 * and the job with it, until the launcher's own time limit.  So the PE
 * ends itself ABORT_GRACE seconds later in any case; a launcher takes a
 * PE that exits non-zero as the end of the job. */
enum { ABORT_GRACE = 10 };

_Noreturn void shoal_boot_abort(int status)
{
    signal(SIGALRM, SIG_DFL);
    alarm(ABORT_GRACE);
    if (boot)
        boot->abort(status);
    _exit(status);
}
