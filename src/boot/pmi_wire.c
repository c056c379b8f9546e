/* The parts of the PMI-1 and PMI-2 wire protocols that are the same. */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pmi_wire.h"
#include "../core/shoal.h"

_Noreturn void pmi_wire_lost(const struct pmi_wire *w, const char *what)
{
    fprintf(stderr, "Shoal error: PE %d: %s: %s: the process manager (hydra/Slurm) went away or "
                    "answered something unexpected; ending this PE\n", w->rank, w->proto, what);
    _exit(1);
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

int pmi_wire_open(struct pmi_wire *w)
{
    w->fd = getenv("PMI_FD") ? atoi(getenv("PMI_FD")) : getenv("PMI_PORT") ? connect_port(getenv("PMI_PORT")) : -1;
    struct stat st;
    if (w->fd >= 0 && fstat(w->fd, &st) == 0) {
        w->dev = st.st_dev;
        w->ino = st.st_ino;
    }
    return w->fd;
}

bool pmi_wire_taken(const struct pmi_wire *w)
{
    struct stat st;
    return w->fd >= 0 && (fstat(w->fd, &st) != 0 || st.st_dev != w->dev || st.st_ino != w->ino);
}

void pmi_wire_send(struct pmi_wire *w, const char *buf, size_t len)
{
    if (pmi_wire_taken(w))
        pmi_wire_lost(w, "the connection was closed by another library of this process (MPI_Finalize?)");
    size_t done = 0;
    while (done < len) {
        /* MSG_NOSIGNAL: a socket another client shut down fails here instead of killing the PE. */
        ssize_t n = send(w->fd, buf + done, len - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            pmi_wire_lost(w, "write");
        done += (size_t)n;
    }
}

/* The launchers forward output through pipes; FIONREAD tells how much of
 * ours is still unread (and fails on files and terminals: nothing to wait for). */
void pmi_wire_drain_stderr(void)
{
    fflush(stderr);
    for (int ms = 0; ms < 1000; ms++) {
        int unread = 0;
        if (ioctl(STDERR_FILENO, FIONREAD, &unread) != 0 || unread == 0)
            return;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
}

/* Waiting drives Shoal's progress hooks, so a PE in a boot barrier still
 * serves the network requests of the others. */
size_t pmi_wire_recv(struct pmi_wire *w, size_t (*frame)(const char *in, size_t len))
{
    for (;;) {
        size_t n = frame(w->in, w->inlen);
        if (n)
            return n;
        struct pollfd p = {w->fd, POLLIN, 0};
        shoal_poll();
        if (poll(&p, 1, shoal_progress_n ? 1 : -1) == 0)
            continue;
        if (w->inlen == sizeof w->in)
            pmi_wire_lost(w, "reply too long");
        ssize_t got = read(w->fd, w->in + w->inlen, sizeof w->in - w->inlen);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0)
            pmi_wire_lost(w, "read");
        w->inlen += (size_t)got;
    }
}

void pmi_wire_drop(struct pmi_wire *w, size_t n)
{
    w->inlen -= n;
    memmove(w->in, w->in + n, w->inlen);
}

static size_t line_frame(const char *in, size_t len)
{
    const char *nl = memchr(in, '\n', len);
    return nl ? (size_t)(nl - in) + 1 : 0;
}

void pmi_wire_recv_line(struct pmi_wire *w, char *out, size_t cap)
{
    size_t n = pmi_wire_recv(w, line_frame);
    if (n > cap)
        pmi_wire_lost(w, "reply too long");
    memcpy(out, w->in, n - 1);
    out[n - 1] = '\0';
    pmi_wire_drop(w, n);
}

const char *pmi_wire_field(const char *msg, char sep, const char *key, char *out, size_t cap)
{
    size_t klen = strlen(key);
    for (const char *p = msg; (p = strstr(p, key)) != NULL; p += klen) {
        if ((p != msg && p[-1] != sep) || p[klen] != '=')
            continue;
        size_t n = 0;
        for (const char *v = p + klen + 1; *v && n + 1 < cap; v++) {
            if (*v == sep) {
                if (sep != ';' || v[1] != ';')
                    break;
                v++;   /* PMI-2 doubles a ';' inside a value */
            }
            out[n++] = *v;
        }
        out[n] = '\0';
        return out;
    }
    return NULL;
}

static void hex_encode(char *out, const unsigned char *in, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = '\0';
}

static int hex_decode(unsigned char *out, const char *in, size_t n)
{
    if (strlen(in) != 2 * n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned b;
        if (sscanf(in + 2 * i, "%2x", &b) != 1)
            return -1;
        out[i] = (unsigned char)b;
    }
    return 0;
}

void pmi_kvs_allgather(const struct pmi_kvs *kvs, int n, const void *in, void *out, size_t len)
{
    static unsigned seq;   /* each allgather publishes under fresh keys */
    unsigned my_seq = seq++;
    size_t step = (kvs->vallen_max - 1) / 2;   /* two hex digits per byte, and the NUL */
    char key[64], *val = malloc(kvs->vallen_max + 1);
    int chunk = 0;
    for (size_t done = 0; done < len; done += step, chunk++) {
        size_t k = len - done < step ? len - done : step;
        hex_encode(val, (const unsigned char *)in + done, k);
        snprintf(key, sizeof key, "sh%ur%dc%d", my_seq, kvs->wire->rank, chunk);
        kvs->put(key, val);
    }
    kvs->commit();
    for (int r = 0; r < n; r++) {
        chunk = 0;
        for (size_t done = 0; done < len; done += step, chunk++) {
            size_t k = len - done < step ? len - done : step;
            snprintf(key, sizeof key, "sh%ur%dc%d", my_seq, r, chunk);
            kvs->get(key, val, kvs->vallen_max + 1);
            if (hex_decode((unsigned char *)out + (size_t)r * len + done, val, k) != 0)
                pmi_wire_lost(kvs->wire, "a published value is not what its PE put");
        }
    }
    free(val);
}
