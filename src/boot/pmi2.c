/* Bootstrap through PMI-2: Slurm's --mpi=pmi2 plugin and MPICH's hydra
 * answer it on the same PMI_FD socket as PMI-1; the client picks the
 * protocol with its first line ("cmd=init pmi_version=2"), after which every
 * message is a 6-character decimal length followed by
 * "cmd=name;key=value;...;" (a ';' inside a value is doubled).
 *
 * Our own client, like PMI-1's (boot/pmi.c, with which it shares
 * pmi_wire.c), for the same reasons: no library to find, none to mismatch.
 *
 * Two things differ between the servers and decide the code below:
 * - hydra's kvs-fence answers at once; a kvs-get of a key nobody put waits
 *   until every process has fenced as often as the asker.  Slurm's fence
 *   waits for everyone itself.  So a barrier is a fence followed by a get of
 *   a key that is never put, which waits on both.  Every fence is such a
 *   barrier: hydra releases waiting gets only when the total number of
 *   fences is a multiple of the job size, which holds only in lockstep.
 * - hydra 4.0 does not know PMI-2's "abort" (it ends the job with
 *   "Unrecognized PMI command" and status 255) but reads PMI-1 lines on the
 *   same socket, and PMI-1's abort keeps the status.  Slurm knows PMI-2's.
 *   (Just exiting is not enough under hydra 4.0: a process's death goes
 *   unnoticed while a later-started sibling still holds its output pipes.) */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot.h"
#include "pmi_wire.h"

static struct pmi_wire wire = {.proto = "PMI-2", .fd = -1, .rank = -1};
static int n_ranks;
static char jobid[256];

enum { VALLEN_MAX = 1024 };   /* PMI-2's limit on a value, with its NUL (hydra, Slurm) */

/* Slurm's pmi2 plugin says so in the environment (SLURM_MPI_TYPE=pmi2, seen
 * with Slurm 22.05); hydra does not (it defaults to PMI-1 here, see
 * DESIGN.md), SHOAL_BOOTSTRAP=pmi2 picks PMI-2 there. */
static int pmi2_detect(void)
{
    const char *mpi_type = getenv("SLURM_MPI_TYPE");
    return getenv("PMI_FD") && getenv("PMI_RANK") && mpi_type && strncmp(mpi_type, "pmi2", 4) == 0;
}

static size_t message_frame(const char *in, size_t len)
{
    char digits[7];
    if (len < 6)
        return 0;
    memcpy(digits, in, 6);
    digits[6] = '\0';
    size_t body = (size_t)strtoul(digits, NULL, 10);
    return len >= 6 + body ? 6 + body : 0;
}

static void recv_message(char *out, size_t cap)
{
    size_t n = pmi_wire_recv(&wire, message_frame);
    if (n - 6 >= cap)
        pmi_wire_lost(&wire, "reply too long");
    memcpy(out, wire.in + 6, n - 6);
    out[n - 6] = '\0';
    pmi_wire_drop(&wire, n);
}

static const char *field(const char *msg, const char *key, char *out, size_t cap)
{
    return pmi_wire_field(msg, ';', key, out, cap);
}

static void send_message(const char *body)
{
    char head[7];
    size_t len = strlen(body);
    if (len > 999999)
        pmi_wire_lost(&wire, "request too long");
    snprintf(head, sizeof head, "%6zu", len);
    pmi_wire_send(&wire, head, 6);
    pmi_wire_send(&wire, body, len);
}

/* Send "cmd=...;", read the reply, check its cmd and rc. */
static void request(const char *body, const char *want_cmd, char *reply, size_t cap)
{
    char v[64];
    send_message(body);
    recv_message(reply, cap);
    if (!field(reply, "cmd", v, sizeof v) || strcmp(v, want_cmd) != 0)
        pmi_wire_lost(&wire, reply);
    if (field(reply, "rc", v, sizeof v) && atoi(v) != 0)
        pmi_wire_lost(&wire, reply);
}

/* The opening line is PMI-1's; a server without PMI-2 answers version 1. */
static void choose_version_2(void)
{
    static const char init[] = "cmd=init pmi_version=2 pmi_subversion=0\n";
    char reply[256], v[32];
    pmi_wire_send(&wire, init, sizeof init - 1);
    pmi_wire_recv_line(&wire, reply, sizeof reply);
    if (!pmi_wire_field(reply, ' ', "cmd", v, sizeof v) || strcmp(v, "response_to_init") != 0)
        pmi_wire_lost(&wire, reply);
    if (!pmi_wire_field(reply, ' ', "pmi_version", v, sizeof v) || atoi(v) != 2 ||
        (pmi_wire_field(reply, ' ', "rc", v, sizeof v) && atoi(v) != 0)) {
        fprintf(stderr, "Shoal error: PE %d: shmem_init: the process manager does not speak PMI-2 (it "
                        "answered \"%s\"); unset SHOAL_BOOTSTRAP or set it to pmi1\n", wire.rank, reply);
        _exit(1);
    }
}

/* Appends "key=value;" to body when value is set. */
static void add_pair(char *body, size_t cap, const char *key, const char *value)
{
    size_t n = strlen(body);
    if (value)
        snprintf(body + n, cap - n, "%s=%s;", key, value);
}

/* The launcher's ids for this process go back to it, as MPICH's client does. */
static void full_init(void)
{
    char body[512] = "cmd=fullinit;", reply[1024], v[32];
    add_pair(body, sizeof body, "pmijobid", getenv("PMI_JOBID"));
    add_pair(body, sizeof body, "pmiid", getenv("PMI_ID"));
    add_pair(body, sizeof body, "pmirank", getenv("PMI_RANK"));
    add_pair(body, sizeof body, "threaded", "FALSE");
    request(body, "fullinit-response", reply, sizeof reply);
    if (!field(reply, "rank", v, sizeof v))
        pmi_wire_lost(&wire, reply);
    wire.rank = atoi(v);
    if (!field(reply, "size", v, sizeof v) || (n_ranks = atoi(v)) <= 0)
        pmi_wire_lost(&wire, reply);
    request("cmd=job-getid;", "job-getid-response", reply, sizeof reply);
    if (!field(reply, "jobid", jobid, sizeof jobid))
        pmi_wire_lost(&wire, reply);
}

static void finalize_at_exit(void)
{
    char reply[256];
    if (wire.fd >= 0 && !pmi_wire_taken(&wire))   /* MPI_Finalize may have said it for this process */
        request("cmd=finalize;", "finalize-response", reply, sizeof reply);
    wire.fd = -1;
}

static int pmi2_init(int *rank, int *size)
{
    if (wire.fd < 0) {
        if (!getenv("PMI_RANK") || pmi_wire_open(&wire) < 0) {
            fprintf(stderr, "Shoal error: shmem_init: PMI-2: no process manager to talk to (PMI_RANK=%s, "
                            "PMI_FD=%s, PMI_PORT=%s); start the program with srun --mpi=pmi2 or "
                            "mpiexec.hydra\n", getenv("PMI_RANK"), getenv("PMI_FD"), getenv("PMI_PORT"));
            return -1;
        }
        wire.rank = atoi(getenv("PMI_RANK"));
        choose_version_2();
        full_init();
        atexit(finalize_at_exit);
    }
    *rank = wire.rank;
    *size = n_ranks;
    return 0;
}

/* The value of key; false when nobody put it. */
static bool kvs_lookup(const char *key, char *value, size_t cap)
{
    char body[512], reply[VALLEN_MAX + 256], found[16];
    snprintf(body, sizeof body, "cmd=kvs-get;jobid=%s;srcid=-1;key=%s;", jobid, key);
    request(body, "kvs-get-response", reply, sizeof reply);
    if (!field(reply, "found", found, sizeof found))
        pmi_wire_lost(&wire, reply);
    if (strcmp(found, "TRUE") != 0)
        return false;
    if (!field(reply, "value", value, cap))
        pmi_wire_lost(&wire, reply);
    return true;
}

static void pmi2_barrier(void)
{
    char reply[256], none[8];
    /* MPI_Finalize took the shared connection: shmem_finalize synchronizes
     * over Shoal's own transports instead (api/lifecycle.c, last_synchronization). */
    if (pmi_wire_taken(&wire))
        return;
    request("cmd=kvs-fence;", "kvs-fence-response", reply, sizeof reply);
    if (kvs_lookup("shoal-never-put", none, sizeof none))
        pmi_wire_lost(&wire, "a key nobody puts was found");
}

static void kvs_put(const char *key, const char *value)
{
    size_t cap = 64 + strlen(key) + strlen(value);
    char *body = malloc(cap), reply[256];
    snprintf(body, cap, "cmd=kvs-put;key=%s;value=%s;", key, value);
    request(body, "kvs-put-response", reply, sizeof reply);
    free(body);
}

static void kvs_get(const char *key, char *value, size_t cap)
{
    if (!kvs_lookup(key, value, cap))
        pmi_wire_lost(&wire, "a PE's published value is missing after the fence");
}

static void pmi2_allgather(const void *in, void *out, size_t len)
{
    const struct pmi_kvs kvs = {&wire, VALLEN_MAX, kvs_put, pmi2_barrier, kvs_get};
    pmi_kvs_allgather(&kvs, n_ranks, in, out, len);
}

static _Noreturn void pmi2_abort(int status)
{
    if (wire.fd >= 0) {
        pmi_wire_drain_stderr();
        char msg[160];
        if (getenv("MPI_LOCALNRANKS")) {   /* hydra sets it, Slurm does not */
            snprintf(msg, sizeof msg, "cmd=abort exitcode=%d\n", status);
            pmi_wire_send(&wire, msg, strlen(msg));
        } else {
            snprintf(msg, sizeof msg, "cmd=abort;isworld=TRUE;msg=Shoal: PE %d ended the job with status %d;",
                     wire.rank, status);
            send_message(msg);
        }
        /* The process manager kills the job; no reply comes. */
    }
    _exit(status);
}

static void pmi2_fini(void)
{
    /* The connection stays for a later shmem_init; it is closed at exit. */
}

const struct shoal_boot shoal_boot_pmi2 = {
    "pmi2", pmi2_detect, pmi2_init, pmi2_allgather, pmi2_barrier, pmi2_abort, pmi2_fini,
};
