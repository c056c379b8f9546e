/* Waiting without burning the machine.  Jobs often run more PEs than cores:
 * spin briefly (the answer is usually close), then yield, then sleep on this
 * PE's doorbell, which writers ring after delivering data while anyone
 * sleeps.  The sleep has a timeout (sleep_time) because data written through
 * shmem_ptr (plain stores) rings no doorbell.
 *
 * A writer stores its data, then loads `sleepers` with no fence between
 * (a fence would make every put wait for its line to leave the core), so
 * the load may be served before the store is visible.  A sleeper that
 * counted itself in `sleepers` and then re-checked could miss that store,
 * and the writer miss its count: a lost wake.  The sleeper closes the window
 * with an asymmetric fence: membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED)
 * makes every running thread of every process registered for it (all PEs
 * register at init) execute a full barrier before it returns.  A writer
 * interrupted after its store has the store visible before the sleeper's
 * re-check; one interrupted before it loads `sleepers` after the barrier
 * and sees the count.  (The per-process PRIVATE_EXPEDITED form would not
 * reach the other PEs; the plain GLOBAL form waits for an RCU grace period,
 * ~20 ms.)  Where the kernel lacks it, the grace re-checks make a lost wake
 * unlikely and the sleep's timeout bounds it. */
#include <limits.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "shoal.h"

/* Yielding costs ~1 us when nothing else wants the core, and hands the core
 * to the PE we wait for when something does (a busy or oversubscribed
 * host), so a short spin then a yield loop is right in both cases; sleeping
 * comes only after ~0.3 ms of yields. */
enum { YIELDS_BEFORE_SLEEP = 256 };

/* Each wake that finds the condition still false doubles the yields before
 * the next sleep, up to 64x (~3-15 ms), on a PE with a core of its own.  A
 * put stream aimed at a sleeping PE (a PE in a barrier while its partner
 * streams to it) otherwise made the writer pay, every ~0.1 ms, a futex
 * wake and the membarrier interrupt of the sleeper's next look at the
 * doorbell: 2 PEs, 4 MiB puts, 5 alternating runs: 38-42 -> 41-47 GB/s;
 * 256 KiB 31-48 -> 39-50, 1 MiB 40-42 -> 43-47 (memcpy 44-45).  Not with
 * more PEs than cores, where a yielder takes turns from PEs that compute. */
enum { MAX_BACKOFF = 6 };

/* Each wait's backoff starts from what earlier waits taught (a core per PE
 * only): a wait that armed and then ended within QUICK_NS lost more than it
 * saved, since arming costs the membarrier's interrupt of every other
 * CPU running a PE, and waking a sleeper the machine's wake-up latency.
 * On a VM both are ~100 us, longer than the yields before arming (~50 us),
 * so two PEs calling collectives back to back could fall into a steady
 * state where each one's arming and wake-up made the other wait long enough
 * to arm too: a barrier took 130-300 us instead of 0.1-0.3 for whole
 * batches of calls (2 PEs, oshtune_probe barrier, 2 runs in 6: 457
 * membarriers and 197 sleeps in ~1,000 barriers).  A wait that armed and
 * slept for LONG_NS (the PE really was idle) lowers it again. */
enum { QUICK_NS = 1000000, LONG_NS = 50000000 };
static uint8_t learned_backoff;   /* shared by the process's threads: the machine's trait */

uint8_t shoal_wait_learn(uint8_t learned, uint64_t armed_ns, bool crowded)
{
    if (crowded)
        return 0;
    if (armed_ns < QUICK_NS)
        return learned < MAX_BACKOFF ? learned + 1 : learned;
    return armed_ns > LONG_NS && learned ? learned - 1 : learned;
}

/* A PE of a job across hosts is the one that applies its peers' messages
 * and serves their reads while it waits (its progress thread only takes
 * over once it sleeps, a thread wake later, and reads served by the
 * provider ring no doorbell to keep it awake).  So it keeps polling, as MPI
 * libraries do, for 0.1 s before sleeping (yield_this_look): remote
 * operations aimed at it are then answered in one network latency.  Also
 * with more PEs than cores: a yield hands the core to a PE that computes
 * for its whole time slice, so the poller takes little from it (2 hosts x 2 PEs on
 * 2 cores, medians of 6 runs against sleeping after 0.3 ms: fetch-add 54 ->
 * 33 us, barrier 125 -> 78, fcollect 8 B 371 -> 142).  Timed, not
 * counted: a yield with nothing else to run takes about 0.2 us, so the
 * 65536 yields this once counted could end after 13 ms.
 * With more PEs than cores the window is CROWDED_POLL_NS, and it starts
 * again whenever this process has applied a request from a peer
 * (shoal_requests_served: AMOs, signals, flushes): a PE that peers talk
 * to keeps polling, one nobody talks to gets off the CPU sooner, where
 * its turns delayed the PEs that work.  5 ms: longer than the waits inside
 * the collectives of the most crowded shape measured (8 hosts x 2 PEs on
 * 2 cores: alltoall 8 B ~2.5 ms, sum-reduce 64 Ki longs ~3.3 ms; at 2 ms
 * they slowed 3-30%).  Without the restart, a target under a stream of
 * fetch-adds slept and woke at every window: p99 / median 2.9-3.1 ->
 * 3.2-3.4.  bench/multihost/mh_peer.c, 2 runs each against 0.1 s: 8 x 2
 * get and fetch-add 26-139 -> 11.4 us, ping-pong 43-45 -> 6-26; 4 x 2
 * 19.0-19.5 -> 11.0-11.8; 2 x 2 round-robin fetch-add 12.6-12.8 ->
 * 11.4-11.6; collectives within the runs' spread.
 * The waits inside a collective grow with its network rounds, log2 of the
 * hosts, so the window is a third of CROWDED_POLL_NS per round, all of it
 * from 8 hosts on: beyond the waits it must outlast, a poller still takes
 * its turns, whose sum the scheduler keeps near a fair share of the core
 * however often it yields.  2 hosts x 8 PEs on 2 cores (14 PEs waiting in
 * a barrier while two ping-pong), 3 runs each, 5 ms against 1.7: ping-pong
 * one way 20-31 -> 6.9-9.2 us (Open MPI 23), collectives within the runs'
 * spread; 2 x 4 ping-pong 12-15 -> 7.0, 2 x 2 round-robin the same; 4 hosts
 * x 2, 5 against 3.3 ms: ping-pong 19-20 -> 10-15, the rest the same. */
enum { NET_POLL_NS = 100000000, CROWDED_POLL_NS = 5000000, CROWDED_ROUNDS = 3 };

static uint64_t crowded_window(void)
{
    int rounds = 1;
    while (rounds < CROWDED_ROUNDS && (1 << rounds) < shoal.n_hosts)
        rounds++;
    return (uint64_t)CROWDED_POLL_NS / CROWDED_ROUNDS * (uint64_t)rounds;
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Whether to yield again rather than sleep (w->n counts the pauses so far). */
static bool keep_yielding(struct shoal_waiter *w, unsigned spins)
{
    if (!shoal_remote) {
        uint8_t learned = __atomic_load_n(&learned_backoff, __ATOMIC_RELAXED);
        return w->n < spins + (YIELDS_BEFORE_SLEEP << (w->backoff > learned ? w->backoff : learned));
    }
    uint64_t now = now_ns(), served = __atomic_load_n(&shoal_requests_served, __ATOMIC_RELAXED);
    if (w->n == spins || served != w->served) {   /* the first yield, or peers talked to us */
        w->since = now;
        w->served = served;
    }
    return now - w->since < (shoal.oversubscribed ? crowded_window() : NET_POLL_NS);
}

static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *timeout)
{
    return syscall(SYS_futex, word, op, val, timeout, NULL, 0);
}

static bool fence_others;   /* membarrier GLOBAL_EXPEDITED is available and this process registered */

void shoal_wait_init(void)
{
    /* Every PE registers, whatever its own setting: it is a writer to others. */
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    bool registered = cmds > 0 && (cmds & MEMBARRIER_CMD_GLOBAL_EXPEDITED) &&
                      syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED, 0, 0) == 0;
    fence_others = registered && shoal_cfg.wait_fence;
}

/* Every writer's store issued before this is visible after it, or the
 * writer's later load of `sleepers` sees our count (see the top). */
static void fence_writers(void)
{
    if (fence_others)
        syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL_EXPEDITED, 0, 0);
}

/* One wake per sleep: a put loop aimed at a sleeping PE must not make a
 * syscall per put.  The sleeper clears `rung` after reading the doorbell
 * and before re-checking its condition, so a writer that finds `rung` set
 * either rang after that read (the sleep returns at once) or wrote before
 * that re-check (the sleeper sees the data). */
void shoal_notify_sleeper(int pe)
{
    struct shoal_pe_ctl *c = shoal.peers[pe].ctl;
    if (c && __atomic_load_n(&c->sleepers, __ATOMIC_RELAXED))
        shoal_ring(pe);
}

void shoal_ring(int pe)
{
    struct shoal_pe_ctl *c = shoal.peers[pe].ctl;
    if (__atomic_load_n(&c->rung, __ATOMIC_RELAXED) || __atomic_exchange_n(&c->rung, 1, __ATOMIC_SEQ_CST))
        return;
    __atomic_fetch_add(&c->doorbell, 1, __ATOMIC_SEQ_CST);
    futex(&c->doorbell, FUTEX_WAKE, INT_MAX, NULL);
}

static void look_at_doorbell(struct shoal_waiter *w, struct shoal_pe_ctl *c)
{
    w->seq = __atomic_load_n(&c->doorbell, __ATOMIC_SEQ_CST);
    __atomic_store_n(&c->rung, 0, __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    fence_writers();
}

/* The progress thread serves peers while we sleep: wake it now, not at its
 * next look (see shoal_progress_handover_fd). */
static void hand_over(void)
{
    int fd = __atomic_load_n(&shoal_progress_handover_fd, __ATOMIC_ACQUIRE);
    uint64_t one = 1;
    if (fd >= 0 && write(fd, &one, sizeof one) < 0) {
        /* full (never, at 2^64 - 2) or closed at finalize: the thread's own look still comes */
    }
}

/* With more PEs than cores a waiter's spin only delays the PE it waits
 * for, which may need its core.  On one host 8 looks before the first
 * yield beat 20: against the plain-store floor timed beside the calls
 * (bench collectives, "paired"), 3 alternating pairs each, median library
 * / floor, 20 -> 8 looks: 4 PEs on 2 cores barrier 1.03 -> 0.88, reduce
 * 1.15 -> 0.97, fcollect 1.14 -> 0.96, alltoall 1.14 -> 0.96; 8 PEs 1.01
 * -> 0.90, 1.13 -> 1.05, 1.15 -> 0.98, 1.14 -> 1.01 (22 pairs of 24
 * faster); 3 and 16 PEs likewise; broadcasts unchanged.  Across hosts
 * they lost (2 hosts x 2 PEs round-robin on 2 cores, barrier 15.0-15.6 ->
 * 20.0-20.2 us; 2 x 4, 24.6-24.9 -> 32.8-35.2): a leader polling the
 * network gave its core away sooner. */
enum { CROWDED_SPINS = 8, CROWDED_NET_SPINS = 20 };

static unsigned spin_limit(void)
{
    if (!shoal.oversubscribed)
        return (unsigned)shoal_cfg.wait_spin;
    return shoal_remote ? CROWDED_NET_SPINS : CROWDED_SPINS;
}

/* Woken in a job across hosts: poll again as a PE that never slept.  While
 * it counts among the sleepers, its progress thread keeps serving beside it
 * (two threads taking turns at one endpoint) and rings it at every arrival:
 * a PE hammered with gets while it waited in a barrier served them in 37-56
 * us on average after its first sleep, 25 before (1 PE per host, 20,000
 * gets).  Arming again later hands over to the thread again. */
static void count_sleeper(struct shoal_pe_ctl *c, int delta)
{
    __atomic_fetch_add(&c->sleepers, delta, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(shoal.host_sleepers, delta, __ATOMIC_SEQ_CST);
}

static void disarm(struct shoal_waiter *w, struct shoal_pe_ctl *c)
{
    count_sleeper(c, -1);
    w->armed = false;
}

/* A look of the spin while waiting for a PE of this machine that shares
 * our cores: in a job across hosts each network poll costs a socket poll
 * (~1-2 us), so twenty of them held the core ~30 us from the very PE we
 * wait for before the first yield.  Poll one look in LOCAL_POLL_EVERY
 * (peers on other hosts are still served, and at every look once the
 * yields begin).  Hosts with a core each, 2 x 2 round-robin, 8 alternating
 * runs: barrier 53 -> 41 us, sum-reduce 1 long 53 -> 39, broadcast 8 B 29
 * -> 16; 2 x 4: small collectives 0.66-0.72x; p2p within noise. */
enum { LOCAL_POLL_EVERY = 8 };

static bool poll_this_look(const struct shoal_waiter *w, unsigned spins)
{
    return !w->local || !shoal_remote || !shoal.oversubscribed || w->n >= spins || w->n % LOCAL_POLL_EVERY == 0;
}

/* A PE polling for peers on other hosts with a core of its own yields one
 * look in NET_YIELD_EVERY: a yield with nothing else to run is a syscall
 * (~0.3 us here) between two socket polls, which delays serving a peer's
 * request, while its threads (or anything else of its own) still get the
 * core within tens of microseconds.  1 x 1 hosts, own cores, the target
 * waiting while its peer runs batches of 100 calls, the ways alternating
 * in one run, medians of 4 runs against a yield every look (calls of 16-21
 * us): get -0.08 us (-0.24 to +0.16), fetch-add -0.26, put + quiet -0.26;
 * never yielding -0.30, -0.30, -0.39, every run faster.  With more PEs
 * than cores each look yields: the PE we wait for may need this core. */
enum { NET_YIELD_EVERY = 16 };

static bool yield_this_look(const struct shoal_waiter *w)
{
    return !shoal_remote || shoal.oversubscribed || w->n % NET_YIELD_EVERY == 0;
}

/* How long a sleep may last before the sleeper looks again without being
 * rung: an eighth of the time it has slept so far, between
 * SHOAL_WAIT_SLEEP_US and SHOAL_WAIT_SLEEP_MAX_US.  Only data stored
 * through shmem_ptr needs the look (every other writer rings), and it is
 * then seen within an eighth of the wait's length.  A fixed 200 us woke
 * every idle PE 5,000 times a second, and on a crowded host those wakes
 * (with its network thread's, ofi_progress.c) were the tail of the PEs
 * that work: 2 hosts x 4 PEs on 2 cores, one PE timing single fetch-adds
 * while six sleep in a barrier, p99 / median 4.5-5.4 -> 2.5-2.8 (3 runs
 * alternating); either change alone left it at 3.5-5.0. */
static struct timespec sleep_time(const struct shoal_waiter *w)
{
    uint64_t first = (uint64_t)shoal_cfg.wait_sleep_us * 1000u, most = (uint64_t)shoal_cfg.wait_sleep_max_us * 1000u;
    uint64_t ns = (now_ns() - w->armed_at) / 8;
    if (ns > most)
        ns = most;
    if (ns < first)
        ns = first;
    return (struct timespec){(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
}

/* Called by SHOAL_WAIT_WHILE each time its condition still holds. */
void shoal_waiter_pause(struct shoal_waiter *w)
{
    unsigned spins = spin_limit();
    if (poll_this_look(w, spins))
        shoal_poll();
    if (w->n < spins) {
        w->n++;
        shoal_cpu_relax();
        return;
    }
    if (!shoal.my_ctl || keep_yielding(w, spins)) {
        w->n++;
        if (yield_this_look(w))
            sched_yield();
        else
            shoal_cpu_relax();
        return;
    }
    struct shoal_pe_ctl *c = shoal.my_ctl;
    if (!w->armed) {
        /* Announce the sleep, then let the caller re-check its condition: a
         * writer either sees sleepers > 0 or wrote before that re-check. */
        count_sleeper(c, 1);
        hand_over();
        w->armed = true;
        w->armed_at = now_ns();
        w->rearm = true;
    }
    if (w->rearm) {
        look_at_doorbell(w, c);
        w->rearm = false;
        w->grace = fence_others ? 0 : 4;
        return;
    }
    if (w->grace) {   /* no asymmetric fence: let writers' last stores drain, re-check */
        w->grace--;
        sched_yield();
        return;
    }
    struct timespec t = sleep_time(w);
    futex(&c->doorbell, FUTEX_WAIT, w->seq, &t);
    if (__atomic_load_n(&c->doorbell, __ATOMIC_SEQ_CST) != w->seq) {
        /* Rung, maybe by traffic that is not what we wait for (a put stream
         * aimed at this PE).  Leave `rung` set, so writers keep skipping the
         * syscall, and go back to yielding for a while before re-arming:
         * a stream of puts then costs the writers one wake per yield
         * period, not one per sleep. */
        w->n = spins;
        if (w->backoff < MAX_BACKOFF && !shoal.oversubscribed)
            w->backoff++;
        w->rearm = true;
        if (shoal_remote)
            disarm(w, c);
    }
}

void shoal_waiter_done(struct shoal_waiter *w)
{
    if (!w->armed)
        return;
    count_sleeper(shoal.my_ctl, -1);
    if (!shoal_remote) {
        uint8_t was = __atomic_load_n(&learned_backoff, __ATOMIC_RELAXED);
        __atomic_store_n(&learned_backoff, shoal_wait_learn(was, now_ns() - w->armed_at, shoal.oversubscribed),
                         __ATOMIC_RELAXED);
    }
}
