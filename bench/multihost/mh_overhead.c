/* mh_overhead - what Shoal's get and fetch-add cost above the libfabric
 * operations they are, measured in one process so the link's drift (its
 * one-way time moves between modes within minutes here) hits both sides:
 * PE 0 alternates batches of
 *   bare read        8-byte fi_read on an endpoint of its own, CQ polled
 *   shoal-like read  the same on an endpoint set up as Shoal's under net
 *                    (thread-safe domain, a wait set on a CQ of its own,
 *                    selective completion, a read counter polled with the CQ)
 *   shmem_getmem     8 bytes from PE 1
 *   bare round trip  an 8-byte fi_inject that PE 1 answers with one (what
 *                    a fetch-add is on providers whose atomics are messages)
 *   shmem fetch-add  shmem_long_atomic_fetch_add at PE 1
 * while PE 1 polls all of them in one loop.  Run on 2 PEs on two hosts
 * (run_mh.sh --hosts 2 --own-cores -- mh_overhead [BATCHES]); PE 0 prints
 * one JSON line per figure, {"op":...,"value":US,"unit":"us"}, medians over
 * the calls of all batches but the first.  Build with -lfabric. */
#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_rma.h>
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mh_clock.h"

enum { PER_BATCH = 100, MAX_BATCHES = 1000, KINDS = 5, NAME_LEN = 64, RX_BUFS = 8 };
enum kind { BARE_READ, SHOAL_LIKE_READ, SHMEM_GET, BARE_ROUND_TRIP, SHMEM_FETCH_ADD };
static const char *const kind_name[KINDS] = {"bare read", "shoal-like read", "shmem_getmem", "bare round trip",
                                             "shmem fetch-add"};

struct side {
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_ep *ep;
    struct fid_cq *cq;
    struct fid_av *av;
    struct fid_mr *mr;
    struct fid_cntr *reads;   /* shoal-like only */
    struct fid_wait *wait;    /* shoal-like only */
    struct fid_cq *wake_cq;   /* shoal-like only: the CQ the wait set hangs on */
    fi_addr_t peer;
    uint64_t remote_addr, remote_key;
};

static uint64_t word[2], sink, message;
static char names[2][2][NAME_LEN];   /* [pe][side], traded through Shoal */
static size_t name_len[2][2];
static uint64_t keys[2][2], addrs[2][2];
static char rx[RX_BUFS][64];
static long received, done_flag, shmem_word;
static double t[KINDS][PER_BATCH * MAX_BATCHES];

static void ok(int rc, const char *what)
{
    if (rc) {
        fprintf(stderr, "mh_overhead: %s: %s\n", what, fi_strerror(rc < 0 ? -rc : rc));
        shmem_global_exit(1);
    }
}

static struct fi_info *get_info(int shoal_like)
{
    struct fi_info *hints = fi_allocinfo(), *info;
    const char *prov = getenv("SHMEM_OFI_PROVIDER");
    hints->caps = FI_MSG | FI_RMA | FI_ATOMIC;
    hints->ep_attr->type = FI_EP_RDM;
    hints->domain_attr->mr_mode = FI_MR_VIRT_ADDR | FI_MR_PROV_KEY | FI_MR_ALLOCATED | FI_MR_ENDPOINT;
    hints->tx_attr->msg_order = FI_ORDER_SAS;
    if (shoal_like)
        hints->domain_attr->threading = FI_THREAD_SAFE;
    hints->fabric_attr->prov_name = strdup(prov && *prov ? prov : "net");
    ok(fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info), "fi_getinfo");
    fi_freeinfo(hints);
    return info;
}

/* Shoal's set-up under net (transport/ofi/ofi_ep.c): the progress thread's
 * wait set, a descriptor list, hangs on a CQ of its own; the CQ that the
 * endpoint completes to has no wait object. */
static void open_cq(struct side *s, int shoal_like)
{
    struct fi_cq_attr attr = {.format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_NONE, .size = 128};
    if (shoal_like) {
        struct fi_wait_attr wa = {.wait_obj = FI_WAIT_POLLFD};
        struct fi_cq_attr waits = {.format = FI_CQ_FORMAT_CONTEXT, .size = 1, .wait_obj = FI_WAIT_SET};
        ok(fi_wait_open(s->fabric, &wa, &s->wait), "fi_wait_open");
        waits.wait_set = s->wait;
        ok(fi_cq_open(s->domain, &waits, &s->wake_cq, NULL), "fi_cq_open (wait set)");
        (void)fi_wait(s->wait, 1);
    }
    ok(fi_cq_open(s->domain, &attr, &s->cq, NULL), "fi_cq_open");
}

static void bind_completions(struct side *s, int shoal_like)
{
    if (!shoal_like) {
        ok(fi_ep_bind(s->ep, &s->cq->fid, FI_TRANSMIT | FI_RECV), "fi_ep_bind cq");
        return;
    }
    struct fi_cntr_attr ca = {.events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_NONE};
    ok(fi_cntr_open(s->domain, &ca, &s->reads, NULL), "fi_cntr_open");
    ok(fi_ep_bind(s->ep, &s->cq->fid, FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION), "fi_ep_bind cq");
    ok(fi_ep_bind(s->ep, &s->reads->fid, FI_READ), "fi_ep_bind cntr");
}

/* Side i's endpoint and its word, published in names/keys/addrs[me][i]. */
static void open_side(struct side *s, int i, int me)
{
    struct fi_info *info = get_info(i);
    struct fi_av_attr av_attr = {.type = FI_AV_TABLE};
    ok(fi_fabric(info->fabric_attr, &s->fabric, NULL), "fi_fabric");
    ok(fi_domain(s->fabric, info, &s->domain, NULL), "fi_domain");
    open_cq(s, i);
    ok(fi_av_open(s->domain, &av_attr, &s->av, NULL), "fi_av_open");
    ok(fi_endpoint(s->domain, info, &s->ep, NULL), "fi_endpoint");
    ok(fi_ep_bind(s->ep, &s->av->fid, 0), "fi_ep_bind av");
    bind_completions(s, i);
    ok(fi_enable(s->ep), "fi_enable");
    ok(fi_mr_reg(s->domain, &word[i], sizeof word[i], FI_REMOTE_READ, 0, 1 + (uint64_t)i, 0, &s->mr, NULL),
       "fi_mr_reg");
    if (info->domain_attr->mr_mode & FI_MR_ENDPOINT) {
        ok(fi_mr_bind(s->mr, &s->ep->fid, 0), "fi_mr_bind");
        ok(fi_mr_enable(s->mr), "fi_mr_enable");
    }
    name_len[me][i] = NAME_LEN;
    ok(fi_getname(&s->ep->fid, names[me][i], &name_len[me][i]), "fi_getname");
    keys[me][i] = fi_mr_key(s->mr);
    addrs[me][i] = info->domain_attr->mr_mode & FI_MR_VIRT_ADDR ? (uint64_t)(uintptr_t)&word[i] : 0;
    fi_freeinfo(info);
}

static void post_rx(struct side *s, char *buf)
{
    ssize_t rc;
    while ((rc = fi_recv(s->ep, buf, sizeof rx[0], NULL, FI_ADDR_UNSPEC, buf)) == -FI_EAGAIN)
        ;
    ok((int)rc, "fi_recv");
}

/* The bare side's CQ: count and repost receives, answering each when asked. */
static void poll_bare(struct side *s, int answer)
{
    struct fi_cq_entry e[4];
    ssize_t n = fi_cq_read(s->cq, e, 4);
    for (ssize_t i = 0; i < n; i++) {
        char *c = e[i].op_context;
        if (c < rx[0] || c >= rx[RX_BUFS])
            continue;   /* a read's completion: counted by its waiter */
        received++;
        post_rx(s, c);
        while (answer && fi_inject(s->ep, &message, sizeof message, s->peer) == -FI_EAGAIN)
            ;
    }
}

static void poll_shoal_like(struct side *s)
{
    struct fi_cq_entry e[4];
    fi_cq_read(s->cq, e, 4);
    fi_cntr_read(s->reads);
}

static void bare_read(struct side *s)
{
    struct fi_cq_entry e;
    while (fi_read(s->ep, &sink, 8, NULL, s->peer, s->remote_addr, s->remote_key, &sink) == -FI_EAGAIN)
        poll_bare(s, 0);   /* the first one waits for the connection, which progress makes */
    while (fi_cq_read(s->cq, &e, 1) != 1)
        ;
}

static void shoal_like_read(struct side *s, uint64_t *issued)
{
    while (fi_read(s->ep, &sink, 8, NULL, s->peer, s->remote_addr, s->remote_key, &sink) == -FI_EAGAIN)
        poll_shoal_like(s);
    ++*issued;
    while (fi_cntr_read(s->reads) < *issued)
        poll_shoal_like(s);
}

static void bare_round_trip(struct side *s)
{
    long want = received + 1;
    while (fi_inject(s->ep, &message, sizeof message, s->peer) == -FI_EAGAIN)
        poll_bare(s, 0);
    while (received < want)
        poll_bare(s, 0);
}

static void one_call(struct side *s, enum kind k, uint64_t *issued)
{
    long v;
    switch (k) {
    case BARE_READ: bare_read(&s[0]); break;
    case SHOAL_LIKE_READ: shoal_like_read(&s[1], issued); break;
    case SHMEM_GET: shmem_getmem(&v, &shmem_word, sizeof v, 1); break;
    case BARE_ROUND_TRIP: bare_round_trip(&s[0]); break;
    case SHMEM_FETCH_ADD: shmem_long_atomic_fetch_add(&shmem_word, 1, 1); break;
    }
}

static void trade_names(struct side *s, int me, int other)
{
    shmem_putmem(names[me], names[me], sizeof names[me], other);
    shmem_putmem(name_len[me], name_len[me], sizeof name_len[me], other);
    shmem_putmem(keys[me], keys[me], sizeof keys[me], other);
    shmem_putmem(addrs[me], addrs[me], sizeof addrs[me], other);
    shmem_barrier_all();
    for (int i = 0; i < 2; i++) {
        if (fi_av_insert(s[i].av, names[other][i], 1, &s[i].peer, 0, NULL) != 1)
            ok(-FI_EINVAL, "fi_av_insert");
        s[i].remote_addr = addrs[other][i];
        s[i].remote_key = keys[other][i];
    }
}

int main(int argc, char **argv)
{
    int batches = argc > 1 ? atoi(argv[1]) : 40;
    if (batches < 2 || batches > MAX_BATCHES)
        batches = 40;
    shmem_init();
    int me = shmem_my_pe(), other = 1 - me;
    if (shmem_n_pes() != 2) {
        if (me == 0)
            fprintf(stderr, "mh_overhead: run on 2 PEs, one per host\n");
        shmem_finalize();
        return 2;
    }
    struct side s[2];
    memset(s, 0, sizeof s);
    for (int i = 0; i < 2; i++)
        open_side(&s[i], i, me);
    trade_names(s, me, other);
    for (int i = 0; i < RX_BUFS; i++)
        post_rx(&s[0], rx[i]);
    shmem_barrier_all();
    if (me == 0) {
        size_t n[KINDS] = {0};
        uint64_t issued = 0;
        for (int b = 0; b < batches; b++)
            for (int k = 0; k < KINDS; k++)
                for (int i = 0; i < PER_BATCH; i++) {
                    double t0 = now_us();
                    one_call(s, (enum kind)k, &issued);
                    if (b > 0)   /* the first batch makes the connections */
                        t[k][n[k]++] = now_us() - t0;
                }
        shmem_long_p(&done_flag, 1, 1);
        shmem_quiet();
        for (int k = 0; k < KINDS; k++) {
            sort_times(t[k], n[k]);
            printf("{\"op\":\"%s\",\"value\":%.3f,\"unit\":\"us\"}\n", kind_name[k], t[k][n[k] / 2]);
        }
    } else {
        while (!shmem_long_test(&done_flag, SHMEM_CMP_EQ, 1)) {
            poll_bare(&s[0], 1);
            poll_shoal_like(&s[1]);
        }
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
