/* Bootstrap through PMI-1: MPICH's hydra (mpiexec.hydra) and Slurm's
 * --mpi=pmi2 plugin (which also answers PMI-1 requests) hand each process a
 * connected socket in PMI_FD (or hydra's "host:port" in PMI_PORT).
 *
 * We speak the PMI-1 wire protocol ourselves instead of linking a libpmi:
 * it is a dozen newline-terminated "cmd=... key=value" lines, the library
 * then needs no package at build or run time, and there is no risk of
 * binding to the wrong process manager's libpmi (a libpmi from Slurm, MPICH
 * and PMIx's compatibility layer all exist under that one name).
 *
 * Binary values are hex-encoded (PMI values are printable words) and split
 * over several keys when longer than the server's vallen_max. */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "boot.h"
#include "../core/shoal.h"

static int pmi_fd = -1;
static int my_rank, n_ranks;
static char kvsname[256];
static size_t keylen_max = 32, vallen_max = 64;
static unsigned gather_seq;
static char inbuf[4096];
static size_t inlen;

static int pmi_detect(void)
{
    return (getenv("PMI_FD") || getenv("PMI_PORT")) && getenv("PMI_RANK");
}

static _Noreturn void lost(const char *what)
{
    fprintf(stderr, "Shoal error: PE %d: PMI: %s: the process manager (hydra/Slurm) went away or "
                    "answered something unexpected; ending this PE\n", my_rank, what);
    _exit(1);
}

static void send_line(const char *line)
{
    size_t len = strlen(line), done = 0;
    while (done < len) {
        ssize_t n = write(pmi_fd, line + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            lost("write");
        done += (size_t)n;
    }
}

/* Read one reply line into out (without the newline).  Waiting drives
 * Shoal's progress hooks, so a PE in a boot barrier still serves the
 * network requests of the others. */
static void recv_line(char *out, size_t cap)
{
    for (;;) {
        char *nl = memchr(inbuf, '\n', inlen);
        if (nl) {
            size_t n = (size_t)(nl - inbuf);
            if (n >= cap)
                lost("reply too long");
            memcpy(out, inbuf, n);
            out[n] = '\0';
            inlen -= n + 1;
            memmove(inbuf, nl + 1, inlen);
            return;
        }
        struct pollfd p = {pmi_fd, POLLIN, 0};
        shoal_poll();
        if (poll(&p, 1, shoal_progress_n ? 1 : -1) == 0)
            continue;
        if (inlen == sizeof inbuf)
            lost("reply too long");
        ssize_t n = read(pmi_fd, inbuf + inlen, sizeof inbuf - inlen);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            lost("read");
        inlen += (size_t)n;
    }
}

/* Value of key in a reply line ("cmd=x key=value ..."), or NULL. */
static const char *field(const char *line, const char *key, char *out, size_t cap)
{
    size_t klen = strlen(key);
    for (const char *p = line; (p = strstr(p, key)) != NULL; p += klen) {
        if ((p != line && p[-1] != ' ') || p[klen] != '=')
            continue;
        const char *v = p + klen + 1;
        size_t n = strcspn(v, " ");
        if (n >= cap)
            n = cap - 1;
        memcpy(out, v, n);
        out[n] = '\0';
        return out;
    }
    return NULL;
}

/* Send a request, read the reply, check its cmd and rc. */
static void request(const char *line, const char *want_cmd, char *reply, size_t cap)
{
    char v[64];
    send_line(line);
    recv_line(reply, cap);
    if (!field(reply, "cmd", v, sizeof v) || strcmp(v, want_cmd) != 0)
        lost(reply);
    if (field(reply, "rc", v, sizeof v) && atoi(v) != 0)
        lost(reply);
}

static int connect_port(const char *hostport)
{
    char host[256];
    snprintf(host, sizeof host, "%s", hostport);
    char *colon = strrchr(host, ':');
    if (!colon)
        return -1;
    *colon = '\0';
    struct addrinfo hints = {0}, *ai;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, colon + 1, &hints, &ai) != 0)
        return -1;
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
        close(fd);
        fd = -1;
    }
    freeaddrinfo(ai);
    return fd;
}

/* hydra's port mode: introduce ourselves, then it tells size and rank. */
static void port_handshake(void)
{
    char line[256], v[32];
    const char *id = getenv("PMI_ID") ? getenv("PMI_ID") : getenv("PMI_RANK");
    snprintf(line, sizeof line, "cmd=initack pmiid=%s\n", id);
    request(line, "initack", line, sizeof line);
    for (int i = 0; i < 3; i++) {   /* cmd=set size= / rank= / debug= */
        recv_line(line, sizeof line);
        if (field(line, "size", v, sizeof v))
            n_ranks = atoi(v);
        if (field(line, "rank", v, sizeof v))
            my_rank = atoi(v);
    }
}

static void finalize_at_exit(void)
{
    char reply[256];
    if (pmi_fd >= 0)
        request("cmd=finalize\n", "finalize_ack", reply, sizeof reply);
    pmi_fd = -1;
}

static int pmi_init(int *rank, int *size)
{
    if (pmi_fd < 0) {
        char reply[1024], v[64];
        my_rank = atoi(getenv("PMI_RANK"));
        n_ranks = getenv("PMI_SIZE") ? atoi(getenv("PMI_SIZE")) : 0;
        pmi_fd = getenv("PMI_FD") ? atoi(getenv("PMI_FD")) : connect_port(getenv("PMI_PORT"));
        if (pmi_fd < 0) {
            fprintf(stderr, "Shoal error: shmem_init: cannot reach the PMI server at PMI_PORT=%s\n",
                    getenv("PMI_PORT"));
            return -1;
        }
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
            lost(reply);
        if (n_ranks <= 0 || keylen_max < 16 || vallen_max < 16)
            lost("PMI_SIZE or the server's limits");
        atexit(finalize_at_exit);
    }
    *rank = my_rank;
    *size = n_ranks;
    return 0;
}

static void pmi_barrier(void)
{
    char reply[256];
    request("cmd=barrier_in\n", "barrier_out", reply, sizeof reply);
}

static size_t chunk_bytes(void)
{
    return (vallen_max - 1) / 2;   /* two hex digits per byte, and the terminating NUL */
}

static void put_chunk(unsigned seq, int chunk, const unsigned char *data, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t cap = 128 + strlen(kvsname) + 2 * n;
    char *line = malloc(cap), reply[256];
    int pos = snprintf(line, cap, "cmd=put kvsname=%s key=sh%ur%dc%d value=", kvsname, seq, my_rank, chunk);
    for (size_t i = 0; i < n; i++) {
        line[pos++] = hex[data[i] >> 4];
        line[pos++] = hex[data[i] & 15];
    }
    line[pos++] = '\n';
    line[pos] = '\0';
    request(line, "put_result", reply, sizeof reply);
    free(line);
}

static void get_chunk(unsigned seq, int rank, int chunk, unsigned char *out, size_t n)
{
    char line[400];
    size_t cap = 64 + vallen_max;
    char *reply = malloc(cap), *val = malloc(vallen_max + 1);
    snprintf(line, sizeof line, "cmd=get kvsname=%s key=sh%ur%dc%d\n", kvsname, seq, rank, chunk);
    request(line, "get_result", reply, cap);
    if (!field(reply, "value", val, vallen_max + 1) || strlen(val) != 2 * n)
        lost(reply);
    for (size_t i = 0; i < n; i++) {
        unsigned b;
        sscanf(val + 2 * i, "%2x", &b);
        out[i] = (unsigned char)b;
    }
    free(reply);
    free(val);
}

static void pmi_allgather(const void *in, void *out, size_t len)
{
    unsigned seq = gather_seq++;
    size_t step = chunk_bytes();
    int chunk = 0;
    for (size_t done = 0; done < len; done += step, chunk++)
        put_chunk(seq, chunk, (const unsigned char *)in + done, len - done < step ? len - done : step);
    pmi_barrier();   /* PMI-1: puts are visible to all after the barrier (put implies commit here) */
    for (int r = 0; r < n_ranks; r++) {
        chunk = 0;
        for (size_t done = 0; done < len; done += step, chunk++)
            get_chunk(seq, r, chunk, (unsigned char *)out + (size_t)r * len + done,
                      len - done < step ? len - done : step);
    }
}

static _Noreturn void pmi_abort(int status)
{
    if (pmi_fd >= 0) {
        char line[64];
        snprintf(line, sizeof line, "cmd=abort exitcode=%d\n", status);
        send_line(line);   /* the process manager kills the job; no reply comes */
    }
    _exit(status);
}

static void pmi_fini(void)
{
    /* The connection stays for a later shmem_init; it is closed at exit. */
}

const struct shoal_boot shoal_boot_pmi = {
    "pmi", pmi_detect, pmi_init, pmi_allgather, pmi_barrier, pmi_abort, pmi_fini,
};
