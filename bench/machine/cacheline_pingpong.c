/* cacheline_pingpong - the machine's limit for one-way PE-to-PE latency:
 * two processes (fork) bounce a counter through shared cache lines.  Each
 * side waits for the other's value and answers with the next one; the
 * figure is half a round.  Two layouts:
 *  - "cacheline": one line both sides write (the writer already holds the
 *    line it waits on, so a write needs no fetch): the absolute floor;
 *  - "flag_per_side": each side polls its own line and writes the other's,
 *    which is the shape of every SHMEM ping-pong (a PE waits on its own
 *    symmetric flag; the partner's put writes it), so each write first
 *    fetches a line the other side holds.  Shoal's ping-pong is held
 *    against this one.
 *
 * Plain C, no SHMEM: the reference Shoal's ping-pong is held against.
 * Variants: "pinned" (the two processes on CPUs 0 and 1, when the machine
 * has two) and, in full mode or with --unpinned, "unpinned" (left to the
 * scheduler, as a SHMEM launcher that does not bind would leave PEs).  The best of several measurements
 * is reported: a limit, not a typical value. */
#include "../common/bench_core.h"
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define CACHE_LINE 64
#define MEASUREMENTS 5

struct shared_line {
    _Alignas(CACHE_LINE) volatile long counter;
};

#define STOP (-1L)

/* Where each side waits and writes; both the same line in the one-line layout. */
struct lines {
    struct shared_line *to_answerer, *to_asker;
};

/* The answering side: waits for an odd value, answers with the next even
 * one, until the asking side writes STOP. */
static void answer(struct lines l)
{
    for (;;) {
        long v;
        while (((v = l.to_answerer->counter) & 1) == 0 && v != STOP)
            ;
        if (v == STOP)
            return;
        l.to_asker->counter = v + 1;
    }
}

struct pingpong_result {
    double seconds;
    long rounds;
};

/* The timing side: sends odd values and waits for the answers, for
 * `rounds` rounds or until time_limit seconds have passed (a busy machine
 * can deschedule the other side for milliseconds at a time). */
static struct pingpong_result ask(struct lines l, long rounds, double time_limit)
{
    struct pingpong_result res = { 0.0, 0 };
    double t0 = bench_now();
    long base = l.to_asker->counter;
    for (long r = 0; r < rounds; r++) {
        long v = base + 2 * r + 1;
        l.to_answerer->counter = v;
        while (l.to_asker->counter != v + 1)
            ;
        res.rounds = r + 1;
        if ((r & 1023) == 1023 && bench_now() - t0 > time_limit)
            break;
    }
    res.seconds = bench_now() - t0;
    return res;
}

/* One measurement in a fresh pair of processes. */
static struct pingpong_result measure(long rounds, int pinned, int two_lines, double time_limit)
{
    struct shared_line *line = mmap(NULL, 2 * sizeof *line, PROT_READ | PROT_WRITE,
                                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    struct lines l = {line, two_lines ? line + 1 : line};
    struct pingpong_result res;
    pid_t child;
    if (line == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    line[0].counter = line[1].counter = 0;
    child = fork();
    if (child == 0) {
        if (pinned)
            bench_pin_to_cpu(1);
        answer(l);
        _exit(0);
    }
    if (pinned)
        bench_pin_to_cpu(0);
    ask(l, 1, time_limit);  /* both sides running before the clock starts */
    res = ask(l, rounds, time_limit);
    l.to_answerer->counter = STOP;
    waitpid(child, NULL, 0);
    munmap(line, 2 * sizeof *line);
    return res;
}

static double budget_of(const struct bench_opts *o)
{
    return o->mode == BENCH_FULL ? 0.2 : o->mode == BENCH_QUICK ? 0.05 : 0.001;
}

/* Rounds that take about the time budget, from a short probe. */
static long rounds_for_budget(const struct bench_opts *o, int pinned, int two_lines)
{
    struct pingpong_result probe = measure(200, pinned, two_lines, budget_of(o));
    return bench_iters_for_budget(budget_of(o), probe.seconds / probe.rounds, 100, 2000000);
}

static void run_variant(const struct bench_opts *o, int pinned, int two_lines)
{
    long rounds = rounds_for_budget(o, pinned, two_lines);
    double best = 1e300;
    for (int m = 0; m < MEASUREMENTS; m++) {
        struct pingpong_result r = measure(rounds, pinned, two_lines, 3 * budget_of(o));
        if (r.seconds / r.rounds < best)
            best = r.seconds / r.rounds;
    }
    bench_print_result("machine_pingpong", two_lines ? "flag_per_side" : "cacheline", pinned ? "pinned" : "unpinned",
                       CACHE_LINE, "latency_us", best / 2 * 1e6, rounds, 2, NULL);
}

int main(int argc, char **argv)
{
    struct bench_opts o = bench_parse_opts(argc, argv);
    bench_core_init();
    if (sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
        run_variant(&o, 1, 0);
        run_variant(&o, 1, 1);
    } else
        bench_print_skip("machine_pingpong", "cacheline", 2, "pinned needs two CPUs");
    /* Unpinned spinning pairs can share a CPU and then need the scheduler
     * for every round: slow and noisy, so only in full mode or on request. */
    if (o.mode == BENCH_FULL || bench_arg_flag(argc, argv, "unpinned"))
        run_variant(&o, 0, 0);
    bench_print_verdict("machine_pingpong", 0, 2);
    return 0;
}
