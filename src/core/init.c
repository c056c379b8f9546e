/* The base layer's part of setup and teardown; api/lifecycle.c puts the
 * layers together in shmem_init and shmem_finalize. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shoal.h"
#include "../boot/boot.h"
#include "../mem/mem.h"

static uint32_t no_sleepers;   /* what shoal_notify reads outside init..finalize */
struct shoal_state shoal = {.host_sleepers = &no_sleepers};

static struct shoal_segment segs[SHOAL_NSEGS];

/* What each PE publishes at init. */
struct pe_card {
    struct shoal_segment_id seg[SHOAL_NSEGS];
    char host[96];   /* hostname + network namespace: namespaces on one machine are separate hosts */
    char machine[40];   /* the kernel's boot id: PEs of every "host" on this machine share its cores */
    cpu_set_t cpus;     /* where this PE may run */
    struct shoal_vote vote;   /* what the layers above must hold alike (shoal_core_attach) */
};

static void host_key(char *out, size_t len)
{
    char name[64] = "";
    struct stat st = {0};
    const char *forced = getenv("SHOAL_HOST_ID");
    gethostname(name, sizeof name - 1);
    stat("/proc/self/ns/net", &st);
    if (forced)
        snprintf(out, len, "%s", forced);
    else
        snprintf(out, len, "%s:%lu", name, (unsigned long)st.st_ino);
}

/* SHOAL_MACHINE_ID (tests) puts PEs of one machine on pseudo-machines, so
 * machines of different CPU counts can be tested on one. */
static void machine_key(char *out, size_t len)
{
    const char *forced = getenv("SHOAL_MACHINE_ID");
    if (forced) {
        snprintf(out, len, "%s", forced);
        return;
    }
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    out[0] = 0;
    if (f) {
        if (!fgets(out, (int)len, f))
            out[0] = 0;
        fclose(f);
    }
}

static void my_cpus(cpu_set_t *set)
{
    CPU_ZERO(set);
    if (sched_getaffinity(0, sizeof *set, set) != 0)
        for (long c = 0, n = sysconf(_SC_NPROCESSORS_ONLN); c < n && c < CPU_SETSIZE; c++)
            CPU_SET(c, set);
}

/* Oversubscribed: the PEs on this machine outnumber the CPUs they may run
 * on together.  The union matters: a launcher that binds each PE to its
 * own core leaves every PE one CPU, which is not oversubscription, while
 * PEs all bound to one core are. */
/* PEs on PE pe's machine and the CPUs they may run on together. */
static int machine_load(const struct pe_card *cards, int pe, int *cpus)
{
    cpu_set_t all;
    int pes = 0;
    CPU_ZERO(&all);
    for (int q = 0; q < shoal.n_pes; q++)
        if (!strcmp(cards[q].machine, cards[pe].machine)) {
            CPU_OR(&all, &all, &cards[q].cpus);
            pes++;
        }
    *cpus = CPU_COUNT(&all) > 0 ? CPU_COUNT(&all) : 1;
    return pes;
}

/* Mine, and the job's most crowded machine (a fact every PE shares, for
 * choices members of a call must make alike).  Each machine is counted at
 * its first PE. */
static void count_machine(const struct pe_card *cards)
{
    shoal.machine_pes = machine_load(cards, shoal.my_pe, &shoal.machine_cpus);
    shoal.oversubscribed = shoal.machine_pes > shoal.machine_cpus;
    shoal.crowded_pes = shoal.crowded_cpus = 1;
    for (int pe = 0; pe < shoal.n_pes; pe++) {
        int first = 0;
        while (strcmp(cards[first].machine, cards[pe].machine))
            first++;
        int cpus, pes = first == pe ? machine_load(cards, pe, &cpus) : 0;
        if (pes && (double)pes / cpus > (double)shoal.crowded_pes / shoal.crowded_cpus) {
            shoal.crowded_pes = pes;
            shoal.crowded_cpus = cpus;
        }
    }
}

static void create_segments(size_t internal_bytes)
{
    if (shoal_globals_share(&segs[SHOAL_SEG_DATA]) != 0)
        shoal_fatal("shmem_init", "could not make global variables symmetric (memfd/mmap failed)");
    size_t internal = ((size_t)1 << 20) + internal_bytes;   /* control blocks, then the layers' (pSync pool) */
    internal = (internal + 4095) & ~(size_t)4095;
    size_t heap = internal + ((shoal_cfg.heap_size + 4095) & ~(size_t)4095);
    if (shoal_heap_create(&segs[SHOAL_SEG_HEAP], heap) != 0)
        shoal_fatal("shmem_init", "could not create a %zu-byte symmetric heap; lower SHMEM_SYMMETRIC_SIZE",
                    heap);
    for (int s = 0; s < SHOAL_NSEGS; s++) {
        shoal.seg_base[s] = segs[s].base;
        shoal.seg_size[s] = segs[s].size;
    }
    shoal.heap_internal = internal;
    shoal_heap_allocator_init(segs[SHOAL_SEG_HEAP].base, internal, heap);
}

/* Number the hosts in order of first appearance and map every PE on mine. */
static void attach_peers(const struct pe_card *cards)
{
    int n = shoal.n_pes;
    shoal.peers = calloc(n, sizeof *shoal.peers);
    int *first_pe_of_host = calloc(n, sizeof(int));
    shoal.n_hosts = 0;
    shoal.n_local_pes = 0;
    for (int pe = 0; pe < n; pe++) {
        int h = 0;
        while (h < shoal.n_hosts && strcmp(cards[first_pe_of_host[h]].host, cards[pe].host) != 0)
            h++;
        if (h == shoal.n_hosts)
            first_pe_of_host[shoal.n_hosts++] = pe;
        shoal.peers[pe].host = h;
    }
    shoal.my_host = shoal.peers[shoal.my_pe].host;
    for (int pe = 0; pe < n; pe++) {
        if (shoal.peers[pe].host != shoal.my_host)
            continue;
        shoal.n_local_pes++;
        for (int s = 0; s < SHOAL_NSEGS; s++) {
            char *b = pe == shoal.my_pe ? shoal.seg_base[s] : shoal_segment_attach(&cards[pe].seg[s]);
            if (!b)
                shoal_fatal("shmem_init", "cannot map the symmetric memory of PE %d through /proc/%d/fd "
                            "(are the PEs allowed to see each other's /proc entries?)", pe,
                            (int)cards[pe].seg[s].pid);
            shoal.peers[pe].base[s] = b;
        }
        shoal.peers[pe].pid = cards[pe].seg[0].pid;
    }
    free(first_pe_of_host);
}

/* The control block is the first internal allocation, so it sits at the
 * same offset on every PE. */
static void setup_control_blocks(void)
{
    struct shoal_pe_ctl *mine = shoal_internal_alloc(sizeof(struct shoal_pe_ctl));
    for (int pe = 0; pe < shoal.n_pes; pe++)
        shoal.peers[pe].ctl = shoal_ptr(mine, pe);
    int first = 0;   /* the host's first PE: every PE of the host finds the same one */
    while (shoal.peers[first].host != shoal.my_host)
        first++;
    shoal.host_sleepers = &shoal.peers[first].ctl->host_sleepers;
    /* last: the network's progress thread, already running, reads it (TSan) */
    __atomic_store_n(&shoal.my_ctl, mine, __ATOMIC_RELEASE);
}

static void agree(const struct pe_card *cards, void (*agree_fn)(const struct shoal_vote *, int))
{
    struct shoal_vote *votes = calloc(shoal.n_pes, sizeof *votes);
    for (int pe = 0; pe < shoal.n_pes; pe++)
        votes[pe] = cards[pe].vote;
    agree_fn(votes, shoal.n_pes);
    free(votes);
}

static void exchange_and_map(struct shoal_vote vote, void (*agree_fn)(const struct shoal_vote *, int))
{
    struct pe_card mine = {.vote = vote}, *all = calloc(shoal.n_pes, sizeof mine);
    for (int s = 0; s < SHOAL_NSEGS; s++)
        mine.seg[s] = (struct shoal_segment_id){getpid(), segs[s].fd, segs[s].size};
    host_key(mine.host, sizeof mine.host);
    machine_key(mine.machine, sizeof mine.machine);
    my_cpus(&mine.cpus);
    shoal_boot_allgather(&mine, all, sizeof mine);
    agree(all, agree_fn);
    attach_peers(all);
    count_machine(all);
    free(all);
    /* Everyone has mapped everyone: the descriptors may go (a re-init
     * shares the globals afresh). */
    shoal_boot_barrier();
    for (int s = 0; s < SHOAL_NSEGS; s++) {
        close(segs[s].fd);
        segs[s].fd = -1;
    }
}

static void print_banner(void)
{
    if (shoal.my_pe != 0)
        return;
    if (shoal_cfg.version || shoal_cfg.info)
        printf("Shoal %s (OpenSHMEM %d.%d), %d PEs on %d host(s), bootstrap %s\n", SHOAL_VERSION_STRING,
               1, 6, shoal.n_pes, shoal.n_hosts, shoal_boot_name());
    if (shoal_cfg.info)
        shoal_config_print(stdout);
    fflush(stdout);
}

/* The first half of shmem_init (api/lifecycle.c): the launcher and the
 * environment.  -1 when the launcher's environment cannot be read. */
int shoal_core_boot(int requested)
{
    if (shoal_boot_init(&shoal.my_pe, &shoal.n_pes) != 0) {
        fprintf(stderr, "Shoal error: shmem_init: the launcher's environment could not be read; "
                        "start the program with oshrun\n");
        return -1;
    }
    shoal_config_load();   /* after the bootstrap, so errors name the PE */
    shoal.thread_level = requested;
    return 0;
}

/* The second half: symmetric memory (internal bytes reserved for the layers
 * above, which size it from the configuration), every peer mapped or
 * reached through the network, control blocks, waiting. */
void shoal_core_attach(size_t internal_bytes, struct shoal_vote mine,
                       void (*agree_fn)(const struct shoal_vote *all, int n_pes))
{
    create_segments(internal_bytes);
    exchange_and_map(mine, agree_fn);
    if (shoal.n_hosts > 1)
        shoal_ofi_init();   /* PEs on other hosts: network transport (transport/ofi), AMOs through it */
    setup_control_blocks();
    shoal_wait_init();
}

/* Every PE has set up every layer. */
void shoal_core_ready(void)
{
    shoal_boot_barrier();
    print_banner();
}

/* Every operation this PE issued on every endpoint is complete (finalize). */
void shoal_core_quiet_all(void)
{
    shoal_ofi_quiet_all();
}

/* The launcher's barrier: a no-op once MPI_Finalize has taken its connection. */
void shoal_core_barrier(void)
{
    shoal_boot_barrier();
}

/* The last of finalize: the network closes, then (after every PE closed
 * its own) the segments go. */
void shoal_core_fini(void)
{
    shoal_ofi_fini();
    shoal_boot_barrier();   /* nobody touches a peer's memory past here */
    for (int pe = 0; pe < shoal.n_pes; pe++)
        for (int s = 0; s < SHOAL_NSEGS; s++)
            if (pe != shoal.my_pe)
                shoal_segment_detach(shoal.peers[pe].base[s], shoal.seg_size[s]);
    shoal_segment_detach(segs[SHOAL_SEG_HEAP].base, segs[SHOAL_SEG_HEAP].size);
    shoal_heap_allocator_fini();
    free(shoal.peers);
    shoal.peers = NULL;
    shoal.my_ctl = NULL;
    shoal.host_sleepers = &no_sleepers;
    /* No segment is symmetric until the next init (which restores both from
     * segs[]): a put now reaches the "not initialized" report, not peers[]. */
    for (int s = 0; s < SHOAL_NSEGS; s++) {
        shoal.seg_base[s] = NULL;
        shoal.seg_size[s] = 0;
    }
    shoal_boot_fini();
}

_Noreturn void shoal_core_abort(int status)
{
    fflush(stdout);
    fflush(stderr);
    shoal_boot_abort(status);
}
