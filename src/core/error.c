/* The one reporting path: PE number, routine, what is wrong, how to fix it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "shoal.h"
#include "../boot/boot.h"

__thread const char *shoal_user_routine;

static void report(const char *level, const char *routine, const char *fmt, va_list ap)
{
    if (shoal_user_routine)
        routine = shoal_user_routine;
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (shoal.n_pes > 0)
        fprintf(stderr, "Shoal%s: PE %d: %s: %s\n", level, shoal.my_pe, routine, msg);
    else
        fprintf(stderr, "Shoal%s: %s: %s\n", level, routine, msg);
    fflush(stderr);
}

void shoal_fatal(const char *routine, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(" error", routine, fmt, ap);
    va_end(ap);
    shoal_boot_abort(1);
}

void shoal_warn(const char *routine, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(" warning", routine, fmt, ap);
    va_end(ap);
}

void shoal_require_init(const char *routine)
{
    if (shoal_initialized())
        return;
    if (shoal.n_pes == 0)   /* set by the first init, kept after finalize */
        shoal_fatal(routine, "called before shmem_init; call shmem_init first");
    shoal_fatal(routine, "called after the last shmem_finalize; make OpenSHMEM calls between shmem_init "
                         "and shmem_finalize");
}

void shoal_check_remote(const char *routine, const void *addr, size_t len, int pe)
{
    shoal_require_init(routine);
    if (pe < 0 || pe >= shoal.n_pes)
        shoal_fatal(routine, "PE %d is out of range: this job has PEs 0..%d", pe, shoal.n_pes - 1);
    size_t off;
    int s = shoal_seg_of(addr, &off);
    if (s < 0)
        shoal_fatal(routine, "address %p is not symmetric: use memory from shmem_malloc or a "
                             "global/static variable", addr);
    if (len > shoal.seg_size[s] - off)
        shoal_fatal(routine, "%zu bytes at %p run past the end of the symmetric %s", len, addr,
                    s == SHOAL_SEG_HEAP ? "heap (raise SHMEM_SYMMETRIC_SIZE?)" : "data segment");
}
