/* Transport "ofi": PEs on other hosts, over libfabric RDM endpoints.
 *
 * Every PE registers its two symmetric segments (globals, heap; the heap
 * maybe in chunks as it is used, ofi_mr.c) and publishes its endpoint
 * address, keys and segment bases through the bootstrap.  A remote address
 * is (segment, offset): the offset itself (within its chunk), or the peer's
 * base plus the offset when the provider wants virtual addresses
 * (FI_MR_VIRT_ADDR), so ASLR and PIE need nothing special.
 *
 * Completion is counted, not queued: each endpoint has a write counter
 * (puts, non-fetching AMOs) and a read counter (gets, fetching AMOs); quiet
 * waits until each counter reaches the number of operations issued.  Every
 * operation is posted with FI_DELIVERY_COMPLETE, so a counted write is
 * visible at its target, except writes where quiet reads back instead
 * (ofi_flush.c).  The CQ only receives errors and the init-time
 * contact reads (selective completion); an operation's context is its
 * target PE + 1, so a failure names the PE. */
#ifndef SHOAL_OFI_H
#define SHOAL_OFI_H

#include <poll.h>
#include <pthread.h>
#include <strings.h>
#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include "../../core/shoal.h"

enum { SHOAL_OFI_ADDR_MAX = 160 };   /* endpoint names: sockaddr_in6 is 28, efa/cxi/opx fit too */
enum { SHOAL_OFI_OPERANDS = 256 };   /* operand slots per endpoint (see ofi_amo.c) */
/* Blocking puts' copies (ofi_rma.c), and put_signals of up to 8 KiB with
 * their message header (ofi_am.c). */
enum { SHOAL_OFI_BOUNCES = 32, SHOAL_OFI_BOUNCE_SIZE = 8192 + 64 };
/* Messages (ofi_am.c): an injected one is at most SHOAL_OFI_AM_BUF bytes; a
 * put_signal sent from a bounce buffer fills it, so receives take that. */
enum { SHOAL_OFI_AM_RX = 64, SHOAL_OFI_AM_BUF = 128, SHOAL_OFI_AM_RX_BYTES = SHOAL_OFI_BOUNCE_SIZE };
enum { SHOAL_OFI_SIGNALS = 32 };   /* put_signals whose signal waits for their write (ofi_rma.c) */

/* A put_signal whose data does not fit in one message: its signal is sent
 * when the write's completion is read. */
struct shoal_ofi_signal {
    uint64_t sig_off, signal;
    int pe, sig_seg, sig_op;
    bool waiter;        /* a blocking caller waits for `sent`, then frees the record */
    bool awaited;       /* the signal's context is awaited (see shoal_ctx) */
    char *bounce;       /* the data's copy, or NULL: written from the caller's buffer */
    uint32_t sent;
};

struct shoal_ofi_ep;
/* Operands of an AMO that must outlive the call, and where its answer goes. */
struct shoal_ofi_operand {
    uint64_t value, cond;
    void *fetch;                /* the caller's result buffer, NULL for a flush */
    struct shoal_ofi_ep *ep;    /* counts the answer */
    uint32_t size;
    uint32_t answered;          /* set last: a blocking caller may then drop it */
};

/* One endpoint: the default context's, or one per shmem_ctx. */
struct shoal_ofi_ep {
    struct fid_ep *ep;
    struct fid_cq *cq;              /* errors (and the init-time contact reads) */
    struct fid_cntr *wcntr, *rcntr; /* completed writes / reads */
    uint64_t writes, reads;         /* operations issued (atomic: THREAD_MULTIPLE) */
    uint64_t werrs, rerrs;          /* counter errors already reported */
    uint64_t wdone, rdone;          /* the counters' last values read: no poll while they cover `writes`/`reads` */
    uint8_t draining;               /* a thread reads the CQ: messages are applied in arrival order */
    char *bounce;                   /* SHOAL_OFI_BOUNCES buffers, made at first use */
    uint32_t bounce_free;           /* bit i: buffer i is free */
    struct shoal_ofi_signal signals[SHOAL_OFI_SIGNALS];
    uint32_t signals_used;          /* bit i: signals[i] is taken */
    uint64_t signals_unsent;        /* written data whose signal is not yet sent: quiet waits for them */
    /* AMO operands that must outlive the call (non-blocking fetching AMOs). */
    pthread_mutex_t operand_lock;
    unsigned operands_used;
    uint64_t operands_freed;        /* times every slot was given back: a quiet frees only what it saw */
    struct shoal_ofi_operand operand[SHOAL_OFI_OPERANDS];
    /* Messages (ofi_am.c): answers asked for and arrived (fetching AMOs, flushes). */
    uint64_t am_asked, am_answered;
    struct shoal_ofi_operand am_flush_answer;   /* the token of flushes */
    /* What the next quiet must flush (ofi_flush.c). */
    pthread_mutex_t dirty_lock;
    uint8_t *dirty;                 /* per world PE: SHOAL_OFI_MESSAGED | SHOAL_OFI_WROTE since the last flush */
    int *pending;                   /* the PEs with a mark */
    unsigned npending;
    uint64_t flush_sink;            /* flush reads land here */
    uint64_t writes_at_quiet;       /* `writes` when the last quiet began */
    uint64_t fences, fences_done;   /* fences asked for, and the last one a quiet completed (lazy fence) */
    bool ack_writes;                /* the last quiet covered one write at most: acknowledge writes */
    struct shoal_ofi_ep *next;      /* all endpoints, for finalize */
};

/* What each PE publishes about itself. */
struct shoal_ofi_card {
    uint8_t addr[SHOAL_OFI_ADDR_MAX];
    uint32_t addrlen;
    uint64_t key[SHOAL_NSEGS];
    uint64_t base[SHOAL_NSEGS];
};

struct shoal_ofi {
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    /* Registered regions (ofi_mr.c): 0 the global data, 1 + k the heap's chunk k. */
    struct fid_mr **mr;             /* [region] */
    uint64_t *key;                  /* [region * n_pes + pe] */
    uint64_t *base;                 /* [pe * SHOAL_NSEGS + seg]: remote address of offset 0 (virtual addressing) */
    unsigned chunk_shift;           /* heap chunks of 2^shift bytes; 63: the heap is one region */
    unsigned heap_chunks, heap_registered, regions;
    bool virt;                      /* FI_MR_VIRT_ADDR: remote addresses are virtual, else offsets in a region */
    struct shoal_ofi_ep main_ep;    /* the default context's; peers target this one */
    struct shoal_ofi_ep *eps;       /* every open endpoint, main_ep among them */
    pthread_mutex_t eps_lock;
    fi_addr_t *addr;                /* per world PE */
    size_t inject_size;
    size_t max_msg;
    bool ordered_writes;            /* provider orders writes and atomics to a target: fence is free */
    bool sends_after_writes;        /* FI_ORDER_SAW: a message is delivered after the writes posted before it */
    bool am;                        /* AMOs and signals travel as messages the target's CPU applies */
    bool am_long;                   /* a put_signal up to a bounce buffer is one message too (ofi_am.c) */
    bool flush_read;                /* writes go without delivery-complete; quiet reads back from their PEs */
    uint64_t side_completions;      /* completions to read on context endpoints (progress reads them too) */
    char (*am_rx)[SHOAL_OFI_AM_RX_BYTES];   /* the main endpoint's posted receive buffers */
    struct fid_wait *wait_set;      /* the progress thread's wait object (a set of our own), NULL when none */
    enum fi_wait_obj wait_obj;      /* the set's kind: FI_WAIT_FD (one epoll fd) or FI_WAIT_POLLFD (a list) */
    struct fid_cq *wake_cq;         /* the CQ the set hangs on where not the main CQ (ofi_ep.c), else NULL */
    const char *prov;
};
extern struct shoal_ofi shoal_ofi;

/* ofi_init.c */
int shoal_ofi_init(void);
void shoal_ofi_quiet_all(void);
void shoal_ofi_fini(void);

/* ofi_ep.c */
int shoal_ofi_ep_open(struct shoal_ofi_ep *e, bool want_wait);
nfds_t shoal_ofi_wait_fds(struct pollfd *fds, nfds_t max);
void shoal_ofi_ep_close(struct shoal_ofi_ep *e);
struct shoal_ofi_ep *shoal_ofi_ep_of(struct shoal_ctx *ctx);

/* ofi_connect.c */
void shoal_ofi_connect_peers(void);
void shoal_ofi_connect_fini(void);
void shoal_ofi_peer_name(int pe, char *buf, size_t len);
/* A successful completion (only the init-time contact reads ask for one),
 * whichever thread read the CQ; and an error completion during init. */
void shoal_ofi_contact_done(void *op_context);
_Noreturn void shoal_ofi_unreachable(int pe, const char *why);
extern bool shoal_ofi_connecting;

/* ofi_rma.c, ofi_amo.c */
bool shoal_ofi_bounce_owns(struct shoal_ofi_ep *e, const void *op_context);
void shoal_ofi_bounce_release(struct shoal_ofi_ep *e, const void *buf);   /* its write completed */
/* Counted in e->reads, so wait_reads covers it. */
void shoal_ofi_post_read(struct shoal_ofi_ep *e, void *dst, size_t len, int pe, int seg, size_t off,
                         const char *routine);
bool shoal_ofi_signal_owns(struct shoal_ofi_ep *e, const void *op_context);
char *shoal_ofi_bounce_take(struct shoal_ofi_ep *e);   /* a free buffer of e, or NULL */
void shoal_ofi_signal_written(struct shoal_ofi_ep *e, void *op_context);   /* send the signal */
extern const struct shoal_remote_ops shoal_ofi_ops;
void shoal_ofi_amo(struct shoal_ctx *ctx, enum shoal_amo_op op, size_t size, int seg, size_t off, void *fetch,
                   const void *value, const void *cond, int pe, bool nbi);
bool shoal_ofi_atomics_supported(char *missing, size_t len);

/* ofi_am.c: messages that the target's progress applies with CPU atomics */
bool shoal_ofi_am_wanted(void);         /* provider list + SHOAL_OFI_ATOMICS; needs FI_ORDER_SAS */
bool shoal_ofi_am_long_wanted(void);    /* after shoal_ofi.am is set */
int shoal_ofi_am_start(void);           /* posts the main endpoint's receives */
void shoal_ofi_am_stop(void);
bool shoal_ofi_am_owns(const void *op_context);   /* a completion of one of our receives */
void shoal_ofi_am_received(void *buf, size_t len);  /* apply the message, post the buffer again */
void shoal_ofi_am_amo(struct shoal_ofi_ep *e, enum shoal_amo_op op, size_t size, int seg, size_t off, void *fetch,
                      const void *value, const void *cond, int pe, bool nbi, bool awaited);
bool shoal_ofi_am_put_signal(struct shoal_ofi_ep *e, int seg, size_t off, const void *src, size_t n, int sig_seg,
                             size_t sig_off, uint64_t signal, int sig_op, int pe, bool awaited);
bool shoal_ofi_am_put_behind_messages(struct shoal_ofi_ep *e, int seg, size_t off, const void *src, size_t n, int pe);
/* awaited: the target waits for this message within the same call (a
 * collective's flag), so it is not flushed by quiet (see shoal_ctx). */
void shoal_ofi_am_send_flush(struct shoal_ofi_ep *e, int pe, const char *routine);   /* answered when all before it is applied */
void shoal_ofi_am_await_flushes(struct shoal_ofi_ep *e, const char *routine);

/* ofi_flush.c: the PEs a quiet must flush, and the flush */
enum { SHOAL_OFI_MESSAGED = 1, SHOAL_OFI_WROTE = 2, SHOAL_OFI_LISTED = 4 };
bool shoal_ofi_flush_read_wanted(void);   /* provider + SHOAL_OFI_FLUSH_READ */
int shoal_ofi_flush_init(struct shoal_ofi_ep *e);
void shoal_ofi_flush_fini(struct shoal_ofi_ep *e);
void shoal_ofi_mark(struct shoal_ofi_ep *e, int pe, unsigned what);   /* after posting the operation */
void shoal_ofi_flush(struct shoal_ofi_ep *e, const char *routine);   /* the caller waits for answers and reads */
bool shoal_ofi_lazy_fence(void);          /* fence orders by need (tcp, with messages): see ofi_flush.c */
/* Before a put (next = SHOAL_OFI_WROTE) or a message (SHOAL_OFI_MESSAGED)
 * to pe: what a fence since the last quiet still owes pe. */
void shoal_ofi_fence_owed(struct shoal_ofi_ep *e, int pe, unsigned next, const char *routine);
SHOAL_INLINE void shoal_ofi_fence_before(struct shoal_ofi_ep *e, int pe, unsigned next, const char *routine)
{
    if (__atomic_load_n(&e->fences, __ATOMIC_ACQUIRE) != __atomic_load_n(&e->fences_done, __ATOMIC_ACQUIRE))
        shoal_ofi_fence_owed(e, pe, next, routine);
}
struct shoal_ofi_operand *shoal_ofi_operand_slot(struct shoal_ofi_ep *e, const void *value, const void *cond,
                                                 size_t size);

/* ofi_progress.c */
bool shoal_ofi_drain(struct shoal_ofi_ep *e);   /* reads the CQ: drives a manual-progress provider; true: it held entries */
void shoal_ofi_wait_writes(struct shoal_ofi_ep *e, const char *routine);
void shoal_ofi_wait_reads(struct shoal_ofi_ep *e, const char *routine);
void shoal_ofi_quiet_ep(struct shoal_ofi_ep *e, const char *routine);
void shoal_ofi_await_signals_sent(struct shoal_ofi_ep *e, const char *routine);
bool shoal_ofi_ack_this_write(struct shoal_ofi_ep *e);   /* delivery-complete, not read back by quiet */
void shoal_ofi_retry_pause(struct shoal_ofi_ep *e, unsigned *tries, const char *routine);
/* Waits that another process must end: yield_at from shoal_ofi_peer_yield_at(target PE, or -1 for
 * any other) when the wait begins; SHOAL_OFI_NO_DEADLINE: the spin is SPINS looks. */
enum { SHOAL_OFI_NO_DEADLINE = 0 };
uint64_t shoal_ofi_peer_yield_at(int pe);
void shoal_ofi_answer_pause(struct shoal_ofi_ep *e, unsigned *tries, uint64_t yield_at, const char *routine);
void shoal_ofi_pause(unsigned *tries);   /* one pause of a wait: spin, then yield, then block briefly */
void shoal_ofi_progress_start(void);    /* the progress hook, and the thread (always, during init) */
void shoal_ofi_progress_settle(void);   /* after init: the thread stays only when wanted */
bool shoal_ofi_progress_thread_on(void);
void shoal_ofi_progress_stop(void);
_Noreturn void shoal_ofi_failed(const char *routine, int pe, const char *what, int err);

/* ofi_mr.c */
void shoal_ofi_mr_register(struct shoal_ofi_card *card);   /* global data, the heap (or its first chunk) */
void shoal_ofi_mr_publish(const struct shoal_ofi_card *all);
void shoal_ofi_mr_grow_internal(void);   /* after publish: the rest of the heap's internal part */
void shoal_ofi_mr_heap_used(size_t end);
void shoal_ofi_mr_close(void);

/* Bytes from (seg, off) to the end of its registered region: an operation
 * must not cross one. */
SHOAL_INLINE size_t shoal_ofi_region_left(int seg, size_t off)
{
    if (seg != SHOAL_SEG_HEAP)
        return SIZE_MAX;
    size_t size = (size_t)1 << shoal_ofi.chunk_shift;
    return size - (off & (size - 1));
}
/* Remote address of (seg, off) on pe. */
SHOAL_INLINE uint64_t shoal_ofi_raddr(int pe, int seg, size_t off)
{
    size_t rel = shoal_ofi.virt || seg != SHOAL_SEG_HEAP ? off : off & (((size_t)1 << shoal_ofi.chunk_shift) - 1);
    return shoal_ofi.base[pe * SHOAL_NSEGS + seg] + rel;
}
SHOAL_INLINE uint64_t shoal_ofi_key(int pe, int seg, size_t off)
{
    size_t region = seg == SHOAL_SEG_HEAP ? 1 + (off >> shoal_ofi.chunk_shift) : 0;
    return shoal_ofi.key[region * (size_t)shoal.n_pes + (size_t)pe];
}
/* An auto|on|off setting (core/env.def checks the spelling): on and off
 * force it, auto takes `by_default`. */
SHOAL_INLINE bool shoal_ofi_setting(const char *mode, bool by_default)
{
    return !strcasecmp(mode, "on") ? true : !strcasecmp(mode, "off") ? false : by_default;
}
/* Operation context: the target PE, so an error completion can name it. */
SHOAL_INLINE void *shoal_ofi_ctx_of(int pe)
{
    return (void *)(uintptr_t)(pe + 1);
}

/* Operating-system limits (ofi_limits.c): locked memory before registering
 * bytes, open files for a socket per peer. */
bool shoal_ofi_registration_pins(void);
/* Before registering: `bytes` registered in all; lazy: the heap is registered as it is used. */
void shoal_ofi_check_memlock(const char *routine, size_t bytes, bool lazy);
void shoal_ofi_raise_nofile(void);

#endif
