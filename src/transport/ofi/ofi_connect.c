/* Contacting the peers at init.
 *
 * Each PE reads one word from some peers, so that a peer that cannot be
 * reached is reported now, in one line with the fix, instead of as a hang
 * later.  With a connection-based provider (anything over ofi_rxm) the
 * reads also set the connections up, in one direction: PE i connects to
 * every PE j >= i (itself too: its own AMOs go through the network), up to
 * SHOAL_OFI_PRECONNECT_MAX PEs; larger jobs only probe one PE of every
 * later host and connect on demand.  Connecting on demand used to stall for
 * seconds (all-to-all AMOs right after init: 1.2-12.6 s instead of 0.02),
 * which looked like rxm's handling of two PEs connecting to each other at
 * once; it was the PEs waiting for the connections, yielding in a loop and
 * starving the PEs that had to accept them (see shoal_ofi_pause).  rxm
 * settles such a pair itself (it keeps one of the two connections). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ofi.h"

void shoal_ofi_peer_name(int pe, char *buf, size_t len)
{
    uint8_t raw[SHOAL_OFI_ADDR_MAX];
    size_t rawlen = sizeof raw, l = len;
    if (fi_av_lookup(shoal_ofi.av, shoal_ofi.addr[pe], raw, &rawlen) != 0 ||
        !fi_av_straddr(shoal_ofi.av, raw, buf, &l))
        snprintf(buf, len, "unknown address");
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static bool connect_all(void)
{
    return shoal_ofi_setting(shoal_cfg.ofi_preconnect,
                             strstr(shoal_ofi.prov, "ofi_rxm") && shoal.n_pes <= shoal_cfg.ofi_preconnect_max);
}

/* PEs to contact: every later PE (and me), or one PE of every later host,
 * chosen so the PEs of my host spread over that host's PEs. */
static int pick_targets(int *targets)
{
    int n = 0;
    if (connect_all()) {
        for (int pe = shoal.my_pe; pe < shoal.n_pes; pe++)
            targets[n++] = pe;
        return n;
    }
    int *count = calloc(shoal.n_hosts, sizeof *count), my_index = 0;
    for (int pe = 0; pe < shoal.n_pes; pe++) {
        my_index += pe < shoal.my_pe && shoal.peers[pe].host == shoal.my_host;
        count[shoal.peers[pe].host]++;
    }
    for (int h = 0; h < shoal.n_hosts; h++)
        count[h] = my_index % count[h];   /* which of host h's PEs I take */
    for (int pe = 0; pe < shoal.n_pes; pe++)
        if (count[shoal.peers[pe].host]-- == 0 && shoal.peers[pe].host > shoal.my_host)
            targets[n++] = pe;
    free(count);
    return n;
}

bool shoal_ofi_connecting;
static bool *contacted;   /* per PE, while connecting */
static int n_contacted;

void shoal_ofi_contact_done(void *op_context)
{
    int pe = (int)(uintptr_t)op_context - 1;
    if (contacted && pe >= 0 && pe < shoal.n_pes && !__atomic_exchange_n(&contacted[pe], true, __ATOMIC_ACQ_REL))
        __atomic_fetch_add(&n_contacted, 1, __ATOMIC_RELEASE);
}

_Noreturn void shoal_ofi_unreachable(int pe, const char *why)
{
    char where[128] = "unknown address";
    if (pe >= 0 && pe < shoal.n_pes)
        shoal_ofi_peer_name(pe, where, sizeof where);
    shoal_fatal("shmem_init", "cannot reach PE %d (host %d, %s) through libfabric %s: %s; check that the hosts "
                "reach each other on that interface (choose it with FI_TCP_IFACE, or the network with "
                "SHMEM_OFI_PROVIDER) and that no firewall blocks it", pe,
                pe >= 0 && pe < shoal.n_pes ? shoal.peers[pe].host : -1, where, shoal_ofi.prov, why);
}

/* One read with a completion of its own (the CQ otherwise only gets errors). */
static void post_contact(struct shoal_ofi_ep *e, int pe, uint64_t *sink, double deadline)
{
    struct iovec iov = {sink, sizeof *sink};
    struct fi_rma_iov rma = {shoal_ofi_raddr(pe, SHOAL_SEG_HEAP, 0), sizeof *sink, shoal_ofi_key(pe, SHOAL_SEG_HEAP, 0)};
    struct fi_msg_rma msg = {.msg_iov = &iov, .iov_count = 1, .addr = shoal_ofi.addr[pe], .rma_iov = &rma,
                             .rma_iov_count = 1, .context = shoal_ofi_ctx_of(pe)};
    ssize_t rc;
    unsigned tries = 0;
    __atomic_fetch_add(&e->reads, 1, __ATOMIC_RELEASE);   /* before it can complete (ofi_progress.c) */
    while ((rc = fi_readmsg(e->ep, &msg, FI_COMPLETION)) == -FI_EAGAIN) {
        shoal_ofi_drain(e);
        if (now_seconds() > deadline)
            shoal_ofi_unreachable(pe, "no answer (connection not set up in time)");
        shoal_ofi_pause(&tries);
    }
    if (rc != 0)
        shoal_ofi_unreachable(pe, fi_strerror((int)-rc));
}

/* The progress thread may be the one that reads the completions: both
 * paths mark contacted[] through shoal_ofi_contact_done.  Later completions
 * cannot come (no other operation asks for one), so contacted[] simply
 * stays until shoal_ofi_connect_fini. */
void shoal_ofi_connect_peers(void)
{
    struct shoal_ofi_ep *e = &shoal_ofi.main_ep;
    int *targets = calloc(shoal.n_pes, sizeof *targets);
    uint64_t *sink = calloc(shoal.n_pes, sizeof *sink);
    int n = pick_targets(targets);
    double deadline = now_seconds() + (double)shoal_cfg.ofi_connect_timeout;
    n_contacted = 0;
    __atomic_store_n(&contacted, calloc(shoal.n_pes, sizeof *contacted), __ATOMIC_RELEASE);
    shoal_ofi_connecting = true;
    for (int i = 0; i < n; i++)
        post_contact(e, targets[i], &sink[targets[i]], deadline);
    unsigned tries = 0;
    while (__atomic_load_n(&n_contacted, __ATOMIC_ACQUIRE) < n) {
        shoal_ofi_drain(e);
        if (now_seconds() > deadline)
            for (int i = 0; i < n; i++)
                if (!__atomic_load_n(&contacted[targets[i]], __ATOMIC_ACQUIRE))
                    shoal_ofi_unreachable(targets[i], "no answer within SHOAL_OFI_CONNECT_TIMEOUT seconds");
        shoal_ofi_pause(&tries);
    }
    shoal_ofi_connecting = false;
    free(targets);
    free(sink);
}

/* After the progress thread has stopped: nobody marks contacts any more. */
void shoal_ofi_connect_fini(void)
{
    free(contacted);
    contacted = NULL;
}
