/* Operating-system limits a network job runs into on real fabrics, checked
 * at init so that the job fails (or warns) in one line naming the limit
 * instead of failing obscurely later.  Neither can be exercised on this
 * machine's tcp/sockets providers except through the overrides below
 * (DESIGN.md, "Real fabrics").
 *  - Locked memory: verbs, efa, psm3 and usnic pin every registered page.
 *    There the heap is registered in chunks as it is used (ofi_mr.c), but
 *    RLIMIT_MEMLOCK is often 64 KiB.  The soft limit is raised to the hard
 *    one; if that is still too small, init (or the allocation that needs a
 *    new chunk) stops naming both sizes and the fixes.  With
 *    FI_VERBS_USE_ODP set (on-demand paging) nothing is pinned up front.
 *  - Open files: rxm (and tcp, net, sockets) keeps a socket per connected peer
 *    and context.  The soft nofile limit is raised to the hard one; when
 *    even that cannot hold a socket per PE, the first PE of each host says
 *    so (connections made later would fail). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "ofi.h"

enum { SPARE_FILES = 64 };   /* the program's own files, the provider's pipes and epoll fds */

static bool provider_is(const char *const *names)
{
    for (; *names; names++)
        if (strstr(shoal_ofi.prov, *names))
            return true;
    return false;
}

bool shoal_ofi_registration_pins(void)
{
    static const char *const pinning[] = {"verbs", "efa", "psm3", "usnic", NULL};
    /* verbs with on-demand paging pins pages as the adapter touches them */
    bool odp = strstr(shoal_ofi.prov, "verbs") && getenv("FI_VERBS_USE_ODP") && atoi(getenv("FI_VERBS_USE_ODP"));
    return shoal_ofi_setting(shoal_cfg.ofi_mr_pins, !odp && provider_is(pinning));
}

static void format_size(char *buf, size_t len, rlim_t v)
{
    if (v == RLIM_INFINITY)
        snprintf(buf, len, "unlimited");
    else if (v >= (1u << 20) && v % (1u << 20) == 0)
        snprintf(buf, len, "%llu MiB", (unsigned long long)(v >> 20));
    else if (v >= (1u << 20))
        snprintf(buf, len, "%.1f MiB", (double)v / (1u << 20));
    else
        snprintf(buf, len, "%llu KiB", (unsigned long long)(v >> 10));
}

void shoal_ofi_check_memlock(const char *routine, size_t bytes, bool lazy)
{
    struct rlimit rl;
    if (!shoal_ofi_registration_pins() || getrlimit(RLIMIT_MEMLOCK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
        rl.rlim_cur >= bytes)
        return;
    if (rl.rlim_max > rl.rlim_cur) {
        struct rlimit raised = {rl.rlim_max, rl.rlim_max};
        if (setrlimit(RLIMIT_MEMLOCK, &raised) == 0)
            rl.rlim_cur = rl.rlim_max;
    }
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= bytes)
        return;
    char have[32], need[32];
    format_size(have, sizeof have, rl.rlim_cur);
    format_size(need, sizeof need, bytes);
    shoal_fatal(routine, "libfabric %s pins registered memory, and %s (%s) exceed the locked-memory limit "
                "(RLIMIT_MEMLOCK, ulimit -l: %s, which is also the hard limit); raise it (ulimit -l unlimited, "
                "memlock in /etc/security/limits.conf or the resource manager's settings), %s, or use on-demand "
                "paging (FI_VERBS_USE_ODP=1) where the adapter offers it", shoal_ofi.prov,
                lazy ? "the global data and the heap's chunks in use" : "the symmetric heap and global data", need,
                have, lazy ? "allocate less symmetric memory or lower SHOAL_OFI_MR_CHUNK" : "lower SHMEM_SYMMETRIC_SIZE");
}

static bool first_pe_of_my_host(void)
{
    for (int pe = 0; pe < shoal.my_pe; pe++)
        if (shoal.peers[pe].host == shoal.my_host)
            return false;
    return true;
}

/* At init, before any connection: room for a socket to every PE. */
void shoal_ofi_raise_nofile(void)
{
    static const char *const socket_per_peer[] = {"ofi_rxm", "tcp", "net", "sockets", NULL};
    struct rlimit rl;
    if (!provider_is(socket_per_peer) || getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return;
    rlim_t need = (rlim_t)shoal.n_pes + SPARE_FILES;
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < rl.rlim_max) {
        struct rlimit raised = {rl.rlim_max, rl.rlim_max};
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
            rl.rlim_cur = rl.rlim_max;
    }
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need && first_pe_of_my_host())
        shoal_warn("shmem_init", "libfabric %s keeps a socket per connected PE, and this job of %d PEs needs "
                   "about %llu open files per PE (a socket per PE and %d spare), but the limit (ulimit -n, "
                   "hard limit too) is %llu: connections made once it is reached will fail; raise nofile (limits.conf or the "
                   "resource manager's settings) or run fewer PEs", shoal_ofi.prov, shoal.n_pes,
                   (unsigned long long)need, SPARE_FILES, (unsigned long long)rl.rlim_cur);
}
