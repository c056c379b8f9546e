/* Bootstrap through PMI-1: MPICH's hydra (mpiexec.hydra) and Slurm's
 * --mpi=pmi2 plugin (which also answers PMI-1 requests) hand each process a
 * connected socket in PMI_FD (or hydra's "host:port" in PMI_PORT).
 *
 * We speak the PMI-1 wire protocol ourselves instead of linking a libpmi:
 * it is a dozen newline-terminated "cmd=... key=value" lines, the library
 * then needs no package at build or run time, and there is no risk of
 * binding to the wrong process manager's libpmi (a libpmi from Slurm, MPICH
 * and PMIx's compatibility layer all exist under that one name).  What
 * PMI-2 (boot/pmi2.c) shares with it lives in pmi_wire.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot.h"
#include "pmi_wire.h"

static struct pmi_wire wire = {.proto = "PMI-1", .fd = -1, .rank = -1};
static int n_ranks;
static char kvsname[256];
static size_t keylen_max = 32, vallen_max = 64;

static int pmi_detect(void)
{
    return (getenv("PMI_FD") || getenv("PMI_PORT")) && getenv("PMI_RANK");
}

static const char *field(const char *line, const char *key, char *out, size_t cap)
{
    return pmi_wire_field(line, ' ', key, out, cap);
}

/* Send a request, read the reply, check its cmd and rc. */
static void request(const char *line, const char *want_cmd, char *reply, size_t cap)
{
    char v[64];
    pmi_wire_send(&wire, line, strlen(line));
    pmi_wire_recv_line(&wire, reply, cap);
    if (!field(reply, "cmd", v, sizeof v) || strcmp(v, want_cmd) != 0)
        pmi_wire_lost(&wire, reply);
    if (field(reply, "rc", v, sizeof v) && atoi(v) != 0)
        pmi_wire_lost(&wire, reply);
}

/* hydra's port mode: introduce ourselves, then it tells size and rank. */
static void port_handshake(void)
{
    char line[256], v[32];
    const char *id = getenv("PMI_ID") ? getenv("PMI_ID") : getenv("PMI_RANK");
    snprintf(line, sizeof line, "cmd=initack pmiid=%s\n", id);
    request(line, "initack", line, sizeof line);
    for (int i = 0; i < 3; i++) {   /* cmd=set size= / rank= / debug= */
        pmi_wire_recv_line(&wire, line, sizeof line);
        if (field(line, "size", v, sizeof v))
            n_ranks = atoi(v);
        if (field(line, "rank", v, sizeof v))
            wire.rank = atoi(v);
    }
}

static void finalize_at_exit(void)
{
    char reply[256];
    if (wire.fd >= 0 && !pmi_wire_taken(&wire))   /* MPI_Finalize may have said it for this process */
        request("cmd=finalize\n", "finalize_ack", reply, sizeof reply);
    wire.fd = -1;
}

static int pmi_init(int *rank, int *size)
{
    if (wire.fd < 0) {
        char reply[1024], v[64];
        if (!getenv("PMI_RANK") || pmi_wire_open(&wire) < 0) {
            fprintf(stderr, "Shoal error: shmem_init: PMI-1: no process manager to talk to (PMI_RANK=%s, "
                            "PMI_FD=%s, PMI_PORT=%s); start the program with mpiexec.hydra or srun --mpi=pmi2\n",
                    getenv("PMI_RANK"), getenv("PMI_FD"), getenv("PMI_PORT"));
            return -1;
        }
        wire.rank = atoi(getenv("PMI_RANK"));
        n_ranks = getenv("PMI_SIZE") ? atoi(getenv("PMI_SIZE")) : 0;
        if (!getenv("PMI_FD"))
            port_handshake();
        request("cmd=init pmi_version=1 pmi_subversion=1\n", "response_to_init", reply, sizeof reply);
        request("cmd=get_maxes\n", "maxes", reply, sizeof reply);
        if (field(reply, "keylen_max", v, sizeof v))
            keylen_max = (size_t)atol(v);
        if (field(reply, "vallen_max", v, sizeof v))
            vallen_max = (size_t)atol(v);
        request("cmd=get_my_kvsname\n", "my_kvsname", reply, sizeof reply);
        if (!field(reply, "kvsname", kvsname, sizeof kvsname))
            pmi_wire_lost(&wire, reply);
        if (n_ranks <= 0 || keylen_max < 16 || vallen_max < 16)
            pmi_wire_lost(&wire, "PMI_SIZE or the server's limits");
        atexit(finalize_at_exit);
    }
    *rank = wire.rank;
    *size = n_ranks;
    return 0;
}

static void pmi_barrier(void)
{
    char reply[256];
    /* MPI_Finalize took the shared connection: shmem_finalize synchronizes
     * over Shoal's own transports instead (api/lifecycle.c, last_synchronization). */
    if (pmi_wire_taken(&wire))
        return;
    request("cmd=barrier_in\n", "barrier_out", reply, sizeof reply);
}

static void kvs_put(const char *key, const char *value)
{
    size_t cap = 64 + strlen(kvsname) + strlen(key) + strlen(value);
    char *line = malloc(cap), reply[256];
    snprintf(line, cap, "cmd=put kvsname=%s key=%s value=%s\n", kvsname, key, value);
    request(line, "put_result", reply, sizeof reply);
    free(line);
}

static void kvs_get(const char *key, char *value, size_t cap)
{
    char line[400];
    size_t reply_cap = 128 + vallen_max;
    char *reply = malloc(reply_cap);
    snprintf(line, sizeof line, "cmd=get kvsname=%s key=%s\n", kvsname, key);
    request(line, "get_result", reply, reply_cap);
    if (!field(reply, "value", value, cap))
        pmi_wire_lost(&wire, reply);
    free(reply);
}

static void pmi_allgather(const void *in, void *out, size_t len)
{
    /* PMI-1: a put is visible to all after the next barrier (put implies commit here). */
    const struct pmi_kvs kvs = {&wire, vallen_max, kvs_put, pmi_barrier, kvs_get};
    pmi_kvs_allgather(&kvs, n_ranks, in, out, len);
}

static _Noreturn void pmi_abort(int status)
{
    if (wire.fd >= 0) {
        pmi_wire_drain_stderr();
        char line[64];
        snprintf(line, sizeof line, "cmd=abort exitcode=%d\n", status);
        pmi_wire_send(&wire, line, strlen(line));   /* the process manager kills the job; no reply comes */
    }
    _exit(status);
}

static void pmi_fini(void)
{
    /* The connection stays for a later shmem_init; it is closed at exit. */
}

const struct shoal_boot shoal_boot_pmi = {
    "pmi1", pmi_detect, pmi_init, pmi_allgather, pmi_barrier, pmi_abort, pmi_fini,
};
