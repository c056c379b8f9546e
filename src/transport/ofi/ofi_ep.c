/* Endpoints: the default context's (which every peer targets, so it is the
 * one that carries incoming traffic and is polled by the progress hook and
 * thread) and one per shmem_ctx, so quiet on one context waits only for its
 * own operations.  A context whose endpoint cannot be opened shares the
 * default one: still correct, only its quiet waits for more. */
#include <stdlib.h>

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

/* The progress thread sleeps on the wait set's fd; a provider without wait
 * objects gets a thread that sleeps a fixed interval instead.  A set of our
 * own, not the CQ's built-in one: before sleeping, fi_wait(set, 0) re-arms
 * it.  fi_trywait on the CQ should, but net (libfabric 1.17) makes it a
 * no-op, and the signal the CQ raises at its first completion then stays
 * raised: the fd reads ready for ever, so the thread woke its sleeping PE
 * at every look and idle PEs never slept (mh_idle). */
static int open_cq(struct shoal_ofi_ep *e, bool want_wait_fd)
{
    struct fi_cq_attr attr = {.format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_NONE};
    struct fi_wait_attr wa = {.wait_obj = FI_WAIT_FD};
    if (want_wait_fd && fi_wait_open(shoal_ofi.fabric, &wa, &shoal_ofi.wait_set) == 0) {
        attr.wait_obj = FI_WAIT_SET;
        attr.wait_set = shoal_ofi.wait_set;
        if (fi_cq_open(shoal_ofi.domain, &attr, &e->cq, NULL) == 0)
            return 0;
        fi_close(&shoal_ofi.wait_set->fid);
        shoal_ofi.wait_set = NULL;
        attr.wait_obj = FI_WAIT_NONE;
        attr.wait_set = NULL;
    }
    return fi_cq_open(shoal_ofi.domain, &attr, &e->cq, NULL);
}

/* 0 on success, else a negative libfabric error. */
int shoal_ofi_ep_open(struct shoal_ofi_ep *e, bool want_wait_fd)
{
    struct fi_cntr_attr ca = {.events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_NONE};
    int rc;
    pthread_mutex_init(&e->operand_lock, NULL);
    if ((rc = shoal_ofi_flush_init(e)) != 0)
        return rc;
    if ((rc = open_cq(e, want_wait_fd)) != 0 || (rc = fi_cntr_open(shoal_ofi.domain, &ca, &e->wcntr, NULL)) != 0 ||
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
