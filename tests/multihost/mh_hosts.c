/* The job sees the hosts the launcher made: argv[1] is the expected number
 * of PEs per host in host order ("2,1,3"); argv[2] "block" or "rr" the
 * placement.  Checks n_pes, which PEs share memory (shmem_ptr), and
 * SHMEM_TEAM_SHARED, against a placement computed here. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { MAX_HOSTS = 16 };

/* Host of every PE under the given placement. */
static void place(const int *ppn, int hosts, bool rr, int *host_of)
{
    int left[MAX_HOSTS], pe = 0;
    memcpy(left, ppn, sizeof(int) * hosts);
    if (!rr) {
        for (int h = 0; h < hosts; h++)
            for (int k = 0; k < ppn[h]; k++)
                host_of[pe++] = h;
        return;
    }
    for (bool any = true; any;) {
        any = false;
        for (int h = 0; h < hosts; h++)
            if (left[h] > 0) {
                left[h]--;
                host_of[pe++] = h;
                any = true;
            }
    }
}

int main(int argc, char **argv)
{
    int ppn[MAX_HOSTS], hosts = 0, total = 0;
    for (char *p = argc > 1 ? argv[1] : "1"; *p && hosts < MAX_HOSTS; hosts++) {
        ppn[hosts] = (int)strtol(p, &p, 10);
        total += ppn[hosts];
        p += *p == ',';
    }
    bool rr = argc > 2 && strcmp(argv[2], "rr") == 0;
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK_EQ_LONG(n, total);
    int *host_of = malloc(sizeof(int) * n);
    place(ppn, hosts, rr, host_of);
    static long word;
    int shared_here = 0;
    for (int pe = 0; pe < n; pe++) {
        bool same = host_of[pe] == host_of[me];
        CHECK((shmem_ptr(&word, pe) != NULL) == same, "PE %d %s on my host but shmem_ptr says %s", pe,
              same ? "is" : "is not", same ? "unreachable" : "reachable");
        shared_here += same;
    }
    CHECK_EQ_LONG(shmem_team_n_pes(SHMEM_TEAM_SHARED), shared_here);
    shmem_barrier_all();
    if (me == 0)
        printf("mh_hosts: %d PEs on %d hosts (%s) OK\n", n, hosts, rr ? "round-robin" : "block");
    shmem_finalize();
    return 0;
}
