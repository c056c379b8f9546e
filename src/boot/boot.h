/* Bootstrap: how PEs learn their rank and exchange a few bytes at init.
 * One implementation per launcher, picked at run time from the environment:
 * local (our oshrun), pmix, pmi2, pmi1, single (no launcher: one PE);
 * SHOAL_BOOTSTRAP names one instead. */
#ifndef SHOAL_BOOT_H
#define SHOAL_BOOT_H

#include <stddef.h>

struct shoal_boot {
    const char *name;
    int (*detect)(void);                  /* non-zero when the environment is this launcher's */
    int (*init)(int *rank, int *size);    /* 0 on success */
    void (*allgather)(const void *in, void *out, size_t len);   /* out: size * len bytes */
    void (*barrier)(void);
    void (*abort)(int status);            /* take the whole job down with this status; never returns */
    void (*fini)(void);
};

extern const struct shoal_boot shoal_boot_local, shoal_boot_single;
#ifdef SHOAL_HAVE_PMIX
extern const struct shoal_boot shoal_boot_pmix;   /* boot/pmix.c: Slurm --mpi=pmix, PRRTE, Open MPI */
#endif
#ifdef SHOAL_HAVE_PMI
extern const struct shoal_boot shoal_boot_pmi;    /* boot/pmi.c: PMI-1 wire protocol (hydra, Slurm pmi2) */
extern const struct shoal_boot shoal_boot_pmi2;   /* boot/pmi2.c: PMI-2 wire protocol (Slurm pmi2, hydra) */
#endif

int shoal_boot_init(int *rank, int *size);
const char *shoal_boot_name(void);
void shoal_boot_allgather(const void *in, void *out, size_t len);
void shoal_boot_barrier(void);
_Noreturn void shoal_boot_abort(int status);
void shoal_boot_fini(void);

#endif
