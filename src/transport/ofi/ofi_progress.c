/* Progress and completion.
 *
 * Providers with manual data progress (tcp;ofi_rxm, udp;ofi_rxd, shm,
 * verbs;ofi_rxm for its emulated atomics, efa for emulated RMA/atomics) move
 * data, including data *arriving* for this PE, only while some thread of
 * this PE reads the CQ.  Every wait of Shoal reads it through a progress
 * hook; a PE that computes without calling Shoal is served by a progress
 * thread that sleeps on a wait set (or a short interval when the
 * provider has none) and stands back while the PE polls by itself.  The
 * thread runs during init in any case; afterwards
 * SHOAL_OFI_PROGRESS_THREAD=auto keeps it only when the provider reports
 * FI_PROGRESS_MANUAL (on/off force it). */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "ofi.h"

static pthread_t thread;
static bool thread_running;
static int stop_fd = -1;
static int handover_fd = -1;   /* shoal_progress_handover_fd while the thread runs */

_Noreturn void shoal_ofi_failed(const char *routine, int pe, const char *what, int err)
{
    if (pe >= 0 && pe < shoal.n_pes)
        shoal_fatal(routine, "network operation to PE %d (host %d) failed: %s (%s); that PE or its host has "
                             "probably died or become unreachable", pe, shoal.peers[pe].host, what,
                    fi_strerror(err < 0 ? -err : err));
    shoal_fatal(routine, "network operation failed: %s (%s)", what, fi_strerror(err < 0 ? -err : err));
}

static _Noreturn void report_cq_error(struct shoal_ofi_ep *e, const char *routine)
{
    struct fi_cq_err_entry err = {0};
    char detail[256] = "";
    if (fi_cq_readerr(e->cq, &err, 0) < 0)
        shoal_ofi_failed(routine, -1, "error completion that could not be read", FI_EOTHER);
    fi_cq_strerror(e->cq, err.prov_errno, err.err_data, detail, sizeof detail);
    uintptr_t ctx = (uintptr_t)err.op_context;   /* a target PE + 1, or a buffer that names none */
    int pe = ctx >= 1 && ctx <= (uintptr_t)shoal.n_pes ? (int)ctx - 1 : -1;
    if (shoal_ofi_connecting)
        shoal_ofi_unreachable(pe, detail[0] ? detail : fi_strerror(err.err));
    shoal_ofi_failed(routine, pe, detail[0] ? detail : "error completion", err.err);
}

/* Read the CQ: it holds errors, the messages of other PEs (ofi_am.c) and
 * the completions of the init-time contact reads (selective completion),
 * and reading it is what drives a manual-progress provider.  One thread at
 * a time: two threads applying batches of messages at once would reorder
 * them, and a thread finding the CQ taken has nothing to add. */
bool shoal_ofi_drain(struct shoal_ofi_ep *e)
{
    struct fi_cq_msg_entry entries[8];
    if (__atomic_load_n(&e->draining, __ATOMIC_RELAXED) || __atomic_exchange_n(&e->draining, 1, __ATOMIC_ACQUIRE))
        return false;
    ssize_t n = fi_cq_read(e->cq, entries, 8);
    if (n == -FI_EAVAIL)
        report_cq_error(e, "shmem (network progress)");
    for (ssize_t i = 0; i < n; i++) {
        void *c = entries[i].op_context;
        if (shoal_ofi_am_owns(c)) {
            shoal_ofi_am_received(c, entries[i].len);
            continue;
        }
        if (!shoal_ofi_bounce_owns(e, c) && !shoal_ofi_signal_owns(e, c)) {
            shoal_ofi_contact_done(c);
            continue;
        }
        if (shoal_ofi_bounce_owns(e, c))
            shoal_ofi_bounce_release(e, c);
        else
            shoal_ofi_signal_written(e, c);
        if (e != &shoal_ofi.main_ep)
            __atomic_fetch_sub(&shoal_ofi.side_completions, 1, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&e->draining, 0, __ATOMIC_RELEASE);
    return n > 0;
}

static void check_errors(struct shoal_ofi_ep *e, struct fid_cntr *c, uint64_t *seen, const char *routine)
{
    uint64_t errs = fi_cntr_readerr(c);
    if (SHOAL_LIKELY(errs <= *seen))
        return;
    *seen = errs;
    shoal_ofi_drain(e);   /* names the PE when the CQ has the entry */
    shoal_ofi_failed(routine, -1, "a remote write, read or atomic completed in error", FI_EIO);
}

enum { WAIT_FDS = 8 };   /* the most descriptors a wait set gives to poll (ofi_ep.c) */

/* Re-arm the wait set before sleeping on it: false when work is pending
 * (its descriptors would read ready at once).  fi_wait with no timeout
 * clears the set's signal, makes progress, then reports what is pending.
 * Where the set hangs on a CQ of its own (ofi_ep.c), that progress may
 * leave entries in the main CQ, which the set does not watch: take them. */
static bool wait_set_armed(void)
{
    if (fi_wait(shoal_ofi.wait_set, 0) != -FI_ETIMEDOUT)
        return false;
    return !shoal_ofi.wake_cq || !shoal_ofi_drain(&shoal_ofi.main_ep);
}

/* Block until the wait set fires (traffic arrived) or a short timeout
 * passes; without a wait object, just the timeout.  With work pending in
 * the CQ it only yields: the caller's next look takes it, or (a waiter
 * inside a CQ read, answer() in ofi_am.c) nobody reads it before the wait
 * ends, and a trywait that fails at once would make the wait a hot spin. */
static void block_briefly(void)
{
    static const struct timespec timeout = {0, 100000};
    struct pollfd fds[WAIT_FDS];
    if (shoal_ofi.wait_set && !wait_set_armed()) {
        sched_yield();
        return;
    }
    nfds_t n = shoal_ofi_wait_fds(fds, WAIT_FDS);
    if (n == 0)
        nanosleep(&timeout, NULL);
    else
        (void)ppoll(fds, n, &timeout, NULL);
}

/* Spin, then yield, then block.  Yielding for ever is not enough: a
 * yielding thread stays runnable, and the kernel's scheduler (EEVDF, with
 * each launcher session a task group of its own) was seen to keep PEs
 * that yield in a loop on both cores for seconds while the PEs they
 * waited for, runnable in another group, did not run at all (4 + 4 PEs
 * on 2 cores: mh_atomicity stalled 3-40 s in a third of its runs, the
 * network silent throughout).  A thread that blocks leaves the run queue.
 * It blocks only after ~0.5-2 ms of yields: blocking after 256 (~0.1 ms)
 * made small operations at 2 hosts x 2 PEs 10-25% slower. */
enum { SPINS = 64, YIELDS = 2048 };

/* A wait that another process must end (a read's data, the answer to a
 * fetching AMO or a flush, a write's acknowledgement) yields after about
 * one network round trip of its spin, PEER_SPIN_NS, when PEs outnumber
 * cores, not after SPINS looks: each look polls the sockets (~1.5 us on
 * tcp), so the 64 looks held the core ~100 us, and the process that must
 * answer may need this very core (hosts sharing a machine's cores; on a
 * node, a neighbour PE that serves).  2 hosts x 2 PEs round-robin, PE 0
 * and its partner pinned to one CPU, medians of 3 alternating runs: put +
 * quiet 110 -> 90 us, get 103 -> 87, fetch-add 79 -> 73; with the partner
 * on the other CPU within noise.  Yielding at the first look did better on
 * one CPU (26, 28, 32 us) but made fetch-add 22 -> 30 us on two (as did
 * yielding after 16 looks, ~13 us of an answer's wait): each yield hands
 * the core to a neighbour for its whole look.  Other waits (a write's
 * local completion, a full send queue) keep the count. */
enum { PEER_SPIN_NS = 30000 };

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

uint64_t shoal_ofi_peer_yield_at(int pe)
{
    return shoal.oversubscribed && pe != shoal.my_pe ? now_ns() + PEER_SPIN_NS : SHOAL_OFI_NO_DEADLINE;
}

static void peer_pause(unsigned *spins, uint64_t yield_at)
{
    if (*spins < SPINS && yield_at != SHOAL_OFI_NO_DEADLINE && now_ns() >= yield_at)
        *spins = SPINS;   /* on to the yields */
    shoal_ofi_pause(spins);
}

void shoal_ofi_pause(unsigned *spins)
{
    unsigned n = ++*spins;
    if (n < SPINS)
        shoal_cpu_relax();
    else if (n < SPINS + YIELDS)
        sched_yield();
    else
        block_briefly();
}

static uint64_t hook_calls;   /* progress_hook runs: a thread of the PE itself is polling */

/* A look of a wait: e, the main endpoint (answers arrive there, and peers
 * are served from it) and the other progress hooks, each CQ read once.  On
 * net and tcp every CQ read polls the sockets, a syscall: a get's wait read
 * the main CQ twice per look, beside the counter read that polls them too
 * (1 x 1 hosts, 20,000 gets: 22 socket polls per get, ~0.8 us each).
 * Inside a progress hook shoal_poll does nothing: then drain directly. */
static void poll_endpoints(struct shoal_ofi_ep *e)
{
    if (e != &shoal_ofi.main_ep)
        shoal_ofi_drain(e);
    uint64_t mark = __atomic_load_n(&hook_calls, __ATOMIC_RELAXED);
    shoal_poll();
    if (__atomic_load_n(&hook_calls, __ATOMIC_RELAXED) == mark)
        shoal_ofi_drain(&shoal_ofi.main_ep);
}

/* The counters' error counts are read one look in ERROR_LOOK_EVERY, and
 * only once a wait is past its spin: each read polls the sockets on net and
 * tcp, and a failed operation is also reported in the CQ, read every look.
 * Read at the first look and every 16th, they cost a fetch-add two socket
 * polls at its start and two more at its 16th look, about when a 1 x 1
 * answer arrives (with core/rma.c's poll before sending: 3.2 socket polls
 * per fetch-add, 1.3-2.9 us above the bare message round trip it is in
 * bench/multihost/mh_overhead.c; 1.1 and 0.7-2.4 after). */
enum { ERROR_LOOK_EVERY = 16 };

static bool error_look(unsigned looks)
{
    return looks >= SPINS && looks % ERROR_LOOK_EVERY == 0;
}

/* A counter counts completions, not which operations completed: with
 * several threads on one endpoint, another thread's later read can
 * complete before mine, so "the counter reached the number issued when I
 * began" does not mean mine is done (two threads reducing on their own
 * teams across hosts, each reading its partners' sources on the
 * collectives' endpoint, used data not yet arrived: tests/stress across 1,3,2 hosts
 * failed 30 runs of 30).  So a wait ends when every operation issued so
 * far is complete: `completed` is read first, then `issued`, which is
 * counted before its operation is posted (ofi_rma.c, ofi_amo.c), so the
 * completions then counted were of operations issued by then, all of them. */
static bool all_complete(uint64_t completed, const uint64_t *issued)
{
    return completed >= __atomic_load_n(issued, __ATOMIC_ACQUIRE);
}

/* A counter already seen at or past what was issued needs no read (a
 * quiet with nothing outstanding polled the sockets twice for nothing).
 * The CQs (peers' messages, the other progress hooks) are drained every
 * other look: reading the counter progresses its endpoint too (a socket
 * poll on net and tcp), so a look that also drained polled the sockets
 * twice, and an answer the drain picked up still waited for the counter's
 * own poll before the call could return.  1 x 1 hosts, own cores, batches
 * of 100 gets alternating between the two ways in one run, 14 runs: median
 * -0.22 us of 13-20 (-0.49 to +0.09; 10 of 14 faster); put + quiet within
 * noise (-0.29 to +0.40).  Peers' messages wait at most one more look. */
static void wait_counter(struct shoal_ofi_ep *e, struct fid_cntr *c, const uint64_t *issued, uint64_t *done,
                         uint64_t *seen, bool peer, const char *routine)
{
    if (all_complete(__atomic_load_n(done, __ATOMIC_ACQUIRE), issued))
        return;
    unsigned spins = 0;
    uint64_t now, yield_at = peer ? shoal_ofi_peer_yield_at(-1) : SHOAL_OFI_NO_DEADLINE;
    while (!all_complete(now = fi_cntr_read(c), issued)) {
        if (error_look(spins))
            check_errors(e, c, seen, routine);
        if (spins % 2)
            poll_endpoints(e);
        peer_pause(&spins, yield_at);
    }
    __atomic_store_n(done, now, __ATOMIC_RELEASE);   /* a value read: never past what completed */
}

void shoal_ofi_wait_writes(struct shoal_ofi_ep *e, const char *routine)
{
    wait_counter(e, e->wcntr, &e->writes, &e->wdone, &e->werrs, false, routine);
}

void shoal_ofi_wait_reads(struct shoal_ofi_ep *e, const char *routine)
{
    wait_counter(e, e->rcntr, &e->reads, &e->rdone, &e->rerrs, true, routine);
}

/* Reading back costs the initiator a second message after its write;
 * acknowledging costs the target one per write.  A quiet after each single
 * put (put + quiet loops) is cheaper acknowledged (1x1, put 8 B + quiet:
 * read back ~37 us, acknowledged ~19); puts that no quiet follows soon
 * (a put + wait_until ping-pong: 7.6 against 17.4 us one-way) and many
 * puts per quiet are cheaper read back.  So each quiet picks the way of
 * the writes that follow from how many it covered. */
static void choose_write_completion(struct shoal_ofi_ep *e)
{
    uint64_t writes = __atomic_load_n(&e->writes, __ATOMIC_ACQUIRE);
    __atomic_store_n(&e->ack_writes, writes - __atomic_load_n(&e->writes_at_quiet, __ATOMIC_RELAXED) <= 1,
                     __ATOMIC_RELAXED);
    __atomic_store_n(&e->writes_at_quiet, writes, __ATOMIC_RELAXED);
}

/* ... and a second write since the last quiet goes back to reading back. */
bool shoal_ofi_ack_this_write(struct shoal_ofi_ep *e)
{
    if (!__atomic_load_n(&e->ack_writes, __ATOMIC_RELAXED))
        return false;
    if (__atomic_load_n(&e->writes, __ATOMIC_RELAXED) == __atomic_load_n(&e->writes_at_quiet, __ATOMIC_RELAXED))
        return true;
    __atomic_store_n(&e->ack_writes, false, __ATOMIC_RELAXED);
    return false;
}

/* Put-with-signals whose write completed have their signal sent: their
 * completions are queued, reading them sends it. */
void shoal_ofi_await_signals_sent(struct shoal_ofi_ep *e, const char *routine)
{
    unsigned tries = 0;
    while (__atomic_load_n(&e->signals_unsent, __ATOMIC_ACQUIRE))
        shoal_ofi_retry_pause(e, &tries, routine);
}

void shoal_ofi_quiet_ep(struct shoal_ofi_ep *e, const char *routine)
{
    uint64_t fences = __atomic_load_n(&e->fences, __ATOMIC_ACQUIRE);   /* this quiet settles them */
    bool acknowledged = __atomic_load_n(&e->ack_writes, __ATOMIC_RELAXED);   /* the writes since the last quiet */
    if (shoal_ofi.flush_read)
        choose_write_completion(e);
    pthread_mutex_lock(&e->operand_lock);
    unsigned used = e->operands_used;
    uint64_t freed = e->operands_freed;
    pthread_mutex_unlock(&e->operand_lock);
    wait_counter(e, e->wcntr, &e->writes, &e->wdone, &e->werrs, acknowledged, routine);
    shoal_ofi_await_signals_sent(e, routine);
    shoal_ofi_flush(e, routine);   /* messages (those signals among them) and writes marked since the last */
    shoal_ofi_am_await_flushes(e, routine);
    shoal_ofi_wait_reads(e, routine);
    __atomic_store_n(&e->fences_done, fences, __ATOMIC_RELEASE);
    /* The operations of the slots taken before the wait are done (see
     * operand_slot); slots taken meanwhile by other threads stay.  The
     * count alone could not tell: another thread's quiet may have freed
     * them all and others taken as many again, whose answers are still
     * due (four threads' non-blocking fetch-adds across hosts: answers
     * written into slots given to later operations, 4 runs in 24). */
    pthread_mutex_lock(&e->operand_lock);
    if (e->operands_used == used && e->operands_freed == freed) {
        e->operands_used = 0;
        e->operands_freed++;
    }
    pthread_mutex_unlock(&e->operand_lock);
}

/* The provider's queue is full (or, for rxm, a connection is being set up),
 * or an answer is awaited: make progress and try again.  Answers arrive at
 * the main endpoint, drained directly: inside a progress hook shoal_poll
 * does nothing. */
void shoal_ofi_retry_pause(struct shoal_ofi_ep *e, unsigned *tries, const char *routine)
{
    shoal_ofi_answer_pause(e, tries, SHOAL_OFI_NO_DEADLINE, routine);
}

void shoal_ofi_answer_pause(struct shoal_ofi_ep *e, unsigned *tries, uint64_t yield_at, const char *routine)
{
    if (error_look(*tries)) {
        check_errors(e, e->wcntr, &e->werrs, routine);
        check_errors(e, e->rcntr, &e->rerrs, routine);
    }
    poll_endpoints(e);
    peer_pause(tries, yield_at);
}

/* ---- progress hook and thread ---- */

/* Context endpoints are read by their own waits; a signal or bounce buffer
 * waiting there for its write's completion is read by every progress call,
 * so a PE waiting for something else still sends it. */
static void drain_side_endpoints(void)
{
    if (!__atomic_load_n(&shoal_ofi.side_completions, __ATOMIC_ACQUIRE) ||
        pthread_mutex_trylock(&shoal_ofi.eps_lock) != 0)
        return;
    for (struct shoal_ofi_ep *e = shoal_ofi.eps; e; e = e->next)
        if (e != &shoal_ofi.main_ep)
            shoal_ofi_drain(e);
    pthread_mutex_unlock(&shoal_ofi.eps_lock);
}

static void progress_hook(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&hook_calls, 1, __ATOMIC_RELAXED);
    shoal_ofi_drain(&shoal_ofi.main_ep);
    drain_side_endpoints();
}

static bool pe_asleep(void)
{
    struct shoal_pe_ctl *c = __atomic_load_n(&shoal.my_ctl, __ATOMIC_ACQUIRE);   /* set after the thread starts */
    return c && __atomic_load_n(&c->sleepers, __ATOMIC_RELAXED);
}

/* Traffic arrived while this PE may sleep in a wait: wake it to look.  Not
 * after an interval with none: a woken PE polls again for a while (wait.c),
 * so an idle PE woken at every interval never stopped polling, and took
 * the cores from busy ones (2 hosts x 2 PEs on 2 cores: the two idle PEs
 * yielded ~200,000 times in a run in which the others' puts and gets took
 * 250 us instead of 25). */
static void wake_own_waiters(void)
{
    if (pe_asleep())
        shoal_ring(shoal.my_pe);
}

static bool stop_requested(struct pollfd *stop, const struct timespec *timeout)
{
    return ppoll(stop, 1, timeout, NULL) > 0 && (stop->revents & POLLIN);
}

/* Standing back: sleep until the PE hands over (it is about to sleep), or
 * the look interval passes; false when asked to stop. */
static bool stand_back(int stop, const struct timespec *timeout)
{
    struct pollfd fds[2] = {{stop, POLLIN, 0}, {handover_fd, POLLIN, 0}};
    if (ppoll(fds, 2, timeout, NULL) <= 0)
        return true;
    if (fds[0].revents & POLLIN)
        return false;
    uint64_t count;
    if (read(handover_fd, &count, sizeof count) < 0) {
        /* EAGAIN: another look drained it; nothing to do */
    }
    return true;
}

/* Block until traffic arrives or the interval passes; false when asked to
 * stop.  *quiet: the interval passed with no traffic (known only with a
 * wait object). */
static bool await_traffic(const struct timespec *interval, unsigned *busy, bool *quiet)
{
    static const struct timespec now = {0, 0};
    struct pollfd fds[1 + WAIT_FDS] = {{stop_fd, POLLIN, 0}};
    *quiet = false;
    if (!shoal_ofi.wait_set)
        return !stop_requested(&fds[0], interval);   /* no wait object: a fixed interval */
    if (!wait_set_armed() && ++*busy < 64) {
        sched_yield();                                /* work is pending: go round again */
        return !stop_requested(&fds[0], &now);
    }
    *busy = 0;
    nfds_t n = shoal_ofi_wait_fds(&fds[1], WAIT_FDS);
    int ready = ppoll(fds, 1 + n, interval, NULL);
    *quiet = ready == 0 && n > 0;
    return !(ready > 0 && (fds[0].revents & POLLIN));
}

/* The thread serves the PE's peers while the PE computes.  While the PE
 * polls by itself (it waits inside Shoal) the thread stands back: two
 * threads taking turns at one endpoint only slow it down, most of all when
 * PEs outnumber cores (measured: a 6-PE collectives test on 2 cores took
 * 57 s with a thread that always drained, 34 s with none).  Standing back
 * it does not watch the traffic (every arrival would wake it for nothing);
 * it only looks every STAND_BACK_US whether the PE still polls, so a PE
 * that goes back to computing with traffic in flight waits at most that
 * long; a PE about to sleep in a wait hands over at once (handover_fd).
 * Each look takes a core from a polling PE for a moment: at 1 PE per host
 * on 2 cores (bench/multihost/mh_small.c, medians / p99 in us) looking
 * every 100 us gave put + quiet 32.9 / 107, get 32.4 / 115, fetch-add
 * 26.0 / 152; every 500 us 19.7 / 79, 19.0 / 92, 21.2 / 77 (no thread at
 * all: ~20 us medians).  (Standing back a whole polling interval, 1 ms,
 * without the hand-over was once the multi-millisecond tail of small
 * operations across hosts.) */
enum { STAND_BACK_US = 500 };

/* Stand back until the PE stops polling or hands over; false when asked to
 * stop.  The looks come after STAND_BACK_US, then twice as long each time
 * up to SHOAL_OFI_STAND_BACK_MAX_US: each look wakes the thread and takes
 * a core from a polling PE for a moment, and where PEs and threads
 * outnumber cores, a look every 0.5 ms by every thread of 16 PEs on 2
 * cores cost their collectives about half their time (8 hosts x 2 PEs,
 * 8 alternating runs, medians, looks growing to 8 ms against every 0.5 ms:
 * barrier 1862 -> 1123 us, broadcast 8 B 1131 -> 496, sum-reduce 64 Ki
 * longs 21.1 -> 14.1 ms; 2 x 2 round-robin: barrier 77 -> 55, broadcast
 * 8 B 47 -> 24; 1 x 1 unchanged).  The cost: a PE that leaves Shoal after
 * polling for a while waits up to the longest interval for its thread. */
static bool stand_back_while_polling(const struct timespec *first)
{
    long long longest = shoal_cfg.ofi_stand_back_max_us * 1000LL;
    long long ns = first->tv_sec * 1000000000LL + first->tv_nsec;
    uint64_t mark;
    do {
        mark = __atomic_load_n(&hook_calls, __ATOMIC_RELAXED);
        struct timespec interval = {(time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL)};
        if (!stand_back(stop_fd, &interval))
            return false;
        ns = ns * 2 < longest ? ns * 2 : longest;
    } while (__atomic_load_n(&hook_calls, __ATOMIC_RELAXED) != mark && !pe_asleep());
    return true;
}

/* With a wait object the thread's timeout is only a safety net (traffic
 * wakes it), so each interval that passes with no traffic doubles the
 * next, up to QUIET_GROWTH times SHOAL_OFI_PROGRESS_INTERVAL_US; traffic
 * sets it back.  Not while a context's write waits for its completion
 * (drain_side_endpoints).  Every idle thread waking each 1 ms was, on a
 * crowded host, the tail of the PEs that work (2 hosts x 4 PEs on 2 cores,
 * single fetch-adds while six PEs sleep: ~3x slower calls in clusters once
 * a millisecond; with the sleeps of wait.c, p99 / median 4.5-5.4 -> 2.5-2.8).
 * A thread that misses an event (none known) is late by at most 16 ms
 * while its PE computes; a PE waiting in Shoal polls by itself. */
enum { QUIET_GROWTH = 16 };

static void next_interval(struct timespec *interval, bool quiet)
{
    long long first = shoal_cfg.ofi_progress_interval_us * 1000LL, ns = first;
    if (quiet && !__atomic_load_n(&shoal_ofi.side_completions, __ATOMIC_ACQUIRE)) {
        ns = 2 * (interval->tv_sec * 1000000000LL + interval->tv_nsec);
        if (ns > QUIET_GROWTH * first)
            ns = QUIET_GROWTH * first;
    }
    *interval = (struct timespec){(time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL)};
}

static void *progress_main(void *arg)
{
    (void)arg;
    struct timespec interval;
    next_interval(&interval, false);
    struct timespec stand_back_interval = {0, STAND_BACK_US * 1000L};
    unsigned busy = 0;
    bool quiet;
    uint64_t mark = __atomic_load_n(&hook_calls, __ATOMIC_RELAXED);
    for (;;) {
        if (!await_traffic(&interval, &busy, &quiet))
            break;
        next_interval(&interval, quiet);
        /* The PE polled while we waited: it takes this arrival itself,
         * and the ones after it for as long as it keeps polling (going
         * back to waiting for traffic between looks woke this thread at
         * each arrival, just when the PE needs the core: 1x1 p99 of put +
         * quiet 78-83 us against 54-66 standing back throughout).  Also
         * where PEs outnumber cores: 2 hosts x 2 PEs on 2 cores ran
         * barrier 72-85 us against 165-305 with this thread serving
         * whenever it woke, fcollect 134-222 against 420-730. */
        if (__atomic_load_n(&hook_calls, __ATOMIC_RELAXED) != mark && !pe_asleep() &&
            !stand_back_while_polling(&stand_back_interval))
            break;
        shoal_ofi_drain(&shoal_ofi.main_ep);
        drain_side_endpoints();
        if (!quiet)
            wake_own_waiters();
        mark = __atomic_load_n(&hook_calls, __ATOMIC_RELAXED);
    }
    return NULL;
}

static bool want_thread(void)
{
    const char *mode = shoal_cfg.ofi_progress_thread;
    if (!strcasecmp(mode, "on") || !strcasecmp(mode, "1") || !strcasecmp(mode, "yes"))
        return true;
    if (!strcasecmp(mode, "off") || !strcasecmp(mode, "0") || !strcasecmp(mode, "no"))
        return false;
    if (strcasecmp(mode, "auto") != 0)
        shoal_fatal("shmem_init", "SHOAL_OFI_PROGRESS_THREAD=\"%s\": use auto, on or off", mode);
    /* Messages are applied only by reading the CQ, whatever the provider. */
    return shoal_ofi.am || shoal_ofi.info->domain_attr->data_progress != FI_PROGRESS_AUTO;
}

static void stop_thread(void)
{
    if (thread_running) {
        uint64_t one = 1;
        if (write(stop_fd, &one, sizeof one) != sizeof one)
            shoal_warn("shmem_finalize", "could not stop the network progress thread");
        pthread_join(thread, NULL);
        thread_running = false;
    }
    /* No PE thread waits here (init, or finalize), so none still holds the fd. */
    __atomic_store_n(&shoal_progress_handover_fd, -1, __ATOMIC_RELEASE);
    if (stop_fd >= 0)
        close(stop_fd);
    if (handover_fd >= 0)
        close(handover_fd);
    stop_fd = handover_fd = -1;
}

/* The thread runs through init in any case: connecting needs every PE to
 * answer, also one that already waits in the bootstrap's barrier (which
 * may not drive progress hooks, e.g. oshrun's).  shoal_ofi_progress_settle
 * then keeps it or not. */
void shoal_ofi_progress_start(void)
{
    shoal_progress_add(progress_hook, NULL);
    stop_fd = eventfd(0, EFD_CLOEXEC);
    handover_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (stop_fd < 0 || handover_fd < 0 || pthread_create(&thread, NULL, progress_main, NULL) != 0) {
        shoal_warn("shmem_init", "could not start the network progress thread (%s); remote operations "
                                 "complete only while the target PE calls Shoal", strerror(errno));
        return;
    }
    thread_running = true;
    __atomic_store_n(&shoal_progress_handover_fd, handover_fd, __ATOMIC_RELEASE);
}

void shoal_ofi_progress_settle(void)
{
    if (!want_thread())
        stop_thread();
}

bool shoal_ofi_progress_thread_on(void)
{
    return thread_running;
}

void shoal_ofi_progress_stop(void)
{
    shoal_progress_remove(progress_hook, NULL);
    stop_thread();
}
