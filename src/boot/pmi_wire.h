/* What the PMI-1 (boot/pmi.c) and PMI-2 (boot/pmi2.c) clients share: the
 * socket to the process manager, reading whole replies while Shoal's
 * progress runs, "key=value" fields, hex-coded values and the chunked
 * allgather over the process manager's key-value space.  The two protocols
 * differ only in framing (lines vs. length-prefixed messages), field
 * separators (' ' vs. ';') and command names. */
#ifndef SHOAL_PMI_WIRE_H
#define SHOAL_PMI_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct pmi_wire {
    const char *proto;   /* "PMI-1" or "PMI-2", for messages */
    int fd;              /* -1 until connected */
    int rank;            /* for messages; -1 before the server told it */
    char in[8192];       /* received, not yet consumed */
    size_t inlen;
    dev_t dev;           /* which socket fd was when opened: another PMI client */
    ino_t ino;           /* in this process may close it (see pmi_wire_taken) */
};

/* The process manager went away or answered nonsense: report, end this PE. */
_Noreturn void pmi_wire_lost(const struct pmi_wire *w, const char *what);

/* w->fd: the socket from PMI_FD, or a connection to PMI_PORT ("host:port");
 * -1 (returned too) if neither works. */
int pmi_wire_open(struct pmi_wire *w);

/* True when the connection is gone from under us: under hydra, MPICH's PMI
 * client shares PMI_FD with ours (an MPI + OpenSHMEM program), and
 * MPI_Finalize shuts that socket down and closes it.  Nothing can be asked
 * of the process manager after that. */
bool pmi_wire_taken(const struct pmi_wire *w);

void pmi_wire_send(struct pmi_wire *w, const char *buf, size_t len);

/* Before an abort: waits (up to a second) until the launcher has read what
 * this PE wrote to stderr, so the error message is not lost when the
 * launcher kills the job right after. */
void pmi_wire_drain_stderr(void);

/* Waits (driving Shoal's progress) until frame() finds a whole message at
 * the start of w->in, and returns its length; pmi_wire_drop consumes it.
 * frame returns 0 while the message is incomplete. */
size_t pmi_wire_recv(struct pmi_wire *w, size_t (*frame)(const char *in, size_t len));
void pmi_wire_drop(struct pmi_wire *w, size_t n);
/* Reads one newline-terminated line (PMI-1, and PMI-2's opening init) into out, without the newline. */
void pmi_wire_recv_line(struct pmi_wire *w, char *out, size_t cap);

/* Value of key in msg, whose fields are "key=value" separated by sep (' '
 * for PMI-1, ';' for PMI-2, where ";;" inside a value stands for one ';');
 * NULL when absent. */
const char *pmi_wire_field(const char *msg, char sep, const char *key, char *out, size_t cap);

/* The key-value space as one protocol offers it, for pmi_kvs_allgather. */
struct pmi_kvs {
    struct pmi_wire *wire;
    size_t vallen_max;   /* longest value the server keeps, with its NUL */
    void (*put)(const char *key, const char *value);
    void (*commit)(void);   /* after everyone's puts, everyone can get them */
    /* The value of key into value (cap bytes); pmi_wire_lost when missing. */
    void (*get)(const char *key, char *value, size_t cap);
};

/* out[r * len ...] = in of rank r, for all n ranks.  Values travel hex-coded
 * (PMI values are printable words) and split over several keys when longer
 * than vallen_max; each call uses fresh keys. */
void pmi_kvs_allgather(const struct pmi_kvs *kvs, int n, const void *in, void *out, size_t len);

#endif
