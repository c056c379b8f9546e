/* The core's interface to every layer above it (api, team, coll, sync).
 *
 * PEs are world PE numbers here; the API layer translates team/context-relative
 * numbers before calling in.  Nothing above this header knows which transport
 * serves a PE: it asks for a local pointer (shoal_ptr) or calls the RMA/AMO
 * entry points, which pick shared memory or the network per PE. */
#ifndef SHOAL_CORE_SHOAL_H
#define SHOAL_CORE_SHOAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SHOAL_EXPORT __attribute__((visibility("default")))
#define SHOAL_LIKELY(x) __builtin_expect(!!(x), 1)
#define SHOAL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SHOAL_INLINE static inline __attribute__((always_inline))
#define SHOAL_CACHELINE 64

static inline void shoal_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Symmetric segments: user globals/statics and the heap (internal region first). */
enum { SHOAL_SEG_DATA = 0, SHOAL_SEG_HEAP = 1, SHOAL_NSEGS = 2 };

/* Per-PE control block, in the internal part of that PE's heap, so peers on
 * the host reach it by load/store.  Waiters sleep on the doorbell; writers
 * ring it after delivering data if anyone sleeps. */
struct shoal_pe_ctl {
    uint32_t doorbell;      /* futex word: bumped by writers when sleepers > 0 */
    uint32_t sleepers;      /* threads of this PE sleeping on the doorbell */
    uint32_t rung;          /* a writer rang since the sleepers last looked: later writers need not */
    uint32_t host_sleepers; /* on the host's first PE only: sleepers of every PE on the host */
    uint64_t finalizing;    /* shoal_finalize calls this PE has entered (read by PEs finalizing at exit) */
    char pad[SHOAL_CACHELINE - 24];
};

struct shoal_peer {
    char *base[SHOAL_NSEGS];    /* its segments mapped here; NULL when not load/store reachable */
    struct shoal_pe_ctl *ctl;   /* its control block, NULL when remote */
    int host;                   /* index of its host, 0..n_hosts-1 */
    int pid;                    /* its process on my host (0 when remote): to notice that it died */
};

struct shoal_team;
struct shoal_ctx;

struct shoal_state {
    int my_pe, n_pes;
    int init_count;             /* 1.6: init/finalize pairs nest */
    int thread_level;
    int my_host, n_hosts;
    int n_local_pes;            /* PEs on my host */
    bool oversubscribed;        /* machine_pes > machine_cpus: wait by sleeping early */
    int machine_pes;            /* PEs on this machine (all its network-namespace "hosts") */
    int machine_cpus;           /* CPUs those PEs may run on, together */
    int crowded_pes, crowded_cpus;   /* the same two on the job's most crowded machine (PEs per CPU) */
    char *seg_base[SHOAL_NSEGS];
    size_t seg_size[SHOAL_NSEGS];
    size_t heap_internal;       /* bytes at the start of the heap reserved for the library */
    struct shoal_peer *peers;   /* indexed by world PE */
    struct shoal_pe_ctl *my_ctl;
    uint32_t *host_sleepers;    /* the host's first PE's count (a zero word outside init..finalize) */
    /* When a job spans hosts every AMO goes through the network, so CPU and
     * NIC atomics never race on one word (DESIGN.md, "Atomicity"). */
    bool amo_via_network;
};
extern struct shoal_state shoal;

/* ---- configuration (core/config.c; every variable is listed in core/env.def) ---- */
typedef const char *shoal_env_str;
typedef size_t shoal_env_size;
typedef long shoal_env_int;
typedef bool shoal_env_bool;
struct shoal_config {
#define SHOAL_ENV(var, kind, field, def, valid, help) kind field;
#include "env.def"
#undef SHOAL_ENV
};
extern struct shoal_config shoal_cfg;
void shoal_config_load(void);
/* Parses SHMEM_SYMMETRIC_SIZE syntax ("1.5g", "512m", ".5m"); -1 on error, SIZE_MAX when too big. */
int shoal_parse_size(const char *text, size_t *out);
void shoal_config_print(void *file);   /* FILE*: every variable, its value, default and meaning */

/* ---- errors (core/error.c) ---- */
/* Prints "Shoal: PE n: routine: what (fix)" and takes the whole job down. */
_Noreturn void shoal_fatal(const char *routine, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void shoal_warn(const char *routine, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The routine the user called, while the API layer runs a collective or a
 * team routine (NULL otherwise): errors raised deep inside (a put of the
 * algorithm, a scratch check) name it instead of the internal step. */
extern __thread const char *shoal_user_routine __attribute__((tls_model("initial-exec")));
/* Under SHMEM_DEBUG: abort unless initialized. */
void shoal_require_init(const char *routine);
#define SHOAL_DEBUG_ON SHOAL_UNLIKELY(shoal_cfg.debug)

/* ---- symmetric addresses ---- */
/* Which segment holds addr, and at what offset; -1 if not symmetric. */
SHOAL_INLINE int shoal_seg_of(const void *addr, size_t *offset)
{
    for (int s = SHOAL_NSEGS - 1; s >= 0; s--) {
        uintptr_t off = (uintptr_t)addr - (uintptr_t)shoal.seg_base[s];
        if (off < shoal.seg_size[s]) {
            *offset = off;
            return s;
        }
    }
    return -1;
}

/* Where symmetric address addr of world PE pe is mapped here, or NULL when
 * pe is not load/store reachable or addr is not symmetric. */
SHOAL_INLINE void *shoal_ptr(const void *addr, int pe)
{
    size_t off;
    int s = shoal_seg_of(addr, &off);
    if (SHOAL_UNLIKELY(s < 0))
        return NULL;
    char *base = shoal.peers[pe].base[s];
    return base ? base + off : NULL;
}

/* Under SHMEM_DEBUG: abort with a clear message unless addr..addr+len is
 * symmetric and pe a valid world PE. */
void shoal_check_remote(const char *routine, const void *addr, size_t len, int pe);

/* ---- transport-independent RMA / AMO (core/rma.h inline, core/rma.c) ---- */
enum shoal_amo_op {
    SHOAL_AMO_FETCH, SHOAL_AMO_SET, SHOAL_AMO_SWAP, SHOAL_AMO_CSWAP,
    SHOAL_AMO_ADD, SHOAL_AMO_AND, SHOAL_AMO_OR, SHOAL_AMO_XOR,
};
enum { SHOAL_SIG_SET = 0, SHOAL_SIG_ADD = 1 };   /* equal to SHMEM_SIGNAL_SET/ADD */


/* ---- waiting (core/wait.c) ---- */
/* A waiter spins briefly, then yields, then sleeps on this PE's doorbell with
 * a short timeout; every wait also drives progress (network, split barriers). */
struct shoal_waiter {
    unsigned n;
    uint64_t since;     /* when the yields began (multi-host jobs poll for a time) */
    uint64_t armed_at;  /* when it first counted itself among the sleepers (shoal_wait_learn) */
    bool armed;         /* counted in sleepers */
    bool rearm;         /* must look at the doorbell again before sleeping */
    uint8_t grace;      /* re-checks after announcing the sleep, before the first futex wait */
    bool local;         /* waits for a PE of this machine (SHOAL_WAIT_WHILE_LOCAL) */
    uint8_t backoff;    /* wakes that found the condition still holding (wait.c) */
    uint64_t served;    /* shoal_requests_served when the poll window last began */
    uint32_t seq;
};
void shoal_wait_init(void);   /* at init: registers this process for the sleepers' fence */
/* The yields' budget learned from armed waits (wait.c): the next after one
 * that armed for armed_ns (a core per PE, else crowded) */
uint8_t shoal_wait_learn(uint8_t learned, uint64_t armed_ns, bool crowded);
void shoal_waiter_pause(struct shoal_waiter *w);
void shoal_waiter_done(struct shoal_waiter *w);
/* ~2 us of polls, each after a pause: a reply in flight is seen at once.
 * The pause matters where the writer is a hardware thread of the same core
 * (or a vCPU the host runs as one): a spin without it takes the core's
 * issue slots from the very PE that is about to write (2 PEs, 8-byte
 * ping-pong one way, 6 alternating runs: 59-65 ns -> 53-56, the machine's
 * cache-line ping-pong with a pause 54; spinning without one, 255).  A
 * job across hosts keeps 2048 looks without a pause (every 256th a socket
 * poll, below): with the pauses its 1 x 1 large operations looked 20%
 * slower in 4 alternating rounds, unexplained, so that path stays as it
 * was measured.  Not with more PEs than cores: the PE we wait for may need
 * this core, so go straight to the pausing loop, which yields (4 and 8 PEs
 * on 2 cores, medians of 4 runs with a 16-poll spin against 2048: broadcast 8 B 3.0 ->
 * 2.3 us, barrier 3.9 -> 2.9, reduce 8 B at 8 PEs 16.3 -> 11.5; with none
 * at all, the same within noise). */
enum { SHOAL_WAIT_TIGHT = 64, SHOAL_WAIT_TIGHT_REMOTE = 2048 };
#define SHOAL_WAIT_TIGHT_NOW \
    (shoal.oversubscribed ? 1 : shoal_remote ? SHOAL_WAIT_TIGHT_REMOTE : SHOAL_WAIT_TIGHT)
/* In a job across hosts the polls also read the network every
 * SHOAL_WAIT_TIGHT_POLL of them, unless the wait is for a PE of this
 * machine: on a provider with manual progress (net, tcp) a message already
 * waiting in the socket changes nothing until it is read, and the spin
 * held it ~2 us (1 x 1 hosts, own cores, 3 sets of 10 alternating runs:
 * barrier 14.8 -> 12.7 and 16.5 -> 12.8 us, sum-reduce 1 long 14.3 ->
 * 13.0 and 14.7 -> 12.9, fcollect 8 B 14.2 -> 12.7 and 14.6 -> 13.0, one
 * set within noise); data a PE of this machine stores is still seen within
 * a few hundred polls. */
enum { SHOAL_WAIT_TIGHT_POLL = 256 };
#define SHOAL_WAIT_WHILE_(cond, is_local)                               \
    do {                                                                \
        int shoal_tight_ = SHOAL_WAIT_TIGHT_NOW;                        \
        bool shoal_pause_ = !shoal_remote;                              \
        bool shoal_net_ = shoal_remote && !(is_local);                  \
        while ((cond) && --shoal_tight_) {                              \
            if (shoal_pause_)                                           \
                shoal_cpu_relax();                                      \
            if (shoal_net_ && shoal_tight_ % SHOAL_WAIT_TIGHT_POLL == 0) \
                shoal_poll();                                           \
        }                                                               \
        if (!shoal_tight_) {                                            \
            struct shoal_waiter shoal_w_ = {.local = (is_local)};       \
            while (cond)                                                \
                shoal_waiter_pause(&shoal_w_);                          \
            shoal_waiter_done(&shoal_w_);                               \
        }                                                               \
    } while (0)
#define SHOAL_WAIT_WHILE(cond) SHOAL_WAIT_WHILE_(cond, false)
/* For a condition that only a PE of this machine makes true (a host step
 * of a collective): in a job across hosts its spin polls the network
 * less often (wait.c, poll_this_look). */
#define SHOAL_WAIT_WHILE_LOCAL(cond) SHOAL_WAIT_WHILE_(cond, true)

void shoal_ring(int pe);
void shoal_notify_sleeper(int pe);   /* someone on the host sleeps: perhaps pe */
/* Wake sleepers of PE pe after delivering data to it (cheap when none sleep).
 * No fence here: a fence would make every put wait until its cache line
 * reaches the other core.  A sleeper fences the writers instead, with an
 * asymmetric barrier, before its last re-check (wait.c).  The first look is
 * at one word for the whole host, which a sleeper counts itself in before
 * that barrier, so the argument holds for it too.  A barrier's release that
 * notifies every member read a control block per member, a page each (8 PEs
 * on 2 cores, a barrier loop, 6 alternating runs: median 9.5 us looking at
 * every member, 7.8 looking at none). */
SHOAL_INLINE void shoal_notify(int pe)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);   /* keep program order: data, then the check */
    if (SHOAL_UNLIKELY(__atomic_load_n(shoal.host_sleepers, __ATOMIC_RELAXED)))
        shoal_notify_sleeper(pe);
}

/* ---- progress (core/progress.c) ---- */
/* Hooks called from every wait and from test/progress points; used by the
 * network transport and by split-phase barriers. */
typedef void (*shoal_progress_fn)(void *arg);
void shoal_progress_add(shoal_progress_fn fn, void *arg);
void shoal_progress_remove(shoal_progress_fn fn, void *arg);
void shoal_progress(void);
extern int shoal_progress_n;   /* fast check: 0 means nothing registered */
/* An eventfd the network transport's progress thread watches while the PE
 * polls by itself; a wait writes it before sleeping, so the thread takes
 * over serving peers at once.  -1 when there is no such thread. */
extern int shoal_progress_handover_fd;
/* Requests from peers this process has applied (the network transport
 * counts them): a waiting PE that peers talk to keeps polling (wait.c). */
extern uint64_t shoal_requests_served;
SHOAL_INLINE void shoal_poll(void)
{
    if (SHOAL_UNLIKELY(__atomic_load_n(&shoal_progress_n, __ATOMIC_RELAXED)))
        shoal_progress();
}

#include "rma.h"

/* ---- symmetric memory (mem/) ---- */
/* The heap's base address is a multiple of this, so every PE can use the
 * same offset for an aligned block and still get an aligned address. */
#define SHOAL_HEAP_ALIGN_MAX ((size_t)1 << 30)
/* NULL when no free range fits (any size, even SIZE_MAX) or align > SHOAL_HEAP_ALIGN_MAX. */
void *shoal_heap_alloc(size_t size, size_t align);
void shoal_heap_free(void *ptr);
size_t shoal_heap_usable(void *ptr);                 /* size of the block at ptr */
size_t shoal_heap_high_water(void);                  /* end offset of the furthest block ever allocated */
/* Internal symmetric memory: only at init, in the same order on every PE. */
void *shoal_internal_alloc(size_t size);

/* ---- lifecycle (core/init.c: the base's part; api/lifecycle.c puts the layers together) ---- */
int shoal_core_boot(int requested);   /* launcher and environment; -1 (said why) when not started by one */
/* What a layer above must hold alike on every PE (a table every member of
 * a call chooses from): its hash, and whether this PE's copy is malformed.
 * Carried in the init exchange; `agree` sees every PE's vote before any
 * peer is mapped or reached. */
struct shoal_vote {
    uint64_t hash;
    bool bad;
};
/* symmetric memory with room for the layers, peers */
void shoal_core_attach(size_t internal_bytes, struct shoal_vote mine,
                       void (*agree)(const struct shoal_vote *all, int n_pes));
void shoal_core_ready(void);                     /* every PE set up every layer */
void shoal_core_quiet_all(void);                 /* every endpoint's operations complete */
void shoal_core_barrier(void);                   /* the launcher's barrier */
void shoal_core_fini(void);
_Noreturn void shoal_core_abort(int status);
/* Finalizing at exit (core/at_exit.c): waits, bounded, until every PE has
 * entered its arrival-th shoal_finalize; ends the job naming those that
 * never do or died. */
void shoal_await_finalizers(uint64_t arrival);
static inline bool shoal_initialized(void) { return shoal.init_count > 0; }

#endif
