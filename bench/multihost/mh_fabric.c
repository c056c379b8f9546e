/* mh_fabric - what libfabric itself costs between two namespace hosts,
 * with no OpenSHMEM layer on top: the floor of any library built on it
 * (mh_link.c gives the link's, plain TCP).  Shoal only starts the job and
 * trades the endpoint names; the timed loops use an endpoint of their own
 * on the provider Shoal uses (SHMEM_OFI_PROVIDER, else net, else tcp;ofi_rxm), both
 * sides polling the CQ without pause, as a library waiting inside a call.
 *   fabric one-way     8-byte fi_inject ping-pong, half the round trip
 *   fabric exchange    both send, then both wait (a 2-PE barrier's step)
 *   fabric read        8-byte fi_read (a get)
 *   fabric fetch-add   8-byte fi_fetch_atomic sum (a fetching AMO)
 *   fabric write one-way      8-byte injected RMA write ping-pong, each side
 *                             polling its word (a put + wait_until), half
 *                             the round trip
 *   fabric write-dc one-way   the same with FI_DELIVERY_COMPLETE (the target
 *                             acknowledges every write: ofi_flush.c)
 * Run on 2 PEs on two hosts (run_mh.sh --ppn 1,1); PE 0 prints JSON lines
 * {"op":"fabric one-way","value":US,"unit":"us"}; medians of ROUNDS. */
#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_rma.h>
#include <shmem.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mh_clock.h"

enum { NAME_MAX_LEN = 256, RX_BUFS = 16, MAX_ROUNDS = 100000 };

static char names[2][NAME_MAX_LEN];
static size_t name_len[2];
static struct fid_ep *ep;
static struct fid_cq *cq;
static fi_addr_t peer;
static char rx[RX_BUFS][64];
static uint64_t word, sink, one_ = 1;
static double t[MAX_ROUNDS];

static void ok(int rc, const char *what)
{
    if (rc) {
        fprintf(stderr, "mh_fabric: %s: %s\n", what, fi_strerror(rc < 0 ? -rc : rc));
        shmem_global_exit(1);
    }
}

static long received, completed;   /* messages in; own reads and AMOs done */

/* Read the CQ once: count, repost receives. */
static void poll_cq(void)
{
    struct fi_cq_entry e[4];
    ssize_t n = fi_cq_read(cq, e, 4);
    if (n == -FI_EAGAIN)
        return;
    if (n < 0)
        ok((int)n, "fi_cq_read");
    for (ssize_t i = 0; i < n; i++) {
        char *c = e[i].op_context;
        if (c >= rx[0] && c < rx[RX_BUFS]) {
            received++;
            ok((int)fi_recv(ep, c, 64, NULL, FI_ADDR_UNSPEC, c), "fi_recv");
        } else {
            completed++;
        }
    }
}

static void await_count(const long *counter, long want)
{
    while (*counter < want)
        poll_cq();
}

static void send8(void)
{
    ssize_t rc;
    while ((rc = fi_inject(ep, &word, 8, peer)) == -FI_EAGAIN)
        poll_cq();
    ok((int)rc, "fi_inject");
}

static void emit(const char *op, int rounds, double scale)
{
    sort_times(t, (size_t)rounds);
    if (shmem_my_pe() == 0)
        printf("{\"op\":\"%s\",\"value\":%.3f,\"unit\":\"us\"}\n", op, t[rounds / 2] * scale);
}

static uint64_t keys[2], addrs[2];

/* Each side writes the round number into the other's word and polls its
 * own (reading the CQ drives the provider); half the round trip. */
static void write_pingpong(int me, int other, int rounds, uint64_t completion)
{
    static uint64_t value;
    uint64_t base = (completion ? 2ull : 1ull) << 40;   /* past the fetch-adds' count, and the last call's */
    shmem_barrier_all();
    for (int i = 0; i < rounds; i++) {
        uint64_t r = base + (uint64_t)i;
        double t0 = now_us();
        if (me == 1)
            while (__atomic_load_n(&word, __ATOMIC_ACQUIRE) != r)
                poll_cq();
        value = r;
        struct iovec iov = {&value, 8};
        struct fi_rma_iov rma = {addrs[other], 8, keys[other]};
        struct fi_msg_rma msg = {.msg_iov = &iov, .iov_count = 1, .addr = peer, .rma_iov = &rma,
                                 .rma_iov_count = 1, .context = &value};
        ssize_t rc;
        while ((rc = fi_writemsg(ep, &msg, FI_INJECT | completion)) == -FI_EAGAIN)
            poll_cq();
        ok((int)rc, "fi_writemsg");
        if (me == 0)
            while (__atomic_load_n(&word, __ATOMIC_ACQUIRE) != r)
                poll_cq();
        t[i] = now_us() - t0;
    }
    emit(completion ? "fabric write-dc one-way" : "fabric write one-way", rounds, 0.5);
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 2000;
    if (rounds < 1 || rounds > MAX_ROUNDS)
        rounds = 2000;
    shmem_init();
    int me = shmem_my_pe(), other = 1 - me;
    if (shmem_n_pes() != 2) {
        if (me == 0)
            fprintf(stderr, "mh_fabric: run on 2 PEs, one per host\n");
        shmem_finalize();
        return 2;
    }
    const char *prov = getenv("SHMEM_OFI_PROVIDER");
    struct fi_info *hints = fi_allocinfo(), *info;
    hints->caps = FI_MSG | FI_RMA | FI_ATOMIC;
    hints->ep_attr->type = FI_EP_RDM;
    hints->domain_attr->mr_mode = FI_MR_VIRT_ADDR | FI_MR_PROV_KEY | FI_MR_ALLOCATED | FI_MR_ENDPOINT;
    hints->tx_attr->msg_order = FI_ORDER_SAS;
    /* Shoal's own choice over TCP: net where libfabric has it (1.17), else tcp;ofi_rxm. */
    hints->fabric_attr->prov_name = strdup(prov && *prov ? prov : "net");
    int rc = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info);
    if (rc != 0 && !(prov && *prov)) {
        free(hints->fabric_attr->prov_name);
        hints->fabric_attr->prov_name = strdup("tcp;ofi_rxm");
        rc = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info);
    }
    ok(rc, "fi_getinfo");   /* also a provider named in SHMEM_OFI_PROVIDER that is not there */
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    struct fid_mr *mr;
    ok(fi_fabric(info->fabric_attr, &fabric, NULL), "fi_fabric");
    ok(fi_domain(fabric, info, &domain, NULL), "fi_domain");
    struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_NONE, .size = 128};
    struct fi_av_attr av_attr = {.type = FI_AV_TABLE};
    ok(fi_cq_open(domain, &cq_attr, &cq, NULL), "fi_cq_open");
    ok(fi_av_open(domain, &av_attr, &av, NULL), "fi_av_open");
    ok(fi_endpoint(domain, info, &ep, NULL), "fi_endpoint");
    ok(fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV), "fi_ep_bind cq");
    ok(fi_ep_bind(ep, &av->fid, 0), "fi_ep_bind av");
    ok(fi_enable(ep), "fi_enable");
    ok(fi_mr_reg(domain, &word, sizeof word, FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 1, 0, &mr, NULL), "fi_mr_reg");
    if (info->domain_attr->mr_mode & FI_MR_ENDPOINT) {
        ok(fi_mr_bind(mr, &ep->fid, 0), "fi_mr_bind");
        ok(fi_mr_enable(mr), "fi_mr_enable");
    }
    /* Trade endpoint names, the key and the word's address through Shoal. */
    name_len[me] = NAME_MAX_LEN;
    ok(fi_getname(&ep->fid, names[me], &name_len[me]), "fi_getname");
    keys[me] = fi_mr_key(mr);
    addrs[me] = info->domain_attr->mr_mode & FI_MR_VIRT_ADDR ? (uint64_t)(uintptr_t)&word : 0;
    shmem_putmem(names[me], names[me], name_len[me], other);
    shmem_putmem(&name_len[me], &name_len[me], sizeof name_len[me], other);
    shmem_putmem(&keys[me], &keys[me], sizeof keys[me], other);
    shmem_putmem(&addrs[me], &addrs[me], sizeof addrs[me], other);
    shmem_barrier_all();
    if (fi_av_insert(av, names[other], 1, &peer, 0, NULL) != 1)
        ok(-FI_EINVAL, "fi_av_insert");
    for (int i = 0; i < RX_BUFS; i++)
        ok((int)fi_recv(ep, rx[i], 64, NULL, FI_ADDR_UNSPEC, rx[i]), "fi_recv");
    /* Connect one way first (PE 0 sends), so the two sides never connect at once. */
    long expect = 0;
    if (me == 0)
        send8();
    else
        await_count(&received, ++expect);
    if (me == 1)
        send8();
    else
        await_count(&received, ++expect);
    for (int i = 0; i < rounds; i++) {   /* ping-pong */
        double t0 = now_us();
        if (me == 0)
            send8(), await_count(&received, ++expect);
        else
            await_count(&received, ++expect), send8();
        t[i] = now_us() - t0;
    }
    emit("fabric one-way", rounds, 0.5);
    for (int i = 0; i < rounds; i++) {   /* exchange */
        double t0 = now_us();
        send8();
        await_count(&received, ++expect);
        t[i] = now_us() - t0;
    }
    emit("fabric exchange", rounds, 1.0);
    shmem_barrier_all();
    /* One-sided: PE 0 reads and fetch-adds PE 1's word while PE 1 polls its CQ. */
    if (me == 0) {
        /* net has no atomics of its own (Shoal sends its AMOs as messages):
         * its fetch-add floor is the message round trip, 2 x one-way. */
        struct fi_atomic_attr attr;
        int kinds = fi_query_atomic(domain, FI_UINT64, FI_SUM, &attr, FI_FETCH_ATOMIC) == 0 ? 2 : 1;
        for (int k = 0; k < kinds; k++) {
            for (int i = 0; i < rounds; i++) {
                double t0 = now_us();
                ssize_t rc;
                while ((rc = k == 0 ? fi_read(ep, &sink, 8, NULL, peer, addrs[other], keys[other], &sink)
                                    : fi_fetch_atomic(ep, &one_, 1, NULL, &sink, NULL, peer, addrs[other],
                                                      keys[other], FI_UINT64, FI_SUM, &sink)) == -FI_EAGAIN)
                    poll_cq();
                ok((int)rc, k == 0 ? "fi_read" : "fi_fetch_atomic");
                await_count(&completed, (long)k * rounds + i + 1);
                t[i] = now_us() - t0;
            }
            emit(k == 0 ? "fabric read" : "fabric fetch-add", rounds, 1.0);
        }
        send8();   /* PE 1 may stop polling */
    } else {
        await_count(&received, expect + 1);
    }
    shmem_barrier_all();
    struct fi_atomic_attr attr;   /* without provider atomics (net) no fetch-add ran */
    bool fetch_adds = fi_query_atomic(domain, FI_UINT64, FI_SUM, &attr, FI_FETCH_ATOMIC) == 0;
    if (me == 1 && fetch_adds && word != (uint64_t)rounds)
        fprintf(stderr, "mh_fabric: word %llu after %d fetch-adds\n", (unsigned long long)word, rounds);
    shmem_barrier_all();
    write_pingpong(me, other, rounds, 0);
    write_pingpong(me, other, rounds, FI_DELIVERY_COMPLETE);
    fi_close(&ep->fid);
    fi_close(&mr->fid);
    fi_close(&av->fid);
    fi_close(&cq->fid);
    fi_close(&domain->fid);
    fi_close(&fabric->fid);
    fi_freeinfo(info);
    fi_freeinfo(hints);
    shmem_finalize();
    return 0;
}
