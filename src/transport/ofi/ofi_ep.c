/* Endpoints: the default context's (which every peer targets, so it is the
 * one that carries incoming traffic and is polled by the progress hook and
 * thread) and one per shmem_ctx, so quiet on one context waits only for its
 * own operations.  A context whose endpoint cannot be opened shares the
 * default one: still correct, only its quiet waits for more. */
#include <stdlib.h>
#include <string.h>

#include "ofi.h"

static void ep_list_add(struct shoal_ofi_ep *e)
{
    pthread_mutex_lock(&shoal_ofi.eps_lock);
    e->next = shoal_ofi.eps;
    shoal_ofi.eps = e;
    pthread_mutex_unlock(&shoal_ofi.eps_lock);
}

static void ep_list_remove(struct shoal_ofi_ep *e)
{
    pthread_mutex_lock(&shoal_ofi.eps_lock);
    for (struct shoal_ofi_ep **p = &shoal_ofi.eps; *p; p = &(*p)->next) {
        if (*p == e) {
            *p = e->next;
            break;
        }
    }
    pthread_mutex_unlock(&shoal_ofi.eps_lock);
}

/* The progress thread sleeps on a wait set's descriptors; a provider
 * without wait objects gets a thread that sleeps a fixed interval instead.
 * A set of our own, not a CQ's built-in one: before sleeping, fi_wait(set,
 * 0) re-arms it.  fi_trywait on the CQ should, but net (libfabric 1.17)
 * makes it a no-op, and the signal the CQ raises at its first completion
 * then stays raised: the fd reads ready for ever, so the thread woke its
 * sleeping PE at every look and idle PEs never slept (mh_idle). */
static int open_wait_set(enum fi_wait_obj kind)
{
    struct fi_wait_attr wa = {.wait_obj = kind};
    shoal_ofi.wait_obj = kind;
    return fi_wait_open(shoal_ofi.fabric, &wa, &shoal_ofi.wait_set);
}

/* net's progress (tcp's from libfabric 1.18) is the domain's: a CQ with a
 * wait object watches the epoll set of all the domain's sockets.  There
 * the main CQ has none, and the wait set hangs on a CQ of its own that no
 * endpoint writes to, a list of descriptors (FI_WAIT_POLLFD) that the
 * thread polls only while it sleeps.  An epoll set (FI_WAIT_FD) holds the
 * domain's set inside its own at all times, and each arriving message then
 * costs the kernel a nested wake-up: a get cost 0.92 us above a bare
 * fi_read that way, 0.33 this way, a fetch-add 1.73 us above a bare message
 * round trip, 0.80 this way (bench/multihost/mh_overhead.c, 1 x 1 hosts,
 * medians of 8 runs each, alternating).  libfabric enters a descriptor in
 * the list only in a wait that has a timeout, so one such wait follows the
 * CQ's opening, which adds the domain's.  The set does not see the main
 * CQ's entries: wait_set_armed in ofi_progress.c takes them. */
static bool progress_is_domain_wide(void)
{
    const char *p = shoal_ofi.info->fabric_attr->prov_name;
    return !strcmp(p, "net") || !strcmp(p, "tcp");
}

/* The wait set, on the main CQ or (domain-wide progress) on a CQ of its
 * own; false, with no set, when the provider offers none. */
static bool open_wait_set_on(struct shoal_ofi_ep *e)
{
    bool own_cq = progress_is_domain_wide();
    if (open_wait_set(own_cq ? FI_WAIT_POLLFD : FI_WAIT_FD) != 0)
        return false;
    struct fi_cq_attr waits = {.format = FI_CQ_FORMAT_MSG, .size = own_cq ? 1 : 0, .wait_obj = FI_WAIT_SET,
                               .wait_set = shoal_ofi.wait_set};
    if (fi_cq_open(shoal_ofi.domain, &waits, own_cq ? &shoal_ofi.wake_cq : &e->cq, NULL) != 0) {
        fi_close(&shoal_ofi.wait_set->fid);
        shoal_ofi.wait_set = NULL;
        return false;
    }
    if (own_cq)
        (void)fi_wait(shoal_ofi.wait_set, 1);   /* enters the descriptors added so far in its list */
    return true;
}

static int open_cq(struct shoal_ofi_ep *e, bool want_wait)
{
    struct fi_cq_attr plain = {.format = FI_CQ_FORMAT_MSG, .wait_obj = FI_WAIT_NONE};
    if (want_wait && open_wait_set_on(e) && e->cq)
        return 0;
    return fi_cq_open(shoal_ofi.domain, &plain, &e->cq, NULL);
}

/* The wait set's descriptors to poll, in fds[0..max): how many, 0 when
 * there are none.  A list's changes as the provider adds descriptors. */
nfds_t shoal_ofi_wait_fds(struct pollfd *fds, nfds_t max)
{
    if (!shoal_ofi.wait_set || max == 0)
        return 0;
    if (shoal_ofi.wait_obj == FI_WAIT_FD) {
        int fd;
        if (fi_control(&shoal_ofi.wait_set->fid, FI_GETWAIT, &fd) != 0)
            return 0;
        fds[0] = (struct pollfd){fd, POLLIN, 0};
        return 1;
    }
    struct fi_wait_pollfd list = {.nfds = max, .fd = fds};
    return fi_control(&shoal_ofi.wait_set->fid, FI_GETWAIT, &list) == 0 ? list.nfds : 0;
}

/* 0 on success, else a negative libfabric error. */
int shoal_ofi_ep_open(struct shoal_ofi_ep *e, bool want_wait)
{
    struct fi_cntr_attr ca = {.events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_NONE};
    int rc;
    pthread_mutex_init(&e->operand_lock, NULL);
    if ((rc = shoal_ofi_flush_init(e)) != 0)
        return rc;
    if ((rc = open_cq(e, want_wait)) != 0 || (rc = fi_cntr_open(shoal_ofi.domain, &ca, &e->wcntr, NULL)) != 0 ||
        (rc = fi_cntr_open(shoal_ofi.domain, &ca, &e->rcntr, NULL)) != 0 ||
        (rc = fi_endpoint(shoal_ofi.domain, shoal_ofi.info, &e->ep, NULL)) != 0)
        return rc;
    if ((rc = fi_ep_bind(e->ep, &shoal_ofi.av->fid, 0)) != 0 ||
        (rc = fi_ep_bind(e->ep, &e->cq->fid, FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION)) != 0 ||
        (rc = fi_ep_bind(e->ep, &e->wcntr->fid, FI_WRITE)) != 0 ||
        (rc = fi_ep_bind(e->ep, &e->rcntr->fid, FI_READ)) != 0 || (rc = fi_enable(e->ep)) != 0)
        return rc;
    ep_list_add(e);
    return 0;
}

void shoal_ofi_ep_close(struct shoal_ofi_ep *e)
{
    ep_list_remove(e);
    if (e->ep)
        fi_close(&e->ep->fid);
    if (e->rcntr)
        fi_close(&e->rcntr->fid);
    if (e->wcntr)
        fi_close(&e->wcntr->fid);
    if (e->cq)
        fi_close(&e->cq->fid);
    pthread_mutex_destroy(&e->operand_lock);
    shoal_ofi_flush_fini(e);
    free(e->bounce);
    *e = (struct shoal_ofi_ep){0};
}

struct shoal_ofi_ep *shoal_ofi_ep_of(struct shoal_ctx *ctx)
{
    return ctx && ctx->net ? ctx->net : &shoal_ofi.main_ep;
}

/* For the teams/contexts layer: give ctx its own endpoint when the job
 * spans hosts.  Always succeeds (0); the fallback is the shared endpoint. */
int shoal_ctx_net_create(struct shoal_ctx *ctx)
{
    ctx->net = NULL;
    if (!shoal_ofi.domain)
        return 0;
    struct shoal_ofi_ep *e = calloc(1, sizeof *e);
    if (e && shoal_ofi_ep_open(e, false) == 0) {
        ctx->net = e;
        return 0;
    }
    if (e) {
        shoal_ofi_ep_close(e);
        free(e);
    }
    ctx->net = &shoal_ofi.main_ep;   /* shared: quiet on it also waits for the default context */
    return 0;
}

void shoal_ctx_net_destroy(struct shoal_ctx *ctx)
{
    struct shoal_ofi_ep *e = ctx->net;
    ctx->net = NULL;
    if (!e || e == &shoal_ofi.main_ep || !shoal_ofi.domain)
        return;
    shoal_ofi_quiet_ep(e, "shmem_ctx_destroy");
    shoal_ofi_ep_close(e);
    free(e);
}
