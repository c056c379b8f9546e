/* Bringing the network up when a job spans hosts: pick a provider, open
 * fabric/domain/address vector/endpoint, register the symmetric segments,
 * exchange addresses and keys through the bootstrap, check that the other
 * hosts answer, and install the transport.  Anything missing is reported
 * in one line with the fix. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ofi.h"
#include "../../boot/boot.h"

struct shoal_ofi shoal_ofi = {.eps_lock = PTHREAD_MUTEX_INITIALIZER};

static _Noreturn void init_failed(const char *what, int rc, const char *fix)
{
    shoal_fatal("shmem_init", "network transport (libfabric %s): %s: %s; %s",
                shoal_ofi.prov ? shoal_ofi.prov : "provider", what, fi_strerror(rc < 0 ? -rc : rc), fix);
}

static const char *requested_provider(void)
{
    const char *p = shoal_cfg.ofi_provider;
    return p && *p ? p : NULL;
}

static struct fi_info *make_hints(void)
{
    struct fi_info *h = fi_allocinfo();
    h->caps = FI_RMA | FI_ATOMIC | FI_MSG;   /* messages: software AMOs and signals (ofi_am.c) */
    h->mode = 0;   /* we pass no fi_context with operations */
    h->ep_attr->type = FI_EP_RDM;
    /* What we can live with: keys the provider picks, virtual addresses,
     * memory registered per endpoint.  Not FI_MR_LOCAL: sources and
     * destinations are any user memory. */
    h->domain_attr->mr_mode = FI_MR_VIRT_ADDR | FI_MR_PROV_KEY | FI_MR_ALLOCATED | FI_MR_ENDPOINT;
    h->domain_attr->threading = FI_THREAD_SAFE;   /* the progress thread polls while PEs issue */
    if (requested_provider())
        h->fabric_attr->prov_name = strdup(requested_provider());
    return h;
}

static bool is_loopback(const struct fi_info *i)
{
    if (i->addr_format == FI_SOCKADDR_IN && i->src_addr) {
        const struct sockaddr_in *a = i->src_addr;
        return (ntohl(a->sin_addr.s_addr) >> 24) == 127;
    }
    if (i->addr_format == FI_SOCKADDR_IN6 && i->src_addr) {
        const struct sockaddr_in6 *a = i->src_addr;
        return IN6_IS_ADDR_LOOPBACK(&a->sin6_addr) || IN6_IS_ADDR_LINKLOCAL(&a->sin6_addr);
    }
    return false;
}

/* Providers that only reach processes of one machine cannot join hosts. */
static bool host_local_provider(const struct fi_info *i)
{
    const char *p = i->fabric_attr->prov_name;
    return !strcmp(p, "shm") || !strcmp(p, "sm2") || strstr(p, "shm;") == p;
}

/* rxm's defaults are sized for MPI's eager messages: 16 KiB buffers, 256
 * receives per connection, about 70 MB per endpoint.  Shoal sends none (RMA
 * goes straight to the connection; only atomics travel in rxm buffers), so
 * smaller defaults cut a PE's footprint from 93 to 14 MB and a context's
 * from 68 to 4 MB (measured).  Variables the user set are left alone. */
static void default_provider_sizes(void)
{
    setenv("FI_OFI_RXM_BUFFER_SIZE", "2048", 0);
    setenv("FI_OFI_RXM_MSG_RX_SIZE", "32", 0);
}

/* rxm makes reliable datagrams out of a connected provider; where the
 * provider under it offers them by itself on the same interface, that is
 * one layer less on every message.  libfabric 1.17 lists tcp;ofi_rxm first
 * and net (its new tcp, named tcp again from 1.18) after it: 1 host x 1 PE
 * each side, 3 alternating runs, put 24.8 -> 18.6 us, get 23.8 -> 18.0,
 * fetch-add 27.6 -> 17.3, barrier 22.8 -> 16.1; 4 hosts x 2 PEs, small
 * collectives 0.58-0.66x (docs/PERFORMANCE.md, session 10).  A provider
 * the user names is taken as named. */
static struct fi_info *without_rxm(struct fi_info *list, struct fi_info *pick)
{
    const char *name = pick->fabric_attr->prov_name, *layer = strstr(name, ";ofi_rxm");
    if (requested_provider() || !layer || layer[8])
        return pick;
    size_t core = (size_t)(layer - name);
    for (struct fi_info *i = list; i; i = i->next) {
        const char *p = i->fabric_attr->prov_name;
        bool same_core = (strlen(p) == core && !strncmp(p, name, core)) ||
                         (core == 3 && !strncmp(name, "tcp", 3) && !strcmp(p, "net"));
        if (same_core && !strcmp(i->domain_attr->name, pick->domain_attr->name))
            return i;
    }
    return pick;
}

static struct fi_info *choose_provider(void)
{
    default_provider_sizes();
    struct fi_info *hints = make_hints(), *list = NULL, *pick = NULL;
    int rc = fi_getinfo(FI_VERSION(1, 10), NULL, NULL, 0, hints, &list);
    fi_freeinfo(hints);
    if (rc != 0 || !list) {
        const char *asked = requested_provider() ? requested_provider() : getenv("FI_PROVIDER");
        shoal_fatal("shmem_init", "no libfabric provider%s%s offers reliable-datagram endpoints with RMA and "
                    "atomics between hosts (%s); %s", asked ? " matching " : "", asked ? asked : "",
                    fi_strerror(-rc), asked ? "unset SHMEM_OFI_PROVIDER/FI_PROVIDER or name another provider"
                                            : "install a libfabric provider for this network (Debian's "
                                              "libfabric1 has tcp)");
    }
    for (struct fi_info *i = list; i && !pick; i = i->next)
        if (!is_loopback(i) && !host_local_provider(i))
            pick = i;
    if (!pick)
        shoal_fatal("shmem_init", "libfabric offers only loopback or single-machine providers here (first: %s "
                    "on %s); give the hosts a network interface or choose one with FI_TCP_IFACE / "
                    "SHMEM_OFI_PROVIDER", list->fabric_attr->prov_name, list->domain_attr->name);
    pick = fi_dupinfo(without_rxm(list, pick));
    fi_freeinfo(list);
    return pick;
}

static void open_domain(void)
{
    struct fi_info *info = shoal_ofi.info;
    struct fi_av_attr av = {.type = FI_AV_TABLE, .count = (size_t)shoal.n_pes};
    int rc;
    if ((rc = fi_fabric(info->fabric_attr, &shoal_ofi.fabric, NULL)) != 0)
        init_failed("fi_fabric", rc, "check the provider with fi_info");
    if ((rc = fi_domain(shoal_ofi.fabric, info, &shoal_ofi.domain, NULL)) != 0)
        init_failed("fi_domain", rc, "check the provider with fi_info");
    if ((rc = fi_av_open(shoal_ofi.domain, &av, &shoal_ofi.av, NULL)) != 0)
        init_failed("fi_av_open", rc, "check the provider with fi_info");
    if ((rc = shoal_ofi_ep_open(&shoal_ofi.main_ep, true)) != 0)
        init_failed("opening the endpoint", rc, "check the provider with fi_info");
    shoal_ofi.max_msg = info->ep_attr->max_msg_size ? info->ep_attr->max_msg_size : ((size_t)1 << 30);
    if (shoal_ofi.max_msg > ((size_t)1 << 30))
        shoal_ofi.max_msg = (size_t)1 << 30;
    shoal_ofi.ordered_writes = (info->tx_attr->msg_order & FI_ORDER_WAW) != 0;
    shoal_ofi.sends_after_writes = (info->tx_attr->msg_order & FI_ORDER_SAW) != 0;
}

static void check_atomics(void)
{
    char missing[96];
    if (shoal_ofi_atomics_supported(missing, sizeof missing))
        return;
    if (!strcasecmp(shoal_cfg.ofi_atomics, "native"))
        shoal_fatal("shmem_init", "libfabric provider %s cannot do %s, which SHOAL_OFI_ATOMICS=native asks of it; "
                    "use SHOAL_OFI_ATOMICS=auto (Shoal's messages) or a provider with atomics (e.g. "
                    "SHMEM_OFI_PROVIDER=\"tcp;ofi_rxm\")", shoal_ofi.prov, missing);
    shoal_fatal("shmem_init", "libfabric provider %s cannot do %s, which OpenSHMEM needs between hosts; "
                "choose another provider with SHMEM_OFI_PROVIDER (e.g. tcp;ofi_rxm or verbs;ofi_rxm)",
                shoal_ofi.prov, missing);
}

static void exchange_cards(struct shoal_ofi_card *mine)
{
    int n = shoal.n_pes;
    size_t len = sizeof mine->addr;
    int rc = fi_getname(&shoal_ofi.main_ep.ep->fid, mine->addr, &len);
    if (rc != 0)
        init_failed("fi_getname (endpoint address longer than 160 bytes?)", rc, "report this provider to Shoal");
    mine->addrlen = (uint32_t)len;
    struct shoal_ofi_card *all = calloc(n, sizeof *all);
    shoal_boot_allgather(mine, all, sizeof *mine);
    char *names = calloc(n, len);
    shoal_ofi.addr = calloc(n, sizeof *shoal_ofi.addr);
    for (int pe = 0; pe < n; pe++) {
        if (all[pe].addrlen != len)
            shoal_fatal("shmem_init", "PE %d uses a different network address format (provider) than PE %d; "
                        "set the same SHMEM_OFI_PROVIDER/FI_PROVIDER for all PEs", pe, shoal.my_pe);
        memcpy(names + (size_t)pe * len, all[pe].addr, len);
    }
    shoal_ofi_mr_publish(all);
    rc = fi_av_insert(shoal_ofi.av, names, (size_t)n, shoal_ofi.addr, 0, NULL);
    if (rc != n)
        init_failed("inserting the peers' addresses", rc < 0 ? rc : -FI_EINVAL, "check the provider with fi_info");
    free(names);
    free(all);
}

/* SHMEM_INFO: what serves the PEs on other hosts (PE 0, once). */
static void print_choices(void)
{
    if (shoal.my_pe != 0 || !shoal_cfg.info)
        return;
    printf("network: libfabric %s on %s; atomics %s; quiet %s; progress thread %s\n", shoal_ofi.prov,
           shoal_ofi.info->domain_attr->name, shoal_ofi.am ? "applied by the target PE (messages)" : "by the provider",
           shoal_ofi.flush_read ? "reads back from each PE written" : "waits for delivery-complete writes",
           shoal_ofi_progress_thread_on() ? "on" : "off");
    fflush(stdout);
}

int shoal_ofi_init(void)
{
    struct shoal_ofi_card mine = {0};
    /* libpsm2 (loaded with libfabric's psm2 provider) installs a SIGSEGV
     * handler that turns a crash into "exit 1" plus a backtrace; launchers
     * other than oshrun (srun, mpirun) would then not report the signal */
    setenv("IPATH_NO_BACKTRACE", "1", 0);
    setenv("HFI_NO_BACKTRACE", "1", 0);
    shoal_ofi.info = choose_provider();
    shoal_ofi.prov = shoal_ofi.info->fabric_attr->prov_name;
    shoal_ofi.inject_size = shoal_ofi.info->tx_attr->inject_size;
    shoal_ofi.am = shoal_ofi_am_wanted();
    shoal_ofi.am_long = shoal_ofi_am_long_wanted();
    shoal_ofi.flush_read = shoal_ofi_flush_read_wanted();
    shoal_ofi_raise_nofile();
    open_domain();
    if (shoal_ofi.am && shoal_ofi_am_start() != 0)
        init_failed("posting receive buffers", -FI_ENOMEM, "check the provider with fi_info");
    if (!shoal_ofi.am)   /* Shoal's messages carry every AMO otherwise (ofi_amo.c) */
        check_atomics();
    shoal_ofi_mr_register(&mine);
    exchange_cards(&mine);
    shoal_ofi_mr_grow_internal();
    shoal_ofi_progress_start();   /* hook and thread: a PE in the boot barrier still serves the others */
    /* Everyone serves before anyone contacts it, so the connection deadline
     * counts connecting only: the launcher's exchange can release a host's
     * PEs seconds after the others (Open MPI across namespace hosts under
     * load: 10-16 s in 3 runs of 15, once over the 30-s deadline). */
    shoal_boot_barrier();
    shoal_ofi_connect_peers();
    shoal_boot_barrier();         /* everyone's contacts are answered before anyone goes on */
    shoal_ofi_progress_settle();
    shoal_ctx_default.net = &shoal_ofi.main_ep;
    shoal_remote = &shoal_ofi_ops;
    shoal.amo_via_network = !shoal_ofi.am;   /* software AMOs: this CPU is its words' one atomicity agent */
    print_choices();
    return 0;
}

void shoal_ofi_quiet_all(void)
{
    if (!shoal_ofi.domain)
        return;
    for (struct shoal_ofi_ep *e = shoal_ofi.eps; e; e = e->next)
        shoal_ofi_quiet_ep(e, "shmem_finalize");
}

void shoal_ofi_fini(void)
{
    if (!shoal_ofi.domain)
        return;
    shoal_ofi_progress_stop();
    shoal_ofi_connect_fini();
    shoal_remote = NULL;
    shoal_ctx_default.net = NULL;
    shoal.amo_via_network = false;
    shoal_ofi_mr_close();
    while (shoal_ofi.eps) {
        struct shoal_ofi_ep *e = shoal_ofi.eps;
        shoal_ofi_ep_close(e);   /* unlinks it */
        if (e != &shoal_ofi.main_ep)
            free(e);             /* a context the program did not destroy */
    }
    shoal_ofi_am_stop();
    if (shoal_ofi.wake_cq)
        fi_close(&shoal_ofi.wake_cq->fid);
    if (shoal_ofi.wait_set)
        fi_close(&shoal_ofi.wait_set->fid);   /* after its CQ */
    fi_close(&shoal_ofi.av->fid);
    fi_close(&shoal_ofi.domain->fid);
    fi_close(&shoal_ofi.fabric->fid);
    fi_freeinfo(shoal_ofi.info);
    free(shoal_ofi.addr);
    pthread_mutex_t lock = shoal_ofi.eps_lock;
    shoal_ofi = (struct shoal_ofi){.eps_lock = lock};
}
