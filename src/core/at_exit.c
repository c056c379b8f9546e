/* The wait of a finalize at exit.  Finalize is collective; a PE that exits
 * without calling shmem_finalize finalizes implicitly, and must not hang
 * when its peers never get there: they may be stuck in a collective this
 * PE skipped, or dead.  Every shoal_finalize counts itself in the PE's
 * control block before its barrier, so a PE finalizing at exit can see
 * which peers have reached the same finalize, and give up on the others
 * after SHOAL_FINALIZE_TIMEOUT seconds (at once when one is dead). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "shoal.h"

static uint64_t finalizing_of(int pe)
{
    struct shoal_pe_ctl *c = shoal.peers[pe].ctl;
    if (c)
        return __atomic_load_n(&c->finalizing, __ATOMIC_ACQUIRE);
    uint64_t v;   /* on another host: the same word of its control block, through the network */
    shoal_get(&shoal_ctx_default, &v, &shoal.my_ctl->finalizing, sizeof v, pe, false);
    return v;
}

/* Gone, or a zombie: its memory stays mapped here, but it will never come. */
static bool died(int pe)
{
    if (!shoal.peers[pe].pid)
        return false;   /* on another host: its launcher ends the job */
    char path[64], state = 0;
    snprintf(path, sizeof path, "/proc/%d/stat", shoal.peers[pe].pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return true;
    if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
        state = 0;
    fclose(f);
    return state == 'Z' || state == 'X';
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* "0-3, 7": the PEs marked in list, as ranges. */
static void format_pes(const bool *list, char *out, size_t len)
{
    size_t used = 0;
    out[0] = 0;
    for (int pe = 0; pe < shoal.n_pes && used < len; pe++) {
        if (!list[pe] || (pe > 0 && list[pe - 1]))
            continue;
        int last = pe;
        while (last + 1 < shoal.n_pes && list[last + 1])
            last++;
        used += snprintf(out + used, len - used, last > pe ? "%s%d-%d" : "%s%d", used ? ", " : "", pe, last);
    }
}

static _Noreturn void give_up(const bool *missing, const bool *dead, bool any_dead, double waited)
{
    char who[512];
    format_pes(any_dead ? dead : missing, who, sizeof who);
    if (any_dead)
        shoal_fatal("shmem_finalize (implicit, at exit)", "PE(s) %s died without reaching shmem_finalize; "
                    "ending the job", who);
    shoal_fatal("shmem_finalize (implicit, at exit)", "waited %.0f s for PE(s) %s to reach shmem_finalize "
                "(or exit) and they did not: they may be waiting in a collective this PE skipped. Call "
                "shmem_finalize on every PE after the same collectives, or raise SHOAL_FINALIZE_TIMEOUT "
                "if they were only slow", waited, who);
}

void shoal_await_finalizers(uint64_t arrival)
{
    int n = shoal.n_pes;
    bool *missing = calloc(n, sizeof *missing), *dead = calloc(n, sizeof *dead);
    double start = now(), limit = (double)shoal_cfg.finalize_timeout;
    long pause_ns = 1000000;   /* 1 ms, growing to 32 ms: this runs once, at exit */
    for (;;) {
        bool any = false, any_dead = false;
        for (int pe = 0; pe < n; pe++) {
            missing[pe] = finalizing_of(pe) < arrival;
            dead[pe] = missing[pe] && died(pe);
            any |= missing[pe];
            any_dead |= dead[pe];
        }
        if (!any)
            break;
        double waited = now() - start;
        if (any_dead || (limit > 0 && waited >= limit))
            give_up(missing, dead, any_dead, waited);
        shoal_poll();
        nanosleep(&(struct timespec){0, pause_ns}, NULL);
        if (pause_ns < 32000000)
            pause_ns *= 2;
    }
    free(missing);
    free(dead);
}
