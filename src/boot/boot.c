/* Picks the bootstrap from the environment, in order of specificity. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "boot.h"

/* Launchers tried in this order; the network bootstraps add themselves here. */
static const struct shoal_boot *const candidates[] = {
    &shoal_boot_local,
#ifdef SHOAL_HAVE_PMIX
    &shoal_boot_pmix,
#endif
#ifdef SHOAL_HAVE_PMI
    &shoal_boot_pmi,
#endif
    &shoal_boot_single,
};
static const struct shoal_boot *boot;

int shoal_boot_init(int *rank, int *size)
{
    if (!boot)
        for (size_t i = 0; i < sizeof candidates / sizeof candidates[0] && !boot; i++)
            if (candidates[i]->detect())
                boot = candidates[i];
    return boot->init(rank, size);
}

const char *shoal_boot_name(void) { return boot ? boot->name : "none"; }
void shoal_boot_allgather(const void *in, void *out, size_t len) { boot->allgather(in, out, len); }
void shoal_boot_barrier(void) { boot->barrier(); }
void shoal_boot_fini(void) { boot->fini(); }

_Noreturn void shoal_boot_abort(int status)
{
    if (boot)
        boot->abort(status);
    _exit(status);
}
